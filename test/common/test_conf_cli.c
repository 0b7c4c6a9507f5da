/* test_conf_cli.c -- --config FILE, --print-config and the effective configuration
 * written in the files' syntax: options taken out of argv, --config files replacing the
 * default ones ($RCSS_CONF_DIR is not read), and a printed configuration that reads back
 * to the same values bit for bit. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "conf_cli.h"

static char err[CONF_HELP_LEN];

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

Test(conf_cli, options_leave_argv)
{
    char *argv[] = { "rcssserver", "server::half_time=10", "--config", "a.conf",
                     "--print-config", "-config=b.conf", "server::coach=on", NULL };
    conf_cli_t cli;
    cr_assert_eq(conf_cli_split(7, argv, &cli, err, sizeof err), 0, "%s", err);
    cr_expect_eq(cli.nfiles, 2);
    cr_expect_str_eq(cli.files[0], "a.conf");
    cr_expect_str_eq(cli.files[1], "b.conf");
    cr_expect_eq(cli.print, 1);
    cr_assert_eq(cli.argc, 3);
    cr_expect_str_eq(cli.argv[1], "server::half_time=10");
    cr_expect_str_eq(cli.argv[2], "server::coach=on");
    cr_expect_null(cli.argv[3]);
    conf_cli_free(&cli);
}

Test(conf_cli, config_without_file_is_an_error)
{
    char *argv[] = { "rcssserver", "--config", NULL };
    conf_cli_t cli;
    cr_expect_eq(conf_cli_split(2, argv, &cli, err, sizeof err), -1);
    cr_expect(strstr(err, "--config needs a file name"), "%s", err);
    conf_cli_free(&cli);
}

/* with --config the default directory is not read: a broken server.conf there would
 * otherwise stop the start */
Test(conf_cli, config_file_replaces_default_files)
{
    char dir[128], path[256], bad[256];
    snprintf(dir, sizeof dir, "/tmp/rcss-conf-cli-%d-XXXXXX", (int)getpid());
    cr_assert_not_null(mkdtemp(dir));
    snprintf(bad, sizeof bad, "%s/server.conf", dir);
    write_file(bad, "server::no_such_parameter = 1\n");
    snprintf(path, sizeof path, "%s/match.conf", dir);
    write_file(path, "server::half_time = 42\nserver::synch_mode = true\n");
    setenv("RCSS_CONF_DIR", dir, 1);
    char *argv[] = { "rcssserver", "--config", path, "server::half_time=43", NULL };
    conf_cli_t cli;
    conf_t *c = malloc(sizeof *c);
    cr_assert_eq(conf_cli_split(4, argv, &cli, err, sizeof err), 0);
    cr_assert_eq(conf_cli_load(c, &cli, err, sizeof err), 0, "%s", err);
    cr_expect_eq(conf_int(c, SP_half_time), 43, "the command line comes last");
    cr_expect(conf_bool(c, SP_synch_mode));
    /* without --config the default directory is read (and its error reported) */
    char *argv2[] = { "rcssserver", NULL };
    conf_cli_t cli2;
    cr_assert_eq(conf_cli_split(1, argv2, &cli2, err, sizeof err), 0);
    cr_expect_eq(conf_cli_load(c, &cli2, err, sizeof err), -1);
    cr_expect(strstr(err, "no_such_parameter"), "%s", err);
    /* a missing --config file is an error, not silently skipped */
    char *argv3[] = { "rcssserver", "--config=/nonexistent/x.conf", NULL };
    conf_cli_t cli3;
    cr_assert_eq(conf_cli_split(2, argv3, &cli3, err, sizeof err), 0);
    cr_expect_eq(conf_cli_load(c, &cli3, err, sizeof err), -1);
    cr_expect(strstr(err, "/nonexistent/x.conf"), "%s", err);
    conf_cli_free(&cli);
    conf_cli_free(&cli2);
    conf_cli_free(&cli3);
    unlink(bad);
    unlink(path);
    rmdir(dir);
    free(c);
}

Test(conf_cli, line_forms)
{
    conf_t *c = malloc(sizeof *c);
    char line[600];
    conf_defaults(c);
    conf_cli_line(c, SP_half_time, line, sizeof line);
    cr_expect_str_eq(line, "server::half_time = 300");
    conf_cli_line(c, SP_synch_mode, line, sizeof line);
    cr_expect_str_eq(line, "server::synch_mode = false");
    conf_cli_line(c, SP_ball_decay, line, sizeof line);
    cr_expect_str_eq(line, "server::ball_decay = 0.94");
    conf_cli_line(c, SP_ball_speed_max, line, sizeof line);
    cr_expect_str_eq(line, "server::ball_speed_max = 3.0");
    conf_cli_line(c, SP_log_date_format, line, sizeof line);
    cr_expect_str_eq(line, "server::log_date_format = \"%Y%m%d%H%M%S-\"");
    cr_assert_eq(conf_set(c, "server", "team_l_start", "'say \"hi\"'", err, sizeof err), 0, "%s", err);
    conf_cli_line(c, SP_team_l_start, line, sizeof line);
    cr_expect_str_eq(line, "server::team_l_start = 'say \"hi\"'");
    free(c);
}

/* every value, odd reals included, survives print -> parse exactly */
Test(conf_cli, printed_configuration_reads_back)
{
    conf_t *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    conf_defaults(a);
    const char *set =
        "server::ball_decay = 0.123456789012345 server::kick_rand = 1e-17 "
        "server::inertia_moment = 1234567.25 server::team_r_start = 'x \"y\" z' "
        "server::game_log_dir = '/tmp/a b' player::player_types = 7 server::coach = on";
    cr_assert_eq(conf_parse_text(a, set, "command line", NULL, err, sizeof err, NULL, 0), 0,
                 "%s", err);
    char path[128];
    snprintf(path, sizeof path, "/tmp/rcss-conf-cli-print-%d.conf", (int)getpid());
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    cr_assert_eq(conf_cli_print(a, f), 0);
    fclose(f);
    conf_defaults(b);
    b->num[SP_ball_decay] = 0.5; /* not the value printed: the file must set it */
    cr_assert_eq(conf_parse_file(b, path, 0, err, sizeof err), 0, "%s", err);
    for (int i = 0; i < PARAM_COUNT; i++) {
        cr_expect(memcmp(&a->num[i], &b->num[i], sizeof a->num[i]) == 0, "%s: %.17g / %.17g",
                  param_defs[i].name, a->num[i], b->num[i]);
        cr_expect_str_eq(a->str[i], b->str[i], "%s", param_defs[i].name);
    }
    unlink(path);
    free(a);
    free(b);
}
