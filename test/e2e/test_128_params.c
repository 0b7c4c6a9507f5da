/* test_128_params.c -- parameters that are accepted must do something (issue 22): those
 * steering what this server does not have (recv_step, synch_micro_sleep, profile) are
 * refused at start with one line and exit status 1 when set to anything but
 * their default, from the command line or a configuration file, while a file that sets
 * them to the default loads; server::start_goal_l/_r is the score a match starts with, as
 * the players' (score) and the final log names show. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_logs.h"
#include "e2e_runner.h"

static char out[65536];

static int lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* the server stops before being ready, status 1, its whole output the one line
 * "server::NAME=VALUE is not supported (...); only DEFAULT is accepted" */
static void refused(const char *const *args, const char *name_value, const char *def)
{
    e2e_srv_t p;
    cr_assert_eq(e2e_srv_start(&p, args, NULL), 1, "%s: it must exit before being ready",
                 name_value);
    cr_expect_eq(p.status, 1, "%s", name_value);
    e2e_srv_output(&p, out, sizeof out);
    char head[128], tail[64];
    snprintf(head, sizeof head, "\n%s is not supported (", name_value);
    snprintf(tail, sizeof tail, "); only %s is accepted\n", def);
    cr_expect_eq(strncmp(out, head, strlen(head)), 0, "%s", out);
    size_t n = strlen(out);
    cr_expect(n > strlen(tail) && strcmp(out + n - strlen(tail), tail) == 0, "%s", out);
    cr_expect_eq(lines(out), 2, "one line (after the helper's leading newline): %s", out);
    e2e_srv_clean(&p);
}

Test(params, unsupported_values_refused, .timeout = 60)
{
    const char *a1[] = { "server::recv_step=20", NULL };
    refused(a1, "server::recv_step=20", "10");
    const char *a2[] = { "server::synch_micro_sleep=0", NULL };
    refused(a2, "server::synch_micro_sleep=0", "1");
    const char *a4[] = { "server::profile=on", NULL };
    refused(a4, "server::profile=true", "false");
    /* from a configuration file, as from the command line */
    char path[128];
    snprintf(path, sizeof path, "/tmp/rcss-params-%d.conf", (int)getpid());
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("server::half_time = 30\nserver::recv_step = 50\n", f);
    fclose(f);
    const char *a5[] = { "--config", path, NULL };
    refused(a5, "server::recv_step=50", "10");
    unlink(path);
}

/* a file naming them at their defaults (as a full server.conf does) starts a server */
Test(params, defaults_accepted, .timeout = 60)
{
    char path[128];
    snprintf(path, sizeof path, "/tmp/rcss-params-ok-%d.conf", (int)getpid());
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("server::recv_step = 10\nserver::synch_micro_sleep = 1\n"
          "server::sense_body_step = 100\nserver::profile = false\n", f);
    fclose(f);
    const char *args[] = { "--config", path, "server::port=0", "server::coach_port=0",
                           "server::olcoach_port=0", "server::profile=off", NULL };
    e2e_srv_t p;
    cr_assert_eq(e2e_srv_start(&p, args, NULL), 0, "ready");
    e2e_srv_output(&p, out, sizeof out);
    cr_expect_null(strstr(out, "not supported"), "%s", out);
    cr_expect_eq(e2e_srv_stop(&p), 0);
    e2e_srv_clean(&p);
    unlink(path);
}

/* a player's (score) answer: "(score TIME OURS THEIRS)" */
static void expect_score(int fd, int port, int ours, int theirs)
{
    char buf[4096], want[64];
    cr_assert_gt(e2e_send(fd, port, "(score)"), 0);
    cr_assert_gt(e2e_recv_prefix(fd, "(score ", buf, sizeof buf, 2000, NULL), 0);
    int t, a, b;
    cr_assert_eq(sscanf(buf, "(score %d %d %d)", &t, &a, &b), 3, "%s", buf);
    snprintf(want, sizeof want, "%d %d", ours, theirs);
    char got[64];
    snprintf(got, sizeof got, "%d %d", a, b);
    cr_expect_str_eq(got, want, "%s", buf);
}

Test(params, start_goals, .timeout = 60)
{
    e2e_logdir_t d;
    cr_assert_eq(e2e_logdir_make(&d), 0);
    const char *args[] = { "server::start_goal_l=3", "server::start_goal_r=1",
                           "server::game_logging=true", d.game_arg, NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    e2e_players_t pl;
    memset(&pl, 0, sizeof pl);
    cr_assert_eq(e2e_players_join(&pl, &s, "Lefts", 0), 0);
    cr_assert_eq(e2e_players_join(&pl, &s, "Rights", 0), 0);
    e2e_players_pump(&pl, 500); /* a few cycles: both teams in the world */
    expect_score(pl.fd[0], pl.port[0], 3, 1);
    expect_score(pl.fd[1], pl.port[1], 1, 3);
    e2e_players_close(&pl);
    cr_expect_eq(e2e_server_stop(&s), 0);
    char path[1024];
    cr_assert_eq(e2e_logdir_find(&d, ".rcg", path, sizeof path), 1);
    cr_expect(strstr(path, "-Lefts_3-vs-Rights_1.rcg"), "%s", path);
    e2e_logdir_remove(&d);
}
