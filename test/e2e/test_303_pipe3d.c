/* test_303_pipe3d.c -- the manual's pipe mode end to end: the server starts the agents of
 * server::agent_list itself (two teams of two sample agents), talks to them over socket
 * pairs, their robots play, and at the end every agent process is gone (stopped by pid).
 * A bad agent list is reported and the server runs on. */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "e2e.h"
#include "e2e3d.h"

static char rbuf[1 << 16];

static int count(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

/* the server runs on: a new monitor connection gets its frames */
static int runs_on(const e2e3d_server_t *s)
{
    int fd = e2e3d_monitor(s->monitor_port);
    if (fd < 0)
        return 0;
    frame_reader_t r;
    frame_reader_init(&r, rbuf, sizeof rbuf);
    const char *m;
    int ok = e2e3d_recv_prefix(fd, &r, "(Info ", 3000, &m) == 1
             && e2e3d_recv_prefix(fd, &r, "(Info ", 3000, &m) == 1;
    close(fd);
    return ok;
}

static void write_list(char *path, size_t len, const char *body)
{
    snprintf(path, len, "/tmp/rcss3d-list-%d", (int)getpid());
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs(body, f);
    fclose(f);
}

Test(pipe3d, agents_from_the_list, .timeout = 60)
{
    char path[64], body[2048], arg[128];
    const char *bin = getenv("RCSS_BIN_DIR") ? getenv("RCSS_BIN_DIR") : "build/bin";
    snprintf(body, sizeof body,
             "# two teams of two\n%s/rcss3d-agent --team Piped\n%s/rcss3d-agent --team Piped\n"
             "%s/rcss3d-agent --team Other --unum 9\n'%s/rcss3d-agent' --team Other\n",
             bin, bin, bin, bin);
    write_list(path, sizeof path, body);
    snprintf(arg, sizeof arg, "server::agent_list=%s", path);
    const char *args[] = { arg, NULL };
    e2e3d_server_t s;
    cr_assert_eq(e2e3d_start(&s, args), 0);
    int mon = e2e3d_monitor(s.monitor_port);
    frame_reader_t r;
    frame_reader_init(&r, rbuf, sizeof rbuf);
    const char *m;
    int four = 0, played = 0;
    for (int i = 0; i < 200 && !played; i++) {
        cr_assert_eq(e2e3d_recv_prefix(mon, &r, "(Info ", 3000, &m), 1);
        four |= count(m, "(P ") == 4;
        played = four && strstr(m, "(play_mode 3)") != NULL;
    }
    cr_expect(four, "four robots");
    cr_expect(played, "kicked off and playing");
    pid_t agw, mgw, pids[8];
    int n = e2e3d_region_pids(&s, &agw, &mgw, pids, 8);
    cr_expect_eq(n, 4, "four pipe agents in the agent table");
    for (int i = 0; i < n; i++)
        cr_expect_eq(kill(pids[i], 0), 0, "agent %d runs", (int)pids[i]);
    close(mon);
    cr_expect_eq(e2e3d_stop(&s), 0);
    for (int i = 0; i < n; i++)
        cr_expect(kill(pids[i], 0) < 0 && errno == ESRCH, "agent %d stopped", (int)pids[i]);
    char *log = e2e3d_read_file(&s, "server.log");
    cr_assert(log);
    cr_expect(strstr(log, "started 4 agents from") != NULL);
    free(log);
    unlink(path);
    e2e3d_cleanup(&s);
}

Test(pipe3d, bad_lists, .timeout = 60)
{
    char path[64], arg[128];
    write_list(path, sizeof path, "/nonexistent/agent --team X\nrcss3d-agent 'unterminated\n");
    snprintf(arg, sizeof arg, "server::agent_list=%s", path);
    const char *args[] = { arg, NULL };
    e2e3d_server_t s;
    cr_assert_eq(e2e3d_start(&s, args), 0);
    /* the list is read at start; the checks below say what never came */
    e2e3d_wait_file(&s, "server.log", "line 2: unterminated quote", 5000);
    char *log = e2e3d_read_file(&s, "server.log");
    cr_assert(log);
    cr_expect(strstr(log, "line 2: unterminated quote") != NULL, "%s", log);
    free(log);
    cr_expect(runs_on(&s), "no frames after the bad list");
    write_list(path, sizeof path, "/nonexistent/agent --team X\n");
    cr_expect_eq(e2e3d_stop(&s), 0, "the server ran on");
    e2e3d_cleanup(&s);
    cr_assert_eq(e2e3d_start(&s, args), 0);
    /* the failed start is logged, then the child's end when it is reaped */
    e2e3d_wait_file(&s, "server.log", "cannot start /nonexistent/agent", 5000);
    e2e3d_wait_file(&s, "server.log", "exit status 127", 5000);
    log = e2e3d_read_file(&s, "server.log");
    cr_expect(strstr(log, "cannot start /nonexistent/agent") != NULL, "%s", log);
    cr_expect(strstr(log, "exit status 127") != NULL, "reaped: %s", log);
    free(log);
    cr_expect(runs_on(&s), "no frames after the failed agent");
    cr_expect_eq(e2e3d_stop(&s), 0);
    unlink(path);
    e2e3d_cleanup(&s);
}
