/* test_clock.c -- absolute deadlines (no drift), catching up a small lag, skipping slots
 * when far behind, and the synch-mode "all done" test on a client table. Pure: no
 * sleeping, the "now" values are made up. */
#include <criterion/criterion.h>
#include <string.h>
#include "sim.h"

#define MS 1000000LL

Test(clock, deadline_is_epoch_plus_k_steps, .timeout = 10)
{
    cr_expect_eq(sim_clock_deadline(5000, 100 * MS, 0), 5000);
    cr_expect_eq(sim_clock_deadline(5000, 100 * MS, 6000), 5000 + 600000 * MS);
    cr_expect_eq(sim_clock_deadline(-7, 3, 1000000000ull), -7 + 3000000000LL);
}

/* each step is woken late by a varying jitter (up to 9 ms) and takes time; the slot
 * sequence is still 1, 2, 3 ... and step N lands on epoch + N * step exactly */
Test(clock, no_accumulated_error, .timeout = 10)
{
    int64_t epoch = 123456789, step = 100 * MS;
    uint64_t k = 0, skipped = 0;
    for (int n = 1; n <= 6000; n++) {
        int64_t jitter = (int64_t)((n * 7919) % 10) * MS;
        int64_t now = sim_clock_deadline(epoch, step, k) + jitter; /* step k just ran */
        k = sim_clock_next(epoch, step, k, now, 2, &skipped);
        cr_assert_eq(k, (uint64_t)n);
    }
    cr_expect_eq(skipped, 0u);
    cr_expect_eq(sim_clock_deadline(epoch, step, k), epoch + 600000 * MS, "6000 cycles = 600 s");
}

Test(clock, small_lag_is_caught_up, .timeout = 10)
{
    uint64_t skipped = 0;
    /* slot 10 ran 150 ms late: slot 11 is due already, run it (no skip) */
    cr_expect_eq(sim_clock_next(0, 100 * MS, 10, 1150 * MS, 2, &skipped), 11u);
    cr_expect_eq(skipped, 0u);
}

Test(clock, big_lag_skips_slots, .timeout = 10)
{
    uint64_t skipped = 0;
    /* after slot 10 the sim stalled until t = 2.55 s: slots 11..24 are dropped */
    uint64_t k = sim_clock_next(0, 100 * MS, 10, 2550 * MS, 2, &skipped);
    cr_expect_eq(k, 25u);
    cr_expect_eq(skipped, 14u);
    cr_expect_eq(sim_clock_deadline(0, 100 * MS, k), 2500 * MS, "still on the grid");
}

Test(clock, all_done_counts_active_players, .timeout = 10)
{
    static shm_region_sh_t r; /* only the client table is used */
    memset(&r, 0, sizeof r);
    int n = -1;
    cr_expect_eq(sim_clock_all_done(&r, 5, &n), 1);
    cr_expect_eq(n, 0);
    atomic_store(&r.client[0].state, CLIENT_ST_ACTIVE);
    atomic_store(&r.client[13].state, CLIENT_ST_ACTIVE);
    atomic_store(&r.client[0].done_step, 5);
    atomic_store(&r.client[13].done_step, 4);
    atomic_store(&r.client[5].done_step, 0); /* not active: ignored */
    cr_expect_eq(sim_clock_all_done(&r, 5, &n), 0);
    cr_expect_eq(n, 2);
    atomic_store(&r.client[13].done_step, 5);
    cr_expect_eq(sim_clock_all_done(&r, 5, &n), 1);
}
