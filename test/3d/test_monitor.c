/* test_monitor.c -- the monitor protocol of docs/protocol/3d.md §4: the Init expression
 * (byte for byte the manual's example with the default parameters), Info with everything
 * the first time and only what changed later, the ack, and the monitor and trainer
 * commands (mgw3d_encode.c, mgw3d_cmd.c); the monitor log read back (mgw3d_replay.c). */
#include <stdio.h>
#include <stdlib.h>
#include "mgw3d.h"
#include "s3d.h"
#include "test3d_util.h"

static s3d_world_t w;
static shm3d_snapshot_sh_t snap;
static char buf[MGW3D_INFO_LEN];

/* the manual's example, its line breaks (added "for readability") taken out */
Test(monitor, init_is_the_seeds_example, .timeout = 30)
{
    t3d_config(NULL);
    int n = mgw3d_encode_init(&t3d_conf, buf, sizeof buf);
    cr_assert_gt(n, 0);
    cr_expect_str_eq(buf,
        "(Init (FieldLength 104)(FieldWidth 68)(FieldHeight 40)"
        "(GoalWidth 7.32)(GoalDepth 2)(GoalHeight 0.5)(BorderSize 10)"
        "(FreeKickDistance 9.15)(WaitBeforeKickOff 2)(AgentMass 75)"
        "(AgentRadius 0.22)(AgentMaxSpeed 10)(BallRadius 0.111)"
        "(BallMass 0.425878)(RuleGoalPauseTime 3)(RuleKickInPauseTime 1)"
        "(RuleHalfTime 300)"
        "(play_modes BeforeKickOff KickOff_Left KickOff_Right PlayOn "
        "KickIn_Left KickIn_Right corner_kick_left corner_kick_right "
        "goal_kick_left goal_kick_right offside_left offside_right "
        "GameOver Goal_Left Goal_Right free_kick_left free_kick_right))");
    cr_expect_eq(n, (int)strlen(buf));
    t3d_config("soccer::FieldLength=105 soccer::RuleHalfTime=60");
    mgw3d_encode_init(&t3d_conf, buf, sizeof buf);
    cr_expect(strstr(buf, "(FieldLength 105)") && strstr(buf, "(RuleHalfTime 60)"));
}

Test(monitor, info_full_then_changes, .timeout = 30)
{
    mgw3d_state_t st, st2;
    t3d_world(&w, NULL, 1);
    s3d_publish_fill(&w, &snap, 0);
    mgw3d_encode_info(&snap, &t3d_conf, NULL, &st, buf, sizeof buf);
    /* the manual's example with no robots yet */
    cr_expect_str_eq(buf, "(Info (time 0)(half 1)(score_left 0)(score_right 0)(play_mode 0)"
                          "(F (id 1_l)(pos -52 -34 0))(F (id 2_l)(pos -52 34 0))"
                          "(F (id 1_r)(pos 52 -34 0))(F (id 2_r)(pos 52 34 0))"
                          "(G (id 1_l)(pos -52 -3.66 0))(G (id 2_l)(pos -52 3.66 0))"
                          "(G (id 1_r)(pos 52 -3.66 0))(G (id 2_r)(pos 52 3.66 0))"
                          "(B (pos 0 0 0.111)))");
    int a = t3d_robot(&w, 0, "RoboLog", 7), b = t3d_robot(&w, 1, "Other", 3);
    t3d_place(&w, a, -1.5, 2);
    t3d_place(&w, b, 4, -0.25);
    w.last_touch = b;
    w.score[1] = 1;
    s3d_ref_set_mode(&w, PM3D_GOAL_RIGHT);
    w.game_time = 12.34;
    s3d_publish_fill(&w, &snap, 0);
    mgw3d_encode_info(&snap, &t3d_conf, &st, &st2, buf, sizeof buf);
    cr_expect_str_eq(buf, "(Info (time 12.34)(score_right 1)(team_left RoboLog)(team_right Other)"
                          "(play_mode 14)(P (s 0)(id 7)(pos -1.5 2 0.22))"
                          "(P (s 1)(id 3)(pos 4 -0.25 0.22)(last))(B (pos 0 0 0.111)))");
    mgw3d_encode_info(&snap, &t3d_conf, &st2, NULL, buf, sizeof buf);
    cr_expect_str_eq(buf, "(Info (time 12.34)(P (s 0)(id 7)(pos -1.5 2 0.22))"
                          "(P (s 1)(id 3)(pos 4 -0.25 0.22)(last))(B (pos 0 0 0.111)))",
                     "nothing changed: positions only");
    /* a monitor joining now gets the static parts and the whole game state */
    mgw3d_encode_info(&snap, &t3d_conf, NULL, NULL, buf, sizeof buf);
    cr_expect(strstr(buf, "(half 1)(score_left 0)(score_right 1)(team_left RoboLog)"
                          "(team_right Other)(play_mode 14)") && strstr(buf, "(F (id 1_l)"), "%s", buf);
    cr_expect_eq(mgw3d_encode_info(&snap, &t3d_conf, NULL, NULL, buf, 64), -1, "too small");
    mgw3d_encode_ack("kicked_off", 10, buf, sizeof buf);
    cr_expect_str_eq(buf, "(Info (ack kicked_off))");
}

static shm3d_cmd_sh_t recs[16];
static int nrec, nerr;
static char errs[4][160];
static void on_rec(void *ctx, const shm3d_cmd_sh_t *c)
{
    (void)ctx;
    if (nrec < 16)
        recs[nrec++] = *c;
}
static void on_err(void *ctx, const char *t)
{
    (void)ctx;
    if (nerr < 4)
        snprintf(errs[nerr], sizeof errs[0], "%s", t);
    nerr++;
}
static int cmd(const char *m)
{
    mgw3d_sink_t k = { on_rec, on_err, NULL };
    nrec = nerr = 0;
    return mgw3d_cmd_parse(m, strlen(m), 0x20005, &k);
}

Test(monitor, commands_of_the_seed, .timeout = 30)
{
    cr_expect_eq(cmd("(kickOff)"), 1);
    cr_expect(recs[0].kind == SHM3D_CMD_KICKOFF && recs[0].generation == 0x20005);
    cr_expect_eq(cmd("(playMode corner_kick_left)"), 1);
    cr_expect(recs[0].kind == SHM3D_CMD_PLAYMODE && recs[0].i == PM3D_CORNER_KICK_LEFT);
    cr_expect_eq(cmd("(agent (team L)(unum 1)(pos -52.0 0.0 0.3)(vel 0.0 0.0 0.0))"), 1);
    cr_expect(recs[0].kind == SHM3D_CMD_AGENT && recs[0].i == 0 && recs[0].j == 1);
    cr_expect(recs[0].d[0] == -52.0 && recs[0].d[2] == 0.3);
    cr_expect_eq(recs[0].flags, SHM3D_CMDF_POS | SHM3D_CMDF_VEL);
    cr_expect_eq(cmd("(ball (pos 10,20,1))"), 1, "commas, as the manual writes it");
    cr_expect(recs[0].kind == SHM3D_CMD_BALL && recs[0].d[0] == 10 && recs[0].d[1] == 20
              && recs[0].d[2] == 1 && recs[0].flags == SHM3D_CMDF_POS);
    cr_expect_eq(cmd("(ball (pos 1, 2, 3) (vel 4 5 6))"), 1);
    cr_expect(recs[0].d[1] == 2 && recs[0].d[5] == 6 && recs[0].flags == 3);
    cr_expect_eq(cmd("(dropBall)"), 1);
    cr_expect_eq(recs[0].kind, SHM3D_CMD_DROPBALL);
    cr_expect_eq(cmd("((kickOff)(getAck kicked_off))"), 2);
    cr_expect(recs[1].kind == SHM3D_CMD_ACK && recs[1].len == 10);
    cr_expect(memcmp(recs[1].text, "kicked_off", 10) == 0);
    cr_expect_eq(cmd("(agent (team Right)(unum 11)(vel 1 0 0))"), 1, "velocity alone");
    cr_expect(recs[0].i == 1 && recs[0].j == 11 && recs[0].flags == SHM3D_CMDF_VEL);
    /* the 2004 trainer's fields: a second record for them (pos and vel fill d[]) */
    cr_expect_eq(cmd("(agent (team L)(unum 3)(pos 1 2 0.22)(battery 42.5)(temperature 30))"), 1);
    cr_assert_eq(nrec, 2);
    cr_expect(recs[0].flags == SHM3D_CMDF_POS && recs[0].d[0] == 1 && recs[0].j == 3);
    cr_expect(recs[1].kind == SHM3D_CMD_AGENT && recs[1].i == 0 && recs[1].j == 3);
    cr_expect_eq(recs[1].flags, SHM3D_CMDF_BATTERY | SHM3D_CMDF_TEMP);
    cr_expect(recs[1].d[0] == 42.5 && recs[1].d[1] == 30);
    cr_expect_eq(cmd("(agent (team R)(unum 2)(battery 7))"), 1, "battery alone");
    cr_assert_eq(nrec, 1);
    cr_expect(recs[0].flags == SHM3D_CMDF_BATTERY && recs[0].d[0] == 7 && recs[0].i == 1);
    cr_expect_eq(cmd("(agent (team R)(unum 2)(battery full))"), 0);
    cr_expect_str_eq(errs[0], "(error agent bad_arguments)");
}

Test(monitor, bad_commands, .timeout = 30)
{
    cr_expect_eq(cmd("(playMode Halftime)"), 0);
    cr_expect_str_eq(errs[0], "(error playMode bad_arguments)");
    cr_expect_eq(cmd("(agent (team X)(unum 1)(pos 0 0 0))"), 0);
    cr_expect_str_eq(errs[0], "(error agent bad_arguments)");
    cr_expect_eq(cmd("(agent (team L)(unum 12)(pos 0 0 0))"), 0);
    cr_expect_eq(cmd("(agent (team L)(unum 1))"), 0, "nothing to set");
    cr_expect_eq(cmd("(ball (pos 1 2))"), 0);
    cr_expect_eq(cmd("(ball (pos 1,2,3,4))"), 0);
    cr_expect_eq(cmd("(getAck (a b))"), 0);
    cr_expect_eq(cmd("(getAck \"a b\")"), 0, "a cookie with a blank is not echoed");
    cr_expect_eq(cmd("(fly)"), 0);
    cr_expect_str_eq(errs[0], "(error unknown_command)");
    cr_expect_eq(cmd("((kickOff) fly)"), 1);
    cr_expect_str_eq(errs[0], "(error parse illegal_sexp)");
    cr_expect_eq(cmd("(kickOff"), 0);
    cr_expect_eq(nerr, 1);
}

Test(monitor, log_read_back, .timeout = 30)
{
    mgw3d_replay_t r;
    char err[128];
    char *t = strdup("(Init (FieldLength 104))\n(Info (time 0))\n\n(Info (time 0.15))\r\n"
                     "garbage\n(Die)\n(Info (time 0.3)(B (pos");
    cr_assert_eq(mgw3d_replay_load(&r, t, strlen(t), err, sizeof err), 0, "%s", err);
    cr_expect_eq(r.n, 4);
    cr_expect_eq(r.dropped, 2, "the garbage line and the cut last line");
    cr_expect_str_eq(r.line[2], "(Info (time 0.15))");
    cr_expect_eq(r.len[2], strlen("(Info (time 0.15))"));
    cr_expect_str_eq(r.line[3], "(Die)");
    mgw3d_replay_free(&r);
    t = strdup("(Info (time 0))\n");
    cr_expect_eq(mgw3d_replay_load(&r, t, strlen(t), err, sizeof err), -1);
    cr_expect_str_eq(err, "not a 3D monitor log: the first expression is not (Init ...)");
    mgw3d_replay_free(&r);
    t = strdup("\n\n");
    cr_expect_eq(mgw3d_replay_load(&r, t, strlen(t), err, sizeof err), -1);
    mgw3d_replay_free(&r);
}

/* the browser view's frame: one JSON object; names are escaped */
Test(monitor, json_frame, .timeout = 30)
{
    t3d_world(&w, NULL, 1);
    int a = t3d_robot(&w, 0, "Blue", 9);
    t3d_place(&w, a, 1.5, -2);
    w.last_touch = a;
    s3d_ball_place(&w, vec3(3, 4, 1.25), vec3(0, 0, 0));
    s3d_publish_fill(&w, &snap, 0);
    snprintf(snap.team[1], sizeof snap.team[1], "a\"b\\c");
    int n = mgw3d_encode_json(&snap, &t3d_conf, buf, sizeof buf);
    cr_assert_gt(n, 0);
    cr_expect_str_eq(buf, "{\"time\":0,\"half\":1,\"mode\":\"BeforeKickOff\",\"score\":[0,0],"
                          "\"teams\":[\"Blue\",\"a\\\"b\\\\c\"],"
                          "\"field\":[104,68,7.32,2,0.5,0.22,0.111,9.15],\"ball\":[3,4,1.25],"
                          "\"robots\":[{\"side\":0,\"unum\":9,\"pos\":[1.5,-2,0.22],"
                          "\"battery\":100,\"last\":true}]}");
    cr_expect_eq(mgw3d_encode_json(&snap, &t3d_conf, buf, 40), -1);
}
