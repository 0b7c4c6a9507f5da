/* test_042_hear.c -- what players hear, end to end on a synch-mode server (see
 * docs/protocol/player.md §7): a say heard at once by v6/v7 listeners in their forms, at
 * the start of the next cycle (after the sense_body) by v8+ listeners as our/opp, the
 * speaker's own message; one full message per team per cycle (hear_max/inc/decay 1),
 * the partial form with (ear (on our partial)), the attention target always first,
 * audio_cut_dist, and the trainer's say in its per-version forms.
 * Players (before the kick-off, at x = -3 unum side, y = -37, all facing +x):
 *   0 A1 v19 (-3,-37)   1 A2 v19 (-6,-37)   2 A3 v7 (-9,-37)
 *   3 B1 v9 (3,-37)     4 B2 v6 (6,-37)
 * so for A2, A1 is at 0 deg and A3 at 180; for A3, A1 is at 0; for B1/B2 team A is at
 * 180 deg. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_players.h"
#include "e2e_trainer.h"

#define N 5

static e2e_pl_t pl[N];
static const char *cmd[N];          /* sent at each player's next (think) */
static int mark[N];

static void on_msg(e2e_pl_t *p, int i, const char *msg, void *ctx)
{
    (void)p;
    (void)ctx;
    if (strcmp(msg, "(think)") == 0 && cmd[i]) {
        e2e_pl_send(&pl[i], cmd[i]);
        cmd[i] = NULL;
    }
}

/* one cycle with these commands (NULL: none), then one more for the v8+ releases */
static void say_round(const char *c0, const char *c1, const char *c2, const char *c3,
                      const char *c4)
{
    const char *c[N] = { c0, c1, c2, c3, c4 };
    for (int i = 0; i < N; i++) {
        cmd[i] = c[i];
        mark[i] = pl[i].n;
    }
    cr_assert_eq(e2e_pl_run(pl, N, 1, 10000, on_msg, NULL), 0);
    cr_assert_eq(e2e_pl_run(pl, N, 2, 10000, on_msg, NULL), 0);
}

/* the messages of player i since the round began that start with prefix */
static int count_since(int i, const char *prefix)
{
    int n = 0, k = mark[i];
    while (e2e_pl_find(&pl[i], prefix, &k)) {
        n++;
        k++;
    }
    return n;
}

/* full our-forms (hear T DIR our UNUM "MSG") player i got since the round began */
static int count_full_our(int i)
{
    int n = 0;
    for (int k = mark[i]; k < pl[i].n; k++) {
        const char *m = pl[i].msg[k];
        n += strncmp(m, "(hear 0 ", 8) == 0 && strstr(m, " our ") && strchr(m, '"');
    }
    return n;
}

static const char *find_since(int i, const char *prefix)
{
    int k = mark[i];
    return e2e_pl_find(&pl[i], prefix, &k);
}

/* a v8+ message comes after the first sense_body that follows the say */
static void after_sense_body(int i, const char *msg)
{
    int k = mark[i], s = mark[i];
    cr_assert(e2e_pl_find(&pl[i], msg, &k), "player %d: missing %s", i, msg);
    cr_assert(e2e_pl_find(&pl[i], "(sense_body ", &s) && s < k, "player %d: %s early", i, msg);
}

static e2e_server_t srv;

static void start(void)
{
    const char *args[] = { "server::synch_mode=true", "server::coach_w_referee=true",
                           "server::synch_timeout=20000", NULL };
    cr_assert_eq(e2e_server_start(&srv, args), 0);
    static const char *const init[N] = {
        "(init A (version 19))", "(init A (version 19))", "(init A (version 7))",
        "(init B (version 9))", "(init B (version 6))",
    };
    for (int i = 0; i < N; i++)
        cr_assert_eq(e2e_pl_connect(&pl[i], &srv, init[i]), 0, "%s", pl[i].first);
    cr_assert_eq(e2e_pl_run(pl, N, 2, 10000, NULL, NULL), 0);
}

static void stop(void)
{
    for (int i = 0; i < N; i++)
        e2e_pl_close(&pl[i]);
    cr_expect_eq(e2e_server_stop(&srv), 0);
}

Test(hear, forms_by_version_and_timing, .timeout = 120)
{
    start();
    say_round("(say \"hi\")", NULL, NULL, NULL, NULL);
    after_sense_body(0, "(hear 0 self \"hi\")");
    after_sense_body(1, "(hear 0 0 our 1 \"hi\")");
    after_sense_body(3, "(hear 0 180 opp \"hi\")");
    cr_assert(find_since(2, "(hear 0 0 \"hi\")"), "v7: at once, quoted");
    cr_assert(find_since(4, "(hear 0 180 hi)"), "v6: at once, bare");
    /* too long (say_msg_size 10): dropped silently, the count stays */
    say_round("(say \"abcdefghijk\")", NULL, NULL, NULL, NULL);
    for (int i = 0; i < N; i++)
        cr_assert_eq(count_since(i, "(hear"), 0, "player %d", i);
    stop();
}

Test(hear, capacity_partial_and_attention, .timeout = 120)
{
    start();
    /* A1 and A3 speak in one cycle: teammate A2 hears one in full, nothing of the other */
    say_round("(say \"one\")", NULL, "(say \"three\")", NULL, NULL);
    cr_assert_eq(count_full_our(1), 1);
    cr_assert_eq(count_since(1, "(hear 0 our "), 0, "partial hearing is off by default");
    /* B1 (v9) hears one message of team A in full too */
    cr_assert_eq(count_since(3, "(hear 0 180 opp "), 1);
    /* with partial hearing on, the second one comes as (hear T our UNUM) */
    say_round(NULL, "(ear (on our partial))", NULL, NULL, NULL);
    say_round("(say \"one\")", NULL, "(say \"three\")", NULL, NULL);
    cr_assert_eq(count_full_our(1), 1);
    cr_assert_eq(count_since(1, "(hear 0 our "), 1);
    /* the attention target's message always comes first, so always in full */
    say_round(NULL, "(attentionto our 3)", NULL, NULL, NULL);
    for (int round = 0; round < 4; round++) {
        say_round("(say \"one\")", NULL, "(say \"three\")", NULL, NULL);
        cr_assert(find_since(1, "(hear 0 180 our 3 \"three\")"), "round %d", round);
        cr_assert(find_since(1, "(hear 0 our 1)"), "round %d", round);
    }
    /* complete hearing of our team off: with capacity to spare the reference sends
     * nothing at all (the partial form is only for messages beyond the capacity) */
    say_round(NULL, "(ear (off our complete))", NULL, NULL, NULL);
    say_round("(say \"one\")", NULL, NULL, NULL, NULL);
    cr_assert_eq(count_full_our(1), 0);
    cr_assert_eq(count_since(1, "(hear 0 our "), 0);
    stop();
}

/* audio_cut_dist 50: B2 moved to (50, -30) is 53.5 m from A1 and hears nothing of it;
 * B1 at 6 m still does */
Test(hear, audio_cut_dist, .timeout = 120)
{
    start();
    say_round(NULL, NULL, NULL, NULL, "(move -50 30)");
    say_round("(say \"far\")", NULL, NULL, NULL, NULL);
    cr_assert_eq(count_since(4, "(hear"), 0);
    cr_assert(find_since(3, "(hear 0 180 opp \"far\")"));
    stop();
}

/* the trainer's say: "referee" to v1-v6, "coach" quoted from v7; v7 at once, v8+ at the
 * start of the next cycle */
Test(hear, trainer_say, .timeout = 120)
{
    start();
    e2e_trainer_t t;
    cr_assert_eq(e2e_trainer_connect(&t, &srv, 19), 0);
    for (int i = 0; i < N; i++)
        mark[i] = pl[i].n;
    cr_assert_eq(e2e_trainer_say(&t, "go"), 0);
    cr_assert_eq(e2e_pl_run(pl, N, 3, 10000, NULL, NULL), 0);
    cr_assert(find_since(4, "(hear 0 referee go)"));
    cr_assert(find_since(2, "(hear 0 coach \"go\")"));
    cr_assert(find_since(0, "(hear 0 coach \"go\")"));
    cr_assert(find_since(3, "(hear 0 coach \"go\")"));
    e2e_trainer_close(&t);
    stop();
}
