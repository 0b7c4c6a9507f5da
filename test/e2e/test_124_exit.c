/* test_124_exit.c -- rcssserver's exit status (issue 13; README "Exit status"):
 *   0  the match is over (auto mode's game over with both teams) or a clean stop
 *      (SIGTERM/SIGINT, a shutdown command)
 *   1  configuration error (unknown parameter, bad value, unreadable --config file,
 *      an event stream that cannot be opened, a log directory that cannot be written)
 *   2  bind or instance conflict (here: the player port is held by another socket, so
 *      the gateways cannot bind it and the server never gets ready), or gateways that
 *      never come up (SIM_READY_WAIT_NS, 10 s)
 *   3  clients missing: the match ended without one of the teams (the referee's
 *      time_up_without_a_team) or a team forfeited (synch_miss_policy=forfeit, see
 *      test_125)
 * Each is also the exit_code (and exit_reason) of result.json. */
#include <criterion/criterion.h>
#include <arpa/inet.h>
#include <jansson.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "e2e_logs.h"
#include "e2e_ref.h"
#include "e2e_runner.h"
#include "playmode.h"

static char out[65536];

/* a server that must stop at once with status want and the message expect */
static void config_error(const char *const *args, const char *expect)
{
    e2e_srv_t p;
    cr_assert_eq(e2e_srv_start(&p, args, NULL), 1, "it must exit before being ready");
    cr_expect_eq(p.status, 1, "%s", args[0]);
    e2e_srv_output(&p, out, sizeof out);
    cr_expect(strstr(out, expect), "'%s' in: %s", expect, out);
    e2e_srv_clean(&p);
}

Test(runner_exit, config_errors_exit_1, .timeout = 60)
{
    const char *a1[] = { "server::no_such_parameter=1", NULL };
    config_error(a1, "'server' has no parameter called 'no_such_parameter'");
    const char *a2[] = { "server::synch_miss_policy=sometimes", NULL };
    config_error(a2, "server::synch_miss_policy must be skip, wait or forfeit");
    const char *a3[] = { "--config", "/nonexistent/match.conf", NULL };
    config_error(a3, "/nonexistent/match.conf");
    const char *a4[] = { "server::event_stream=unix:/nonexistent/runner.sock", NULL };
    config_error(a4, "server::event_stream: connect(\"/nonexistent/runner.sock\") failed");
    const char *a5[] = { "server::half_time=abc", NULL };
    config_error(a5, "needs an int");
    const char *a6[] = { "server::port=70000", NULL };
    config_error(a6, "server::port must be 0..65535");
    const char *a7[] = { "server::game_logging=true", "server::game_log_dir=/proc/nope", NULL };
    config_error(a7, "cannot use the game log directory");
}

/* the player port held by a socket without SO_REUSEPORT: the start-up check refuses */
Test(runner_exit, port_in_use_exits_2, .timeout = 60)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t l = sizeof a;
    cr_assert_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    getsockname(fd, (struct sockaddr *)&a, &l);
    char a_port[64];
    snprintf(a_port, sizeof a_port, "server::port=%d", ntohs(a.sin_port));
    const char *args[] = { a_port, "server::coach_port=0", "server::olcoach_port=0",
                           "server::result_file=result.json", NULL };
    e2e_srv_t p;
    cr_assert_eq(e2e_srv_spawn(&p, args, NULL), 0);
    int st = e2e_srv_wait(&p, 30000);
    e2e_srv_output(&p, out, sizeof out);
    cr_expect_eq(st, 2, "%s", out);
    cr_expect_null(strstr(out, "\nREADY "), "never ready: %s", out);
    /* found before anything starts (sim_guard.c): one line, no match, no result file */
    cr_expect(strstr(out, "is already in use") != NULL, "%s", out);
    char path[400];
    snprintf(path, sizeof path, "%s/result.json", p.dir);
    cr_expect_neq(access(path, F_OK), 0, "no result.json for a server that never ran");
    close(fd);
    e2e_srv_clean(&p);
}

/* a player gateway that starts but never attaches (a program that only sleeps, in
 * server::gateway_dir beside the real monitorgw): after SIM_READY_WAIT_NS the server
 * gives up with status 2 and one message, never printing READY, and takes its
 * children along */
Test(runner_exit, gateways_not_ready_exit_2, .timeout = 90)
{
    char gw[] = "/tmp/rcss-e2e-gw-XXXXXX", path[300], real[600], pids[300];
    cr_assert(mkdtemp(gw));
    snprintf(pids, sizeof pids, "%s/pids", gw);
    snprintf(path, sizeof path, "%s/rcss-netgw", gw);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fprintf(f, "#!/bin/sh\necho $$ >> %s\nexec sleep 60\n", pids);
    fclose(f);
    chmod(path, 0755);
    const char *bin = getenv("RCSS_BIN_DIR") ? getenv("RCSS_BIN_DIR") : "build/bin";
    snprintf(real, sizeof real, "%s/rcss-monitorgw", bin);
    char *abs = realpath(real, NULL);
    cr_assert(abs, "%s", real);
    snprintf(path, sizeof path, "%s/rcss-monitorgw", gw);
    cr_assert_eq(symlink(abs, path), 0);
    free(abs);
    char dir_arg[300];
    snprintf(dir_arg, sizeof dir_arg, "server::gateway_dir=%s", gw);
    const char *args[] = { dir_arg, "server::port=0", "server::coach_port=0",
                           "server::olcoach_port=0", NULL };
    e2e_srv_t p;
    cr_assert_eq(e2e_srv_spawn(&p, args, NULL), 0);
    int st = e2e_srv_wait(&p, 40000);
    e2e_srv_output(&p, out, sizeof out);
    cr_expect_eq(st, 2, "%s", out);
    cr_expect_null(strstr(out, "READY "), "never ready: %s", out);
    cr_expect(strstr(out, "the gateways did not come up within 10 s") != NULL, "%s", out);
    f = fopen(pids, "r");
    cr_assert(f, "the sleeping gateway was started");
    int pid, n = 0;
    while (fscanf(f, "%d", &pid) == 1) {
        n++;
        int alive = 1;
        for (int i = 0; i < 100 && alive; i++) { /* SIGTERM from the sim, or its death */
            alive = kill(pid, 0) == 0;
            if (alive)
                usleep(20000);
        }
        cr_expect_not(alive, "gateway %d outlived the server", pid);
        if (alive)
            kill(pid, SIGKILL);
    }
    fclose(f);
    cr_expect_geq(n, 1);
    unlink(pids);
    unlink(path);
    snprintf(path, sizeof path, "%s/rcss-netgw", gw);
    unlink(path);
    rmdir(gw);
    e2e_srv_clean(&p);
}

/* auto mode with one team: kicked off after connect_wait, time_up_without_a_team at
 * the end of normal time, then game over: exit 3 */
Test(runner_exit, team_missing_exits_3, .timeout = 60)
{
    e2e_logdir_t d;
    cr_assert_eq(e2e_logdir_make(&d), 0);
    char res[400];
    snprintf(res, sizeof res, "server::result_file=%s/result.json", d.dir);
    const char *args[] = { "server::auto_mode=true", "server::half_time=1",
                           "server::connect_wait=5", "server::kick_off_wait=2",
                           "server::game_over_wait=2", res, NULL };
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, args), 0);
    cr_assert_geq(e2e_ref_connect(&m, "Alone", 0), 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    int st = e2e_ref_finish(&m, 30000, out, sizeof out);
    cr_expect_eq(st, 3, "%s", out);
    cr_expect(strstr(out, "'Alone' vs null"), "%s", out);
    char path[400];
    snprintf(path, sizeof path, "%s/result.json", d.dir);
    json_error_t err;
    json_t *r = json_load_file(path, 0, &err);
    cr_assert_not_null(r, "%s", err.text);
    cr_expect_str_eq(json_string_value(json_object_get(r, "exit_reason")), "team_missing");
    cr_expect_eq(json_integer_value(json_object_get(r, "exit_code")), 3);
    json_t *right = json_array_get(json_object_get(r, "teams"), 1);
    cr_expect(json_is_null(json_object_get(right, "name")));
    cr_expect_eq(json_integer_value(json_object_get(r, "time")), 20, "normal time: 2 x 10");
    json_decref(r);
    e2e_ref_stop(&m);
    e2e_logdir_remove(&d);
    e2e_logdir_t sdir; /* a server that did not exit with 0 keeps its directory */
    snprintf(sdir.dir, sizeof sdir.dir, "%s", m.s.dir);
    e2e_logdir_remove(&sdir);
}

/* both teams, auto mode: game over, 0 (test_120 checks its result.json); a SIGTERM: 0
 * too, reason "signal" */
Test(runner_exit, match_over_and_signal_exit_0, .timeout = 60)
{
    /* connect_wait long enough that a slow start never begins the match before the
     * players are in */
    const char *args[] = { "server::auto_mode=true", "server::half_time=1",
                           "server::kick_off_wait=2", "server::connect_wait=100",
                           "server::game_over_wait=2", "server::nr_extra_halfs=0",
                           "server::penalty_shoot_outs=false", NULL };
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, args), 0);
    cr_assert_geq(e2e_ref_connect(&m, "A", 0), 0);
    cr_assert_geq(e2e_ref_connect(&m, "B", 0), 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    cr_expect_eq(e2e_ref_finish(&m, 30000, out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "Game Over. Exiting..."), "%s", out);
    e2e_ref_stop(&m);

    const char *plain[] = { "server::port=0", "server::coach_port=0", "server::olcoach_port=0",
                            "server::result_file=result.json", NULL };
    e2e_srv_t p;
    cr_assert_eq(e2e_srv_start(&p, plain, NULL), 0);
    cr_expect_eq(e2e_srv_stop(&p), 0);
    char path[400];
    snprintf(path, sizeof path, "%s/result.json", p.dir);
    json_error_t err;
    json_t *r = json_load_file(path, 0, &err);
    cr_assert_not_null(r, "%s", err.text);
    cr_expect_str_eq(json_string_value(json_object_get(r, "exit_reason")), "signal");
    json_decref(r);
    e2e_srv_clean(&p);
}
