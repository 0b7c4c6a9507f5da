/* shm_gwloop.c -- the libevent skeleton of a gateway process (shm_gwloop.h): the waker's
 * eventfd, the heartbeat timer and the signals, for any region layout (the caller hands
 * in its semaphore, shutdown flag and heartbeat field). */
#include <signal.h>
#include <event2/event.h>

#include "shm_gwloop.h"

static void gwloop_on_wake(evutil_socket_t fd, short what, void *arg)
{
    shm_gwloop_t *l = arg;
    (void)fd;
    (void)what;
    shm_waker_clear(&l->waker);
    if (atomic_load(l->shutdown)) {
        event_base_loopbreak(l->base);
        return;
    }
    l->on_wake(l->arg);
}

static void gwloop_on_beat(evutil_socket_t fd, short what, void *arg)
{
    shm_gwloop_t *l = arg;
    (void)fd;
    (void)what;
    atomic_store(l->heartbeat, shm_now_ns());
    if (!l->on_beat(l->arg)) {
        l->sim_gone = 1;
        event_base_loopbreak(l->base);
    }
}

static void gwloop_on_signal(evutil_socket_t sig, short what, void *arg)
{
    shm_gwloop_t *l = arg;
    (void)what;
    if (sig == SIGCHLD)
        l->on_child(l->arg);
    else
        event_base_loopbreak(l->base);
}

int shm_gwloop_start(shm_gwloop_t *l, struct event_base *base, sem_t *sem,
                     const _Atomic uint32_t *shutdown, _Atomic int64_t *heartbeat,
                     int beat_ms)
{
    const int sigs[3] = { SIGTERM, SIGINT, SIGCHLD };
    int nsig = l->on_child ? 3 : 2;
    struct timeval beat = { beat_ms / 1000, (beat_ms % 1000) * 1000 };

    l->base = base;
    l->shutdown = shutdown;
    l->heartbeat = heartbeat;
    l->sim_gone = 0;
    if (shm_waker_start(&l->waker, sem, shutdown) < 0)
        return -1;
    l->wake_ev = event_new(base, l->waker.fd, EV_READ | EV_PERSIST, gwloop_on_wake, l);
    l->beat_ev = event_new(base, -1, EV_PERSIST, gwloop_on_beat, l);
    if (!l->wake_ev || !l->beat_ev || event_add(l->wake_ev, NULL) < 0
        || event_add(l->beat_ev, &beat) < 0)
        return -1;
    for (int i = 0; i < nsig; i++) {
        l->sig_ev[i] = evsignal_new(base, sigs[i], gwloop_on_signal, l);
        if (!l->sig_ev[i] || event_add(l->sig_ev[i], NULL) < 0)
            return -1;
    }
    return 0;
}

void shm_gwloop_stop(shm_gwloop_t *l)
{
    struct event *evs[5] = { l->wake_ev, l->beat_ev, l->sig_ev[0], l->sig_ev[1], l->sig_ev[2] };
    shm_waker_stop(&l->waker);
    for (int i = 0; i < 5; i++) {
        if (evs[i])
            event_free(evs[i]);
    }
    l->wake_ev = l->beat_ev = l->sig_ev[0] = l->sig_ev[1] = l->sig_ev[2] = NULL;
}
