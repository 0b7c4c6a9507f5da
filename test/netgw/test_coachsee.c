/* test_coachsee.c -- what coaches see (netgw/coach/netgw_coachsee.c; docs/protocol/coach.md
 * §5) and hear (netgw_coachhear.c; coach.md §6; clang.md §3): see_global and look per protocol version
 * (long names and angles first before v7; rounded angles, point direction and flags
 * later), opponents' fixed team names for online coaches, check_ball's regions,
 * team_names, and every hear / notice format. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "conf.h"
#include "netgw_coach.h"

static conf_t conf;
static shm_snapshot_sh_t snap;
static char buf[8192];

static void world(void)
{
    conf_defaults(&conf);
    memset(&snap, 0, sizeof snap);
    snap.time = 42;
    strcpy(snap.team[0], "Left");
    strcpy(snap.team[1], "Right");
    snap.ball = (shm_ball_sh_t){ 1.5, -2.25, 0.5, 0.0 };
    shm_player_sh_t *a = &snap.player[0]; /* left 1, a goalie */
    a->enabled = 1;
    a->side = SHM_SIDE_LEFT;
    a->unum = 1;
    a->goalie = 1;
    a->x = -50.0;
    a->y = 0.0;
    a->body = 30.6 * M_PI / 180.0;
    a->neck = -10.4 * M_PI / 180.0;
    shm_player_sh_t *b = &snap.player[SHM_TEAM_SIZE + 2]; /* right 3 */
    b->enabled = 1;
    b->side = SHM_SIDE_RIGHT;
    b->unum = 3;
    b->x = 10.0;
    b->y = 5.0;
    b->vx = 0.25;
    b->body = M_PI;
}

Test(coachsee, see_global_v7)
{
    world();
    cr_assert_gt(coach_visual(&snap, &conf, 7.0, SHM_SIDE_NONE, 0, buf, sizeof buf), 0);
    /* goals right first, then the ball, then left and right players; x y vx vy body neck,
     * angles rounded to whole degrees */
    cr_expect_str_eq(buf, "(see_global 42 ((g r) 52.5 0) ((g l) -52.5 0) ((b) 1.5 -2.25 0.5 0) "
                          "((p \"Left\" 1 goalie) -50 0 0 0 31 -10) "
                          "((p \"Right\" 3) 10 5 0.25 0 180 0))");
}

Test(coachsee, look_and_see_before_v7)
{
    world();
    cr_assert_gt(coach_visual(&snap, &conf, 5.0, SHM_SIDE_NONE, 1, buf, sizeof buf), 0);
    /* long names, no goalie mark, angles truncated and before the velocity */
    cr_expect_str_eq(buf, "(ok look 42 ((goal r) 52.5 0) ((goal l) -52.5 0) ((ball) 1.5 -2.25 0.5 0) "
                          "((player Left 1) -50 0 30 -10 0 0) "
                          "((player Right 3) 10 5 180 0 0.25 0))");
    cr_assert_gt(coach_visual(&snap, &conf, 5.0, SHM_SIDE_NONE, 0, buf, sizeof buf), 0);
    cr_expect(strncmp(buf, "(see 42 ((goal r)", 17) == 0, "%s", buf);
}

Test(coachsee, pointing_and_flags)
{
    world();
    shm_player_sh_t *b = &snap.player[SHM_TEAM_SIZE + 2];
    b->arm_expires = 3;     /* pointing at (10, 15): straight down, 90 degrees */
    b->point_x = 10.0;
    b->point_y = 15.0;
    b->tackle_expires = 2;
    b->card = 1;
    coach_visual(&snap, &conf, 8.0, SHM_SIDE_NONE, 0, buf, sizeof buf);
    cr_expect(strstr(buf, "((p \"Right\" 3) 10 5 0.25 0 180 0 90 t)") != NULL, "v8: %s", buf);
    coach_visual(&snap, &conf, 14.0, SHM_SIDE_NONE, 0, buf, sizeof buf);
    cr_expect(strstr(buf, "((p \"Right\" 3) 10 5 0.25 0 180 0 90 t y)") != NULL, "v14: %s", buf);
    /* a look from v8 to v12 has the v7 form, from v13 the v8 form */
    coach_visual(&snap, &conf, 12.0, SHM_SIDE_NONE, 1, buf, sizeof buf);
    cr_expect(strstr(buf, "((p \"Right\" 3) 10 5 0.25 0 180 0))") != NULL, "look v12: %s", buf);
    coach_visual(&snap, &conf, 19.0, SHM_SIDE_NONE, 1, buf, sizeof buf);
    cr_expect(strstr(buf, "((p \"Right\" 3) 10 5 0.25 0 180 0 90 t))") != NULL, "look v19: %s", buf);
    /* no arm, kicked: k from v13; foul-charged and red: f r from v14 */
    b->arm_expires = 0;
    b->tackle_expires = 0;
    b->kicked = 1;
    coach_visual(&snap, &conf, 13.0, SHM_SIDE_NONE, 0, buf, sizeof buf);
    cr_expect(strstr(buf, "180 0 k)") != NULL, "v13: %s", buf);
    b->kicked = 0;
    b->foul_charged = 3;
    b->card = 2;
    coach_visual(&snap, &conf, 14.0, SHM_SIDE_NONE, 0, buf, sizeof buf);
    cr_expect(strstr(buf, "180 0 f r)") != NULL, "v14: %s", buf);
    coach_visual(&snap, &conf, 12.0, SHM_SIDE_NONE, 0, buf, sizeof buf);
    cr_expect(strstr(buf, "180 0)") != NULL, "v12 has no f or cards: %s", buf);
}

Test(coachsee, opponents_fixed_names)
{
    world();
    char err[CONF_ERR_LEN];
    conf_set(&conf, "server", "fixed_teamname_r", "Anon", err, sizeof err);
    /* the left coach sees the right team anonymised; the trainer sees real names */
    coach_visual(&snap, &conf, 19.0, SHM_SIDE_LEFT, 0, buf, sizeof buf);
    cr_expect(strstr(buf, "(p \"Anon\" 3)") && strstr(buf, "(p \"Left\" 1 goalie)"), "%s", buf);
    coach_visual(&snap, &conf, 19.0, SHM_SIDE_RIGHT, 0, buf, sizeof buf);
    cr_expect(strstr(buf, "(p \"Right\" 3)") != NULL, "%s", buf);
    coach_visual(&snap, &conf, 19.0, SHM_SIDE_NONE, 0, buf, sizeof buf);
    cr_expect(strstr(buf, "(p \"Right\" 3)") != NULL, "%s", buf);
    cr_assert_gt(coach_team_names(snap.team, &conf, SHM_SIDE_LEFT, buf, sizeof buf), 0);
    cr_expect_str_eq(buf, "(ok team_names (team l Left) (team r Anon))\n");
    char none[2][SHM_TEAM_NAME_LEN] = { "", "" };
    coach_team_names(none, &conf, SHM_SIDE_NONE, buf, sizeof buf);
    cr_expect_str_eq(buf, "(ok team_names)\n");
}

Test(coachsee, check_ball_regions)
{
    world();
    /* goal areas 2.44 deep behind each line, goal_width + 0.06 wide, shifted out by the
     * ball's size; the field grows by the ball's size too */
    struct { double x, y; const char *where; } c[] = {
        { 0.0, 0.0, "in_field" }, { 52.5, 34.0, "in_field" }, { 53.0, 0.0, "goal_r" },
        { -54.0, 6.9, "goal_l" }, { -54.0, 7.2, "out_of_field" }, { 0.0, -34.2, "out_of_field" },
        { 56.0, 0.0, "out_of_field" },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        snap.ball.x = c[i].x;
        snap.ball.y = c[i].y;
        coach_check_ball(&snap, &conf, buf, sizeof buf);
        char exp[64];
        snprintf(exp, sizeof exp, "(ok check_ball 42 %s)", c[i].where);
        cr_expect_str_eq(buf, exp, "(%g %g)", c[i].x, c[i].y);
    }
}

Test(coachsee, hear_formats)
{
    /* coach.md §6: the trainer hears the referee name first in every version */
    coach_hear_referee(COACH_TRAINER, 19.0, 7, "goal_l_1", buf, sizeof buf);
    cr_expect_str_eq(buf, "(hear referee 7 goal_l_1)");
    coach_hear_referee(COACH_ONLINE, 5.0, 7, "goal_l_1", buf, sizeof buf);
    cr_expect_str_eq(buf, "(hear 7 referee goal_l_1)");
    /* the trainer's say: players v7+ "coach" quoted, older "referee"; online coaches
     * hear it as the referee; the trainer quoted (v7+) or name first */
    coach_hear_coach_say_player(19.0, SHM_SIDE_NONE, 3, "go", buf, sizeof buf);
    cr_expect_str_eq(buf, "(hear 3 coach \"go\")");
    coach_hear_coach_say_player(6.0, SHM_SIDE_NONE, 3, "go", buf, sizeof buf);
    cr_expect_str_eq(buf, "(hear 3 referee go)");
    coach_hear_coach_say(COACH_ONLINE, 19.0, SHM_SIDE_NONE, 3, "go", buf, sizeof buf);
    cr_expect_str_eq(buf, "(hear 3 referee go)");
    coach_hear_coach_say(COACH_TRAINER, 19.0, SHM_SIDE_NONE, 3, "go", buf, sizeof buf);
    cr_expect_str_eq(buf, "(hear 3 referee \"go\")");
    coach_hear_coach_say(COACH_TRAINER, 6.0, SHM_SIDE_LEFT, 3, "go", buf, sizeof buf);
    cr_expect_str_eq(buf, "(hear online_coach_left 3 go)");
    /* an online coach does not hear the other coach */
    cr_expect_eq(coach_hear_coach_say(COACH_ONLINE, 19.0, SHM_SIDE_RIGHT, 3, "go", buf,
                                      sizeof buf), 0);
    /* a v<7 coach's freeform reaches players as its own name */
    coach_hear_coach_say_player(19.0, SHM_SIDE_RIGHT, 3, "go", buf, sizeof buf);
    cr_expect_str_eq(buf, "(hear 3 online_coach_right \"go\")");
    /* coach language: the message, or (unsupported_clang) */
    coach_hear_clang_player(SHM_SIDE_LEFT, 9, "(freeform \"x\")", 1, buf, sizeof buf);
    cr_expect_str_eq(buf, "(hear 9 online_coach_left (freeform \"x\"))");
    coach_hear_clang_player(SHM_SIDE_RIGHT, 9, "(freeform \"x\")", 0, buf, sizeof buf);
    cr_expect_str_eq(buf, "(hear 9 online_coach_right (unsupported_clang))");
    coach_hear_clang_trainer(19.0, SHM_SIDE_LEFT, 9, "(info (clear))", buf, sizeof buf);
    cr_expect_str_eq(buf, "(hear 9 online_coach_left \"(info (clear))\")");
    /* players' says */
    coach_hear_player(COACH_TRAINER, 19.0, 4, "(p \"A\" 2)", "hi", buf, sizeof buf);
    cr_expect_str_eq(buf, "(hear 4 (p \"A\" 2) \"hi\")");
    coach_hear_player(COACH_TRAINER, 5.0, 4, "(player A 2)", "hi", buf, sizeof buf);
    cr_expect_str_eq(buf, "(hear (player A 2) 4 hi)");
    coach_hear_player(COACH_ONLINE, 5.0, 4, "(player A 2)", "hi", buf, sizeof buf);
    cr_expect_str_eq(buf, "(hear 4 (player A 2) hi)");
    /* substitutions */
    coach_notice_type(1, 7, 3, buf, sizeof buf);
    cr_expect_str_eq(buf, "(change_player_type 7 3)");
    coach_notice_type(0, 7, 3, buf, sizeof buf);
    cr_expect_str_eq(buf, "(change_player_type 7)");
    coach_notice_goalie(SHM_SIDE_RIGHT, 5, buf, sizeof buf);
    cr_expect_str_eq(buf, "(change_player_type r 5 goalie)");
}
