/* test_ref_match.c -- the match around the rules (docs/protocol/referee.md §12,
 * monitor.md §6, referee.md §13): no time limit with a negative half_time, the monitor's start after
 * time_over kicking off again (a reference quirk), penalty fouls and results, the right
 * team's early shoot-out win ending at once (another quirk), auto-mode counters, no
 * referee with server::coach, the monitor's drop ball. */
#include <criterion/criterion.h>
#include <math.h>
#include "test_ref_util.h"

static sim_world_t w;

Test(ref_match, negative_half_time_has_no_end, .timeout = 10)
{
    const char *sets[] = { "server", "half_time", "-1", NULL };
    ref_world(&w, sets);
    ref_mode(&w, PM_PLAY_ON);
    w.time = 6000;
    for (int i = 0; i < 10; i++)
        sim_step(&w);
    cr_expect_eq(w.play_mode, PM_PLAY_ON);
    cr_expect_str_eq(ref_log, "");
}

Test(ref_match, start_after_time_over_kicks_off_again, .timeout = 10)
{
    ref_world(&w, NULL);
    ref_mode(&w, PM_TIME_OVER);
    w.time = 6000; /* the end of normal time: a half boundary */
    cr_expect_eq(sim_referee_kick_off(&w), 0);
    cr_expect_str_eq(ref_log, "kick_off_l;");
    w.time = 6001;
    ref_mode(&w, PM_PLAY_ON);
    cr_expect_eq(sim_referee_kick_off(&w), -1, "not at a boundary");
    cr_expect_str_eq(ref_log, "");
}

/* ---- penalty shoot-out ------------------------------------------------------------ */
static const char *const pen_sets[] = {
    "server", "nr_extra_halfs", "0", "server", "pen_nr_kicks", "1",
    "server", "pen_before_setup_wait", "1", NULL
};

/* the end of normal time, level: the shoot-out starts in this analysis */
static void pen_start(void)
{
    ref_world(&w, pen_sets);
    for (int k = 0; k < 2; k++) {
        for (int u = 1; u <= 2; u++) {
            sim_player_t *p = test_player(&w, k ? SHM_SIDE_RIGHT : SHM_SIDE_LEFT, u,
                                          k ? 20.0 + u : -20.0 - u, 0.0, 0.0);
            p->sh.goalie = u == 1;
        }
    }
    ref_mode(&w, PM_PLAY_ON);
    w.time = 5999;
    sim_step(&w);
    cr_assert_eq(w.time, 6000);
}

/* a player of side next to the ball kicks it */
static void pen_kick(int side, int unum)
{
    sim_player_t *p = &w.pl[shm_player_index(side, unum)];
    p->sh.x = w.ball.x - 0.5;
    p->sh.y = w.ball.y;
    p->sh.body = 0.0;
    test_apply(&w, side, unum, SHM_CMD_KICK, 10.0, 90.0);
}

/* steps until some team is ready to take its kick; that team */
static int until_ready(void)
{
    for (int i = 0; i < 300; i++) {
        if (w.play_mode == PM_PENALTY_READY_L)
            return SHM_SIDE_LEFT;
        if (w.play_mode == PM_PENALTY_READY_R)
            return SHM_SIDE_RIGHT;
        sim_step(&w);
    }
    return 0;
}

Test(ref_match, shoot_out_starts_and_kick_in_setup_is_a_foul, .timeout = 10)
{
    pen_start();
    int t = w.ref.pen_taker, k = t == SHM_SIDE_LEFT ? 0 : 1;
    char want[128];
    snprintf(want, sizeof want, "penalty_onfield_%c;penalty_setup_%c;",
             w.ref.pen_side == SHM_SIDE_LEFT ? 'l' : 'r', k == 0 ? 'l' : 'r');
    cr_expect_str_eq(ref_log, want);
    /* the ball pen_dist_x (42.5) before the goal in use */
    cr_expect_float_eq(w.ball.x, -w.ref.pen_side * 10.0, 1e-9);
    ref_log[0] = '\0';
    pen_kick(t, 2);
    snprintf(want, sizeof want, "penalty_foul_%c;penalty_miss_%c;", k == 0 ? 'l' : 'r',
             k == 0 ? 'l' : 'r');
    cr_expect_str_eq(ref_log, want);
    cr_expect_eq(w.pen_miss[k], 1);
    cr_expect_eq(w.ref.pen_nr_taken, 1);
}

Test(ref_match, defender_kick_scores_for_the_taker, .timeout = 10)
{
    pen_start();
    int t = w.ref.pen_taker, k = t == SHM_SIDE_LEFT ? 0 : 1;
    cr_assert_eq(until_ready(), t);
    ref_log[0] = '\0';
    pen_kick(-t, 2); /* a field player of the defending team */
    char want[128];
    snprintf(want, sizeof want, "penalty_foul_%c;penalty_score_%c;", k ? 'l' : 'r', k ? 'r' : 'l');
    cr_expect_str_eq(ref_log, want);
    cr_expect_eq(w.pen_score[k], 1);
}

Test(ref_match, right_team_early_win_ends_at_once, .timeout = 10)
{
    /* one kick each (pen_nr_kicks 1): the right team scores (a left field player kicks
     * in its attempt: a foul, a goal for the right), the left misses (a second left
     * kicker: a foul). Whoever began, the right then wins, and time_over comes in the
     * same call (a left win waits for the next analysis) */
    pen_start();
    for (int n = 0; n < 2; n++) {
        int t = until_ready();
        cr_assert_neq(t, 0);
        ref_log[0] = '\0';
        if (t == SHM_SIDE_RIGHT) {
            pen_kick(SHM_SIDE_LEFT, 2);
        } else {
            pen_kick(SHM_SIDE_LEFT, 1);
            pen_kick(SHM_SIDE_LEFT, 2);
        }
    }
    cr_expect(strstr(ref_log, "penalty_winner_r;time_over;") != NULL, "%s", ref_log);
    cr_expect_eq(w.play_mode, PM_TIME_OVER);
    cr_expect_eq(w.pen_score[1], 1);
    cr_expect_eq(w.pen_miss[0], 1);
}

Test(ref_match, second_kick_when_not_allowed, .timeout = 10)
{
    const char *sets[] = { "server", "nr_extra_halfs", "0", "server", "pen_allow_mult_kicks",
                           "false", NULL };
    ref_world(&w, sets);
    for (int k = 0; k < 2; k++) {
        sim_player_t *p = test_player(&w, k ? SHM_SIDE_RIGHT : SHM_SIDE_LEFT, 1,
                                      k ? 21.0 : -21.0, 0.0, 0.0);
        p->sh.goalie = 1;
        test_player(&w, k ? SHM_SIDE_RIGHT : SHM_SIDE_LEFT, 2, k ? 22.0 : -22.0, 0.0, 0.0);
    }
    ref_mode(&w, PM_PLAY_ON);
    w.time = 5999;
    sim_step(&w);
    int t = until_ready(), k = t == SHM_SIDE_LEFT ? 0 : 1;
    cr_assert_neq(t, 0);
    ref_log[0] = '\0';
    pen_kick(t, 2);
    cr_expect_eq(w.play_mode, t == SHM_SIDE_LEFT ? PM_PENALTY_TAKEN_L : PM_PENALTY_TAKEN_R);
    sim_step(&w);
    pen_kick(t, 2); /* the same taker again, a cycle later */
    char want[128];
    snprintf(want, sizeof want, "penalty_taken_%c;penalty_foul_%c;penalty_miss_%c;",
             k ? 'r' : 'l', k ? 'r' : 'l', k ? 'r' : 'l');
    cr_expect_str_eq(ref_log, want);
}

Test(ref_match, misplaced_players_without_the_coach_moving_them, .timeout = 10)
{
    const char *sets[] = { "server", "nr_extra_halfs", "0", "server",
                           "pen_coach_moves_players", "false", NULL };
    ref_world(&w, sets);
    for (int k = 0; k < 2; k++) {
        sim_player_t *p = test_player(&w, k ? SHM_SIDE_RIGHT : SHM_SIDE_LEFT, 1,
                                      k ? 21.0 : -21.0, 0.0, 0.0);
        p->sh.goalie = 1;
        test_player(&w, k ? SHM_SIDE_RIGHT : SHM_SIDE_LEFT, 2, k ? 22.0 : -22.0, 0.0, 0.0);
    }
    ref_mode(&w, PM_PLAY_ON);
    w.time = 5999;
    sim_step(&w);
    int t = w.ref.pen_taker, k = t == SHM_SIDE_LEFT ? 0 : 1;
    /* the setup wait (70) runs out with the taker 20 m from the ball and his goalie in
     * the field: the taking team's foul, a miss */
    ref_log[0] = '\0';
    for (int i = 0; i < 80 && ref_log[0] == '\0'; i++)
        sim_step(&w);
    char want[128];
    snprintf(want, sizeof want, "penalty_foul_%c;penalty_miss_%c;", k ? 'r' : 'l', k ? 'r' : 'l');
    cr_expect_str_eq(ref_log, want);
}

/* ---- auto mode ---------------------------------------------------------------------- */
Test(ref_match, auto_mode_counters, .timeout = 10)
{
    const char *sets[] = { "server", "auto_mode", "true", "server", "kick_off_wait", "3",
                           "server", "connect_wait", "5", "server", "game_over_wait", "2",
                           NULL };
    ref_world(&w, sets);
    cr_expect_eq(sim_referee_auto(&w, 5), SIM_AUTO_SAY_CONNECT);
    for (int i = 2; i <= 4; i++)
        cr_expect_eq(sim_referee_auto(&w, 5), 0);
    cr_expect_eq(w.play_mode, PM_BEFORE_KICK_OFF);
    cr_expect_eq(sim_referee_auto(&w, 5), 0);
    cr_expect_eq(w.play_mode, PM_KICK_OFF_L, "connect_wait (5) ran out");
    cr_expect_eq(w.ref.kick_offs, 1u);
    /* all 22 there: kick_off_wait */
    ref_world(&w, sets);
    cr_expect_eq(sim_referee_auto(&w, 22), SIM_AUTO_SAY_KICK_OFF);
    sim_referee_auto(&w, 22);
    cr_expect_eq(w.play_mode, PM_BEFORE_KICK_OFF);
    sim_referee_auto(&w, 22);
    cr_expect_eq(w.play_mode, PM_KICK_OFF_L);
    /* the end */
    ref_mode(&w, PM_TIME_OVER);
    cr_expect_eq(sim_referee_auto(&w, 22), SIM_AUTO_SAY_END);
    cr_expect_eq(sim_referee_auto(&w, 22), SIM_AUTO_GAME_OVER);
    /* off: nothing */
    ref_world(&w, NULL);
    cr_expect_eq(sim_referee_auto(&w, 22), 0);
    cr_expect_eq(w.play_mode, PM_BEFORE_KICK_OFF);
}

/* ---- no referee in coach mode -------------------------------------------------------- */
Test(ref_match, coach_mode_has_no_referee, .timeout = 10)
{
    const char *sets[] = { "server", "coach", "true", NULL };
    ref_world(&w, sets);
    ref_mode(&w, PM_KICK_OFF_L);
    test_player(&w, SHM_SIDE_LEFT, 2, -0.5, 0.0, 0.0);
    ref_ball(&w, 0.0, 0.0, 0.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 2, SHM_CMD_KICK, 50.0, 0.0);
    cr_expect_eq(w.play_mode, PM_KICK_OFF_L, "nobody switches to play_on");
    ref_mode(&w, PM_PLAY_ON);
    ref_ball(&w, 52.0, 0.0, 2.0, 0.0);
    sim_step(&w);
    sim_step(&w);
    cr_expect_eq(w.score[0], 0);
    cr_expect_str_eq(ref_log, "", "no goal, no goal kick");
}

/* ---- the monitor's drop ball ------------------------------------------------------- */
Test(ref_match, monitor_drop_ball_stays_in_the_area, .timeout = 10)
{
    ref_world(&w, NULL);
    ref_mode(&w, PM_PLAY_ON);
    sim_referee_drop_ball(&w, -50.0, 3.0);
    cr_expect_str_eq(ref_log, "drop_ball;play_on;");
    cr_expect(w.ball.x == -50.0 && w.ball.y == 3.0, "the monitor's drop ball keeps its spot");
    /* the referee's own drop ball (ball stuck, idle set play) moves it out */
    ref_log[0] = '\0';
    sim_ref_award_drop_ball(&w, -50.0, 3.0);
    cr_expect_float_eq(w.ball.x, -36.0, 1e-9);
    cr_expect_float_eq(w.ball.y, 20.16, 1e-9);
}

/* ---- the monitor's foul (Stadium::callFoul) ------------------------------------------- */
/* the ball is kept on the pitch (|x| <= 52.5, |y| <= 34), players beyond the pitch plus
 * pitch_margin 5 m are pulled to its edge, and during a shoot-out nothing happens */
Test(ref_match, monitor_foul_keeps_ball_and_players_in, .timeout = 10)
{
    ref_world(&w, NULL);
    sim_player_t *far = test_player(&w, SHM_SIDE_LEFT, 2, -10.0, 45.0, 0.0);
    sim_player_t *near = test_player(&w, SHM_SIDE_RIGHT, 3, 56.0, 0.0, 0.0);
    ref_mode(&w, PM_PLAY_ON);
    ref_log[0] = '\0';
    sim_referee_call_foul(&w, SHM_SIDE_LEFT, 57.5, -39.0); /* the monitor's largest values */
    cr_expect_str_eq(ref_log, "foul_r;free_kick_l;");
    cr_expect_eq(w.play_mode, PM_FREE_KICK_L);
    cr_expect_float_eq(w.ball.x, 52.5, 1e-12);
    cr_expect_float_eq(w.ball.y, -34.0, 1e-12);
    cr_expect_float_eq(far->sh.y, 39.0, 1e-12, "pulled back to 34 + 5");
    cr_expect_float_eq(far->sh.x, -10.0, 1e-12);
    cr_expect_float_eq(near->sh.x, 56.0, 1e-12, "within the margin: left alone");
    /* a monitor's side 2: the right's free kick after "foul_r" (the reference's reading
     * of any number but 1 and -1) */
    ref_mode(&w, PM_PLAY_ON);
    ref_log[0] = '\0';
    sim_referee_call_foul(&w, 2, -1.25, 0.3125);
    cr_expect_str_eq(ref_log, "foul_r;free_kick_r;");
    cr_expect_eq(w.play_mode, PM_FREE_KICK_R);
    ref_mode(&w, PM_PENALTY_SETUP_L);
    ref_log[0] = '\0';
    sim_referee_call_foul(&w, SHM_SIDE_RIGHT, 0.0, 0.0);
    cr_expect_str_eq(ref_log, "", "no foul during a shoot-out");
    cr_expect_eq(w.play_mode, PM_PENALTY_SETUP_L);
}
