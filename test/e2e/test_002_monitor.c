/* test_002_monitor.c -- monitors end to end: (dispinit version 3|4|5) on the player port
 * is answered from monitorgw's own port with the parameter block, then one (show ...)
 * per cycle to every monitor; unsupported versions and garbage get error replies. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"

static char buf[65536];

Test(monitor, init_block_and_frames_to_several_monitors, .timeout = 30)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    int fd[3], port[3];
    const char *init[3] = { "(dispinit version 3)", "(dispinit version 4)", "(dispinit version 5)" };
    for (int i = 0; i < 3; i++) {
        fd[i] = e2e_udp_open();
        e2e_send(fd[i], s.port, init[i]);
        cr_assert_gt(e2e_recv_prefix(fd[i], "(server_param ", buf, sizeof buf, 2000, &port[i]), 0);
        cr_expect_neq(port[i], s.port, "answered from monitorgw's own port");
        cr_expect(strstr(buf, "(max_monitors -1)") != NULL, "monitors get the 999 parameters");
        cr_expect(strstr(buf, "(bind_address") == NULL, "but never this server's extensions");
    }
    for (int i = 0; i < 3; i++) {
        int shows = 0;
        /* frames queued while the previous monitor was counted are not this second's */
        while (e2e_recv(fd[i], buf, sizeof buf, 1, NULL) > 0)
            ;
        double end = e2e_now_ms() + 1000;
        while (e2e_now_ms() < end) {
            if (e2e_recv_prefix(fd[i], "(show 0 (pm 1) (tm null null 0 0) ((b) 0 0 0 0)", buf,
                                sizeof buf, 200, NULL) > 0)
                shows++;
        }
        /* one frame per 100 ms cycle, time 0 before kick-off */
        cr_expect(shows >= 7 && shows <= 12, "monitor %d got %d frames in 1 s", i, shows);
        cr_expect(strstr(buf, "((l 1) 0 0 -3 -37 0 0 0 0 (v h 90)") != NULL,
                  "disabled player off-pitch: %.200s", buf);
        /* v3 stamina has 3 numbers, v4/v5 add the capacity; only v5 has (fp ...) */
        const char *st = strstr(buf, "(s ");
        cr_assert(st != NULL);
        double a, b, c, d;
        int got = sscanf(st, "(s %lf %lf %lf %lf", &a, &b, &c, &d);
        cr_expect_eq(got, i == 0 ? 3 : 4, "stamina values for version %d", i + 3);
        cr_expect_eq(strstr(buf, "(fp ") != NULL, i == 2, "focus point only in v5");
    }
    e2e_send(fd[0], port[0], "(bogus command)");
    cr_expect_gt(e2e_recv_prefix(fd[0], "(msg ", buf, sizeof buf, 1000, NULL), 0);
    cr_expect(strstr(buf, "(error illegal_command_form)") != NULL, "got %s", buf);
    cr_expect_gt(e2e_recv_prefix(fd[0], "(show ", buf, sizeof buf, 1000, NULL), 0,
                 "frames keep coming");
    int bad = e2e_udp_open();
    e2e_send(bad, s.port, "(dispinit version 6)");
    int from = 0;
    cr_expect_gt(e2e_recv(bad, buf, sizeof buf, 2000, &from), 0);
    cr_expect_str_eq(buf, "(error illegal_client_version)");
    cr_expect_eq(from, s.port, "refused from the player port, as the reference");
    /* a registered monitor must use its own port for commands */
    e2e_send(fd[1], s.port, "(dispstart)");
    cr_expect_gt(e2e_recv_prefix(fd[1], "(error only_init_allowed_on_init_port)", buf, sizeof buf,
                                 1000, NULL), 0);
    for (int i = 0; i < 3; i++)
        close(fd[i]);
    close(bad);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(monitor, monitorgw_killed_is_healed_and_keeps_the_port, .timeout = 30)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    int fd = e2e_udp_open(), mport;
    e2e_send(fd, s.port, "(dispinit version 4)");
    cr_assert_gt(e2e_recv_prefix(fd, "(show ", buf, sizeof buf, 2000, &mport), 0);
    pid_t old = e2e_monitorgw_pid(&s);
    cr_assert_gt(old, 0);
    cr_assert_eq(kill(old, SIGKILL), 0);
    double killed = e2e_now_ms(), healed = 0;
    int from = 0;
    while (e2e_now_ms() < killed + 3000) {
        if (e2e_recv_prefix(fd, "(show ", buf, sizeof buf, 200, &from) > 0
            && e2e_now_ms() > killed + 150) {
            healed = e2e_now_ms();
            break;
        }
    }
    cr_assert_gt(healed, 0, "frames resumed");
    cr_expect_eq(from, mport, "from the same monitor port");
    cr_expect_lt(healed - killed, 1000.0, "healed within 1 s (%.0f ms)", healed - killed);
    cr_expect_neq(e2e_monitorgw_pid(&s), old, "a new monitorgw process");
    /* and the new instance takes the monitor's commands */
    e2e_send(fd, mport, "(bogus)");
    cr_expect_gt(e2e_recv_prefix(fd, "(msg ", buf, sizeof buf, 1000, NULL), 0);
    close(fd);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

/* a one-shot starter (what rcss-demoteam --start does): dispinit, dispstart and dispbye
 * sent back to back and the socket closed while the init block is still being sent */
Test(monitor, dispstart_from_a_monitor_that_leaves_at_once, .timeout = 30)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    int p = e2e_udp_open();
    e2e_send(p, s.port, "(init TeamA (version 19))");
    cr_assert_gt(e2e_recv_prefix(p, "(init l 1 ", buf, sizeof buf, 2000, NULL), 0);
    int watch = e2e_udp_open();
    e2e_send(watch, s.port, "(dispinit version 3)");
    cr_assert_gt(e2e_recv_prefix(watch, "(show ", buf, sizeof buf, 2000, NULL), 0);
    int starter = e2e_udp_open(), sport;
    e2e_send(starter, s.port, "(dispinit version 4)");
    cr_assert_gt(e2e_recv(starter, buf, sizeof buf, 2000, &sport), 0);
    e2e_send(starter, sport, "(dispstart)");
    e2e_send(starter, sport, "(dispbye)");
    close(starter);
    int started = 0;
    double end = e2e_now_ms() + 2000;
    while (!started && e2e_now_ms() < end) {
        if (e2e_recv_prefix(watch, "(show ", buf, sizeof buf, 300, NULL) > 0)
            started = strstr(buf, " (pm 4) ") != NULL; /* kick_off_l */
    }
    cr_expect(started, "the kick-off happened");
    close(watch);
    close(p);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(monitor, max_monitors_is_enforced, .timeout = 30)
{
    e2e_server_t s;
    const char *args[] = { "server::max_monitors=1", NULL };
    cr_assert_eq(e2e_server_start(&s, args), 0);
    int a = e2e_udp_open(), b = e2e_udp_open(), from = 0;
    e2e_send(a, s.port, "(dispinit version 5)");
    cr_assert_gt(e2e_recv_prefix(a, "(server_param ", buf, sizeof buf, 2000, NULL), 0);
    /* the place is taken once monitorgw counts it (netgw's check reads the count) */
    cr_assert_eq(e2e_wait_monitors(&s, 1, 5000), 0, "monitorgw never counted the first monitor");
    e2e_send(b, s.port, "(dispinit version 5)");
    cr_expect_gt(e2e_recv(b, buf, sizeof buf, 2000, &from), 0);
    cr_expect_str_eq(buf, "(error no_more_monitor)");
    cr_expect_eq(from, s.port);
    /* the first one may init again (a restarted viewer on the same address) */
    e2e_send(a, s.port, "(dispinit version 4)");
    cr_expect_gt(e2e_recv_prefix(a, "(server_param ", buf, sizeof buf, 2000, NULL), 0);
    close(a);
    close(b);
    cr_expect_eq(e2e_server_stop(&s), 0);
}
