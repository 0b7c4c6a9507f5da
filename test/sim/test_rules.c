/* test_rules.c -- command rules (body slot, move, kick), client-table sync and the
 * referee basics (kick-off, play_on at the first kick, half time, time up, a goal); the
 * rules one by one are in test_ref_*.c. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "playmode.h"
#include "test_sim_util.h"

#define EPS 1e-9

static sim_world_t w;
static char referee_log[4096];

static void capture(void *ctx, const shm_event_sh_t *ev)
{
    (void)ctx;
    if (ev->kind != SHM_EV_REFEREE)
        return;
    size_t n = strlen(referee_log);
    snprintf(referee_log + n, sizeof referee_log - n, "%.*s;", (int)ev->len, ev->text);
}

Test(rules, body_slot_first_command_wins, .timeout = 10)
{
    test_world(&w, 1, 1);
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_DASH, 100.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_TURN, 90.0, 0.0);
    cr_expect(p->leg[0] == SIM_LEG_DASH && p->leg[1] == SIM_LEG_DASH);
    cr_expect_float_eq(p->body_next, p->sh.body, EPS, "the turn was ignored");
    cr_expect_eq(p->sh.count[SHM_CNT_TURN], 0);
    sim_step(&w); /* the slot is free again after the step */
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_TURN, 90.0, 0.0);
    cr_expect_eq(p->sh.count[SHM_CNT_TURN], 1);
}

Test(rules, move_before_kick_off_mirrors_right_side, .timeout = 10)
{
    test_world(&w, 1, 1);
    sim_player_t *l = test_player(&w, SHM_SIDE_LEFT, 2, -3.0, -37.0, 0.0);
    sim_player_t *r = test_player(&w, SHM_SIDE_RIGHT, 2, 3.0, -37.0, 180.0);
    test_apply(&w, SHM_SIDE_LEFT, 2, SHM_CMD_MOVE, -10.0, 5.0);
    test_apply(&w, SHM_SIDE_RIGHT, 2, SHM_CMD_MOVE, -10.0, 5.0);
    cr_expect_float_eq(l->sh.x, -10.0, EPS);
    cr_expect_float_eq(l->sh.y, 5.0, EPS);
    cr_expect_float_eq(r->sh.x, 10.0, EPS);
    cr_expect_float_eq(r->sh.y, -5.0, EPS);
    cr_expect_eq(l->sh.count[SHM_CNT_MOVE], 1);
}

Test(rules, move_ignored_in_play_on_without_slot, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_PLAY_ON;
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 10.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_MOVE, -20.0, 0.0);
    cr_expect_float_eq(p->sh.x, -10.0, EPS);
    cr_expect_eq(p->sh.count[SHM_CNT_MOVE], 0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_DASH, 100.0, 0.0);
    cr_expect_eq(p->leg[0], SIM_LEG_DASH, "illegal move left the slot free");
}

Test(rules, kick_only_when_kickable, .timeout = 10)
{
    test_world(&w, 1, 1);
    w.play_mode = PM_PLAY_ON;
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, 0.0, 0.0, 0.0);
    w.ball.x = 5.0;
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_KICK, 100.0, 0.0);
    cr_expect_float_eq(w.ball.ax, 0.0, EPS);
    cr_expect_eq(p->sh.count[SHM_CNT_KICK], 0);
    cr_expect_eq(p->sh.kicked, 1, "the attempt is visible");
    sim_step(&w);
    w.ball.x = p->sh.x + 0.5;
    w.ball.y = p->sh.y;
    w.ball.vx = w.ball.vy = 0.0;
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_KICK, 100.0, 0.0);
    double dist_ball = 0.5 - 0.3 - 0.085;
    double eff = 100.0 * 0.027 * (1.0 - 0.25 * dist_ball / 0.7);
    cr_expect_float_eq(w.ball.ax, eff, 1e-9);
    cr_expect_float_eq(w.ball.ay, 0.0, 1e-9);
    cr_expect_eq(p->sh.count[SHM_CNT_KICK], 1);
    double bx = w.ball.x;
    sim_step(&w);
    cr_expect_float_eq(w.ball.x, bx + eff, 1e-9, "accel applied at the step");
    cr_expect_float_eq(w.ball.vx, eff * 0.94, 1e-9);
}

Test(rules, no_kick_before_kick_off, .timeout = 10)
{
    test_world(&w, 1, 1);
    test_player(&w, SHM_SIDE_LEFT, 1, -0.5, 0.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_KICK, 100.0, 0.0);
    cr_expect_float_eq(w.ball.ax, 0.0, EPS);
}

Test(rules, kick_off_then_play_on_at_first_kick, .timeout = 10)
{
    test_world(&w, 1, 1);
    referee_log[0] = '\0';
    w.emit = capture;
    test_player(&w, SHM_SIDE_LEFT, 1, -0.5, 0.0, 0.0);
    cr_expect_eq(sim_referee_kick_off(&w), 0);
    cr_expect_eq(w.play_mode, PM_KICK_OFF_L);
    sim_step(&w);
    cr_expect_eq(w.play_mode, PM_KICK_OFF_L, "no kick yet");
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_KICK, 50.0, 0.0);
    cr_expect_eq(w.play_mode, PM_PLAY_ON);
    cr_expect_str_eq(referee_log, "kick_off_l;play_on;");
}

Test(rules, half_time_and_time_up, .timeout = 10)
{
    test_world(&w, 1, 1);
    test_conf_set("server", "half_time", "2"); /* 20 cycles */
    test_init(&w, &test_conf, NULL, 1);
    referee_log[0] = '\0';
    w.emit = capture;
    strcpy(w.team[0], "A"); /* both teams there, and not level: time_up at the end */
    strcpy(w.team[1], "B");
    w.score[0] = 1;
    sim_referee_kick_off(&w);
    for (int i = 0; i < 20; i++)
        sim_step(&w);
    cr_expect_eq(w.time, 20);
    cr_expect_eq(w.play_mode, PM_BEFORE_KICK_OFF);
    sim_step(&w);
    cr_expect_eq(w.time, 20, "frozen before the kick-off");
    sim_referee_kick_off(&w);
    cr_expect_eq(w.play_mode, PM_KICK_OFF_R, "second half: right kicks off");
    for (int i = 0; i < 20; i++)
        sim_step(&w);
    cr_expect_eq(w.play_mode, PM_TIME_OVER);
    cr_expect_eq(w.time, 40);
    cr_expect_str_eq(referee_log,
                     "kick_off_l;half_time;before_kick_off;kick_off_r;time_up;time_over;");
}

Test(rules, goal_scored, .timeout = 10)
{
    test_world(&w, 1, 1);
    referee_log[0] = '\0';
    w.emit = capture;
    strcpy(w.team[0], "A"); /* a team without a name scores nothing (docs/protocol/referee.md §3) */
    w.play_mode = PM_PLAY_ON;
    w.ball.x = 52.0;
    w.ball.vx = 2.0;
    sim_step(&w);
    cr_expect_eq(w.score[0], 1);
    cr_expect_eq(w.play_mode, PM_GOAL_L);
    cr_expect_str_eq(referee_log, "goal_l_1;");
    for (int i = 0; i < 51; i++)
        sim_step(&w);
    cr_expect_eq(w.play_mode, PM_KICK_OFF_R);
    cr_expect_float_eq(w.ball.x, 0.0, EPS);
}

Test(rules, sync_clients_enables_and_disables, .timeout = 10)
{
    test_world(&w, 1, 1);
    shm_client_sh_t cl[SHM_MAX_CLIENTS];
    memset(cl, 0, sizeof cl);
    int idx = shm_player_index(SHM_SIDE_RIGHT, 4);
    atomic_store(&cl[idx].state, CLIENT_ST_ACTIVE);
    cl[idx].kind = CLIENT_KIND_PLAYER;
    cl[idx].side = SHM_SIDE_RIGHT;
    cl[idx].unum = 4;
    cl[idx].generation = 7;
    sim_world_sync_clients(&w, cl);
    sim_player_t *p = &w.pl[idx];
    cr_expect_eq(p->sh.enabled, 1);
    cr_expect_float_eq(p->sh.x, 12.0, EPS, "x = -3 * unum * side");
    cr_expect_float_eq(p->sh.y, -37.0, EPS);
    cr_expect_float_eq(p->sh.body, M_PI, EPS, "committed at 180 until the first step commits the pending 0 (as the reference)");
    cr_expect_float_eq(p->sh.stamina, 8000.0, EPS);
    cr_expect_float_eq(p->sh.capacity, 130600.0, EPS);
    p->sh.x = 1.0;
    sim_world_sync_clients(&w, cl); /* same generation: untouched */
    cr_expect_float_eq(p->sh.x, 1.0, EPS);
    atomic_store(&cl[idx].state, CLIENT_ST_FREE);
    sim_world_sync_clients(&w, cl);
    cr_expect_eq(p->sh.enabled, 0);
    cr_expect_float_eq(p->sh.x, 12.0, EPS);
}

/* a reconnect to a connected player marks the entry CLOSING while the new client's
 * socket is opened, then ACTIVE again with the same generation: the player is the same
 * (the reference keeps the player object on the field), so a sim that looks during the
 * hand-over must neither take him off nor reset him */
Test(rules, sync_clients_keeps_a_player_being_handed_over, .timeout = 10)
{
    test_world(&w, 1, 1);
    shm_client_sh_t cl[SHM_MAX_CLIENTS];
    memset(cl, 0, sizeof cl);
    int idx = shm_player_index(SHM_SIDE_LEFT, 2);
    atomic_store(&cl[idx].state, CLIENT_ST_ACTIVE);
    cl[idx].kind = CLIENT_KIND_PLAYER;
    cl[idx].side = SHM_SIDE_LEFT;
    cl[idx].unum = 2;
    cl[idx].generation = 3;
    sim_world_sync_clients(&w, cl);
    sim_player_t *p = &w.pl[idx];
    cr_assert_eq(p->sh.enabled, 1);
    p->sh.x = -7.5;
    p->sh.stamina = 4000.0;
    atomic_store(&cl[idx].state, CLIENT_ST_CLOSING);
    sim_world_sync_clients(&w, cl);
    cr_expect_eq(p->sh.enabled, 1, "still on the field during the hand-over");
    atomic_store(&cl[idx].state, CLIENT_ST_ACTIVE);
    sim_world_sync_clients(&w, cl);
    cr_expect_eq(p->sh.enabled, 1);
    cr_expect_float_eq(p->sh.x, -7.5, EPS, "the same player, not a new one");
    cr_expect_float_eq(p->sh.stamina, 4000.0, EPS);
}

Test(rules, publish_fill_flags, .timeout = 10)
{
    test_world(&w, 1, 1);
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -0.5, 0.0, 0.0);
    p->sh.goalie = 1;
    w.play_mode = PM_PLAY_ON;
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_KICK, 50.0, 0.0);
    static shm_snapshot_sh_t s;
    sim_publish_fill(&w, NULL, &s);
    cr_expect_eq(s.player[0].state, SIM_ST_STAND | SIM_ST_GOALIE | SIM_ST_KICK);
    cr_expect_eq(s.player[1].state, 0u, "disabled");
    cr_expect_eq(s.play_mode, PM_PLAY_ON);
    sim_world_end_cycle(&w);
    sim_publish_fill(&w, NULL, &s);
    cr_expect_eq(s.player[0].state, SIM_ST_STAND | SIM_ST_GOALIE);
}

/* pointto (docs/protocol/player.md §10): the target is fixed in field coordinates (position
 * + polar(dist, body + neck + dir)); the arm is movable again after point_to_ban (5) steps,
 * points for point_to_duration (20); (pointto off) needs a movable arm and ends it */
Test(rules, pointto_arm, .timeout = 10)
{
    test_world(&w, 1, 1);
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 5.0, 90.0);
    p->sh.neck = -M_PI / 2.0;
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_POINTTO, 10.0, 30.0);
    cr_expect_float_eq(p->sh.point_x, -10.0 + 10.0 * cos(M_PI / 6.0), EPS);
    cr_expect_float_eq(p->sh.point_y, 5.0 + 10.0 * sin(M_PI / 6.0), EPS);
    cr_expect_eq(p->sh.arm_expires, 20);
    cr_expect_eq(p->sh.arm_movable, 5);
    cr_expect_eq(p->sh.count[SHM_CNT_POINTTO], 1);
    for (int i = 0; i < 4; i++) {
        sim_step(&w);
        test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_POINTTO, 1.0, 0.0);
    }
    cr_expect_eq(p->sh.count[SHM_CNT_POINTTO], 1, "banned for 5 steps");
    shm_cmd_sh_t off = test_cmd(SHM_CMD_POINTTO, 0.0, 0.0);
    off.i = 1;
    sim_cmd_player(&w, 0, &off);
    cr_expect_eq(p->sh.arm_expires, 16, "off needs a movable arm too");
    sim_step(&w);
    sim_cmd_player(&w, 0, &off);
    cr_expect_eq(p->sh.arm_expires, 0);
    cr_expect_eq(p->sh.arm_movable, 0, "movable at once after off");
    cr_expect_eq(p->sh.count[SHM_CNT_POINTTO], 2);
}

/* attentionto: a player of either team that joined, not himself; off always counts */
Test(rules, attentionto_targets, .timeout = 10)
{
    test_world(&w, 1, 1);
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 5.0, 0.0);
    test_player(&w, SHM_SIDE_RIGHT, 3, 10.0, 5.0, 0.0);
    shm_cmd_sh_t c = test_cmd(SHM_CMD_ATTENTIONTO, 0.0, 0.0);
    c.i = SHM_SIDE_RIGHT;
    c.flags = 4u; /* never joined */
    sim_cmd_player(&w, 0, &c);
    cr_expect_eq(p->sh.count[SHM_CNT_ATTENTIONTO], 0);
    c.i = SHM_SIDE_LEFT;
    c.flags = 1u; /* himself */
    sim_cmd_player(&w, 0, &c);
    cr_expect_eq(p->sh.count[SHM_CNT_ATTENTIONTO], 0);
    c.i = SHM_SIDE_RIGHT;
    c.flags = 3u;
    sim_cmd_player(&w, 0, &c);
    cr_expect(p->sh.focus_side == SHM_SIDE_RIGHT && p->sh.focus_unum == 3);
    c.i = 0;
    sim_cmd_player(&w, 0, &c);
    cr_expect(p->sh.focus_side == 0 && p->sh.count[SHM_CNT_ATTENTIONTO] == 2);
}

/* say: at most say_msg_size (10) characters, else dropped without a count */
Test(rules, say_length, .timeout = 10)
{
    test_world(&w, 1, 1);
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 5.0, 0.0);
    shm_cmd_sh_t c = test_cmd(SHM_CMD_SAY, 0.0, 0.0);
    snprintf(c.text, sizeof c.text, "0123456789");
    c.len = 10;
    sim_cmd_player(&w, 0, &c);
    snprintf(c.text, sizeof c.text, "0123456789A");
    c.len = 11;
    sim_cmd_player(&w, 0, &c);
    cr_expect_eq(p->sh.count[SHM_CNT_SAY], 1);
}

/* change_view counts, except a synch-see player's request for low quality (flag bit 0) */
Test(rules, change_view_count, .timeout = 10)
{
    test_world(&w, 1, 1);
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, -10.0, 5.0, 0.0);
    shm_cmd_sh_t c = test_cmd(SHM_CMD_CHANGE_VIEW, 0.0, 0.0);
    c.flags = 1u;
    sim_cmd_player(&w, 0, &c);
    cr_expect_eq(p->sh.count[SHM_CNT_CHANGE_VIEW], 1, "async: low is a view mode");
    p->sh.synch_see = 1;
    sim_cmd_player(&w, 0, &c);
    cr_expect_eq(p->sh.count[SHM_CNT_CHANGE_VIEW], 1);
    c.flags = 0u;
    sim_cmd_player(&w, 0, &c);
    cr_expect_eq(p->sh.count[SHM_CNT_CHANGE_VIEW], 2);
}
