/* test_determinism.c -- same seed + same command stream -> bit-identical world after
 * 100 steps; another seed (noise on) -> another world; draws of the referee's stream
 * leave the physics as it was. Commands come from a scripted generator with its own
 * fixed seed. */
#include <criterion/criterion.h>
#include <string.h>
#include "playmode.h"
#include "test_sim_util.h"

static sim_world_t w1, w2;

static void script_commands(sim_world_t *w, rng_t *cmd_rng)
{
    static const int kinds[] = { SHM_CMD_DASH, SHM_CMD_TURN, SHM_CMD_KICK, SHM_CMD_TURN_NECK,
                                 SHM_CMD_TACKLE, SHM_CMD_DASH, SHM_CMD_CATCH };
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        int kind = kinds[rng_next(cmd_rng) % 7];
        shm_cmd_sh_t c = test_cmd(kind, rng_uniform(cmd_rng, 0.0, 100.0),
                                  rng_uniform(cmd_rng, -180.0, 180.0));
        sim_cmd_player(w, i, &c);
    }
}

static void run_ref(sim_world_t *w, uint64_t seed, int ref_draws)
{
    test_world(w, 0, seed);
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        int side = i < SHM_TEAM_SIZE ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT, unum = i % 11 + 1;
        test_player(w, side, unum, side * -(unum * 2.0), unum * 1.5 - 9.0, side > 0 ? 0 : 180);
    }
    w->ball.x = 0.5;
    sim_referee_kick_off(w);
    rng_t cmd_rng;
    rng_seed(&cmd_rng, 99);
    w->pl[0].sh.goalie = 1;
    w->pl[SHM_TEAM_SIZE].sh.goalie = 1;
    for (int s = 0; s < 100; s++) {
        script_commands(w, &cmd_rng);
        for (int k = 0; k < ref_draws; k++)
            rng_next(&w->rng_ref);
        sim_step(w);
        sim_world_end_cycle(w);
    }
}

static void run(sim_world_t *w, uint64_t seed)
{
    run_ref(w, seed, 0);
}

Test(determinism, same_seed_same_world, .timeout = 10)
{
    run(&w1, 2024);
    run(&w2, 2024);
    cr_expect_eq(sim_world_digest(&w1), sim_world_digest(&w2));
    cr_expect(memcmp(&w1.ball, &w2.ball, sizeof w1.ball) == 0);
    for (int i = 0; i < SHM_MAX_PLAYERS; i++)
        cr_expect(memcmp(&w1.pl[i].sh, &w2.pl[i].sh, sizeof w1.pl[i].sh) == 0, "player %d", i);
    cr_expect_eq(w1.time, 100, "kick-off then 100 running steps");
}

Test(determinism, other_seed_other_world, .timeout = 10)
{
    run(&w1, 2024);
    run(&w2, 2025);
    cr_expect_neq(sim_world_digest(&w1), sim_world_digest(&w2));
    int differ = 0;
    for (int i = 0; i < SHM_MAX_PLAYERS; i++)
        differ |= w1.pl[i].sh.x != w2.pl[i].sh.x;
    cr_expect(differ, "positions differ with the noise on");
}

/* the referee draws from its own stream: the same physics whatever it draws */
Test(determinism, referee_stream_is_separate, .timeout = 10)
{
    run_ref(&w1, 2024, 0);
    run_ref(&w2, 2024, 3);
    cr_expect(memcmp(&w1.ball, &w2.ball, sizeof w1.ball) == 0);
    for (int i = 0; i < SHM_MAX_PLAYERS; i++)
        cr_expect(memcmp(&w1.pl[i].sh, &w2.pl[i].sh, sizeof w1.pl[i].sh) == 0, "player %d", i);
}

/* server::reproducible in synch mode: the steps before the first kick-off (as many as
 * the clients take to join) leave no trace; without it they do (the shuffle of the
 * objects and its draws at every step) */
static void run_waited(sim_world_t *w, int waits, int reproducible)
{
    test_world(w, 0, 2024);
    test_conf.num[SP_synch_mode] = 1.0;
    test_conf.num[SP_reproducible] = reproducible ? 1.0 : 0.0;
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        int side = i < SHM_TEAM_SIZE ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT, unum = i % 11 + 1;
        test_player(w, side, unum, side * -(unum * 2.0), unum * 1.5 - 9.0, side > 0 ? 0 : 180);
    }
    w->pl[0].sh.goalie = 1;
    w->pl[SHM_TEAM_SIZE].sh.goalie = 1;
    for (int s = 0; s < waits; s++) {
        sim_step(w);
        sim_world_end_cycle(w);
    }
    cr_assert_eq(w->time, 0, "still before the kick-off");
    sim_referee_kick_off(w);
    rng_t cmd_rng;
    rng_seed(&cmd_rng, 99);
    for (int s = 0; s < 100; s++) {
        script_commands(w, &cmd_rng);
        sim_step(w);
        sim_world_end_cycle(w);
    }
}

static int same_bodies(const sim_world_t *a, const sim_world_t *b)
{
    int same = memcmp(&a->ball, &b->ball, sizeof a->ball) == 0;
    for (int i = 0; i < SHM_MAX_PLAYERS; i++)
        same &= memcmp(&a->pl[i].sh, &b->pl[i].sh, sizeof a->pl[i].sh) == 0;
    return same;
}

Test(determinism, reproducible_forgets_the_wait_before_the_kick_off, .timeout = 10)
{
    run_waited(&w1, 2, 1);
    run_waited(&w2, 31, 1);
    cr_expect(same_bodies(&w1, &w2), "2 or 31 steps before the kick-off: the same match");
    run_waited(&w1, 2, 0);
    run_waited(&w2, 31, 0);
    cr_expect(!same_bodies(&w1, &w2), "without server::reproducible the wait shows");
}
