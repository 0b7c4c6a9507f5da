/* netgw_cycle.c -- what a gateway sends on its own. Once per published snapshot: the
 * events of the cycle (coach traffic, referee messages, v1-v7 hears, the sim's player
 * replies), then per player sense_body, fullstate (fullstate_l/_r), the v8+ hears of the
 * previous cycle, the synchronous see (or at server::synch_see_offset) and (think) in
 * synch mode. On the async see timer (send_step / 4, anchored to the region's epoch) the
 * see of every player whose counter fires (in synch mode the ticks follow the
 * reference's virtual clock instead, see below). Snapshots are read with the seqlock API; a
 * gateway more than two steps behind jumps to the newest and counts a reset. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <event2/event.h>
#include "log.h"
#include "netgw.h"
#include "netgw_proto.h"

#define CYCLE_MAX_BEHIND  2

int ngw_cycle_refresh(ngw_t *g)
{
    uint64_t pub = atomic_load_explicit(&g->r->hdr.published, memory_order_acquire);
    if (pub == 0)
        return -1;
    if (g->have_snap && g->snap.step == pub)
        return 0;
    if (shm_snap_read_latest(g->r, &g->snap) == 0)
        return g->have_snap ? 0 : -1;
    g->have_snap = 1;
    return 0;
}

static int cycle_is_player(const ngw_t *g, int idx)
{
    return idx < SHM_MAX_PLAYERS && g->cl[idx].used
           && atomic_load(&g->r->client[idx].state) == CLIENT_ST_ACTIVE;
}

void ngw_cycle_sense_body(ngw_t *g, int idx)
{
    if (idx >= SHM_MAX_PLAYERS || ngw_cycle_refresh(g) < 0)
        return;
    int n = proto_sense_body(&g->snap, idx, &g->r->client[idx], &g->conf, g->out, sizeof g->out);
    if (n > 0)
        ngw_udp_send_len(g->cl[idx].fd, g->out, (size_t)n);
}

static void cycle_see_of(ngw_t *g, const shm_snapshot_sh_t *s, int idx)
{
    int n = proto_see(s, idx, &g->r->client[idx], &g->conf, &g->r->ptypes, &g->rng, g->out,
                      sizeof g->out);
    if (n > 0)
        ngw_udp_send_len(g->cl[idx].fd, g->out, (size_t)n);
}

static void cycle_see(ngw_t *g, int idx)
{
    cycle_see_of(g, &g->snap, idx);
}

/* one async see tick (send_step / 4): a see for every async player whose count fires */
static void cycle_tick_on(ngw_t *g, const shm_snapshot_sh_t *s)
{
    for (int idx = 0; idx < SHM_MAX_PLAYERS; idx++) {
        if (!cycle_is_player(g, idx) || g->r->client[idx].synch_see)
            continue;
        ngw_client_t *c = &g->cl[idx];
        if (++c->see_count >= proto_see_period(&g->r->client[idx])) {
            c->see_count = 0;
            cycle_see_of(g, s, idx);
        }
    }
}

/* ---- synch mode: the reference's virtual clock ------------------------------------
 * Without a wall clock the async see ticks follow the reference's synch timer: a
 * virtual clock polled every 10 ms, a step every simulator_step, a see tick at the
 * first poll at or after each multiple of send_step / 4 (40, 80, 120, 150, 190 ... ms
 * by default: 8 ticks per 3 cycles), (think) synch_offset after the step. Ticks up to
 * the (think) go out with the cycle's snapshot; the later ones before the next step,
 * with the previous snapshot, when that step arrives. */
#define CYCLE_POLL_MS  10
#define CYCLE_MAX_TICKS 64

static double cycle_step_ms(const ngw_t *g)
{
    int slow = conf_int(&g->conf, SP_slow_down_factor);
    return (double)conf_int(&g->conf, SP_simulator_step) * (slow > 0 ? slow : 1);
}

static double cycle_tick_ms(const ngw_t *g, uint64_t j)
{
    double q = (double)g->quarter_ns / 1.0e6;
    return ceil(q * (double)j / CYCLE_POLL_MS - 1e-9) * CYCLE_POLL_MS;
}

/* the virtual ticks up to until_ms (inclusive), on snapshot s */
static void cycle_virtual_ticks(ngw_t *g, const shm_snapshot_sh_t *s, double until_ms)
{
    if (g->quarter_ns <= 0)
        return;
    for (int n = 0; n < CYCLE_MAX_TICKS && cycle_tick_ms(g, g->vtick) <= until_ms; n++) {
        g->vtick++;
        cycle_tick_on(g, s);
    }
    while (cycle_tick_ms(g, g->vtick) <= until_ms)  /* far behind: skip the rest */
        g->vtick++;
}

/* every event published up to this snapshot, in order: coach traffic
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

/* synch-see: a see now, or at server::synch_see_offset after the publish (real-time
 * mode); in synch mode there is no clock to wait on: the see comes before (think) if
 * the offset is below server::synch_offset, after it otherwise */
static int cycle_see_later(const ngw_t *g)
{
    return conf_int(&g->conf, SP_synch_see_offset) > 0 && !conf_bool(&g->conf, SP_synch_mode);
}

static int cycle_see_after_think(const ngw_t *g)
{
    return conf_bool(&g->conf, SP_synch_mode)
        && conf_int(&g->conf, SP_synch_see_offset) >= conf_int(&g->conf, SP_synch_offset);
}

/* one player's messages at the start of a cycle: sense_body, fullstate, what it hears */
static void cycle_player_sense(ngw_t *g, int idx)
{
    const shm_client_sh_t *e = &g->r->client[idx];
    /* this snapshot, even if a newer one is out already (the gateway is behind) */
    int n = proto_sense_body(&g->snap, idx, e, &g->conf, g->out, sizeof g->out);
    if (n > 0)
        ngw_udp_send_len(g->cl[idx].fd, g->out, (size_t)n);
    if (proto_fullstate_on(&g->conf, e->side) && g->snap.player[idx].enabled
        && (n = proto_fullstate(&g->snap, idx, e, g->out, sizeof g->out)) > 0)
        ngw_udp_send_len(g->cl[idx].fd, g->out, (size_t)n);
    ngw_audio_release(g, idx);
}

/* then the synchronous see and (think) */
static void cycle_player_see_think(ngw_t *g, int idx, int synch)
{
    ngw_client_t *c = &g->cl[idx];
    const shm_client_sh_t *e = &g->r->client[idx];
    c->see_due = 0;
    if (e->synch_see && ++c->see_count >= proto_see_period(e)) {
        c->see_count = 0;
        c->see_due = 1;
    }
    int later = cycle_see_later(g), after = cycle_see_after_think(g);
    if (c->see_due && !later && !after) {
        c->see_due = 0;
        cycle_see(g, idx);
    }
    if (synch)
        ngw_udp_send_len(c->fd, "(think)", 7);
    if (c->see_due && after) {
        c->see_due = 0;
        cycle_see(g, idx);
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
        ngw_client_detach(g, idx, 1);
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

/* everything due for one published snapshot (already in g->snap) */
static void cycle_step(ngw_t *g)
{
    int synch = conf_bool(&g->conf, SP_synch_mode);
    if (g->have_prev_snap && g->snap.episode != g->prev_snap.episode)
        cycle_new_episode(g);
    double now_ms = (double)g->snap.step * cycle_step_ms(g);
    if (synch) {
        if (g->vtick == 0 || !g->have_prev_snap) /* start at this step */
            g->vtick = (uint64_t)(now_ms / ((double)g->quarter_ns / 1.0e6 + 1e-12)) + 1;
        cycle_virtual_ticks(g, &g->prev_snap, now_ms - 1e-6);
    }
    cycle_events(g);
    cycle_red_cards(g);
    ngw_audio_step(g);
    ngw_coach_step(g); /* see_global, (think) and notices for coaches */
    for (int idx = 0; idx < SHM_MAX_PLAYERS; idx++) {
        if (!cycle_is_player(g, idx))
            continue;
        cycle_player_sense(g, idx);
    }
    if (synch)
        cycle_virtual_ticks(g, &g->snap, now_ms + conf_int(&g->conf, SP_synch_offset));
    for (int idx = 0; idx < SHM_MAX_PLAYERS; idx++) {
        if (cycle_is_player(g, idx))
            cycle_player_see_think(g, idx, synch);
    }
    ngw_audio_end_step(g);
    g->prev_snap = g->snap;
    g->have_prev_snap = 1;
    if (cycle_see_later(g) && g->synch_see_ev) {
        int64_t at = g->snap.publish_ns
                     + (int64_t)conf_int(&g->conf, SP_synch_see_offset) * 1000000LL;
        int64_t d = at - shm_now_ns();
        if (d < 0)
            d = 0;
        struct timeval tv = { (time_t)(d / 1000000000LL), (suseconds_t)((d % 1000000000LL) / 1000) };
        event_add(g->synch_see_ev, &tv);
    }
}

void ngw_cycle_synch_see(ngw_t *g)
{
    if (!g->have_snap)
        return;
    for (int idx = 0; idx < SHM_MAX_PLAYERS; idx++) {
        ngw_client_t *c = &g->cl[idx];
        if (!cycle_is_player(g, idx) || !c->see_due)
            continue;
        c->see_due = 0;
        cycle_see(g, idx);
    }
}

static void cycle_step_cb(void *ctx)
{
    ngw_t *g = ctx;
    g->have_snap = 1;
    cycle_step(g);
}

void ngw_cycle_wake(ngw_t *g)
{
    ngw_client_check_owner(g);
    ngw_udp_batch_begin(); /* each client's messages of the cycle in one system call */
    shm_snap_follow(g->r, &g->last_step, CYCLE_MAX_BEHIND, &g->snap, &g->self->resets,
                    cycle_step_cb, g);
    ngw_udp_batch_end();
    atomic_store(&g->self->last_step, g->last_step);
}

void ngw_cycle_see_tick(ngw_t *g)
{
    if (conf_bool(&g->conf, SP_synch_mode) || ngw_cycle_refresh(g) < 0)
        return;
    cycle_tick_on(g, &g->snap);
}
