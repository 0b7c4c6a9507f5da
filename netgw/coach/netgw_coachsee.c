/* netgw_coachsee.c -- what coaches see (docs/protocol/coach.md §5): see_global and
 * the (ok look ...) reply with the goals (right first), the ball and every enabled
 * player in left-team coordinates, numbers as C++ streams print them (%g, not
 * quantised); the long v<7 names with angles before velocities; from v8 the pointing
 * direction and the tackle flag, from v13 the kick flag, from v14 the foul flag and
 * cards. Also (ok check_ball ...) and (ok team_names ...). Pure: reads a snapshot. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "geom.h"
#include "netgw_coach.h"
#include "strbuf.h"
#include "pitch.h"

#define SEE_GOAL_X       52.5
#define SEE_GOAL_DEPTH   2.44
#define SEE_POST_RADIUS  0.06

/* a team's name as the coach of `side` sees it: opponents of an online coach carry
 * server::fixed_teamname_l/r when set */
static const char *see_team(const char team[2][SHM_TEAM_NAME_LEN], const conf_t *c,
                            int side, int pside)
{
    int k = pside == SHM_SIDE_RIGHT ? 1 : 0;
    if (side != SHM_SIDE_NONE && side != pside) {
        const char *fixed = conf_str(c, k == 0 ? SP_fixed_teamname_l : SP_fixed_teamname_r);
        if (fixed[0])
            return fixed;
    }
    return team[k];
}

int coach_player_name(const shm_player_sh_t *p, const char team[2][SHM_TEAM_NAME_LEN],
                      const conf_t *c, double version, int side, char *buf, size_t len)
{
    const char *t = see_team(team, c, side, p->side);
    int n;
    if (version >= 7.0)
        n = snprintf(buf, len, "(p \"%.*s\" %d%s)", SHM_TEAM_NAME_LEN - 1, t, (int)p->unum,
                     p->goalie ? " goalie" : "");
    else
        n = snprintf(buf, len, "(player %.*s %d)", SHM_TEAM_NAME_LEN - 1, t, (int)p->unum);
    return n < 0 || (size_t)n >= len ? -1 : n;
}

/* degrees as coaches get them: rounded from v7, truncated before */
static int see_deg(double version, double rad)
{
    double d = rad2deg(rad);
    if (!isfinite(d))
        return 0;
    return version >= 7.0 ? (int)rint(d) : (int)d;
}

static void see_num(strbuf_t *o, double v)
{
    strbuf_printf(o, " %g", v);
}

/* one player: v<7 X Y BODY NECK VX VY; v7+ X Y VX VY BODY NECK [POINTDIR] [flags] */
static void see_player(strbuf_t *o, const shm_player_sh_t *p, const char *name,
                       double version, int look)
{
    int v = (int)version;
    int body = see_deg(version, angle_norm(p->body)), neck = see_deg(version, p->neck);
    strbuf_printf(o, " (%s", name);
    see_num(o, p->x);
    see_num(o, p->y);
    if (v < 7) {
        strbuf_printf(o, " %d %d", body, neck);
        see_num(o, p->vx);
        see_num(o, p->vy);
        strbuf_printf(o, ")");
        return;
    }
    see_num(o, p->vx);
    see_num(o, p->vy);
    strbuf_printf(o, " %d %d", body, neck);
    /* a look from v8 to v12 uses the v7 form; from v13 the v8 form */
    int form = look ? (v >= 13 ? 8 : 7) : v;
    if (form < 8) {
        strbuf_printf(o, ")");
        return;
    }
    int pointing = p->arm_expires > 0;
    if (pointing) {
        double dir = vec2_angle(vec2(p->point_x - p->x, p->point_y - p->y));
        strbuf_printf(o, " %d", (int)rint(rad2deg(angle_norm(dir))));
    }
    int tackling = p->tackle_expires > 0;
    if (form < 13) {
        strbuf_printf(o, "%s)", tackling ? " t" : "");
        return;
    }
    if (tackling)
        strbuf_printf(o, " t");
    else if (p->kicked)
        strbuf_printf(o, " k");
    else if (form >= 14 && !pointing && p->foul_charged > 0)
        strbuf_printf(o, " f");
    if (form >= 14) {
        if (p->card == 2)
            strbuf_printf(o, " r");
        else if (p->card == 1)
            strbuf_printf(o, " y");
    }
    strbuf_printf(o, ")");
}

int coach_visual(const shm_snapshot_sh_t *s, const conf_t *c, double version, int side,
                 int look, char *buf, size_t len)
{
    strbuf_t o = { buf, len, 0, 0 };
    int v7 = version >= 7.0;
    if (look)
        strbuf_printf(&o, "(ok look %d", s->time);
    else
        strbuf_printf(&o, "(%s %d", v7 ? "see_global" : "see", s->time);
    strbuf_printf(&o, v7 ? " ((g r)" : " ((goal r)");
    see_num(&o, SEE_GOAL_X);
    see_num(&o, 0.0);
    strbuf_printf(&o, v7 ? ") ((g l)" : ") ((goal l)");
    see_num(&o, -SEE_GOAL_X);
    see_num(&o, 0.0);
    strbuf_printf(&o, v7 ? ") ((b)" : ") ((ball)");
    see_num(&o, s->ball.x);
    see_num(&o, s->ball.y);
    see_num(&o, s->ball.vx);
    see_num(&o, s->ball.vy);
    strbuf_printf(&o, ")");
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        const shm_player_sh_t *p = &s->player[i];
        if (!p->enabled)
            continue;
        char name[64];
        if (coach_player_name(p, s->team, c, version, side, name, sizeof name) < 0)
            continue;
        see_player(&o, p, name, version, look);
    }
    strbuf_printf(&o, ")");
    return o.overflow ? -1 : (int)o.pos;
}

static int in_rect(double x, double y, double cx, double cy, double w, double h)
{
    return x >= cx - w * 0.5 && x <= cx + w * 0.5 && y >= cy - h * 0.5 && y <= cy + h * 0.5;
}

int coach_check_ball(const shm_snapshot_sh_t *s, const conf_t *c, char *buf, size_t len)
{
    double bs = conf_real(c, SP_ball_size), gw = conf_real(c, SP_goal_width);
    double x = s->ball.x, y = s->ball.y;
    double gx = (2.0 * PITCH_HALF_L + SEE_GOAL_DEPTH) * 0.5 + bs;
    const char *where;
    if (in_rect(x, y, -gx, 0.0, SEE_GOAL_DEPTH, gw + SEE_POST_RADIUS))
        where = "goal_l";
    else if (in_rect(x, y, gx, 0.0, SEE_GOAL_DEPTH, gw + SEE_POST_RADIUS))
        where = "goal_r";
    else if (!in_rect(x, y, 0.0, 0.0, 2.0 * PITCH_HALF_L + 2.0 * bs,
                      2.0 * PITCH_HALF_W + 2.0 * bs))
        where = "out_of_field";
    else
        where = "in_field";
    int n = snprintf(buf, len, "(ok check_ball %d %s)", s->time, where);
    return n < 0 || (size_t)n >= len ? -1 : n;
}

int coach_team_names(const char team[2][SHM_TEAM_NAME_LEN], const conf_t *c, int side,
                     char *buf, size_t len)
{
    strbuf_t o = { buf, len, 0, 0 };
    strbuf_printf(&o, "(ok team_names");
    if (team[0][0])
        strbuf_printf(&o, " (team l %s)", see_team(team, c, side, SHM_SIDE_LEFT));
    if (team[1][0])
        strbuf_printf(&o, " (team r %s)", see_team(team, c, side, SHM_SIDE_RIGHT));
    strbuf_printf(&o, ")\n");
    return o.overflow ? -1 : (int)o.pos;
}
