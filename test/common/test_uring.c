/* test_uring.c -- batched sends through io_uring (uring.c) on 127.0.0.1: every socket's
 * datagrams arrive in the order queued, each result comes back with its tag, a refused
 * send fails alone, a full ring submits by itself, RCSS_NO_URING turns it off. Skipped
 * only where the kernel itself has no io_uring for us (ENOSYS, EPERM; EINVAL: older than
 * 5.18), where the gateways use their plain sends. */
#include <criterion/criterion.h>
#include <arpa/inet.h>
#include <errno.h>
#include <linux/io_uring.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "uring.h"

static uring_t *open_or_skip(unsigned entries)
{
    char err[128];
    uring_t *u = uring_open(entries, err, sizeof err);
    if (!u) {
        struct io_uring_params p;
        memset(&p, 0, sizeof p);
        p.flags = IORING_SETUP_SUBMIT_ALL;
        long fd = syscall(__NR_io_uring_setup, 4, &p);
        if (fd < 0 && (errno == ENOSYS || errno == EPERM || errno == EINVAL))
            cr_skip_test("this kernel gives us no io_uring (or one older than 5.18): %s", err);
        if (fd >= 0)
            close((int)fd);
        cr_assert_fail("uring_open: %s", err);
    }
    return u;
}

/* a receiving socket on 127.0.0.1 and a socket connected to it */
static void pair(int *rx, int *tx)
{
    struct sockaddr_in a = { .sin_family = AF_INET };
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    *rx = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
    cr_assert_eq(bind(*rx, (struct sockaddr *)&a, sizeof a), 0);
    socklen_t l = sizeof a;
    getsockname(*rx, (struct sockaddr *)&a, &l);
    *tx = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
    cr_assert_eq(connect(*tx, (struct sockaddr *)&a, sizeof a), 0);
}

typedef struct results {
    int      n;
    uint64_t tag[64];
    int      res[64];
} results_t;

static void on_done(void *arg, uint64_t tag, int res)
{
    results_t *r = arg;
    cr_assert_lt(r->n, 64);
    r->tag[r->n] = tag;
    r->res[r->n] = res;
    r->n++;
}

static int recv_text(int fd, char *buf, size_t len)
{
    struct pollfd p = { .fd = fd, .events = POLLIN };
    if (poll(&p, 1, 1000) <= 0)
        return -1;
    ssize_t n = recv(fd, buf, len - 1, 0);
    if (n < 0)
        return -1;
    buf[n] = '\0';
    return (int)n;
}

Test(uring, sends_in_order_on_many_sockets)
{
    uring_t *u = open_or_skip(64);
    int rx[3], tx[3];
    for (int s = 0; s < 3; s++)
        pair(&rx[s], &tx[s]);
    static char msg[3][5][32];
    results_t r = { 0 };
    for (int k = 0; k < 5; k++) /* interleaved over the sockets, as a gateway's cycle is */
        for (int s = 0; s < 3; s++) {
            int n = snprintf(msg[s][k], sizeof msg[s][k], "(socket %d message %d)", s, k);
            uring_send(u, tx[s], msg[s][k], (size_t)n + 1, (uint64_t)(s * 10 + k), on_done, &r);
        }
    cr_expect_eq(uring_pending(u), 15);
    cr_assert_eq(uring_submit(u, on_done, &r), 15);
    cr_expect_eq(uring_pending(u), 0);
    cr_assert_eq(r.n, 15);
    int seen[30] = { 0 };
    for (int i = 0; i < r.n; i++) {
        cr_expect_eq(r.res[i], (int)strlen(msg[r.tag[i] / 10][r.tag[i] % 10]) + 1);
        seen[r.tag[i]]++;
    }
    for (int s = 0; s < 3; s++)
        for (int k = 0; k < 5; k++) {
            cr_expect_eq(seen[s * 10 + k], 1);
            char buf[64];
            cr_assert_eq(recv_text(rx[s], buf, sizeof buf), (int)strlen(msg[s][k]) + 1);
            cr_expect_str_eq(buf, msg[s][k]);
        }
    cr_expect_eq(uring_submit(u, on_done, &r), 0); /* nothing queued: no call */
    for (int s = 0; s < 3; s++) {
        close(rx[s]);
        close(tx[s]);
    }
    uring_close(u);
}

Test(uring, a_refused_send_fails_alone)
{
    uring_t *u = open_or_skip(16);
    int rx, tx, rx2, tx2;
    pair(&rx, &tx);
    pair(&rx2, &tx2);
    close(rx); /* nobody there: the first datagram draws a port unreachable */
    cr_expect_eq(send(tx, "x", 1, 0), 1);
    usleep(20000);
    results_t r = { 0 };
    uring_send(u, tx, "(refused)", 10, 1, on_done, &r);
    uring_send(u, tx2, "(delivered)", 12, 2, on_done, &r);
    cr_assert_eq(uring_submit(u, on_done, &r), 2);
    cr_assert_eq(r.n, 2);
    for (int i = 0; i < 2; i++) {
        if (r.tag[i] == 1)
            cr_expect_eq(r.res[i], -ECONNREFUSED);
        else
            cr_expect_eq(r.res[i], 12);
    }
    char buf[32];
    cr_expect_eq(recv_text(rx2, buf, sizeof buf), 12);
    cr_expect_str_eq(buf, "(delivered)");
    close(tx);
    close(rx2);
    close(tx2);
    uring_close(u);
}

Test(uring, a_full_ring_submits_by_itself)
{
    uring_t *u = open_or_skip(4);
    int rx, tx;
    pair(&rx, &tx);
    static char msg[10][16];
    results_t r = { 0 };
    for (int k = 0; k < 10; k++) {
        snprintf(msg[k], sizeof msg[k], "(m %d)", k);
        uring_send(u, tx, msg[k], strlen(msg[k]) + 1, (uint64_t)k, on_done, &r);
    }
    cr_expect_eq(r.n, 8); /* two full rings went out while queueing */
    cr_expect_eq(uring_pending(u), 2);
    cr_assert_eq(uring_submit(u, on_done, &r), 2);
    cr_assert_eq(r.n, 10);
    for (int k = 0; k < 10; k++) {
        char buf[32];
        cr_assert_eq(recv_text(rx, buf, sizeof buf), (int)strlen(msg[k]) + 1);
        cr_expect_str_eq(buf, msg[k]);
        cr_expect_eq(r.res[k], (int)strlen(msg[k]) + 1);
    }
    close(rx);
    close(tx);
    uring_close(u);
}

Test(uring, turned_off_by_the_environment)
{
    char err[128] = "";
    setenv("RCSS_NO_URING", "1", 1);
    uring_t *u = uring_open(8, err, sizeof err);
    unsetenv("RCSS_NO_URING");
    cr_expect_null(u);
    cr_expect(strstr(err, "RCSS_NO_URING"), "%s", err);
    uring_close(u);
}
