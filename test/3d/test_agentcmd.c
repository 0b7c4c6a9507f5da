/* test_agentcmd.c -- agent messages into command records (agw3d_cmd.c): the effectors
 * of docs/protocol/3d.md §2 with their examples, several per message, (syn), and errors for
 * everything else; a hostile name is never echoed. Also the agent list of pipe mode. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include "agw3d.h"

static shm3d_cmd_sh_t recs[16];
static int nrec, nsyn, nerr;
static char errs[8][160];

static void on_rec(void *ctx, const shm3d_cmd_sh_t *c)
{
    (void)ctx;
    if (nrec < 16)
        recs[nrec++] = *c;
}
static void on_err(void *ctx, const char *t)
{
    (void)ctx;
    if (nerr < 8)
        snprintf(errs[nerr], sizeof errs[0], "%s", t);
    nerr++;
}
static void on_syn(void *ctx)
{
    (void)ctx;
    nsyn++;
}

static int parse(const char *msg)
{
    agw3d_sink_t k = { on_rec, on_err, on_syn, NULL };
    nrec = nsyn = nerr = 0;
    return agw3d_cmd_parse(msg, strlen(msg), &k);
}

Test(agentcmd, the_seeds_examples, .timeout = 30)
{
    cr_expect_eq(parse("(create)"), 1);
    cr_expect_eq(recs[0].kind, SHM3D_CMD_CREATE);
    cr_expect_eq(parse("(init (unum 7) (teamname RoboLog))"), 1);
    cr_expect_eq(recs[0].kind, SHM3D_CMD_INIT);
    cr_expect_eq(recs[0].i, 7);
    cr_expect_eq(recs[0].len, 7);
    cr_expect(memcmp(recs[0].text, "RoboLog", 7) == 0);
    cr_expect_eq(parse("(beam  -6.6 0 0)"), 1);
    cr_expect(recs[0].kind == SHM3D_CMD_BEAM && recs[0].d[0] == -6.6 && recs[0].d[2] == 0);
    cr_expect_eq(parse("(drive 20.0 50.0 0.0)"), 1);
    cr_expect(recs[0].kind == SHM3D_CMD_DRIVE && recs[0].d[1] == 50.0);
    cr_expect_eq(parse("(kick 20.0 80.0)"), 1);
    cr_expect(recs[0].kind == SHM3D_CMD_KICK && recs[0].d[0] == 20.0 && recs[0].d[1] == 80.0);
    cr_expect_eq(nerr, 0);
}

Test(agentcmd, several_per_message_and_syn, .timeout = 30)
{
    cr_expect_eq(parse("(create)(init (teamname A))\n(drive 1 2 3) (syn)"), 4);
    cr_expect_eq(nrec, 3);
    cr_expect_eq(nsyn, 1);
    cr_expect_eq(recs[1].i, 0, "no unum: the next free");
    cr_expect_eq(parse("(create foo (bar))"), 1, "create ignores its parameters");
}

Test(agentcmd, errors, .timeout = 30)
{
    cr_expect_eq(parse("(drive 1 2)"), 0);
    cr_expect_str_eq(errs[0], "(error drive bad_arguments)");
    cr_expect_eq(parse("(kick a b)"), 0);
    cr_expect_str_eq(errs[0], "(error kick bad_arguments)");
    cr_expect_eq(parse("(init (unum 12) (teamname A))"), 0);
    cr_expect_str_eq(errs[0], "(error init bad_arguments)");
    cr_expect_eq(parse("(init (unum 1))"), 0);
    cr_expect_str_eq(errs[0], "(error init bad_arguments)");
    cr_expect_eq(parse("(dance 1)"), 0);
    cr_expect_str_eq(errs[0], "(error dance unknown_effector)");
    cr_expect_eq(parse("(\x01\x02(evil 1)"), 0);
    cr_expect_str_eq(errs[0], "(error parse illegal_sexp)");
    cr_expect_eq(parse("(a\"b 1)"), 0);
    cr_expect(strstr(errs[0], "\"") == NULL, "never echoed: %s", errs[0]);
    cr_expect_eq(parse("(drive 1 2 3) (kick 1"), 1, "what came before a broken end counts");
    cr_expect_eq(nerr, 1);
    cr_expect_eq(parse("just words"), 0);
    cr_expect_eq(nerr, 1);
    cr_expect_eq(parse("(beam nan 0 0)"), 0, "no nan or inf");
    cr_expect_eq(parse(""), 0);
    cr_expect_eq(nerr, 0, "an empty message is nothing");
}

Test(agentcmd, agent_list, .timeout = 30)
{
    static agw3d_cmdline_t l[4];
    char err[160];
    const char *text = "# a team\n\n  ./agent --team A   # the first\n"
                       "/usr/bin/agent '--team' \"Two Words\" x'y z'\r\n";
    cr_assert_eq(agw3d_list_parse(text, l, 4, err, sizeof err), 2, "%s", err);
    cr_expect_eq(l[0].argc, 3);
    cr_expect_str_eq(l[0].argv[0], "./agent");
    cr_expect_str_eq(l[0].argv[2], "A");
    cr_expect_eq(l[1].argc, 4);
    cr_expect_str_eq(l[1].argv[2], "Two Words");
    cr_expect_str_eq(l[1].argv[3], "xy z");
    cr_expect_eq(agw3d_list_parse("a 'b\n", l, 4, err, sizeof err), -1);
    cr_expect_str_eq(err, "line 1: unterminated quote");
    cr_expect_eq(agw3d_list_parse("a\nb\nc\nd\ne\n", l, 4, err, sizeof err), -1);
    cr_expect_str_eq(err, "line 5: more than 4 agents");
    cr_expect_eq(agw3d_list_parse("# nothing\n", l, 4, err, sizeof err), 0);
}
