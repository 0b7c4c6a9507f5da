/* test_reset.c -- sim_world_reset (issue 13): the world after a match's worth of noisy
 * play, a goal, a card and substitutions, reset, is bit for bit the world a fresh
 * sim_world_init gives for the same configuration and seed with the same clients
 * enabled; the events sink and team names are kept, the episode counted; and the same
 * commands after two resets give the same world again (the random streams are back); the
 * score it starts from (start_goal_l/_r). */
#include <criterion/criterion.h>
#include <string.h>
#include "playmode.h"
#include "test_sim_util.h"

static sim_world_t w, fresh;
static shm_client_sh_t cl[SHM_MAX_CLIENTS];
static int emitted;

static void count_emit(void *ctx, const shm_event_sh_t *ev)
{
    (void)ctx;
    (void)ev;
    emitted++;
}

/* clients 0 (left 1) and 11 (right 1) connected, generation 1 */
static void clients(void)
{
    memset(cl, 0, sizeof cl);
    for (int i = 0; i < SHM_MAX_PLAYERS; i += SHM_TEAM_SIZE) {
        atomic_store(&cl[i].state, CLIENT_ST_ACTIVE);
        cl[i].kind = CLIENT_KIND_PLAYER;
        cl[i].generation = 1;
        cl[i].side = i == 0 ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT;
        cl[i].view_width = SHM_VIEW_NORMAL;
        cl[i].view_high = 1;
        cl[i].version = 19.0;
    }
}

static void play(sim_world_t *x, int steps)
{
    for (int s = 0; s < steps; s++) {
        test_apply(x, SHM_SIDE_LEFT, 1, SHM_CMD_DASH, 100.0, 10.0 * (s % 7));
        test_apply(x, SHM_SIDE_RIGHT, 1, SHM_CMD_TURN, 30.0, 0.0);
        test_apply(x, SHM_SIDE_LEFT, 1, SHM_CMD_KICK, 80.0, 5.0);
        sim_step(x);
        sim_world_end_cycle(x);
    }
}

Test(reset, back_to_the_start)
{
    clients();
    test_world(&w, 0, 4242);
    w.emit = count_emit;
    strcpy(w.team[0], "A");
    strcpy(w.team[1], "B");
    sim_world_sync_clients(&w, cl);
    sim_referee_kick_off(&w);
    play(&w, 40);
    w.score[0] = 2;
    w.pl[0].sh.card = 1;
    w.pl[11].sh.type = 3;
    sim_world_reset(&w, cl);

    conf_t c = test_conf; /* test_world resets test_conf: same values */
    test_init(&fresh, &c, &w.types, 4242);
    fresh.conf = w.conf;
    sim_world_sync_clients(&fresh, cl);
    cr_expect_eq(sim_world_digest(&w), sim_world_digest(&fresh));
    cr_expect_eq(w.time, 0);
    cr_expect_eq(w.play_mode, PM_BEFORE_KICK_OFF);
    cr_expect(w.score[0] == 0 && w.pl[0].sh.card == 0 && w.pl[11].sh.type == 0);
    cr_expect(w.pl[0].sh.enabled && w.pl[11].sh.enabled);
    cr_expect(w.pl[0].sh.x == -3.0 && w.pl[0].sh.y == -37.0);
    cr_expect_eq(w.pl[0].sh.stamina, conf_real(w.conf, SP_stamina_max));
    cr_expect_eq(w.episode, 1u);
    cr_expect_eq(w.seed, 4242u);
    cr_expect_str_eq(w.team[0], "A");
    cr_expect(w.emit == count_emit, "the events sink is kept");
}

Test(reset, same_commands_same_episode)
{
    clients();
    test_world(&w, 0, 77);
    sim_world_sync_clients(&w, cl);
    uint64_t d[2];
    for (int k = 0; k < 2; k++) {
        sim_world_reset(&w, cl);
        sim_referee_kick_off(&w);
        play(&w, 30);
        d[k] = sim_world_digest(&w);
    }
    cr_expect_eq(d[0], d[1]);
    cr_expect_eq(w.episode, 2u);
    /* the noise is on: another seed gives another episode */
    test_world(&fresh, 0, 78);
    sim_world_sync_clients(&fresh, cl);
    sim_world_reset(&fresh, cl);
    sim_referee_kick_off(&fresh);
    play(&fresh, 30);
    cr_expect_neq(sim_world_digest(&fresh), d[0]);
}

/* server::start_goal_l/_r: the score the match starts with (the reference sets it when
 * it creates the teams), and the score a reset goes back to; a goal counts on from it */
Test(reset, start_goals)
{
    clients();
    test_world(&w, 1, 5);
    test_conf_set("server", "start_goal_l", "2");
    test_conf_set("server", "start_goal_r", "1");
    test_init(&w, &test_conf, NULL, 5);
    cr_expect(w.score[0] == 2 && w.score[1] == 1, "%d %d", w.score[0], w.score[1]);
    sim_world_sync_clients(&w, cl);
    w.score[1]++;
    sim_world_reset(&w, cl);
    cr_expect(w.score[0] == 2 && w.score[1] == 1, "%d %d", w.score[0], w.score[1]);
    test_world(&fresh, 1, 5);
    cr_expect(fresh.score[0] == 0 && fresh.score[1] == 0, "the defaults: 0 0");
}
