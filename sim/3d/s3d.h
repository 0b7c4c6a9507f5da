/* s3d.h -- the rcssserver3d process: configuration, region, world, gateway children and
 * clock in one context (s3d_t) that s3d_main.c builds and runs. The world and its pure
 * functions are in s3d_world.h. */
#ifndef RCSS_S3D_H
#define RCSS_S3D_H

#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include "conf3d.h"
#include "shm3d.h"
#include "s3d_world.h"

#define S3D_VERSION_BANNER   "rcssserver3d-1.0.0 (rcssserver-shm)"
#define S3D_MAX_BEHIND       5       /* real time: steps caught up before slots are skipped */
#define S3D_REAP_SLICE_NS    100000000LL /* longest sleep between child checks: 100 ms */
#define S3D_RESTART_GAP_NS   200000000LL /* at most 5 restarts per second per gateway */
#define S3D_STOP_WAIT_MS     3000    /* children get this long after SIGTERM */
#define S3D_GW_LAG_MAX       (SHM3D_SNAP_SLOTS / 2) /* synch mode: steps a gateway may lag */

typedef struct s3d_child {
    shm3d_proc_sh_t *slot;          /* its process slot in the region */
    const char      *bin;           /* program name */
    int64_t          last_spawn_ns;
    int              pending;       /* died, restart due */
} s3d_child_t;

typedef struct s3d_proc {
    char        dir[PATH_MAX];      /* where the gateway programs are */
    char        shm_name[SHM3D_NAME_LEN];
    int         spawn;              /* 0: started by someone else (systemd, tests) */
    s3d_child_t ch[SHM3D_N_GATEWAYS];
} s3d_proc_t;

typedef struct s3d {
    conf3d_t       conf;
    shm3d_handle_t shm;
    s3d_world_t    world;
    s3d_proc_t     proc;
    uint64_t       seed;
    int64_t        step_ns;         /* real-time step length */
    uint64_t       slot;            /* clock slot of the last step */
    int64_t        last_step_ns;    /* when the last step ran */
    uint64_t       skipped;         /* real-time slots dropped */
    int            synch;           /* server::synch_mode */
    int            wait_agents;     /* synch: the last publish asked robots to answer */
    uint64_t       timeouts;        /* synch: waits that ran out */
} s3d_t;

extern volatile sig_atomic_t s3d_stop_flag;

/* ---- s3d_proc.c ---- */
int  s3d_proc_init(s3d_proc_t *p, shm3d_region_sh_t *r, const conf3d_t *c, const char *shm_name,
                   char *err, size_t errlen);
int  s3d_proc_start(s3d_proc_t *p);
void s3d_proc_reap(s3d_proc_t *p);
void s3d_proc_stop(s3d_proc_t *p);

/* ---- s3d_clock.c ---- */
/* Real time: the deadline of slot k is epoch + k * step (no drift). Synch mode: at
 * once, except after a perception (every robot's (syn), or synch_timeout) and while a
 * gateway lags more than S3D_GW_LAG_MAX snapshots; nobody on the field: real time. */
void s3d_clock_wait_next(s3d_t *s);

/* ---- s3d_cmd.c ---- */
/* Connections that closed or were reused lose their robot. */
void s3d_cmd_sync(s3d_world_t *w, const shm3d_region_sh_t *r);
/* Every agent's records (effectors) and every gateway's control records. */
void s3d_cmd_drain(s3d_world_t *w, shm3d_region_sh_t *r);
/* One record of an agent / of a monitor, applied to the world (exposed for tests). */
void s3d_cmd_apply(s3d_world_t *w, int slot, const shm3d_cmd_sh_t *c);
void s3d_cmd_control(s3d_world_t *w, const shm3d_cmd_sh_t *c);

/* ---- s3d_publish.c ---- */
void s3d_publish_emit(void *ctx, const shm3d_event_sh_t *ev);
/* Fill a snapshot from the world (percepts on sense steps). */
void s3d_publish_fill(s3d_world_t *w, shm3d_snapshot_sh_t *s, uint64_t event_head);
/* Publish the world as the next snapshot and post the gateways' semaphores. Returns 1
 * if robots were asked to perceive (sense step with robots). */
int  s3d_publish(s3d_world_t *w, shm3d_region_sh_t *r);

#endif
