/* test_cmd.c -- monitor commands (docs/protocol/monitor.md §6) parsed into the control
 * records the sim applies (shm_layout.h SHM_CMD_* argument conventions). */
#include <criterion/criterion.h>
#include <string.h>
#include "mgw.h"

static mgw_cmd_t c;

static void parse(const char *s)
{
    mgw_parse_cmd(s, strlen(s), &c);
}

Test(cmd, dispstart_and_bye)
{
    parse("(dispstart)");
    cr_expect_eq(c.kind, MGW_CMD_CTRL);
    cr_expect_eq(c.ctrl.kind, SHM_CMD_START);
    parse("(dispbye)");
    cr_expect_eq(c.kind, MGW_CMD_BYE);
    /* this server's operator reset (issue 13), also as the trainer spells it */
    parse("(dispreset)");
    cr_expect(c.kind == MGW_CMD_CTRL && c.ctrl.kind == SHM_CMD_RESET);
    parse("(reset)");
    cr_expect(c.kind == MGW_CMD_CTRL && c.ctrl.kind == SHM_CMD_RESET);
    parse("(reset now)");
    cr_expect_eq(c.kind, MGW_CMD_ERROR);
}

Test(cmd, dispfoul_positions_are_sixteenths_of_metres)
{
    parse("(dispfoul 160 -80 1)");
    cr_assert_eq(c.kind, MGW_CMD_CTRL);
    cr_expect_eq(c.ctrl.kind, SHM_CMD_FOUL);
    cr_expect_float_eq(c.ctrl.d[0], 10.0, 1e-12);
    cr_expect_float_eq(c.ctrl.d[1], -5.0, 1e-12);
    cr_expect_eq(c.ctrl.i, SHM_SIDE_LEFT, "side 1: free kick for the left team");
    parse("(dispfoul 0 0 0)");
    cr_expect_eq(c.ctrl.i, 0, "side 0: drop ball");
    parse("(dispfoul 0 0 2)"); /* any other number: passed on (the right's free kick) */
    cr_expect_eq(c.kind, MGW_CMD_CTRL);
    cr_expect_eq(c.ctrl.i, 2);
    parse("(dispfoul 1.5 0 1)");
    cr_expect_eq(c.kind, MGW_CMD_ERROR, "integers only");
}

Test(cmd, dispplayer_moves_with_angle_in_degrees)
{
    parse("(dispplayer -1 7 -320 48 90)");
    cr_assert_eq(c.kind, MGW_CMD_CTRL);
    cr_expect_eq(c.ctrl.kind, SHM_CMD_MOVE_PLAYER);
    cr_expect_eq(c.ctrl.i, SHM_SIDE_RIGHT);
    cr_expect_eq(c.ctrl.flags & 0xff, 7u);
    cr_expect_eq((c.ctrl.flags >> 8) & 0x1f, 0x7u, "x, y and angle given; velocity zeroed");
    cr_expect_float_eq(c.ctrl.d[0], -20.0, 1e-12);
    cr_expect_float_eq(c.ctrl.d[1], 3.0, 1e-12);
    cr_expect_float_eq(c.ctrl.d[2], 90.0, 1e-12);
    /* a number or side that names no player: well formed, taken, nothing moves (the
     * record names nobody: unum 0, side 0), and no reply, as the reference */
    parse("(dispplayer 1 12 0 0 0)");
    cr_expect_eq(c.kind, MGW_CMD_CTRL, "unum 12");
    cr_expect_eq(c.ctrl.flags & 0xff, 0u);
    parse("(dispplayer 2 1 0 0 0)");
    cr_expect_eq(c.kind, MGW_CMD_CTRL, "side 2");
    cr_expect_eq(c.ctrl.i, 0);
    parse("(dispplayer 1 1 0 0)");
    cr_expect_eq(c.kind, MGW_CMD_ERROR, "four arguments");
}

Test(cmd, positions_stay_on_the_field)
{
    /* issue 12: a monitor moved a player to 5.8e17 m; now the pitch plus 5 m is the limit */
    parse("(dispplayer 1 1 9223372036854775807 -99999 1000)");
    cr_assert_eq(c.kind, MGW_CMD_CTRL);
    cr_expect_float_eq(c.ctrl.d[0], 57.5, 1e-12);
    cr_expect_float_eq(c.ctrl.d[1], -39.0, 1e-12);
    cr_expect_float_eq(c.ctrl.d[2], -80.0, 1e-12, "1000 degrees = -80");
    parse("(dispfoul -99999 99999 0)");
    cr_assert_eq(c.kind, MGW_CMD_CTRL);
    cr_expect_float_eq(c.ctrl.d[0], -57.5, 1e-12);
    cr_expect_float_eq(c.ctrl.d[1], 39.0, 1e-12);
}

Test(cmd, discard_and_card)
{
    parse("(dispdiscard 1 5)");
    cr_assert_eq(c.kind, MGW_CMD_CTRL);
    cr_expect_eq(c.ctrl.kind, SHM_CMD_DISCARD);
    cr_expect_eq(c.ctrl.i, SHM_SIDE_LEFT);
    cr_expect_eq(c.ctrl.flags, 5u);
    parse("(dispcard -1 3 red)");
    cr_assert_eq(c.kind, MGW_CMD_CTRL);
    cr_expect_eq(c.ctrl.kind, SHM_CMD_CARD);
    cr_expect_eq(c.ctrl.i, SHM_SIDE_RIGHT);
    cr_expect_eq(c.ctrl.flags, 3u | (2u << 8));
    parse("(dispcard 1 3 yellow)");
    cr_expect_eq(c.ctrl.flags, 3u | (1u << 8));
    parse("(dispcard 1 3 blue)");
    cr_expect_eq(c.kind, MGW_CMD_ERROR);
    parse("(dispdiscard 2 1)");
    cr_expect_eq(c.kind, MGW_CMD_CTRL, "side 2: nobody, but no error");
    cr_expect_eq(c.ctrl.i, 0);
}

Test(cmd, compression_and_garbage)
{
    /* docs/protocol/coach.md §9: any level up to 9 is taken; 0 still wraps in zlib,
     * negative is plain */
    parse("(compression 5)");
    cr_expect_eq(c.kind, MGW_CMD_COMPRESSION);
    cr_expect_eq(c.level, 5);
    cr_expect_str_eq(c.reply, "(ok compression 5)");
    parse("(compression 0)");
    cr_expect_eq(c.level, 0);
    parse("(compression -3)");
    cr_expect_eq(c.kind, MGW_CMD_COMPRESSION);
    cr_expect_eq(c.level, -1);
    cr_expect_str_eq(c.reply, "(ok compression -3)");
    parse("(compression 10)");
    cr_expect_eq(c.kind, MGW_CMD_ERROR);
    const char *bad[] = { "", "(", ")", "(bogus)", "((dispstart))", "\x01\x02", "(dispstart 1)",
                          "dispstart" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        parse(bad[i]);
        cr_expect_eq(c.kind, MGW_CMD_ERROR, "'%s'", bad[i]);
        cr_expect_str_eq(c.reply, "(error illegal_command_form)");
    }
}
