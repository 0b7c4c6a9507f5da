/* test_061_monitor_scale.c -- many monitors at once (issue 9): a burst of 1,000
 * dispinits sent as fast as a loop can send them is answered 1,000 times (no
 * connection_failed from an internal queue); 1,000 monitors each receive every frame of
 * a running match (consecutive times, none missing); a monitor that stops reading
 * changes nothing for the others. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "e2e.h"

#define N 1000

static char buf[65536];

static void raise_fd_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

/* N monitors, all registered with one burst of (dispinit version v); every one must get
 * its (server_param ...) from monitorgw. Returns the epoll fd watching them. */
static int burst(const e2e_server_t *s, int *fd, int *port, int v)
{
    char init[32];
    snprintf(init, sizeof init, "(dispinit version %d)", v);
    int ep = epoll_create1(0);
    cr_assert_geq(ep, 0);
    for (int i = 0; i < N; i++) {
        fd[i] = e2e_udp_open();
        cr_assert_geq(fd[i], 0, "socket %d: %s", i, strerror(errno));
        int big = 1 << 20;
        setsockopt(fd[i], SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
        struct epoll_event e = { .events = EPOLLIN, .data.u32 = (uint32_t)i };
        epoll_ctl(ep, EPOLL_CTL_ADD, fd[i], &e);
    }
    for (int i = 0; i < N; i++) /* the burst: no waiting between sends */
        e2e_send(fd[i], s->port, init);
    int answered = 0;
    static int got[N];
    memset(got, 0, sizeof got);
    double end = e2e_now_ms() + 20000;
    while (answered < N && e2e_now_ms() < end) {
        struct epoll_event ev[64];
        int k = epoll_wait(ep, ev, 64, 500);
        for (int j = 0; j < k; j++) {
            int i = (int)ev[j].data.u32;
            if (got[i])
                continue;
            int n = e2e_recv(fd[i], buf, sizeof buf, 0, &port[i]);
            if (n > 0 && strncmp(buf, "(server_param ", 14) == 0)
                got[i] = 1, answered++;
            else if (n > 0) /* a stray datagram (another program on the machine) */
                cr_log_warn("monitor %d: %.60s", i, buf);
        }
    }
    cr_expect_eq(answered, N, "%d of %d dispinits answered", answered, N);
    return ep;
}

/* read every monitor until each has seen frame times up to last; per monitor the
 * times must be consecutive from its first frame after `from` */
static void follow(int ep, const int *fd, int from, int last, int *missing)
{
    static int next[N];
    for (int i = 0; i < N; i++)
        next[i] = -1;
    int done = 0;
    double end = e2e_now_ms() + 60000;
    while (done < N && e2e_now_ms() < end) {
        struct epoll_event ev[64];
        int k = epoll_wait(ep, ev, 64, 1000);
        for (int j = 0; j < k; j++) {
            int i = (int)ev[j].data.u32;
            int n, t;
            while ((n = (int)recv(fd[i], buf, sizeof buf - 1, MSG_DONTWAIT)) > 0) {
                buf[n] = '\0';
                if (sscanf(buf, "(show %d ", &t) != 1 || t < from || next[i] > last)
                    continue;
                if (next[i] < 0)
                    next[i] = t;
                if (t != next[i])
                    missing[i] += t - next[i];
                next[i] = t + 1;
                if (t == last)
                    done++;
            }
        }
    }
    cr_expect_eq(done, N, "%d of %d monitors reached time %d", done, N, last);
}

Test(monitor_scale, burst_of_1000_dispinits_all_answered, .timeout = 120)
{
    static int fd[N], port[N];
    raise_fd_limit();
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    int ep = burst(&s, fd, port, 3);
    int same = 0;
    for (int i = 0; i < N; i++)
        same += port[i] == s.port;
    cr_expect_eq(same, 0, "every monitor answered from its own port");
    close(ep);
    for (int i = 0; i < N; i++)
        close(fd[i]);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(monitor_scale, thousand_monitors_get_every_frame, .timeout = 180)
{
    static int fd[N], port[N], missing[N];
    raise_fd_limit();
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    int ep = burst(&s, fd, port, 3);
    /* a stalled monitor: registered, a tiny receive buffer, never read */
    int stalled = e2e_udp_open(), tiny = 1024;
    setsockopt(stalled, SOL_SOCKET, SO_RCVBUFFORCE, &tiny, sizeof tiny);
    setsockopt(stalled, SOL_SOCKET, SO_RCVBUF, &tiny, sizeof tiny);
    e2e_send(stalled, s.port, "(dispinit version 5)");
    e2e_send(fd[0], port[0], "(dispstart)");
    /* 30 cycles of play: every monitor gets every one of them */
    follow(ep, fd, 1, 30, missing);
    int lost = 0, worst = 0;
    for (int i = 0; i < N; i++) {
        lost += missing[i];
        if (missing[i] > missing[worst])
            worst = i;
    }
    cr_expect_eq(lost, 0, "%d frames missing (monitor %d: %d)", lost, worst, missing[worst]);
    close(stalled);
    close(ep);
    for (int i = 0; i < N; i++)
        close(fd[i]);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(monitor_scale, a_monitor_that_stops_reading_delays_nobody, .timeout = 60)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    int reader = e2e_udp_open(), port = 0;
    int stalled[4];
    for (int k = 0; k < 4; k++) { /* JSON frames are the largest: they fill it first */
        stalled[k] = e2e_udp_open();
        int tiny = 1024;
        setsockopt(stalled[k], SOL_SOCKET, SO_RCVBUF, &tiny, sizeof tiny);
        e2e_send(stalled[k], s.port, "(dispinit version -1)");
    }
    e2e_send(reader, s.port, "(dispinit version 3)");
    cr_assert_gt(e2e_recv_prefix(reader, "(show ", buf, sizeof buf, 2000, &port), 0);
    e2e_send(reader, port, "(dispstart)");
    int prev = -1, t;
    while (prev < 1) {
        cr_assert_gt(e2e_recv_prefix(reader, "(show ", buf, sizeof buf, 2000, NULL), 0);
        sscanf(buf, "(show %d ", &prev);
    }
    /* 50 cycles: the reader sees every one, in order, while the others never read */
    for (int k = 0; k < 50; k++) {
        cr_assert_gt(e2e_recv_prefix(reader, "(show ", buf, sizeof buf, 2000, NULL), 0);
        cr_assert_eq(sscanf(buf, "(show %d ", &t), 1);
        cr_assert_eq(t, prev + 1, "frame %d after %d", t, prev);
        prev = t;
    }
    for (int k = 0; k < 4; k++)
        close(stalled[k]);
    close(reader);
    cr_expect_eq(e2e_server_stop(&s), 0);
}
