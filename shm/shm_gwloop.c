/* shm_gwloop.c -- the libevent skeleton of a gateway process (shm_gwloop.h): the
 * waker's descriptor (the 2D region's wake socket, or the semaphore thread's eventfd),
 * the heartbeat timer and the signals, for either region layout. */
#include <signal.h>
#include <unistd.h>
#include <event2/event.h>

#include "net_tcp.h"

#include "shm_gwloop.h"

/* the heartbeat and the caller's beat; 0, or -1 when the sim is gone (the loop ends) */
static int gwloop_beat(shm_gwloop_t *l, int64_t now)
{
    l->last_beat_ns = now;
    atomic_store(l->heartbeat, now);
    if (l->on_beat(l->arg))
        return 0;
    l->sim_gone = 1;
    event_base_loopbreak(l->base);
    return -1;
}

/* A wake-up also carries the beat when one is due, and puts the timer a whole beat
 * after it: while wake-ups come more often than the beat (the steps of a real-time
 * match), the timer never fires and the process wakes once per thing to do. */
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
    int64_t now = shm_now_ns();
    if (now - l->last_beat_ns >= l->beat_ns && gwloop_beat(l, now) < 0)
        return;
    event_add(l->beat_ev, &l->beat_tv);
}

static void gwloop_on_beat(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    gwloop_beat(arg, shm_now_ns());
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

/* the loop's events on the started waker */
static int gwloop_events(shm_gwloop_t *l, struct event_base *base,
                         const _Atomic uint32_t *shutdown, _Atomic int64_t *heartbeat,
                         int beat_ms)
{
    const int sigs[3] = { SIGTERM, SIGINT, SIGCHLD };
    int nsig = l->on_child ? 3 : 2;
    l->beat_tv = (struct timeval){ beat_ms / 1000, (beat_ms % 1000) * 1000 };
    l->beat_ns = (int64_t)beat_ms * 1000000LL;
    l->last_beat_ns = shm_now_ns();

    l->base = base;
    l->shutdown = shutdown;
    l->heartbeat = heartbeat;
    l->sim_gone = 0;
    l->wake_ev = event_new(base, l->waker.fd, EV_READ | EV_PERSIST, gwloop_on_wake, l);
    l->beat_ev = event_new(base, -1, EV_PERSIST, gwloop_on_beat, l);
    if (!l->wake_ev || !l->beat_ev || event_add(l->wake_ev, NULL) < 0
        || event_add(l->beat_ev, &l->beat_tv) < 0)
        return -1;
    for (int i = 0; i < nsig; i++) {
        l->sig_ev[i] = evsignal_new(base, sigs[i], gwloop_on_signal, l);
        if (!l->sig_ev[i] || event_add(l->sig_ev[i], NULL) < 0)
            return -1;
    }
    return 0;
}

int shm_gwloop_start(shm_gwloop_t *l, struct event_base *base, shm_region_sh_t *r, int slot,
                     _Atomic int64_t *heartbeat, int beat_ms)
{
    if (shm_waker_start(&l->waker, r, slot) < 0)
        return -1;
    return gwloop_events(l, base, &r->hdr.shutdown, heartbeat, beat_ms);
}

int shm_gwloop_start_sem(shm_gwloop_t *l, struct event_base *base, sem_t *sem,
                         const _Atomic uint32_t *shutdown, _Atomic int64_t *heartbeat,
                         int beat_ms)
{
    if (shm_waker_start_sem(&l->waker, sem, shutdown) < 0)
        return -1;
    return gwloop_events(l, base, shutdown, heartbeat, beat_ms);
}

int shm_gwloop_listen(shm_gwloop_t *l, struct event_base *base, const char *bind, int port,
                      evconnlistener_cb on_accept, void *arg, char *err, size_t errlen)
{
    int fd = net_tcp_listen(bind, port, 64, err, errlen);
    if (fd < 0)
        return -1;
    l->listener = evconnlistener_new(base, on_accept, arg,
                                     LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, -1, fd);
    if (!l->listener) {
        close(fd);
        err[0] = '\0';
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
    if (l->listener)
        evconnlistener_free(l->listener);
    l->listener = NULL;
}
