/* test_142_numbers.c -- joining as the reference does it (both checked against rcssserver
 * 19). Player numbers: an (init) gets 1 + the players that joined the team with (init)
 * before (a number freed by (bye) is never given again), and a (reconnect) to a number
 * nobody joined with does not count; the (init) that reaches such a number takes the
 * player over: the reconnected client is dropped and the new one is that player, with its
 * own protocol (a later reconnect to the number gets v19 parameter messages). Blanks
 * before (init: refused on the player and online-coach ports, skipped on the trainer's. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_players.h"

static char buf[E2E_PL_MSG];

static void join(e2e_pl_t *p, const e2e_server_t *s, const char *line, const char *reply)
{
    cr_assert_eq(e2e_pl_connect(p, s, line), 0, "%s: %s", line, p->first);
    cr_expect_str_eq(p->first, reply, "%s", line);
}

/* sense_bodies p receives within ms */
static int sense_bodies(e2e_pl_t *p, int ms)
{
    int n = 0;
    double end = e2e_now_ms() + ms;
    while (e2e_now_ms() < end) {
        if (e2e_pl_recv(p, buf, sizeof buf, 50) > 0 && strncmp(buf, "(sense_body ", 12) == 0)
            n++;
    }
    return n;
}

Test(numbers, reconnect_to_an_unused_number_does_not_count, .timeout = 60)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    e2e_pl_t a1, a2, a3, a4, r, again, late;
    join(&a1, &s, "(init TA (version 19))", "(init l 1 before_kick_off)");
    /* number 3 never joined: the reconnect makes it a version-3 player (no parameters) */
    join(&r, &s, "(reconnect TA 3)", "(reconnect l before_kick_off)");
    cr_expect_gt(sense_bodies(&r, 400), 0, "the reconnected player is served");
    join(&a2, &s, "(init TA (version 19))", "(init l 2 before_kick_off)");
    join(&a3, &s, "(init TA (version 19))", "(init l 3 before_kick_off)");
    join(&a4, &s, "(init TA (version 19))", "(init l 4 before_kick_off)");
    /* number 3 is a3's now: r hears nothing more. What was sent to r before a3 took its
     * place is in r's socket once a3 has been served a cycle: read it away */
    cr_assert_gt(e2e_pl_wait(&a3, "(sense_body ", buf, sizeof buf, 5000), 0, "a3 is not served");
    while (e2e_pl_recv(&r, buf, sizeof buf, 0) > 0)
        ;
    e2e_pl_clear(&r);
    cr_expect_eq(sense_bodies(&r, 500), 0, "the reconnected client was replaced");
    cr_expect_gt(sense_bodies(&a3, 500), 0);
    /* a reconnect to 3 now takes a3's v19 player: the parameters follow the reply */
    join(&again, &s, "(reconnect TA 3)", "(reconnect l before_kick_off)");
    cr_expect_gt(e2e_pl_wait(&again, "(server_param ", buf, sizeof buf, 2000), 0);
    cr_expect_gt(e2e_pl_wait(&again, "(player_param ", buf, sizeof buf, 2000), 0);
    /* number 4 leaves: the next init is 5 all the same */
    e2e_pl_send(&a4, "(bye)");
    join(&late, &s, "(init TA (version 19))", "(init l 5 before_kick_off)");
    e2e_pl_close(&a1);
    e2e_pl_close(&a2);
    e2e_pl_close(&a3);
    e2e_pl_close(&a4);
    e2e_pl_close(&r);
    e2e_pl_close(&again);
    e2e_pl_close(&late);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

/* the reply to one datagram sent to port from a fresh socket */
static void first_reply(int port, const char *msg, char *out, size_t len)
{
    int fd = e2e_udp_open();
    e2e_send(fd, port, msg);
    if (e2e_recv(fd, out, len, 2000, NULL) <= 0)
        out[0] = '\0';
    close(fd);
}

/* The reference compares "(init " and "(reconnect " from the first byte on the player
 * port and "(init" on the online-coach port (a blank before them is an unknown command
 * / an illegal form), but reads the trainer's init with a pattern that skips blanks. */
Test(numbers, blanks_before_init, .timeout = 60)
{
    e2e_server_t s;
    const char *args[] = { "server::coach=true", NULL };
    cr_assert_eq(e2e_server_start(&s, args), 0);
    first_reply(s.port, " (init TA (version 19))", buf, sizeof buf);
    cr_expect_str_eq(buf, "(error unknown_command)");
    first_reply(s.port, "\t(init TA (version 19))", buf, sizeof buf);
    cr_expect_str_eq(buf, "(error unknown_command)");
    e2e_pl_t a;
    join(&a, &s, "(init TA (version 19))", "(init l 1 before_kick_off)");
    first_reply(s.port, " (reconnect TA 1)", buf, sizeof buf);
    cr_expect_str_eq(buf, "(error unknown_command)");
    first_reply(s.olcoach_port, " (init TA (version 19))", buf, sizeof buf);
    cr_expect_str_eq(buf, "(error illegal_command_form)");
    first_reply(s.coach_port, " (init (version 19))", buf, sizeof buf);
    cr_expect_str_eq(buf, "(init ok)");
    e2e_pl_close(&a);
    cr_expect_eq(e2e_server_stop(&s), 0);
}
