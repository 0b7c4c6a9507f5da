/* test_123_ports.c -- server::port=0, coach_port=0, olcoach_port=0 and http_port=-1
 * (issue 13): the server picks free ports, reports them on its ready line ("READY
 * port=P coach_port=C olcoach_port=O http_port=H shm=S pid=N") once the gateways have
 * bound them, and they work: a player joins on P, the trainer on C, an online coach on
 * O, /status on H says the same. Two such servers at once get different ports. The
 * ready line comes after the banner and the seed, before any client could connect. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "e2e_runner.h"

static char out[65536];

static void expect_works(const e2e_srv_t *p)
{
    char buf[65536];
    cr_assert_gt(p->port, 0);
    cr_assert_gt(p->coach_port, 0);
    cr_assert_gt(p->olcoach_port, 0);
    cr_assert_gt(p->http_port, 0);
    cr_expect(p->port != p->coach_port && p->port != p->olcoach_port
              && p->coach_port != p->olcoach_port);
    char shm[64];
    snprintf(shm, sizeof shm, "/rcssserver-%d", p->port);
    cr_expect_str_eq(p->shm, shm, "the default shm name follows the chosen port");
    int pl = e2e_udp_open(), tr = e2e_udp_open(), co = e2e_udp_open();
    e2e_send(pl, p->port, "(init PortTeam (version 19))");
    cr_expect_gt(e2e_recv_prefix(pl, "(init l 1 before_kick_off)", buf, sizeof buf, 3000, NULL), 0);
    e2e_send(tr, p->coach_port, "(init (version 19))");
    cr_expect_gt(e2e_recv_prefix(tr, "(init ok)", buf, sizeof buf, 3000, NULL), 0);
    e2e_send(co, p->olcoach_port, "(init PortTeam (version 19))");
    cr_expect_gt(e2e_recv_prefix(co, "(init l ok)", buf, sizeof buf, 3000, NULL), 0);
    cr_assert_eq(e2e_http_get(p->http_port, "/status", buf, sizeof buf), 200);
    char want[128];
    snprintf(want, sizeof want, "\"ports\":{\"port\":%d,\"coach_port\":%d,\"olcoach_port\":%d,"
             "\"http_port\":%d}", p->port, p->coach_port, p->olcoach_port, p->http_port);
    cr_expect(strstr(buf, want), "%s in %s", want, buf);
    close(pl);
    close(tr);
    close(co);
}

Test(runner_ports, port_zero_picks_and_reports, .timeout = 60)
{
    const char *args[] = { "server::port=0", "server::coach_port=0", "server::olcoach_port=0",
                           "server::http_port=-1", "server::coach=true", NULL };
    e2e_srv_t a, b;
    cr_assert_eq(e2e_srv_start(&a, args, NULL), 0);
    cr_assert_eq(e2e_srv_start(&b, args, NULL), 0);
    expect_works(&a);
    expect_works(&b);
    cr_expect(a.port != b.port && a.coach_port != b.coach_port && a.http_port != b.http_port);
    e2e_srv_output(&a, out, sizeof out);
    const char *seed = strstr(out, "Simulator Random Seed: "), *ready = strstr(out, "\nREADY ");
    cr_expect(seed && ready && seed < ready, "%s", out);
    /* one ready line */
    cr_expect_null(strstr(ready + 1, "\nREADY "), "%s", out);
    cr_expect_eq(e2e_srv_stop(&a), 0);
    cr_expect_eq(e2e_srv_stop(&b), 0);
    e2e_srv_clean(&a);
    e2e_srv_clean(&b);
}

/* fixed ports are reported as they are, http off is http_port=0 */
Test(runner_ports, fixed_ports_reported, .timeout = 30)
{
    const char *zero[] = { "server::port=0", "server::coach_port=0", "server::olcoach_port=0",
                           NULL };
    e2e_srv_t z;
    cr_assert_eq(e2e_srv_start(&z, zero, NULL), 0);
    int port = z.port;
    cr_expect_gt(z.coach_port, 0);
    cr_expect_eq(z.http_port, 0, "no HTTP server");
    cr_expect_eq(e2e_srv_stop(&z), 0);
    e2e_srv_clean(&z);
    /* the port just released: fixed this time, with the default coach ports moved away */
    char a_port[64], a_c[64], a_o[64];
    snprintf(a_port, sizeof a_port, "server::port=%d", port);
    snprintf(a_c, sizeof a_c, "server::coach_port=0");
    snprintf(a_o, sizeof a_o, "server::olcoach_port=0");
    const char *args[] = { a_port, a_c, a_o, NULL };
    e2e_srv_t p;
    cr_assert_eq(e2e_srv_start(&p, args, NULL), 0);
    cr_expect_eq(p.port, port);
    cr_expect_eq(e2e_srv_stop(&p), 0);
    e2e_srv_clean(&p);
}
