/* test_150_synch_fanout.c -- performance work (issue 14) that changes behaviour:
 * a synch-mode server stepping as fast as 22 trivial players (rcss-benchplayers) let
 * it still gives every one of 500 monitors every frame (the sim waits for monitorgw's
 * fan-out when it falls SIM_MGW_LAG snapshots behind, instead of monitorgw jumping
 * ahead); a stopped monitorgw holds the sim up for at most 2 s; and with two netgw
 * processes (players spread over both by the kernel) the synch wait still ends at
 * every cycle (a (done) wakes the sim only when it is the last one it waits for, from
 * whichever gateway). */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_proc.h"

#define NMON 500

static char buf[65536];
static e2e_proc_t players;

static void raise_fd_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

static const char *const synch_args[] = { "server::synch_mode=true", "server::auto_mode=true",
                                          "server::kick_off_wait=1", NULL };

/* n players (BenchL, BenchR alternately) that answer every (think) at once */
static void start_players(const e2e_server_t *s, const char *n)
{
    char port[16], line[256];
    snprintf(port, sizeof port, "%d", s->port);
    const char *argv[] = { "rcss-benchplayers", port, n, NULL };
    cr_assert_eq(e2e_proc_start(&players, argv), 0);
    cr_assert(e2e_proc_expect(&players, "connected", line, sizeof line, 10000),
              "the players did not connect");
}

/* n v3 monitors registered; an epoll fd watching them */
static int monitors(const e2e_server_t *s, int *fd, int n)
{
    int ep = epoll_create1(0);
    for (int i = 0; i < n; i++) {
        fd[i] = e2e_udp_open();
        cr_assert_geq(fd[i], 0, "socket %d: %s", i, strerror(errno));
        int big = 4 << 20;
        setsockopt(fd[i], SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof big);
        setsockopt(fd[i], SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
        struct epoll_event e = { .events = EPOLLIN, .data.u32 = (uint32_t)i };
        epoll_ctl(ep, EPOLL_CTL_ADD, fd[i], &e);
        e2e_send(fd[i], s->port, "(dispinit version 3)");
    }
    return ep;
}

/* read until every monitor saw time `last`; frames of times from..last counted */
static void follow(int ep, const int *fd, int n, int from, int last, int *got)
{
    static int seen[NMON];
    memset(seen, 0, sizeof seen);
    int done = 0;
    double end = e2e_now_ms() + 120000;
    while (done < n && e2e_now_ms() < end) {
        struct epoll_event ev[64];
        int k = epoll_wait(ep, ev, 64, 1000);
        for (int j = 0; j < k; j++) {
            int i = (int)ev[j].data.u32, m, t;
            while ((m = (int)recv(fd[i], buf, sizeof buf - 1, MSG_DONTWAIT)) > 0) {
                buf[m] = '\0';
                if (sscanf(buf, "(show %d ", &t) != 1 || t < from || t > last || t < seen[i])
                    continue; /* not in the window, or a time already seen */
                got[i]++;
                seen[i] = t + 1;
                if (t == last)
                    done++;
            }
        }
    }
    cr_expect_eq(done, n, "%d of %d monitors reached time %d", done, n, last);
}

Test(synch_fanout, every_monitor_gets_every_frame_at_full_speed, .timeout = 240)
{
    static int fd[NMON], got[NMON];
    raise_fd_limit();
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, synch_args), 0);
    int ep = monitors(&s, fd, NMON);
    start_players(&s, "22");
    /* 400 cycles of play as fast as the slowest part allows */
    follow(ep, fd, NMON, 20, 419, got);
    int fewest = 0;
    for (int i = 0; i < NMON; i++)
        if (got[i] < got[fewest])
            fewest = i;
    cr_expect_eq(got[fewest], 400, "monitor %d got %d of the 400 frames", fewest, got[fewest]);
    e2e_proc_stop(&players);
    close(ep);
    for (int i = 0; i < NMON; i++)
        close(fd[i]);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

/* the newest game time a monitor shows within ms */
static int newest_time(int fd, int ms)
{
    int t = -1, x;
    double end = e2e_now_ms() + ms;
    while (e2e_now_ms() < end) {
        if (e2e_recv(fd, buf, sizeof buf, 50, NULL) > 0 && sscanf(buf, "(show %d ", &x) == 1)
            t = x;
    }
    return t;
}

/* the watching player answers its (think)s until its sense_body shows time `until`
 * (or ms pass); the last time seen */
static int watch_until(int fd, int port, int until, int ms)
{
    int t = -1, x;
    double end = e2e_now_ms() + ms;
    while (t < until && e2e_now_ms() < end) {
        if (e2e_recv(fd, buf, sizeof buf, 100, NULL) <= 0)
            continue;
        if (strcmp(buf, "(think)") == 0)
            e2e_send(fd, port, "(done)");
        else if (sscanf(buf, "(sense_body %d ", &x) == 1)
            t = x;
    }
    return t;
}

Test(synch_fanout, a_stopped_monitorgw_holds_the_sim_for_two_seconds_at_most, .timeout = 120)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, synch_args), 0);
    int mon = e2e_udp_open(); /* attached, never read */
    e2e_send(mon, s.port, "(dispinit version 3)");
    start_players(&s, "21");
    /* the 22nd player watches the game time through its sense_body */
    int watch = e2e_udp_open(), port = 0;
    e2e_send(watch, s.port, "(init BenchR (version 19))");
    cr_assert_gt(e2e_recv_prefix(watch, "(init ", buf, sizeof buf, 5000, &port), 0);
    int t0 = watch_until(watch, port, 10, 20000);
    cr_assert_geq(t0, 10, "the match runs");
    pid_t mgw = e2e_monitorgw_pid(&s);
    cr_assert_gt(mgw, 0);
    kill(mgw, SIGSTOP);
    /* monitorgw falls SIM_MGW_LAG behind at once; the sim waits 2 s, then goes on */
    int t1 = watch_until(watch, port, t0 + 200, 10000);
    kill(mgw, SIGCONT);
    cr_expect_geq(t1, t0 + 200, "the sim went on without monitorgw (cycle %d to %d)", t0, t1);
    int t2 = watch_until(watch, port, t1 + 100, 10000);
    cr_expect_geq(t2, t1 + 100, "and after it came back");
    close(watch);
    close(mon);
    e2e_proc_stop(&players);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(synch_fanout, two_gateways_step_every_cycle, .timeout = 120)
{
    static const char *const args[] = { "server::synch_mode=true", "server::auto_mode=true",
                                        "server::kick_off_wait=1", "server::netgw_processes=2",
                                        NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    pid_t gw[4];
    cr_assert_eq(e2e_netgw_pids(&s, gw, 4), 2);
    int mon = e2e_udp_open();
    e2e_send(mon, s.port, "(dispinit version 3)");
    start_players(&s, "22");
    /* 500 cycles, every wait ended by the players' (done)s, none by synch_timeout */
    int t = -1;
    for (int k = 0; k < 600 && t < 500; k++)
        t = newest_time(mon, 100);
    cr_expect_geq(t, 500, "the match reached cycle %d", t);
    e2e_proc_stop(&players);
    close(mon);
    FILE *f = fopen(s.log, "r"); /* the server's log, before stop removes it */
    cr_assert_not_null(f);
    int missed = 0;
    while (fgets(buf, sizeof buf, f))
        missed += strstr(buf, "missed a cycle") != NULL;
    fclose(f);
    cr_expect_eq(missed, 0, "%d synch waits ended by the timeout", missed);
    cr_expect_eq(e2e_server_stop(&s), 0);
}
