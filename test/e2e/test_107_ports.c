/* test_107_ports.c -- issue 12 item 8: when a port is taken the server exits with one
 * clear error and status 2, never restarting a gateway in a loop: at start (the game
 * port, the trainer port, the http port), and while running (the game port taken
 * between a netgw's death and its restart: the new netgw cannot bind, says so, and the
 * sim stops with status 2 instead of restarting it). */
#include <criterion/criterion.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "e2e_safety.h"

static char out[65536], err[65536];

static int hold_port(int port, int type)
{
    int fd = socket(AF_INET, type, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) < 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (type == SOCK_STREAM)
        listen(fd, 1);
    return fd;
}

/* free ports and a private name: those of a server started and stopped */
static e2e_server_t fresh(void)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    e2e_server_t copy = s;
    cr_assert_eq(e2e_server_stop(&s), 0);
    return copy;
}

static void expect_refused(const e2e_server_t *s, const char *const *extra, const char *what)
{
    int rc = es_run(es_server_args(s, extra), "/tmp", out, sizeof out, err, sizeof err, 15000);
    cr_expect_eq(rc, 2, "%s: exit status %d: %s", what, rc, err);
    cr_expect_eq(es_lines(err), 1, "%s: one line: %s", what, err);
    cr_expect(strstr(err, "already in use") != NULL, "%s: %s", what, err);
    cr_expect_not(es_shm_exists(s->shm_name), "%s: a region was created", what);
}

Test(ports, taken_at_start, .timeout = 90)
{
    e2e_server_t s = fresh();
    int fd = hold_port(s.port, SOCK_DGRAM);
    cr_assert_geq(fd, 0);
    expect_refused(&s, NULL, "game port");
    close(fd);
    fd = hold_port(s.coach_port, SOCK_DGRAM);
    cr_assert_geq(fd, 0);
    expect_refused(&s, NULL, "trainer port");
    close(fd);
    /* the browser monitor's TCP port */
    int h = hold_port(0, SOCK_STREAM);
    struct sockaddr_in a;
    socklen_t l = sizeof a;
    getsockname(h, (struct sockaddr *)&a, &l);
    char arg[64];
    snprintf(arg, sizeof arg, "server::http_port=%d", ntohs(a.sin_port));
    const char *extra[] = { arg, NULL };
    expect_refused(&s, extra, "http port");
    close(h);
}

Test(ports, taken_while_running, .timeout = 90)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    pid_t ngw = es_slot_pid(&s, 0);
    cr_assert_gt(ngw, 0);
    /* the sim stopped, so it cannot restart the netgw before we take its port */
    kill(s.pid, SIGSTOP);
    kill(ngw, SIGKILL);
    int fd = -1;
    for (int i = 0; i < 200 && fd < 0; i++) {
        fd = hold_port(s.port, SOCK_DGRAM);
        if (fd < 0)
            usleep(10000);
    }
    cr_assert_geq(fd, 0, "the dead netgw's port never became free");
    kill(s.pid, SIGCONT);
    char log[65536];
    int rc = e2e_server_wait(&s, 20000, log, sizeof log);
    cr_expect_eq(rc, 2, "exit status %d: %s", rc, log);
    /* one attempt, one message from the netgw, one from the sim: no restart loop */
    int binds = 0;
    for (const char *p = log; (p = strstr(p, "cannot bind UDP port")) != NULL; p++)
        binds++;
    cr_expect_eq(binds, 1, "the netgw was started %d times: %s", binds, log);
    cr_expect(strstr(log, "stopping the server") != NULL, "%s", log);
    close(fd);
}
