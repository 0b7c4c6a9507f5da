/* disp_text.c -- (show ...) frames of monitor protocols 3, 4, 5 (and the text game-log
 * lines), (msg ...) lines and team-graphic tiles (docs/protocol/monitor.md §4, §5).
 * Numbers as the reference's streams print them (%g, 6 digits, the sign of a zero kept)
 * after quantising positions to 0.0001 and angles to 0.001 degrees. */
#include <math.h>
#include <stdio.h>
#include "disp_text.h"
#include "playmode.h"
#include "strbuf.h"

/* " v" with v quantised to q (q = 0: as is), the sign of a zero kept: a small negative
 * quantised to -0 prints "-0", as the reference's streams print it */
static void enc_real(strbuf_t *e, double v, double q)
{
    if (!isfinite(v))
        v = 0.0;
    if (q > 0.0)
        v = rint(v / q) * q;
    strbuf_putc(e, ' ');
    strbuf_g6(e, v);
}

/* " N" */
static void enc_uint(strbuf_t *e, uint32_t v)
{
    strbuf_putc(e, ' ');
    strbuf_uint(e, v);
}

/* " 0x..." as "%x" after 0x */
static void enc_hex(strbuf_t *e, uint32_t v)
{
    char tmp[12];
    int n = 0;
    do {
        tmp[n++] = "0123456789abcdef"[v & 15u];
        v >>= 4;
    } while (v);
    strbuf_put(e, " 0x", 3);
    while (n > 0)
        strbuf_putc(e, tmp[--n]);
}

static void enc_counters(strbuf_t *e, const disp_player_t *p, int version)
{
    static const int order[12] = { DISP_CNT_KICK, DISP_CNT_DASH, DISP_CNT_TURN,
                                    DISP_CNT_CATCH, DISP_CNT_MOVE, DISP_CNT_TURN_NECK,
                                    DISP_CNT_CHANGE_VIEW, DISP_CNT_SAY, DISP_CNT_TACKLE,
                                    DISP_CNT_POINTTO, DISP_CNT_ATTENTIONTO,
                                    DISP_CNT_CHANGE_FOCUS };
    strbuf_puts(e, " (c");
    for (int k = 0; k < (version >= 5 ? 12 : 11); k++)
        enc_uint(e, p->count[order[k]]);
    strbuf_puts(e, "))");
}

static void enc_player(strbuf_t *e, const disp_player_t *p, int version)
{
    strbuf_puts(e, p->side < 0 ? " ((r " : " ((l ");
    strbuf_int(e, p->unum);
    strbuf_put(e, ") ", 2);
    strbuf_int(e, p->type);
    if (p->state) /* the reference's showbase prints zero as a bare 0 */
        enc_hex(e, p->state);
    else
        strbuf_put(e, " 0", 2);
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
    strbuf_puts(e, p->view_high ? " (v h" : " (v l");
    enc_real(e, p->view_width, 0.0);
    strbuf_putc(e, ')');
    if (version >= 5) {
        strbuf_puts(e, " (fp");
        enc_real(e, p->focus_dist, 0.0001);
        enc_real(e, p->focus_dir * 180.0 / M_PI, 0.0001);
        strbuf_putc(e, ')');
    }
    strbuf_puts(e, " (s");
    enc_real(e, p->stamina, 0.0);
    enc_real(e, p->effort, 0.0);
    enc_real(e, p->recovery, 0.0);
    if (version >= 4)
        enc_real(e, p->capacity, 0.0);
    strbuf_putc(e, ')');
    if (p->enabled && p->focus_side != 0) {
        strbuf_puts(e, p->focus_side < 0 ? " (f r " : " (f l ");
        strbuf_int(e, p->focus_unum);
        strbuf_putc(e, ')');
    }
    enc_counters(e, p, version);
}

/* (pm M) (tm L R SL SR [penalties]) */
static void enc_head(strbuf_t *e, const disp_show_t *s)
{
    strbuf_puts(e, " (pm ");
    strbuf_int(e, s->pmode);
    strbuf_puts(e, ") (tm ");
    strbuf_puts(e, s->team[0][0] ? s->team[0] : "null");
    strbuf_putc(e, ' ');
    strbuf_puts(e, s->team[1][0] ? s->team[1] : "null");
    strbuf_putc(e, ' ');
    strbuf_int(e, s->score[0]);
    strbuf_putc(e, ' ');
    strbuf_int(e, s->score[1]);
    if (s->pen_score[0] + s->pen_miss[0] + s->pen_score[1] + s->pen_miss[1] > 0) {
        const int pen[4] = { s->pen_score[0], s->pen_miss[0], s->pen_score[1], s->pen_miss[1] };
        for (int k = 0; k < 4; k++) {
            strbuf_putc(e, ' ');
            strbuf_int(e, pen[k]);
        }
    }
    strbuf_putc(e, ')');
}

int disp_text_show(const disp_show_t *s, int version, int flags, char *buf, size_t len)
{
    strbuf_t e = { buf, len, 0, 0 };
    if (len == 0)
        return -1;
    strbuf_puts(&e, "(show ");
    strbuf_int(&e, s->time);
    if (!(flags & DISP_TEXT_LOG))
        enc_head(&e, s);
    strbuf_puts(&e, " ((b)");
    enc_real(&e, s->bx, 0.0001);
    enc_real(&e, s->by, 0.0001);
    enc_real(&e, s->bvx, 0.0001);
    enc_real(&e, s->bvy, 0.0001);
    strbuf_putc(&e, ')');
    for (int i = 0; i < DISP_PLAYERS; i++)
        enc_player(&e, &s->player[i], version);
    strbuf_putc(&e, ')');
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
