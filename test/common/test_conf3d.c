/* test_conf3d.c -- the 3D server's configuration (conf3d.c over conf.c's grammar):
 * defaults from the seed, the FIFA ranges, types, errors with origin and line, the
 * defaults file written once into $RCSS3D_CONF_DIR, the command line, help, and the
 * repository's conf/rcssserver3d.conf being exactly the defaults. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "conf3d.h"

static conf3d_t c;
static char err[CONF_HELP_LEN];

Test(conf3d, seed_defaults, .timeout = 10)
{
    conf3d_defaults(&c);
    cr_expect_eq(conf3d_real(&c, P3_FieldLength), 104);
    cr_expect_eq(conf3d_real(&c, P3_GoalWidth), 7.32);
    cr_expect_eq(conf3d_real(&c, P3_GoalHeight), 0.5);
    cr_expect_eq(conf3d_real(&c, P3_BallRadius), 0.111);
    cr_expect_eq(conf3d_real(&c, P3_Gravity), 9.81);
    cr_expect_eq(conf3d_real(&c, P3_StepLength), 0.01);
    cr_expect_eq(conf3d_int(&c, P3_MonitorInterval), 15);
    cr_expect_eq(conf3d_real(&c, P3_AgentRadius), 0.22);
    cr_expect_eq(conf3d_real(&c, P3_AgentMass), 75);
    cr_expect_eq(conf3d_int(&c, P3_KickSteps), 10);
    cr_expect_eq(conf3d_real(&c, P3_KickableMargin), 0.04);
    cr_expect_eq(conf3d_real(&c, P3_VisionDistSigma), 0.0965);
    cr_expect_eq(conf3d_int(&c, P3_agent_port), 3100);
    cr_expect_eq(conf3d_int(&c, P3_monitor_port), 12001);
    cr_expect_str_eq(conf3d_str(&c, P3_monitor_log), "Logfiles/monitor.log");
    cr_expect_eq(conf3d_check(&c, err, sizeof err), 0);
}

Test(conf3d, ranges_types_errors, .timeout = 10)
{
    conf3d_defaults(&c);
    cr_expect_eq(conf3d_parse_text(&c, "soccer::FieldLength = 110\nsoccer::FieldWidth=75", "f", err, sizeof err), 0, "%s", err);
    cr_expect_eq(conf3d_real(&c, P3_FieldWidth), 75);
    cr_expect_eq(conf3d_parse_text(&c, "# comment\nsoccer::FieldLength = 120", "a.conf", err, sizeof err), -1);
    cr_expect_str_eq(err, "a.conf:2: 'soccer::FieldLength' must be between 100 and 110, got '120'");
    cr_expect_eq(conf3d_parse_text(&c, "soccer::BallMass = 0.5", "a.conf", err, sizeof err), -1);
    cr_expect_eq(conf3d_parse_text(&c, "soccer::KickSteps = 2.5", "f", err, sizeof err), -1);
    cr_expect_str_eq(err, "f:1: 'soccer::KickSteps' (int) needs an int, got '2.5'");
    cr_expect_eq(conf3d_parse_text(&c, "server::synch_mode = maybe", "f", err, sizeof err), -1);
    cr_expect_eq(conf3d_parse_text(&c, "server::synch_mode = on", "f", err, sizeof err), 0);
    cr_expect(conf3d_bool(&c, P3_synch_mode));
    cr_expect_eq(conf3d_parse_text(&c, "soccer::Nothing = 1", "f", err, sizeof err), -1);
    cr_expect_str_eq(err, "f:1: 'soccer' has no parameter called 'Nothing'");
    cr_expect_eq(conf3d_parse_text(&c, "server::port = 1", "f", err, sizeof err), -1, "the 2D name");
    cr_expect_eq(conf3d_parse_text(&c, "player::x = 1", "f", err, sizeof err), -1);
    cr_expect_str_eq(err, "f:1: unknown module 'player'");
    cr_expect_eq(conf3d_parse_text(&c, "server::agent_list = 'my agents.list'", "f", err, sizeof err), 0);
    cr_expect_str_eq(conf3d_str(&c, P3_agent_list), "my agents.list");
    conf3d_defaults(&c);
    cr_expect_eq(conf3d_parse_text(&c, "server::monitor_port=3100", "f", err, sizeof err), 0);
    cr_expect_eq(conf3d_check(&c, err, sizeof err), -1);
    cr_expect_str_eq(err, "server::agent_port and server::monitor_port are both 3100");
    cr_expect_eq(conf3d_parse_text(&c, "soccer::help", "command line", err, sizeof err), 1);
    cr_expect(strstr(err, "soccer::KickPowerSigma = 0.4 (real)") != NULL);
    cr_expect_eq(conf3d_parse_text(&c, "--help", "command line", err, sizeof err), 1);
    cr_expect(strncmp(err, "usage: rcssserver3d", 19) == 0);
}

/* the first start writes the defaults into the configuration directory; the file then
 * overrides the defaults and the command line overrides the file */
Test(conf3d, load_writes_defaults_once, .timeout = 10)
{
    char dir[] = "/tmp/rcss3d-conf-XXXXXX", path[64], note[256];
    cr_assert(mkdtemp(dir));
    setenv("RCSS3D_CONF_DIR", dir, 1);
    snprintf(path, sizeof path, "%s/rcssserver3d.conf", dir);
    char *argv[] = { "rcssserver3d", "soccer::RuleHalfTime=60", NULL };
    cr_assert_eq(conf3d_load(&c, 2, argv, err, sizeof err, note, sizeof note), 0, "%s", err);
    cr_expect(strstr(note, "wrote the default configuration") != NULL);
    cr_expect_eq(conf3d_real(&c, P3_RuleHalfTime), 60);
    FILE *f = fopen(path, "a");
    cr_assert(f);
    fputs("soccer::RuleHalfTime = 120\nsoccer::FieldLength = 105\n", f);
    fclose(f);
    cr_assert_eq(conf3d_load(&c, 1, argv, err, sizeof err, note, sizeof note), 0, "%s", err);
    cr_expect_eq(note[0], '\0', "not written again");
    cr_expect_eq(conf3d_real(&c, P3_RuleHalfTime), 120);
    cr_expect_eq(conf3d_real(&c, P3_FieldLength), 105);
    cr_assert_eq(conf3d_load(&c, 2, argv, err, sizeof err, note, sizeof note), 0);
    cr_expect_eq(conf3d_real(&c, P3_RuleHalfTime), 60);
    char *bad[] = { "rcssserver3d", "soccer::FieldWidth=80", NULL };
    cr_expect_eq(conf3d_load(&c, 2, bad, err, sizeof err, note, sizeof note), -1);
    cr_expect_str_eq(err, "command line: 'soccer::FieldWidth' must be between 64 and 75, got '80'");
    unlink(path);
    rmdir(dir);
}

/* conf/rcssserver3d.conf in the tree is what the server writes as its defaults */
Test(conf3d, shipped_file_is_the_defaults, .timeout = 10)
{
    static char text[32768], file[32768];
    conf3d_defaults(&c);
    int n = conf3d_write(&c, text, sizeof text);
    FILE *f = fopen("conf/rcssserver3d.conf", "r");
    cr_assert(f, "run from the top of the tree");
    size_t m = fread(file, 1, sizeof file - 1, f);
    fclose(f);
    file[m] = '\0';
    cr_expect_eq((size_t)n, m);
    cr_expect_str_eq(file, text, "regenerate conf/rcssserver3d.conf from conf3d_write");
    conf3d_t d;
    conf3d_defaults(&d);
    cr_expect_eq(conf3d_parse_text(&d, file, "conf/rcssserver3d.conf", err, sizeof err), 0, "%s", err);
    cr_expect(memcmp(&c, &d, sizeof c) == 0, "reads back as the defaults");
}
