/* s3d_clock.c -- when the next 3D step happens. Real time: step k at the absolute
 * deadline epoch + k * step on CLOCK_MONOTONIC (no drift); more than S3D_MAX_BEHIND
 * steps late, the missed slots are skipped. Synch mode: as fast as the agents and the
 * gateways allow: after a perception every robot's (syn) (or synch_timeout ms), and
 * never more than S3D_GW_LAG_MAX snapshots ahead of a running gateway, so monitors and
 * the log miss nothing; with no robot on the field it paces like real time. */
#include <time.h>
#include "log.h"
#include "s3d.h"
#include "shm.h"

volatile sig_atomic_t s3d_stop_flag = 0;

static void sleep_abs(int64_t t_ns)
{
    struct timespec ts = { .tv_sec = t_ns / 1000000000LL, .tv_nsec = t_ns % 1000000000LL };
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

/* Sleep until t in slices of at most 100 ms, reaping children between them. */
static void wait_until(s3d_t *s, int64_t t_ns)
{
    for (;;) {
        s3d_proc_reap(&s->proc);
        int64_t now = shm_now_ns();
        if (s3d_stop_flag || now >= t_ns)
            return;
        sleep_abs(t_ns - now > S3D_REAP_SLICE_NS ? now + S3D_REAP_SLICE_NS : t_ns);
    }
}

static void wait_real_time(s3d_t *s)
{
    int64_t epoch = s->shm.r->hdr.epoch_ns, now = shm_now_ns();
    uint64_t k = s->slot + 1;
    if (now - (epoch + (int64_t)k * s->step_ns) > (int64_t)S3D_MAX_BEHIND * s->step_ns) {
        uint64_t cur = (uint64_t)((now - epoch) / s->step_ns);
        s->skipped += cur - k;
        log_warn("clock: %llu steps late, skipped to slot %llu",
                 (unsigned long long)(cur - k), (unsigned long long)cur);
        k = cur;
    }
    wait_until(s, epoch + (int64_t)k * s->step_ns);
    s->slot = k;
}

/* 1 if a robot exists */
static int robots_on_field(const s3d_world_t *w)
{
    for (int i = 0; i < SHM3D_MAX_AGENTS; i++) {
        if (w->robot[i].present)
            return 1;
    }
    return 0;
}

/* every robot that was sent the perception of step p answered it */
static int agents_done(const s3d_t *s, uint64_t p)
{
    const shm3d_region_sh_t *r = s->shm.r;
    for (int i = 0; i < SHM3D_MAX_AGENTS; i++) {
        const shm3d_agent_sh_t *a = &r->agent[i];
        if (!s->world.robot[i].present
            || atomic_load(&a->state) != SHM3D_AGENT_ACTIVE
            || atomic_load(&a->generation) != s->world.robot[i].generation)
            continue;
        if (atomic_load_explicit(&a->done_step, memory_order_acquire) < p)
            return 0;
    }
    return 1;
}

/* no running gateway more than S3D_GW_LAG_MAX snapshots behind publish p */
static int gateways_caught_up(const s3d_t *s, uint64_t p)
{
    const shm3d_region_sh_t *r = s->shm.r;
    for (int g = 0; g < SHM3D_N_GATEWAYS; g++) {
        if (atomic_load(&r->proc[g].pid) <= 0 || atomic_load(&r->proc[g].heartbeat_ns) == 0)
            continue;
        if (p > atomic_load(&r->proc[g].last_step) + S3D_GW_LAG_MAX)
            return 0;
    }
    return 1;
}

static void wait_synch(s3d_t *s)
{
    shm3d_region_sh_t *r = s->shm.r;
    uint64_t p = atomic_load_explicit(&r->hdr.published, memory_order_acquire);
    int64_t start = shm_now_ns(), last_reap = start;
    int64_t timeout = (int64_t)conf3d_int(&s->conf, P3_synch_timeout) * 1000000LL;
    shm_sem_drain(&r->hdr.done_sem);
    for (;;) {
        if (s3d_stop_flag)
            return;
        if ((!s->wait_agents || agents_done(s, p)) && gateways_caught_up(s, p))
            return;
        int64_t now = shm_now_ns();
        if (now - start >= timeout) {
            if (s->timeouts++ % 100 == 0)
                log_info("synch: step %llu went on without every (syn) after %d ms",
                         (unsigned long long)p, conf3d_int(&s->conf, P3_synch_timeout));
            return;
        }
        if (now - last_reap >= S3D_REAP_SLICE_NS) {
            s3d_proc_reap(&s->proc);
            last_reap = now;
        }
        shm_sem_timedwait(&r->hdr.done_sem, 5);
    }
}

void s3d_clock_wait_next(s3d_t *s)
{
    if (s->synch && robots_on_field(&s->world)) {
        wait_synch(s);
        s->slot = (uint64_t)((shm_now_ns() - s->shm.r->hdr.epoch_ns) / s->step_ns);
    } else {
        shm_sem_drain(&s->shm.r->hdr.done_sem);
        wait_real_time(s);
    }
}
