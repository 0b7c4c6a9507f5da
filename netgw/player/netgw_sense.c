/* netgw_sense.c -- (sense_body ...) for one player, by protocol version (see
 * docs/protocol/player.md §6). Pure: built from the published snapshot and the client-table
 * entry (view mode); called by the gateway at the start of every cycle and on a
 * (sense_body) request. */
#include <math.h>
#include "geom.h"
#include "netgw_proto.h"
#include "strbuf.h"
#include "playmode.h"

/* degrees truncated toward zero, as every sense_body angle */
static int sb_trunc_deg(double rad)
{
    double d = rad2deg(angle_norm(rad));
    return isfinite(d) ? (int)d : 0;
}

static const char *sb_width_name(int w)
{
    return w == SHM_VIEW_NARROW ? "narrow" : w == SHM_VIEW_WIDE ? "wide" : "normal";
}

/* "TEXT" N ")" */
static void sb_uint(strbuf_t *o, const char *text, uint32_t n)
{
    strbuf_puts(o, text);
    strbuf_uint(o, n);
    strbuf_putc(o, ')');
}

static void sb_int(strbuf_t *o, const char *text, int n)
{
    strbuf_puts(o, text);
    strbuf_int(o, n);
    strbuf_putc(o, ')');
}

/* (view_mode Q W) (stamina S E [CAP]) (speed V [DIR]) [(head_angle A)] */
static void sb_state(strbuf_t *o, const shm_player_sh_t *p, const shm_client_sh_t *cl,
                     int ver)
{
    strbuf_puts(o, cl->view_high ? " (view_mode high " : " (view_mode low ");
    strbuf_puts(o, sb_width_name(cl->view_width));
    strbuf_puts(o, ") (stamina");
    strbuf_real(o, p->stamina);
    strbuf_real(o, p->effort);
    if (ver >= 13)
        strbuf_real(o, p->capacity);
    vec2_t v = vec2(p->vx, p->vy);
    strbuf_puts(o, ") (speed");
    strbuf_real(o, rint(vec2_len(v) / 0.01) * 0.01);
    if (ver >= 6) {
        strbuf_putc(o, ' ');
        strbuf_int(o, sb_trunc_deg(vec2_angle(v) - (p->body + p->neck)));
    }
    strbuf_putc(o, ')');
    if (ver >= 5)
        sb_int(o, " (head_angle ", sb_trunc_deg(p->neck));
}

/* the command counters, in the order of the version table */
static void sb_counts(strbuf_t *o, const shm_player_sh_t *p, int ver)
{
    const uint32_t *n = p->count;
    sb_uint(o, " (kick ", n[SHM_CNT_KICK]);
    sb_uint(o, " (dash ", n[SHM_CNT_DASH]);
    sb_uint(o, " (turn ", n[SHM_CNT_TURN]);
    sb_uint(o, " (say ", n[SHM_CNT_SAY]);
    if (ver >= 5)
        sb_uint(o, " (turn_neck ", n[SHM_CNT_TURN_NECK]);
    if (ver >= 7) {
        sb_uint(o, " (catch ", n[SHM_CNT_CATCH]);
        sb_uint(o, " (move ", n[SHM_CNT_MOVE]);
        sb_uint(o, " (change_view ", n[SHM_CNT_CHANGE_VIEW]);
    }
    if (ver >= 18)
        sb_uint(o, " (change_focus ", n[SHM_CNT_CHANGE_FOCUS]);
}

/* (arm ...) (focus ...) (tackle ...), v8+ */
static void sb_arm_focus_tackle(strbuf_t *o, const shm_player_sh_t *p)
{
    double dist = 0.0;
    int dir = 0;
    if (p->arm_expires > 0) {
        vec2_t rel = vec2(p->point_x - p->x, p->point_y - p->y);
        dist = rint(vec2_len(rel) / 0.1) * 0.1;
        /* direction rounded to 0.1 degree, then printed as a truncated int */
        double deg = rad2deg(angle_norm(vec2_angle(rel) - (p->body + p->neck)));
        dir = isfinite(deg) ? (int)(rint(deg / 0.1) * 0.1) : 0;
    }
    sb_int(o, " (arm (movable ", (int)p->arm_movable);
    sb_int(o, " (expires ", (int)p->arm_expires);
    strbuf_puts(o, " (target");
    strbuf_real(o, dist);
    strbuf_putc(o, ' ');
    strbuf_int(o, dir);
    sb_uint(o, ") (count ", p->count[SHM_CNT_POINTTO]);
    strbuf_putc(o, ')');
    if ((p->focus_side == SHM_SIDE_LEFT || p->focus_side == SHM_SIDE_RIGHT)
        && p->focus_unum >= 1 && p->focus_unum <= SHM_TEAM_SIZE) {
        strbuf_puts(o, p->focus_side == SHM_SIDE_LEFT ? " (focus (target l " : " (focus (target r ");
        sb_int(o, "", (int)p->focus_unum);
    } else {
        strbuf_puts(o, " (focus (target none)");
    }
    sb_uint(o, " (count ", p->count[SHM_CNT_ATTENTIONTO]);
    strbuf_putc(o, ')');
    sb_int(o, " (tackle (expires ", (int)p->tackle_expires);
    sb_uint(o, " (count ", p->count[SHM_CNT_TACKLE]);
    strbuf_putc(o, ')');
}

/* (collision ...) v12+, (foul ...) v14+, (focus_point ...) v18+ */
static void sb_late(strbuf_t *o, const shm_player_sh_t *p, int ver)
{
    if (ver >= 12) {
        uint32_t c = p->collision & (SHM_COLL_BALL | SHM_COLL_PLAYER | SHM_COLL_POST);
        if (!c) {
            strbuf_puts(o, " (collision none)");
        } else {
            strbuf_puts(o, " (collision");
            if (c & SHM_COLL_BALL)
                strbuf_puts(o, " (ball)");
            if (c & SHM_COLL_PLAYER)
                strbuf_puts(o, " (player)");
            if (c & SHM_COLL_POST)
                strbuf_puts(o, " (post)");
            strbuf_putc(o, ')');
        }
    }
    if (ver >= 14) {
        static const char *const cards[3] = { "none", "yellow", "red" };
        int card = p->card >= 0 && p->card <= 2 ? p->card : 0;
        sb_int(o, " (foul (charged ", (int)p->foul_charged);
        strbuf_puts(o, " (card ");
        strbuf_puts(o, cards[card]);
        strbuf_puts(o, "))");
    }
    if (ver >= 18) {
        strbuf_puts(o, " (focus_point ");
        strbuf_real_bare(o, p->focus_dist);
        strbuf_real(o, rad2deg(p->focus_dir));
        strbuf_putc(o, ')');
    }
}

/* sense_body for player idx, shaped by the client's protocol version (integer part).
 * Returns the length written, or -1 if buf is too small or the arguments are bad. */
int proto_sense_body(const shm_snapshot_sh_t *s, int idx, const shm_client_sh_t *cl,
                     const conf_t *c, char *buf, size_t len)
{
    (void)c;
    if (!s || !cl || !buf || len == 0 || idx < 0 || idx >= SHM_MAX_PLAYERS)
        return -1;
    const shm_player_sh_t *p = &s->player[idx];
    int ver = (int)cl->version;
    strbuf_t o = { buf, len, 0, 0 };
    strbuf_puts(&o, "(sense_body ");
    strbuf_int(&o, (int)s->time);
    sb_state(&o, p, cl, ver);
    sb_counts(&o, p, ver);
    if (ver >= 8)
        sb_arm_focus_tackle(&o, p);
    sb_late(&o, p, ver);
    strbuf_putc(&o, ')');
    if (o.overflow) {
        buf[0] = '\0';
        return -1;
    }
    return (int)o.pos;
}
