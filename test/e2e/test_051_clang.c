/* test_051_clang.c -- the coach language end to end in synch mode, one cycle at a time
 * (docs/protocol/coach.md §8; docs/protocol/clang.md): messages re-serialised and released
 * in order at the next step outside play_on and clang_mess_delay cycles after receipt in
 * play_on, each player getting the message or (unsupported_clang) by its announced range,
 * the trainer hearing them quoted; the per-type windows; freeform outside play_on and in
 * the play_on windows only, with its count; parse errors.
 *
 * The server holds every cycle until the holding player H answers its (think), so a
 * coach message sent between two steps is received at a known cycle. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "e2e.h"
#include "e2e_trainer.h"

static char buf[65536];

/* the cycle of the world standing still: the trainer's (ok look T ...) */
static int now(e2e_group_t *g, e2e_client_t *t)
{
    cr_assert_eq(e2e_group_cmd(g, t, "(look)", buf, sizeof buf), 0);
    int time = -1;
    cr_assert_eq(sscanf(buf, "(ok look %d", &time), 1, "%s", buf);
    return time;
}

static void say(e2e_group_t *g, e2e_client_t *c, const char *msg, const char *expect)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "(say %s)", msg);
    e2e_group_cmd(g, c, cmd, buf, sizeof buf);
    cr_expect_str_eq(buf, expect, "%s", msg);
}

/* the first coach message c heard (consumed), "" if none yet */
static const char *heard(e2e_group_t *g, e2e_client_t *c)
{
    e2e_group_pump(g, 20);
    if (e2e_group_wait(g, c, "(hear ", buf, sizeof buf, 0) == 0)
        return "";
    return buf;
}

#define ADVICE "(advice (1 (true) (do our {3 4} (shoot))))"
#define ADVICE_OUT "(advice (1 (true) (do our {4 3} (shoot))))"
#define INFO "(info (1 (true) (do our {1} (pos (pt 0.50 1.0)))))"
#define INFO_OUT "(info (1 (true) (do our {1} (pos (pt 0.5 1)))))"

Test(clang, delivery_delay_and_ranges, .timeout = 60)
{
    const char *args[] = { "server::coach=true", "server::synch_mode=true",
                           "server::synch_timeout=20000", "server::clang_mess_delay=5",
                           "server::clang_mess_per_cycle=1", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    e2e_group_t g;
    e2e_group_init(&g);
    e2e_client_t *h = e2e_group_join(&g, "H", s.port, "(init TeamA (version 19))", 1);
    e2e_client_t *p78 = e2e_group_join(&g, "P78", s.port, "(init TeamA (version 19))", 0);
    e2e_client_t *p8 = e2e_group_join(&g, "P8", s.port, "(init TeamA (version 19))", 0);
    e2e_client_t *q = e2e_group_join(&g, "Q", s.port, "(init TeamB (version 19))", 0);
    e2e_client_t *t = e2e_group_join(&g, "T", s.coach_port, "(init (version 19))", 0);
    e2e_client_t *c = e2e_group_join(&g, "C", s.olcoach_port, "(init TeamA (version 19))", 0);
    cr_assert(h && p78 && p8 && q && t && c);
    cr_assert_eq(e2e_group_cmd(&g, p78, "(clang (ver 7 8))", buf, sizeof buf), 0);
    cr_assert_eq(e2e_group_cmd(&g, p8, "(clang (ver 8 8))", buf, sizeof buf), 0);
    cr_assert_eq(e2e_group_cmd(&g, q, "(clang (ver 7 8))", buf, sizeof buf), 0);
    cr_assert_eq(e2e_group_cmd(&g, t, "(ear on)", buf, sizeof buf), 0);
    cr_assert_eq(e2e_group_step(&g, h, 2), 0);
    /* clang.md §1: the coach hears its players' ranges */
    cr_expect_gt(e2e_group_wait(&g, c, "(clang (ver (p \"TeamA\" 3) 8 8))", buf, sizeof buf,
                                2000), 0);
    e2e_group_clear(h);
    e2e_group_clear(p78);
    e2e_group_clear(p8);
    e2e_group_clear(q);
    e2e_group_clear(t);

    /* coach.md §8: before kick-off, released at the next step, in order; clang_mess_per_cycle
     * does not hold the second back (the reference's loop never limits it) */
    int t0 = now(&g, t);
    cr_expect_eq(t0, 0);
    say(&g, c, ADVICE, "(ok say)");
    say(&g, c, "(freeform \"line up\")", "(ok say)");
    cr_assert_eq(e2e_group_step(&g, h, 1), 0);
    /* clang.md §3: re-serialised ({3 4} comes out as {4 3}); clang.md §1: advice is 7-only, freeform
     * "7 or 8": the [8,8] player gets (unsupported_clang) for the advice only, the
     * players who never announced a range for both */
    cr_expect_str_eq(heard(&g, p78), "(hear 0 online_coach_left " ADVICE_OUT ")");
    cr_expect_str_eq(heard(&g, p78), "(hear 0 online_coach_left (freeform \"line up\"))");
    cr_expect_str_eq(heard(&g, p8), "(hear 0 online_coach_left (unsupported_clang))");
    cr_expect_str_eq(heard(&g, p8), "(hear 0 online_coach_left (freeform \"line up\"))");
    cr_expect_str_eq(heard(&g, h), "(hear 0 online_coach_left (unsupported_clang))");
    cr_expect_str_eq(heard(&g, h), "(hear 0 online_coach_left (unsupported_clang))");
    /* the other team hears nothing; the trainer hears it quoted */
    cr_expect_str_eq(heard(&g, q), "");
    cr_expect_str_eq(heard(&g, t), "(hear 0 online_coach_left \"" ADVICE_OUT "\")");
    cr_expect_str_eq(heard(&g, t), "(hear 0 online_coach_left \"(freeform \"line up\")\")");

    /* in play_on: clang_mess_delay (5) cycles after the cycle it was received in */
    cr_assert_eq(e2e_group_cmd(&g, t, "(change_mode play_on)", buf, sizeof buf), 0);
    cr_assert_eq(e2e_group_step(&g, h, 1), 0);
    e2e_group_clear(p78);
    e2e_group_clear(p8);
    e2e_group_clear(t);
    int r = now(&g, t);
    say(&g, c, INFO, "(ok say)");
    cr_assert_eq(e2e_group_step(&g, h, 5), 0); /* the steps from r to r+4 */
    cr_expect_str_eq(heard(&g, p78), "", "released before clang_mess_delay");
    cr_assert_eq(e2e_group_step(&g, h, 1), 0); /* the step from r+5 releases it */
    char expect[256];
    snprintf(expect, sizeof expect, "(hear %d online_coach_left " INFO_OUT ")", r + 5);
    cr_expect_str_eq(heard(&g, p78), expect);
    snprintf(expect, sizeof expect, "(hear %d online_coach_left (unsupported_clang))", r + 5);
    cr_expect_str_eq(heard(&g, p8), expect);
    e2e_group_close(&g);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(clang, windows_freeform_and_errors, .timeout = 60)
{
    const char *args[] = { "server::coach=true", "server::synch_mode=true",
                           "server::synch_timeout=20000", "server::clang_win_size=10",
                           "server::freeform_wait_period=8", "server::freeform_send_period=3",
                           "server::say_coach_cnt_max=3", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    e2e_group_t g;
    e2e_group_init(&g);
    e2e_client_t *h = e2e_group_join(&g, "H", s.port, "(init TeamA (version 19))", 1);
    e2e_client_t *t = e2e_group_join(&g, "T", s.coach_port, "(init (version 19))", 0);
    e2e_client_t *c = e2e_group_join(&g, "C", s.olcoach_port, "(init TeamA (version 19))", 0);
    cr_assert(h && t && c);
    cr_assert_eq(e2e_group_step(&g, h, 1), 0);
    /* clang.md §2: what does not parse, or is too long */
    say(&g, c, "(advice)", "(error could_not_parse_say)");
    say(&g, c, "(info (1 (true) (do our {1} (fly))))", "(error could_not_parse_say)");
    char big[200];
    snprintf(big, sizeof big, "(freeform \"%0129d\")", 0);
    say(&g, c, big, "(error could_not_parse_say)");
    /* (unsupported_clang) parses but is neither answered nor said: the next reply is
     * the look's */
    e2e_send(c->fd, c->port, "(say (unsupported_clang))");
    e2e_group_cmd(&g, c, "(look)", buf, sizeof buf);
    cr_expect_eq(strncmp(buf, "(ok look", 8), 0, "%s", buf);
    /* outside play_on no window applies */
    say(&g, c, "(meta (ver 8))", "(ok say)");
    say(&g, c, "(meta (ver 8))", "(ok say)");

    /* play_on from cycle P: one message of each type per window of clang_win_size (10)
     * cycles; the reference refills the windows at the steps of cycles 0, 10, 20, ..., so
     * a message received in cycle t is counted in window (t - 1) / 10 */
    cr_assert_eq(e2e_group_cmd(&g, t, "(change_mode play_on)", buf, sizeof buf), 0);
    cr_assert_eq(e2e_group_step(&g, h, 1), 0);
    int p = now(&g, t) - 1; /* the cycle play_on began in */
    cr_assert_eq(p, 0);
    static const char *const kinds[6][2] = {
        { "(info (1 (true) \"d\"))", "info" },
        { "(advice (1 (true) \"d\"))", "advice" },
        { "(define (definec \"c\" (true)))", "define" },
        { "(meta (ver 8))", "meta" },
        { "(rule (on r1))", "rule" },
        { "(delete r1)", "del" },
    };
    for (int k = 0; k < 6; k++) {
        char err[96];
        say(&g, c, kinds[k][0], "(ok say)");
        snprintf(err, sizeof err, "(error said_too_many_%s_messages)", kinds[k][1]);
        say(&g, c, kinds[k][0], err);
    }
    /* freeform in play_on (coach.md §8): only in windows of freeform_send_period (3) cycles
     * after every freeform_wait_period (8) cycles of play_on: at P+9, P+10, then
     * P+16..P+18, P+24..P+26; and say_coach_cnt_max (3) per game */
    static const struct { int at; const char *msg; const char *want; } steps[] = {
        { 8, "(freeform \"a\")", "(error cannot_say_freeform_while_playon)" },
        { 9, "(freeform \"b\")", "(ok say)" },
        /* cycle 10 still counts in the first window of messages, 11 in the next */
        { 10, "(info (1 (true) \"d\"))", "(error said_too_many_info_messages)" },
        { 11, "(info (1 (true) \"d\"))", "(ok say)" },
        { 11, "(info (1 (true) \"d\"))", "(error said_too_many_info_messages)" },
        { 11, "(freeform \"c\")", "(error cannot_say_freeform_while_playon)" },
        { 15, "(freeform \"d\")", "(error cannot_say_freeform_while_playon)" },
        { 16, "(freeform \"e\")", "(ok say)" },
        { 17, "(freeform \"f\")", "(ok say)" },
        { 18, "(freeform \"g\")", "(error said_too_many_freeform_messages)" },
        { 19, "(freeform \"h\")", "(error cannot_say_freeform_while_playon)" },
        { 24, "(freeform \"i\")", "(error said_too_many_freeform_messages)" },
    };
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        int cur = now(&g, t);
        cr_assert_leq(cur, p + steps[i].at);
        cr_assert_eq(e2e_group_step(&g, h, p + steps[i].at - cur), 0);
        cr_assert_eq(now(&g, t), p + steps[i].at);
        say(&g, c, steps[i].msg, steps[i].want);
    }
    e2e_group_close(&g);
    cr_expect_eq(e2e_server_stop(&s), 0);
}
