/* test_tgrid.c -- the timer schedule: which polls step, send sense_body, tick the see
 * counters, send synch sees, coach visuals and (think), for the default parameters
 * (spec: a 10 ms poll, steps every 100 ms, see ticks at the first poll at or after each
 * multiple of 37.5 ms, 8 per 300 ms) and for offsets, slow-down and odd steps. */
#include <criterion/criterion.h>
#include "tgrid.h"

static tgrid_param_t defaults(int synch)
{
    return (tgrid_param_t){ .simulator_step = 100, .send_step = 150, .recv_step = 10,
                            .sense_body_step = 100, .send_vi_step = 100,
                            .synch_offset = 60, .synch_see_offset = 0,
                            .slow_down_factor = 1, .synch_mode = synch };
}

static void init(tgrid_t *t, tgrid_param_t p)
{
    char err[128];
    cr_assert_eq(tgrid_init(t, &p, err, sizeof err), 0, "%s", err);
}

/* the polls in [from, to] that carry mark m, as a list */
static int polls_with(const tgrid_t *t, uint64_t from, uint64_t to, unsigned m, uint64_t *out)
{
    int n = 0;
    for (uint64_t p = from; p <= to; p++) {
        if (tgrid_marks(t, p) & m)
            out[n++] = p;
    }
    return n;
}

Test(tgrid, default_real_time)
{
    tgrid_t t;
    init(&t, defaults(0));
    cr_assert_eq(t.n, 30, "a period of 300 ms");
    uint64_t p[64];
    /* a later period (polls 301..330 = 3000..3300 ms): steps at 100, 200, 300 ms */
    int n = polls_with(&t, 301, 330, TGRID_STEP, p);
    cr_assert_eq(n, 3);
    cr_expect_eq(p[0], 310);
    cr_expect_eq(p[1], 320);
    cr_expect_eq(p[2], 330);
    /* see ticks: 40, 80, 120, 150, 190, 230, 270, 300 ms into the period */
    static const uint64_t see[8] = { 304, 308, 312, 315, 319, 323, 327, 330 };
    n = polls_with(&t, 301, 330, TGRID_SEE, p);
    cr_assert_eq(n, 8);
    for (int i = 0; i < 8; i++)
        cr_expect_eq(p[i], see[i], "tick %d at poll %lu", i, (unsigned long)p[i]);
    /* sense_body, synch see (offset 0) and coach visuals with each step */
    for (uint64_t q = 301; q <= 330; q++) {
        unsigned m = tgrid_marks(&t, q);
        int step = (m & TGRID_STEP) != 0;
        cr_expect_eq((m & TGRID_SENSE) != 0, step, "poll %lu", (unsigned long)q);
        cr_expect_eq((m & TGRID_SYNCH_SEE) != 0, step, "poll %lu", (unsigned long)q);
        cr_expect_eq((m & TGRID_COACH) != 0, step, "poll %lu", (unsigned long)q);
        cr_expect_eq(m & TGRID_THINK, 0u);
    }
    tgrid_free(&t);
}

Test(tgrid, a_normal_view_sees_at_0_and_50_or_40_and_90_after_the_step)
{
    /* every 4th tick: depending on the tick a player's count started at */
    tgrid_t t;
    init(&t, defaults(0));
    uint64_t p[64];
    int n = polls_with(&t, 301, 420, TGRID_SEE, p);
    cr_assert_geq(n, 32);
    for (int start = 0; start < 4; start++) {
        int offs[8], k = 0;
        for (int i = start; i < n && k < 8; i += 4) {
            uint64_t step = p[i];
            while (!(tgrid_marks(&t, step) & TGRID_STEP))
                step--;
            offs[k++] = (int)(p[i] - step) * TGRID_POLL_MS;
        }
        /* two offsets 50 ms apart (mod 100), alternating */
        cr_expect_eq((offs[1] - offs[0] + 100) % 100, 50, "start %d: %d %d", start, offs[0], offs[1]);
        cr_expect_eq(offs[2], offs[0]);
    }
    tgrid_free(&t);
}

Test(tgrid, default_synch_mode)
{
    tgrid_t t;
    init(&t, defaults(1));
    cr_assert_eq(t.n, 30);
    uint64_t p[16];
    cr_assert_eq(polls_with(&t, 301, 330, TGRID_THINK, p), 3);
    cr_expect_eq(p[0], 306); /* synch_offset 60 ms after the step */
    cr_expect_eq(p[1], 316);
    cr_expect_eq(p[2], 326);
    cr_assert_eq(polls_with(&t, 301, 330, TGRID_STEP, p), 3);
    cr_expect_eq(p[0], 310);
    cr_assert_eq(polls_with(&t, 301, 330, TGRID_SEE, p), 8);
    cr_expect_eq(p[0], 304);
    cr_expect_eq(p[3], 315);
    tgrid_free(&t);
}

Test(tgrid, synch_see_offset)
{
    tgrid_param_t prm = defaults(0);
    prm.synch_see_offset = 30;
    tgrid_t t;
    init(&t, prm);
    uint64_t p[16];
    cr_assert_eq(polls_with(&t, 301, 360, TGRID_SYNCH_SEE, p), 6);
    for (int i = 0; i < 6; i++)
        cr_expect_eq(p[i] % 10, 3, "30 ms after each step: poll %lu", (unsigned long)p[i]);
    tgrid_free(&t);
}

Test(tgrid, slow_down_factor_doubles_every_step)
{
    tgrid_param_t prm = defaults(0);
    prm.slow_down_factor = 2;
    tgrid_t t;
    init(&t, prm);
    uint64_t p[16];
    cr_assert_eq(polls_with(&t, 601, 660, TGRID_STEP, p), 3);
    cr_expect_eq(p[1] - p[0], 20);
    cr_expect_eq(p[2] - p[1], 20);
    cr_assert_eq(polls_with(&t, 601, 660, TGRID_SEE, p), 8); /* 8 per 600 ms */
    tgrid_free(&t);
}

Test(tgrid, a_step_that_is_no_multiple_of_the_poll_lasts_whole_polls)
{
    /* real time: the clock is pulled back to each 25 ms step, so a step takes 3 polls */
    tgrid_param_t prm = defaults(0);
    prm.simulator_step = 25;
    prm.sense_body_step = 25;
    tgrid_t t;
    init(&t, prm);
    uint64_t p[64];
    int n = polls_with(&t, 1000, 1060, TGRID_STEP, p);
    cr_assert_geq(n, 10);
    for (int i = 1; i < n; i++)
        cr_expect_eq(p[i] - p[i - 1], 3);
    tgrid_free(&t);
}

Test(tgrid, sense_body_every_other_step)
{
    tgrid_param_t prm = defaults(0);
    prm.sense_body_step = 200;
    tgrid_t t;
    init(&t, prm);
    uint64_t p[16];
    cr_expect_eq(polls_with(&t, 601, 660, TGRID_STEP, p), 6);
    cr_expect_eq(polls_with(&t, 601, 660, TGRID_SENSE, p), 3);
    cr_expect_eq(p[1] - p[0], 20);
    tgrid_free(&t);
}

Test(tgrid, next_and_the_first_period)
{
    tgrid_t t;
    init(&t, defaults(0));
    cr_expect_eq(tgrid_next(&t, 0, TGRID_STEP), 10);
    cr_expect_eq(tgrid_next(&t, 10, TGRID_SEE), 12);
    cr_expect_eq(tgrid_next(&t, 12, TGRID_SEE), 15);
    cr_expect_eq(tgrid_next(&t, 29, TGRID_STEP | TGRID_SEE), 30);
    cr_expect_eq(tgrid_marks(&t, 0), 0u);
    tgrid_free(&t);
}

Test(tgrid, refuses_what_never_repeats_soon_enough)
{
    tgrid_param_t prm = defaults(0);
    prm.simulator_step = 99991;
    prm.send_step = 99989;
    tgrid_t t;
    char err[128];
    cr_expect_eq(tgrid_init(&t, &prm, err, sizeof err), -1);
    cr_expect(strstr(err, "repeat") != NULL, "%s", err);
    prm = defaults(0);
    prm.simulator_step = 0;
    cr_expect_eq(tgrid_init(&t, &prm, err, sizeof err), -1);
}
