/* test_init.c -- proto_parse_init: (init ...) and (reconnect ...) scanned as the
 * reference scans them (docs/protocol/player.md §2; each case checked against rcssserver 19
 * by hand) and every error reply the scan itself decides. */
#include <criterion/criterion.h>
#include <string.h>
#include "netgw_proto.h"

static proto_init_t in;
static char err[128];

static int parse(const char *s)
{
    return proto_parse_init(s, strlen(s), &in, err, sizeof err);
}

static void refused(const char *s, const char *want)
{
    cr_assert_eq(parse(s), -1, "%s accepted", s);
    cr_assert_str_eq(err, want, "%s", s);
}

Test(init, plain_and_options, .timeout = 10)
{
    cr_assert_eq(parse("(init Alpha)"), 0);
    cr_assert_str_eq(in.team, "Alpha");
    cr_assert_float_eq(in.version, 3.0, 1e-12);
    cr_assert_eq(in.goalie, 0);
    cr_assert_eq(in.reconnect, 0);
    cr_assert_eq(parse("(init Alpha (version 19))"), 0);
    cr_assert_float_eq(in.version, 19.0, 1e-12);
    cr_assert_eq(parse("(init Alpha (version 9.1) (goalie))"), 0);
    cr_assert_float_eq(in.version, 9.1, 1e-12);
    cr_assert_eq(in.goalie, 1);
    cr_assert_eq(parse("(init my-team_+9 (goalie)(version 18))"), 0);
    cr_assert_str_eq(in.team, "my-team_+9");
    cr_assert_eq(in.goalie, 1);
    cr_assert_float_eq(in.version, 18.0, 1e-12);
    cr_assert_eq(parse("(init Alpha (version  1e1 ) )"), 0);
    cr_assert_float_eq(in.version, 10.0, 1e-12);
    refused("(init Alpha ( version 9))", "(error illegal_command_form)"); /* "(version " */
    /* after the options' closing ')' nothing is looked at */
    cr_assert_eq(parse("(init Alpha (version 9)) junk"), 0);
    /* between the name and the first '(' everything is skipped */
    cr_assert_eq(parse("(init Alpha ) (version 7))"), 0);
    cr_assert_float_eq(in.version, 7.0, 1e-12);
}

Test(init, versions_are_left_to_the_caller, .timeout = 10)
{
    /* the reference names the team before it refuses the version */
    cr_assert_eq(parse("(init Alpha (version 25))"), 0);
    cr_assert_float_eq(in.version, 25.0, 1e-12);
    cr_assert_eq(proto_version_ok(25.0), 0);
    cr_assert_eq(proto_version_ok(0.5), 0);
    cr_assert_eq(proto_version_ok(-3.0), 0);
    cr_assert_eq(proto_version_ok(20.0), 0);
    cr_assert_eq(proto_version_ok(1.0), 1);
    cr_assert_eq(proto_version_ok(19.99), 1);
}

Test(init, trailing_nul_newline, .timeout = 10)
{
    const char s[] = "(init Alpha (version 14))\n";
    cr_assert_eq(proto_parse_init(s, sizeof s, &in, err, sizeof err), 0);
    cr_assert_float_eq(in.version, 14.0, 1e-12);
}

Test(init, team_names, .timeout = 10)
{
    cr_assert_eq(parse("(init abcdefghijklmno)"), 0);          /* 15 */
    cr_assert_str_eq(in.team, "abcdefghijklmno");
    refused("(init abcdefghijklmnop)", "(error illegal_teamname_or_too_long_teamname)");
    /* characters the reference's scanf range would let through: refused here */
    refused("(init a.b)", "(error illegal_teamname_or_too_long_teamname)");
    refused("(init a,b)", "(error illegal_teamname_or_too_long_teamname)");
    refused("(init a@b)", "(error illegal_teamname_or_too_long_teamname)");
    /* the name must be followed by '(' or ')' (after blanks) */
    refused("(init Alpha extra)", "(error illegal_teamname_or_too_long_teamname)");
    refused("(init Alpha", "(error illegal_teamname_or_too_long_teamname)");
    refused("(init \"Alpha\")", "(error illegal_teamname)");
    refused("(init (version 9))", "(error illegal_teamname)");
    refused("(init ", "(error illegal_teamname)");
}

Test(init, bad_options, .timeout = 10)
{
    refused("(init Alpha (version))", "(error illegal_command_form)");
    refused("(init Alpha (version x))", "(error illegal_command_form)");
    refused("(init Alpha (goalie 1))", "(error illegal_command_form)");
    refused("(init Alpha (coach))", "(error illegal_command_form)");
    refused("(init Alpha (version 9)x)", "(error illegal_command_form)");
    refused("(init Alpha (version 9)", "(error illegal_command_form)");
    refused("(init Alpha (goalie)", "(error illegal_command_form)");
}

Test(init, reconnect, .timeout = 10)
{
    cr_assert_eq(parse("(reconnect Alpha 7)"), 0);
    cr_assert_eq(in.reconnect, 1);
    cr_assert_eq(in.unum, 7);
    cr_assert_str_eq(in.team, "Alpha");
    cr_assert_eq(in.form_error, 0);
    /* out-of-range numbers are left to the lookup (no_such_team_or_player) */
    cr_assert_eq(parse("(reconnect Alpha 12)"), 0);
    cr_assert_eq(in.unum, 12);
    /* no number: the form error, and the lookup still happens */
    cr_assert_eq(parse("(reconnect Alpha)"), 0);
    cr_assert_eq(in.form_error, 1);
    cr_assert_eq(parse("(reconnect Alpha x)"), 0);
    cr_assert_eq(in.form_error, 1);
    /* the name is every non-blank character */
    cr_assert_eq(parse("(reconnect a.b 3)"), 0);
    cr_assert_str_eq(in.team, "a.b");
    cr_assert_eq(parse("(reconnect abcdefghijklmnopq 3)"), 0);
    cr_assert_eq(in.team_too_long, 1);
}

Test(init, unknown_and_garbage, .timeout = 10)
{
    refused("(dash 10)", "(error unknown_command)");
    refused("hello", "(error unknown_command)");
    refused("", "(error unknown_command)");
    refused(")", "(error unknown_command)");
    refused("(init)", "(error unknown_command)");      /* "(init " with its blank */
    refused("(reconnect)", "(error unknown_command)");
    unsigned char bin[256];
    for (size_t i = 0; i < sizeof bin; i++)
        bin[i] = (unsigned char)(255 - i);
    cr_assert_eq(proto_parse_init((const char *)bin, sizeof bin, &in, err, sizeof err), -1);
    cr_assert_eq(proto_parse_init(NULL, 0, &in, err, sizeof err), -1);
    cr_assert_eq(proto_parse_init("(init A)", 8, &in, NULL, 0), 0);
    /* a tiny error buffer is filled, cut, and NUL-terminated */
    char small[8];
    cr_assert_eq(proto_parse_init("(init a.b)", 10, &in, small, sizeof small), -1);
    cr_assert_eq(strlen(small), sizeof small - 1);
}

/* this server's reconnect token (server::reconnect_token): (token HEX) after the number,
 * exactly 32 hex digits; anything else is no token (the lookup then needs the address) */
Test(init, reconnect_token, .timeout = 10)
{
    static const uint8_t want[PROTO_TOKEN_LEN] = { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd,
                                                   0xef, 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54,
                                                   0x32, 0x10 };
    cr_assert_eq(parse("(reconnect Alpha 7 (token 0123456789abcdefFEDCBA9876543210))"), 0);
    cr_assert_eq(in.unum, 7);
    cr_assert_eq(in.has_token, 1);
    cr_assert_eq(memcmp(in.token, want, sizeof want), 0);
    char text[64];
    proto_token_format(want, text, sizeof text);
    cr_assert_str_eq(text, " (token 0123456789abcdeffedcba9876543210)");
    static const char *const bad[] = {
        "(reconnect Alpha 7)", "(reconnect Alpha 7 (token))",
        "(reconnect Alpha 7 (token 0123456789abcdef))",
        "(reconnect Alpha 7 (token 0123456789abcdefFEDCBA9876543210ff))",
        "(reconnect Alpha 7 (token 0123456789abcdefFEDCBA987654321g))",
        "(reconnect Alpha 7 (tokens 0123456789abcdefFEDCBA9876543210))",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert_eq(parse(bad[i]), 0, "%s", bad[i]);
        cr_expect_eq(in.has_token, 0, "%s", bad[i]);
        cr_expect_eq(in.unum, 7, "%s", bad[i]);
    }
}
