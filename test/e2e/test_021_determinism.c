/* test_021_determinism.c -- reproducibility end to end: a server with all the noise on
 * (default parameters) and server::random_seed fixed runs a trainer-set scene where four
 * players dash, turn, kick and tackle around the ball by a fixed script for 120 cycles
 * in synch mode. Two runs (two server processes) with the same seed send every client
 * the same see_global and sense_body texts cycle by cycle; a run with another seed does
 * not. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "e2e.h"
#include "e2e_lockstep.h"

#define CYCLES 120

static const char *const teams[] = { "TA", "TB", "TA", "TB" };

static uint64_t fnv(uint64_t h, const char *s)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ull;
    }
    return h;
}

/* the script's own generator (the same for every run) */
static uint32_t lcg(uint32_t *x)
{
    *x = *x * 1664525u + 1013904223u;
    return *x >> 8;
}

static void command(uint32_t *x, char *out, size_t len)
{
    int p = (int)(lcg(x) % 101), d = (int)(lcg(x) % 361) - 180;
    switch (lcg(x) % 5) {
    case 0: snprintf(out, len, "(dash %d %d)", p, d); break;
    case 1: snprintf(out, len, "(turn %d)", d); break;
    case 2: snprintf(out, len, "(kick %d %d)", p, d); break;
    case 3: snprintf(out, len, "(tackle %d)", d); break;
    default: snprintf(out, len, "(dash (l %d 0) (r %d %d))", p, p / 2, d); break;
    }
}

/* one run: per cycle a digest of everything the clients were sent */
static void run(const char *seed, uint64_t *digest)
{
    char seed_arg[64];
    snprintf(seed_arg, sizeof seed_arg, "server::random_seed=%s", seed);
    const char *args[] = { "server::coach=true", "server::synch_mode=true", seed_arg,
                           "server::synch_timeout=20000", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    e2e_ls_t ls;
    cr_assert_eq(e2e_ls_open(&ls, &s, teams, 4), 0);
    cr_assert_eq(e2e_ls_think(&ls), 0);
    e2e_ls_send(&ls, -1, "(move (ball) 0 0 0 0 0)");
    e2e_ls_send(&ls, -1, "(move (player TA 1) -0.8 0 0 0 0)");
    e2e_ls_send(&ls, -1, "(move (player TB 1) 0.8 0 180 0 0)");
    e2e_ls_send(&ls, -1, "(move (player TA 2) 0 -0.9 90 0 0)");
    e2e_ls_send(&ls, -1, "(move (player TB 2) 0 0.9 -90 0 0)");
    e2e_ls_send(&ls, -1, "(change_mode play_on)");
    e2e_ls_done(&ls);
    uint32_t x = 12345u;
    for (int k = 0; k < CYCLES; k++) {
        cr_assert_eq(e2e_ls_think(&ls), 0, "think %d", k);
        uint64_t h = fnv(0xcbf29ce484222325ull, ls.see);
        for (int i = 0; i < ls.n; i++)
            h = fnv(h, ls.sense[i]);
        digest[k] = h;
        for (int i = 0; i < ls.n; i++) {
            char cmd[96];
            command(&x, cmd, sizeof cmd);
            e2e_ls_send(&ls, i, cmd);
        }
        e2e_ls_done(&ls);
    }
    e2e_ls_close(&ls);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(determinism_e2e, same_seed_same_world_other_seed_not, .timeout = 120)
{
    static uint64_t a[CYCLES], b[CYCLES], c[CYCLES];
    run("4242", a);
    run("4242", b);
    run("4243", c);
    int first_diff = -1, differ = 0;
    for (int k = 0; k < CYCLES; k++) {
        if (a[k] != b[k] && first_diff < 0)
            first_diff = k;
        differ += a[k] != c[k];
    }
    cr_expect_eq(first_diff, -1, "same seed, cycle %d differs", first_diff);
    cr_expect_gt(differ, CYCLES / 2, "another seed: %d of %d cycles differ", differ, CYCLES);
}
