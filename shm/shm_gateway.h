/* shm_gateway.h -- what every gateway process (rcss-netgw, rcss-monitorgw) does with the
 * region: wait for the sim's region to be ready, take the resolved parameters, turn the
 * cycle semaphore into an eventfd for its libevent loop (a thread, so no callback ever
 * blocks), and notice a dead sim. (Following the snapshots in order: shm_snap_follow,
 * shm.h.) */
#ifndef RCSS_SHM_GATEWAY_H
#define RCSS_SHM_GATEWAY_H

#include <pthread.h>
#include <stdint.h>
#include "conf.h"
#include "shm.h"
#include "shm_wake.h"

/* A gateway's exit status when it must not be restarted: its ports are taken, or the
 * region is not its sim's (the sim then stops with the same status). */
#define SHM_GW_EXIT_CONFLICT 2

/* Attach to region name, retrying every 50 ms for up to wait_ms while it does not exist
 * or is not ready yet (systemd starts every unit at once). With instance != 0 (a gateway
 * the sim spawned, told --instance ID) only that sim's region is taken. 0, or -1 /
 * SHM_CONFLICT (another user's object, another sim's region) with one line in err. */
int  shm_gateway_attach(shm_handle_t *h, const char *name, int wait_ms, uint64_t instance,
                        char *err, size_t errlen);
/* "--instance" values: hexadecimal, non-zero. 0 ok, -1 malformed. */
int  shm_gateway_parse_instance(const char *text, uint64_t *out);

/* A gateway's command line: --shm NAME (default: $env), and where opts allow them
 * --instance ID (SHM_ARG_INSTANCE; 0 if not given) and --index I (SHM_ARG_INDEX: 0 to
 * SHM_MAX_GATEWAYS - 1, required). 0, or -1 for anything else (the caller prints its
 * usage). */
#define SHM_ARG_INSTANCE 1u
#define SHM_ARG_INDEX    2u
typedef struct shm_gwargs {
    const char *name;
    uint64_t    instance;
    int         index;        /* -1 without SHM_ARG_INDEX */
} shm_gwargs_t;
int  shm_gateway_args(int argc, char **argv, const char *env, unsigned opts, shm_gwargs_t *a);
/* The sim's resolved configuration, as a conf_t. */
void shm_gateway_conf(const shm_region_sh_t *r, conf_t *c);
#define SHM_ALIVE_EVERY_NS 100000000LL /* the sim's process is looked up this often */

/* 0 once the sim is gone (pid and start time; noticed within SHM_ALIVE_EVERY_NS) or
 * asked everyone to leave (at once). With resume on (hdr.resume_wait_ms), a dead sim
 * counts as there for that long while its supervisor lives: a new sim takes the match
 * over and writes its pid into the header. */
int  shm_gateway_sim_alive(const shm_region_sh_t *r);

/* What wakes a gateway's loop once per published snapshot: its wake socket
 * (shm_wake.h), or, if that name cannot be bound (or $RCSS_WAKE_THREAD is set, to
 * compare), a thread that waits on the slot's cycle semaphore and writes an eventfd. */
typedef struct shm_waker {
    sem_t                  *sem;
    const _Atomic uint32_t *shutdown;
    int                     fd;        /* readable after every wake-up (thread: and on
                                          shutdown) */
    int                     sock;      /* 1: fd is the wake socket, no thread */
    pthread_t               thread;
    int                     started;
    _Atomic int             stop;
} shm_waker_t;

/* Drain posts made while nobody listened, bind the wake socket of slot (netgw index or
 * SHM_WAKE_MGW) or start the thread. 0 or -1. */
int  shm_waker_start(shm_waker_t *w, shm_region_sh_t *r, int slot);
/* The thread alone, on any semaphore (the 3D region's gateways). 0 or -1. */
int  shm_waker_start_sem(shm_waker_t *w, sem_t *sem, const _Atomic uint32_t *shutdown);
/* Take the pending wake-ups (call from the loop when fd is readable). */
void shm_waker_clear(shm_waker_t *w);
/* Stop and join the thread, close fd. Safe on a waker never started. */
void shm_waker_stop(shm_waker_t *w);

#endif
