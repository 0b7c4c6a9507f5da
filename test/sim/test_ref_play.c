/* test_ref_play.c -- referee rules driven through player commands on a world (see
 * docs/protocol/referee.md §4, §7-§9): the offside line and its floor at 0, two contacts in one
 * cycle cancelling the marks, the free-kick point out of a goal area, use_offside off;
 * the last toucher as the largest acceleration of a cycle; the back-pass exceptions;
 * foul detection. Physics noise is off; commands go in as the gateway would queue them. */
#include <criterion/criterion.h>
#include <math.h>
#include "test_ref_util.h"

static sim_world_t w;

static void cmd2(int side, int unum, int kind, double a, double b)
{
    test_apply(&w, side, unum, kind, a, b);
}

static void tackle(int side, int unum, double dir, int foul)
{
    shm_cmd_sh_t c = test_cmd(SHM_CMD_TACKLE, dir, 0.0);
    c.i = foul;
    sim_cmd_player(&w, shm_player_index(side, unum), &c);
}

/* ---- offside ----------------------------------------------------------------------- */
Test(ref_play, offside_line_floor_and_point, .timeout = 10)
{
    ref_world(&w, NULL);
    ref_mode(&w, PM_PLAY_ON);
    /* every defender in his own half... of the other side: the line is at least 0 */
    test_player(&w, SHM_SIDE_RIGHT, 2, -10.0, 0.0, 180.0);
    test_player(&w, SHM_SIDE_RIGHT, 3, -20.0, 5.0, 180.0);
    test_player(&w, SHM_SIDE_LEFT, 2, -5.5, 0.0, 0.0);
    test_player(&w, SHM_SIDE_LEFT, 9, 3.0, 1.0, 0.0);
    ref_ball(&w, -5.0, 0.0, 0.0, 0.0);
    cmd2(SHM_SIDE_LEFT, 2, SHM_CMD_KICK, 20.0, 0.0);
    cr_expect_eq(w.ref.ncand, 1);
    sim_step(&w);
    ref_ball(&w, 3.5, 1.0, 0.0, 0.0);
    cmd2(SHM_SIDE_LEFT, 9, SHM_CMD_KICK, 20.0, 0.0);
    cr_expect_str_eq(ref_log, "offside_l;");
    cr_expect(w.ball.x == 0.0 && w.ball.y == 1.0, "(line, his y): %g %g", w.ball.x, w.ball.y);
}

Test(ref_play, two_contacts_in_a_cycle_cancel, .timeout = 10)
{
    ref_world(&w, NULL);
    ref_mode(&w, PM_PLAY_ON);
    test_player(&w, SHM_SIDE_RIGHT, 2, 30.0, 0.0, 180.0);
    test_player(&w, SHM_SIDE_RIGHT, 3, 0.8, 0.0, 180.0);
    test_player(&w, SHM_SIDE_LEFT, 2, -0.5, 0.0, 0.0);
    test_player(&w, SHM_SIDE_LEFT, 9, 35.0, 1.0, 0.0);
    ref_ball(&w, 0.0, 0.0, 0.0, 0.0);
    cmd2(SHM_SIDE_LEFT, 2, SHM_CMD_KICK, 20.0, 0.0);
    cr_expect_eq(w.ref.ncand, 1, "left 9 beyond the line");
    cmd2(SHM_SIDE_RIGHT, 3, SHM_CMD_KICK, 20.0, 0.0);
    cr_expect_eq(w.ref.ncand, 0, "a second kick in the same cycle cancels");
    cr_expect_eq(w.ref.off_kicker_side, SHM_SIDE_NONE);
    sim_step(&w);
    ref_ball(&w, 35.5, 1.0, 0.0, 0.0);
    cmd2(SHM_SIDE_LEFT, 9, SHM_CMD_KICK, 20.0, 0.0);
    cr_expect(strstr(ref_log, "offside") == NULL, "%s", ref_log);
}

Test(ref_play, offside_point_in_the_goal_area, .timeout = 10)
{
    ref_world(&w, NULL);
    ref_mode(&w, PM_PLAY_ON);
    test_player(&w, SHM_SIDE_RIGHT, 1, 50.0, -2.0, 180.0);
    test_player(&w, SHM_SIDE_RIGHT, 2, 49.0, 2.0, 180.0);
    test_player(&w, SHM_SIDE_LEFT, 2, 39.5, 0.0, 0.0);
    test_player(&w, SHM_SIDE_LEFT, 9, 50.0, 3.0, 0.0);
    ref_ball(&w, 40.0, 0.0, 0.0, 0.0);
    cmd2(SHM_SIDE_LEFT, 2, SHM_CMD_KICK, 10.0, 0.0);
    sim_step(&w);
    ref_ball(&w, 50.5, 3.0, 0.0, 0.0);
    cmd2(SHM_SIDE_LEFT, 9, SHM_CMD_KICK, 10.0, 0.0);
    /* (49, 3) lies in the goal area: the free kick goes to its corner (47, 9.16) */
    cr_expect_str_eq(ref_log, "offside_l;");
    cr_expect_float_eq(w.ball.x, 47.0, 1e-9);
    cr_expect_float_eq(w.ball.y, 9.16, 1e-9);
}

Test(ref_play, no_offside_when_off, .timeout = 10)
{
    const char *sets[] = { "server", "use_offside", "false", NULL };
    ref_world(&w, sets);
    ref_mode(&w, PM_PLAY_ON);
    test_player(&w, SHM_SIDE_RIGHT, 2, 30.0, 0.0, 180.0);
    test_player(&w, SHM_SIDE_LEFT, 2, -0.5, 0.0, 0.0);
    test_player(&w, SHM_SIDE_LEFT, 9, 35.0, 1.0, 0.0);
    ref_ball(&w, 0.0, 0.0, 0.0, 0.0);
    cmd2(SHM_SIDE_LEFT, 2, SHM_CMD_KICK, 20.0, 0.0);
    sim_step(&w);
    ref_ball(&w, 35.5, 1.0, 0.0, 0.0);
    cmd2(SHM_SIDE_LEFT, 9, SHM_CMD_KICK, 20.0, 0.0);
    cr_expect_str_eq(ref_log, "");
}

/* ---- the last toucher ---------------------------------------------------------------- */
static void touch_line_duel(double left_power, double right_power)
{
    ref_world(&w, NULL);
    ref_mode(&w, PM_PLAY_ON);
    test_player(&w, SHM_SIDE_LEFT, 2, -0.6, 33.2, 0.0);
    test_player(&w, SHM_SIDE_RIGHT, 2, 0.6, 33.2, 180.0);
    ref_ball(&w, 0.0, 33.2, 0.0, 0.0);
    cmd2(SHM_SIDE_LEFT, 2, SHM_CMD_KICK, left_power, 90.0);
    cmd2(SHM_SIDE_RIGHT, 2, SHM_CMD_KICK, right_power, -90.0);
    sim_step(&w);
}

Test(ref_play, last_toucher_is_the_strongest_kick_of_the_cycle, .timeout = 10)
{
    touch_line_duel(100.0, 10.0);
    cr_expect_str_eq(ref_log, "kick_in_r;", "the left kick was stronger");
    touch_line_duel(10.0, 100.0);
    cr_expect_str_eq(ref_log, "kick_in_l;", "the right kick was stronger");
}

/* ---- back pass --------------------------------------------------------------------- */
static void keeper_scene(void)
{
    ref_world(&w, NULL);
    ref_mode(&w, PM_PLAY_ON);
    sim_player_t *g = test_player(&w, SHM_SIDE_LEFT, 1, -45.0, 0.0, 0.0);
    g->sh.goalie = 1;
    test_player(&w, SHM_SIDE_LEFT, 2, -43.8, 0.0, 180.0);
    test_player(&w, SHM_SIDE_RIGHT, 9, -43.9, 0.7, 180.0);
    ref_ball(&w, -44.5, 0.0, 0.0, 0.0);
}

static void keeper_catches(void)
{
    ref_ball(&w, -44.5, 0.0, 0.0, 0.0);
    cmd2(SHM_SIDE_LEFT, 1, SHM_CMD_CATCH, 0.0, 0.0);
}

Test(ref_play, back_pass_and_its_exceptions, .timeout = 10)
{
    /* a teammate's kick, caught a cycle later: back pass */
    keeper_scene();
    cmd2(SHM_SIDE_LEFT, 2, SHM_CMD_KICK, 5.0, 0.0);
    sim_step(&w);
    keeper_catches();
    cr_expect_str_eq(ref_log, "goalie_catch_ball_l;back_pass_l;");
    cr_expect_eq(w.catcher, -1);
    /* kicked and caught in the same cycle, nobody kicked before: allowed */
    keeper_scene();
    cmd2(SHM_SIDE_LEFT, 2, SHM_CMD_KICK, 5.0, 0.0);
    keeper_catches();
    cr_expect_str_eq(ref_log, "goalie_catch_ball_l;free_kick_l;");
    cr_expect_eq(w.catcher, shm_player_index(SHM_SIDE_LEFT, 1), "he holds it for the free kick");
    /* both teams touched the ball in one cycle: the memory is cleared */
    keeper_scene();
    cmd2(SHM_SIDE_LEFT, 2, SHM_CMD_KICK, 5.0, 0.0);
    cmd2(SHM_SIDE_RIGHT, 9, SHM_CMD_KICK, 5.0, 0.0);
    sim_step(&w);
    keeper_catches();
    cr_expect_str_eq(ref_log, "goalie_catch_ball_l;free_kick_l;");
    /* his own kick after an opponent's: allowed */
    keeper_scene();
    cmd2(SHM_SIDE_RIGHT, 9, SHM_CMD_KICK, 5.0, 0.0);
    sim_step(&w);
    ref_ball(&w, -44.5, 0.0, 0.0, 0.0);
    cmd2(SHM_SIDE_LEFT, 1, SHM_CMD_KICK, 5.0, 0.0);
    sim_step(&w);
    keeper_catches();
    cr_expect_str_eq(ref_log, "goalie_catch_ball_l;free_kick_l;");
}

/* ---- fouls --------------------------------------------------------------------------- */
Test(ref_play, foul_flag_charges_even_when_unseen, .timeout = 10)
{
    const char *sets[] = { "server", "foul_detect_probability", "0", NULL };
    ref_world(&w, sets);
    ref_mode(&w, PM_PLAY_ON);
    test_player(&w, SHM_SIDE_LEFT, 2, 8.8, 0.0, 0.0);
    sim_player_t *v = test_player(&w, SHM_SIDE_RIGHT, 2, 10.0, 0.0, 180.0);
    ref_ball(&w, 9.5, 0.0, 0.0, 0.0);
    tackle(SHM_SIDE_LEFT, 2, 0.0, 1);
    cr_expect_str_eq(ref_log, "", "nobody saw it");
    cr_expect_eq(v->sh.foul_charged, 5, "but the victim is charged (foul_cycles)");
    cr_expect(v->body_used, "and frozen at once");
}

Test(ref_play, unintended_dangerous_tackle_card_by_red_probability, .timeout = 10)
{
    /* without the foul flag a dangerous tackle seen (probability 1) is a foul, and the
     * red_card_probability draw turns it into a yellow card (not a red) */
    const char *sets[] = { "server", "foul_detect_probability", "1", "server",
                           "red_card_probability", "1", NULL };
    ref_world(&w, sets);
    ref_mode(&w, PM_PLAY_ON);
    test_player(&w, SHM_SIDE_LEFT, 2, 7.9, 0.0, 0.0);
    sim_player_t *v = test_player(&w, SHM_SIDE_RIGHT, 2, 8.6, 0.0, 0.0);
    ref_ball(&w, 9.0, 0.0, 0.0, 0.0);
    cmd2(SHM_SIDE_RIGHT, 2, SHM_CMD_DASH, 0.0, 0.0);
    sim_step(&w);
    tackle(SHM_SIDE_LEFT, 2, 0.0, 0);
    cr_expect_str_eq(ref_log, "foul_charge_l;yellow_card_l_2;");
    cr_expect_eq(v->sh.foul_charged, 0, "no foul flag: nobody is charged");
    cr_expect_eq(w.pl[shm_player_index(SHM_SIDE_LEFT, 2)].sh.card, 1);
}
