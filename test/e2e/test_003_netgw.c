/* test_003_netgw.c -- gateway behaviour end to end: the init port refuses commands from a
 * connected v8+ player, (bye) + (reconnect ...) gives the slot back on a new socket,
 * change_view changes the see period, and synch mode advances on (done). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"

static char buf[65536];

static int connect_player(const e2e_server_t *s, const char *init, int *srv_port)
{
    int fd = e2e_udp_open();
    cr_assert_geq(fd, 0);
    cr_assert_gt(e2e_send(fd, s->port, init), 0);
    cr_assert_gt(e2e_recv_prefix(fd, "(init ", buf, sizeof buf, 2000, srv_port), 0,
                 "no init reply to %s", init);
    return fd;
}

Test(netgw, init_port_takes_only_init, .timeout = 30)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    int fd = connect_player(&s, "(init TeamA (version 9))", NULL);
    /* docs/protocol/player.md §2: a v8+ client must use its own port after init */
    e2e_send(fd, s.port, "(dash 100)");
    cr_expect_gt(e2e_recv_prefix(fd, "(error only_init_allowed_on_init_port)", buf, sizeof buf,
                                 1000, NULL), 0);
    /* a stranger sending a command there gets unknown_command */
    int other = e2e_udp_open();
    e2e_send(other, s.port, "(dash 100)");
    cr_expect_gt(e2e_recv(other, buf, sizeof buf, 1000, NULL), 0);
    cr_expect_str_eq(buf, "(error unknown_command)");
    /* an unsupported protocol version */
    e2e_send(other, s.port, "(init TeamA (version 20))");
    cr_expect_gt(e2e_recv(other, buf, sizeof buf, 1000, NULL), 0);
    cr_expect_str_eq(buf, "(error no_more_player_or_goalie_or_illegal_client_version)");
    /* a second goalie in one team */
    int g1 = connect_player(&s, "(init TeamA (version 9) (goalie))", NULL);
    e2e_send(other, s.port, "(init TeamA (version 9) (goalie))");
    cr_expect_gt(e2e_recv(other, buf, sizeof buf, 1000, NULL), 0);
    cr_expect_str_eq(buf, "(error no_more_player_or_goalie_or_illegal_client_version)");
    close(g1);
    close(other);
    close(fd);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(netgw, bye_and_reconnect, .timeout = 30)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    int pport;
    int fd = connect_player(&s, "(init TeamA (version 9))", &pport);
    cr_expect_str_eq(buf, "(init l 1 before_kick_off)");
    e2e_send(fd, pport, "(bye)");
    cr_assert_eq(e2e_wait_client(&s, E2E_SLOT_PLAYER(0, 1), 0, 5000), 0,
                 "the player's slot is still taken after (bye)");
    /* nothing more comes on the old socket once it is closed */
    while (e2e_recv(fd, buf, sizeof buf, 200, NULL) > 0)
        ;
    cr_expect_eq(e2e_recv_prefix(fd, "(sense_body ", buf, sizeof buf, 300, NULL), 0,
                 "no sense_body after (bye)");
    int fd2 = e2e_udp_open();
    e2e_send(fd2, s.port, "(reconnect TeamA 1)");
    int rport;
    cr_assert_gt(e2e_recv_prefix(fd2, "(reconnect ", buf, sizeof buf, 2000, &rport), 0);
    cr_expect_str_eq(buf, "(reconnect l before_kick_off)");
    cr_expect_gt(e2e_recv_prefix(fd2, "(server_param ", buf, sizeof buf, 1000, NULL), 0,
                 "parameters follow a reconnect");
    cr_expect_gt(e2e_recv_prefix(fd2, "(sense_body ", buf, sizeof buf, 1000, NULL), 0);
    /* from a connected v8+ player's address the init port only answers with an error;
     * from elsewhere, a number no team can have is no player */
    e2e_send(fd2, s.port, "(reconnect TeamA 1)");
    cr_expect_gt(e2e_recv_prefix(fd2, "(error ", buf, sizeof buf, 1000, NULL), 0);
    cr_expect_str_eq(buf, "(error only_init_allowed_on_init_port)");
    int fd3 = e2e_udp_open();
    e2e_send(fd3, s.port, "(reconnect TeamA 12)");
    cr_expect_gt(e2e_recv_prefix(fd3, "(error ", buf, sizeof buf, 1000, NULL), 0);
    close(fd3);
    cr_expect_str_eq(buf, "(error no_such_team_or_player)");
    close(fd);
    close(fd2);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

/* mean interval of (see ...) over ms milliseconds */
static double see_interval(int fd, int ms, int *count)
{
    double first = 0, last = 0;
    int n = 0;
    double end = e2e_now_ms() + ms;
    while (e2e_now_ms() < end) {
        if (e2e_recv(fd, buf, sizeof buf, 50, NULL) > 0 && strncmp(buf, "(see ", 5) == 0) {
            last = e2e_now_ms();
            if (n++ == 0)
                first = last;
        }
    }
    *count = n;
    return n > 1 ? (last - first) / (n - 1) : 0;
}

Test(netgw, change_view_changes_the_see_period, .timeout = 30)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    int pport, n;
    int fd = connect_player(&s, "(init TeamA (version 9))", &pport);
    /* narrow high: half the normal 150 ms (docs/protocol/player.md §5.2) */
    e2e_send(fd, pport, "(change_view narrow high)");
    double m = see_interval(fd, 1500, &n);
    cr_expect(m >= 60 && m <= 90, "narrow see interval %.1f ms (%d sees)", m, n);
    cr_expect_gt(e2e_recv_prefix(fd, "(sense_body ", buf, sizeof buf, 500, NULL), 0);
    cr_expect(strstr(buf, "(view_mode high narrow)") != NULL, "%s", buf);
    /* wide low: wide doubles the period (300 ms), low quality halves it: 150 ms */
    e2e_send(fd, pport, "(change_view wide low)");
    m = see_interval(fd, 2000, &n);
    cr_expect(m >= 120 && m <= 180, "wide low see interval %.1f ms (%d sees)", m, n);
    close(fd);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(netgw, synch_mode_advances_on_done, .timeout = 30)
{
    e2e_server_t s;
    const char *args[] = { "server::synch_mode=true", NULL };
    cr_assert_eq(e2e_server_start(&s, args), 0);
    int pport;
    int fd = connect_player(&s, "(init TeamA (version 9))", &pport);
    /* answer every (think) with (done) for one second: the sim does not wait for the
     * 100 ms clock, so more than 10 cycles pass (while the game time is 0 a synch-mode
     * cycle lasts at least 50 ms, docs/protocol/player.md §11.3: 20 a second at most) */
    int thinks = 0;
    double end = e2e_now_ms() + 1000;
    while (e2e_now_ms() < end) {
        if (e2e_recv(fd, buf, sizeof buf, 100, NULL) > 0 && strcmp(buf, "(think)") == 0) {
            thinks++;
            e2e_send(fd, pport, "(done)");
        }
    }
    cr_expect_gt(thinks, 14, "%d cycles in 1 s with an eager client", thinks);
    /* silent client: the sim waits server::synch_timeout (1250 ms) per cycle */
    while (e2e_recv(fd, buf, sizeof buf, 50, NULL) > 0)
        ;
    thinks = 0;
    end = e2e_now_ms() + 2000;
    while (e2e_now_ms() < end) {
        if (e2e_recv(fd, buf, sizeof buf, 100, NULL) > 0 && strcmp(buf, "(think)") == 0)
            thinks++;
    }
    cr_expect(thinks >= 1 && thinks <= 3, "%d cycles in 2 s with a silent client", thinks);
    close(fd);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

/* (l 1)'s x y in a monitor frame */
static int show_pos(const char *show, double *x, double *y)
{
    const char *p = strstr(show, "((l 1) ");
    int type;
    char state[16];
    return p && sscanf(p, "((l 1) %d %15s %lf %lf", &type, state, x, y) == 4 ? 0 : -1;
}

static int monitor_pos(int mon, double *x, double *y)
{
    /* the newest frame: drain, then take the next one */
    while (e2e_recv(mon, buf, sizeof buf, 1, NULL) > 0)
        ;
    if (e2e_recv_prefix(mon, "(show ", buf, sizeof buf, 1000, NULL) <= 0)
        return -1;
    return show_pos(buf, x, y);
}

Test(netgw, nobody_else_can_act_for_a_player, .timeout = 30)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    int pport;
    int fd = connect_player(&s, "(init TeamA (version 9))", &pport);
    int mon = e2e_udp_open();
    e2e_send(mon, s.port, "(dispinit version 3)");
    cr_assert_gt(e2e_recv_prefix(mon, "(show ", buf, sizeof buf, 2000, NULL), 0);
    /* another address sends a move to the player's own port: the connected socket never
     * delivers it */
    int stranger = e2e_udp_open();
    e2e_send(stranger, pport, "(move -20 10)");
    cr_expect_eq(e2e_recv(stranger, buf, sizeof buf, 500, NULL), 0, "no reply to a stranger");
    double x, y;
    cr_assert_eq(monitor_pos(mon, &x, &y), 0);
    cr_expect(x == -3 && y == -37, "the player did not move: %g %g", x, y);
    /* the player itself can */
    e2e_send(fd, pport, "(move -20 10)");
    double end = e2e_now_ms() + 1500;
    int moved = 0;
    while (!moved && e2e_now_ms() < end)
        moved = monitor_pos(mon, &x, &y) == 0 && x == -20 && y == 10;
    cr_expect(moved, "its own move applies: %g %g", x, y);
    close(stranger);
    close(mon);
    close(fd);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(netgw, a_command_flood_is_bounded, .timeout = 30)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    int pport;
    int fd = connect_player(&s, "(init TeamA (version 9))", &pport);
    /* 2000 datagrams in a burst (the ring holds 64 per cycle): the gateway and the sim
     * keep their pace and the player is still served */
    for (int i = 0; i < 2000; i++)
        e2e_send(fd, pport, "(turn 1)(turn_neck 1)(change_view wide high)");
    while (e2e_recv(fd, buf, sizeof buf, 50, NULL) > 0)
        ;
    int sb = 0;
    double end = e2e_now_ms() + 1000;
    while (e2e_now_ms() < end) {
        if (e2e_recv_prefix(fd, "(sense_body ", buf, sizeof buf, 200, NULL) > 0)
            sb++;
    }
    cr_expect(sb >= 8 && sb <= 12, "sense_body still every cycle after the flood: %d in 1 s", sb);
    cr_expect(strstr(buf, "(view_mode high wide)") != NULL, "the view change applied: %s", buf);
    close(fd);
    cr_expect_eq(e2e_server_stop(&s), 0);
}
