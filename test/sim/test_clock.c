/* test_clock.c -- absolute deadlines on the timer grid (no drift), a late step moving
 * the grid instead of a catch-up, and the synch-mode "all done" test on a client
 * table. Pure: no sleeping, the "now" values are made up. */
#include <criterion/criterion.h>
#include <string.h>
#include "sim.h"

#define MS 1000000LL

Test(clock, poll_p_is_due_at_grid0_plus_p_polls, .timeout = 10)
{
    cr_expect_eq(sim_clock_due(5000, 0), 5000);
    cr_expect_eq(sim_clock_due(5000, 60000), 5000 + 600000 * MS);
    cr_expect_eq(sim_clock_due(-7, 1000000000ull), -7 + 10000000000LL * MS);
}

/* each step is woken late by a varying jitter (up to 9 ms, less than a poll) and takes
 * time; the grid never moves and step N lands on grid0 + N * 100 ms exactly */
Test(clock, no_accumulated_error, .timeout = 10)
{
    int64_t grid0 = 123456789;
    int moved_any = 0;
    for (uint64_t n = 1; n <= 6000; n++) {
        int64_t jitter = (int64_t)((n * 7919) % 10) * MS;
        int moved = 0;
        int64_t now = sim_clock_due(grid0, n * 10) + jitter; /* step n just ran */
        grid0 = sim_clock_regrid(grid0, n * 10, now, SIM_LATE_NS, &moved);
        moved_any |= moved;
    }
    cr_expect_eq(moved_any, 0);
    cr_expect_eq(grid0, 123456789, "6000 cycles = 600 s on the same grid");
}

/* the sim stalled 60 ms before the step of poll 110: the grid moves by 60 ms, so the
 * next step is due a whole step after this one, not 40 ms later (no catch-up) */
Test(clock, a_late_step_moves_the_grid, .timeout = 10)
{
    int moved = 0;
    int64_t grid0 = sim_clock_regrid(0, 110, 1160 * MS, SIM_LATE_NS, &moved);
    cr_expect_eq(moved, 1);
    cr_expect_eq(grid0, 60 * MS);
    cr_expect_eq(sim_clock_due(grid0, 120), 1260 * MS);
    /* exactly one poll late moves it too; a little less does not */
    grid0 = sim_clock_regrid(0, 10, 110 * MS, SIM_LATE_NS, &moved);
    cr_expect_eq(moved, 1);
    grid0 = sim_clock_regrid(0, 10, 109 * MS, SIM_LATE_NS, &moved);
    cr_expect_eq(moved, 0);
    cr_expect_eq(grid0, 0);
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
