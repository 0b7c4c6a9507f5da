/* test_udp_batch.c -- the send batch of netgw_udp.c on real UDP sockets on 127.0.0.1:
 * while a batch is open nothing goes out; a flush gives each socket its datagrams in the
 * order they were made; one socket's queue can go out before the others'
 * (ngw_udp_batch_flush_fd), and what that socket is sent after it goes at the flush, in
 * order, never twice. */
#include <criterion/criterion.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "netgw_conn.h"

/* a receiving socket and a sending one connected to it */
static void pair(int *rx, int *tx)
{
    struct sockaddr_in a = { .sin_family = AF_INET };
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    socklen_t l = sizeof a;
    *rx = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
    cr_assert_eq(bind(*rx, (struct sockaddr *)&a, sizeof a), 0);
    cr_assert_eq(getsockname(*rx, (struct sockaddr *)&a, &l), 0);
    *tx = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
    cr_assert_eq(connect(*tx, (struct sockaddr *)&a, sizeof a), 0);
}

/* the next datagram on rx ("" when none) */
static const char *next(int rx)
{
    static char buf[256];
    ssize_t n = recv(rx, buf, sizeof buf - 1, 0);
    buf[n > 0 ? n : 0] = '\0';
    return buf;
}

Test(udp_batch, queued_in_order_and_one_socket_first)
{
    int rx1, tx1, rx2, tx2;
    pair(&rx1, &tx1);
    pair(&rx2, &tx2);
    ngw_udp_batch_begin();
    ngw_udp_send(tx1, "(hear 1)");
    ngw_udp_send(tx2, "(sense_body 2)");
    ngw_udp_send(tx1, "(sense_body 1)");
    cr_expect_str_eq(next(rx1), "");
    cr_expect_str_eq(next(rx2), "");
    /* socket 1 first: its two, in order; socket 2 still waits */
    ngw_udp_batch_flush_fd(tx1);
    cr_expect_str_eq(next(rx1), "(hear 1)");
    cr_expect_str_eq(next(rx1), "(sense_body 1)");
    cr_expect_str_eq(next(rx1), "");
    cr_expect_str_eq(next(rx2), "");
    /* more for socket 1 after its flush: queued again, sent once at the end */
    ngw_udp_send(tx1, "(see 1)");
    ngw_udp_send(tx2, "(see 2)");
    ngw_udp_batch_flush_fd(tx1);
    ngw_udp_send(tx1, "(think)");
    ngw_udp_batch_end();
    cr_expect_str_eq(next(rx1), "(see 1)");
    cr_expect_str_eq(next(rx1), "(think)");
    cr_expect_str_eq(next(rx1), "");
    cr_expect_str_eq(next(rx2), "(sense_body 2)");
    cr_expect_str_eq(next(rx2), "(see 2)");
    cr_expect_str_eq(next(rx2), "");
    /* outside a batch a send goes at once, and flush_fd does nothing */
    ngw_udp_send(tx2, "(now)");
    ngw_udp_batch_flush_fd(tx2);
    cr_expect_str_eq(next(rx2), "(now)");
    cr_expect_str_eq(next(rx2), "");
    close(rx1);
    close(tx1);
    close(rx2);
    close(tx2);
}
