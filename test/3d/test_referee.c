/* test_referee.c -- the rules of the 3D game (s3d_referee.c): the automatic kick-off
 * after WaitBeforeKickOff, the kick-off taken, FreeKickDistance, the ball out (kick-in,
 * corner, goal kick after RuleKickInPauseTime), goals and the pause after them,
 * offside, half time, the end of the game, the dropped ball, who may kick. */
#include "s3d.h"
#include "test3d_util.h"

static s3d_world_t w;

/* steps for s seconds of 0.01 s */
#define SECS(s) ((int)((s) * 100 + 0.5))

static void two_teams(void)
{
    t3d_robot(&w, 0, "L", 1);
    t3d_robot(&w, 1, "R", 1);
    t3d_place(&w, 0, -20, 20);
    t3d_place(&w, 1, 20, 20);
}

Test(referee, kick_off_after_the_wait, .timeout = 30)
{
    t3d_world(&w, NULL, 1);
    t3d_robot(&w, 0, "L", 1);
    t3d_steps(&w, SECS(5));
    cr_expect_eq(w.play_mode, PM3D_BEFORE_KICK_OFF, "one team: no kick-off");
    t3d_robot(&w, 1, "R", 1);
    t3d_steps(&w, SECS(2) - 1);
    cr_expect_eq(w.play_mode, PM3D_BEFORE_KICK_OFF);
    cr_expect_float_eq(w.game_time, 0.0, 1e-12, "the clock stands before kick-off");
    s3d_world_step(&w);
    cr_expect(w.play_mode == PM3D_KICK_OFF_LEFT || w.play_mode == PM3D_KICK_OFF_RIGHT);
    cr_expect_eq(w.first_kickoff, playmode3d_side(w.play_mode));
    cr_expect(w.ball.p.x == 0 && w.ball.p.y == 0, "ball on the centre spot");
    t3d_world(&w, "soccer::WaitBeforeKickOff=-1", 1);
    two_teams();
    t3d_steps(&w, SECS(10));
    cr_expect_eq(w.play_mode, PM3D_BEFORE_KICK_OFF, "only a monitor's (kickOff)");
    s3d_ref_kickoff(&w);
    cr_expect_neq(w.play_mode, PM3D_BEFORE_KICK_OFF);
}

Test(referee, kick_off_taken_and_distance_kept, .timeout = 30)
{
    t3d_world(&w, NULL, 1);
    two_teams();
    w.kickoff_side = 0;
    s3d_ref_kickoff(&w);
    cr_expect_eq(w.play_mode, PM3D_KICK_OFF_LEFT);
    t3d_place(&w, 1, 2, 1); /* the right robot inside the circle */
    s3d_world_step(&w);
    double d = hypot(w.robot[1].b.p.x, w.robot[1].b.p.y);
    cr_expect(d >= 9.15 - 1e-9, "moved out to %g", d);
    cr_expect(w.robot[1].b.p.x > 0, "and in its own half");
    cr_expect(!s3d_ref_may_kick(&w, 1) && s3d_ref_may_kick(&w, 0));
    /* the left robot plays the ball */
    t3d_place(&w, 0, -0.34, 0);
    s3d_eff_kick(&w, 0, 0, 30);
    s3d_world_step(&w);
    cr_expect_eq(w.play_mode, PM3D_PLAY_ON);
    cr_expect_eq(w.last_touch, 0);
    cr_expect(w.game_time > 0);
}

Test(referee, kick_in_after_the_pause, .timeout = 30)
{
    t3d_world(&w, NULL, 1);
    two_teams();
    s3d_ref_set_mode(&w, PM3D_PLAY_ON);
    w.last_touch = 0;
    w.last_touch_side = 0;
    s3d_ball_place(&w, vec3(10, 34.2, 0.111), vec3(0, 5, 0));
    t3d_steps(&w, 5);
    cr_expect_eq(w.play_mode, PM3D_PLAY_ON, "the pause first");
    t3d_steps(&w, SECS(1));
    cr_expect_eq(w.play_mode, PM3D_KICK_IN_RIGHT, "the other side's kick-in");
    cr_expect(fabs(w.ball.p.y - 34.0) < 1e-12 && w.ball.p.x > 9.9 && w.ball.p.x < 10.5,
              "on the touch line where it went out: %g %g", w.ball.p.x, w.ball.p.y);
    cr_expect(vec3_len(w.ball.v) == 0);
    /* left robots keep their distance; nobody takes it: dropped after RuleDropBallTime */
    t3d_place(&w, 0, 12, 33);
    s3d_world_step(&w);
    cr_expect(hypot(w.robot[0].b.p.x - w.ball.p.x, w.robot[0].b.p.y - w.ball.p.y) >= 9.15);
    t3d_steps(&w, SECS(30));
    cr_expect_eq(w.play_mode, PM3D_PLAY_ON);
}

Test(referee, goal_pause_and_kick_off_for_the_conceding_side, .timeout = 30)
{
    t3d_world(&w, NULL, 1);
    two_teams();
    w.first_kickoff = 0;
    s3d_ref_set_mode(&w, PM3D_PLAY_ON);
    s3d_ball_place(&w, vec3(-51.9, 1, 0.2), vec3(-8, 0, 0));
    t3d_steps(&w, 10);
    cr_expect_eq(w.play_mode, PM3D_GOAL_RIGHT, "into the left goal: the right side scored");
    cr_expect_eq(w.score[1], 1);
    cr_expect_eq(w.score[0], 0);
    t3d_steps(&w, SECS(3));
    cr_expect_eq(w.play_mode, PM3D_BEFORE_KICK_OFF, "after RuleGoalPauseTime");
    cr_expect(w.ball.p.x == 0 && w.ball.p.y == 0);
    t3d_steps(&w, SECS(2));
    cr_expect_eq(w.play_mode, PM3D_KICK_OFF_LEFT, "the left side conceded: its kick-off");
    /* over the bar is not a goal */
    s3d_ref_set_mode(&w, PM3D_PLAY_ON);
    s3d_ball_place(&w, vec3(51.95, 0, 0.8), vec3(10, 0, 0));
    t3d_steps(&w, 5);
    cr_expect_eq(w.score[0], 0);
}

Test(referee, corner_or_goal_kick, .timeout = 30)
{
    t3d_world(&w, NULL, 1);
    two_teams();
    s3d_ref_set_mode(&w, PM3D_PLAY_ON);
    w.last_touch_side = 1; /* the right side shot wide of the left goal */
    s3d_ball_place(&w, vec3(-52.05, 10, 0.111), vec3(-5, 0, 0));
    t3d_steps(&w, SECS(1.2));
    cr_expect_eq(w.play_mode, PM3D_GOAL_KICK_LEFT);
    cr_expect(fabs(w.ball.p.x + 46.5) < 1e-12 && w.ball.p.y == 0, "5.5 m in front of the goal");
    s3d_ref_set_mode(&w, PM3D_PLAY_ON);
    w.last_touch_side = 0; /* the left side put it over its own line */
    s3d_ball_place(&w, vec3(-52.05, -10, 0.111), vec3(-5, 0, 0));
    t3d_steps(&w, SECS(1.2));
    cr_expect_eq(w.play_mode, PM3D_CORNER_KICK_RIGHT);
    cr_expect(w.ball.p.x == -52 && w.ball.p.y == -34, "the nearer corner");
}

Test(referee, offside, .timeout = 30)
{
    t3d_world(&w, NULL, 1);
    int a1 = t3d_robot(&w, 0, "L", 1), a2 = t3d_robot(&w, 1, "L", 2);
    int b1 = t3d_robot(&w, 2, "R", 1), b2 = t3d_robot(&w, 3, "R", 2);
    t3d_place(&w, a1, -0.5, 0);
    t3d_place(&w, a2, 20, 5);  /* ahead of the ball and of the second-last opponent */
    t3d_place(&w, b1, 45, 0);
    t3d_place(&w, b2, 10, -5);
    s3d_ref_set_mode(&w, PM3D_PLAY_ON);
    s3d_ball_place(&w, vec3(0, 0, 0.111), vec3(0, 0, 0));
    s3d_ref_touch(&w, a1);
    cr_expect(w.robot[a2].offside_cand && !w.robot[a1].offside_cand);
    s3d_ref_touch(&w, a2);
    cr_expect_eq(w.play_mode, PM3D_OFFSIDE_LEFT);
    t3d_steps(&w, SECS(1));
    cr_expect_eq(w.play_mode, PM3D_FREE_KICK_RIGHT, "then the other side's free kick");
    cr_expect(fabs(w.ball.p.x - 20) < 1e-9 && fabs(w.ball.p.y - 5) < 1e-9, "where it happened");
    /* level with the second-last opponent, or an opponent touching in between: play on */
    s3d_ref_set_mode(&w, PM3D_PLAY_ON);
    t3d_place(&w, a2, 9.9, 5);
    s3d_ball_place(&w, vec3(0, 0, 0.111), vec3(0, 0, 0));
    s3d_ref_touch(&w, a1);
    cr_expect(!w.robot[a2].offside_cand);
    t3d_place(&w, a2, 20, 5);
    s3d_ref_touch(&w, a1);
    s3d_ref_touch(&w, b2);
    s3d_ref_touch(&w, a2);
    cr_expect_eq(w.play_mode, PM3D_PLAY_ON);
    t3d_world(&w, "soccer::RuleOffside=false", 1);
    t3d_robot(&w, 0, "L", 1), t3d_robot(&w, 1, "L", 2), t3d_robot(&w, 2, "R", 1);
    t3d_place(&w, 1, 30, 0);
    s3d_ref_set_mode(&w, PM3D_PLAY_ON);
    s3d_ref_touch(&w, 0);
    s3d_ref_touch(&w, 1);
    cr_expect_eq(w.play_mode, PM3D_PLAY_ON, "switched off");
}

Test(referee, halves_and_the_end, .timeout = 30)
{
    t3d_world(&w, "soccer::RuleHalfTime=1 soccer::GameOverWait=0.5", 1);
    two_teams();
    t3d_steps(&w, SECS(2));
    int first = w.first_kickoff;
    s3d_ref_set_mode(&w, PM3D_PLAY_ON);
    t3d_steps(&w, SECS(1) - 1);
    cr_expect_eq(w.half, 1);
    s3d_world_step(&w);
    cr_expect_eq(w.half, 2);
    cr_expect_eq(w.play_mode, PM3D_BEFORE_KICK_OFF);
    cr_expect_float_eq(w.game_time, 1.0, 1e-12);
    t3d_steps(&w, SECS(2));
    cr_expect_eq(w.play_mode, playmode3d_for(PM3D_KICK_OFF_LEFT, 1 - first), "the other side");
    s3d_ref_set_mode(&w, PM3D_PLAY_ON);
    t3d_steps(&w, SECS(1));
    cr_expect_eq(w.play_mode, PM3D_GAME_OVER);
    cr_expect_float_eq(w.game_time, 2.0, 1e-12);
    cr_expect(!w.shutdown);
    t3d_steps(&w, SECS(0.5));
    cr_expect(w.shutdown, "GameOverWait later the server stops");
    cr_expect_float_eq(w.game_time, 2.0, 1e-12, "the clock stands");
}

Test(referee, drop_ball, .timeout = 30)
{
    t3d_world(&w, NULL, 1);
    two_teams();
    s3d_ball_place(&w, vec3(5, 5, 0.111), vec3(0, 0, 0));
    t3d_place(&w, 0, 6, 5);
    t3d_place(&w, 1, 5, 8);
    s3d_ref_set_mode(&w, PM3D_FREE_KICK_LEFT);
    s3d_ref_drop_ball(&w);
    cr_expect_eq(w.play_mode, PM3D_PLAY_ON);
    for (int i = 0; i < 2; i++) {
        double d = hypot(w.robot[i].b.p.x - 5, w.robot[i].b.p.y - 5);
        cr_expect(d >= 9.15 - 1e-9, "robot %d at %g", i, d);
    }
    cr_expect(s3d_ref_may_kick(&w, 0) && s3d_ref_may_kick(&w, 1));
    s3d_ref_set_mode(&w, PM3D_GOAL_LEFT);
    cr_expect(!s3d_ref_may_kick(&w, 0) && !s3d_ref_may_kick(&w, 1));
}

/* a trainer's (kickOff) outside BeforeKickOff is answered (an event for that monitor,
 * before the ack of a getAck after it); (agent ...) for a robot that is not there too;
 * the 2004 trainer's battery and temperature are set */
Test(referee, trainer_kickoff_error_and_energy, .timeout = 30)
{
    t3d_world(&w, "soccer::WaitBeforeKickOff=-1", 1);
    two_teams();
    shm3d_cmd_sh_t c;
    memset(&c, 0, sizeof c);
    c.kind = SHM3D_CMD_KICKOFF;
    c.generation = 0x30007;
    s3d_cmd_control(&w, &c);
    cr_expect_neq(w.play_mode, PM3D_BEFORE_KICK_OFF, "kicked off");
    cr_expect_eq(t3d_nevents, 0, "no error");
    s3d_cmd_control(&w, &c);
    cr_assert_eq(t3d_nevents, 1, "a second kickOff is answered");
    cr_expect_eq(t3d_events[0].kind, SHM3D_EV_MONITOR_ERROR);
    cr_expect_eq(t3d_events[0].generation, 0x30007u);
    cr_expect(t3d_events[0].len == (int)strlen("(error kickOff not_before_kick_off)")
              && memcmp(t3d_events[0].text, "(error kickOff not_before_kick_off)",
                        (size_t)t3d_events[0].len) == 0);
    memset(&c, 0, sizeof c);
    c.kind = SHM3D_CMD_AGENT;
    c.i = 1;
    c.j = 1;
    c.flags = SHM3D_CMDF_BATTERY | SHM3D_CMDF_TEMP;
    c.d[0] = 150;
    c.d[1] = 41.5;
    double x0 = w.robot[1].b.p.x;
    s3d_cmd_control(&w, &c);
    cr_expect_float_eq(w.robot[1].battery, 100.0, 1e-12, "kept within 0..100");
    cr_expect_float_eq(w.robot[1].temp, 41.5, 1e-12);
    cr_expect_float_eq(w.robot[1].b.p.x, x0, 1e-12, "not moved");
    c.d[0] = 12.5;
    c.flags = SHM3D_CMDF_BATTERY;
    s3d_cmd_control(&w, &c);
    cr_expect_float_eq(w.robot[1].battery, 12.5, 1e-12);
    c.j = 9;
    s3d_cmd_control(&w, &c);
    cr_assert_eq(t3d_nevents, 2);
    cr_expect(memcmp(t3d_events[1].text, "(error agent no_such_robot)", 27) == 0);
}
