/* shm_gwloop.h -- the libevent skeleton every gateway process of either region runs
 * (rcss-netgw, rcss-monitorgw, rcss3d-agentgw, rcss3d-monitorgw): its wake-ups (the
 * wake socket, or the cycle semaphore turned into an eventfd: shm_waker_t), a
 * heartbeat timer writing the process slot's heartbeat, and SIGTERM/SIGINT (and
 * SIGCHLD if asked) as events. A wake-up calls on_wake, unless the region's shutdown
 * flag is up: then the loop ends. Each beat (at least every beat_ms: a wake-up runs it
 * when it is due, the timer when no wake-up came for beat_ms) writes the heartbeat and
 * calls on_beat, which says whether the sim is still there; when it is gone the loop
 * ends with sim_gone set. Never logs (the caller says why it left). */
#ifndef RCSS_SHM_GWLOOP_H
#define RCSS_SHM_GWLOOP_H

#include <stdint.h>
#include <event2/listener.h>
#include "shm_gateway.h"

struct event_base;
struct event;

typedef struct shm_gwloop {
    /* the caller's, set before shm_gwloop_start */
    void (*on_wake)(void *arg);   /* a wake-up: read the region (never on shutdown) */
    int  (*on_beat)(void *arg);   /* every beat after the heartbeat: 1 go on, 0 the sim
                                     is gone */
    void (*on_child)(void *arg);  /* SIGCHLD; NULL: not caught */
    void  *arg;
    /* the loop's */
    struct event_base        *base;
    const _Atomic uint32_t   *shutdown;
    _Atomic int64_t          *heartbeat;
    shm_waker_t               waker;
    struct event             *wake_ev, *beat_ev, *sig_ev[3];
    struct evconnlistener    *listener;  /* shm_gwloop_listen's, or NULL */
    struct timeval            beat_tv;
    int64_t                   beat_ns, last_beat_ns;
    int                       sim_gone;  /* the loop ended: the sim is gone */
} shm_gwloop_t;

/* Start the waker (posts made while nobody listened are dropped) and add the loop's
 * events to base: the waker's descriptor, the beat every beat_ms, the signals. (The
 * caller writes the first heartbeat once it is up: the sim takes it for ready.) The 2D
 * region's gateways: the wake socket of slot (netgw index or SHM_WAKE_MGW), the
 * semaphore thread if it is taken (shm_waker_start). 0, or -1. */
int  shm_gwloop_start(shm_gwloop_t *l, struct event_base *base, shm_region_sh_t *r, int slot,
                      _Atomic int64_t *heartbeat, int beat_ms);
/* The same on any semaphore, always with the thread (the 3D region's gateways). */
int  shm_gwloop_start_sem(shm_gwloop_t *l, struct event_base *base, sem_t *sem,
                          const _Atomic uint32_t *shutdown, _Atomic int64_t *heartbeat,
                          int beat_ms);
/* A TCP listener on bind:port in base (net_tcp_listen), accepts calling on_accept with
 * arg; kept in l->listener. 0, or -1 with one line in err (empty: libevent failed). */
int  shm_gwloop_listen(shm_gwloop_t *l, struct event_base *base, const char *bind, int port,
                       evconnlistener_cb on_accept, void *arg, char *err, size_t errlen);
/* Stop the waker's thread and free the loop's events and listener; before the base is
 * freed. Safe on a loop never started (a zeroed struct). */
void shm_gwloop_stop(shm_gwloop_t *l);

#endif
