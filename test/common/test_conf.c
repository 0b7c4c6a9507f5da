/* test_conf.c -- configuration grammar, coercions, includes, errors, help, conf_load and
 * the shipped files (conf/ and conf/presets/; tests run from the repo root). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "conf.h"

static conf_t *fresh(void)
{
    conf_t *c = malloc(sizeof *c);
    cr_assert_not_null(c);
    conf_defaults(c);
    return c;
}

static int parse(conf_t *c, const char *text, char *err)
{
    return conf_parse_text(c, text, "t.conf", NULL, err, CONF_ERR_LEN, NULL, 0);
}

/* a private temporary directory per test process */
static void tmpdir(char *dir, size_t len)
{
    snprintf(dir, len, "/tmp/rcss-conf-test-%d-XXXXXX", (int)getpid());
    cr_assert_not_null(mkdtemp(dir));
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

static void rm_tree(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

Test(conf, defaults)
{
    conf_t *c = fresh();
    cr_assert_eq(conf_int(c, SP_port), 6000);
    cr_assert_eq(conf_int(c, SP_half_time), 300);
    cr_assert_float_eq(conf_real(c, SP_stamina_max), 8000.0, 1e-9);
    cr_assert_float_eq(conf_real(c, SP_player_speed_max), 1.05, 1e-12);
    cr_assert_eq(conf_bool(c, SP_use_offside), 1);
    cr_assert_eq(conf_bool(c, SP_coach), 0);
    cr_assert_str_eq(conf_str(c, SP_log_date_format), "%Y%m%d%H%M%S-");
    cr_assert_str_eq(conf_str(c, SP_fixed_teamname_l), "");
    cr_assert_eq(conf_int(c, PP_player_types), 18);
    cr_assert_eq(conf_int(c, PP_random_seed), -1);
    free(c);
}

Test(conf, assignment_forms)
{
    conf_t *c = fresh();
    char err[CONF_ERR_LEN];
    cr_assert_eq(parse(c, "server::half_time = 100", err), 0, "%s", err);
    cr_assert_eq(conf_int(c, SP_half_time), 100);
    cr_assert_eq(parse(c, "server::half_time=101", err), 0, "%s", err);
    cr_assert_eq(conf_int(c, SP_half_time), 101);
    cr_assert_eq(parse(c, "-server::half_time=102", err), 0, "%s", err);
    cr_assert_eq(conf_int(c, SP_half_time), 102);
    cr_assert_eq(parse(c, "--server::half_time= 103", err), 0, "%s", err);
    cr_assert_eq(conf_int(c, SP_half_time), 103);
    cr_assert_eq(parse(c, "server::port =6100\n\n  player::subs_max\t=\t5 server::coach=on", err),
                 0, "%s", err);
    cr_assert_eq(conf_int(c, SP_port), 6100);
    cr_assert_eq(conf_int(c, PP_subs_max), 5);
    cr_assert_eq(conf_bool(c, SP_coach), 1);
    free(c);
}

Test(conf, value_kinds)
{
    conf_t *c = fresh();
    char err[CONF_ERR_LEN];
    const char *text =
        "server::coach = TRUE server::use_offside = Off server::synch_mode = 1\n"
        "server::wind_none = false server::verbose = On\n"
        "server::ball_decay = 0.5 server::goal_width = 20 server::minpower = -50\n"
        "server::kick_rand = 1e-2 server::ball_rand = .25\n"
        "server::game_log_dir = '/tmp/logs dir' server::text_log_dir = \"/x/y\"\n"
        "server::landmark_file = ./bare/word.xml\n";
    cr_assert_eq(parse(c, text, err), 0, "%s", err);
    cr_assert_eq(conf_bool(c, SP_coach), 1);
    cr_assert_eq(conf_bool(c, SP_use_offside), 0);
    cr_assert_eq(conf_bool(c, SP_synch_mode), 1);
    cr_assert_eq(conf_bool(c, SP_wind_none), 0);
    cr_assert_eq(conf_bool(c, SP_verbose), 1);
    cr_assert_float_eq(conf_real(c, SP_ball_decay), 0.5, 1e-12);
    cr_assert_float_eq(conf_real(c, SP_goal_width), 20.0, 1e-12);
    cr_assert_float_eq(conf_real(c, SP_minpower), -50.0, 1e-12);
    cr_assert_float_eq(conf_real(c, SP_kick_rand), 0.01, 1e-12);
    cr_assert_float_eq(conf_real(c, SP_ball_rand), 0.25, 1e-12);
    cr_assert_str_eq(conf_str(c, SP_game_log_dir), "/tmp/logs dir");
    cr_assert_str_eq(conf_str(c, SP_text_log_dir), "/x/y");
    cr_assert_str_eq(conf_str(c, SP_landmark_file), "./bare/word.xml");
    cr_assert_eq(parse(c, "server::team_l_start = ''", err), 0, "%s", err);
    cr_assert_str_eq(conf_str(c, SP_team_l_start), "");
    free(c);
}

Test(conf, comments)
{
    conf_t *c = fresh();
    char err[CONF_ERR_LEN];
    const char *text =
        "# hash comment server::port = 1\n"
        "// slash comment server::port = 2\n"
        "/* block\n server::port = 3\n */ server::port = 4 # trailing\n"
        "server::coach_port = 5 // trailing\n"
        "server::olcoach_port /* inside */ = /* here too */ 6\n"
        "server::log_date_format = '#not a comment//'\n";
    cr_assert_eq(parse(c, text, err), 0, "%s", err);
    cr_assert_eq(conf_int(c, SP_port), 4);
    cr_assert_eq(conf_int(c, SP_coach_port), 5);
    cr_assert_eq(conf_int(c, SP_olcoach_port), 6);
    cr_assert_str_eq(conf_str(c, SP_log_date_format), "#not a comment//");
    cr_assert_eq(parse(c, "server::port = 1 /* open", err), -1);
    cr_assert(strstr(err, "unterminated comment"), "%s", err);
    free(c);
}

Test(conf, version_line)
{
    conf_t *c = fresh();
    char err[CONF_ERR_LEN];
    cr_assert_eq(parse(c, "server::version = '19.0.0'\nplayer::version=\"19.0.0\"", err), 0,
                 "%s", err);
    cr_assert_eq(parse(c, "server::version = '18.0.0'", err), -1);
    cr_assert_str_eq(err, "t.conf:1: version mismatched in the configuration file");
    free(c);
}

Test(conf, error_messages)
{
    conf_t *c = fresh();
    char err[CONF_ERR_LEN];
    cr_assert_eq(parse(c, "server::port = 6000\n\nserver::foo = 1", err), -1);
    cr_assert_str_eq(err, "t.conf:3: 'server' has no parameter called 'foo'");
    cr_assert_eq(conf_parse_text(c, "server::bar=1", "command line", NULL, err, sizeof err,
                                 NULL, 0), -1);
    cr_assert_str_eq(err, "command line: 'server' has no parameter called 'bar'");
    cr_assert_eq(conf_parse_text(c, "\nplayer::x=1", NULL, NULL, err, sizeof err, NULL, 0), -1);
    cr_assert_str_eq(err, "line 2: 'player' has no parameter called 'x'");
    cr_assert_eq(parse(c, "nosuch::port = 1", err), -1);
    cr_assert(strstr(err, "unknown module 'nosuch'"), "%s", err);
    cr_assert_eq(parse(c, "server::half_time 300", err), -1);
    cr_assert(strstr(err, "missing '='"), "%s", err);
    cr_assert_eq(parse(c, "server::half_time =", err), -1);
    cr_assert(strstr(err, "missing value"), "%s", err);
    cr_assert_eq(parse(c, "server::game_log_dir = 'open", err), -1);
    cr_assert(strstr(err, "unterminated string"), "%s", err);
    cr_assert_eq(parse(c, "= 5", err), -1);
    cr_assert_eq(parse(c, "'str'", err), -1);
    cr_assert_eq(parse(c, "port = 5", err), -1);
    cr_assert_eq(parse(c, "--", err), -1);
    cr_assert_eq(parse(c, "---server::port=1", err), -1);
    cr_assert_eq(conf_int(c, SP_port), 6000, "failed items change nothing");
    free(c);
}

Test(conf, coercions)
{
    conf_t *c = fresh();
    char err[CONF_ERR_LEN], warn[256] = "";
    /* real to int: truncated with a warning */
    cr_assert_eq(conf_parse_text(c, "server::half_time = 12.9", "t", NULL, err, sizeof err,
                                 warn, sizeof warn), 0, "%s", err);
    cr_assert_eq(conf_int(c, SP_half_time), 12);
    cr_assert(strstr(warn, "truncated"), "%s", warn);
    cr_assert_eq(parse(c, "server::half_time = -7.5", err), 0);
    cr_assert_eq(conf_int(c, SP_half_time), -7);
    /* int to bool: 0/1 only */
    cr_assert_eq(parse(c, "server::coach = 1", err), 0);
    cr_assert_eq(conf_bool(c, SP_coach), 1);
    cr_assert_eq(parse(c, "server::coach = 0", err), 0);
    cr_assert_eq(conf_bool(c, SP_coach), 0);
    cr_assert_eq(parse(c, "server::coach = 2", err), -1);
    cr_assert_eq(parse(c, "server::coach = 0.5", err), -1);
    cr_assert_eq(parse(c, "server::coach = maybe", err), -1);
    /* bool to int / real: error */
    cr_assert_eq(parse(c, "server::port = on", err), -1);
    cr_assert(strstr(err, "'server::port'"), "%s", err);
    cr_assert_eq(parse(c, "server::ball_decay = true", err), -1);
    /* string to numeric: error, even quoted digits */
    cr_assert_eq(parse(c, "server::port = abc", err), -1);
    cr_assert_eq(parse(c, "server::port = '6000'", err), -1);
    cr_assert_eq(parse(c, "server::ball_decay = 0x10", err), -1);
    cr_assert_eq(parse(c, "server::ball_decay = nan", err), -1);
    cr_assert_eq(parse(c, "server::ball_decay = 1e999", err), -1);
    cr_assert_eq(parse(c, "server::port = 99999999999", err), -1);
    /* number or bool to string: error */
    cr_assert_eq(parse(c, "server::game_log_dir = 5", err), -1);
    cr_assert_eq(parse(c, "server::game_log_dir = on", err), -1);
    cr_assert_eq(parse(c, "server::game_log_dir = '5'", err), 0);
    cr_assert_str_eq(conf_str(c, SP_game_log_dir), "5");
    cr_assert_eq(conf_int(c, SP_port), 6000);
    free(c);
}

Test(conf, long_string_rejected)
{
    conf_t *c = fresh();
    char err[CONF_ERR_LEN];
    char text[2048];
    char s[CONF_STR_LEN + 1];
    memset(s, 'a', CONF_STR_LEN - 1);
    s[CONF_STR_LEN - 1] = '\0';
    snprintf(text, sizeof text, "server::team_l_start = '%s'", s);
    cr_assert_eq(parse(c, text, err), 0, "%s", err);
    cr_assert_eq(strlen(conf_str(c, SP_team_l_start)), CONF_STR_LEN - 1);
    s[CONF_STR_LEN - 1] = 'a';
    s[CONF_STR_LEN] = '\0';
    snprintf(text, sizeof text, "server::team_r_start = '%s'", s);
    cr_assert_eq(parse(c, text, err), -1);
    cr_assert_str_eq(conf_str(c, SP_team_r_start), "");
    /* a token longer than any buffer */
    char *big = malloc(100000);
    memset(big, 'x', 99999);
    big[99999] = '\0';
    memcpy(big, "server::a", 9);
    cr_assert_eq(parse(c, big, err), -1);
    free(big);
    free(c);
}

Test(conf, limits)
{
    conf_t *c = fresh();
    char err[CONF_ERR_LEN];
    cr_assert_eq(parse(c, "server::foul_detect_probability = 1.5 server::red_card_probability=-2",
                       err), 0, "%s", err);
    cr_assert_float_eq(conf_real(c, SP_foul_detect_probability), 1.0, 1e-12);
    cr_assert_float_eq(conf_real(c, SP_red_card_probability), 0.0, 1e-12);
    cr_assert_eq(parse(c, "server::nr_normal_halfs=-1 server::nr_extra_halfs=-3 "
                          "server::extra_half_time=-100", err), 0, "%s", err);
    cr_assert_eq(conf_int(c, SP_nr_normal_halfs), 0);
    cr_assert_eq(conf_int(c, SP_nr_extra_halfs), 0);
    cr_assert_eq(conf_int(c, SP_extra_half_time), 0);
    cr_assert_eq(parse(c, "server::fixed_teamname_l = 'Team_A-1+'", err), 0);
    cr_assert_str_eq(conf_str(c, SP_fixed_teamname_l), "Team_A-1+");
    cr_assert_eq(parse(c, "server::fixed_teamname_l = 'bad name'", err), 0);
    cr_assert_str_eq(conf_str(c, SP_fixed_teamname_l), "");
    cr_assert_eq(parse(c, "server::fixed_teamname_r = abcdefghijklmnop", err), 0);
    cr_assert_str_eq(conf_str(c, SP_fixed_teamname_r), "", "16 chars is too long");
    cr_assert_eq(parse(c, "server::fixed_teamname_r = abcdefghijklmno", err), 0);
    cr_assert_str_eq(conf_str(c, SP_fixed_teamname_r), "abcdefghijklmno");
    free(c);
}

Test(conf, help)
{
    conf_t *c = fresh();
    char *buf = malloc(65536);
    cr_assert_eq(conf_parse_text(c, "help", NULL, NULL, buf, 65536, NULL, 0), 1);
    cr_assert(strstr(buf, "usage"), "%s", buf);
    cr_assert_eq(conf_parse_text(c, "server::port=1 --help", NULL, NULL, buf, 65536, NULL, 0),
                 1);
    cr_assert_eq(conf_parse_text(c, "-h", NULL, NULL, buf, 65536, NULL, 0), 1);
    cr_assert_eq(conf_parse_text(c, "server::help", NULL, NULL, buf, 65536, NULL, 0), 1);
    cr_assert(strstr(buf, "server::port = 1 (int)"), "%s", buf);
    cr_assert(strstr(buf, "server::ball_decay = 0.94 (real)"));
    cr_assert(strstr(buf, "server::coach = 0 (bool)"));
    cr_assert(strstr(buf, "server::game_log_dir = \"./\" (string)"));
    cr_assert_null(strstr(buf, "player::"));
    cr_assert_lt(strlen(buf), CONF_HELP_LEN - 1, "the listing fits CONF_HELP_LEN");
    cr_assert(strstr(buf, "server::synch_timeout = 1250 (int)\n"), "not truncated");
    cr_assert_eq(conf_parse_text(c, "-player::help", NULL, NULL, buf, 65536, NULL, 0), 1);
    cr_assert(strstr(buf, "player::subs_max = 3 (int)"), "%s", buf);
    cr_assert_eq(conf_parse_text(c, "bogus::help", NULL, NULL, buf, 65536, NULL, 0), -1);
    /* a tiny buffer truncates, never overflows */
    char small[16];
    conf_write_help(c, "server", small, sizeof small);
    cr_assert_eq(strlen(small), sizeof small - 1);
    free(buf);
    free(c);
}

Test(conf, include_relative_and_loop)
{
    char dir[128], sub[160], text[512], err[CONF_ERR_LEN];
    tmpdir(dir, sizeof dir);
    snprintf(sub, sizeof sub, "%s/sub", dir);
    cr_assert_eq(mkdir(sub, 0700), 0);
    write_file(dir, "main.conf", "server::port = 7000\ninclude = 'sub/a.conf'\n");
    write_file(sub, "a.conf", "include=b.conf server::coach_port = 7001\n");
    write_file(sub, "b.conf", "server::olcoach_port = 7002\n");
    conf_t *c = fresh();
    snprintf(text, sizeof text, "%s/main.conf", dir);
    cr_assert_eq(conf_parse_file(c, text, 0, err, sizeof err), 0, "%s", err);
    cr_assert_eq(conf_int(c, SP_port), 7000);
    cr_assert_eq(conf_int(c, SP_coach_port), 7001);
    cr_assert_eq(conf_int(c, SP_olcoach_port), 7002);
    /* from text with a base dir, and errors name the included file and line */
    write_file(sub, "bad.conf", "\n\nserver::foo = 1\n");
    cr_assert_eq(conf_parse_text(c, "include = bad.conf", "x", sub, err, sizeof err, NULL, 0),
                 -1);
    cr_assert(strstr(err, "bad.conf:3: 'server' has no parameter called 'foo'"), "%s", err);
    /* a missing include is an error */
    cr_assert_eq(conf_parse_text(c, "include = nothere.conf", "x", sub, err, sizeof err,
                                 NULL, 0), -1);
    cr_assert(strstr(err, "nothere.conf"), "%s", err);
    /* include loop stops at the depth limit */
    write_file(dir, "loop.conf", "include = loop.conf\n");
    snprintf(text, sizeof text, "%s/loop.conf", dir);
    cr_assert_eq(conf_parse_file(c, text, 0, err, sizeof err), -1);
    cr_assert(strstr(err, "include depth"), "%s", err);
    rm_tree(dir);
    free(c);
}

/* a file is read whole whatever its size up to the limit (conf.c reads at most 4 MB,
 * 4 << 20 bytes, from one file), sized from the file, not from the limit, and grown when
 * the file is not a regular one (a pipe has no size) */
Test(conf, file_sizes)
{
    const size_t limit = 4u << 20;
    char dir[128], path[256], err[CONF_ERR_LEN];
    tmpdir(dir, sizeof dir);
    conf_t *c = fresh();
    /* exactly the limit: a comment, then the setting in the last bytes */
    const char *tail = "\nserver::port = 7124\n";
    char *big = malloc(limit + 2);
    cr_assert_not_null(big);
    memset(big, 'x', limit + 1);
    big[0] = '#';
    memcpy(big + limit - strlen(tail), tail, strlen(tail));
    big[limit] = '\0';
    snprintf(path, sizeof path, "%s/limit.conf", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(big, 1, limit, f), limit);
    fclose(f);
    cr_assert_eq(conf_parse_file(c, path, 0, err, sizeof err), 0, "%s", err);
    cr_assert_eq(conf_int(c, SP_port), 7124);
    /* one byte more: refused, with the reason */
    f = fopen(path, "a");
    cr_assert_not_null(f);
    fputc('\n', f);
    fclose(f);
    cr_assert_eq(conf_parse_file(c, path, 0, err, sizeof err), -1);
    cr_assert(strstr(err, "too large"), "%s", err);
    /* a pipe of 10 000 bytes (more than the first 4 KB the reader takes without a size) */
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    memset(big, ' ', 10000);
    big[0] = '#';
    big[9979] = '\n';
    memcpy(big + 9980, "server::port = 7125\n", 20);
    cr_assert_eq(write(fd[1], big, 10000), 10000);
    close(fd[1]);
    snprintf(path, sizeof path, "/dev/fd/%d", fd[0]);
    cr_assert_eq(conf_parse_file(c, path, 0, err, sizeof err), 0, "%s", err);
    cr_assert_eq(conf_int(c, SP_port), 7125);
    close(fd[0]);
    free(big);
    free(c);
    rm_tree(dir);
}

Test(conf, parse_file_missing)
{
    conf_t *c = fresh();
    char err[CONF_ERR_LEN];
    cr_assert_eq(conf_parse_file(c, "/nonexistent/dir/server.conf", 1, err, sizeof err), 0);
    cr_assert_eq(conf_parse_file(c, "/nonexistent/dir/server.conf", 0, err, sizeof err), -1);
    cr_assert(strstr(err, "/nonexistent/dir/server.conf"), "%s", err);
    free(c);
}

Test(conf, load_files_then_argv)
{
    char dir[128], err[CONF_ERR_LEN];
    tmpdir(dir, sizeof dir);
    write_file(dir, "server.conf", "server::version = '19.0.0'\nserver::port = 7100\n"
                                   "server::coach_port = 7101\n");
    write_file(dir, "player.conf", "player::subs_max = 9\n");
    setenv("RCSS_CONF_DIR", dir, 1);
    conf_t *c = malloc(sizeof *c);
    char *argv1[] = { "rcssserver", "server::coach_port", "=", "7200",
                      "--server::half_time=60", "server::team_l_start", "=", "start team" };
    cr_assert_eq(conf_load(c, 8, argv1, err, sizeof err), 0, "%s", err);
    cr_assert_eq(conf_int(c, SP_port), 7100);
    cr_assert_eq(conf_int(c, SP_coach_port), 7200);
    cr_assert_eq(conf_int(c, SP_half_time), 60);
    cr_assert_eq(conf_int(c, PP_subs_max), 9);
    cr_assert_str_eq(conf_str(c, SP_team_l_start), "start team");
    /* an arg holding a blank is quoted whole: a lone string is not an item */
    char *argv6[] = { "rcssserver", "-server::game_log_dir=/tmp/a b" };
    cr_assert_eq(conf_load(c, 2, argv6, err, sizeof err), -1);
    char *argv2[] = { "rcssserver", "server::nope=1" };
    cr_assert_eq(conf_load(c, 2, argv2, err, sizeof err), -1);
    cr_assert_str_eq(err, "command line: 'server' has no parameter called 'nope'");
    char *argv3[] = { "rcssserver", "--server::half_time", "300" };
    cr_assert_eq(conf_load(c, 3, argv3, err, sizeof err), -1);
    char *argv4[] = { "rcssserver", "--help" };
    cr_assert_eq(conf_load(c, 2, argv4, err, sizeof err), 1);
    char *argv5[] = { "rcssserver", "--version" };
    cr_assert_eq(conf_load(c, 2, argv5, err, sizeof err), -1);
    /* a broken file names itself and the line */
    write_file(dir, "player.conf", "player::subs_max = 9\nplayer::zzz = 1\n");
    cr_assert_eq(conf_load(c, 1, argv1, err, sizeof err), -1);
    cr_assert(strstr(err, "player.conf:2: 'player' has no parameter called 'zzz'"), "%s", err);
    /* missing files are fine and are not created */
    char sub[200], path[300];
    snprintf(sub, sizeof sub, "%s/empty", dir);
    cr_assert_eq(mkdir(sub, 0700), 0);
    setenv("RCSS_CONF_DIR", sub, 1);
    cr_assert_eq(conf_load(c, 1, argv1, err, sizeof err), 0, "%s", err);
    cr_assert_eq(conf_int(c, SP_port), 6000);
    snprintf(path, sizeof path, "%s/server.conf", sub);
    cr_assert_neq(access(path, F_OK), 0);
    unsetenv("RCSS_CONF_DIR");
    rm_tree(dir);
    free(c);
}

Test(conf, load_include_relative_to_cwd)
{
    char err[CONF_ERR_LEN];
    setenv("RCSS_CONF_DIR", "/nonexistent-rcss-dir", 1);
    conf_t *c = malloc(sizeof *c);
    char *argv[] = { "rcssserver", "include=conf/presets/manual-v7.conf",
                     "server::hear_max=3" };
    cr_assert_eq(conf_load(c, 3, argv, err, sizeof err), 0, "%s", err);
    cr_assert_float_eq(conf_real(c, SP_stamina_max), 4000.0, 1e-9);
    cr_assert_eq(conf_int(c, SP_hear_max), 3, "later items win");
    cr_assert_eq(conf_int(c, PP_player_types), 7);
    free(c);
}

Test(conf, conf_set)
{
    conf_t *c = fresh();
    char err[CONF_ERR_LEN];
    cr_assert_eq(conf_set(c, "server", "port", "6500", err, sizeof err), 0, "%s", err);
    cr_assert_eq(conf_int(c, SP_port), 6500);
    cr_assert_eq(conf_set(c, "server", "coach", "true", err, sizeof err), 0);
    cr_assert_eq(conf_bool(c, SP_coach), 1);
    cr_assert_eq(conf_set(c, "server", "game_log_dir", "'/a b'", err, sizeof err), 0);
    cr_assert_str_eq(conf_str(c, SP_game_log_dir), "/a b");
    cr_assert_eq(conf_set(c, "server", "team_l_start", "./go.sh", err, sizeof err), 0);
    cr_assert_eq(conf_set(c, "server", "port", "x", err, sizeof err), -1);
    cr_assert_eq(conf_set(c, "server", "nope", "1", err, sizeof err), -1);
    cr_assert_str_eq(err, "'server' has no parameter called 'nope'");
    cr_assert_eq(conf_set(c, NULL, "port", "1", err, sizeof err), -1);
    free(c);
}

Test(conf, format_value)
{
    conf_t *c = fresh();
    char buf[300], err[CONF_ERR_LEN];
    conf_format_value(c, SP_port, 0, buf, sizeof buf);
    cr_assert_str_eq(buf, "6000");
    conf_format_value(c, SP_max_monitors, 0, buf, sizeof buf);
    cr_assert_str_eq(buf, "-1");
    conf_format_value(c, SP_use_offside, 0, buf, sizeof buf);
    cr_assert_str_eq(buf, "1");
    conf_format_value(c, SP_use_offside, 1, buf, sizeof buf);
    cr_assert_str_eq(buf, "true");
    conf_format_value(c, SP_coach, 1, buf, sizeof buf);
    cr_assert_str_eq(buf, "false");
    conf_format_value(c, SP_stamina_max, 0, buf, sizeof buf);
    cr_assert_str_eq(buf, "8000");
    conf_format_value(c, SP_player_speed_max, 0, buf, sizeof buf);
    cr_assert_str_eq(buf, "1.05");
    conf_format_value(c, PP_new_dash_power_rate_delta_max, 0, buf, sizeof buf);
    cr_assert_str_eq(buf, "0.0008");
    conf_format_value(c, SP_game_log_dir, 0, buf, sizeof buf);
    cr_assert_str_eq(buf, "\"./\"");
    cr_assert_eq(parse(c, "server::team_l_start = 'a\"b\\\\c'", err), 0, "%s", err);
    conf_format_value(c, SP_team_l_start, 1, buf, sizeof buf);
    cr_assert_str_eq(buf, "\"a\\\"b\\\\\\\\c\"");
    /* snprintf semantics on a short buffer */
    char tiny[3];
    cr_assert_eq(conf_format_value(c, SP_port, 0, tiny, sizeof tiny), 4);
    cr_assert_str_eq(tiny, "60");
    free(c);
}

Test(conf, shipped_files_parse)
{
    static const char *const files[] = {
        "conf/server.conf", "conf/player.conf",
        "conf/presets/manual-v7.conf", "conf/presets/manual-v9.conf",
    };
    char err[CONF_ERR_LEN];
    for (size_t i = 0; i < 4; i++) {
        conf_t *c = fresh();
        cr_assert_eq(conf_parse_file(c, files[i], 0, err, sizeof err), 0, "%s: %s", files[i],
                     err);
        if (i < 2) {
            /* the default files reproduce the defaults exactly */
            conf_t *d = fresh();
            cr_assert_eq(memcmp(c, d, sizeof *c), 0, "%s differs from defaults", files[i]);
            free(d);
        }
        free(c);
    }
    conf_t *c = fresh();
    cr_assert_eq(conf_parse_file(c, "conf/presets/manual-v7.conf", 0, err, sizeof err), 0);
    cr_assert_float_eq(conf_real(c, SP_stamina_max), 4000.0, 1e-9);
    cr_assert_float_eq(conf_real(c, SP_player_speed_max), 1.0, 1e-12);
    cr_assert_float_eq(conf_real(c, SP_ball_speed_max), 2.7, 1e-12);
    cr_assert_float_eq(conf_real(c, SP_kick_rand), 0.0, 1e-12);
    cr_assert_float_eq(conf_real(c, SP_catchable_area_l), 2.0, 1e-12);
    cr_assert_eq(conf_int(c, SP_drop_ball_time), 200);
    cr_assert_eq(conf_int(c, SP_say_msg_size), 512);
    cr_assert_eq(conf_int(c, SP_hear_max), 2);
    cr_assert_eq(conf_int(c, SP_hear_decay), 2);
    cr_assert_float_eq(conf_real(c, SP_offside_active_area_size), 5.0, 1e-12);
    cr_assert_eq(conf_int(c, PP_player_types), 7);
    cr_assert_float_eq(conf_real(c, SP_goal_width), 14.02, 1e-12, "untouched");
    conf_defaults(c);
    cr_assert_eq(conf_parse_file(c, "conf/presets/manual-v9.conf", 0, err, sizeof err), 0);
    cr_assert_float_eq(conf_real(c, SP_tackle_dist), 2.5, 1e-12);
    cr_assert_float_eq(conf_real(c, SP_tackle_back_dist), 0.5, 1e-12);
    cr_assert_eq(conf_int(c, PP_pt_max), 3);
    cr_assert_float_eq(conf_real(c, PP_new_stamina_inc_max_delta_factor), -10000.0, 1e-9);
    cr_assert_str_eq(conf_str(c, SP_log_date_format), "%Y%m%d%H%M-");
    cr_assert_eq(conf_int(c, SP_say_msg_size), 10);
    free(c);
}

Test(conf, garbage_never_crashes)
{
    static const char *const inputs[] = {
        "", " ", "=", "==", "::", "server::", "::port=1", "server::=1", "'", "\"", "/*",
        "/", "//", "#", "-", "--", "--=", "include", "include=", "include=''",
        "server::port=1=2", "server::port='1'\"2\"", "\xff\xfe server::port=1",
        "server::port = -", "server:: port = 1", "server::help::x", "a::b::c = 1",
    };
    char err[CONF_ERR_LEN];
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        conf_t *c = fresh();
        int rc = conf_parse_text(c, inputs[i], "g", NULL, err, sizeof err, NULL, 0);
        cr_assert(rc == 0 || rc == -1 || rc == 1, "input %zu", i);
        if (rc == -1)
            cr_assert_gt(strlen(err), 0, "input %zu has no message", i);
        free(c);
    }
    /* NULL text is an empty configuration; a zero-length err buffer is tolerated */
    conf_t *c = fresh();
    cr_assert_eq(conf_parse_text(c, NULL, "g", NULL, err, sizeof err, NULL, 0), 0);
    cr_assert_eq(conf_parse_text(c, "x", "g", NULL, NULL, 0, NULL, 0), -1);
    free(c);
}
