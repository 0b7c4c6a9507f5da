/* test_127_config.c -- configuration for programs (issue 13): --print-config writes the
 * effective configuration (defaults, files, command line) in the files' own syntax and
 * exits 0; fed back with --config FILE it gives the same configuration; --config
 * replaces the default files, so nothing is read from ~/.rcssserver; and a server run
 * with its logs on writes nothing into $HOME (the reference creates ~/.rcssserver and,
 * from a working directory, a literal "./~/.rcssserver"). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "e2e_logs.h"
#include "e2e_runner.h"
#include "params.h"

static char out[262144], out2[262144];

/* the printed configuration: the server's output, which holds nothing else */
static int print_config(const char *const *args, const char *home, char *dst, size_t len)
{
    e2e_srv_t p;
    int rc = e2e_srv_start(&p, args, home);
    cr_assert_eq(rc, 1, "--print-config exits before being ready");
    e2e_srv_output(&p, dst, len);
    e2e_srv_clean(&p);
    return p.status;
}

static int lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static int dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d)
        closedir(d);
    return n;
}

Test(runner_config, print_config_round_trip, .timeout = 60)
{
    const char *args[] = { "server::half_time=42", "server::ball_decay=0.9375",
                           "server::team_l_start", "=", "./start.sh --port 6000", "--print-config",
                           NULL };
    cr_assert_eq(print_config(args, NULL, out, sizeof out), 0);
    /* the leading newline of e2e_srv_output, a comment line, one line per parameter */
    cr_expect_eq(lines(out), 1 + 1 + PARAM_COUNT, "%s", out);
    cr_expect(strstr(out, "\nserver::half_time = 42\n"), "%s", out);
    cr_expect(strstr(out, "\nserver::ball_decay = 0.9375\n"));
    cr_expect(strstr(out, "\nserver::team_l_start = \"./start.sh --port 6000\"\n"));
    cr_expect(strstr(out, "\nserver::synch_mode = false\n"));
    cr_expect(strstr(out, "\nplayer::player_types = 18\n"));
    cr_expect(strstr(out, "\nserver::synch_miss_policy = \"skip\"\n"));
    cr_expect(strstr(out, "\nserver::result_file = \"\"\n"), "no result file by default");
    /* back through --config: the same configuration */
    char path[256];
    snprintf(path, sizeof path, "/tmp/rcss-print-config-%d.conf", (int)getpid());
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(out + 1, f);
    fclose(f);
    const char *again[] = { "--config", path, "--print-config", NULL };
    cr_assert_eq(print_config(again, NULL, out2, sizeof out2), 0);
    cr_expect_str_eq(out2, out);
    unlink(path);
}

Test(runner_config, config_file_replaces_home_files, .timeout = 60)
{
    e2e_logdir_t home;
    cr_assert_eq(e2e_logdir_make(&home), 0);
    char dir[400], file[480], mine[480];
    snprintf(dir, sizeof dir, "%s/.rcssserver", home.dir);
    cr_assert_eq(mkdir(dir, 0700), 0);
    snprintf(file, sizeof file, "%s/server.conf", dir);
    FILE *f = fopen(file, "w");
    cr_assert_not_null(f);
    fputs("server::half_time = 7\n", f);
    fclose(f);
    /* without --config ~/.rcssserver/server.conf is read, as by the reference */
    const char *plain[] = { "--print-config", NULL };
    cr_assert_eq(print_config(plain, home.dir, out, sizeof out), 0);
    cr_expect(strstr(out, "\nserver::half_time = 7\n"), "%s", out);
    /* with --config only that file */
    snprintf(mine, sizeof mine, "%s/match.conf", home.dir);
    f = fopen(mine, "w");
    cr_assert_not_null(f);
    fputs("server::synch_mode = on\n", f);
    fclose(f);
    const char *cfg[] = { "--config", mine, "--print-config", NULL };
    cr_assert_eq(print_config(cfg, home.dir, out, sizeof out), 0);
    cr_expect(strstr(out, "\nserver::half_time = 300\n"), "home file not read: %s", out);
    cr_expect(strstr(out, "\nserver::synch_mode = true\n"));
    e2e_logdir_remove(&home);
}

/* a short server run with every file it writes on: logs, result.json, the event
 * stream, all in the working directory; $HOME stays empty */
Test(runner_config, nothing_written_to_home, .timeout = 60)
{
    e2e_logdir_t home;
    cr_assert_eq(e2e_logdir_make(&home), 0);
    const char *args[] = { "server::port=0", "server::coach_port=0", "server::olcoach_port=0",
                           "server::game_logging=true", "server::text_logging=true",
                           "server::event_stream=events.ndjson", "server::synch_mode=true",
                           "server::result_file=result.json", NULL };
    e2e_srv_t p;
    cr_assert_eq(e2e_srv_start(&p, args, home.dir), 0);
    int fd = e2e_udp_open();
    char buf[4096];
    e2e_send(fd, p.port, "(init Home (version 19))");
    cr_assert_gt(e2e_recv_prefix(fd, "(init ", buf, sizeof buf, 3000, NULL), 0);
    cr_expect_eq(e2e_srv_stop(&p), 0);
    cr_expect_eq(dir_entries(home.dir), 0, "nothing in $HOME");
    /* what was written went to the working directory: the log pair, result.json and the
     * event stream (and the server's output of this harness) */
    cr_expect_eq(dir_entries(p.dir), 6, "two logs, result.json, events, server.log, conf/");
    close(fd);
    e2e_srv_clean(&p);
    e2e_logdir_remove(&home);
}
