/* test_020_physics.c -- physics end to end (docs/protocol/physics.md): a synch-mode server
 * with the noise off (player_rand, ball_rand, kick_rand 0) and the trainer
 * (server::coach=true) setting scenes; four v19 players act in lock step and every
 * cycle's see_global (6 significant digits, as the reference prints them) and
 * sense_body are checked against values computed here from the formulas of
 * docs/protocol/physics.md:
 *   scene 1 (125 cycles): a full-power runner (dash, effort, recovery, stamina), a kick
 *     reduced by the ball's distance rolling out with ball_decay, a slow runner pushing
 *     a standing player (the collision midpoint rule and the -0.1 bounce);
 *   scene 2 (125 cycles): a ball glancing off both posts of a goal (path mirrored at
 *     the contact normal, speed kept), a player turning and turning his neck.
 * A command sent at think k acts in the step that produces think k + 1. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "e2e.h"
#include "e2e_lockstep.h"

#define TA1 0
#define TB1 1
#define TA2 2
#define TB2 3
#define HALF 0.3000000001   /* half the sum of two player sizes plus EPS 1e-10 */

static const char *const args[] = { "server::coach=true", "server::synch_mode=true",
                                    "server::player_rand=0", "server::ball_rand=0",
                                    "server::kick_rand=0", "server::random_seed=17",
                                    "server::synch_timeout=20000", NULL };
static const char *const teams[] = { "TA", "TB", "TA", "TB" };

/* equal to the 6 significant digits of a %g print */
static int near(double got, double want)
{
    return fabs(got - want) <= 6e-6 * fabs(want) + 1e-9;
}

#define EXPECT_NEAR(got, want, ...) \
    cr_expect(near((got), (want)), "k %d: %s = %.9g, expected %.9g", k, #got, (got), (want))

/* the stamina update (physics.md §3) for a player of type 0 */
typedef struct stam {
    double st, rec, eff, cap;
} stam_t;

static void stamina_step(stam_t *s)
{
    if (s->st <= 0.3 * 8000.0) {
        s->rec = s->rec > 0.5 ? s->rec - 0.002 : s->rec;
        s->rec = s->rec < 0.5 ? 0.5 : s->rec;
        s->eff = s->eff > 0.6 ? s->eff - 0.005 : s->eff;
        s->eff = s->eff < 0.6 ? 0.6 : s->eff;
    }
    if (s->st >= 0.6 * 8000.0 && s->eff < 1.0)
        s->eff = fmin(1.0, s->eff + 0.01);
    double inc = fmin(fmin(s->rec * 45.0, 8000.0 - s->st), s->cap);
    s->st += inc;
    s->cap -= inc;
}

static e2e_obj_t *pl(e2e_ls_t *ls, const char *team, int unum)
{
    e2e_obj_t *o = e2e_world_player(&ls->world, team, unum);
    cr_assert(o, "player %s %d in see_global: %s", team, unum, ls->see);
    return o;
}

/* scene 1: the runner, the kick, the push */
static void scene_one(e2e_ls_t *ls)
{
    e2e_ls_send(ls, -1, "(move (player TA 1) -50 20 0 0 0)");
    e2e_ls_send(ls, -1, "(move (player TB 1) -20.5 -20 0 0 0)");
    e2e_ls_send(ls, -1, "(move (ball) -20 -20 0 0 0)");
    e2e_ls_send(ls, -1, "(move (player TA 2) 0 0 0 0 0)");
    e2e_ls_send(ls, -1, "(move (player TB 2) 3 0 180 0 0)");
    e2e_ls_send(ls, -1, "(change_mode play_on)");
    e2e_ls_done(ls);
    /* runner: accel effort * 100 * 0.006 along x, speed cap 1.05, decay 0.4 */
    double rx = -50.0, rv = 0.0;
    stam_t rs = { 8000.0, 1.0, 1.0, 130600.0 };
    /* kick at think 1 from 0.5 behind the ball: dist_ball 0.115, power
     * 100 * 0.027 * (1 - 0.25 * 0.115 / 0.7) at 10 deg; then v *= 0.94 a step */
    double kp = 2.7 * (1.0 - 0.25 * 0.115 / 0.7), kd = 10.0 * M_PI / 180.0;
    double bx = -20.0, by = -20.0, bvx = 0.0, bvy = 0.0;
    /* push: A dashes 30 (accel 0.18) into B standing; overlapping -> both 0.3 + EPS
     * from their midpoint, velocities * -0.1 */
    double ax = 0.0, av = 0.0, qx = 3.0, qv = 0.0;
    int pushes = 0;
    for (int k = 1; k <= 125; k++) {
        cr_assert_eq(e2e_ls_think(ls), 0, "think %d", k);
        cr_assert_eq(ls->world.time, k);
        e2e_obj_t *r = pl(ls, "TA", 1), *a = pl(ls, "TA", 2), *q = pl(ls, "TB", 2);
        EXPECT_NEAR(r->x, rx);
        EXPECT_NEAR(r->vx, rv);
        EXPECT_NEAR(r->y, 20.0);
        EXPECT_NEAR(e2e_ls_sense(ls, TA1, "stamina"), rs.st);
        EXPECT_NEAR(ls->world.ball.x, bx);
        EXPECT_NEAR(ls->world.ball.y, by);
        EXPECT_NEAR(ls->world.ball.vx, bvx);
        EXPECT_NEAR(a->x, ax);
        EXPECT_NEAR(a->vx, av);
        EXPECT_NEAR(q->x, qx);
        EXPECT_NEAR(q->vx, qv);
        e2e_ls_send(ls, TA1, "(dash 100)");
        e2e_ls_send(ls, TA2, "(dash 30)");
        if (k == 1)
            e2e_ls_send(ls, TB1, "(kick 100 10)");
        e2e_ls_done(ls);
        /* the step k -> k + 1 */
        rv = fmin(rv + rs.eff * 100.0 * 0.006, 1.05);
        rx += rv;
        rv *= 0.4;
        rs.st = fmax(0.0, rs.st - 100.0);
        stamina_step(&rs);
        if (k == 1) {
            bvx = kp * cos(kd);
            bvy = kp * sin(kd);
        }
        bx += bvx;
        by += bvy;
        bvx *= 0.94;
        bvy *= 0.94;
        av += 0.18;
        ax += av;
        av *= 0.4;
        qx += qv;
        qv *= 0.4;
        if (qx - ax < 0.6) {
            double m = (ax + qx) / 2.0;
            ax = m - HALF;
            qx = m + HALF;
            av *= -0.1;
            qv *= -0.1;
            pushes++;
        }
    }
    cr_expect_lt(rs.rec, 1.0, "the runner got below the recovery threshold");
    cr_expect_gt(pushes, 20, "the slow runner kept pushing");
}

/* scene 2: the post and the turns */
static void scene_two(e2e_ls_t *ls)
{
    double py = 14.02 * 0.5 + 0.06, h = 0.145 / sqrt(2.0);
    char cmd[128];
    cr_assert_eq(e2e_ls_think(ls), 0);
    e2e_ls_send(ls, -1, "(recover)");
    e2e_ls_send(ls, -1, "(move (player TA 1) -30 -10 0 0 0)");
    snprintf(cmd, sizeof cmd, "(move (ball) 45 %.17g 0 2.5 0)", py - h);
    e2e_ls_send(ls, -1, cmd);
    e2e_ls_done(ls);
    /* the ball rolls along y = py - h into the right goal's post at (52.44, py)
     * (radius 0.06 + 0.085): it meets it at x = 52.44 - h where the normal is at
     * 45 deg, the rest of the step's path turns to -y, the speed is kept; rolling down
     * x = 52.44 - h it meets the other post (52.44, -py) at y = -(py - h), symmetric,
     * and turns to -x */
    double bx = 45.0, by = py - h, bvx = 2.5, bvy = 0.0, xc = 52.44 - h, yc = -(py - h);
    int body = 0, neck = 0, bounced = 0;
    for (int k = 131; k <= 255; k++) {
        cr_assert_eq(e2e_ls_think(ls), 0, "think %d", k);
        /* the step that placed the scene moved the ball once already */
        if (k == 131) {
            bx += bvx;
            bvx *= 0.94;
        }
        EXPECT_NEAR(ls->world.ball.x, bx);
        EXPECT_NEAR(ls->world.ball.y, by);
        EXPECT_NEAR(ls->world.ball.vx, bvx);
        EXPECT_NEAR(ls->world.ball.vy, bvy);
        e2e_obj_t *r = pl(ls, "TA", 1);
        cr_expect_eq(r->body, body, "k %d body", k);
        cr_expect_eq(r->neck, neck, "k %d neck", k);
        if (k % 2) {
            e2e_ls_send(ls, TA1, "(turn 50)");
            body = (int)rint(remainder(body + 50.0, 360.0));
        } else {
            int d = (k / 2) % 2 ? 45 : -45;
            snprintf(cmd, sizeof cmd, "(turn_neck %d)", d);
            e2e_ls_send(ls, TA1, cmd);
            neck = neck + d > 90 ? 90 : neck + d < -90 ? -90 : neck + d;
        }
        e2e_ls_done(ls);
        if (bounced == 0 && bx + bvx > xc) {
            double rest = bx + bvx - xc;
            bx = xc;
            by -= rest;
            bvy = -bvx;
            bvx = 0.0;
            bounced = 1;
        } else if (bounced == 1 && by + bvy < yc) {
            double rest = yc - (by + bvy);
            by = yc;
            bx -= rest;
            bvx = bvy;
            bvy = 0.0;
            bounced = 2;
        } else {
            bx += bvx;
            by += bvy;
        }
        bvx *= 0.94;
        bvy *= 0.94;
    }
    cr_expect_eq(bounced, 2, "the ball met both posts");
}

Test(physics_e2e, trajectories_match_the_spec, .timeout = 120)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    e2e_ls_t ls;
    cr_assert_eq(e2e_ls_open(&ls, &s, teams, 4), 0);
    cr_assert_eq(e2e_ls_think(&ls), 0);
    cr_assert_eq(ls.world.time, 0);
    scene_one(&ls);
    for (int k = 126; k < 130; k++) { /* the last steps of scene 1 */
        cr_assert_eq(e2e_ls_think(&ls), 0);
        e2e_ls_done(&ls);
    }
    scene_two(&ls);
    e2e_ls_close(&ls);
    cr_expect_eq(e2e_server_stop(&s), 0);
}
