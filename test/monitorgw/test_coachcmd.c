/* test_coachcmd.c -- the trainer commands a monitor may send in coach mode (see
 * docs/protocol/monitor.md §6: start, change_mode, move, recover, check_ball, read with the
 * trainer's patterns of 4.3), parsed into the control records the sim applies, and the
 * ball-position answer of check_ball. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include "mgw.h"
#include "playmode.h"

static mgw_cmd_t c;

static int parse(const char *s)
{
    return mgw_parse_coach_cmd(s, &c);
}

Test(coachcmd, start_recover_change_mode)
{
    cr_assert_eq(parse("(start)"), 1);
    cr_expect_eq(c.kind, MGW_CMD_CTRL);
    cr_expect_eq(c.ctrl.kind, SHM_CMD_START);
    cr_expect_str_eq(c.reply, "(ok start)");
    cr_assert_eq(parse("(recover)"), 1);
    cr_expect_eq(c.ctrl.kind, SHM_CMD_RECOVER);
    cr_expect_str_eq(c.reply, "(ok recover)");
    cr_assert_eq(parse("(change_mode play_on)"), 1);
    cr_expect_eq(c.ctrl.kind, SHM_CMD_CHANGE_MODE);
    cr_expect_eq(c.ctrl.i, PM_PLAY_ON);
    cr_expect_str_eq(c.reply, "(ok change_mode)");
    cr_assert_eq(parse("(change_mode foo)"), 1);
    cr_expect_eq(c.kind, MGW_CMD_ERROR);
    cr_expect_str_eq(c.reply, "(error illegal_mode)");
    cr_assert_eq(parse("(change_mode)"), 1);
    cr_expect_str_eq(c.reply, "(error illegal_command_form)");
    cr_assert_eq(parse("(check_ball)"), 1);
    cr_expect_eq(c.kind, MGW_CMD_CHECK_BALL);
}

Test(coachcmd, other_commands_are_not_coach_commands)
{
    /* recognised by prefix only, as the reference: "(start )" and the disp commands
     * are left to mgw_parse_cmd */
    cr_expect_eq(parse("(start )"), 0);
    cr_expect_eq(parse("(dispstart)"), 0);
    cr_expect_eq(parse("(look)"), 0);
    cr_expect_eq(parse("(change_player_type A 1 2)"), 0);
}

Test(coachcmd, ball_moves_with_two_three_or_five_numbers)
{
    cr_assert_eq(parse("(move (ball) 10 -5)"), 1);
    cr_assert_eq(c.kind, MGW_CMD_CTRL);
    cr_expect_eq(c.ctrl.kind, SHM_CMD_MOVE_BALL);
    cr_expect_float_eq(c.ctrl.d[0], 10.0, 1e-12);
    cr_expect_float_eq(c.ctrl.d[1], -5.0, 1e-12);
    cr_expect_eq(c.ctrl.flags, 0u, "no velocity: it becomes 0");
    cr_expect_str_eq(c.reply, "(ok move)");
    parse("(move (ball) 10 -5 90)");
    cr_expect_eq(c.kind, MGW_CMD_CTRL, "a direction is read and ignored");
    cr_expect_eq(c.ctrl.flags, 0u);
    parse("(move (ball) 1 2 0 0.5 -0.25)");
    cr_assert_eq(c.kind, MGW_CMD_CTRL);
    cr_expect_eq(c.ctrl.flags, 1u);
    cr_expect_float_eq(c.ctrl.d[2], 0.5, 1e-12);
    cr_expect_float_eq(c.ctrl.d[3], -0.25, 1e-12);
    /* four numbers: x y dir vx, the pattern's fifth field missing */
    parse("(move (ball) 1 2 0.5 0.5)");
    cr_expect_eq(c.kind, MGW_CMD_ERROR);
    cr_expect_str_eq(c.reply, "(error illegal_command_form)");
    parse("(move (ball) 1)");
    cr_expect_str_eq(c.reply, "(error illegal_object_form)");
    parse("(move (ball) nan 1)");
    cr_expect_str_eq(c.reply, "(error illegal_object_form)");
    parse("(move (ball) inf 1)");
    cr_expect_str_eq(c.reply, "(error illegal_object_form)");
    parse("(move (ballx) 1 2)");
    cr_expect_str_eq(c.reply, "(error illegal_object_form)");
    parse("(move (ball) 1 2 x)");
    cr_expect_eq(c.kind, MGW_CMD_CTRL, "what follows the last number read is ignored");
}

Test(coachcmd, player_moves)
{
    parse("(move (player Team_A 7) -10 5)");
    cr_assert_eq(c.kind, MGW_CMD_CTRL);
    cr_expect_eq(c.ctrl.kind, SHM_CMD_MOVE_PLAYER);
    cr_expect_str_eq(c.team, "Team_A");
    cr_expect_eq(c.ctrl.i, 0, "the side comes from the team name");
    cr_expect_eq(c.ctrl.flags & 0xffu, 7u);
    cr_expect_eq((c.ctrl.flags >> 8) & 0x1fu, 0x3u, "x and y");
    cr_expect(c.ctrl.flags & (1u << 13), "a velocity not given is kept");
    parse("(move (player Team_A 7) -10 5 45)");
    cr_expect_eq((c.ctrl.flags >> 8) & 0x1fu, 0x7u, "and the body direction");
    cr_expect_float_eq(c.ctrl.d[2], 45.0, 1e-12);
    parse("(move (player Team_A 7) -10 5 45 0.1 0.2)");
    cr_expect_eq((c.ctrl.flags >> 8) & 0x1fu, 0x1fu, "and the velocity");
    cr_expect_float_eq(c.ctrl.d[4], 0.2, 1e-12);
    parse("(move (player Team_A 7) -10 5 45 0.1)");
    cr_expect_str_eq(c.reply, "(error illegal_command_form)");
    parse("(move (player Team_A 12) -10 5)");
    cr_expect_str_eq(c.reply, "(error illegal_object_form)");
    parse("(move (player Team_A) -10 5)");
    cr_expect_str_eq(c.reply, "(error illegal_object_form)");
    parse("(move (player AVeryLongTeamNameIndeed 1) -10 5)");
    cr_expect_eq(c.kind, MGW_CMD_CTRL, "no team has that name: (ok move) for nothing");
    cr_expect_str_eq(c.team, "");
}

/* ball_size 0.085, goal_width 14.02: a goal is the box 2.44 deep behind the goal line
 * (centre x = +-(52.5 + 1.22 + 0.085)) and 14.02 + 0.06 wide; off the pitch beyond
 * 52.585 / 34.085 */
Test(coachcmd, check_ball_places)
{
    static conf_t conf;
    char buf[96];
    conf_defaults(&conf);
    shm_snapshot_sh_t s;
    memset(&s, 0, sizeof s);
    s.time = 42;
    static const struct { double x, y; const char *where; } cases[] = {
        { 0.0, 0.0, "in_field" },       { 52.58, 34.08, "in_field" },
        { -53.0, 0.0, "goal_l" },       { 54.0, 7.03, "goal_r" },
        { 54.0, 7.05, "out_of_field" }, { 0.0, -34.1, "out_of_field" },
        { 56.2, 0.0, "out_of_field" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        s.ball.x = cases[i].x;
        s.ball.y = cases[i].y;
        char want[96];
        snprintf(want, sizeof want, "(ok check_ball 42 %s)", cases[i].where);
        cr_assert_gt(mgw_check_ball(&s, &conf, buf, sizeof buf), 0);
        cr_expect_str_eq(buf, want, "ball at %g %g", cases[i].x, cases[i].y);
    }
}
