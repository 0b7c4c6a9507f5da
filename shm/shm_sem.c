/* shm_sem.c -- semaphores in the region (cycle posted by sim, done posted by netgw) and
 * the robust client-table lock. Semaphores only signal; the one cross-process lock is a
 * robust mutex whose holder pid is recorded, so a gateway that dies while holding it
 * cannot hang the others. Never logs; callers decide. */
#include <errno.h>
#include <time.h>
#include <unistd.h>

#include "shm.h"

/* Post once. sem_post only fails on an invalid semaphore or at SEM_VALUE_MAX pending
 * posts (a reader gone for ~2^31 cycles); neither is worth reporting to the sim loop. */
void shm_sem_post(sem_t *s)
{
    (void)sem_post(s);
}

/* Wait for one post for at most timeout_ms (<= 0: only take a pending post).
 * The deadline is absolute CLOCK_REALTIME as sem_timedwait requires, computed once so
 * EINTR retries do not extend it. A wall-clock step can lengthen or shorten one wait;
 * callers loop on 1 anyway (they use the timeout only to notice a dead sim).
 * Returns 0 taken, 1 timed out, -1 error. */
int shm_sem_timedwait(sem_t *s, int timeout_ms)
{
    struct timespec dl;

    if (timeout_ms < 0)
        timeout_ms = 0;
    if (clock_gettime(CLOCK_REALTIME, &dl) != 0)
        return -1;
    dl.tv_sec += timeout_ms / 1000;
    dl.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (dl.tv_nsec >= 1000000000L) {
        dl.tv_sec++;
        dl.tv_nsec -= 1000000000L;
    }
    for (;;) {
        if (sem_timedwait(s, &dl) == 0)
            return 0;
        if (errno == EINTR)
            continue;
        return errno == ETIMEDOUT ? 1 : -1;
    }
}

int shm_sem_wait_until(sem_t *s, int64_t t_ns)
{
    struct timespec dl = { .tv_sec = (time_t)(t_ns / 1000000000LL),
                           .tv_nsec = (long)(t_ns % 1000000000LL) };
    for (;;) {
        if (sem_clockwait(s, CLOCK_MONOTONIC, &dl) == 0)
            return 0;
        if (errno == EINTR)
            continue;
        return errno == ETIMEDOUT ? 1 : -1;
    }
}

/* Take every pending post without blocking; returns how many were taken. Used by a
 * reader that is about to read the newest snapshot anyway (older posts are moot). */
int shm_sem_drain(sem_t *s)
{
    int n = 0;

    for (;;) {
        if (sem_trywait(s) == 0) {
            n++;
            continue;
        }
        if (errno == EINTR)
            continue;
        return n; /* EAGAIN: nothing left (or EINVAL: nothing to take) */
    }
}

/* Take the client-table lock. If the previous holder died with it, the kernel hands it
 * to us with EOWNERDEAD; every table store leaves the table consistent (see shm.h), so
 * we only mark the mutex consistent and carry on. The holder's pid is recorded in
 * hdr.table_lock_owner for diagnostics and for the sim's force-unlock decisions.
 * 0, or -1 (ENOTRECOVERABLE or an invalid mutex). */
int shm_table_lock(shm_region_sh_t *r)
{
    int rc = pthread_mutex_lock(&r->hdr.table_lock);

    if (rc == EOWNERDEAD)
        rc = pthread_mutex_consistent(&r->hdr.table_lock);
    if (rc != 0)
        return -1;
    /* relaxed: the mutex itself orders this store for the next holder */
    atomic_store_explicit(&r->hdr.table_lock_owner, (int32_t)getpid(), memory_order_relaxed);
    return 0;
}

/* Release the client-table lock; clears the owner field first, while still held. */
void shm_table_unlock(shm_region_sh_t *r)
{
    atomic_store_explicit(&r->hdr.table_lock_owner, 0, memory_order_relaxed);
    (void)pthread_mutex_unlock(&r->hdr.table_lock);
}

/* CLOCK_MONOTONIC in nanoseconds: the clock of every *_ns field of the region. */
int64_t shm_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Synch mode: the sim's newest snapshot (a player sent off is not waited for) */
static const shm_snapshot_sh_t *synch_snap(const shm_region_sh_t *r)
{
    uint64_t pub = atomic_load_explicit(&r->hdr.published, memory_order_relaxed);
    return pub > 0 ? &r->snap[(pub - 1) % SHM_SNAP_SLOTS] : NULL;
}

/* does the sim wait for client i? ACTIVE players (not a red-carded one taken off, as the
 * reference waits only for enabled players), coaches with the eye on */
static int synch_waits_for(const shm_region_sh_t *r, const shm_snapshot_sh_t *snap, int i)
{
    const shm_client_sh_t *c = &r->client[i];
    if (atomic_load_explicit(&c->state, memory_order_acquire) != CLIENT_ST_ACTIVE)
        return 0;
    if (i >= SHM_MAX_PLAYERS)
        return c->eye_on != 0;
    return !(snap && !snap->player[i].enabled && snap->player[i].card == 2);
}

/* the first client the sim waits for that is not done with step, -1 none; *active the
 * number it waits for. Loads are seq_cst: with shm_synch_done's seq_cst store, of two
 * gateways marking their last clients at the same time at least one sees both. */
int shm_synch_first_late(const shm_region_sh_t *r, uint64_t step, int *active)
{
    const shm_snapshot_sh_t *snap = synch_snap(r);
    int n = 0, late = -1;
    for (int i = 0; i < SHM_MAX_CLIENTS; i++) {
        if (!synch_waits_for(r, snap, i))
            continue;
        n++;
        if (late < 0 && atomic_load(&r->client[i].done_step) < step)
            late = i;
    }
    if (active)
        *active = n;
    return late;
}

int shm_synch_waits_for(const shm_region_sh_t *r, int i)
{
    return synch_waits_for(r, synch_snap(r), i);
}

int shm_synch_all_done(const shm_region_sh_t *r, uint64_t step, int *active)
{
    return shm_synch_first_late(r, step, active) < 0;
}

/* Client idx sent (done) for the newest step: record it, and wake the sim only if that
 * completes its wait (one wake-up per cycle instead of one per client). *hint is the
 * caller's memory of a client still to answer: while it is, nothing needs scanning. */
void shm_synch_done(shm_region_sh_t *r, int idx, int *hint)
{
    uint64_t step = atomic_load(&r->hdr.published);
    atomic_store(&r->client[idx].done_step, step);
    int h = *hint;
    if (h >= 0 && h < SHM_MAX_CLIENTS && synch_waits_for(r, synch_snap(r), h)
        && atomic_load(&r->client[h].done_step) < step)
        return;
    *hint = shm_synch_first_late(r, step, NULL);
    if (*hint < 0)
        shm_sem_post(&r->hdr.done_sem);
}
