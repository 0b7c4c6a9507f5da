/* test_101_reuse.c -- issue 12 item 2: no socket of another user can bind the server's
 * ports. The gateways set no SO_REUSEADDR and SO_REUSEPORT only on the shared listening
 * ports, and the kernel admits a socket to a SO_REUSEPORT group only for the group's
 * user; so a process of the user nobody, with either option or both, gets EADDRINUSE
 * on the player, trainer and online-coach ports and on a player's own port, and the
 * inits meant for the server keep reaching it. */
#include <criterion/criterion.h>
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "e2e_safety.h"

static char buf[65536];

/* bind 127.0.0.1:port with the options in mask (1 SO_REUSEADDR, 2 SO_REUSEPORT):
 * 0 bound, 1 EADDRINUSE, 2 another error */
static int try_bind(int port, int mask)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0), on = 1;
    if (fd < 0)
        return 2;
    if (mask & 1)
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (mask & 2)
        setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof on);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int rc = bind(fd, (struct sockaddr *)&a, sizeof a) == 0 ? 0 : errno == EADDRINUSE ? 1 : 2;
    close(fd);
    return rc;
}

typedef struct ports {
    int port[4];
    int n;
} ports_t;

/* as nobody: every port with every option set must be refused; returns the number of
 * binds that were not refused with EADDRINUSE */
static int nobody_binds(void *arg)
{
    const ports_t *p = arg;
    int bad = 0;
    for (int i = 0; i < p->n; i++) {
        for (int mask = 0; mask < 4; mask++)
            bad += try_bind(p->port[i], mask) != 1;
    }
    return bad;
}

Test(reuse, another_user_cannot_bind_the_ports, .timeout = 60)
{
    e2e_server_t s;
    const char *args[] = { "server::netgw_processes=2", NULL };
    cr_assert_eq(e2e_server_start(&s, args), 0);
    int fd = e2e_udp_open(), pport;
    e2e_send(fd, s.port, "(init TeamA (version 19))");
    cr_assert_gt(e2e_recv_prefix(fd, "(init ", buf, sizeof buf, 2000, &pport), 0);

    ports_t p = { { s.port, s.coach_port, s.olcoach_port, pport }, 4 };
    cr_expect_eq(es_as_nobody(nobody_binds, &p), 0,
                 "a socket of another user bound a server port");
    /* and as ourselves, without SO_REUSEPORT, nothing joins either (the probe a second
     * server makes) */
    for (int i = 0; i < 4; i++)
        cr_expect_eq(try_bind(p.port[i], 1), 1, "port %d", p.port[i]);

    /* inits still reach the server: a second player joins */
    int fd2 = e2e_udp_open();
    e2e_send(fd2, s.port, "(init TeamA (version 19))");
    cr_expect_gt(e2e_recv_prefix(fd2, "(init l 2 ", buf, sizeof buf, 2000, NULL), 0);
    close(fd2);
    close(fd);
    cr_expect_eq(e2e_server_stop(&s), 0);
}
