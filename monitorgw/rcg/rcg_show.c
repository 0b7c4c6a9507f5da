/* rcg_show.c -- one (show ...) line back into a disp_show_t (rcg.h), the inverse of
 * common/disp_text.c's disp_text_show for monitor versions 3-5 and text logs
 * (docs/protocol/monitor.md §4):
 *   (show T [(pm N)] [(tm L R SL SR [pens])] ((b) X Y VX VY) PLAYER x 22)
 *   PLAYER = ((S U) TYPE STATE X Y VX VY BODY NECK [PX PY] (v Q W) [(fp D DIR)]
 *            (s ST EF REC [CAP]) [(f S U)] (c K D T CA MV TN CV SAY TA PT AT [CF]))
 * Angles come in degrees and are kept in radians as disp_show_t has them; a player whose
 * state is 0 is an unconnected one. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "geom.h"
#include "playmode.h"
#include "rcg.h"

typedef struct cur {
    const char *s;
    int         bad;
} cur_t;

static void ws(cur_t *c)
{
    while (*c->s == ' ' || *c->s == '\t')
        c->s++;
}

static int lit(cur_t *c, const char *t)
{
    ws(c);
    size_t n = strlen(t);
    if (strncmp(c->s, t, n) != 0) {
        c->bad = 1;
        return -1;
    }
    c->s += n;
    return 0;
}

static int peek(cur_t *c, const char *t)
{
    ws(c);
    return strncmp(c->s, t, strlen(t)) == 0;
}

static double real(cur_t *c)
{
    char *end;
    ws(c);
    double v = strtod(c->s, &end);
    if (end == c->s || !isfinite(v)) {
        c->bad = 1;
        return 0.0;
    }
    c->s = end;
    return v;
}

static long integer(cur_t *c, int base)
{
    char *end;
    ws(c);
    long v = strtol(c->s, &end, base);
    if (end == c->s)
        c->bad = 1;
    c->s = end;
    return v;
}

/* l or r: 1 or -1 */
static int side_of(cur_t *c)
{
    ws(c);
    char ch = *c->s;
    if (ch != 'l' && ch != 'r') {
        c->bad = 1;
        return 0;
    }
    c->s++;
    return ch == 'l' ? 1 : -1;
}

/* (v h|l WIDTH), the width in degrees */
static void view(cur_t *c, disp_player_t *p)
{
    lit(c, "(v");
    ws(c);
    p->view_high = *c->s == 'h';
    if (*c->s == 'h' || *c->s == 'l')
        c->s++;
    else
        c->bad = 1;
    p->view_width = real(c);
    lit(c, ")");
}

static void counters(cur_t *c, disp_player_t *p)
{
    lit(c, "(c");
    for (int k = 0; k < DISP_CNT_N && !peek(c, ")"); k++)
        p->count[k] = (uint32_t)integer(c, 10);
    lit(c, ")");
}

static void player_body(cur_t *c, disp_player_t *p)
{
    p->x = real(c);
    p->y = real(c);
    p->vx = real(c);
    p->vy = real(c);
    p->body = deg2rad(real(c));
    p->neck = deg2rad(real(c));
    if (!peek(c, "(")) { /* pointing: the global target */
        p->point_x = real(c);
        p->point_y = real(c);
        p->pointing = 1;
    }
    view(c, p);
    if (peek(c, "(fp")) {
        lit(c, "(fp");
        p->focus_dist = real(c);
        p->focus_dir = deg2rad(real(c));
        lit(c, ")");
    }
    lit(c, "(s");
    p->stamina = real(c);
    p->effort = real(c);
    p->recovery = real(c);
    if (!peek(c, ")"))
        p->capacity = real(c);
    lit(c, ")");
    if (peek(c, "(f ")) {
        lit(c, "(f");
        p->focus_side = side_of(c);
        p->focus_unum = (int)integer(c, 10);
        lit(c, ")");
    }
    counters(c, p);
}

static void player(cur_t *c, disp_show_t *s)
{
    lit(c, "((");
    int side = side_of(c);
    long unum = integer(c, 10);
    lit(c, ")");
    if (c->bad || unum < 1 || unum > DISP_PLAYERS / 2) {
        c->bad = 1;
        return;
    }
    disp_player_t *p = &s->player[(side > 0 ? 0 : DISP_PLAYERS / 2) + (int)unum - 1];
    memset(p, 0, sizeof *p);
    p->side = side;
    p->unum = (int)unum;
    p->type = (int)integer(c, 10);
    p->state = (uint32_t)integer(c, 0); /* hex with 0x, or a bare 0 */
    p->enabled = p->state != 0;
    player_body(c, p);
    lit(c, ")");
}

static void team_info(cur_t *c, disp_show_t *s)
{
    lit(c, "(tm");
    for (int k = 0; k < 2; k++) {
        ws(c);
        size_t n = strcspn(c->s, " )");
        if (n == 0 || n >= DISP_NAME_LEN) {
            c->bad = 1;
            return;
        }
        memset(s->team[k], 0, DISP_NAME_LEN);
        if (!(n == 4 && strncmp(c->s, "null", 4) == 0))
            memcpy(s->team[k], c->s, n);
        c->s += n;
    }
    s->score[0] = (int)integer(c, 10);
    s->score[1] = (int)integer(c, 10);
    s->pen_score[0] = s->pen_miss[0] = s->pen_score[1] = s->pen_miss[1] = 0;
    if (!peek(c, ")")) {
        s->pen_score[0] = (int)integer(c, 10);
        s->pen_miss[0] = (int)integer(c, 10);
        s->pen_score[1] = (int)integer(c, 10);
        s->pen_miss[1] = (int)integer(c, 10);
    }
    lit(c, ")");
}

/* players not in the line: unconnected, where the reference lists them
 * (docs/protocol/monitor.md §4) */
static void no_players(disp_show_t *s)
{
    for (int i = 0; i < DISP_PLAYERS; i++) {
        disp_player_t *p = &s->player[i];
        memset(p, 0, sizeof *p);
        p->side = i < DISP_PLAYERS / 2 ? 1 : -1;
        p->unum = i % (DISP_PLAYERS / 2) + 1;
        p->x = -3.0 * p->unum * p->side;
        p->y = -37.0;
        p->view_high = 1;
        p->view_width = 90;
    }
}

int rcg_parse_show(const char *line, disp_show_t *s)
{
    cur_t c = { line, 0 };
    lit(&c, "(show");
    s->time = (int)integer(&c, 10);
    s->stime = 0;
    if (peek(&c, "(pm")) {
        lit(&c, "(pm");
        long pm = integer(&c, 10);
        s->pmode = pm >= 0 && pm < PM_MAX ? (int)pm : 0;
        lit(&c, ")");
    }
    if (peek(&c, "(tm"))
        team_info(&c, s);
    lit(&c, "((b)");
    s->bx = real(&c);
    s->by = real(&c);
    s->bvx = real(&c);
    s->bvy = real(&c);
    lit(&c, ")");
    no_players(s);
    for (int i = 0; i < DISP_PLAYERS && !c.bad && !peek(&c, ")"); i++)
        player(&c, s);
    lit(&c, ")");
    return c.bad ? -1 : 0;
}
