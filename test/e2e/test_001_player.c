/* test_001_player.c -- the player slice end to end: init from a new port, parameter
 * messages, sense_body every cycle, see every 150 ms, a dash that moves the player as a
 * monitor sees it, and a netgw killed with SIGKILL healed without the client noticing. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"

static char buf[65536];

/* init a player; returns the socket, *srv_port = the port that answered */
static int connect_player(const e2e_server_t *s, const char *init, int *srv_port)
{
    int fd = e2e_udp_open();
    cr_assert_geq(fd, 0);
    cr_assert_gt(e2e_send(fd, s->port, init), 0);
    cr_assert_gt(e2e_recv_prefix(fd, "(init ", buf, sizeof buf, 2000, srv_port), 0,
                 "no init reply to %s", init);
    return fd;
}

Test(player, init_reply_and_parameters, .timeout = 30)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    int port;
    int fd = connect_player(&s, "(init TeamA (version 9))", &port);
    cr_expect_str_eq(buf, "(init l 1 before_kick_off)");
    cr_expect_neq(port, s.port, "the reply comes from a per-client port");
    cr_expect_gt(e2e_recv_prefix(fd, "(server_param ", buf, sizeof buf, 1000, NULL), 0);
    cr_expect(strstr(buf, "(port ") != NULL, "v9 gets the v8 parameters");
    cr_expect(strstr(buf, "(auto_mode 0)") != NULL, "v9 gets the v9 parameters");
    cr_expect(strstr(buf, "(ball_stuck_area") == NULL, "but not the v11 ones");
    cr_expect_gt(e2e_recv_prefix(fd, "(player_param ", buf, sizeof buf, 1000, NULL), 0);
    int types = 0;
    while (e2e_recv_prefix(fd, "(player_type ", buf, sizeof buf, 300, NULL) > 0)
        types++;
    cr_expect_eq(types, 18, "one player_type per type (player::player_types = 18)");

    int fd2 = connect_player(&s, "(init TeamA (version 9))", NULL);
    cr_expect_str_eq(buf, "(init l 2 before_kick_off)");
    int fd3 = connect_player(&s, "(init TeamB (version 19) (goalie))", NULL);
    cr_expect_str_eq(buf, "(init r 1 before_kick_off)");
    cr_expect_gt(e2e_recv_prefix(fd3, "(ok synch_see)", buf, sizeof buf, 2000, NULL), 0,
                 "v18+ players are put in synch-see mode");
    int fd4 = e2e_udp_open();
    e2e_send(fd4, s.port, "(init TeamC (version 9))");
    cr_expect_gt(e2e_recv(fd4, buf, sizeof buf, 2000, NULL), 0);
    cr_expect_str_eq(buf, "(error no_more_team)");
    e2e_send(fd4, s.port, "(init Bad!Name (version 9))");
    cr_expect_gt(e2e_recv(fd4, buf, sizeof buf, 2000, NULL), 0);
    /* "Bad" then a character that neither ends the name nor is a '(' (reference) */
    cr_expect_str_eq(buf, "(error illegal_teamname_or_too_long_teamname)");
    close(fd);
    close(fd2);
    close(fd3);
    close(fd4);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(player, sense_body_every_cycle_and_see_every_150ms, .timeout = 30)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    int fd = connect_player(&s, "(init TeamA (version 9))", NULL);
    int sb = 0, see = 0;
    double first_see = 0, last_see = 0;
    double end = e2e_now_ms() + 2000;
    while (e2e_now_ms() < end) {
        int n = e2e_recv(fd, buf, sizeof buf, 100, NULL);
        if (n <= 0)
            continue;
        if (strncmp(buf, "(sense_body 0 (view_mode high normal)", 37) == 0)
            sb++;
        if (strncmp(buf, "(see 0 ", 7) == 0) {
            last_see = e2e_now_ms();
            if (see++ == 0)
                first_see = last_see;
        }
    }
    /* 100 ms cycles over 2 s: about 20 sense_body; 150 ms see: about 13 */
    cr_expect(sb >= 16 && sb <= 22, "sense_body count %d over 2 s", sb);
    cr_assert_geq(see, 8, "see count %d over 2 s", see);
    double mean = (last_see - first_see) / (see - 1);
    cr_expect(mean >= 120 && mean <= 180, "mean see interval %.1f ms", mean);
    close(fd);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

/* x of player (l 1) in a (show ...) frame */
static int show_x(const char *show, double *x)
{
    const char *p = strstr(show, "((l 1) ");
    int type;
    unsigned state;
    if (!p)
        return -1;
    if (sscanf(p, "((l 1) %d %x %lf", &type, &state, x) == 3)
        return 0;
    return sscanf(p, "((l 1) %d 0 %lf", &type, x) == 2 ? 0 : -1;
}

Test(player, dash_moves_the_player_in_the_monitor_frame, .timeout = 30)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    int pport;
    int fd = connect_player(&s, "(init TeamA (version 9))", &pport);
    e2e_send(fd, pport, "(move -10 0)");

    int mon = e2e_udp_open();
    int mport;
    e2e_send(mon, s.port, "(dispinit version 3)");
    cr_assert_gt(e2e_recv_prefix(mon, "(server_param ", buf, sizeof buf, 2000, &mport), 0);
    double x0;
    double end = e2e_now_ms() + 2000;
    int ok = -1;
    while (ok < 0 && e2e_now_ms() < end) {
        if (e2e_recv_prefix(mon, "(show ", buf, sizeof buf, 500, NULL) > 0)
            ok = show_x(buf, &x0);
        if (ok == 0 && x0 != -10)
            ok = -1; /* the move not applied yet */
    }
    cr_assert_eq(ok, 0, "monitor shows the moved player");
    cr_expect_float_eq(x0, -10.0, 1e-9);
    e2e_send(mon, mport, "(dispstart)");
    int started = 0;
    end = e2e_now_ms() + 2000;
    while (!started && e2e_now_ms() < end) {
        if (e2e_recv_prefix(mon, "(show ", buf, sizeof buf, 500, NULL) > 0)
            started = strstr(buf, " (pm 4) ") != NULL || strstr(buf, " (pm 3) ") != NULL;
    }
    cr_assert(started, "kick_off_l (pm 4) after dispstart");
    for (int i = 0; i < 10; i++) {
        e2e_send(fd, pport, "(dash 100)");
        e2e_recv_prefix(fd, "(sense_body ", buf, sizeof buf, 300, NULL);
    }
    double x1 = x0;
    end = e2e_now_ms() + 1000;
    while (e2e_now_ms() < end) {
        if (e2e_recv_prefix(mon, "(show ", buf, sizeof buf, 300, NULL) > 0)
            show_x(buf, &x1);
    }
    /* ten dashes of 100 at 0.006 * effort 1 accelerate to the 1.05 m/cycle cap region:
     * several metres, whatever the noise */
    cr_expect_gt(x1, x0 + 2.0, "player moved from %.2f to %.2f", x0, x1);
    close(mon);
    close(fd);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(player, netgw_killed_is_healed_and_keeps_the_port, .timeout = 30)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    int pport;
    int fd = connect_player(&s, "(init TeamA (version 9))", &pport);
    pid_t gw[4];
    cr_assert_eq(e2e_netgw_pids(&s, gw, 4), 1);
    cr_assert_eq(kill(gw[0], SIGKILL), 0);
    double killed = e2e_now_ms();
    /* drain what was in flight, then wait for sense_body from the same port */
    int from = 0, n;
    double healed = 0;
    while (e2e_now_ms() < killed + 3000) {
        n = e2e_recv_prefix(fd, "(sense_body ", buf, sizeof buf, 200, &from);
        if (n > 0 && e2e_now_ms() > killed + 150) {
            healed = e2e_now_ms();
            break;
        }
    }
    cr_assert_gt(healed, 0, "sense_body resumed");
    cr_expect_eq(from, pport, "from the same per-client port");
    cr_expect_lt(healed - killed, 1000.0, "healed within 1 s (%.0f ms)", healed - killed);
    pid_t gw2[4];
    cr_expect_eq(e2e_netgw_pids(&s, gw2, 4), 1);
    cr_expect_neq(gw2[0], gw[0], "a new netgw process");
    /* and it still takes commands from the same client */
    e2e_send(fd, pport, "(sense_body)");
    cr_expect_gt(e2e_recv_prefix(fd, "(sense_body ", buf, sizeof buf, 500, NULL), 0);
    close(fd);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(player, garbage_never_crashes, .timeout = 30)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    int fd = e2e_udp_open();
    e2e_send(fd, s.port, "((((((((");
    cr_expect_gt(e2e_recv(fd, buf, sizeof buf, 1000, NULL), 0, "an error reply");
    cr_expect(strncmp(buf, "(error ", 7) == 0, "got: %s", buf);
    int pport;
    int p = connect_player(&s, "(init TeamA (version 9))", &pport);
    const char *bad[] = { "(dash", "(turn abc)", "\x01\x02\xff", "(kick 1 2 3 4 5 6)", ")(" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        e2e_send(p, pport, bad[i]);
        cr_expect_gt(e2e_recv_prefix(p, "(error illegal_command_form)", buf, sizeof buf, 1000, NULL),
                     0, "error reply to bad command %zu", i);
    }
    e2e_send(p, pport, "(sense_body)");
    cr_expect_gt(e2e_recv_prefix(p, "(sense_body ", buf, sizeof buf, 1000, NULL), 0, "still served");
    close(fd);
    close(p);
    cr_expect_eq(e2e_server_stop(&s), 0);
}
