/* test_state.c -- the copy a commit makes of the world (sim_world_copy, sim/sim_resume.c):
 * a world copied halfway through a match and stepped on gives the world the original
 * gives with the same commands, bit for bit, although only the used parts of its big
 * buffers were copied; and the sizes of the state a new sim takes over are pinned, so
 * that a change of sim_world_t without a new SIM_STATE_VERSION fails here. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"
#include "test_sim_util.h"

static sim_world_t a, b;

static void commands(sim_world_t *w, rng_t *r)
{
    static const int kinds[] = { SHM_CMD_DASH, SHM_CMD_TURN, SHM_CMD_KICK, SHM_CMD_TACKLE };
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        shm_cmd_sh_t c = test_cmd(kinds[rng_next(r) % 4], rng_uniform(r, 0.0, 100.0),
                                  rng_uniform(r, -180.0, 180.0));
        sim_cmd_player(w, i, &c);
    }
}

static void start(sim_world_t *w)
{
    test_world(w, 0, 77);
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        int side = i < SHM_TEAM_SIZE ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT, unum = i % 11 + 1;
        test_player(w, side, unum, side * -(unum * 2.0), unum * 1.5 - 9.0, side > 0 ? 0 : 180);
    }
    w->ball.x = 0.5;
    sim_referee_kick_off(w);
}

static void steps(sim_world_t *w, rng_t *r, int n)
{
    for (int k = 0; k < n; k++) {
        commands(w, r);
        sim_step(w);
        sim_world_end_cycle(w);
    }
}

Test(state, copy_goes_on_like_the_original, .timeout = 10)
{
    rng_t ra, rb;
    rng_seed(&ra, 5);
    start(&a);
    steps(&a, &ra, 60);
    /* a text half assembled, a note not printed: their used parts must travel */
    a.pl_text[3].len = 5;
    memcpy(a.pl_text[3].buf, "(dash", 5);
    sim_world_note(&a, "A player disconnected : (%s %d)", "T", 3);
    memset(&b, 0xa5, sizeof b); /* garbage where the copy leaves the buffers alone */
    sim_world_copy(&b, &a);
    cr_assert_eq(sim_world_digest(&b), sim_world_digest(&a));
    cr_expect_eq(b.notes_len, a.notes_len);
    cr_expect_str_eq(b.notes, a.notes);
    cr_expect_eq(b.pl_text[3].len, 5u);
    cr_expect(memcmp(b.pl_text[3].buf, "(dash", 5) == 0);
    rb = ra;
    steps(&a, &ra, 60);
    steps(&b, &rb, 60);
    cr_expect_eq(sim_world_digest(&b), sim_world_digest(&a), "the copy went elsewhere");
    cr_expect_eq(b.time, a.time);
    for (int i = 0; i < SHM_MAX_PLAYERS; i++)
        cr_expect(memcmp(&a.pl[i], &b.pl[i], sizeof a.pl[i]) == 0, "player %d", i);
    cr_expect(memcmp(&a.ref, &b.ref, sizeof a.ref) == 0, "referee state");
}

Test(state, sizes_pinned)
{
    /* a failure here: sim_world_t or the state body changed, so a new sim of this build
     * must not take over a match of an older one: bump SIM_STATE_VERSION (sim.h) and
     * update these numbers together */
    cr_assert_eq(SIM_STATE_VERSION, 1u);
    cr_expect_eq(sizeof(sim_world_t), (size_t)564296);
    cr_expect_eq(sim_state_size(), (size_t)564744);
    cr_expect_leq(sim_state_size(), (size_t)SHM_STATE_BYTES);
}
