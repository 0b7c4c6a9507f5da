/* test_cmd.c -- proto_parse_player: every command form of spec player-sim.md 2, several
 * commands per datagram, errors that stop the parse, limits, and hostile input. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include "netgw_proto.h"

static proto_parsed_t out;

/* parse as a left player of team "Alpha" against "Beta" */
static void parse(const char *s)
{
    proto_parse_player(s, strlen(s), 19.0, SHM_SIDE_LEFT, "Alpha", "Beta", &out);
}

static void parse_right(const char *s)
{
    proto_parse_player(s, strlen(s), 19.0, SHM_SIDE_RIGHT, "Beta", "Alpha", &out);
}

static void ok1(const char *s, int kind)
{
    parse(s);
    cr_assert_eq(out.nreply, 0, "%s: reply %s", s, out.reply[0]);
    cr_assert_eq(out.ncmd, 1, "%s", s);
    cr_assert_eq(out.cmd[0].kind, kind, "%s", s);
    cr_assert_eq(out.cmd[0].recv_time, 0u);
}

static void bad(const char *s)
{
    parse(s);
    cr_assert_eq(out.nreply, 1, "%s", s);
    cr_assert_str_eq(out.reply[0], "(error illegal_command_form)", "%s", s);
}

Test(cmd, dash_forms, .timeout = 10)
{
    ok1("(dash 80)", SHM_CMD_DASH);
    cr_assert_eq(out.cmd[0].i, 1);
    cr_assert_float_eq(out.cmd[0].d[0], 80.0, 1e-12);
    cr_assert_float_eq(out.cmd[0].d[1], 0.0, 1e-12);
    ok1("(dash -1.5e1 -90)", SHM_CMD_DASH);
    cr_assert_float_eq(out.cmd[0].d[0], -15.0, 1e-12);
    cr_assert_float_eq(out.cmd[0].d[1], -90.0, 1e-12);
    ok1("(dash (l 50 10) (r 60 -20))", SHM_CMD_DASH);
    cr_assert_eq(out.cmd[0].i, 2);
    cr_assert_eq(out.cmd[0].flags, 3u);
    cr_assert_float_eq(out.cmd[0].d[0], 50.0, 1e-12);
    cr_assert_float_eq(out.cmd[0].d[1], 10.0, 1e-12);
    cr_assert_float_eq(out.cmd[0].d[2], 60.0, 1e-12);
    cr_assert_float_eq(out.cmd[0].d[3], -20.0, 1e-12);
    ok1("(dash (r 60 -20)(l 50 10))", SHM_CMD_DASH);
    cr_assert_eq(out.cmd[0].flags, 3u);
    cr_assert_float_eq(out.cmd[0].d[0], 50.0, 1e-12);
    cr_assert_float_eq(out.cmd[0].d[2], 60.0, 1e-12);
    ok1("(dash (r 70 5))", SHM_CMD_DASH);
    cr_assert_eq(out.cmd[0].i, 2);
    cr_assert_eq(out.cmd[0].flags, 2u);
    cr_assert_float_eq(out.cmd[0].d[2], 70.0, 1e-12);
    ok1("(dash (l 70 5))", SHM_CMD_DASH);
    cr_assert_eq(out.cmd[0].flags, 1u);
    bad("(dash)");
    bad("(dash 1 2 3)");
    bad("(dash abc)");
    bad("(dash (l 1 2) (l 3 4))");
    bad("(dash (x 1 2))");
    bad("(dash (l 1))");
    bad("(dash (l 1 2) (r 1 2) (l 1 2))");
    bad("(dash \"10\")");
    bad("(dash 0x10)");
    bad("(dash nan)");
    bad("(dash 1e999)");
}

Test(cmd, body_commands, .timeout = 10)
{
    ok1("(turn 30)", SHM_CMD_TURN);
    cr_assert_float_eq(out.cmd[0].d[0], 30.0, 1e-12);
    ok1("(turn_neck -45.5)", SHM_CMD_TURN_NECK);
    cr_assert_float_eq(out.cmd[0].d[0], -45.5, 1e-12);
    ok1("(kick 100 -30)", SHM_CMD_KICK);
    cr_assert_float_eq(out.cmd[0].d[0], 100.0, 1e-12);
    cr_assert_float_eq(out.cmd[0].d[1], -30.0, 1e-12);
    ok1("(catch 45)", SHM_CMD_CATCH);
    cr_assert_float_eq(out.cmd[0].d[0], 45.0, 1e-12);
    ok1("(move -10 5.5)", SHM_CMD_MOVE);
    cr_assert_float_eq(out.cmd[0].d[0], -10.0, 1e-12);
    cr_assert_float_eq(out.cmd[0].d[1], 5.5, 1e-12);
    ok1("(move (-20 3))", SHM_CMD_MOVE);
    cr_assert_float_eq(out.cmd[0].d[0], -20.0, 1e-12);
    cr_assert_float_eq(out.cmd[0].d[1], 3.0, 1e-12);
    bad("(turn)");
    bad("(kick 10)");
    bad("(move 1)");
    bad("(move (1))");
    bad("(move (1 2) 3)");
    bad("(catch)");
}

Test(cmd, tackle, .timeout = 10)
{
    ok1("(tackle 30)", SHM_CMD_TACKLE);
    cr_assert_eq(out.cmd[0].i, 0);
    cr_assert_float_eq(out.cmd[0].d[0], 30.0, 1e-12);
    ok1("(tackle -10 on)", SHM_CMD_TACKLE);
    cr_assert_eq(out.cmd[0].i, 1);
    ok1("(tackle 0 true)", SHM_CMD_TACKLE);
    cr_assert_eq(out.cmd[0].i, 1);
    ok1("(tackle 0 off)", SHM_CMD_TACKLE);
    cr_assert_eq(out.cmd[0].i, 0);
    ok1("(tackle 0 false)", SHM_CMD_TACKLE);
    cr_assert_eq(out.cmd[0].i, 0);
    bad("(tackle 0 maybe)");
    bad("(tackle)");
}

Test(cmd, say, .timeout = 10)
{
    ok1("(say \"hello (1).+-*/?<>_ X\")", SHM_CMD_SAY);
    cr_assert_str_eq(out.cmd[0].text, "hello (1).+-*/?<>_ X");
    cr_assert_eq(out.cmd[0].len, strlen("hello (1).+-*/?<>_ X"));
    ok1("(say abc123)", SHM_CMD_SAY);
    cr_assert_str_eq(out.cmd[0].text, "abc123");
    bad("(say \"a,b\")");
    bad("(say \"a'b\")");
    bad("(say \"\")");
    bad("(say)");
    bad("(say a b)");
    bad("(say \"unterminated)");
    /* a long message is carried (cut to the record) and dropped by the sim */
    char big[400];
    strcpy(big, "(say \"");
    memset(big + 6, 'a', 300);
    strcpy(big + 306, "\")");
    ok1(big, SHM_CMD_SAY);
    cr_assert_eq(out.cmd[0].len, SHM_CMD_TEXT_LEN - 1);
    cr_assert_eq(out.cmd[0].text[SHM_CMD_TEXT_LEN - 1], '\0');
}

Test(cmd, pointto_attentionto_focus, .timeout = 10)
{
    ok1("(pointto 10 -20)", SHM_CMD_POINTTO);
    cr_assert_eq(out.cmd[0].i, 0);
    cr_assert_float_eq(out.cmd[0].d[0], 10.0, 1e-12);
    cr_assert_float_eq(out.cmd[0].d[1], -20.0, 1e-12);
    ok1("(pointto off)", SHM_CMD_POINTTO);
    cr_assert_eq(out.cmd[0].i, 1);
    bad("(pointto on)");
    ok1("(change_focus 2.5 -10)", SHM_CMD_CHANGE_FOCUS);
    cr_assert_float_eq(out.cmd[0].d[0], 2.5, 1e-12);
    cr_assert_float_eq(out.cmd[0].d[1], -10.0, 1e-12);
    bad("(change_focus 1)");

    ok1("(attentionto off)", SHM_CMD_ATTENTIONTO);
    cr_assert_eq(out.cmd[0].i, 0);
    static const struct { const char *s; int side; } at[] = {
        { "(attentionto our 7)", SHM_SIDE_LEFT }, { "(attentionto opp 7)", SHM_SIDE_RIGHT },
        { "(attentionto l 7)", SHM_SIDE_LEFT },   { "(attentionto left 7)", SHM_SIDE_LEFT },
        { "(attentionto r 7)", SHM_SIDE_RIGHT },  { "(attentionto right 7)", SHM_SIDE_RIGHT },
        { "(attentionto Alpha 7)", SHM_SIDE_LEFT }, { "(attentionto Beta 7)", SHM_SIDE_RIGHT },
    };
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        ok1(at[i].s, SHM_CMD_ATTENTIONTO);
        cr_assert_eq(out.cmd[0].i, at[i].side, "%s", at[i].s);
        cr_assert_eq(out.cmd[0].flags, 7u, "%s", at[i].s);
    }
    /* the same words from the right side */
    parse_right("(attentionto our 3)(attentionto opp 4)(attentionto Alpha 5)(attentionto l 6)");
    cr_assert_eq(out.ncmd, 4);
    cr_assert_eq(out.cmd[0].i, SHM_SIDE_RIGHT);
    cr_assert_eq(out.cmd[1].i, SHM_SIDE_LEFT);
    cr_assert_eq(out.cmd[2].i, SHM_SIDE_LEFT);
    cr_assert_eq(out.cmd[3].i, SHM_SIDE_LEFT);
    /* unknown team or unum out of range: ignored, no error */
    parse("(attentionto Gamma 7)(attentionto our 12)(attentionto our 0)");
    cr_assert_eq(out.ncmd, 0);
    cr_assert_eq(out.nreply, 0);
    bad("(attentionto our)");
    bad("(attentionto our x)");
}

Test(cmd, change_view, .timeout = 10)
{
    ok1("(change_view wide low)", SHM_CMD_CHANGE_VIEW);
    cr_assert_eq(out.view_width, SHM_VIEW_WIDE);
    cr_assert_eq(out.view_high, 0);
    ok1("(change_view narrow high)", SHM_CMD_CHANGE_VIEW);
    cr_assert_eq(out.view_width, SHM_VIEW_NARROW);
    cr_assert_eq(out.view_high, 1);
    ok1("(change_view normal)", SHM_CMD_CHANGE_VIEW);
    cr_assert_eq(out.view_width, SHM_VIEW_NORMAL);
    cr_assert_eq(out.view_high, 1);
    parse("(turn 1)");
    cr_assert_eq(out.view_width, -1);
    cr_assert_eq(out.view_high, -1);
    bad("(change_view huge)");
    bad("(change_view wide medium)");
    bad("(change_view)");
}

Test(cmd, gateway_flags, .timeout = 10)
{
    parse("(sense_body)(score)(done)");
    cr_assert_eq(out.ncmd, 0);
    cr_assert_eq(out.nreply, 0);
    cr_assert(out.sense_body && out.score && out.done);
    cr_assert_eq(out.compression, -1);
    parse("(synch_see)");
    cr_assert_eq(out.synch_see, 1);
    cr_assert_str_eq(out.reply[0], "(ok synch_see)");
    parse("(gaussian_see)");
    cr_assert_eq(out.gaussian_see, 1);
    cr_assert_str_eq(out.reply[0], "(ok gaussian_see)");
    parse("(compression 5)");
    cr_assert_eq(out.compression, 5);
    cr_assert_str_eq(out.reply[0], "(ok compression 5)");
    parse("(compression 10)");
    cr_assert_eq(out.compression, -1);
    cr_assert_eq(out.nreply, 0);
    bad("(compression x)");
    parse("(clang (ver 7 8))");
    cr_assert_eq(out.clang_min, 7);
    cr_assert_eq(out.clang_max, 8);
    cr_assert_str_eq(out.reply[0], "(ok clang (ver 7 8))");
    bad("(clang (ver 7))");
    bad("(clang 7 8)");
    parse("(long_kick 100 20)");
    cr_assert_eq(out.ncmd, 0);
    cr_assert_eq(out.nreply, 0);
    bad("(long_kick)");
    bad("(score 1)");
    /* bye ends the datagram */
    parse("(bye)(dash 10)");
    cr_assert_eq(out.bye, 1);
    cr_assert_eq(out.ncmd, 0);
}

Test(cmd, ear, .timeout = 10)
{
    parse("(ear (off))");
    cr_assert_eq(out.ear_set, 0xf);
    for (int i = 0; i < 4; i++)
        cr_assert_eq(out.ear[i], 0);
    parse("(ear (on our partial))");
    cr_assert_eq(out.ear_set, 1 << 2);
    cr_assert_eq(out.ear[2], 1);
    parse("(ear (off opp c))");
    cr_assert_eq(out.ear_set, 1 << 1);
    parse("(ear (on Beta))");
    cr_assert_eq(out.ear_set, (1 << 1) | (1 << 3));
    parse("(ear (on left p))");
    cr_assert_eq(out.ear_set, 1 << 2);
    parse_right("(ear (on left complete))");
    cr_assert_eq(out.ear_set, 1 << 1);
    parse("(ear (on p))");
    cr_assert_eq(out.ear_set, (1 << 2) | (1 << 3));
    parse("(ear (on Gamma))");
    cr_assert_eq(out.ear_set, 0);
    cr_assert_str_eq(out.reply[0], "(error no team with name Gamma)");
    bad("(ear on)");
    bad("(ear (maybe))");
    bad("(ear (on our complete extra))");
    bad("(ear (on our sometimes))");
}

Test(cmd, multi_command_datagrams, .timeout = 10)
{
    parse("(turn 10)(dash 50) (say \"hi\")\n(turn_neck 5)");
    cr_assert_eq(out.ncmd, 4);
    cr_assert_eq(out.cmd[0].kind, SHM_CMD_TURN);
    cr_assert_eq(out.cmd[1].kind, SHM_CMD_DASH);
    cr_assert_eq(out.cmd[2].kind, SHM_CMD_SAY);
    cr_assert_eq(out.cmd[3].kind, SHM_CMD_TURN_NECK);
    cr_assert_eq(out.nreply, 0);
    /* a NUL ends the datagram: what follows is ignored */
    const char nul[] = "(dash 10)\0(turn 20)";
    proto_parse_player(nul, sizeof nul, 19.0, SHM_SIDE_LEFT, "Alpha", "Beta", &out);
    cr_assert_eq(out.ncmd, 1);
    cr_assert_eq(out.nreply, 0);
    /* len bounds the parse, not a NUL */
    proto_parse_player("(dash 10)(turn 20)", 9, 19.0, SHM_SIDE_LEFT, "A", "B", &out);
    cr_assert_eq(out.ncmd, 1);
    cr_assert_eq(out.nreply, 0);
}

Test(cmd, error_stops_parse, .timeout = 10)
{
    parse("(turn 10)(fly 3)(dash 50)");
    cr_assert_eq(out.ncmd, 1);
    cr_assert_eq(out.cmd[0].kind, SHM_CMD_TURN);
    cr_assert_eq(out.nreply, 1);
    cr_assert_str_eq(out.reply[0], "(error illegal_command_form)");
    parse("(synch_see)(dash)(turn 1)");
    cr_assert_eq(out.nreply, 2);
    cr_assert_str_eq(out.reply[1], "(error illegal_command_form)");
    cr_assert_eq(out.ncmd, 0);
    parse("(dash 10) junk");
    cr_assert_eq(out.ncmd, 1);
    cr_assert_eq(out.nreply, 1);
    parse("(dash 10))");
    cr_assert_eq(out.ncmd, 1);
    cr_assert_eq(out.nreply, 1);
    bad("((dash 10))");
    bad("()");
    bad("(DASH 10)");
    bad("(\"dash\" 10)");
    bad("dash 10");
    bad("(dash 10");
}

Test(cmd, limits, .timeout = 10)
{
    char s[4096] = "";
    for (int i = 0; i < PROTO_MAX_CMDS + 5; i++)
        strcat(s, "(turn 1)");
    parse(s);
    cr_assert_eq(out.ncmd, PROTO_MAX_CMDS);
    cr_assert_eq(out.nreply, 1);
    cr_assert_str_eq(out.reply[0], "(error too_many_commands)");
    s[0] = '\0';
    for (int i = 0; i < PROTO_MAX_REPLIES + 5; i++)
        strcat(s, "(synch_see)");
    parse(s);
    cr_assert_eq(out.nreply, PROTO_MAX_REPLIES);
    cr_assert_str_eq(out.reply[PROTO_MAX_REPLIES - 1], "(error too_many_commands)");
    /* exactly the limit: no error */
    s[0] = '\0';
    for (int i = 0; i < PROTO_MAX_CMDS; i++)
        strcat(s, "(dash 1)");
    parse(s);
    cr_assert_eq(out.ncmd, PROTO_MAX_CMDS);
    cr_assert_eq(out.nreply, 0);
}

Test(cmd, hostile_input_never_crashes, .timeout = 10)
{
    static const char *const cases[] = {
        "", " ", "\n", "(", ")", "((((((((((((((((((((((((((((((((((((((((((((((",
        "))))))", "\"", "(say \"", "(dash (l (l (l (l 1))))", "(ear (on (our)))",
        "(clang (ver (1) 2))", "(attentionto (our) 1)", "(move ((1 2)))",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        parse(cases[i]);
        cr_assert_leq(out.nreply, 1);
        cr_assert_leq(out.ncmd, 0);
    }
    /* empty or blank datagrams are silently nothing */
    parse("   ");
    cr_assert_eq(out.nreply, 0);
    /* binary bytes */
    unsigned char bin[512];
    for (size_t i = 0; i < sizeof bin; i++)
        bin[i] = (unsigned char)(i * 37 + 11);
    proto_parse_player((const char *)bin, sizeof bin, 19.0, SHM_SIDE_LEFT, "A", "B", &out);
    cr_assert_leq(out.nreply, PROTO_MAX_REPLIES);
    /* a huge list exceeds the node arena: error, not overflow */
    char big[2048] = "(dash";
    for (int i = 0; i < 300; i++)
        strcat(big, " 1");
    strcat(big, ")");
    bad(big);
    /* NULL team names and text */
    proto_parse_player("(attentionto Alpha 3)", 21, 19.0, SHM_SIDE_LEFT, NULL, NULL, &out);
    cr_assert_eq(out.ncmd, 0);
    proto_parse_player(NULL, 10, 19.0, SHM_SIDE_LEFT, NULL, NULL, &out);
    cr_assert_eq(out.ncmd, 0);
}
