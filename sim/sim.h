/* sim.h -- the rcssserver process: configuration, region, world, gateway children and
 * clock in one context (sim_t) that sim_main.c builds and runs. The world itself and its
 * pure functions are in sim_world.h. */
#ifndef RCSS_SIM_H
#define RCSS_SIM_H

#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>
#include "conf.h"
#include "shm.h"
#include "sim_world.h"

#define SIM_VERSION_BANNER   "rcssserver-19.0.0"
#define SIM_MAX_BEHIND       2      /* steps of lag caught up before slots are skipped */
#define SIM_REAP_SLICE_NS    100000000LL /* longest sleep between child checks: 100 ms */
#define SIM_RESTART_GAP_NS   200000000LL /* at most 5 restarts per second per gateway */
#define SIM_STOP_WAIT_MS     2000   /* children get this long after SIGTERM */
#define SIM_SYNCH_TIME0_NS   50000000LL  /* synch mode: shortest cycle while time is 0 */
#define SIM_REC_WAIT_MS      2000   /* synch mode: longest wait for a recorder behind */
#define SIM_REC_MARGIN       2      /* snapshot slots kept free for the recorder's copy */
#define SIM_MGW_LAG          32     /* synch mode with monitors: monitorgw may be this many
                                       snapshots behind (it catches up on 48) */

/* one gateway child */
typedef struct sim_gw {
    shm_proc_sh_t *slot;            /* its process slot in the region */
    int            index;           /* netgw index, -1 monitorgw, -2 recorder */
    int64_t        last_spawn_ns;   /* CLOCK_MONOTONIC of the last fork */
    int            pending;         /* died, restart due */
} sim_gw_t;

typedef struct sim_proc {
    char      dir[PATH_MAX];        /* where rcss-netgw / rcss-monitorgw live */
    char      shm_name[SHM_NAME_LEN];
    int       spawn;                /* 0 under systemd: nothing is started */
    pid_t     team[2];              /* team_l_start / team_r_start children, 0 none */
    int       n;                    /* children: netgw, monitorgw, then the recorder */
    int       rec_wait;             /* synch mode with a log on: the sim waits for the
                                       recorder rather than overwrite what it has not read */
    int       rec_gave_up;          /* a wait timed out: no waiting until it caught up */
    int       mgw_wait;             /* synch mode: the sim waits for monitorgw's fan-out */
    int       mgw_gave_up;          /* such a wait timed out: none until it caught up */
    sim_gw_t  gw[SHM_MAX_GATEWAYS + 2];
} sim_proc_t;

typedef struct sim {
    conf_t        conf;
    shm_handle_t  shm;
    sim_world_t   world;
    sim_proc_t    proc;
    uint64_t      seed;
    int64_t       step_ns;          /* real-time step length */
    uint64_t      slot;             /* clock slot k of the last step (deadline epoch + k*step) */
    int64_t       last_step_ns;     /* when the last step ran */
    uint64_t      skipped;          /* clock slots dropped because the sim fell behind */
    time_t        start_time;       /* wall clock at start (the result block) */
    uint32_t      kick_offs_said;   /* kick-offs already announced on stdout */
    int           game_over;        /* auto mode: game_over_wait elapsed */
    int           team_started[2];  /* team_l_start / team_r_start were run */
} sim_t;

/* set by the signal handler only; the loop acts on it */
extern volatile sig_atomic_t sim_stop_flag;

/* ---- sim_clock.c ---- */
/* Absolute deadline of slot k: epoch + k * step (no accumulated error). */
int64_t  sim_clock_deadline(int64_t epoch_ns, int64_t step_ns, uint64_t k);
/* The slot to run after slot k given the time now: k + 1, or, when more than max_behind
 * steps late, the newest slot whose deadline has passed (the missed ones are skipped and
 * counted in *skipped). */
uint64_t sim_clock_next(int64_t epoch_ns, int64_t step_ns, uint64_t k, int64_t now_ns,
                        int max_behind, uint64_t *skipped);
/* Sleep until t (absolute CLOCK_MONOTONIC ns), in slices of at most 100 ms, reaping the
 * children between slices. Returns early when sim_stop_flag is set. */
void     sim_clock_wait_until(sim_t *s, int64_t t_ns);
/* 1 if every ACTIVE player client, and every coach with its eye on, has
 * done_step >= step; *active = their count. */
int      sim_clock_all_done(const shm_region_sh_t *r, uint64_t step, int *active);
/* Wait for the next step: absolute deadline (real time) or (done) of every client
 * (synch mode). */
void     sim_clock_wait_next(sim_t *s);

/* ---- sim_proc.c ---- */
/* Resolve the gateway directory and check the binaries; fills err on failure. */
int  sim_proc_init(sim_proc_t *p, shm_region_sh_t *r, const conf_t *c, const char *shm_name,
                   int n_netgw, char *err, size_t errlen);
/* Start every child (nothing in systemd mode). -1 if a fork failed. */
int  sim_proc_start(sim_proc_t *p);
/* Reap dead children and restart them (rate-limited). */
void sim_proc_reap(sim_proc_t *p);
/* SIGTERM every child, wait up to SIM_STOP_WAIT_MS, then SIGKILL. */
void sim_proc_stop(sim_proc_t *p);
/* Start team k's command (server::team_l_start / team_r_start) with /bin/sh -c, as the
 * reference does; the pid is kept in p->team[k]. */
void sim_proc_start_team(sim_proc_t *p, int k, const char *cmd);
/* SIGINT to each team child still running, then wait up to 1 s for it. */
void sim_proc_kill_teams(sim_proc_t *p);

/* ---- sim_result.c ---- */
/* The closing line (why) and the match result block, as the reference prints them. */
void sim_result_print(FILE *out, const char *why, const sim_world_t *w,
                      const shm_region_sh_t *r, time_t start);

/* Synch mode with logs (p->rec_wait): before a turn would overwrite a snapshot or events
 * the recorder has not copied yet, wait for it (reaping and restarting it meanwhile), at
 * most SIM_REC_WAIT_MS; after a timeout no more waiting until it has caught up (it counts
 * what it lost). Real-time mode never waits. */
void sim_proc_wait_recorder(sim_proc_t *p, const shm_region_sh_t *r);
/* Synch mode with UDP monitors attached: every monitor gets every frame only if
 * monitorgw keeps up with the sim, so a turn waits while monitorgw is more than
 * SIM_MGW_LAG snapshots behind, until it is within half that (a few turns then run
 * free); at most SIM_REC_WAIT_MS, then no more waiting until it has caught up. Never
 * waits for a monitor: a monitor that does not read loses frames in its own socket. */
void sim_proc_wait_monitors(sim_proc_t *p, const shm_region_sh_t *r);

/* ---- sim_publish.c ---- */
/* Event sink for the world: appends to the region's event ring (ctx = region). */
void sim_publish_emit(void *ctx, const shm_event_sh_t *ev);
/* Publish the world as the next snapshot and post every gateway's semaphore. */
void sim_publish(sim_world_t *w, shm_region_sh_t *r);

#endif
