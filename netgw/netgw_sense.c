/* netgw_sense.c -- (sense_body ...) for one player, by protocol version (spec
 * player-sim.md 1.5). Pure: built from the published snapshot and the client-table
 * entry (view mode); called by the gateway at the start of every cycle and on a
 * (sense_body) request. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include "geom.h"
#include "netgw_proto.h"
#include "strbuf.h"
#include "playmode.h"

/* a real as the reference prints it (6 significant digits, no trailing zeros) */
static void sb_real(strbuf_t *o, double v)
{
    char tmp[48];
    fmt_real(tmp, sizeof tmp, v);
    strbuf_printf(o, "%s", tmp);
}

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

/* (view_mode Q W) (stamina S E [CAP]) (speed V [DIR]) [(head_angle A)] */
static void sb_state(strbuf_t *o, const shm_player_sh_t *p, const shm_client_sh_t *cl,
                     int ver)
{
    strbuf_printf(o, " (view_mode %s %s)", cl->view_high ? "high" : "low",
              sb_width_name(cl->view_width));
    strbuf_printf(o, " (stamina ");
    sb_real(o, p->stamina);
    strbuf_printf(o, " ");
    sb_real(o, p->effort);
    if (ver >= 13) {
        strbuf_printf(o, " ");
        sb_real(o, p->capacity);
    }
    vec2_t v = vec2(p->vx, p->vy);
    strbuf_printf(o, ") (speed ");
    sb_real(o, rint(vec2_len(v) / 0.01) * 0.01);
    if (ver >= 6)
        strbuf_printf(o, " %d", sb_trunc_deg(vec2_angle(v) - (p->body + p->neck)));
    strbuf_printf(o, ")");
    if (ver >= 5)
        strbuf_printf(o, " (head_angle %d)", sb_trunc_deg(p->neck));
}

/* the command counters, in the order of the version table */
static void sb_counts(strbuf_t *o, const shm_player_sh_t *p, int ver)
{
    const uint32_t *n = p->count;
    strbuf_printf(o, " (kick %u) (dash %u) (turn %u) (say %u)", n[SHM_CNT_KICK],
              n[SHM_CNT_DASH], n[SHM_CNT_TURN], n[SHM_CNT_SAY]);
    if (ver >= 5)
        strbuf_printf(o, " (turn_neck %u)", n[SHM_CNT_TURN_NECK]);
    if (ver >= 7)
        strbuf_printf(o, " (catch %u) (move %u) (change_view %u)", n[SHM_CNT_CATCH],
                  n[SHM_CNT_MOVE], n[SHM_CNT_CHANGE_VIEW]);
    if (ver >= 18)
        strbuf_printf(o, " (change_focus %u)", n[SHM_CNT_CHANGE_FOCUS]);
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
    strbuf_printf(o, " (arm (movable %d) (expires %d) (target ", (int)p->arm_movable,
              (int)p->arm_expires);
    sb_real(o, dist);
    strbuf_printf(o, " %d) (count %u))", dir, p->count[SHM_CNT_POINTTO]);
    if ((p->focus_side == SHM_SIDE_LEFT || p->focus_side == SHM_SIDE_RIGHT)
        && p->focus_unum >= 1 && p->focus_unum <= SHM_TEAM_SIZE)
        strbuf_printf(o, " (focus (target %c %d)", p->focus_side == SHM_SIDE_LEFT ? 'l' : 'r',
                  (int)p->focus_unum);
    else
        strbuf_printf(o, " (focus (target none)");
    strbuf_printf(o, " (count %u))", p->count[SHM_CNT_ATTENTIONTO]);
    strbuf_printf(o, " (tackle (expires %d) (count %u))", (int)p->tackle_expires,
              p->count[SHM_CNT_TACKLE]);
}

/* (collision ...) v12+, (foul ...) v14+, (focus_point ...) v18+ */
static void sb_late(strbuf_t *o, const shm_player_sh_t *p, int ver)
{
    if (ver >= 12) {
        uint32_t c = p->collision & (SHM_COLL_BALL | SHM_COLL_PLAYER | SHM_COLL_POST);
        if (!c)
            strbuf_printf(o, " (collision none)");
        else
            strbuf_printf(o, " (collision%s%s%s)", (c & SHM_COLL_BALL) ? " (ball)" : "",
                      (c & SHM_COLL_PLAYER) ? " (player)" : "",
                      (c & SHM_COLL_POST) ? " (post)" : "");
    }
    if (ver >= 14) {
        static const char *const cards[3] = { "none", "yellow", "red" };
        int card = p->card >= 0 && p->card <= 2 ? p->card : 0;
        strbuf_printf(o, " (foul (charged %d) (card %s))", (int)p->foul_charged, cards[card]);
    }
    if (ver >= 18) {
        strbuf_printf(o, " (focus_point ");
        sb_real(o, p->focus_dist);
        strbuf_printf(o, " ");
        sb_real(o, rad2deg(p->focus_dir));
        strbuf_printf(o, ")");
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
    strbuf_printf(&o, "(sense_body %d", (int)s->time);
    sb_state(&o, p, cl, ver);
    sb_counts(&o, p, ver);
    if (ver >= 8)
        sb_arm_focus_tackle(&o, p);
    sb_late(&o, p, ver);
    strbuf_printf(&o, ")");
    if (o.overflow) {
        buf[0] = '\0';
        return -1;
    }
    return (int)o.pos;
}
