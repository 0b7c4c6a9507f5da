/* netgw_cycle.c -- what a gateway sends on its own: once per published snapshot the
 * referee messages, sense_body, the synchronous see and (think) in synch mode; on the
 * async see timer (send_step / 4, anchored to the region's epoch) the see of every
 * player whose counter fires. Snapshots are read with the seqlock API; a gateway more
 * than two steps behind jumps to the newest and counts a reset. */
#include <stdio.h>
#include <string.h>
#include "log.h"
#include "netgw.h"
#include "netgw_proto.h"

#define CYCLE_MAX_BEHIND  2
#define CYCLE_MAX_REFEREE 8

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
    if (proto_sense_body(&g->snap, idx, &g->r->client[idx], &g->conf, g->out, sizeof g->out) > 0)
        ngw_udp_send(g->cl[idx].fd, g->out);
}

static void cycle_see(ngw_t *g, int idx)
{
    if (proto_see(&g->snap, idx, &g->r->client[idx], &g->conf, &g->r->ptypes, &g->rng,
                  g->out, sizeof g->out) > 0)
        ngw_udp_send(g->cl[idx].fd, g->out);
}

/* referee messages published up to this snapshot, as (hear T referee MSG) lines */
static int cycle_referee(ngw_t *g, char msg[][SHM_EVENT_TEXT_LEN + 32])
{
    int n = 0;
    shm_event_sh_t ev;
    while (g->ev_cursor < g->snap.event_head) {
        int rc = shm_event_read(g->r, g->ev_cursor, &ev);
        if (rc > 0)
            break;
        if (rc < 0) { /* overwritten: this gateway was too slow */
            uint64_t head = shm_event_head(g->r);
            g->ev_cursor = head > SHM_EVENT_SLOTS / 2 ? head - SHM_EVENT_SLOTS / 2 : 0;
            atomic_fetch_add(&g->self->resets, 1);
            continue;
        }
        g->ev_cursor++;
        ngw_coach_event(g, &ev); /* coach traffic: netgw_coachcycle.c */
        if (ev.kind != SHM_EV_REFEREE || n >= CYCLE_MAX_REFEREE)
            continue;
        int len = ev.len < 0 ? 0 : ev.len > SHM_EVENT_TEXT_LEN ? SHM_EVENT_TEXT_LEN : ev.len;
        snprintf(msg[n++], SHM_EVENT_TEXT_LEN + 32, "(hear %d referee %.*s)", ev.time, len,
                 ev.text);
    }
    return n;
}

/* everything due for one published snapshot (already in g->snap) */
static void cycle_step(ngw_t *g)
{
    static char referee[CYCLE_MAX_REFEREE][SHM_EVENT_TEXT_LEN + 32];
    int nref = cycle_referee(g, referee);
    int synch = conf_bool(&g->conf, SP_synch_mode);
    ngw_coach_step(g); /* see_global, (think) and notices for coaches */
    for (int idx = 0; idx < SHM_MAX_PLAYERS; idx++) {
        if (!cycle_is_player(g, idx))
            continue;
        ngw_client_t *c = &g->cl[idx];
        const shm_client_sh_t *e = &g->r->client[idx];
        for (int k = 0; k < nref; k++)
            ngw_udp_send(c->fd, referee[k]);
        ngw_cycle_sense_body(g, idx);
        if (e->synch_see && ++c->see_count >= proto_see_period(e)) {
            c->see_count = 0;
            cycle_see(g, idx);
        }
        if (synch)
            ngw_udp_send(c->fd, "(think)");
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
    shm_snap_follow(g->r, &g->last_step, CYCLE_MAX_BEHIND, &g->snap, &g->self->resets,
                    cycle_step_cb, g);
    atomic_store(&g->self->last_step, g->last_step);
}

void ngw_cycle_see_tick(ngw_t *g)
{
    if (ngw_cycle_refresh(g) < 0)
        return;
    for (int idx = 0; idx < SHM_MAX_PLAYERS; idx++) {
        if (!cycle_is_player(g, idx) || g->r->client[idx].synch_see)
            continue;
        ngw_client_t *c = &g->cl[idx];
        if (++c->see_count >= proto_see_period(&g->r->client[idx])) {
            c->see_count = 0;
            cycle_see(g, idx);
        }
    }
}
