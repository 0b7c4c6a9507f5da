/* test_cf_scn.c -- the scenario parser: statements, loops, rules, errors. */
#include <criterion/criterion.h>
#include <string.h>

#include "cf_scn.h"

static int parse(cf_scn_t *s, const char *text, char *err)
{
    return cf_scn_parse(s, "t", text, err, CF_ERR_LEN);
}

Test(cf_scn, declarations_and_steps)
{
    cf_scn_t s;
    char err[CF_ERR_LEN];
    cr_assert_eq(parse(&s, "# a comment\n"
                           "desc two players\n"
                           "opt server::synch_mode=true server::coach=true\n"
                           "ours server::random_seed=3\n"
                           "client T trainer\n"
                           "client P player sync\n"
                           "send P (init A (version 19))\n"
                           "  wait P ^\\(init l 1\n"
                           "step 3\n"
                           "sleep 20\n"
                           "stall 5 60 2000\n"
                           "zlib P 6\n"
                           "sync T on\n"
                           "close P\n"
                           "logs\n",
                       err), 0, "%s", err);
    cr_assert_str_eq(s.desc, "two players");
    cr_assert_eq(s.nopt_both, 2);
    cr_assert_str_eq(s.opt_both[1], "server::coach=true");
    cr_assert_eq(s.nopt_ours, 1);
    cr_assert_eq(s.nclient, 2);
    cr_assert_eq(s.client[0].kind, CF_KIND_TRAINER);
    cr_assert_eq(s.client[1].sync, 1);
    cr_assert_eq(s.nstep, 8);
    cr_assert_eq(s.step[0].op, CF_OP_SEND);
    cr_assert_str_eq(s.step[0].text, "(init A (version 19))");
    cr_assert_eq(s.step[1].op, CF_OP_WAIT);
    cr_assert_str_eq(s.step[1].text, "^\\(init l 1");
    cr_assert_eq(s.step[1].ms, 3000);
    cr_assert_eq(s.step[2].n, 3);
    cr_assert_eq(s.step[4].op, CF_OP_STALL);
    cr_assert_eq(s.step[4].gap, 2000);
    cr_assert_eq(s.step[5].n, 6);
    cr_assert_eq(s.step[6].n, 1);
    cr_assert_eq(s.logs, 1);
    cf_scn_free(&s);
}

Test(cf_scn, loops_unroll_and_substitute)
{
    cf_scn_t s;
    char err[CF_ERR_LEN];
    cr_assert_eq(parse(&s, "for V 1 3\n"
                           "client P$V player\n"
                           "end\n"
                           "for V 1 3\n"
                           "  for K 1 2\n"
                           "    send P$V (turn ${K}0 ${V*2-1})\n"
                           "  end\n"
                           "end\n"
                           "wait P2 \\)$\n",
                       err), 0, "%s", err);
    cr_assert_eq(s.nclient, 3);
    cr_assert_str_eq(s.client[2].name, "P3");
    cr_assert_eq(s.nstep, 7);
    cr_assert_str_eq(s.step[3].text, "(turn 20 3)");
    cr_assert_eq(s.step[3].client, 1);
    cr_assert_str_eq(s.step[6].text, "\\)$");
    cf_scn_free(&s);
}

Test(cf_scn, rules)
{
    cf_scn_t s;
    char err[CF_ERR_LEN];
    cr_assert_eq(parse(&s, "client P player\n"
                           "drop P ^\\(sense_body\n"
                           "notime P\n"
                           "timing P\n"
                           "ignore stdout\n",
                       err), 0, "%s", err);
    const cf_rule_t *r[8];
    cr_assert_eq(cf_scn_rules(&s, "P", r, 8), 3);
    cr_assert_eq(r[0]->kind, CF_RULE_DROP);
    cr_assert_str_eq(r[0]->re, "^\\(sense_body");
    cr_assert(cf_scn_has_rule(&s, "P", CF_RULE_TIMING));
    cr_assert(cf_scn_has_rule(&s, "stdout", CF_RULE_IGNORE));
    cr_assert_not(cf_scn_has_rule(&s, "P", CF_RULE_SQUASH));
    cf_scn_free(&s);
}

Test(cf_scn, sleepto_counts_from_the_last_waitafter)
{
    cf_scn_t s;
    char err[CF_ERR_LEN];
    cr_assert_eq(parse(&s, "client G player\n"
                           "waitafter G 4 ^\\(see\n"
                           "sleepto 5\n"
                           "sleepto 250\n",
                       err), 0, "%s", err);
    cr_assert_eq(s.nstep, 3);
    cr_expect_eq(s.step[0].op, CF_OP_WAIT);
    cr_expect_eq(s.step[0].n, 4);
    cr_expect_eq(s.step[1].op, CF_OP_SLEEPTO);
    cr_expect_eq(s.step[1].ms, 5);
    cr_expect_eq(s.step[2].ms, 250);
    cf_scn_free(&s);
}

Test(cf_scn, errors_name_the_line)
{
    static const struct {
        const char *text, *msg;
    } bad[] = {
        { "client P player\nsend Q (dash 10)\n", "line 2: send: unknown client 'Q'" },
        { "client P robot\n", "line 1: unknown client kind 'robot'" },
        { "client P player\nwait P (\n", "line 2: bad pattern" },
        { "for V 1 2\nclient P$V player\n", "line 1: for without end" },
        { "end\n", "line 1: end without for" },
        { "client P$X player\n", "line 1: unknown variable $X" },
        { "for V 1 2\nclient P${V+} player\nend\n", "line 2: number expected after '+'" },
        { "for V 1 2\nclient P${V player\nend\n", "line 2: unterminated ${" },
        { "stall 5 60\n", "line 1: stall COUNT MS GAP_MS" },
        { "client P player\nclient P coach\n", "line 2: client name 'P'" },
        { "frobnicate\n", "line 1: unknown statement 'frobnicate'" },
        { "drop Q x\n", "line 1: unknown stream 'Q'" },
        { "client P player\nzlib P 12\n", "line 2: zlib: level -1..9" },
        { "client P player\nwait P x\nsleepto 5\n", "line 3: sleepto: no waitafter" },
        { "client P player\nwaitafter P 4 x\nsleepto\n", "line 3: sleepto: milliseconds" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cf_scn_t s;
        char err[CF_ERR_LEN] = "";
        cr_assert_eq(parse(&s, bad[i].text, err), -1, "%s", bad[i].text);
        cr_assert(strncmp(err, bad[i].msg, strlen(bad[i].msg)) == 0, "%s: got '%s'",
                  bad[i].text, err);
    }
}
