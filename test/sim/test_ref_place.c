/* test_ref_place.c -- where the referee puts the ball and the players (sim_ref_place.c,
 * docs/protocol/referee.md §2, §5, §9): pitch and areas, ball positions moved out of the
 * penalty and goal areas, the clearance circle with its margin, corner and goal-line
 * rules, the pitch margin, the kick-off relocation. Expected values follow from the
 * pitch constants (105 x 68, penalty area 16.5 x 40.32, goal area 5.5 x 18.32, margin 5,
 * circle 9.15, player size 0.3, ball size 0.085). */
#include <criterion/criterion.h>
#include <math.h>
#include "test_ref_util.h"

#define EPS 1e-9

static sim_world_t w;

Test(ref_place, ball_positions, .timeout = 10)
{
    double x = 60.0, y = -40.0;
    sim_ref_truncate(&x, &y);
    cr_expect(x == 52.5 && y == -34.0);
    /* in the left penalty area: to its front corner on the ball's side */
    x = -50.0, y = 3.0;
    sim_ref_out_of_penalty(SHM_SIDE_LEFT, &x, &y);
    cr_expect_float_eq(x, -36.0, 1e-9);
    cr_expect_float_eq(y, 20.16, 1e-9);
    x = -50.0, y = 3.0; /* the other side's rule leaves it */
    sim_ref_out_of_penalty(SHM_SIDE_RIGHT, &x, &y);
    cr_expect(x == -50.0 && y == 3.0);
    x = 40.0, y = 0.0; /* y = 0 goes to the top (negative) side */
    sim_ref_out_of_penalty(SHM_SIDE_NONE, &x, &y);
    cr_expect_float_eq(x, 36.0, 1e-9);
    cr_expect_float_eq(y, -20.16, 1e-9);
    x = 50.0, y = -9.0; /* goal area: only x moves, to its front line */
    sim_ref_out_of_goal_area(SHM_SIDE_NONE, &x, &y);
    cr_expect_float_eq(x, 47.0, 1e-9);
    cr_expect(y == -9.0);
}

Test(ref_place, penalty_area_includes_the_ball_size, .timeout = 10)
{
    test_world(&w, 1, 1);
    cr_expect(sim_ref_in_penalty(&w, SHM_SIDE_LEFT, -36.0 + 0.085, 20.16 + 0.085));
    cr_expect(!sim_ref_in_penalty(&w, SHM_SIDE_LEFT, -36.0 + 0.09, 0.0));
    cr_expect(sim_ref_in_penalty(&w, SHM_SIDE_LEFT, -52.5 - 0.08, 0.0), "behind the line");
    cr_expect(!sim_ref_in_penalty(&w, SHM_SIDE_RIGHT, -40.0, 0.0));
    cr_expect(sim_ref_in_penalty(&w, SHM_SIDE_NONE, 40.0, 0.0));
}

Test(ref_place, clearance_circle, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_FREE_KICK_L;
    ref_ball(&w, 10.0, 0.0, 0.0, 0.0);
    sim_player_t *r = test_player(&w, SHM_SIDE_RIGHT, 1, 13.0, 4.0, 0.0);
    sim_player_t *l = test_player(&w, SHM_SIDE_LEFT, 1, 12.0, 0.0, 0.0);
    r->sh.vx = 1.0;
    sim_ref_clear_from_ball(&w, SHM_SIDE_RIGHT);
    /* along the same ray (3, 4)/5 to 9.15 + 0.3 + 1e-5, at rest; the kicker's team stays */
    double rad = 9.15 + 0.3 + 1e-5;
    cr_expect_float_eq(r->sh.x, 10.0 + 0.6 * rad, 1e-9);
    cr_expect_float_eq(r->sh.y, 0.8 * rad, 1e-9);
    cr_expect(r->sh.vx == 0.0);
    cr_expect(l->sh.x == 12.0);
}

/* A player a hair off the ball (a left player left at x = -2e-17 after a move to the
 * centre spot): the rim point is the offset scaled by radius / max(length, 1e-10), so
 * the first pass leaves him at -2e-6, touching the ball; the collision pass flags the
 * contact and pushes him to 0.3 + 0.085 from it; the second pass puts him on the rim.
 * The ball at rest bounces to -0 (v *= -0.1), as a monitor sees it. */
Test(ref_place, clearance_from_a_hair_off_the_ball, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_KICK_OFF_R;
    ref_ball(&w, 0.0, 0.0, 0.0, 0.0);
    sim_player_t *l = test_player(&w, SHM_SIDE_LEFT, 1, -2.0e-17, 0.0, 0.0);
    sim_ref_clear_from_ball(&w, SHM_SIDE_LEFT);
    cr_expect_float_eq(l->sh.x, -(9.15 + 0.3 + 1e-5), 1e-9, "%.17g", l->sh.x);
    cr_expect(fabs(l->sh.y) < 1e-9);
    cr_expect(l->sh.collision & SHM_COLL_BALL);
    cr_expect(l->cycle_state & SIM_ST_BALL_COLLIDE);
    cr_expect(w.ball.vx == 0.0 && signbit(w.ball.vx), "ball vx %g", w.ball.vx);
    /* exactly on the ball's centre: towards (+1, +1), straight to the rim */
    test_world(&w, 1, 1);
    w.play_mode = PM_KICK_OFF_R;
    ref_ball(&w, 0.0, 0.0, 0.0, 0.0);
    l = test_player(&w, SHM_SIDE_LEFT, 1, 0.0, 0.0, 0.0);
    sim_ref_clear_from_ball(&w, SHM_SIDE_LEFT);
    double rim = (9.15 + 0.3 + 1e-5) / sqrt(2.0);
    cr_expect_float_eq(l->sh.x, rim, 1e-9);
    cr_expect_float_eq(l->sh.y, rim, 1e-9);
    cr_expect(!(l->sh.collision & SHM_COLL_BALL));
}

Test(ref_place, clearance_kept_in_the_margin_and_off_the_goal_line, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_CORNER_KICK_L;
    ref_ball(&w, 51.5, 33.0, 0.0, 0.0);
    /* a defender between the ball and the corner flag: his rim point would be beyond
     * both lines (corner rule: the opposite side of the ball) */
    sim_player_t *r = test_player(&w, SHM_SIDE_RIGHT, 2, 52.0, 33.5, 0.0);
    sim_ref_clear_from_ball(&w, SHM_SIDE_RIGHT);
    cr_expect(hypot(r->sh.x - 51.5, r->sh.y - 33.0) >= 9.45 - 1e-6, "%g %g", r->sh.x, r->sh.y);
    cr_expect(fabs(r->sh.x) <= 57.5 && fabs(r->sh.y) <= 39.0, "%g %g", r->sh.x, r->sh.y);
    /* an indirect free kick: a defender on his goal line stays */
    test_world(&w, 1, 1);
    w.play_mode = PM_INDIRECT_FREE_KICK_L;
    ref_ball(&w, 48.0, 0.0, 0.0, 0.0);
    sim_player_t *g = test_player(&w, SHM_SIDE_RIGHT, 1, 52.5, 1.0, 180.0);
    sim_player_t *d = test_player(&w, SHM_SIDE_RIGHT, 3, 50.0, 2.0, 180.0);
    sim_ref_clear_from_ball(&w, SHM_SIDE_RIGHT);
    cr_expect(g->sh.x == 52.5 && g->sh.y == 1.0, "on the line: tolerated");
    /* the other one's ray leaves the pitch over the goal line: put on that line instead */
    cr_expect_float_eq(d->sh.x, 52.5, 1e-9);
    cr_expect_float_eq(d->sh.y, 4.5, 1e-6); /* slope 1 from the ball (48, 0) */
}

Test(ref_place, pitch_margin, .timeout = 10)
{
    test_world(&w, 1, 1);
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, 70.0, 10.0, 0.0);
    sim_player_t *q = test_player(&w, SHM_SIDE_LEFT, 2, 60.0, 45.0, 0.0);
    sim_ref_place_in_field(&w);
    cr_expect(p->sh.x == 57.5 && p->sh.y == 10.0);
    cr_expect(q->sh.x == 57.5 && q->sh.y == 39.0, "the nearer edge is x: %g %g", q->sh.x, q->sh.y);
}

Test(ref_place, kick_off_relocation, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_KICK_OFF_R;
    w.ref.kick_off_side = SHM_SIDE_RIGHT;
    sim_player_t *l = test_player(&w, SHM_SIDE_LEFT, 1, 4.0, 2.0, 0.0);
    sim_player_t *r = test_player(&w, SHM_SIDE_RIGHT, 1, -6.0, -20.0, 0.0);
    sim_ref_place_in_own_half(&w);
    /* the left player: x = -size, then (not kicking off) out of the circle on its rim */
    cr_expect(l->sh.x < 0.0 && fabs(hypot(l->sh.x, l->sh.y) - 9.45) < 1e-9, "%g %g", l->sh.x, l->sh.y);
    cr_expect_float_eq(r->sh.x, 0.3, EPS);
    cr_expect_float_eq(r->sh.y, -20.0, EPS);
    /* before the kick-off: a random point of the own half instead */
    w.play_mode = PM_BEFORE_KICK_OFF;
    l->sh.x = 30.0;
    sim_ref_place_in_own_half(&w);
    cr_expect(l->sh.x <= 0.0 && l->sh.x >= -52.5 && fabs(l->sh.y) <= 34.0);
}
