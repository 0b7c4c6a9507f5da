/* rcg_show.c -- one (show ...) line back into a snapshot (rcg.h), the inverse of
 * mgw_encode_show / mgw_encode_show_log for monitor versions 3-5 (spec 1.4):
 *   (show T [(pm N)] [(tm L R SL SR [pens])] ((b) X Y VX VY) PLAYER x 22)
 *   PLAYER = ((S U) TYPE STATE X Y VX VY BODY NECK [PX PY] (v Q W) [(fp D DIR)]
 *            (s ST EF REC [CAP]) [(f S U)] (c K D T CA MV TN CV SAY TA PT AT [CF]))
 * Angles come in degrees and are stored in radians as the sim has them; a player whose
 * state is 0 is an unconnected one. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "geom.h"
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

static int side_of(cur_t *c)
{
    ws(c);
    char ch = *c->s;
    if (ch != 'l' && ch != 'r') {
        c->bad = 1;
        return 0;
    }
    c->s++;
    return ch == 'l' ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT;
}

/* (v h|l WIDTH): widths 45/90/180 normal, 60/120 synch-see (180 is wide in both) */
static void view(cur_t *c, shm_player_sh_t *p)
{
    lit(c, "(v");
    ws(c);
    p->view_high = *c->s == 'h';
    if (*c->s == 'h' || *c->s == 'l')
        c->s++;
    else
        c->bad = 1;
    long w = integer(c, 10);
    p->synch_see = w == 60 || w == 120;
    p->view_width = w == 45 || w == 60 ? SHM_VIEW_NARROW
                    : w == 180 ? SHM_VIEW_WIDE : SHM_VIEW_NORMAL;
    lit(c, ")");
}

static void counters(cur_t *c, shm_player_sh_t *p)
{
    lit(c, "(c");
    for (int k = 0; k < SHM_CNT_N && !peek(c, ")"); k++)
        p->count[k] = (uint32_t)integer(c, 10);
    lit(c, ")");
}

static void player_body(cur_t *c, shm_player_sh_t *p)
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
        p->arm_expires = 1;
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
        p->focus_side = (int8_t)side_of(c);
        p->focus_unum = (int8_t)integer(c, 10);
        lit(c, ")");
    }
    counters(c, p);
}

static void player(cur_t *c, shm_snapshot_sh_t *s)
{
    lit(c, "((");
    int side = side_of(c);
    long unum = integer(c, 10);
    lit(c, ")");
    if (c->bad || unum < 1 || unum > SHM_TEAM_SIZE) {
        c->bad = 1;
        return;
    }
    shm_player_sh_t *p = &s->player[shm_player_index(side, (int)unum)];
    memset(p, 0, sizeof *p);
    p->side = (int8_t)side;
    p->unum = (int8_t)unum;
    p->type = (int32_t)integer(c, 10);
    p->state = (uint32_t)integer(c, 0); /* hex with 0x, or a bare 0 */
    p->enabled = p->state != 0;
    p->goalie = (p->state & 0x8u) != 0;
    p->card = (p->state & 0x80000u) ? 2 : (p->state & 0x40000u) ? 1 : 0;
    player_body(c, p);
    lit(c, ")");
}

static void team_info(cur_t *c, shm_snapshot_sh_t *s)
{
    lit(c, "(tm");
    for (int k = 0; k < 2; k++) {
        ws(c);
        size_t n = strcspn(c->s, " )");
        if (n == 0 || n >= SHM_TEAM_NAME_LEN) {
            c->bad = 1;
            return;
        }
        memset(s->team[k], 0, SHM_TEAM_NAME_LEN);
        if (!(n == 4 && strncmp(c->s, "null", 4) == 0))
            memcpy(s->team[k], c->s, n);
        c->s += n;
    }
    s->score[0] = (int32_t)integer(c, 10);
    s->score[1] = (int32_t)integer(c, 10);
    if (!peek(c, ")")) {
        s->pen_score[0] = (int32_t)integer(c, 10);
        s->pen_miss[0] = (int32_t)integer(c, 10);
        s->pen_score[1] = (int32_t)integer(c, 10);
        s->pen_miss[1] = (int32_t)integer(c, 10);
    }
    lit(c, ")");
}

int rcg_parse_show(const char *line, shm_snapshot_sh_t *s)
{
    cur_t c = { line, 0 };
    lit(&c, "(show");
    s->time = (int32_t)integer(&c, 10);
    if (peek(&c, "(pm")) {
        lit(&c, "(pm");
        s->play_mode = (int32_t)integer(&c, 10);
        lit(&c, ")");
    }
    if (peek(&c, "(tm"))
        team_info(&c, s);
    lit(&c, "((b)");
    s->ball.x = real(&c);
    s->ball.y = real(&c);
    s->ball.vx = real(&c);
    s->ball.vy = real(&c);
    lit(&c, ")");
    for (int i = 0; i < SHM_MAX_PLAYERS && !c.bad && !peek(&c, ")"); i++)
        player(&c, s);
    lit(&c, ")");
    return c.bad ? -1 : 0;
}
