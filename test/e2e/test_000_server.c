/* test_000_server.c -- the server as a whole: process set, shm region lifetime, clean
 * exit, configuration errors, several gateways. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "e2e.h"
#include "e2e_runner.h"
#include "e2e_safety.h"

static int shm_exists(const char *name)
{
    char path[128];
    struct stat st;
    snprintf(path, sizeof path, "/dev/shm%s", name);
    return stat(path, &st) == 0;
}

/* name of a process as ps shows it (comm) */
static void proc_comm(pid_t pid, char *buf, size_t len)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/comm", (int)pid);
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    if (fgets(buf, (int)len, f))
        buf[strcspn(buf, "\n")] = '\0';
    fclose(f);
}

static pid_t parent_of(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    pid_t pp = -1;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "PPid: %d", &pp) == 1)
            break;
    }
    fclose(f);
    return pp;
}

Test(server, processes_and_region, .timeout = 30)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    char comm[64];
    proc_comm(s.pid, comm, sizeof comm);
    cr_expect_str_eq(comm, "rcssserver");
    pid_t gw[16];
    int n = e2e_netgw_pids(&s, gw, 16);
    cr_expect_eq(n, 1, "default server::netgw_processes is 1");
    for (int i = 0; i < n; i++) {
        proc_comm(gw[i], comm, sizeof comm);
        cr_expect_str_eq(comm, "rcss-netgw");
        /* the gateways are the sim's children; the sim is the child of the process
         * started, its supervisor (server::resume_match) */
        cr_expect_eq(parent_of(parent_of(gw[i])), s.pid);
    }
    pid_t mg = e2e_monitorgw_pid(&s);
    cr_assert_gt(mg, 0);
    proc_comm(mg, comm, sizeof comm);
    cr_expect_str_eq(comm, "rcss-monitorgw");
    cr_expect(shm_exists(s.shm_name), "region %s exists while running", s.shm_name);
    cr_expect_eq(e2e_server_stop(&s), 0, "clean exit on SIGTERM");
    cr_expect(!shm_exists(s.shm_name), "region removed on clean exit");
    /* the gateways went with it */
    for (int i = 0; i < n; i++)
        cr_expect(kill(gw[i], 0) != 0, "netgw %d gone", (int)gw[i]);
    cr_expect(kill(mg, 0) != 0, "monitorgw gone");
}

Test(server, several_gateways, .timeout = 30)
{
    e2e_server_t s;
    const char *args[] = { "server::netgw_processes=3", NULL };
    cr_assert_eq(e2e_server_start(&s, args), 0);
    pid_t gw[16];
    cr_expect_eq(e2e_netgw_pids(&s, gw, 16), 3);
    /* players spread by the kernel over the three gateways all get served */
    char buf[8192];
    for (int i = 0; i < 6; i++) {
        int fd = e2e_udp_open();
        cr_assert_geq(fd, 0);
        e2e_send(fd, s.port, "(init Multi (version 9))");
        cr_expect_gt(e2e_recv_prefix(fd, "(init l ", buf, sizeof buf, 2000, NULL), 0,
                     "player %d got an init reply", i + 1);
        close(fd);
    }
    cr_expect_eq(e2e_server_stop(&s), 0);
}

/* run rcssserver with args, return exit status and its output */
static int run_server_args(const char *const *args, char *out, size_t outlen)
{
    const char *bindir = getenv("RCSS_BIN_DIR");
    char exe[512], tmpl[] = "/tmp/rcss-e2e-out-XXXXXX";
    snprintf(exe, sizeof exe, "%s/rcssserver", bindir ? bindir : "build/bin");
    int fd = mkstemp(tmpl);
    if (fd < 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd, 1);
        dup2(fd, 2);
        setenv("RCSS_CONF_DIR", "/nonexistent-rcss-conf-dir", 1);
        const char *argv[16] = { exe };
        int k = 1;
        for (int i = 0; args[i] && k < 15; i++)
            argv[k++] = args[i];
        argv[k] = NULL;
        execv(exe, (char *const *)argv);
        _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
    lseek(fd, 0, SEEK_SET);
    ssize_t n = read(fd, out, outlen - 1);
    out[n > 0 ? n : 0] = '\0';
    close(fd);
    unlink(tmpl);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

Test(server, unknown_parameter_is_one_clear_error, .timeout = 10)
{
    char out[8192];
    const char *args[] = { "server::no_such_thing=3", NULL };
    cr_expect_eq(run_server_args(args, out, sizeof out), 1);
    cr_expect(strstr(out, "'server' has no parameter called 'no_such_thing'") != NULL,
              "output: %s", out);
}

Test(server, bad_value_is_an_error, .timeout = 10)
{
    char out[8192];
    const char *args[] = { "server::half_time='abc'", NULL };
    cr_expect_eq(run_server_args(args, out, sizeof out), 1);
    cr_expect(strstr(out, "half_time") != NULL, "output names the parameter: %s", out);
}

/* the systemd layout (conf/systemd): the sim spawns nothing, each gateway is its own
 * process started by someone else, and they still serve players and monitors */
Test(server, standalone_gateways, .timeout = 30)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start_standalone(&s, NULL, 2), 0);
    pid_t gw[16];
    int n = e2e_netgw_pids(&s, gw, 16);
    cr_expect_eq(n, 2);
    for (int i = 0; i < n; i++)
        cr_expect_neq(parent_of(gw[i]), s.pid, "netgw %d is not the sim's child", (int)gw[i]);
    char buf[8192];
    int fd = e2e_udp_open();
    e2e_send(fd, s.port, "(init Solo (version 19))");
    cr_expect_gt(e2e_recv_prefix(fd, "(init l 1 ", buf, sizeof buf, 2000, NULL), 0);
    cr_expect_gt(e2e_recv_prefix(fd, "(sense_body ", buf, sizeof buf, 2000, NULL), 0);
    int mon = e2e_udp_open();
    e2e_send(mon, s.port, "(dispinit version 5)");
    cr_expect_gt(e2e_recv_prefix(mon, "(show ", buf, sizeof buf, 2000, NULL), 0);
    close(fd);
    close(mon);
    /* stop: the sim removes the region, the gateways notice and leave by themselves */
    cr_expect_eq(e2e_server_stop(&s), 0);
    cr_expect(!shm_exists(s.shm_name));
}

/* the systemd layout with server::netgw_processes=2 and only one netgw started (a unit
 * that did not come up): the sim names the missing gateway once server::gateway_timeout_ms
 * has passed, and /status shows it "missing" next to the ones "up" */
Test(server, missing_gateway_is_reported, .timeout = 60)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0); /* free ports and a private name */
    e2e_server_t copy = s;
    cr_assert_eq(e2e_server_stop(&s), 0);
    const char *extra[] = { "server::spawn_gateways=false", "server::netgw_processes=2",
                            "server::gateway_timeout_ms=600", "server::http_port=-1", NULL };
    char log[300], glog[300], mlog[300];
    snprintf(log, sizeof log, "/tmp/rcss-e2e-000-%d.log", (int)getpid());
    snprintf(glog, sizeof glog, "/tmp/rcss-e2e-000-%d-gw.log", (int)getpid());
    snprintf(mlog, sizeof mlog, "/tmp/rcss-e2e-000-%d-mgw.log", (int)getpid());
    pid_t sim = es_spawn(es_server_args(&copy, extra), "/tmp", log);
    cr_assert_eq(es_wait_region(copy.shm_name, sim, 6000), 0, "no region");
    const char *ngw[] = { es_bin("rcss-netgw", 0), "--shm", copy.shm_name, "--index", "0", NULL };
    const char *mgw[] = { es_bin("rcss-monitorgw", 1), "--shm", copy.shm_name, NULL };
    pid_t g0 = es_spawn(ngw, "/tmp", glog), m = es_spawn(mgw, "/tmp", mlog);
    int http = 0;
    for (int i = 0; i < 300 && http <= 0; i++) {
        http = e2e_runner_http_port(copy.shm_name);
        usleep(10000);
    }
    cr_assert_gt(http, 0, "monitorgw has no HTTP port");
    static char text[65536];
    int said = 0;
    for (int i = 0; i < 300 && !said; i++) { /* 3 s: the timeout is 0.6 s */
        usleep(10000);
        FILE *f = fopen(log, "r");
        size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
        text[n] = '\0';
        if (f)
            fclose(f);
        said = strstr(text, "rcss-netgw 1 of 2 (server::netgw_processes) has not attached")
               != NULL;
    }
    cr_expect(said, "the sim did not name the missing netgw: %s", text);
    cr_expect(strstr(text, "rcss-netgw 0 of 2") == NULL, "netgw 0 is there: %s", text);
    static char body[65536];
    cr_assert_eq(e2e_http_get(http, "/status", body, sizeof body), 200);
    json_error_t err;
    json_t *st = json_loads(body, 0, &err);
    cr_assert_not_null(st, "%s", err.text);
    json_t *gws = json_object_get(st, "gateways");
    cr_assert(json_is_array(gws));
    const char *want[][2] = { { "netgw0", "up" }, { "netgw1", "missing" }, { "monitorgw", "up" },
                              { "recorder", "off" } };
    cr_assert_eq(json_array_size(gws), 4u);
    for (size_t i = 0; i < 4; i++) {
        json_t *g = json_array_get(gws, i);
        cr_expect_str_eq(json_string_value(json_object_get(g, "name")), want[i][0]);
        cr_expect_str_eq(json_string_value(json_object_get(g, "state")), want[i][1],
                         "%s", want[i][0]);
    }
    json_decref(st);
    kill(sim, SIGTERM);
    cr_expect_eq(es_wait(sim, 5000), 0, "the sim stopped cleanly");
    cr_expect_geq(es_wait(g0, 5000), 0, "netgw left");
    cr_expect_geq(es_wait(m, 5000), 0, "monitorgw left");
    unlink(log);
    unlink(glog);
    unlink(mlog);
}
