/* shm_gateway.c -- gateway-side helpers over the region (shm_gateway.h). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>
#include "shm_gateway.h"

int shm_gateway_attach(shm_handle_t *h, const char *name, int wait_ms, uint64_t instance,
                       char *err, size_t errlen)
{
    memset(h, 0, sizeof *h);
    err[0] = '\0';
    for (int waited = 0; waited <= wait_ms; waited += 50) {
        if (!h->r) {
            int rc = shm_region_attach(h, name, err, errlen);
            if (rc == SHM_CONFLICT)
                return rc;
        }
        if (h->r && instance != 0 && h->r->hdr.instance_id != instance) {
            snprintf(err, errlen, "shm %s belongs to another server (instance %016llx, "
                     "ours %016llx): refusing it", name,
                     (unsigned long long)h->r->hdr.instance_id, (unsigned long long)instance);
            shm_region_detach(h);
            return SHM_CONFLICT;
        }
        if (h->r && atomic_load(&h->r->hdr.ready) == 1) {
            h->sim_parent = getppid() == (pid_t)h->r->hdr.sim_pid;
            return 0;
        }
        struct timespec ts = { 0, 50000000L };
        nanosleep(&ts, NULL);
    }
    if (h->r) {
        snprintf(err, errlen, "shm %s: the sim never marked the region ready", name);
        shm_region_detach(h);
    }
    return -1;
}

int shm_gateway_parse_instance(const char *text, uint64_t *out)
{
    char *end;
    if (!text || !text[0])
        return -1;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 16);
    if (*end || errno || v == 0)
        return -1;
    *out = (uint64_t)v;
    return 0;
}

int shm_gateway_args(int argc, char **argv, const char *env, unsigned opts, shm_gwargs_t *a)
{
    a->name = getenv(env);
    a->instance = 0;
    a->index = -1;
    for (int i = 1; i < argc; i += 2) { /* every option takes a value */
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(argv[i], "--shm") == 0 && val) {
            a->name = val;
        } else if ((opts & SHM_ARG_INSTANCE) && strcmp(argv[i], "--instance") == 0 && val) {
            if (shm_gateway_parse_instance(val, &a->instance) < 0)
                return -1;
        } else if ((opts & SHM_ARG_INDEX) && strcmp(argv[i], "--index") == 0 && val) {
            char *end;
            long v = strtol(val, &end, 10);
            if (*end || v < 0 || v >= SHM_MAX_GATEWAYS)
                return -1;
            a->index = (int)v;
        } else {
            return -1;
        }
    }
    if (!a->name || !a->name[0] || ((opts & SHM_ARG_INDEX) && a->index < 0))
        return -1;
    return 0;
}

void shm_gateway_conf(const shm_region_sh_t *r, conf_t *c)
{
    for (int i = 0; i < PARAM_COUNT; i++) {
        c->num[i] = r->params.num[i];
        memcpy(c->str[i], r->params.str[i], CONF_STR_LEN);
        c->str[i][CONF_STR_LEN - 1] = '\0';
    }
}

/* With resume on, a dead sim is not the end: the match waits for the sim that takes it
 * over (its supervisor restarts it, or systemd), up to hdr.resume_wait_ms from the moment
 * this process noticed; at once the end if the supervisor is gone too. */
static int gateway_waits_for_sim(const shm_region_sh_t *r, int64_t now, int64_t *dead_since)
{
    uint32_t wait = r->hdr.resume_wait_ms;
    pid_t super = (pid_t)r->hdr.super_pid;
    if (wait == 0 || (super > 0 && !shm_pid_running(super, r->hdr.super_start)))
        return 0;
    if (*dead_since == 0)
        *dead_since = now;
    return now - *dead_since < (int64_t)wait * 1000000LL;
}

int shm_gateway_sim_alive(const shm_region_sh_t *r)
{
    /* a gateway asks every few milliseconds; /proc is read at most every
     * SHM_ALIVE_EVERY_NS (per process: a gateway serves one region) */
    static const shm_region_sh_t *seen;
    static int64_t seen_ns, dead_since;
    if (atomic_load(&r->hdr.shutdown))
        return 0;
    int64_t now = shm_now_ns();
    if (r == seen && now - seen_ns < SHM_ALIVE_EVERY_NS)
        return 1;
    if (!shm_sim_running(&r->hdr)) {
        if (r != seen)
            dead_since = 0;
        seen = r;
        seen_ns = now;
        return gateway_waits_for_sim(r, now, &dead_since);
    }
    dead_since = 0;
    seen = r;
    seen_ns = now;
    return 1;
}

static void *waker_thread(void *arg)
{
    shm_waker_t *w = arg;
    uint64_t one = 1;
    while (!atomic_load(&w->stop)) {
        int rc = shm_sem_timedwait(w->sem, 100); /* timed: a dead sim never posts */
        if (rc == 0 || atomic_load(w->shutdown)) {
            if (write(w->fd, &one, sizeof one) < 0 && errno != EAGAIN)
                break;
        }
    }
    return NULL;
}

static void waker_init(shm_waker_t *w, sem_t *sem, const _Atomic uint32_t *shutdown)
{
    w->sem = sem;
    w->shutdown = shutdown;
    w->started = 0;
    w->sock = 0;
    atomic_store(&w->stop, 0);
    shm_sem_drain(w->sem);
}

static int waker_thread_start(shm_waker_t *w)
{
    w->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (w->fd < 0)
        return -1;
    if (pthread_create(&w->thread, NULL, waker_thread, w) != 0) {
        close(w->fd);
        w->fd = -1;
        return -1;
    }
    w->started = 1;
    return 0;
}

int shm_waker_start(shm_waker_t *w, shm_region_sh_t *r, int slot)
{
    waker_init(w, slot == SHM_WAKE_MGW ? &r->monitorgw.cycle_sem : &r->netgw[slot].cycle_sem,
               &r->hdr.shutdown);
    const char *force = getenv("RCSS_WAKE_THREAD");
    if (!(force && force[0] == '1')) {
        w->fd = shm_wake_bind(r->hdr.name, slot);
        if (w->fd >= 0) {
            w->sock = 1;
            return 0;
        }
    }
    return waker_thread_start(w);
}

int shm_waker_start_sem(shm_waker_t *w, sem_t *sem, const _Atomic uint32_t *shutdown)
{
    waker_init(w, sem, shutdown);
    return waker_thread_start(w);
}

void shm_waker_clear(shm_waker_t *w)
{
    if (w->sock) { /* the posts nobody waits for are taken too, so they do not pile up */
        shm_wake_drain(w->fd);
        shm_sem_drain(w->sem);
        return;
    }
    uint64_t v;
    while (read(w->fd, &v, sizeof v) == (ssize_t)sizeof v)
        ;
}

void shm_waker_stop(shm_waker_t *w)
{
    if (w->started) {
        atomic_store(&w->stop, 1);
        pthread_join(w->thread, NULL);
        w->started = 0;
    }
    if (w->fd > 0) {
        close(w->fd);
        w->fd = -1;
    }
}
