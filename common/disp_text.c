/* disp_text.c -- (show ...) frames of monitor protocols 3, 4, 5 (and the text game-log
 * lines), (msg ...) lines and team-graphic tiles (spec monitor-log-coach.md 1.4, 1.5).
 * Numbers as the reference's streams print them (%g, 6 digits) after quantising
 * positions to 0.0001 and angles to 0.001 degrees. */
#include <math.h>
#include <stdio.h>
#include "disp_text.h"
#include "playmode.h"
#include "strbuf.h"

/* " v" with v quantised to q (q = 0: as is) */
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

static void enc_counters(strbuf_t *e, const disp_player_t *p, int version)
{
    const uint32_t *c = p->count;
    strbuf_printf(e, " (c %u %u %u %u %u %u %u %u %u %u %u", c[DISP_CNT_KICK],
                  c[DISP_CNT_DASH], c[DISP_CNT_TURN], c[DISP_CNT_CATCH], c[DISP_CNT_MOVE],
                  c[DISP_CNT_TURN_NECK], c[DISP_CNT_CHANGE_VIEW], c[DISP_CNT_SAY],
                  c[DISP_CNT_TACKLE], c[DISP_CNT_POINTTO], c[DISP_CNT_ATTENTIONTO]);
    if (version >= 5)
        strbuf_printf(e, " %u", c[DISP_CNT_CHANGE_FOCUS]);
    strbuf_printf(e, "))");
}

static void enc_player(strbuf_t *e, const disp_player_t *p, int version)
{
    strbuf_printf(e, " ((%c %d) %d", p->side < 0 ? 'r' : 'l', p->unum, p->type);
    if (p->state) /* the reference's showbase prints zero as a bare 0 */
        strbuf_printf(e, " 0x%x", p->state);
    else
        strbuf_printf(e, " 0");
    enc_real(e, p->x, 0.0001);
    enc_real(e, p->y, 0.0001);
    enc_real(e, p->vx, 0.0001);
    enc_real(e, p->vy, 0.0001);
    enc_real(e, p->body * 180.0 / M_PI, 0.001);
    enc_real(e, p->neck * 180.0 / M_PI, 0.001);
    if (p->pointing) {
        enc_real(e, p->point_x, 0.0001);
        enc_real(e, p->point_y, 0.0001);
    }
    strbuf_printf(e, " (v %c", p->view_high ? 'h' : 'l');
    enc_real(e, p->view_width, 0.0);
    strbuf_printf(e, ")");
    if (version >= 5) {
        strbuf_printf(e, " (fp");
        enc_real(e, p->focus_dist, 0.0001);
        enc_real(e, p->focus_dir * 180.0 / M_PI, 0.0001);
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
        strbuf_printf(e, " (f %c %d)", p->focus_side < 0 ? 'r' : 'l', p->focus_unum);
    enc_counters(e, p, version);
}

int disp_text_show(const disp_show_t *s, int version, int flags, char *buf, size_t len)
{
    strbuf_t e = { buf, len, 0, 0 };
    if (len == 0)
        return -1;
    strbuf_printf(&e, "(show %d", s->time);
    if (!(flags & DISP_TEXT_LOG)) {
        strbuf_printf(&e, " (pm %d) (tm %s %s %d %d", s->pmode,
                      s->team[0][0] ? s->team[0] : "null", s->team[1][0] ? s->team[1] : "null",
                      s->score[0], s->score[1]);
        if (s->pen_score[0] + s->pen_miss[0] + s->pen_score[1] + s->pen_miss[1] > 0)
            strbuf_printf(&e, " %d %d %d %d", s->pen_score[0], s->pen_miss[0], s->pen_score[1],
                          s->pen_miss[1]);
        strbuf_printf(&e, ")");
    }
    strbuf_printf(&e, " ((b)");
    enc_real(&e, s->bx, 0.0001);
    enc_real(&e, s->by, 0.0001);
    enc_real(&e, s->bvx, 0.0001);
    enc_real(&e, s->bvy, 0.0001);
    strbuf_printf(&e, ")");
    for (int i = 0; i < DISP_PLAYERS; i++)
        enc_player(&e, &s->player[i], version);
    strbuf_printf(&e, ")");
    return e.overflow ? -1 : (int)e.pos;
}

int disp_text_msg(int time, int board, const char *text, char *buf, size_t len)
{
    int n = snprintf(buf, len, "(msg %d %d \"%s\")", time, board, text);
    return n < 0 || (size_t)n >= len ? -1 : n;
}

int disp_text_team_graphic(int side, int x, int y, const char *lines, char *buf, size_t len)
{
    int n = snprintf(buf, len, "(team_graphic_%c (%d %d %s)", side < 0 ? 'r' : 'l', x, y, lines);
    return n < 0 || (size_t)n >= len ? -1 : n;
}
