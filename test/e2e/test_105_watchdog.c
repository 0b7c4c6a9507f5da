/* test_105_watchdog.c -- issue 12 item 6: a gateway that hangs (SIGSTOP: alive but
 * silent) is killed by the sim's watchdog once its heartbeat is older than
 * server::gateway_timeout_ms and replaced; the new netgw takes its player back, which
 * keeps receiving from the same server port. The recorder is watched the same way. */
#include <criterion/criterion.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e_safety.h"

static char buf[65536];

/* wait until slot `which` holds a pid other than old (and not 0): the new pid, or 0 */
static pid_t wait_replaced(const e2e_server_t *s, int which, pid_t old, int timeout_ms)
{
    double end = e2e_now_ms() + timeout_ms;
    while (e2e_now_ms() < end) {
        pid_t p = es_slot_pid(s, which);
        if (p > 0 && p != old)
            return p;
        usleep(20000);
    }
    return 0;
}

Test(watchdog, stopped_netgw_is_replaced_and_its_player_kept, .timeout = 60)
{
    e2e_server_t s;
    const char *args[] = { "server::gateway_timeout_ms=500", NULL };
    cr_assert_eq(e2e_server_start(&s, args), 0);
    int fd = e2e_udp_open(), pport, from;
    e2e_send(fd, s.port, "(init TeamA (version 19))");
    cr_assert_gt(e2e_recv_prefix(fd, "(init ", buf, sizeof buf, 2000, &pport), 0);
    cr_assert_gt(e2e_recv_prefix(fd, "(sense_body ", buf, sizeof buf, 2000, &from), 0);
    cr_expect_eq(from, pport);

    pid_t old = es_slot_pid(&s, 0);
    cr_assert_gt(old, 0);
    cr_assert_eq(kill(old, SIGSTOP), 0);
    pid_t now = wait_replaced(&s, 0, old, 10000);
    cr_assert_gt(now, 0, "the stopped netgw was not replaced");
    /* the hung process is gone (killed and reaped by the sim), not left stopped */
    for (int i = 0; i < 100 && kill(old, 0) == 0; i++)
        usleep(20000);
    cr_expect_neq(kill(old, 0), 0, "the old netgw still exists");

    /* the player keeps receiving, from the same port, and its commands still work */
    while (e2e_recv(fd, buf, sizeof buf, 20, NULL) > 0)
        ;
    cr_expect_gt(e2e_recv_prefix(fd, "(sense_body ", buf, sizeof buf, 3000, &from), 0,
                 "no sense_body after the replacement");
    cr_expect_eq(from, pport, "sense_body from port %d, the player's is %d", from, pport);
    e2e_send(fd, pport, "(turn 30)");
    cr_expect_gt(e2e_recv_prefix(fd, "(sense_body ", buf, sizeof buf, 3000, NULL), 0);
    close(fd);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(watchdog, stopped_recorder_and_monitorgw_are_replaced, .timeout = 60)
{
    e2e_server_t s;
    const char *args[] = { "server::gateway_timeout_ms=500", "server::game_logging=true", NULL };
    cr_assert_eq(e2e_server_start(&s, args), 0);
    pid_t rec = 0;
    for (int i = 0; i < 100 && rec <= 0; i++, usleep(20000))
        rec = es_slot_pid(&s, -2);
    cr_assert_gt(rec, 0, "no recorder");
    cr_assert_eq(es_wait_heartbeat(&s, -2, 5000), 0, "the recorder never beat its heartbeat");
    cr_assert_eq(kill(rec, SIGSTOP), 0);
    cr_expect_gt(wait_replaced(&s, -2, rec, 10000), 0, "the stopped recorder was not replaced");

    pid_t mgw = es_slot_pid(&s, -1);
    cr_assert_eq(kill(mgw, SIGSTOP), 0);
    cr_expect_gt(wait_replaced(&s, -1, mgw, 10000), 0, "the stopped monitorgw was not replaced");
    /* monitors are served by the new one */
    int m = e2e_udp_open();
    e2e_send(m, s.port, "(dispinit version 3)");
    cr_expect_gt(e2e_recv_prefix(m, "(server_param ", buf, sizeof buf, 3000, NULL), 0);
    close(m);
    cr_expect_eq(e2e_server_stop(&s), 0);
}
