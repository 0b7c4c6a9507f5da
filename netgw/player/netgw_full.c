/* netgw_full.c -- (fullstate ...) for a player whose side has server::fullstate_l/_r
 * on, sent right after its sense_body (docs/protocol/player.md §8). Everything in the
 * absolute, unmirrored frame. Layouts: v5-v7 (values rounded, the reference's score
 * quirk), v8-v12, v13 (stamina capacity, t/k flag), v14-v17 (goalie id with type,
 * t/k/f and y/r flags), v18+ (focus point, change_focus count). v1-v4 get none.
 * Pure: built from the published snapshot and the client-table entry. */
#include <math.h>
#include "geom.h"
#include "netgw_proto.h"
#include "playmode.h"
#include "strbuf.h"

/* the reference rounds v5-v7 values with a float step: 0.001f and 0.0001f as doubles */
#define FS_Q3 ((double)0.001f)
#define FS_Q4 ((double)0.0001f)

static double fs_quantize(double v, double q)
{
    return rint(v / q) * q;
}

static const char *fs_width(int w)
{
    return w == SHM_VIEW_NARROW ? "narrow" : w == SHM_VIEW_WIDE ? "wide" : "normal";
}

/* (pmode M) (vmode Q W); a goalie holding the ball in free_kick shows as
 * goalie_catch_ball_l/r */
static void fs_head(strbuf_t *o, const shm_snapshot_sh_t *s, const shm_client_sh_t *cl)
{
    const char *pm = playmode_name(s->play_mode);
    if (s->catcher > 0 && s->play_mode == PM_FREE_KICK_L)
        pm = "goalie_catch_ball_l";
    else if (s->catcher > 0 && s->play_mode == PM_FREE_KICK_R)
        pm = "goalie_catch_ball_r";
    strbuf_puts(o, "(fullstate ");
    strbuf_int(o, (int)s->time);
    strbuf_puts(o, " (pmode ");
    strbuf_puts(o, pm);
    strbuf_puts(o, cl->view_high ? ") (vmode high " : ") (vmode low ");
    strbuf_puts(o, fs_width(cl->view_width));
    strbuf_putc(o, ')');
}

/* ---- v5-v7 -------------------------------------------------------------------------- */
static void fs_v5(strbuf_t *o, const shm_snapshot_sh_t *s)
{
    /* the reference's quirk: the first number is the right team's score, the second 0 */
    int left = s->team[0][0] ? s->score[1] : 0;
    strbuf_puts(o, " (score ");
    strbuf_int(o, left);
    strbuf_puts(o, " 0) (ball");
    double b[4] = { s->ball.x, s->ball.y, s->ball.vx, s->ball.vy };
    for (int k = 0; k < 4; k++)
        strbuf_real(o, fs_quantize(b[k], FS_Q3));
    strbuf_putc(o, ')');
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        const shm_player_sh_t *p = &s->player[i];
        if (!p->enabled)
            continue;
        strbuf_puts(o, p->side == SHM_SIDE_LEFT ? " (l_" : " (r_");
        strbuf_int(o, (int)p->unum);
        double v[6] = { p->x, p->y, p->vx, p->vy, rad2deg(p->body), rad2deg(p->neck) };
        for (int k = 0; k < 6; k++)
            strbuf_real(o, fs_quantize(v[k], FS_Q3));
        strbuf_real(o, (double)(int)p->stamina);
        strbuf_real(o, fs_quantize(p->effort, FS_Q4));
        strbuf_real(o, fs_quantize(p->recovery, FS_Q4));
        strbuf_putc(o, ')');
    }
}

/* ---- v8+ ------------------------------------------------------------------------------ */
/* the pointed spot relative to player p's position and face, as a vector */
static vec2_t fs_arm(const shm_player_sh_t *p)
{
    if (p->arm_expires <= 0)
        return vec2(0.0, 0.0);
    vec2_t rel = vec2(p->point_x - p->x, p->point_y - p->y);
    double face = p->body + p->neck;
    return vec2(rel.x * cos(-face) - rel.y * sin(-face), rel.x * sin(-face) + rel.y * cos(-face));
}

/* (count ...) (arm ...) of the receiving player */
static void fs_self(strbuf_t *o, const shm_player_sh_t *me, int ver)
{
    const uint32_t *n = me->count;
    static const int order[9] = { SHM_CNT_KICK, SHM_CNT_DASH, SHM_CNT_TURN, SHM_CNT_CATCH,
                                  SHM_CNT_MOVE, SHM_CNT_TURN_NECK, SHM_CNT_CHANGE_VIEW,
                                  SHM_CNT_SAY, SHM_CNT_CHANGE_FOCUS };
    strbuf_puts(o, " (count");
    for (int k = 0; k < (ver >= 18 ? 9 : 8); k++) {
        strbuf_putc(o, ' ');
        strbuf_uint(o, n[order[k]]);
    }
    vec2_t a = fs_arm(me);
    strbuf_puts(o, ") (arm (movable ");
    strbuf_int(o, (int)me->arm_movable);
    strbuf_puts(o, ") (expires ");
    strbuf_int(o, (int)me->arm_expires);
    strbuf_puts(o, ") (target");
    strbuf_real(o, vec2_len(a));
    double head = rad2deg(vec2_angle(a));
    strbuf_putc(o, ' ');
    strbuf_int(o, isfinite(head) ? (int)rint(head) : 0);
    strbuf_puts(o, ") (count ");
    strbuf_uint(o, n[SHM_CNT_POINTTO]);
    strbuf_puts(o, "))");
}

static void fs_player(strbuf_t *o, const shm_player_sh_t *p, int ver)
{
    strbuf_puts(o, p->side == SHM_SIDE_LEFT ? " ((p l " : " ((p r ");
    strbuf_int(o, (int)p->unum);
    if (p->goalie)
        strbuf_put(o, " g", 2);
    if (!p->goalie || ver >= 14) {
        strbuf_putc(o, ' ');
        strbuf_int(o, (int)p->type);
    }
    strbuf_putc(o, ')');
    double v[6] = { p->x, p->y, p->vx, p->vy, rad2deg(p->body), rad2deg(p->neck) };
    for (int k = 0; k < 6; k++)
        strbuf_real(o, v[k]);
    if (p->arm_expires > 0) { /* distance and direction (radians, as the reference) */
        vec2_t a = fs_arm(p);
        strbuf_real(o, vec2_len(a));
        strbuf_real(o, atan2(a.y, a.x));
    }
    if (ver >= 18) {
        strbuf_puts(o, " (focus_point");
        strbuf_real(o, p->focus_dist);
        strbuf_real(o, rad2deg(p->focus_dir));
        strbuf_putc(o, ')');
    }
    strbuf_puts(o, " (stamina");
    strbuf_real(o, p->stamina);
    strbuf_real(o, p->effort);
    strbuf_real(o, p->recovery);
    if (ver >= 13)
        strbuf_real(o, p->capacity);
    strbuf_putc(o, ')');
    if (ver >= 13) {
        if (p->tackle_expires > 0)
            strbuf_put(o, " t", 2);
        else if (p->kicked)
            strbuf_put(o, " k", 2);
        else if (ver >= 14 && p->foul_charged > 0)
            strbuf_put(o, " f", 2);
    }
    if (ver >= 14 && p->card == 2)
        strbuf_put(o, " r", 2);
    else if (ver >= 14 && p->card == 1)
        strbuf_put(o, " y", 2);
    strbuf_putc(o, ')');
}

static void fs_v8(strbuf_t *o, const shm_snapshot_sh_t *s, int idx, int ver)
{
    const shm_player_sh_t *me = &s->player[idx];
    fs_self(o, me, ver);
    int ours = me->side == SHM_SIDE_RIGHT ? 1 : 0;
    int our = s->team[ours][0] ? s->score[ours] : 0;
    int their = s->team[1 - ours][0] ? s->score[1 - ours] : 0;
    strbuf_puts(o, " (score ");
    strbuf_int(o, our);
    strbuf_putc(o, ' ');
    strbuf_int(o, their);
    strbuf_puts(o, ") ((b)");
    strbuf_real(o, s->ball.x);
    strbuf_real(o, s->ball.y);
    strbuf_real(o, s->ball.vx);
    strbuf_real(o, s->ball.vy);
    strbuf_putc(o, ')');
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        if (s->player[i].enabled)
            fs_player(o, &s->player[i], ver);
    }
}

int proto_fullstate(const shm_snapshot_sh_t *s, int idx, const shm_client_sh_t *cl,
                    char *buf, size_t len)
{
    if (!s || !cl || !buf || len == 0 || idx < 0 || idx >= SHM_MAX_PLAYERS)
        return -1;
    int ver = (int)cl->version;
    buf[0] = '\0';
    if (ver < 5)
        return 0;
    strbuf_t o = { buf, len, 0, 0 };
    fs_head(&o, s, cl);
    if (ver < 8)
        fs_v5(&o, s);
    else
        fs_v8(&o, s, idx, ver);
    strbuf_putc(&o, ')');
    if (o.overflow) {
        buf[0] = '\0';
        return -1;
    }
    return (int)o.pos;
}

int proto_fullstate_on(const conf_t *c, int side)
{
    return conf_bool(c, side == SHM_SIDE_LEFT ? SP_fullstate_l : SP_fullstate_r);
}
