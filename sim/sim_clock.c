/* sim_clock.c -- when the next step happens. Real time: at the polls the timer
 * schedule marks (common/tgrid.h; every 100 ms by default), poll p due at the absolute
 * time grid0 + p * 10 ms on CLOCK_MONOTONIC, so nothing drifts. The sim wakes at every
 * poll, as the reference's loop: one that comes a poll or more late (a stall, a loaded
 * machine) moves the grid forward by its delay instead of catching up: as with the
 * reference, whose clock stands still while it does not run, the steps after it and
 * every sensor keep their distances from it. Synch mode: as
 * soon as every active player sent (done), or after synch_timeout ms
 * (server::synch_miss_policy skip and forfeit; wait keeps waiting), counting each late
 * client's misses; the server never exits because a client is slow. Every wait
 * applies the commands that take effect at once (sim_between_steps) as they come. */
#include <errno.h>
#include <time.h>
#include "sim.h"
#include "log.h"

#define POLL_NS ((int64_t)TGRID_POLL_MS * 1000000LL)

/* what every wait does while it waits: the commands that take effect at once (a trainer's,
 * an online coach's, an operator's) with everything received before them, then the live
 * world published */
void sim_between_steps(sim_t *s)
{
    shm_region_sh_t *r = s->shm.r;
    if (!sim_cmd_pending_now(r, &s->taken))
        return;
    atomic_store_explicit(&r->hdr.players_now, 0, memory_order_relaxed);
    sim_world_sync_clients(&s->world, r->client);
    sim_world_sync_teams(&s->world, r->team);
    sim_cmd_drain(&s->world, r, &s->taken, 0);
    sim_publish_between(s);
}

int64_t sim_clock_due(int64_t grid0_ns, uint64_t poll)
{
    return grid0_ns + (int64_t)poll * POLL_NS;
}

int64_t sim_clock_regrid(int64_t grid0_ns, uint64_t poll, int64_t now_ns, int64_t late_ns,
                         int *moved)
{
    int64_t late = now_ns - sim_clock_due(grid0_ns, poll);
    *moved = late >= late_ns;
    return *moved ? grid0_ns + late : grid0_ns;
}

void sim_clock_wait_until(sim_t *s, int64_t t_ns)
{
    shm_region_sh_t *r = s->shm.r;
    for (;;) {
        sim_proc_tick(&s->proc);
        sim_between_steps(s);
        int64_t now = shm_now_ns();
        if (sim_stop_flag || now >= t_ns)
            return;
        int64_t until = t_ns - now > SIM_REAP_SLICE_NS ? now + SIM_REAP_SLICE_NS : t_ns;
        shm_sem_wait_until(&r->hdr.done_sem, until);
    }
}

int sim_clock_all_done(const shm_region_sh_t *r, uint64_t step, int *active)
{
    return shm_synch_all_done(r, step, active);
}

/* Real time: poll by poll up to the step, as the reference's loop, whose clock counts 10
 * ms per poll however long the poll took: a poll that comes a poll or more late (the
 * sim, or the whole machine, stood still) moves the grid forward by its delay, so the
 * step after a stall comes a whole step after the stall's start plus its length, and
 * every sensor keeps its place relative to it. Smaller delays are absorbed (no drift). */
static void wait_real_time(sim_t *s, uint64_t next)
{
    int late = 0;
    for (uint64_t p = s->poll + 1; p <= next && !sim_stop_flag; p++) {
        int64_t due = sim_clock_due(s->grid0_ns, p);
        sim_clock_wait_until(s, due);
        int64_t now = shm_now_ns();
        int moved = 0;
        s->grid0_ns = sim_clock_regrid(s->grid0_ns, p, now, SIM_LATE_NS, &moved);
        if (moved) {
            late = 1;
            log_debug("clock: poll %llu came %.1f ms late; the grid moves with it",
                      (unsigned long long)p, (double)(now - due) / 1e6);
        }
    }
    s->late_steps += (uint64_t)late;
}

/* The misses of a wait for step that ended (everybody done) or ran out of time: each
 * waited client without (done) gets one and its run grows, the others' runs end
 * (region runner part, for /status and result.json). Under the forfeit policy a
 * player's run reaching server::synch_miss_limit makes its team forfeit. */
static void count_misses(sim_t *s, uint64_t step)
{
    shm_region_sh_t *r = s->shm.r;
    int limit = conf_int(&s->conf, SP_synch_miss_limit);
    for (int i = 0; i < SHM_MAX_CLIENTS; i++) {
        shm_client_stat_sh_t *st = &r->runner.client[i];
        if (!shm_synch_waits_for(r, i))
            continue;
        if (atomic_load_explicit(&r->client[i].done_step, memory_order_acquire) >= step) {
            st->miss_run = 0;
            continue;
        }
        st->misses++;
        r->runner.misses++;
        if (++st->miss_run > st->miss_run_max)
            st->miss_run_max = st->miss_run;
        if (s->runner.miss_policy == SIM_MISS_FORFEIT && i < SHM_MAX_PLAYERS
            && (int)st->miss_run >= limit && !s->runner.forfeit_side) {
            s->runner.forfeit_side = i < SHM_TEAM_SIZE ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT;
            log_warn("player %c %d missed %u cycles in a row: its team forfeits",
                     i < SHM_TEAM_SIZE ? 'l' : 'r', i % SHM_TEAM_SIZE + 1, st->miss_run);
        }
    }
}

/* Synch mode with nobody to wait for: pace like real time, but step at once when a
 * client becomes active (netgw posts done_sem when it accepts a player), as the
 * reference's step follows the inits it read: the player then thinks in the very next
 * cycle, before a trainer's (change_mode) sent after the init takes effect. */
static void wait_idle(sim_t *s, uint64_t step)
{
    shm_region_sh_t *r = s->shm.r;
    /* while the game time is 0, a cycle lasts what the reference's (think) delay makes
     * it last, clients or not */
    int time0 = s->world.time <= 0 && s->world.episode == 0;
    int64_t until = s->last_step_ns + (time0 ? SIM_SYNCH_TIME0_NS : s->step_ns);
    for (;;) {
        sim_proc_reap(&s->proc);
        sim_between_steps(s);
        int active = 0;
        (void)sim_clock_all_done(r, step, &active);
        int64_t now = shm_now_ns();
        if (sim_stop_flag || active > 0 || now >= until)
            return;
        int64_t left = until - now < SIM_REAP_SLICE_NS ? until - now : SIM_REAP_SLICE_NS;
        shm_sem_wait_until(&r->hdr.done_sem, now + left);
    }
}

static void wait_synch(sim_t *s)
{
    shm_region_sh_t *r = s->shm.r;
    uint64_t step = atomic_load_explicit(&r->hdr.published, memory_order_acquire);
    int64_t start = shm_now_ns(), last_reap = start;
    int64_t timeout = (int64_t)conf_int(&s->conf, SP_synch_timeout) * 1000000LL;
    if (s->world.time <= 0 && s->world.episode == 0)
        start += SIM_SYNCH_TIME0_NS; /* the wait begins with the delayed (think) */
    for (;;) {
        sim_between_steps(s);
        int active = 0;
        int done = sim_clock_all_done(r, step, &active);
        if (sim_stop_flag)
            return;
        if (active == 0) {
            wait_idle(s, step);
            return;
        }
        if (done) {
            count_misses(s, step); /* ends the runs of those who made it */
            /* while the game time is 0 each cycle lasts at least 50 ms, as the reference
             * delays each (think) then, so that the other clients can connect before
             * auto mode's connect_wait runs out (docs/protocol/player.md §11.3); not after a
             * (reset): the clients are there, and training wants the cycles */
            if (s->world.time <= 0 && s->world.episode == 0)
                sim_clock_wait_until(s, s->last_step_ns + SIM_SYNCH_TIME0_NS);
            return;
        }
        int64_t now = shm_now_ns();
        if (now - start >= timeout) {
            int late = shm_synch_first_late(r, step, NULL);
            count_misses(s, step);
            if (s->runner.miss_policy == SIM_MISS_WAIT && !s->runner.forfeit_side) {
                log_info("waiting for a (done) (step %llu, first late client %d)",
                         (unsigned long long)step, late);
                start = now; /* one more miss per synch_timeout, never a step without it */
                continue;
            }
            log_info("someone missed a cycle (step %llu, first late client %d)",
                     (unsigned long long)step, late);
            return;
        }
        if (now - last_reap >= SIM_REAP_SLICE_NS) {
            sim_proc_reap(&s->proc);
            last_reap = now;
        }
        shm_sem_wait_until(&r->hdr.done_sem, now + 10000000LL);
    }
}

void sim_clock_wait_next(sim_t *s)
{
    uint64_t next = tgrid_next(&s->grid, s->poll, TGRID_STEP);
    if (conf_bool(&s->conf, SP_synch_mode)) {
        wait_synch(s);
        s->grid0_ns = shm_now_ns() - (int64_t)next * POLL_NS; /* no wall clock: now */
    } else {
        wait_real_time(s, next);
    }
    s->poll = next;
}
