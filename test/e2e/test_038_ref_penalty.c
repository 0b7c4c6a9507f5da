/* test_038_ref_penalty.c -- the penalty shoot-out end to end (docs/protocol/referee.md §12): a
 * level game after normal time (no extra halves here) goes to penalties: a random goal
 * (penalty_onfield_l|r), setup, ready, the taker's kick (taken), score or miss, the other
 * team; the referee places the players (pen_coach_moves_players); an early winner when
 * the other team cannot catch up; all kicks level: one more kick, then penalty_draw and
 * time_over (the case that kept older servers going forever). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "e2e_ref.h"
#include "playmode.h"

static const char *const pens[] = {
    "server::half_time=1", "server::nr_extra_halfs=0", "server::pen_dist_x=5",
    "server::pen_setup_wait=3", "server::pen_ready_wait=5", "server::pen_taken_wait=10",
    "server::pen_before_setup_wait=2", "server::pen_nr_kicks=2",
    "server::pen_max_extra_kicks=1", NULL
};

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

/* both halves with nobody playing: 0-0 at time 20, the shoot-out begins */
static void to_normal_time_end(e2e_ref_t *m)
{
    e2e_ref_trainer(m, "(start)");
    cr_assert_gt(e2e_ref_until(m, PM_BEFORE_KICK_OFF, 15), 0);
    e2e_ref_trainer(m, "(start)");
    for (int i = 0; i < 15 && m->pm != PM_PENALTY_SETUP_L && m->pm != PM_PENALTY_SETUP_R; i++)
        cr_assert_eq(e2e_ref_cycle(m), 0);
}

/* the team (0 left, 1 right) player nearest the ball */
static int nearest(e2e_ref_t *m, int side)
{
    int best = -1;
    double bd = 1e9;
    for (int i = 0; i < m->np; i++) {
        e2e_obj_t *p = e2e_ref_obj(m, i);
        if (!p || (strcmp(m->pl[i].team, "A") == 0) != (side == 0))
            continue;
        double d = hypot(p->x - m->w.ball.x, p->y - m->w.ball.y);
        if (d < bd) {
            bd = d;
            best = i;
        }
    }
    return best;
}

Test(ref_penalty, shoot_out_early_winner, .timeout = 120)
{
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, pens), 0);
    e2e_ref_connect(&m, "A", 1);
    e2e_ref_connect(&m, "A", 0);
    e2e_ref_connect(&m, "B", 1);
    e2e_ref_connect(&m, "B", 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    to_normal_time_end(&m);
    cr_expect_eq(m.time, 20);
    const char *on = strstr(m.log, "20 penalty_onfield_");
    cr_assert(on, "the shoot-out starts at the end of normal time: %s", m.log);
    double goal_x = on[19] == 'l' ? -52.5 : 52.5;
    /* the ball 5 m (pen_dist_x) before the goal in use */
    cr_expect(fabs(m.w.ball.x - (goal_x > 0 ? 47.5 : -47.5)) < 1e-3 && m.w.ball.y == 0.0);
    /* the left team always scores, the right one always shoots wide */
    int shooter = -1;
    for (int i = 0; i < 300 && m.pm != PM_TIME_OVER; i++) {
        if (shooter >= 0) {
            e2e_ref_say(&m, shooter, "(kick 100 0)");
            shooter = -1;
        } else if (m.pm == PM_PENALTY_READY_L || m.pm == PM_PENALTY_READY_R) {
            int left = m.pm == PM_PENALTY_READY_L;
            shooter = nearest(&m, left ? 0 : 1);
            cr_assert_geq(shooter, 0);
            double dir = goal_x > 0 ? 0.0 : 180.0, off = goal_x > 0 ? -0.5 : 0.5;
            e2e_ref_place(&m, shooter, m.w.ball.x + off, 0.0, left ? dir : 90.0);
        }
        cr_assert_eq(e2e_ref_cycle(&m), 0);
    }
    cr_expect_eq(m.pm, PM_TIME_OVER);
    /* three kicks decide it whoever began: 2 left goals against 0 with one right kick to
     * come, or 1 against 0 with the right team's last kick missed */
    cr_expect_eq(count(m.log, "penalty_score_l;") + count(m.log, "penalty_miss_r;"), 3, "%s", m.log);
    cr_expect(strstr(m.log, "penalty_winner_l;") != NULL, "%s", m.log);
    cr_expect(strstr(m.log, "penalty_taken_l;") != NULL, "%s", m.log);
    const char *end = m.log + strlen(m.log) - strlen("time_over;");
    cr_expect_str_eq(end, "time_over;", "%s", m.log);
    cr_expect_eq(e2e_ref_stop(&m), 0);
}

Test(ref_penalty, all_level_ends_in_a_draw, .timeout = 120)
{
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, pens), 0);
    e2e_ref_connect(&m, "A", 1);
    e2e_ref_connect(&m, "B", 1);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    to_normal_time_end(&m);
    /* nobody kicks: every attempt times out in penalty_ready and is missed; after 2
     * regular and 1 extra kick each (6) still level: the 7th kick, then a draw */
    int n = e2e_ref_until(&m, PM_TIME_OVER, 300);
    cr_expect_gt(n, 0, "the shoot-out ends: %s", m.log);
    cr_expect_eq(count(m.log, "penalty_miss_"), 7, "%s", m.log);
    cr_expect_eq(count(m.log, "penalty_setup_"), 7, "%s", m.log);
    cr_expect(strstr(m.log, "penalty_draw;") != NULL, "%s", m.log);
    cr_expect_eq(count(m.log, "penalty_winner"), 0);
    cr_expect_eq(e2e_ref_stop(&m), 0);
}
