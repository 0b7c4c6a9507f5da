/* sim_keepaway.c -- keepaway training (server::keepaway; docs/protocol/referee.md §14),
 * the scene helios-base's sample_trainer runs: the left team keeps the ball, the right
 * team takes it, inside a keepaway_length x keepaway_width rectangle at the centre. A
 * kick-off goes straight to play_on; keepaway_start >= 0 switches to play_on that many
 * wall-clock seconds after the first step. The first play_on counts keepers and takers
 * and sets the field; an episode ends when the ball leaves the rectangle or a taker has
 * had it within the kickable area for 4 cycles, and the referee then says "training
 * Keepaway 1" (what a trainer waits for) and the field is set again. Randomness comes
 * from the world's generator. The first play_on and every finished episode are told as
 * SHM_EV_KEEPAWAY events, which rcss-recorder writes into the .kwy log. Called from
 * sim_referee.c. */
#include <math.h>
#include <time.h>
#include "sim_referee.h"
#include "playmode.h"

#define KEEPAWAY_MSG      "training Keepaway 1"
#define KEEPAWAY_TURNOVER 4       /* cycles a taker must hold the ball */

static int on(const sim_world_t *w)
{
    return conf_bool(w->conf, SP_keepaway);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* the reference's irand(n) and drand(lo, hi) from the world's generator */
static int ka_irand(sim_world_t *w, int n)
{
    return n > 0 ? (int)(rng_next(&w->rng_ref) % (uint64_t)n) : 0;
}

static void place(sim_player_t *p, double x, double y)
{
    p->sh.x = x;
    p->sh.y = y;
    p->sh.vx = p->sh.vy = 0.0;
    p->ax = p->ay = 0.0;
}

/* keepers in three corners (starting at a random one), takers in the fourth, the ball
 * 4 m inside the takers' corner; stamina recovered */
static void ka_reset(sim_world_t *w)
{
    double hl = conf_real(w->conf, SP_keepaway_length) * 0.5;
    double hw = conf_real(w->conf, SP_keepaway_width) * 0.5;
    sim_keepaway_t *k = &w->keepaway;
    int pos = ka_irand(w, k->keepers);
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        sim_player_t *p = &w->pl[i];
        if (!p->sh.enabled)
            continue;
        if (p->sh.side == SHM_SIDE_LEFT) {
            double x, y;
            switch (pos) {
            case 0:  x = -hl + rng_uniform(&w->rng_ref, 0, 3); y = -hw + rng_uniform(&w->rng_ref, 0, 3); break;
            case 1:  x = hl - rng_uniform(&w->rng_ref, 0, 3); y = -hw + rng_uniform(&w->rng_ref, 0, 3); break;
            case 2:  x = hl - rng_uniform(&w->rng_ref, 0, 3); y = hw - rng_uniform(&w->rng_ref, 0, 3); break;
            default: x = rng_uniform(&w->rng_ref, -1, 1); y = rng_uniform(&w->rng_ref, -1, 1); break;
            }
            place(p, x, y);
            pos = k->keepers > 0 ? (pos + 1) % k->keepers : 0;
        } else {
            double x = -hl + rng_uniform(&w->rng_ref, 0, 3);
            double y = hw - rng_uniform(&w->rng_ref, 0, 3);
            place(p, x, y);
        }
    }
    w->ball.x = -hl + 4.0;
    w->ball.y = -hw + 4.0;
    w->ball.vx = w->ball.vy = w->ball.ax = w->ball.ay = 0.0;
    w->catcher = -1;
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        if (w->pl[i].sh.enabled)
            sim_player_reset_stamina(w, &w->pl[i]);
    }
    k->take_time = 0;
}

int sim_keepaway_kick_off(sim_world_t *w)
{
    if (!on(w))
        return 0;
    sim_referee_set_mode(w, PM_PLAY_ON);
    return 1;
}

void sim_keepaway_mode_change(sim_world_t *w, int pm)
{
    sim_keepaway_t *k = &w->keepaway;
    if (!on(w) || pm != PM_PLAY_ON || k->episode != 0)
        return;
    k->episode = 1;
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        if (!w->pl[i].sh.enabled)
            continue;
        if (w->pl[i].sh.side == SHM_SIDE_LEFT)
            k->keepers++;
        else
            k->takers++;
    }
    sim_world_emit(w, SHM_EV_KEEPAWAY, 0, 0, k->keepers, k->takers, 0, NULL, 0);
    ka_reset(w);
}

/* the episode ends now: ball out ("o") or taken ("t"); the first one began at cycle 0
 * whenever its play_on came, as in the reference */
static void ka_episode_end(sim_world_t *w, const char *why)
{
    sim_keepaway_t *k = &w->keepaway;
    sim_world_emit(w, SHM_EV_KEEPAWAY, 0, 0, k->start, w->time, k->episode, why, 1);
    k->episode++;
    k->start = w->time;
    sim_world_referee_say(w, KEEPAWAY_MSG);
    ka_reset(w);
}

/* who has the ball: the first player (left team first) within the kickable area */
static void ka_possession(sim_world_t *w)
{
    double ka = conf_real(w->conf, SP_kickable_margin) + conf_real(w->conf, SP_player_size)
              + conf_real(w->conf, SP_ball_size);
    int keeper = 0;
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        const sim_player_t *p = &w->pl[i];
        if (!p->sh.enabled)
            continue;
        double dx = p->sh.x - w->ball.x, dy = p->sh.y - w->ball.y;
        if (dx * dx + dy * dy >= ka * ka)
            continue;
        if (p->sh.side == SHM_SIDE_LEFT) {
            keeper = 1;
        } else {
            keeper = 0;
            w->keepaway.take_time++;
            break;
        }
    }
    if (keeper)
        w->keepaway.take_time = 0;
}

void sim_keepaway_analyse(sim_world_t *w)
{
    if (!on(w))
        return;
    sim_keepaway_t *k = &w->keepaway;
    if (k->start_s == 0.0)
        k->start_s = now_s();
    if (w->play_mode != PM_PLAY_ON) {
        int start = conf_int(w->conf, SP_keepaway_start);
        if (start >= 0 && now_s() - k->start_s > start)
            sim_referee_set_mode(w, PM_PLAY_ON);
        return;
    }
    double hl = conf_real(w->conf, SP_keepaway_length) * 0.5;
    double hw = conf_real(w->conf, SP_keepaway_width) * 0.5;
    if (!(fabs(w->ball.x) < hl && fabs(w->ball.y) < hw))
        ka_episode_end(w, "o"); /* out of the rectangle */
    else if (k->take_time >= KEEPAWAY_TURNOVER)
        ka_episode_end(w, "t"); /* taken away */
    else
        ka_possession(w);
}
