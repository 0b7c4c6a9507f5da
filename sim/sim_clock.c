/* sim_clock.c -- when the next step happens. Real time: step k at the absolute deadline
 * epoch + k*step on CLOCK_MONOTONIC (clock_nanosleep TIMER_ABSTIME), so nothing drifts;
 * a sim more than SIM_MAX_BEHIND steps late skips the missed slots instead of bursting.
 * Synch mode: as soon as every active player sent (done), or after synch_timeout ms
 * (server::synch_miss_policy skip and forfeit; wait keeps waiting), counting each late
 * client's misses; the server never exits because a client is slow. */
#include <errno.h>
#include <time.h>
#include "sim.h"
#include "log.h"

volatile sig_atomic_t sim_stop_flag = 0;

int64_t sim_clock_deadline(int64_t epoch_ns, int64_t step_ns, uint64_t k)
{
    return epoch_ns + (int64_t)k * step_ns;
}

uint64_t sim_clock_next(int64_t epoch_ns, int64_t step_ns, uint64_t k, int64_t now_ns,
                        int max_behind, uint64_t *skipped)
{
    uint64_t next = k + 1;
    if (step_ns <= 0)
        return next;
    int64_t late = now_ns - sim_clock_deadline(epoch_ns, step_ns, next);
    if (late <= (int64_t)max_behind * step_ns)
        return next;
    uint64_t cur = (uint64_t)((now_ns - epoch_ns) / step_ns); /* newest passed deadline */
    if (skipped)
        *skipped += cur - next;
    return cur;
}

static void sleep_abs(int64_t t_ns)
{
    struct timespec ts = { .tv_sec = t_ns / 1000000000LL, .tv_nsec = t_ns % 1000000000LL };
    int rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
    (void)rc; /* EINTR: a signal; the caller looks at the flag */
}

void sim_clock_wait_until(sim_t *s, int64_t t_ns)
{
    for (;;) {
        sim_proc_reap(&s->proc);
        int64_t now = shm_now_ns();
        if (sim_stop_flag || now >= t_ns)
            return;
        int64_t until = t_ns - now > SIM_REAP_SLICE_NS ? now + SIM_REAP_SLICE_NS : t_ns;
        sleep_abs(until);
    }
}

int sim_clock_all_done(const shm_region_sh_t *r, uint64_t step, int *active)
{
    return shm_synch_all_done(r, step, active);
}

static void wait_real_time(sim_t *s)
{
    shm_region_sh_t *r = s->shm.r;
    uint64_t k = sim_clock_next(r->hdr.epoch_ns, s->step_ns, s->slot, shm_now_ns(),
                                SIM_MAX_BEHIND, &s->skipped);
    if (k != s->slot + 1)
        log_warn("clock: %llu steps late, skipped to slot %llu",
                 (unsigned long long)(k - s->slot - 1), (unsigned long long)k);
    sim_clock_wait_until(s, sim_clock_deadline(r->hdr.epoch_ns, s->step_ns, k));
    s->slot = k;
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
    int64_t until = s->last_step_ns + s->step_ns;
    for (;;) {
        sim_proc_reap(&s->proc);
        int active = 0;
        (void)sim_clock_all_done(r, step, &active);
        int64_t now = shm_now_ns();
        if (sim_stop_flag || active > 0 || now >= until)
            return;
        int64_t left = until - now < SIM_REAP_SLICE_NS ? until - now : SIM_REAP_SLICE_NS;
        if (left < 1000000)
            sleep_abs(now + left);
        else
            shm_sem_timedwait(&r->hdr.done_sem, (int)(left / 1000000));
    }
}

static void wait_synch(sim_t *s)
{
    shm_region_sh_t *r = s->shm.r;
    uint64_t step = atomic_load_explicit(&r->hdr.published, memory_order_acquire);
    int64_t start = shm_now_ns(), last_reap = start;
    int64_t timeout = (int64_t)conf_int(&s->conf, SP_synch_timeout) * 1000000LL;
    for (;;) {
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
             * auto mode's connect_wait runs out (spec player-sim.md 7.3); not after a
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
        shm_sem_timedwait(&r->hdr.done_sem, 10);
    }
}

void sim_clock_wait_next(sim_t *s)
{
    if (conf_bool(&s->conf, SP_synch_mode))
        wait_synch(s);
    else
        wait_real_time(s);
}
