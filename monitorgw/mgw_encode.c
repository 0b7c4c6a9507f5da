/* mgw_encode.c -- the text monitor protocol as pure functions (spec monitor-log-coach.md
 * 1.4, 1.5): (show ...) frames for versions 3, 4 and 5 and (msg ...) lines. No I/O: monitorgw encodes each snapshot once per
 * version in use, tests call these directly. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "geom.h"
#include "mgw.h"
#include "playmode.h"
#include "strbuf.h"

/* " v" with v quantised to q and printed as the reference's stream (%g, 6 digits) */
static void enc_real(strbuf_t *e, double v, double q)
{
    char tmp[48];
    if (!isfinite(v))
        v = 0.0;
    if (q > 0.0)
        v = rint(v / q) * q;
    fmt_real(tmp, sizeof tmp, v);
    strbuf_printf(e, " %s", tmp);
}

static int enc_view_width(const shm_player_sh_t *p)
{
    if (p->synch_see)
        return p->view_width == SHM_VIEW_NARROW ? 60 : p->view_width == SHM_VIEW_WIDE ? 180 : 120;
    return p->view_width == SHM_VIEW_NARROW ? 45 : p->view_width == SHM_VIEW_WIDE ? 180 : 90;
}

static void enc_player(strbuf_t *e, const shm_player_sh_t *p, int idx, int version)
{
    int left = idx < SHM_TEAM_SIZE;
    strbuf_printf(e, " ((%c %d) %d", left ? 'l' : 'r', idx % SHM_TEAM_SIZE + 1, p->enabled ? p->type : 0);
    if (p->state)
        strbuf_printf(e, " 0x%x", p->state);
    else
        strbuf_printf(e, " 0");
    enc_real(e, p->x, 0.0001);
    enc_real(e, p->y, 0.0001);
    enc_real(e, p->vx, 0.0001);
    enc_real(e, p->vy, 0.0001);
    enc_real(e, rad2deg(angle_norm(p->body)), 0.001);
    enc_real(e, rad2deg(angle_norm(p->neck)), 0.001);
    if (p->enabled && p->arm_expires > 0) {
        enc_real(e, p->point_x, 0.0001);
        enc_real(e, p->point_y, 0.0001);
    }
    strbuf_printf(e, " (v %c %d)", p->view_high ? 'h' : 'l', enc_view_width(p));
    if (version >= 5) {
        strbuf_printf(e, " (fp");
        enc_real(e, p->focus_dist, 0.0001);
        enc_real(e, rad2deg(p->focus_dir), 0.0001);
        strbuf_printf(e, ")");
    }
    strbuf_printf(e, " (s");
    enc_real(e, p->stamina, 0.0);
    enc_real(e, p->effort, 0.0);
    enc_real(e, p->recovery, 0.0);
    if (version >= 4)
        enc_real(e, p->capacity, 0.0);
    strbuf_printf(e, ")");
    if (p->enabled && p->focus_side != 0)
        strbuf_printf(e, " (f %c %d)", p->focus_side == SHM_SIDE_LEFT ? 'l' : 'r', p->focus_unum);
    const uint32_t *c = p->count;
    strbuf_printf(e, " (c %u %u %u %u %u %u %u %u %u %u %u", c[SHM_CNT_KICK], c[SHM_CNT_DASH],
               c[SHM_CNT_TURN], c[SHM_CNT_CATCH], c[SHM_CNT_MOVE], c[SHM_CNT_TURN_NECK],
               c[SHM_CNT_CHANGE_VIEW], c[SHM_CNT_SAY], c[SHM_CNT_TACKLE], c[SHM_CNT_POINTTO],
               c[SHM_CNT_ATTENTIONTO]);
    if (version >= 5)
        strbuf_printf(e, " %u", c[SHM_CNT_CHANGE_FOCUS]);
    strbuf_printf(e, "))");
}

/* " ((b) X Y VX VY) PLAYER x 22)": the part of a show after the time (and pm/tm) */
static void enc_objects(strbuf_t *e, const shm_snapshot_sh_t *s, int version)
{
    strbuf_printf(e, " ((b)");
    enc_real(e, s->ball.x, 0.0001);
    enc_real(e, s->ball.y, 0.0001);
    enc_real(e, s->ball.vx, 0.0001);
    enc_real(e, s->ball.vy, 0.0001);
    strbuf_printf(e, ")");
    for (int i = 0; i < SHM_MAX_PLAYERS; i++)
        enc_player(e, &s->player[i], i, version);
    strbuf_printf(e, ")");
}

int mgw_encode_show(const shm_snapshot_sh_t *s, int version, char *buf, size_t len)
{
    strbuf_t e = { buf, len, 0, 0 };
    if (len == 0)
        return -1;
    strbuf_printf(&e, "(show %d (pm %d) (tm %s %s %d %d", s->time, s->play_mode,
               s->team[0][0] ? s->team[0] : "null", s->team[1][0] ? s->team[1] : "null",
               s->score[0], s->score[1]);
    if (s->pen_score[0] + s->pen_miss[0] + s->pen_score[1] + s->pen_miss[1] > 0)
        strbuf_printf(&e, " %d %d %d %d", s->pen_score[0], s->pen_miss[0], s->pen_score[1],
                   s->pen_miss[1]);
    strbuf_printf(&e, ")");
    enc_objects(&e, s, version);
    return e.overflow ? -1 : (int)e.pos;
}

int mgw_encode_show_log(const shm_snapshot_sh_t *s, int version, char *buf, size_t len)
{
    strbuf_t e = { buf, len, 0, 0 };
    if (len == 0)
        return -1;
    strbuf_printf(&e, "(show %d", s->time);
    enc_objects(&e, s, version);
    return e.overflow ? -1 : (int)e.pos;
}

int mgw_encode_msg(int time, int board, const char *text, char *buf, size_t len)
{
    int n = snprintf(buf, len, "(msg %d %d \"%s\")", time, board, text);
    return n < 0 || (size_t)n >= len ? -1 : n;
}
