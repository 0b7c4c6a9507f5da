/* test_064_players_first.c -- in real time the players' path comes first (README "Tests
 * and benchmarks", docs/ARCHITECTURE.md "Players first"):
 *
 *  - players_first/monitors_after_sense_body: one v19 player (and one of the other team,
 *    so that auto_mode kicks off) and one text monitor (v3)
 *    on sockets with the kernel's arrival time stamps (SO_TIMESTAMPNS) watch 30 cycles
 *    of play in real time; for every cycle the monitor's (show T) arrives after the
 *    player's (sense_body T), but where /status `players_first.timeouts` says monitorgw
 *    stopped waiting for the gateway; /status counts the waits; monitorgw runs at
 *    server::monitorgw_nice (10) above the nice value of the test.
 *  - players_first/real_time_priority: with server::rt_priority=7 in real time the sim
 *    and the player gateway run SCHED_FIFO at 7 (without the permission: one warning
 *    line and the normal scheduler), monitorgw and the recorder on the normal scheduler;
 *    in synch mode nobody does. */
#include <criterion/criterion.h>
#include <errno.h>
#include <jansson.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_runner.h"

#define CYCLES 30
#define FROM   3 /* the first cycles after the kick-off are left out (joining) */

static int stamped_socket(void)
{
    int fd = e2e_udp_open();
    int on = 1;
    cr_assert_geq(fd, 0);
    cr_assert_eq(setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on), 0);
    return fd;
}

/* one datagram and its arrival time stamp (ns), 0 if none within timeout_ms */
static ssize_t recv_stamped(int fd, char *buf, size_t len, int64_t *ts, int timeout_ms)
{
    struct pollfd p = { .fd = fd, .events = POLLIN };
    if (poll(&p, 1, timeout_ms) <= 0)
        return 0;
    char ctl[CMSG_SPACE(sizeof(struct timespec))];
    struct iovec iov = { buf, len - 1 };
    struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
                        .msg_controllen = sizeof ctl };
    ssize_t n = recvmsg(fd, &m, 0);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    *ts = 0;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
            struct timespec t;
            memcpy(&t, CMSG_DATA(c), sizeof t);
            *ts = (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
        }
    }
    return n;
}

static json_t *status(const e2e_srv_t *p)
{
    static char body[1 << 17];
    cr_assert_eq(e2e_http_get(p->http_port, "/status", body, sizeof body), 200);
    json_error_t e;
    json_t *j = json_loads(body, 0, &e);
    cr_assert_not_null(j, "/status: %s", e.text);
    return j;
}

/* the pid of gateway `name` (netgw0, monitorgw, recorder) in /status */
static pid_t gateway_pid(json_t *st, const char *name)
{
    size_t i;
    json_t *g;
    json_array_foreach(json_object_get(st, "gateways"), i, g) {
        if (!strcmp(json_string_value(json_object_get(g, "name")), name))
            return (pid_t)json_integer_value(json_object_get(g, "pid"));
    }
    return 0;
}

Test(players_first, monitors_after_sense_body, .timeout = 60)
{
    e2e_srv_t p;
    const char *args[] = { "server::port=0", "server::coach_port=0", "server::olcoach_port=0",
                           "server::http_port=-1", "server::auto_mode=true",
                           "server::kick_off_wait=1", "server::connect_wait=1", NULL };
    cr_assert_eq(e2e_srv_start(&p, args, NULL), 0);
    int pl = stamped_socket(), mon = stamped_socket();
    char buf[8192];
    int64_t ts, sb[FROM + CYCLES + 1] = { 0 }, show[FROM + CYCLES + 1] = { 0 };
    e2e_send(mon, p.port, "(dispinit version 3)");
    e2e_send(pl, p.port, "(init Firsts (version 19))");
    int port = 0, other = e2e_udp_open(); /* a right team, so that auto_mode kicks off */
    cr_assert_gt(e2e_recv_prefix(pl, "(init l 1 ", buf, sizeof buf, 3000, &port), 0);
    e2e_send(other, p.port, "(init Seconds (version 19))");
    cr_assert_gt(e2e_recv_prefix(other, "(init r 1 ", buf, sizeof buf, 3000, &port), 0);
    /* both sockets until the monitor has shown cycle FROM + CYCLES */
    int64_t until = (int64_t)e2e_now_ms() + 20000;
    while (!show[FROM + CYCLES] && (int64_t)e2e_now_ms() < until) {
        struct pollfd f[2] = { { .fd = pl, .events = POLLIN }, { .fd = mon, .events = POLLIN } };
        if (poll(f, 2, 500) <= 0)
            continue;
        for (int k = 0; k < 2; k++) {
            if (!(f[k].revents & POLLIN) || recv_stamped(f[k].fd, buf, sizeof buf, &ts, 0) <= 0)
                continue;
            int t = -1;
            if (k == 0 && sscanf(buf, "(sense_body %d ", &t) == 1 && t >= FROM
                && t <= FROM + CYCLES && !sb[t])
                sb[t] = ts;
            if (k == 1 && sscanf(buf, "(show %d ", &t) == 1 && t >= FROM && t <= FROM + CYCLES
                && !show[t])
                show[t] = ts;
        }
    }
    cr_assert_neq(show[FROM + CYCLES], 0, "the monitor saw %d cycles of play", CYCLES);
    json_t *st = status(&p);
    json_t *pf = json_object_get(st, "players_first");
    long waits = (long)json_integer_value(json_object_get(pf, "waits"));
    long timeouts = (long)json_integer_value(json_object_get(pf, "timeouts"));
    int before = 0, both = 0;
    for (int t = FROM; t <= FROM + CYCLES; t++) {
        if (!sb[t] || !show[t])
            continue;
        both++;
        if (show[t] < sb[t]) {
            before++;
            cr_log_info("cycle %d: the show %.3f ms before the sense_body", t,
                        (double)(sb[t] - show[t]) / 1e6);
        }
    }
    cr_log_info("%d cycles with both, shows before the sense_body %d; waits %ld, timeouts %ld",
                both, before, waits, timeouts);
    cr_expect_geq(both, CYCLES - 2, "the player and the monitor got the same cycles");
    cr_expect_leq(before, timeouts, "a show came before its sense_body without a timeout");
    cr_expect_gt(waits, 0, "monitorgw waited for the players' gateway");
    /* monitorgw: nice 10 above ours */
    pid_t mgw = gateway_pid(st, "monitorgw");
    cr_assert_gt(mgw, 0);
    errno = 0;
    int ours = getpriority(PRIO_PROCESS, 0), its = getpriority(PRIO_PROCESS, (id_t)mgw);
    cr_expect_eq(its, ours + 10 > 19 ? 19 : ours + 10, "monitorgw's nice %d, ours %d", its, ours);
    json_decref(st);
    close(pl);
    close(mon);
    close(other);
    cr_expect_eq(e2e_srv_stop(&p), 0);
    e2e_srv_clean(&p);
}

/* may this process use SCHED_FIFO (as the server, its child, would)? */
static int may_use_fifo(void)
{
    struct rlimit rl;
    if (geteuid() == 0)
        return 1;
    return getrlimit(RLIMIT_RTPRIO, &rl) == 0 && rl.rlim_cur >= 7;
}

static void check_policies(int synch)
{
    e2e_srv_t p;
    const char *args[] = { "server::port=0", "server::coach_port=0", "server::olcoach_port=0",
                           "server::http_port=-1", "server::rt_priority=7",
                           "server::game_logging=true",
                           synch ? "server::synch_mode=true" : "server::synch_mode=false", NULL };
    cr_assert_eq(e2e_srv_start(&p, args, NULL), 0);
    json_t *st = status(&p);
    pid_t sim = (pid_t)json_integer_value(json_object_get(json_object_get(st, "sim"), "pid"));
    pid_t ngw = gateway_pid(st, "netgw0"), mgw = gateway_pid(st, "monitorgw"),
          rec = gateway_pid(st, "recorder");
    cr_assert(sim > 0 && ngw > 0 && mgw > 0 && rec > 0, "pids %d %d %d %d", sim, ngw, mgw, rec);
    int fifo = !synch && may_use_fifo();
    const pid_t rt[2] = { sim, ngw }, normal[2] = { mgw, rec };
    for (int i = 0; i < 2; i++) {
        int pol = sched_getscheduler(rt[i]) & ~SCHED_RESET_ON_FORK;
        cr_expect_eq(pol, fifo ? SCHED_FIFO : SCHED_OTHER, "%s: policy %d",
                     i ? "netgw" : "sim", pol);
        struct sched_param sp;
        if (fifo && sched_getparam(rt[i], &sp) == 0)
            cr_expect_eq(sp.sched_priority, 7);
        pol = sched_getscheduler(normal[i]);
        cr_expect_eq(pol, SCHED_OTHER, "%s: policy %d", i ? "recorder" : "monitorgw", pol);
    }
    json_decref(st);
    cr_expect_eq(e2e_srv_stop(&p), 0);
    char out[1 << 16];
    e2e_srv_output(&p, out, sizeof out);
    if (!synch && !fifo)
        cr_expect_not_null(strstr(out, "cannot run at real-time priority 7"), "%s", out);
    else
        cr_expect_null(strstr(out, "real-time priority"), "%s", out);
    e2e_srv_clean(&p);
}

Test(players_first, real_time_priority, .timeout = 60)
{
    check_policies(0);
    check_policies(1);
}
