/* test_104_monitors.c -- issue 12 item 5: idle or dead monitor sockets do not lock later
 * monitors out. With the table full (server::max_monitors), the monitor silent for longer
 * than server::monitor_idle_timeout is replaced by a new one; a monitor whose socket is
 * gone is reaped (ICMP port unreachable) and its place freed; and a flood of monitor
 * inits against a small descriptor limit gets one clear refusal each
 * ("(error no_more_monitor)") while monitorgw keeps serving. */
#include <criterion/criterion.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "e2e_safety.h"

static char buf[65536];

/* a monitor init from a new socket: 1 accepted (its init block came), 0 refused with
 * no_more_monitor, -1 nothing */
static int try_monitor(const e2e_server_t *s, int *fdp)
{
    int fd = e2e_udp_open();
    cr_assert_geq(fd, 0);
    *fdp = fd;
    e2e_send(fd, s->port, "(dispinit version 3)");
    int n = e2e_recv(fd, buf, sizeof buf, 3000, NULL);
    if (n <= 0)
        return -1;
    if (strncmp(buf, "(server_param ", 14) == 0)
        return 1;
    return strcmp(buf, "(error no_more_monitor)") == 0 ? 0 : -1;
}

Test(monitors, idle_monitor_replaced_when_the_table_is_full, .timeout = 60)
{
    e2e_server_t s;
    const char *args[] = { "server::max_monitors=4", "server::monitor_idle_timeout=1", NULL };
    cr_assert_eq(e2e_server_start(&s, args), 0);
    int fd[6];
    /* four monitors that never read or send again: idle */
    for (int i = 0; i < 4; i++)
        cr_assert_eq(try_monitor(&s, &fd[i]), 1, "monitor %d", i);
    /* a fifth at once: nobody has been idle long enough yet */
    cr_expect_eq(try_monitor(&s, &fd[4]), 0, "refused while the others are fresh");
    /* once they have been silent for more than a second, a new one takes a place (the
     * silence is the point: waited out, not a condition to poll for) */
    usleep(1600000);
    cr_expect_eq(try_monitor(&s, &fd[5]), 1, "a new monitor replaced an idle one");
    for (int i = 0; i < 6; i++)
        close(fd[i]);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(monitors, dead_monitor_frees_its_place, .timeout = 60)
{
    e2e_server_t s;
    const char *args[] = { "server::max_monitors=3", "server::monitor_idle_timeout=0", NULL };
    cr_assert_eq(e2e_server_start(&s, args), 0);
    int fd[5];
    for (int i = 0; i < 3; i++)
        cr_assert_eq(try_monitor(&s, &fd[i]), 1, "monitor %d", i);
    cr_expect_eq(try_monitor(&s, &fd[3]), 0, "the table is full");
    close(fd[3]);
    /* one monitor goes away: the next frame to it is refused by the kernel and
     * monitorgw reaps it */
    close(fd[0]);
    int ok = 0;
    for (int tries = 0; tries < 30 && ok != 1; tries++) {
        usleep(100000);
        ok = try_monitor(&s, &fd[4]);
        if (ok != 1)
            close(fd[4]);
    }
    cr_expect_eq(ok, 1, "a new monitor got the dead one's place");
    close(fd[1]);
    close(fd[2]);
    close(fd[4]);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

#define FLOOD 150

Test(monitors, flood_against_the_descriptor_limit, .timeout = 90)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0); /* max_monitors -1: no limit but fds */
    pid_t mgw = es_slot_pid(&s, -1);
    cr_assert_gt(mgw, 0);
    /* 128 descriptors: room for 128 - 64 (MGW_FD_RESERVE) - its own few */
    struct rlimit rl = { 128, 128 };
    cr_assert_eq(prlimit(mgw, RLIMIT_NOFILE, &rl, NULL), 0);
    static int fd[FLOOD];
    int accepted = 0, refused = 0, silent = 0;
    for (int i = 0; i < FLOOD; i++) {
        fd[i] = e2e_udp_open();
        cr_assert_geq(fd[i], 0);
        e2e_send(fd[i], s.port, "(dispinit version 3)");
    }
    for (int i = 0; i < FLOOD; i++) {
        int n = e2e_recv(fd[i], buf, sizeof buf, 3000, NULL);
        if (n > 0 && strncmp(buf, "(server_param ", 14) == 0)
            accepted++;
        else if (n > 0 && strcmp(buf, "(error no_more_monitor)") == 0)
            refused++;
        else
            silent++;
    }
    cr_expect_eq(silent, 0, "every init answered (%d accepted, %d refused)", accepted, refused);
    cr_expect_gt(accepted, 20, "%d accepted", accepted);
    cr_expect_gt(refused, 0, "%d refused", refused);
    cr_expect_lt(accepted, 128 - 64 + 1);
    cr_expect_eq(es_slot_pid(&s, -1), mgw, "monitorgw still runs");
    /* and it still serves: the flood goes away, a new monitor gets in */
    for (int i = 0; i < FLOOD; i++)
        close(fd[i]);
    int ok = 0, f = -1;
    for (int tries = 0; tries < 30 && ok != 1; tries++) {
        usleep(100000);
        ok = try_monitor(&s, &f);
        close(f);
    }
    cr_expect_eq(ok, 1, "a monitor is served after the flood");
    cr_expect_eq(e2e_server_stop(&s), 0);
}
