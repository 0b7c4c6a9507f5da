/* test_052_subs.c -- substitutions by the online coach end to end in synch mode (see
 * docs/protocol/coach.md §4, §6, §7): every rule in the reference's order, and every
 * player of both teams hearing the notice of each one (v7+: its own team's with the
 * type, the other team's without; v<7 nothing), both coaches too; the goalie change
 * and its notice for everyone from v16. The sim decides and answers at its next step
 * (the notices come first, then the coach's (ok ...)), so each command is followed by
 * one step before its reply is read. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "e2e.h"
#include "e2e_trainer.h"

static char buf[65536];

typedef struct match {
    e2e_server_t  s;
    e2e_group_t   g;
    e2e_client_t *a[4];            /* TeamA 1..4 (1 the goalie, holding the server) */
    e2e_client_t *b[2];            /* TeamB 1 (v19), 2 (v6) */
    e2e_client_t *t, *ca, *cb;     /* trainer, online coaches */
} match_t;

static match_t m;

static void setup(void)
{
    /* regular time: 2 halves of 1 s (10 cycles); no referee (the trainer sets modes) */
    const char *args[] = { "server::coach=true", "server::synch_mode=true",
                           "server::synch_timeout=20000", "server::half_time=1",
                           "server::nr_extra_halfs=0", NULL };
    cr_assert_eq(e2e_server_start(&m.s, args), 0);
    e2e_group_init(&m.g);
    m.a[0] = e2e_group_join(&m.g, "A1", m.s.port, "(init TeamA (version 19) (goalie))", 1);
    for (int i = 1; i < 4; i++)
        m.a[i] = e2e_group_join(&m.g, "A", m.s.port, "(init TeamA (version 19))", 0);
    m.b[0] = e2e_group_join(&m.g, "B1", m.s.port, "(init TeamB (version 19))", 0);
    m.b[1] = e2e_group_join(&m.g, "B2", m.s.port, "(init TeamB (version 6))", 0);
    m.t = e2e_group_join(&m.g, "T", m.s.coach_port, "(init (version 19))", 0);
    m.ca = e2e_group_join(&m.g, "CA", m.s.olcoach_port, "(init TeamA (version 19))", 0);
    m.cb = e2e_group_join(&m.g, "CB", m.s.olcoach_port, "(init TeamB (version 19))", 0);
    for (int i = 0; i < m.g.n; i++)
        cr_assert(m.g.c[i].fd >= 0 && m.g.c[i].nmsg > 0, "client %d did not connect", i);
    cr_assert_eq(e2e_group_step(&m.g, m.a[0], 1), 0);
    for (int i = 0; i < m.g.n; i++)
        e2e_group_clear(&m.g.c[i]);
}

static void teardown(void)
{
    e2e_group_close(&m.g);
    cr_expect_eq(e2e_server_stop(&m.s), 0);
}

/* the notice the acting coach heard just before its reply */
static char acting[128];

/* a command whose reply the sim decides: sent, one step, then the reply */
static void sub(e2e_client_t *c, const char *cmd, const char *expect)
{
    e2e_send(c->fd, c->port, cmd);
    e2e_group_pump(&m.g, 20); /* received before the step */
    cr_assert_eq(e2e_group_step(&m.g, m.a[0], 1), 0);
    e2e_group_pump(&m.g, 20);
    acting[0] = '\0';
    for (int i = 0; i < c->nmsg && strncmp(c->msg[i], "(ok ", 4) != 0; i++) {
        if (strncmp(c->msg[i], "(change_player_type ", 20) == 0)
            snprintf(acting, sizeof acting, "%s", c->msg[i]);
    }
    e2e_group_reply(&m.g, c, buf, sizeof buf);
    cr_expect_str_eq(buf, expect, "%s", cmd);
}

/* the notice every client heard for this substitution: own team, other team */
static void notices(int side_a, const char *own, const char *other)
{
    char got[256];
    e2e_group_pump(&m.g, 30);
    for (int i = 0; i < 4; i++) {
        e2e_group_wait(&m.g, m.a[i], "(change_player_type ", got, sizeof got, 500);
        cr_expect_str_eq(got, side_a ? own : other, "TeamA %d", i + 1);
    }
    e2e_group_wait(&m.g, m.b[0], "(change_player_type ", got, sizeof got, 500);
    cr_expect_str_eq(got, side_a ? other : own, "TeamB 1");
    cr_expect_eq(e2e_group_count(m.b[1], "(change_player_type "), 0, "v6 hears no notice");
    /* the acting coach heard it before its (ok ...) */
    cr_expect_str_eq(acting, own, "the acting coach");
    e2e_group_wait(&m.g, side_a ? m.cb : m.ca, "(change_player_type ", got, sizeof got, 500);
    cr_expect_str_eq(got, other, "the other coach");
}

/* nobody heard a notice */
static void silence(void)
{
    e2e_group_pump(&m.g, 30);
    for (int i = 0; i < m.g.n; i++)
        cr_expect_eq(e2e_group_count(&m.g.c[i], "(change_player_type "), 0, "%s",
                     m.g.c[i].name);
}

Test(subs, every_rule_and_every_notice, .init = setup, .fini = teardown, .timeout = 90)
{
    /* before the first kick-off: not counted (subs_max 3 is not reached by 4), but at
     * most pt_max (1) player of a type on the field, type 0 included
     * (allow_mult_default_type is off) unless the player already has it */
    sub(m.ca, "(change_player_type 2 1)", "(ok change_player_type 2 1)");
    notices(1, "(change_player_type 2 1)", "(change_player_type 2)");
    sub(m.ca, "(change_player_type 3 1)", "(warning max_of_that_type_on_field)");
    silence();
    sub(m.ca, "(change_player_type 2 2)", "(ok change_player_type 2 2)");
    notices(1, "(change_player_type 2 2)", "(change_player_type 2)");
    sub(m.ca, "(change_player_type 3 1)", "(ok change_player_type 3 1)");
    notices(1, "(change_player_type 3 1)", "(change_player_type 3)");
    sub(m.ca, "(change_player_type 4 0)", "(ok change_player_type 4 0)");
    notices(1, "(change_player_type 4 0)", "(change_player_type 4)");
    sub(m.ca, "(change_player_type 2 0)", "(warning max_of_that_type_on_field)");
    sub(m.ca, "(change_player_type 9 3)", "(warning no_such_player)");
    sub(m.ca, "(change_player_type 2 18)", "(error out_of_range_player_type)");
    sub(m.ca, "(change_player_type 2 -1)", "(error out_of_range_player_type)");
    silence();
    /* the other team's coach: its players hear the type, TeamA only the number */
    sub(m.cb, "(change_player_type 1 5)", "(ok change_player_type 1 5)");
    notices(0, "(change_player_type 1 5)", "(change_player_type 1)");

    /* the goalie change (v16): refused while a goalie is on the field */
    sub(m.ca, "(change_player_type 2 goalie)", "(error goalie_already_exists)");
    sub(m.cb, "(change_player_type 7 goalie)", "(warning no_such_player)");
    sub(m.cb, "(change_player_type 2 goalie)", "(ok change_player_type 2 goalie)");
    char got[128];
    for (int i = 0; i < 4; i++) {
        cr_expect_gt(e2e_group_wait(&m.g, m.a[i], "(change_player_type ", got, sizeof got, 500), 0);
        cr_expect_str_eq(got, "(change_player_type r 2 goalie)");
    }
    cr_expect_gt(e2e_group_wait(&m.g, m.b[0], "(change_player_type ", got, sizeof got, 500), 0);
    cr_expect_str_eq(got, "(change_player_type r 2 goalie)");
    cr_expect_gt(e2e_group_wait(&m.g, m.ca, "(change_player_type ", got, sizeof got, 500), 0);
    cr_expect_str_eq(got, "(change_player_type r 2 goalie)");
    cr_expect_eq(e2e_group_count(m.b[1], "(change_player_type "), 0);

    /* kick-off; in play_on nothing changes */
    cr_assert_eq(e2e_group_cmd(&m.g, m.t, "(change_mode kick_off_l)", buf, sizeof buf), 0);
    cr_assert_eq(e2e_group_step(&m.g, m.a[0], 1), 0);
    cr_assert_eq(e2e_group_cmd(&m.g, m.t, "(change_mode play_on)", buf, sizeof buf), 0);
    cr_assert_eq(e2e_group_step(&m.g, m.a[0], 1), 0);
    for (int i = 0; i < m.g.n; i++)
        e2e_group_clear(&m.g.c[i]);
    sub(m.ca, "(change_player_type 2 4)", "(warning cannot_sub_while_playon)");
    sub(m.ca, "(change_player_type 1 goalie)", "(warning cannot_change_goalie_while_playon)");
    silence();

    /* after kick-off every substitution counts: subs_max (3), and a type once used
     * cannot be taken by a second player (no_left_of_that_type) */
    cr_assert_eq(e2e_group_cmd(&m.g, m.t, "(change_mode free_kick_l)", buf, sizeof buf), 0);
    cr_assert_eq(e2e_group_step(&m.g, m.a[0], 1), 0);
    for (int i = 0; i < m.g.n; i++)
        e2e_group_clear(&m.g.c[i]);
    sub(m.ca, "(change_player_type 2 4)", "(ok change_player_type 2 4)");
    notices(1, "(change_player_type 2 4)", "(change_player_type 2)");
    sub(m.ca, "(change_player_type 3 4)", "(warning no_left_of_that_type)");
    sub(m.ca, "(change_player_type 2 5)", "(ok change_player_type 2 5)");
    notices(1, "(change_player_type 2 5)", "(change_player_type 2)");
    sub(m.ca, "(change_player_type 3 2)", "(ok change_player_type 3 2)");
    notices(1, "(change_player_type 3 2)", "(change_player_type 3)");
    sub(m.ca, "(change_player_type 4 6)", "(warning no_subs_left)");
    silence();

    /* past regular time (2 halves of 10 cycles) substitutions are over */
    cr_assert_eq(e2e_group_cmd(&m.g, m.t, "(look)", buf, sizeof buf), 0);
    int now = -1;
    cr_assert_eq(sscanf(buf, "(ok look %d", &now), 1);
    cr_assert_eq(e2e_group_cmd(&m.g, m.t, "(change_mode play_on)", buf, sizeof buf), 0);
    cr_assert_eq(e2e_group_step(&m.g, m.a[0], 20 - now + 1), 0);
    cr_assert_eq(e2e_group_cmd(&m.g, m.t, "(change_mode free_kick_r)", buf, sizeof buf), 0);
    cr_assert_eq(e2e_group_step(&m.g, m.a[0], 1), 0);
    sub(m.cb, "(change_player_type 1 6)", "(warning cannot_sub_while_penalty_shootouts)");
    silence();
}
