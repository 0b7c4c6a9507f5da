/* test_net.c -- the gateways' UDP helpers on 127.0.0.1: a shared listening socket, a
 * socket connected to one peer (the "own port"), non-blocking sends, packed addresses. */
#include <criterion/criterion.h>
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>
#include "net.h"

Test(net, bind_connect_send)
{
    char err[128];
    int srv = net_udp_bind("127.0.0.1", 0, 1, err, sizeof err);
    cr_assert_geq(srv, 0, "%s", err);
    int port = net_udp_local_port(srv);
    cr_assert_gt(port, 0);
    /* a second process-style listener on the same port: SO_REUSEPORT shares it */
    int srv2 = net_udp_bind("127.0.0.1", port, 1, err, sizeof err);
    cr_expect_geq(srv2, 0, "%s", err);

    struct sockaddr_storage to;
    uint8_t addr[16];
    inet_pton(AF_INET, "127.0.0.1", addr);
    net_addr_unpack(addr, AF_INET, (uint16_t)port, &to);
    int cl = net_udp_connected("127.0.0.1", 0, &to, err, sizeof err);
    cr_assert_geq(cl, 0, "%s", err);
    cr_expect_eq(net_udp_send(cl, "(init x)", 9), 0);
    struct pollfd p[2] = { { .fd = srv, .events = POLLIN }, { .fd = srv2, .events = POLLIN } };
    cr_assert_gt(poll(p, 2, 1000), 0);
    char buf[32];
    struct sockaddr_storage from;
    socklen_t fl = sizeof from;
    int fd = (p[0].revents & POLLIN) ? srv : srv2;
    cr_expect_eq(recvfrom(fd, buf, sizeof buf, 0, (struct sockaddr *)&from, &fl), 9);
    cr_expect_str_eq(buf, "(init x)");
    /* the sender's address packs to the table fields and back */
    int32_t family;
    uint16_t fport;
    uint8_t packed[16];
    net_addr_pack(&from, packed, &family, &fport);
    cr_expect_eq(family, AF_INET);
    cr_expect_eq(fport, net_udp_local_port(cl));
    cr_expect_eq(memcmp(packed, addr, 4), 0);
    close(cl);
    close(srv);
    if (srv2 >= 0)
        close(srv2);
}

Test(net, ipv6_round_trip_and_bad_address)
{
    struct sockaddr_storage a, b;
    memset(&a, 0, sizeof a);
    struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&a;
    a6->sin6_family = AF_INET6;
    inet_pton(AF_INET6, "2001:db8::7", &a6->sin6_addr);
    a6->sin6_port = htons(6000);
    uint8_t addr[16];
    int32_t family;
    uint16_t port;
    net_addr_pack(&a, addr, &family, &port);
    cr_expect_eq(family, AF_INET6);
    cr_expect_eq(port, 6000);
    net_addr_unpack(addr, family, port, &b);
    cr_expect_eq(memcmp(&((struct sockaddr_in6 *)&b)->sin6_addr, &a6->sin6_addr, 16), 0);
    char err[128];
    cr_expect_eq(net_udp_bind("not-an-address", 0, 0, err, sizeof err), -1);
    cr_expect(strstr(err, "server::bind_address 'not-an-address'") != NULL, "%s", err);
}

Test(net, send_to_a_closed_peer_reports_refused)
{
    char err[128];
    int gone = net_udp_bind("127.0.0.1", 0, 0, err, sizeof err);
    int port = net_udp_local_port(gone);
    close(gone);
    struct sockaddr_storage to;
    uint8_t addr[16];
    inet_pton(AF_INET, "127.0.0.1", addr);
    net_addr_unpack(addr, AF_INET, (uint16_t)port, &to);
    int cl = net_udp_connected("127.0.0.1", 0, &to, err, sizeof err);
    cr_assert_geq(cl, 0);
    net_udp_send(cl, "x", 2);
    usleep(50000); /* the ICMP port-unreachable comes back */
    int rc = net_udp_send(cl, "x", 2);
    cr_expect_eq(rc, -1);
    cr_expect_eq(errno, ECONNREFUSED);
    close(cl);
}
