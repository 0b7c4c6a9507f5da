/* netgw_cycle.c -- what a gateway sends on its own, on the sim's timer grid
 * (common/tgrid.h). A published step is one timer poll: the events of its turn
 * (coach traffic, referee messages, v1-v7 hears, the sim's replies and
 * acknowledgements), then the marks of that poll. The later polls of the cycle follow:
 * in real time from a timer at the step's grid time + (poll - step poll) * 10 ms (a
 * late poll is sent late, the ones after it stay where the grid puts them); in synch
 * mode at once up to the (think) poll, the rest when the next step arrives, before its
 * own messages. The marks of a poll, in the reference's order: sense_body (fullstate,
 * the v8+ hears of the cycle), an async see tick (a see for every player whose count
 * fires), the synchronous see, the coaches' see_global, (think). Between steps the
 * live world (what commands applied at once changed) replaces the step's and its
 * events are served at once. Snapshots are read with the seqlock API; a gateway more
 * than two steps behind jumps to the newest and counts a reset. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <event2/event.h>
#include "log.h"
#include "netgw.h"
#include "netgw_coachgw.h"
#include "netgw_conn.h"
#include "netgw_playergw.h"
#include "netgw_proto.h"
#include "playmode.h"

#define CYCLE_MAX_BEHIND  2
#define POLL_NS           ((int64_t)TGRID_POLL_MS * 1000000LL)
#define SENSOR_MARKS      (TGRID_SENSE | TGRID_SEE | TGRID_SYNCH_SEE | TGRID_COACH | TGRID_THINK)

static int cycle_is_player(const ngw_t *g, int idx)
{
    return idx < SHM_MAX_PLAYERS && g->cl[idx].used
           && atomic_load(&g->r->client[idx].state) == CLIENT_ST_ACTIVE;
}

void ngw_cycle_sense_body(ngw_t *g, int idx)
{
    if (idx >= SHM_MAX_PLAYERS || ngw_snap_refresh(g) < 0)
        return;
    int n = proto_sense_body(&g->snap, idx, &g->r->client[idx], &g->conf, g->out, sizeof g->out);
    if (n > 0)
        ngw_udp_send_len(g->cl[idx].fd, g->out, (size_t)n);
}

/* A see's randomness (docs/protocol/player.md §5.3-5.5: the change values and numbers
 * between the far and too-far distances, Gaussian distances, the point direction) comes
 * from the gateway's stream; with server::reproducible from a generator of its own,
 * seeded (in synch mode) by the seed, the observer, the cycle (time, and the stoppage count, which at
 * time 0 counts only before the kick-off), the episode and the see's number within the
 * cycle: what one player sees then does not depend on the others' sees, on how many sees
 * went out before the kick-off (as many as the clients took to join), nor on which
 * gateway serves him. */
static void cycle_see(ngw_t *g, int idx)
{
    if (!conf_bool(&g->conf, SP_reproducible) || !conf_bool(&g->conf, SP_synch_mode)) {
        int n = proto_see(&g->snap, idx, &g->r->client[idx], &g->conf, &g->r->ptypes, &g->rng,
                          g->out, sizeof g->out);
        if (n > 0)
            ngw_udp_send_len(g->cl[idx].fd, g->out, (size_t)n);
        return;
    }
    rng_t rng;
    int stop = g->snap.time == 0 && g->snap.play_mode != PM_BEFORE_KICK_OFF ? -1
                                                                             : g->snap.stoppage;
    uint64_t h = g->r->hdr.random_seed ^ 0x736565ull; /* "see" */
    h = (h ^ (uint64_t)(idx + 1)) * 0x100000001b3ull;
    h = (h ^ (uint64_t)(uint32_t)g->snap.time) * 0x100000001b3ull;
    h = (h ^ (uint64_t)(uint32_t)stop) * 0x100000001b3ull;
    h = (h ^ (uint64_t)g->snap.episode) * 0x100000001b3ull;
    h = (h ^ (uint64_t)g->cl[idx].see_serial++) * 0x100000001b3ull;
    rng_seed(&rng, h);
    int n = proto_see(&g->snap, idx, &g->r->client[idx], &g->conf, &g->r->ptypes, &rng,
                      g->out, sizeof g->out);
    if (n > 0)
        ngw_udp_send_len(g->cl[idx].fd, g->out, (size_t)n);
}

/* every event released up to g->snap, in order: coach traffic and acknowledgements
 * (netgw_coachcycle.c), what players hear and the sim's player replies (netgw_audio.c) */
static void cycle_events(ngw_t *g)
{
    shm_event_sh_t ev;
    int rc;
    while ((rc = shm_event_next(g->r, &g->ev_cursor, g->snap.event_head, &ev)) <= 0) {
        if (rc < 0) { /* overwritten: this gateway was too slow */
            atomic_fetch_add(&g->self->resets, 1);
            continue;
        }
        ngw_coach_event(g, &ev);
        ngw_audio_event(g, &ev);
    }
}

/* ---- the marks of one poll ---------------------------------------------------------- */
/* sense_body, fullstate (fullstate_l/_r) and what the player heard this cycle */
static void mark_sense(ngw_t *g)
{
    for (int idx = 0; idx < SHM_MAX_PLAYERS; idx++) {
        if (!cycle_is_player(g, idx))
            continue;
        const shm_client_sh_t *e = &g->r->client[idx];
        int n = proto_sense_body(&g->snap, idx, e, &g->conf, g->out, sizeof g->out);
        if (n > 0)
            ngw_udp_send_len(g->cl[idx].fd, g->out, (size_t)n);
        if (proto_fullstate_on(&g->conf, e->side) && g->snap.player[idx].enabled
            && (n = proto_fullstate(&g->snap, idx, e, g->out, sizeof g->out)) > 0)
            ngw_udp_send_len(g->cl[idx].fd, g->out, (size_t)n);
        ngw_audio_release(g, idx);
        ngw_udp_batch_flush_fd(g->cl[idx].fd); /* out before the next player's is made */
    }
}

/* a see tick: every player of that kind (async, or synch see) counts it, and sees when
 * the count reaches its view's period (the count starts at its join) */
static void mark_see(ngw_t *g, int synch_see)
{
    for (int idx = 0; idx < SHM_MAX_PLAYERS; idx++) {
        if (!cycle_is_player(g, idx) || !g->r->client[idx].synch_see != !synch_see)
            continue;
        ngw_client_t *c = &g->cl[idx];
        if (++c->see_count >= proto_see_period(&g->r->client[idx])) {
            c->see_count = 0;
            cycle_see(g, idx);
            ngw_udp_batch_flush_fd(c->fd);
        }
    }
}

/* (think) to the players, then the coaches with the eye on; not to a client that
 * joined (or turned its eye on) after this step: the reference decides whom it asks
 * when it sends (think), and the sim does not wait for those (their done_step) */
static void mark_think(ngw_t *g)
{
    g->think_pending = 0;
    for (int idx = 0; idx < SHM_MAX_PLAYERS; idx++) {
        if (cycle_is_player(g, idx) && g->cl[idx].since_step < g->snap.step)
            ngw_udp_send_len(g->cl[idx].fd, "(think)", 7);
    }
    ngw_coach_think(g);
}

/* synch mode while the game time is 0: the reference waits 50 ms before each (think)
 * (so that clients can connect), the poll's other marks already sent */
static int think_delayed(const ngw_t *g)
{
    return g->snap.time <= 0 && g->snap.episode == 0;
}

static void cycle_marks(ngw_t *g, unsigned m)
{
    if (m & TGRID_SENSE)
        mark_sense(g);
    if (m & TGRID_SEE)
        mark_see(g, 0);
    if (m & TGRID_SYNCH_SEE)
        mark_see(g, 1);
    if (m & TGRID_COACH)
        ngw_coach_visual(g);
    if (!(m & TGRID_THINK) || !conf_bool(&g->conf, SP_synch_mode))
        return;
    if (!think_delayed(g) || !g->tick_ev) {
        mark_think(g);
        return;
    }
    g->think_pending = 1;
    struct timeval tv = { 0, (suseconds_t)(NGW_THINK_DELAY_MS * 1000) };
    event_base_update_cache_time(g->base);
    event_add(g->tick_ev, &tv);
}

/* ---- the polls of a cycle ------------------------------------------------------------ */
/* the cycle's next poll with something to send after poll p, 0 if the next step comes
 * first */
static uint64_t cycle_next_poll(const ngw_t *g, uint64_t p)
{
    uint64_t q = tgrid_next(&g->grid, p, SENSOR_MARKS | TGRID_STEP);
    return q == 0 || (tgrid_marks(&g->grid, q) & TGRID_STEP) ? 0 : q;
}

static void cycle_fire(ngw_t *g)
{
    unsigned m = tgrid_marks(&g->grid, g->next_poll);
    g->next_poll = cycle_next_poll(g, g->next_poll);
    cycle_marks(g, m);
}

/* real time: the timer for g->next_poll, due at its place on the step's grid */
static void cycle_arm(ngw_t *g)
{
    if (!g->next_poll || !g->tick_ev)
        return;
    int64_t at = g->snap.grid_ns + (int64_t)(g->next_poll - g->snap.poll) * POLL_NS;
    int64_t d = at - shm_now_ns();
    if (d < 0)
        d = 0; /* late: now, and the next one stays on the grid */
    struct timeval tv = { (time_t)(d / 1000000000LL), (suseconds_t)((d % 1000000000LL) / 1000) };
    event_base_update_cache_time(g->base);
    event_add(g->tick_ev, &tv);
}

void ngw_cycle_tick(ngw_t *g)
{
    if (g->think_pending) { /* synch mode: the delayed (think) */
        ngw_udp_batch_begin();
        mark_think(g);
        ngw_udp_batch_end();
        return;
    }
    if (!g->next_poll)
        return;
    cycle_fire(g);
    cycle_arm(g);
}

/* The polls of the served cycle that were not sent yet, before the next step's: the
 * gateway was late (real time), or they come after (think) (synch mode). */
static void cycle_finish(ngw_t *g)
{
    if (g->tick_ev)
        event_del(g->tick_ev);
    if (g->think_pending) /* a step without waiting for it: the (think) goes out first */
        mark_think(g);
    for (int n = 0; g->next_poll && n < 1024; n++)
        cycle_fire(g);
    g->next_poll = 0;
}

/* After the step's poll: real time arms the timer; synch mode sends every poll up to
 * the (think) at once. */
static void cycle_schedule(ngw_t *g)
{
    g->next_poll = cycle_next_poll(g, g->snap.poll);
    if (!conf_bool(&g->conf, SP_synch_mode)) {
        cycle_arm(g);
        return;
    }
    if (tgrid_marks(&g->grid, g->snap.poll) & TGRID_THINK)
        return;
    for (int n = 0; g->next_poll && n < 1024; n++) {
        int think = (tgrid_marks(&g->grid, g->next_poll) & TGRID_THINK) != 0;
        cycle_fire(g);
        if (think)
            break;
    }
}

/* a red-carded player is taken off the field by the sim; like the reference, its
 * connection is closed too (a reconnect gets (error red_carded_player)) */
static void cycle_red_cards(ngw_t *g)
{
    for (int idx = 0; idx < SHM_MAX_PLAYERS; idx++) {
        const shm_player_sh_t *p = &g->snap.player[idx];
        if (!cycle_is_player(g, idx) || p->card != 2 || p->enabled)
            continue;
        log_info("%s %d sent off", g->snap.team[idx / SHM_TEAM_SIZE], idx % SHM_TEAM_SIZE + 1);
        ngw_conn_detach(g, idx, 1);
    }
}

/* a trainer's (reset) began a new episode: the gateway's randomness (seeded as in
 * netgw_main.c) and every player's hearing start again, so what players get in an
 * episode does not depend on the episodes before it */
static void cycle_new_episode(ngw_t *g)
{
    rng_seed(&g->rng, g->r->hdr.random_seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(g->index + 1)));
    for (int idx = 0; idx < SHM_MAX_PLAYERS; idx++)
        ngw_audio_reset(g, idx);
}

/* a published step (in g->incoming): the rest of the cycle before it, then its poll */
static void cycle_step(ngw_t *g)
{
    if (g->have_snap && g->served_step + 1 == g->incoming.step)
        cycle_finish(g); /* (after a jump the old cycle's polls are lost) */
    else
        g->next_poll = 0;
    uint32_t episode = g->snap.episode;
    int had = g->have_snap;
    g->snap = g->incoming;
    g->have_snap = 1;
    g->served_step = g->snap.step;
    for (int i = 0; i < SHM_MAX_PLAYERS; i++)
        g->cl[i].see_serial = 0;
    if (had && g->snap.episode != episode)
        cycle_new_episode(g);
    cycle_events(g);
    cycle_red_cards(g);
    ngw_audio_step(g);
    ngw_coach_step(g); /* play-on bookkeeping and clang notices for coaches */
    cycle_marks(g, tgrid_marks(&g->grid, g->snap.poll));
    ngw_audio_end_step(g);
    cycle_schedule(g);
}

static void cycle_step_cb(void *ctx)
{
    cycle_step(ctx);
}

/* The live world, if the sim published one after the step this gateway serves: it
 * replaces the world, and its events (referee messages, hears, the acknowledgements
 * the coaches' replies wait for) go out now. One that follows a newer step waits for
 * that step. */
static void cycle_live(ngw_t *g)
{
    uint64_t pub = atomic_load_explicit(&g->r->hdr.live_pub, memory_order_acquire);
    if (pub == g->live_pub || !g->have_snap)
        return;
    uint64_t got = 0;
    if (shm_live_read(g->r, &got, &g->incoming) < 0)
        return;
    if (g->incoming.step > g->served_step)
        return;
    g->live_pub = got;
    if (g->incoming.step < g->served_step)
        return;
    g->snap = g->incoming;
    cycle_events(g);
}

void ngw_cycle_wake(ngw_t *g)
{
    ngw_conn_check_owner(g);
    ngw_udp_batch_begin(); /* each client's messages of the cycle in one system call */
    cycle_live(g); /* what happened between the steps comes before the next step */
    shm_snap_follow(g->r, &g->last_step, CYCLE_MAX_BEHIND, &g->incoming, &g->self->resets,
                    cycle_step_cb, g);
    cycle_live(g);
    ngw_udp_batch_end();
    uint64_t served = atomic_load_explicit(&g->self->last_step, memory_order_relaxed);
    atomic_store(&g->self->last_step, g->last_step);
    if (g->last_step != served) /* monitorgw waits for the players to be served first */
        shm_wake_send(&g->wake, SHM_WAKE_MGW);
}
