/* sim_ref_place.c -- where the referee puts the ball and the players (docs/protocol/referee.md
 * §2, §5): the pitch and its areas, ball positions moved out of penalty and goal areas,
 * the set-play clearance circle (9.15 m, 5.5 m for indirect kicks after a back pass,
 * illegal defense or a foul in the penalty area), the kick-off relocation into the own
 * half, the pitch margin, and the goal-kick clearance of the penalty area. */
#include <math.h>
#include "sim_ref.h"
#include "playmode.h"

#define HALF_L   (PITCH_LENGTH / 2.0)
#define HALF_W   (PITCH_WIDTH / 2.0)

/* an axis-aligned area: left/right in x, top/bottom in y (top < bottom) */
typedef struct area {
    double l, r, t, b;
} area_t;

static area_t area_c(double cx, double cy, double sx, double sy)
{
    area_t a = { cx - sx * 0.5, cx + sx * 0.5, cy - sy * 0.5, cy + sy * 0.5 };
    return a;
}

static int area_in(const area_t *a, double x, double y)
{
    return x >= a->l && x <= a->r && y >= a->t && y <= a->b;
}

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* nearest point of the area's border (rcssserver's RArea::nearestEdge) */
static void area_edge(const area_t *a, double *x, double *y)
{
    double dx = fmin(fabs(*x - a->l), fabs(*x - a->r));
    double dy = fmin(fabs(*y - a->t), fabs(*y - a->b));
    if (dx < dy) {
        *x = fabs(*x - a->l) < fabs(*x - a->r) ? a->l : a->r;
        *y = clampd(*y, a->t, a->b);
    } else {
        *x = clampd(*x, a->l, a->r);
        *y = fabs(*y - a->t) < fabs(*y - a->b) ? a->t : a->b;
    }
}

void sim_ref_circle_edge(double cx, double cy, double rad, double *x, double *y)
{
    double dx = *x - cx, dy = *y - cy;
    if (dx == 0.0 && dy == 0.0)
        dx = dy = SIM_REF_EPS;
    /* scaled by rad / max(length, EPS), as the reference: a point closer to the centre
     * than EPS (but not on it) lands short of the rim, inside the circle */
    double f = rad / fmax(sqrt(dx * dx + dy * dy), SIM_REF_EPS);
    *x = cx + dx * f;
    *y = cy + dy * f;
}

static int in_circle(double cx, double cy, double rad, double x, double y)
{
    return hypot(x - cx, y - cy) <= rad;
}

void sim_ref_move_player(sim_world_t *w, int idx, double x, double y, int rest)
{
    sim_player_t *p = &w->pl[idx];
    p->sh.x = x;
    p->sh.y = y;
    if (rest) {
        p->sh.vx = p->sh.vy = 0.0;
        p->ax = p->ay = 0.0;
    }
}

/* ---- ball positions --------------------------------------------------------------- */
void sim_ref_truncate(double *x, double *y)
{
    *x = clampd(*x, -HALF_L, HALF_L);
    *y = clampd(*y, -HALF_W, HALF_W);
}

void sim_ref_out_of_penalty(int side, double *x, double *y)
{
    double ax = HALF_L - PITCH_PENALTY_L, hw = PITCH_PENALTY_W * 0.5;
    int in_l = side != SHM_SIDE_RIGHT && *x <= -ax && fabs(*y) <= hw;
    if (in_l)
        *x = -ax + SIM_REF_EPS;
    int in_r = side != SHM_SIDE_LEFT && *x >= ax && fabs(*y) <= hw;
    if (in_r)
        *x = ax - SIM_REF_EPS;
    if (in_l || in_r)
        *y = *y > 0.0 ? hw + SIM_REF_EPS : -hw - SIM_REF_EPS;
}

void sim_ref_out_of_goal_area(int side, double *x, double *y)
{
    double ax = HALF_L - PITCH_GOAL_AREA_L, hw = PITCH_GOAL_AREA_W * 0.5;
    if (side != SHM_SIDE_RIGHT && *x <= -ax && fabs(*y) <= hw)
        *x = -ax + SIM_REF_EPS;
    if (side != SHM_SIDE_LEFT && *x >= ax && fabs(*y) <= hw)
        *x = ax - SIM_REF_EPS;
}

/* the penalty area of side (0: either) enlarged by the ball size */
int sim_ref_in_penalty(const sim_world_t *w, int side, double x, double y)
{
    double bs = sim_ref_ball_size(w), cx = HALF_L - PITCH_PENALTY_L / 2.0;
    area_t l = area_c(-cx, 0.0, PITCH_PENALTY_L + bs * 2.0, PITCH_PENALTY_W + bs * 2.0);
    area_t r = area_c(cx, 0.0, PITCH_PENALTY_L + bs * 2.0, PITCH_PENALTY_W + bs * 2.0);
    return (side != SHM_SIDE_RIGHT && area_in(&l, x, y))
           || (side != SHM_SIDE_LEFT && area_in(&r, x, y));
}

/* ---- set-play clearance (Referee::clearPlayersFromBall) --------------------------- */
typedef struct clear_ctx {
    double bx, by;        /* ball */
    double dist;          /* clearance radius */
    int    indirect;      /* defenders on their goal line are tolerated */
    int    corner;        /* the ball is near a corner of the margin */
} clear_ctx_t;

static double clear_dist(const sim_world_t *w, int pm)
{
    int small = pm == PM_ILLEGAL_DEFENSE_L || pm == PM_ILLEGAL_DEFENSE_R
                || pm == PM_BACK_PASS_L || pm == PM_BACK_PASS_R
                || ((pm == PM_FOUL_CHARGE_L || pm == PM_FOUL_PUSH_L)
                    && sim_ref_in_penalty(w, SHM_SIDE_LEFT, w->ball.x, w->ball.y))
                || ((pm == PM_FOUL_CHARGE_R || pm == PM_FOUL_PUSH_R)
                    && sim_ref_in_penalty(w, SHM_SIDE_RIGHT, w->ball.x, w->ball.y));
    return small ? PITCH_GOAL_AREA_L : PITCH_CIRCLE_R;
}

static int indirect_mode(int pm)
{
    return pm == PM_BACK_PASS_L || pm == PM_BACK_PASS_R || pm == PM_FOUL_CHARGE_L
           || pm == PM_FOUL_CHARGE_R || pm == PM_FOUL_PUSH_L || pm == PM_FOUL_PUSH_R
           || pm == PM_INDIRECT_FREE_KICK_L || pm == PM_INDIRECT_FREE_KICK_R;
}

/* the rim point for a player at (x, y) of size sz, kept inside the pitch margin */
static void clear_point(const clear_ctx_t *c, double sz, double *x, double *y)
{
    double mx = HALF_L + PITCH_MARGIN, my = HALF_W + PITCH_MARGIN;
    double r = c->dist + sz;
    sim_ref_circle_edge(c->bx, c->by, r + 1.0e-5, x, y);
    if (c->corner && fabs(*x) > HALF_L && fabs(*y) > HALF_W) { /* to the other side */
        *x = 2.0 * c->bx - *x;
        *y = 2.0 * c->by - *y;
    }
    if (c->indirect && fabs(*x) > HALF_L) { /* onto the goal line, along the same ray */
        double tangent = (*y - c->by) / (*x - c->bx);
        *x = *x > 0.0 ? HALF_L : -HALF_L;
        *y = c->by + tangent * (*x - c->bx);
    }
    if (fabs(*x) > mx) {
        double th = acos((mx - fabs(c->bx)) / r), ty = fabs(r * sin(th));
        *x = *x < 0.0 ? -mx : mx;
        *y = c->by + (*y < c->by ? -ty - 1.0e-5 : ty + 1.0e-5);
    }
    if (fabs(*y) > my) {
        double th = acos((my - fabs(c->by)) / r), tx = fabs(r * sin(th));
        *x = c->bx + (*x < c->bx ? -tx - 1.0e-5 : tx + 1.0e-5);
        *y = *y < 0.0 ? -my : my;
    }
    if (fabs(*x) > mx || fabs(*y) > my) {
        *x = 2.0 * c->bx - *x;
        *y = 2.0 * c->by - *y;
    }
}

/* one pass over the players; 1 if someone was moved */
static int clear_pass(sim_world_t *w, const clear_ctx_t *c, int side)
{
    int moved = 0;
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        sim_player_t *p = &w->pl[i];
        if (!p->sh.enabled || (side != SHM_SIDE_NONE && p->sh.side != side))
            continue;
        if (c->indirect && fabs(p->sh.x) >= HALF_L)
            continue;
        double sz = sim_ref_player_size(w, i), x = p->sh.x, y = p->sh.y;
        if (!in_circle(c->bx, c->by, c->dist + sz, x, y))
            continue;
        clear_point(c, sz, &x, &y);
        sim_ref_move_player(w, i, x, y, 1);
        moved = 1;
    }
    return moved;
}

void sim_ref_clear_from_ball(sim_world_t *w, int side)
{
    clear_ctx_t c;
    c.bx = w->ball.x;
    c.by = w->ball.y;
    c.dist = clear_dist(w, w->play_mode);
    c.indirect = indirect_mode(w->play_mode);
    c.corner = fabs(c.bx) > HALF_L + PITCH_MARGIN - c.dist
               && fabs(c.by) > HALF_W + PITCH_MARGIN - c.dist;
    for (int loop = 0; loop < 10; loop++) {
        if (!clear_pass(w, &c, side))
            break;
        sim_collide(w);
        c.bx = w->ball.x; /* the circle follows the ball the collisions moved */
        c.by = w->ball.y;
    }
}

/* ---- kick-off relocation (Referee::placePlayersInTheirField) ----------------------- */
void sim_ref_place_in_own_half(sim_world_t *w)
{
    int ko = conf_bool(w->conf, SP_forbid_kick_off_offside)
             && (w->play_mode == PM_KICK_OFF_L || w->play_mode == PM_KICK_OFF_R);
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        sim_player_t *p = &w->pl[i];
        if (!p->sh.enabled)
            continue;
        int side = p->sh.side;
        double sz = sim_ref_player_size(w, i);
        if (p->sh.x * side > 0.0) { /* in the opponents' half */
            if (ko) {
                sim_ref_move_player(w, i, -side * sz, p->sh.y, 0);
            } else {
                rng_t *r = sim_ref_rng(w);
                double x = rng_uniform(r, side == SHM_SIDE_LEFT ? -HALF_L : 0.0,
                                       side == SHM_SIDE_LEFT ? 0.0 : HALF_L);
                double y = rng_uniform(r, HALF_W, -HALF_W);
                sim_ref_move_player(w, i, x, y, 0);
            }
        }
        double rad = PITCH_CIRCLE_R + sz, x = p->sh.x, y = p->sh.y;
        if (side != w->ref.kick_off_side && in_circle(0.0, 0.0, rad, x, y)) {
            sim_ref_circle_edge(0.0, 0.0, rad, &x, &y);
            sim_ref_move_player(w, i, x, y, 0);
        }
    }
}

void sim_ref_place_in_field(sim_world_t *w)
{
    area_t f = area_c(0.0, 0.0, PITCH_LENGTH + PITCH_MARGIN * 2.0,
                      PITCH_WIDTH + PITCH_MARGIN * 2.0);
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        sim_player_t *p = &w->pl[i];
        if (!p->sh.enabled || area_in(&f, p->sh.x, p->sh.y))
            continue;
        double x = p->sh.x, y = p->sh.y;
        area_edge(&f, &x, &y);
        sim_ref_move_player(w, i, x, y, 0);
    }
}

/* ---- goal kick (FreeKickRef::placePlayersForGoalkick) ----------------------------- */
void sim_ref_place_for_goal_kick(sim_world_t *w)
{
    int left = w->play_mode == PM_GOAL_KICK_L, opp = left ? SHM_SIDE_RIGHT : SHM_SIDE_LEFT;
    double cx = HALF_L - PITCH_PENALTY_L / 2.0;
    area_t pa = area_c(left ? -cx : cx, 0.0, PITCH_PENALTY_L, PITCH_PENALTY_W);
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        sim_player_t *p = &w->pl[i];
        if (!p->sh.enabled || p->sh.side != opp)
            continue;
        double sz = sim_ref_player_size(w, i), x = p->sh.x, y = p->sh.y;
        area_t e = { pa.l - sz, pa.r + sz, pa.t - sz, pa.b + sz };
        if (!area_in(&e, x, y))
            continue;
        area_edge(&e, &x, &y);
        if (x * opp >= HALF_L) /* not behind the goal line: to the area's front edge */
            x = (HALF_L - PITCH_PENALTY_L - sz) * opp;
        sim_ref_move_player(w, i, x, y, 0);
    }
}
