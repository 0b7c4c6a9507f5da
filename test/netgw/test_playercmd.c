/* test_playercmd.c -- proto_parse_player: every command form of the reference's grammar
 * (docs/protocol/player.md §10; forms and errors checked against rcssserver 19 by hand), its
 * token rules (numbers, words, quoted and unquoted say), several commands per datagram,
 * the error that ends a parse after the commands before it, limits and hostile input. */
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

static int count_kind(int kind)
{
    int n = 0;
    for (int i = 0; i < out.n; i++)
        n += out.item[i].kind == kind;
    return n;
}

/* exactly one record of the given kind */
static const shm_cmd_sh_t *ok1(const char *s, int kind)
{
    parse(s);
    cr_assert_eq(out.error, 0, "%s: refused", s);
    cr_assert_eq(out.n, 1, "%s: %d items", s, out.n);
    cr_assert_eq(out.item[0].kind, PROTO_IT_CMD, "%s", s);
    cr_assert_eq(out.item[0].cmd.kind, kind, "%s", s);
    return &out.item[0].cmd;
}

/* exactly one gateway item of the given kind */
static const proto_item_t *gw1(const char *s, int kind)
{
    parse(s);
    cr_assert_eq(out.error, 0, "%s: refused", s);
    cr_assert_eq(out.n, 1, "%s: %d items", s, out.n);
    cr_assert_eq(out.item[0].kind, kind, "%s", s);
    return &out.item[0];
}

static void bad(const char *s)
{
    parse(s);
    cr_assert_eq(out.error, 1, "%s accepted", s);
    cr_assert_eq(out.item[out.n - 1].kind, PROTO_IT_REPLY, "%s", s);
    cr_assert_str_eq(out.item[out.n - 1].reply, "(error illegal_command_form)", "%s", s);
}

Test(cmd, dash_forms, .timeout = 10)
{
    const shm_cmd_sh_t *c = ok1("(dash 80)", SHM_CMD_DASH);
    cr_assert_eq(c->i, 1);
    cr_assert_float_eq(c->d[0], 80.0, 1e-12);
    cr_assert_float_eq(c->d[1], 0.0, 1e-12);
    c = ok1("(dash -1.5e1 -90)", SHM_CMD_DASH);
    cr_assert_float_eq(c->d[0], -15.0, 1e-12);
    cr_assert_float_eq(c->d[1], -90.0, 1e-12);
    c = ok1("(dash (l 50 10) (r 60 -20))", SHM_CMD_DASH);
    cr_assert_eq(c->i, 2);
    cr_assert_eq(c->flags, 3u);
    cr_assert_float_eq(c->d[0], 50.0, 1e-12);
    cr_assert_float_eq(c->d[1], 10.0, 1e-12);
    cr_assert_float_eq(c->d[2], 60.0, 1e-12);
    cr_assert_float_eq(c->d[3], -20.0, 1e-12);
    c = ok1("(dash (r 60 -20)(l 50 10))", SHM_CMD_DASH);
    cr_assert_eq(c->flags, 3u);
    cr_assert_float_eq(c->d[0], 50.0, 1e-12);
    cr_assert_float_eq(c->d[2], 60.0, 1e-12);
    c = ok1("(dash (right 70 5))", SHM_CMD_DASH);
    cr_assert_eq(c->i, 2);
    cr_assert_eq(c->flags, 2u);
    cr_assert_float_eq(c->d[2], 70.0, 1e-12);
    c = ok1("(dash (l 70 5))", SHM_CMD_DASH);
    cr_assert_eq(c->flags, 1u);
    bad("(dash)");
    bad("(dash 1 2 3)");
    bad("(dash abc)");
    bad("(dash (l 1 2) (l 3 4))");
    bad("(dash (x 1 2))");
    bad("(dash (l 1))");
    bad("(dash (l 1 2) (r 1 2) (l 1 2))");
    bad("(dash \"10\")");
}

/* the reference's number tokens: INT [+-]?[0-9]+, REAL [+-]?[0-9]*.[0-9]+ and either
 * with an exponent; anything else (1., 0x10, nan, inf, 10abc) is not a number */
Test(cmd, numbers, .timeout = 10)
{
    cr_assert_float_eq(ok1("(turn .5)", SHM_CMD_TURN)->d[0], 0.5, 1e-12);
    cr_assert_float_eq(ok1("(turn +3)", SHM_CMD_TURN)->d[0], 3.0, 1e-12);
    cr_assert_float_eq(ok1("(turn -2.5E1)", SHM_CMD_TURN)->d[0], -25.0, 1e-12);
    cr_assert_float_eq(ok1("(turn 1e2)", SHM_CMD_TURN)->d[0], 100.0, 1e-12);
    cr_assert_float_eq(ok1("(turn\t7\n)", SHM_CMD_TURN)->d[0], 7.0, 1e-12);
    bad("(turn 1.)");
    bad("(turn 0x10)");
    bad("(turn nan)");
    bad("(turn inf)");
    bad("(turn 10abc)");
    bad("(turn 1e)");
    bad("(turn +)");
    bad("(turn 10)\r");     /* \r is no blank for the reference */
}

Test(cmd, body_commands, .timeout = 10)
{
    cr_assert_float_eq(ok1("(turn 30)", SHM_CMD_TURN)->d[0], 30.0, 1e-12);
    cr_assert_float_eq(ok1("(turn_neck -45.5)", SHM_CMD_TURN_NECK)->d[0], -45.5, 1e-12);
    const shm_cmd_sh_t *c = ok1("(kick 100 -30)", SHM_CMD_KICK);
    cr_assert_float_eq(c->d[0], 100.0, 1e-12);
    cr_assert_float_eq(c->d[1], -30.0, 1e-12);
    cr_assert_float_eq(ok1("(catch 45)", SHM_CMD_CATCH)->d[0], 45.0, 1e-12);
    c = ok1("(move -10 5.5)", SHM_CMD_MOVE);
    cr_assert_float_eq(c->d[0], -10.0, 1e-12);
    cr_assert_float_eq(c->d[1], 5.5, 1e-12);
    /* the reference's grammar has no (move (X Y)) form: it answers illegal_command_form */
    bad("(move (-20 3))");
    bad("(turn)");
    bad("(kick 10)");
    bad("(move 1)");
    bad("(catch)");
}

Test(cmd, tackle, .timeout = 10)
{
    const shm_cmd_sh_t *c = ok1("(tackle 30)", SHM_CMD_TACKLE);
    cr_assert_eq(c->i, 0);
    cr_assert_float_eq(c->d[0], 30.0, 1e-12);
    cr_assert_eq(ok1("(tackle -10 on)", SHM_CMD_TACKLE)->i, 1);
    cr_assert_eq(ok1("(tackle 0 true)", SHM_CMD_TACKLE)->i, 1);
    cr_assert_eq(ok1("(tackle 0 off)", SHM_CMD_TACKLE)->i, 0);
    cr_assert_eq(ok1("(tackle 0 false)", SHM_CMD_TACKLE)->i, 0);
    bad("(tackle 0 maybe)");
    bad("(tackle)");
}

Test(cmd, say, .timeout = 10)
{
    const shm_cmd_sh_t *c = ok1("(say \"hello (1).+-*/?<>_ X\")", SHM_CMD_SAY);
    cr_assert_str_eq(c->text, "hello (1).+-*/?<>_ X");
    cr_assert_eq(c->len, strlen("hello (1).+-*/?<>_ X"));
    cr_assert_str_eq(ok1("(say abc123)", SHM_CMD_SAY)->text, "abc123");
    /* the unquoted form runs to the last ')' of its run of say characters: the rest of
     * the datagram is the message (the reference then drops it as too long) */
    cr_assert_str_eq(ok1("(say hi)(turn 10)", SHM_CMD_SAY)->text, "hi)(turn 10");
    /* a newline ends the run */
    parse("(say hi)\n(turn 10)");
    cr_assert_eq(out.n, 2);
    cr_assert_str_eq(out.item[0].cmd.text, "hi");
    cr_assert_eq(out.item[1].cmd.kind, SHM_CMD_TURN);
    bad("(say \"bad!\")");
    bad("(say \"a,b\")");
    bad("(say \"\")");
    bad("(say)");
    bad("(say \"unterminated)");
    /* a long message is carried (cut to the record) and dropped by the sim */
    char big[400];
    strcpy(big, "(say \"");
    memset(big + 6, 'a', 300);
    strcpy(big + 306, "\")");
    c = ok1(big, SHM_CMD_SAY);
    cr_assert_eq(c->len, SHM_CMD_TEXT_LEN - 1);
    cr_assert_eq(c->text[SHM_CMD_TEXT_LEN - 1], '\0');
}

Test(cmd, pointto_attentionto_focus, .timeout = 10)
{
    const shm_cmd_sh_t *c = ok1("(pointto 10 -20)", SHM_CMD_POINTTO);
    cr_assert_eq(c->i, 0);
    cr_assert_float_eq(c->d[0], 10.0, 1e-12);
    cr_assert_float_eq(c->d[1], -20.0, 1e-12);
    cr_assert_eq(ok1("(pointto off)", SHM_CMD_POINTTO)->i, 1);
    bad("(pointto on)");
    c = ok1("(change_focus 2.5 -10)", SHM_CMD_CHANGE_FOCUS);
    cr_assert_float_eq(c->d[0], 2.5, 1e-12);
    cr_assert_float_eq(c->d[1], -10.0, 1e-12);
    bad("(change_focus 1)");

    cr_assert_eq(ok1("(attentionto off)", SHM_CMD_ATTENTIONTO)->i, 0);
    static const struct { const char *s; int side; } at[] = {
        { "(attentionto our 7)", SHM_SIDE_LEFT }, { "(attentionto opp 7)", SHM_SIDE_RIGHT },
        { "(attentionto l 7)", SHM_SIDE_LEFT },   { "(attentionto left 7)", SHM_SIDE_LEFT },
        { "(attentionto r 7)", SHM_SIDE_RIGHT },  { "(attentionto right 7)", SHM_SIDE_RIGHT },
        { "(attentionto Alpha 7)", SHM_SIDE_LEFT }, { "(attentionto Beta 7)", SHM_SIDE_RIGHT },
    };
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        c = ok1(at[i].s, SHM_CMD_ATTENTIONTO);
        cr_assert_eq(c->i, at[i].side, "%s", at[i].s);
        cr_assert_eq(c->flags, 7u, "%s", at[i].s);
    }
    /* the same words from the right side */
    parse_right("(attentionto our 3)(attentionto opp 4)(attentionto Alpha 5)(attentionto l 6)");
    cr_assert_eq(out.n, 4);
    cr_assert_eq(out.item[0].cmd.i, SHM_SIDE_RIGHT);
    cr_assert_eq(out.item[1].cmd.i, SHM_SIDE_LEFT);
    cr_assert_eq(out.item[2].cmd.i, SHM_SIDE_LEFT);
    cr_assert_eq(out.item[3].cmd.i, SHM_SIDE_LEFT);
    /* unknown team or unum out of range: ignored, no error */
    parse("(attentionto Gamma 7)(attentionto our 12)(attentionto our 0)");
    cr_assert_eq(out.n, 0);
    cr_assert_eq(out.error, 0);
    bad("(attentionto our)");
    bad("(attentionto our x)");
    bad("(attentionto our 3.5)");
}

Test(cmd, change_view, .timeout = 10)
{
    const proto_item_t *it = gw1("(change_view wide low)", PROTO_IT_CHANGE_VIEW);
    cr_assert_eq(it->a, SHM_VIEW_WIDE);
    cr_assert_eq(it->b, 0);
    cr_assert_eq(it->c, 0);
    it = gw1("(change_view narrow high)", PROTO_IT_CHANGE_VIEW);
    cr_assert_eq(it->a, SHM_VIEW_NARROW);
    cr_assert_eq(it->b, 1);
    it = gw1("(change_view normal)", PROTO_IT_CHANGE_VIEW);
    cr_assert_eq(it->a, SHM_VIEW_NORMAL);
    cr_assert_eq(it->b, 1);
    cr_assert_eq(it->c, 1, "the one-argument form");
    bad("(change_view huge)");
    bad("(change_view wide medium)");
    bad("(change_view)");
    bad("(change_view low wide)");
}

Test(cmd, gateway_items, .timeout = 10)
{
    parse("(sense_body)(score)(done)(synch_see)(gaussian_see)");
    cr_assert_eq(out.n, 5);
    cr_assert_eq(out.item[0].kind, PROTO_IT_SENSE_BODY);
    cr_assert_eq(out.item[1].kind, PROTO_IT_SCORE);
    cr_assert_eq(out.item[2].kind, PROTO_IT_DONE);
    cr_assert_eq(out.item[3].kind, PROTO_IT_SYNCH_SEE);
    cr_assert_eq(out.item[4].kind, PROTO_IT_GAUSSIAN_SEE);
    cr_assert_eq(gw1("(compression 5)", PROTO_IT_COMPRESSION)->a, 5);
    cr_assert_eq(gw1("(compression 0)", PROTO_IT_COMPRESSION)->a, 0);
    cr_assert_eq(gw1("(compression -4)", PROTO_IT_COMPRESSION)->a, -1, "negative: off");
    parse("(compression 10)");      /* above 9: ignored without a reply */
    cr_assert_eq(out.n, 0);
    cr_assert_eq(out.error, 0);
    bad("(compression x)");
    bad("(compression 1.5)");
    const proto_item_t *it = gw1("(clang (ver 7 8))", PROTO_IT_CLANG);
    cr_assert_eq(it->a, 7);
    cr_assert_eq(it->b, 8);
    bad("(clang (ver 7))");
    bad("(clang 7 8)");
    parse("(long_kick 100 20)");
    cr_assert_eq(out.n, 0);
    cr_assert_eq(out.error, 0);
    bad("(long_kick)");
    bad("(score 1)");
    parse("(bye)(dash 10)");   /* the gateway stops at the bye */
    cr_assert_eq(out.item[0].kind, PROTO_IT_BYE);
}

/* ear items: b teams (bit0 own, bit1 opponents), c modes (bit0 complete, bit1 partial) */
static void ear(const char *s, int on, int teams, int modes)
{
    const proto_item_t *it = gw1(s, PROTO_IT_EAR);
    cr_assert_eq(it->a, on, "%s", s);
    cr_assert_eq(it->b, teams, "%s", s);
    cr_assert_eq(it->c, modes, "%s", s);
}

Test(cmd, ear, .timeout = 10)
{
    ear("(ear (off))", 0, 3, 3);
    ear("(ear (on our partial))", 1, 1, 2);
    ear("(ear (off opp c))", 0, 2, 1);
    ear("(ear (on Beta))", 1, 2, 3);
    ear("(ear (on Alpha complete))", 1, 1, 1);
    ear("(ear (on left p))", 1, 1, 2);
    ear("(ear (on p))", 1, 3, 2);
    parse_right("(ear (on left complete))");
    cr_assert_eq(out.item[0].b, 2);
    parse("(ear (on Gamma))");
    cr_assert_eq(out.n, 1);
    cr_assert_eq(out.error, 0);
    cr_assert_str_eq(out.item[0].reply, "(error no team with name Gamma)");
    parse("(ear (on Gamma p))");
    cr_assert_str_eq(out.item[0].reply, "(error no team with name Gamma)");
    bad("(ear on)");
    bad("(ear (maybe))");
    bad("(ear (on our complete extra))");
    bad("(ear (on our sometimes))");
}

Test(cmd, multi_command_datagrams, .timeout = 10)
{
    parse("(turn 10)(dash 50) (say \"hi\")\n(turn_neck 5)");
    cr_assert_eq(out.n, 4);
    cr_assert_eq(out.item[0].cmd.kind, SHM_CMD_TURN);
    cr_assert_eq(out.item[1].cmd.kind, SHM_CMD_DASH);
    cr_assert_eq(out.item[2].cmd.kind, SHM_CMD_SAY);
    cr_assert_eq(out.item[3].cmd.kind, SHM_CMD_TURN_NECK);
    cr_assert_eq(out.error, 0);
    /* gateway items keep their place among the records */
    parse("(turn 1)(sense_body)(dash 2)(compression 3)(kick 1 2)");
    cr_assert_eq(out.n, 5);
    cr_assert_eq(out.item[1].kind, PROTO_IT_SENSE_BODY);
    cr_assert_eq(out.item[3].kind, PROTO_IT_COMPRESSION);
    /* a NUL ends the datagram: what follows is ignored */
    const char nul[] = "(dash 10)\0(turn 20)";
    proto_parse_player(nul, sizeof nul, 19.0, SHM_SIDE_LEFT, "Alpha", "Beta", &out);
    cr_assert_eq(out.n, 1);
    cr_assert_eq(out.error, 0);
    /* len bounds the parse, not a NUL */
    proto_parse_player("(dash 10)(turn 20)", 9, 19.0, SHM_SIDE_LEFT, "A", "B", &out);
    cr_assert_eq(out.n, 1);
    cr_assert_eq(out.error, 0);
}

Test(cmd, error_stops_parse, .timeout = 10)
{
    parse("(turn 10)(fly 3)(dash 50)");
    cr_assert_eq(out.n, 2);
    cr_assert_eq(out.item[0].cmd.kind, SHM_CMD_TURN);
    cr_assert_str_eq(out.item[1].reply, "(error illegal_command_form)");
    parse("(synch_see)(dash)(turn 1)");
    cr_assert_eq(out.n, 2);
    cr_assert_eq(out.item[0].kind, PROTO_IT_SYNCH_SEE);
    parse("(dash 10) junk");
    cr_assert_eq(count_kind(PROTO_IT_CMD), 1);
    cr_assert_eq(out.error, 1);
    parse("(dash 10))");
    cr_assert_eq(count_kind(PROTO_IT_CMD), 1);
    cr_assert_eq(out.error, 1);
    /* an empty datagram is refused too: the grammar needs a command */
    bad("");
    bad("   ");
    bad("((dash 10))");
    bad("()");
    bad("(DASH 10)");
    bad("(\"dash\" 10)");
    bad("dash 10");
    bad("(dash 10");
}

Test(cmd, limits, .timeout = 10)
{
    static char s[16384];
    s[0] = '\0';
    for (int i = 0; i < PROTO_MAX_ITEMS + 5; i++)
        strcat(s, "(turn 1)");
    parse(s);
    cr_assert_eq(out.n, PROTO_MAX_ITEMS);
    cr_assert_eq(out.dropped, 5);
    cr_assert_eq(out.error, 0);
    /* an error after the limit still gets its reply */
    strcat(s, "(x)");
    parse(s);
    cr_assert_eq(out.n, PROTO_MAX_ITEMS);
    cr_assert_str_eq(out.item[PROTO_MAX_ITEMS - 1].reply, "(error illegal_command_form)");
}

Test(cmd, hostile_input_never_crashes, .timeout = 10)
{
    static const char *const cases[] = {
        "(", ")", "((((((((((((((((((((((((((((((((((((((((((((((",
        "))))))", "\"", "(say \"", "(dash (l (l (l (l 1))))", "(ear (on (our)))",
        "(clang (ver (1) 2))", "(attentionto (our) 1)", "(move ((1 2)))",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        bad(cases[i]);
    /* binary bytes */
    unsigned char bin[512];
    for (size_t i = 0; i < sizeof bin; i++)
        bin[i] = (unsigned char)(i * 37 + 11);
    proto_parse_player((const char *)bin, sizeof bin, 19.0, SHM_SIDE_LEFT, "A", "B", &out);
    cr_assert_leq(out.n, PROTO_MAX_ITEMS);
    /* a huge number and a huge word */
    static char big[9000];
    memset(big, 0, sizeof big);
    strcpy(big, "(turn ");
    memset(big + 6, '9', 8000);
    strcat(big, ")");
    ok1(big, SHM_CMD_TURN);
    memset(big + 6, 'w', 8000);
    bad(big);
    /* NULL team names and text */
    proto_parse_player("(attentionto Alpha 3)", 21, 19.0, SHM_SIDE_LEFT, NULL, NULL, &out);
    cr_assert_eq(out.n, 0);
    proto_parse_player(NULL, 10, 19.0, SHM_SIDE_LEFT, NULL, NULL, &out);
    cr_assert_eq(out.n, 0);
}
