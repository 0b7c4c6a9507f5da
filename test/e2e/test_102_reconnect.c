/* test_102_reconnect.c -- issue 12 item 3: (reconnect TEAM UNUM) takes a player over
 * only from the player's own host (a restarted client has a new port, not a new
 * address), or with the player's token when server::reconnect_token=true (the init reply
 * then carries it: "(init l 1 before_kick_off (token HEX))"); with
 * server::reconnect_any_address=true anyone may, as the reference. 127.0.0.2 plays the
 * other host (all of 127/8 is loopback on Linux). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "e2e_safety.h"

#define E_REFUSED "(error reconnect_only_from_the_players_address_or_with_its_token)"

static char buf[65536];

static int join(const e2e_server_t *s, char *reply, size_t len)
{
    int fd = e2e_udp_open();
    cr_assert_geq(fd, 0);
    e2e_send(fd, s->port, "(init TeamA (version 19))");
    cr_assert_gt(e2e_recv_prefix(fd, "(init ", reply, len, 2000, NULL), 0);
    return fd;
}

/* a reconnect from fd: the first reply (reconnect or error) */
static void reconnect(const e2e_server_t *s, int fd, const char *msg)
{
    e2e_send(fd, s->port, msg);
    buf[0] = '\0';
    double end = e2e_now_ms() + 2000;
    while (e2e_now_ms() < end && e2e_recv(fd, buf, sizeof buf, 200, NULL) >= 0) {
        if (strncmp(buf, "(reconnect ", 11) == 0 || strncmp(buf, "(error ", 7) == 0)
            return;
    }
}

/* the original player still gets its sense_body */
static void still_served(int fd)
{
    while (e2e_recv(fd, buf, sizeof buf, 50, NULL) > 0)
        ;
    cr_expect_gt(e2e_recv_prefix(fd, "(sense_body ", buf, sizeof buf, 2000, NULL), 0,
                 "the player lost its connection");
}

Test(reconnect, only_from_the_players_host, .timeout = 60)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    char reply[256];
    int fd = join(&s, reply, sizeof reply);
    cr_expect_str_eq(reply, "(init l 1 before_kick_off)", "no token by default");

    int other = es_udp_open_at("127.0.0.2");
    cr_assert_geq(other, 0);
    reconnect(&s, other, "(reconnect TeamA 1)");
    cr_expect_str_eq(buf, E_REFUSED);
    still_served(fd);

    /* the same host, a new port (the restarted client): allowed */
    int again = e2e_udp_open();
    reconnect(&s, again, "(reconnect TeamA 1)");
    cr_expect_str_eq(buf, "(reconnect l before_kick_off)");
    cr_expect_gt(e2e_recv_prefix(again, "(sense_body ", buf, sizeof buf, 2000, NULL), 0);
    close(again);
    close(other);
    close(fd);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(reconnect, with_the_token_from_anywhere, .timeout = 60)
{
    e2e_server_t s;
    const char *args[] = { "server::reconnect_token=true", NULL };
    cr_assert_eq(e2e_server_start(&s, args), 0);
    char reply[256], token[64];
    int fd = join(&s, reply, sizeof reply);
    cr_assert_eq(sscanf(reply, "(init l 1 before_kick_off (token %40[0-9a-f]))", token), 1,
                 "the init reply carries the token: %s", reply);
    cr_expect_eq(strlen(token), 32u);

    int other = es_udp_open_at("127.0.0.2");
    char msg[128];
    /* a wrong token, or none, from another host: refused */
    reconnect(&s, other, "(reconnect TeamA 1 (token 00000000000000000000000000000000))");
    cr_expect_str_eq(buf, E_REFUSED);
    reconnect(&s, other, "(reconnect TeamA 1)");
    cr_expect_str_eq(buf, E_REFUSED);
    still_served(fd);
    /* the right one: taken over */
    snprintf(msg, sizeof msg, "(reconnect TeamA 1 (token %s))", token);
    reconnect(&s, other, msg);
    cr_expect_str_eq(buf, "(reconnect l before_kick_off)");
    cr_expect_gt(e2e_recv_prefix(other, "(sense_body ", buf, sizeof buf, 2000, NULL), 0);
    close(other);
    close(fd);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(reconnect, reference_behaviour_behind_a_parameter, .timeout = 60)
{
    e2e_server_t s;
    const char *args[] = { "server::reconnect_any_address=true", NULL };
    cr_assert_eq(e2e_server_start(&s, args), 0);
    char reply[256];
    int fd = join(&s, reply, sizeof reply);
    int other = es_udp_open_at("127.0.0.2");
    reconnect(&s, other, "(reconnect TeamA 1)");
    cr_expect_str_eq(buf, "(reconnect l before_kick_off)");
    close(other);
    close(fd);
    cr_expect_eq(e2e_server_stop(&s), 0);
}
