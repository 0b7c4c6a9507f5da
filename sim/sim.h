/* sim.h -- the rcssserver process, the top of sim/: configuration, region, world, gateway
 * children and clock in one context (sim_t) that sim_main.c builds and runs, and what the
 * process does with the world each turn (commands of coaches, trainer and monitors, the
 * step, publishing, resets, the runner interface). The world and its physics are in
 * world/sim_world.h, the referee in referee/sim_referee.h. */
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
#include "sim_referee.h"
#include "sim_world.h"
#include "tgrid.h"

#define SIM_VERSION_BANNER   "rcssserver-19.0.0"
#define SIM_LATE_NS          (TGRID_POLL_MS * 1000000LL) /* a poll this late moves the grid */
#define SIM_REAP_SLICE_NS    100000000LL /* longest sleep between child checks: 100 ms */
#define SIM_RESTART_GAP_NS   200000000LL /* at most 5 restarts per second per gateway */
#define SIM_STOP_WAIT_MS     2000   /* children get this long after SIGTERM */
#define SIM_SYNCH_TIME0_NS   50000000LL  /* synch mode: shortest cycle while time is 0 */
#define SIM_REC_WAIT_MS      2000   /* synch mode: longest wait for a recorder behind */
#define SIM_REC_MARGIN       2      /* snapshot slots kept free for the recorder's copy */
#define SIM_MGW_LAG          32     /* synch mode with monitors: monitorgw may be this many
                                       snapshots behind (it catches up on 48) */
#define SIM_HELP_LEN         (256 * 1024) /* module::help listing (every parameter) */

#define SIM_GW_GRACE_NS      5000000000LL /* a new gateway's first heartbeat may take this
                                      much longer than server::gateway_timeout_ms */
#define SIM_QUICK_DEATH_NS   1000000000LL /* a gateway dying this soon after its start... */
#define SIM_QUICK_DEATHS     10     /* ...this many times in a row stops the server */
#define SIM_GUARD_LOCKS      5      /* instance locks: the region name and four ports */

/* the instance locks the sim holds while it runs (sim_guard.c) */
typedef struct sim_guard {
    int lock[SIM_GUARD_LOCKS];
    int nlocks;
} sim_guard_t;

/* one gateway child */
typedef struct sim_gw {
    shm_proc_sh_t *slot;            /* its process slot in the region */
    int            index;           /* netgw index, -1 monitorgw, -2 recorder */
    int64_t        last_spawn_ns;   /* CLOCK_MONOTONIC of the last fork */
    int            pending;         /* died, restart due */
    int            quick_deaths;    /* died within SIM_QUICK_DEATH_NS of its start, in a row */
    int32_t        killed_pid;      /* the watchdog killed this process (not yet reaped) */
    int            adopted;         /* a dead sim's child: watched by pid, not waited for */
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
    char      instance[24];         /* the region's instance id, given to every child */
    int64_t   timeout_ns;           /* server::gateway_timeout_ms (0: no watchdog) */
    int64_t   last_tick_ns;         /* last reap/watchdog pass */
    int       fatal;                /* exit status the server must stop with (a gateway
                                       that cannot run: SIM_EXIT_BIND, crash loop: 1) */
    int       keep;                 /* children outlive the sim (resume on: a new sim
                                       adopts them) */
} sim_proc_t;

/* ---- runner interface: readiness, events, results, resets (sim_runner.c, sim_events.c,
 * sim_resjson.c, sim_reset.c; docs/ARCHITECTURE.md "Runner interface") ---- */
#define SIM_READY_WAIT_NS   10000000000LL /* gateways not up 10 s after the start: exit 2 */
#define SIM_FINISH_WAIT_MS  5000   /* longest wait for the recorder's final log names */
#define SIM_SSE_WAIT_MS     2000   /* longest wait for monitorgw to take the end event */
#define SIM_SINK_MAX        (1 << 20) /* event bytes kept for a slow socket reader */

/* exit status of rcssserver */
enum { SIM_EXIT_OK = 0, SIM_EXIT_CONFIG = 1, SIM_EXIT_BIND = 2, SIM_EXIT_MISSING = 3 };
/* server::synch_miss_policy */
enum { SIM_MISS_SKIP, SIM_MISS_WAIT, SIM_MISS_FORFEIT };

typedef struct sim_evsink {
    int       fd;                   /* -1: no event stream */
    int       stream;               /* a pipe or socket: unsent bytes wait in pend */
    int       broken;               /* the reader went away: nothing more is written */
    char     *pend;
    size_t    pend_len, pend_cap;
    uint64_t  drops;                /* lines dropped (slow reader, broken stream) */
    int       hold;                 /* lines wait in pend until the turn is committed
                                       (a sim that dies before never wrote them; its
                                       successor writes them once) */
} sim_evsink_t;

typedef struct sim_runner {
    int          resv_fd[3];        /* port-0 reservations held until the gateways bind */
    int          ready;             /* the ready line was printed */
    int          missing_said;      /* systemd: the gateways missing were named */
    int64_t      start_ns;          /* CLOCK_MONOTONIC at the start (ready timeout) */
    int          miss_policy;       /* SIM_MISS_* */
    int          forfeit_side;      /* SHM_SIDE_* of a team that forfeited, 0 none */
    int          exit_code;         /* SIM_EXIT_* once decided, -1 before */
    const char  *why;               /* exit reason word */
    int64_t      last_pub_ns;       /* previous publish (cycle period) */
    /* what the event stream last reported (each turn compares the world to it) */
    uint32_t     gen[SHM_MAX_CLIENTS];
    int8_t       active[SHM_MAX_CLIENTS];
    int8_t       card[SHM_MAX_PLAYERS];
    int          pm, score[2], pen_score[2], pen_miss[2], halves;
    sim_evsink_t sink;
} sim_runner_t;

/* What the process has taken from the region and not committed yet (sim_resume.c): the
 * read position in every command and control ring (the rings' tails move only at a
 * commit) and the next event position (readers see events only up to the head, which
 * moves only at a commit). A sim that dies leaves everything after its last commit to its
 * successor, which takes it again. */
typedef struct sim_taken {
    uint32_t cmd[SHM_MAX_CLIENTS];         /* client command rings */
    uint32_t ctrl[SHM_MAX_GATEWAYS + 1];   /* control rings; the last is monitorgw's */
    uint64_t ev_head;                      /* the event ring */
} sim_taken_t;

/* what the process knows of the match it took over (sim_resume.c, sim_super.c) */
typedef struct sim_resume {
    char     name[SHM_NAME_LEN];  /* the region to take over ("": a new match) */
    int      super_fd;            /* pipe to the supervisor, -1 none */
    int      progress_left;       /* steps to publish before the restart counts as done */
} sim_resume_t;

/* the supervisor: the rcssserver a user starts, which runs the sim as its child and
 * starts a new one on the same match when it dies (sim_super.c) */
#define SIM_EXIT_CRASH_LOOP   4    /* the sim kept dying: the match was given up */
#define SIM_SUPER_POLL_MS     20   /* the supervisor's look at its children without a
                                      signalfd (it has one: it wakes only when told) */

typedef struct sim {
    conf_t        conf;
    sim_taken_t   taken;            /* what is not committed yet (sim_resume.c) */
    sim_resume_t  resume;
    shm_handle_t  shm;
    sim_world_t   world;
    sim_proc_t    proc;
    uint64_t      seed;
    int64_t       step_ns;          /* real-time step length */
    tgrid_t       grid;             /* the timer schedule: steps and sensors per poll */
    uint64_t      poll;             /* the timer poll of the last step */
    int64_t       grid0_ns;         /* CLOCK_MONOTONIC ns of poll 0: poll p is due at
                                       grid0 + p * 10 ms; a late step moves it forward */
    int64_t       last_step_ns;     /* when the last step ran */
    uint64_t      late_steps;       /* real time: cycles in which a late poll moved the grid */
    time_t        start_time;       /* wall clock at start (the result block) */
    uint32_t      kick_offs_said;   /* kick-offs already announced on stdout */
    int           game_over;        /* auto mode: game_over_wait elapsed */
    int           team_started[2];  /* team_l_start / team_r_start were run */
    sim_guard_t   guard;            /* instance locks (sim_guard.c) */
    sim_runner_t  runner;           /* runner interface (sim_runner.c) */
    int           pub_pending;      /* a step's snapshot is filled, not yet published */
} sim_t;

/* ---- sim_stop.c ---- */
/* set by the signal handler only; the loop, the clock's waits and the children's
 * restarts act on it */
extern volatile sig_atomic_t sim_stop_flag;

/* ---- sim_clock.c ---- */
/* When poll p is due: grid0 + p * 10 ms (absolute, so nothing drifts). */
int64_t  sim_clock_due(int64_t grid0_ns, uint64_t poll);
/* The grid origin after the step of `poll` ran at now_ns: unchanged if it was less than
 * late_ns late, else moved forward by the delay (*moved = 1): the step is on the grid
 * from then on and every later step and sensor keeps its distance from it, as with the
 * reference, whose clock stands still while its process does not run. */
int64_t  sim_clock_regrid(int64_t grid0_ns, uint64_t poll, int64_t now_ns, int64_t late_ns,
                          int *moved);
/* Wait until t (absolute CLOCK_MONOTONIC ns) on the sim's semaphore, applying the
 * commands that take effect at once as they come (sim_between_steps) and reaping the
 * children at least every 100 ms. Returns early when sim_stop_flag is set. */
void     sim_clock_wait_until(sim_t *s, int64_t t_ns);
/* 1 if every ACTIVE player client, and every coach with its eye on, has
 * done_step >= step; *active = their count. */
int      sim_clock_all_done(const shm_region_sh_t *r, uint64_t step, int *active);
/* Wait for the next step: absolute deadline (real time) or (done) of every client
 * (synch mode). */
void     sim_clock_wait_next(sim_t *s);
/* Between two steps: if a trainer, online coach or operator sent a command, apply
 * everything received so far in order (players' commands first, as they were read
 * before it) and publish the live world. Called by every wait of the clock. */
void     sim_between_steps(sim_t *s);

/* ---- sim_guard.c ---- */
/* Take the instance locks of the region name and of every port, and check that each
 * port can be bound: 0, or SIM_EXIT_BIND (1 for another failure) with one line in
 * err. The locks are held until the process ends (or sim_guard_release). */
int  sim_guard_take(sim_guard_t *g, const conf_t *c, const char *shm_name,
                    unsigned held, char *err, size_t errlen);
void sim_guard_release(sim_guard_t *g);

/* ---- sim_proc.c ---- */
/* 1 if a log the recorder writes is on: game, text, or keepaway with keepaway_logging. */
int  sim_proc_logs_on(const conf_t *c);
/* Resolve the gateway directory and check the binaries; fills err on failure. */
int  sim_proc_init(sim_proc_t *p, shm_region_sh_t *r, const conf_t *c, const char *shm_name,
                   int n_netgw, char *err, size_t errlen);
/* Start every child (nothing in systemd mode). -1 if a fork failed. */
int  sim_proc_start(sim_proc_t *p);
/* Reap dead children and restart them (rate-limited); the watchdog: a child whose
 * heartbeat is older than server::gateway_timeout_ms is killed (and so replaced). A child
 * that exits with SHM_GW_EXIT_CONFLICT, or keeps dying at start, sets p->fatal. */
void sim_proc_reap(sim_proc_t *p);
/* sim_proc_reap at most every SIM_REAP_SLICE_NS (called once per turn, so synch mode
 * with fast clients still watches its children). */
void sim_proc_tick(sim_proc_t *p);
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

/* ---- sim_runner.c ---- */
/* The configuration with the command line's options (--config FILE, --print-config;
 * common/conf_cli.h): 0, 1 help (text in err), 2 the configuration was printed, -1. */
int  sim_runner_conf(conf_t *c, int argc, char **argv, char *err, size_t errlen);
/* After the configuration: checks the runner parameters, opens the event stream, binds
 * a free port for each of server::port, coach_port, olcoach_port that is 0 (the port
 * goes into the configuration, the socket is held until the gateways have bound it).
 * Returns SIM_EXIT_OK, or SIM_EXIT_CONFIG / SIM_EXIT_BIND after printing why. */
int  sim_runner_init(sim_t *s);
/* server::synch_miss_policy's SIM_MISS_* from its name, -1 if unknown. */
int  sim_runner_miss_policy(const char *name);
/* After the region exists: the runner part's ports and state. */
void sim_runner_region(sim_t *s);
/* Every loop turn: once every gateway is up (and monitorgw's HTTP port known), release
 * the reservations, print "READY port=... http_port=... shm=... pid=..." and emit the
 * start event; after SIM_READY_WAIT_NS without it (gateways we spawned), stop with
 * SIM_EXIT_BIND. */
void sim_runner_poll(sim_t *s);
/* After each publish: cycle metrics, connection counts, the event stream. t0 = when the
 * turn began. */
void sim_runner_after_turn(sim_t *s, int64_t t0);
/* 1 when the loop must end for the runner's reasons (forfeit, no gateways). */
int  sim_runner_over(const sim_t *s);
/* The end of the match, before the shutdown flag: the recorder finishes the logs,
 * result.json is written with their final names, the end event goes out (and to
 * monitorgw's viewers). Returns the exit status. */
int  sim_runner_finish(sim_t *s);
/* Release what sim_runner_init took (after the region is gone). */
void sim_runner_close(sim_t *s);

/* ---- sim_events.c ---- */
/* Open the event stream of server::event_stream: "" none, "fd:N", "unix:PATH",
 * "tcp:HOST:PORT" (connected now), or a file path (appended). 0, or -1 with err. */
int  sim_events_open(sim_evsink_t *k, const char *spec, char *err, size_t errlen);
void sim_events_close(sim_evsink_t *k);
/* One event: the common fields (event, time, step, episode) are added to obj, the line
 * goes to the stream and, as SHM_EV_RUNNER, to the region. Takes obj's reference. */
struct json_t;
void sim_events_emit(sim_t *s, const char *name, struct json_t *obj);
/* Client i (players by slot, trainer, online coaches) as events and result.json show it:
 * {"client": "player", "side": "l", "team": "A", "unum": 3}; new reference. */
struct json_t *sim_events_client(const sim_t *s, int i);
/* After each turn: connections, play mode, goals, penalties, cards, halves as events. */
void sim_events_diff(sim_t *s);
/* Take the world as it is as the base of the next comparison (start, reset). */
void sim_events_base(sim_t *s);
/* Try again to send what a slow stream reader left unsent. */
void sim_events_flush(sim_evsink_t *k);

/* ---- sim_resjson.c ---- */
/* The match result as JSON (teams, score, penalties, cycles, seed, logs, clients, exit
 * reason); new reference. */
struct json_t *sim_resjson_build(const sim_t *s);
/* Write it to server::result_file (relative: next to the game log, else the text log,
 * else the working directory) through a temporary file and rename(2). The path written
 * goes to path (may be NULL). 0, or -1 (logged). */
int  sim_resjson_write(const sim_t *s, struct json_t *res, char *path, size_t len);

/* ---- sim_reset.c ---- */
/* The world back to its start (sim_reset.c): what sim_world_init gives for the same
 * configuration, types and seed, with the events sink, team names and the connected
 * players of cl (enabled as when they joined) kept, and the episode counted. */
void sim_world_reset(sim_world_t *w, const shm_client_sh_t *cl);
/* A trainer/operator (reset) was applied this turn: the world back to its start (clock,
 * score, positions, stamina, the original seed), connected players on the field again,
 * a new episode; the process state that follows the world too. */
int  sim_reset_pending(const sim_t *s);
void sim_reset(sim_t *s);

/* ---- sim_resume.c: the match state in the region, and taking a match over ---- */
enum { SIM_COMMIT_QUIET, SIM_COMMIT_STEP, SIM_COMMIT_LIVE };
/* The region's state body: the process state the next turn needs, from the world to
 * the clock, with what was taken from the rings, for each commit. */
#define SIM_STATE_VERSION 1u
/* Commit: the process state as it is into the region's spare copy, which becomes the
 * consistent one; then the rings' tails and the event head follow what was taken.
 * kind: what is published right after (SIM_COMMIT_STEP: the next snapshot; _LIVE: the
 * live world; _QUIET: nothing). */
void sim_commit(sim_t *s, int kind);
/* The step's snapshot (committed first) and the live world (the same). */
void sim_publish_step(sim_t *s);
void sim_publish_between(sim_t *s);
/* After a commit: what the process does outside the region (the lines it prints, the
 * team commands it starts) is marked done in the committed copy, so a successor does not
 * do it again. */
void sim_after_commit(sim_t *s);
/* The process's side of the world's event sink: events go to the next uncommitted
 * position (ctx = the sim_t). */
void sim_state_emit(void *ctx, const shm_event_sh_t *ev);
/* The size of the state body (test/sim/test_state.c pins it). */
size_t sim_state_size(void);
/* Before the first commit of a new match: the state body's version and size. */
void sim_state_init(shm_region_sh_t *r);
/* 1 if the region named can be taken over by this process: its sim is dead, no
 * shutdown, a state body of this version. Fills why otherwise. */
int  sim_resume_possible(const char *name, char *why, size_t len);
/* Take the match over from the region named (the sim that ran it is dead): the state,
 * the clock, the children. 0: the loop goes on as usual; SIM_EXIT_CRASH_LOOP: given up
 * (the caller shuts down); -1: the match was ending, its region is removed; else the
 * exit status (the region could not be taken). */
int  sim_resume_serve(sim_t *s);
/* A turn's publish counted towards the new sim's progress (hdr.resume_tries back to 0,
 * the supervisor told). */
void sim_resume_progress(sim_t *s);

/* ---- sim_super.c ---- */
/* Run as the supervisor when resume is on and the sim spawns its gateways: returns 0 in
 * the child, which goes on as the sim (s->resume.name set when it takes a match over);
 * the supervisor itself never returns (it exits with the sim's status). -1: no
 * supervisor (resume off, systemd layout), the caller is the sim. */
int  sim_super_run(sim_t *s);
/* The sim tells its supervisor: "N<name>" the region is there, "P" a restart took. */
void sim_super_tell(sim_t *s, const char *msg);

/* ---- sim_publish.c ---- */
/* Fill a snapshot's world fields from w (and the view fields from the client table cl,
 * may be NULL). Does not touch seq/step/publish_ns/event_head. */
void sim_publish_fill(const sim_world_t *w, const shm_client_sh_t *cl, shm_snapshot_sh_t *s);
/* Fill the next snapshot slot with the world (due at grid_ns, timer poll `poll`; the
 * events before ev_head belong to it) and return it, still open: readers skip it until
 * sim_publish_done closes it, makes it the newest and wakes every gateway and the
 * recorder. */
shm_snapshot_sh_t *sim_publish_fill_step(sim_world_t *w, shm_region_sh_t *r, int64_t grid_ns,
                                         uint64_t poll, uint64_t ev_head);
void sim_publish_done(shm_region_sh_t *r, shm_snapshot_sh_t *s);
/* Publish the world between two steps (the region's `live` world: what commands
 * applied at once changed, the events they released) and wake everyone. */
void sim_publish_live(sim_world_t *w, shm_region_sh_t *r);

/* ---- sim_step.c ---- */
/* One simulation step (docs/protocol/physics.md §1): the physics, time, the referee. */
void sim_step(sim_world_t *w);
/* The referee the process runs (sim_referee_init's table): rcssserver 19's referees,
 * the keepaway referee, the coaches' type assignment at the first kick-off. */
extern const sim_ref_table_t sim_step_referees;

/* ---- sim_ctrl.c ---- */
/* Apply one control record (monitor/trainer); side is the online coach's side for
 * records from a coach ring (0 trainer/monitor). */
void sim_cmd_control(sim_world_t *w, const shm_cmd_sh_t *c, int side);
/* Drain every player's command ring (a disabled player's records are dropped), the
 * coach/trainer rings and every gateway's control ring of region r from the positions
 * in t (advanced; the tails move at the next commit), applying the records in order; each coach or control record applied is acknowledged with an
 * SHM_EV_ACK event (its producer answers after it). Then, at a step (step = 1), the
 * coach-language messages that are due are released. Returns records applied. */
int  sim_cmd_drain(sim_world_t *w, shm_region_sh_t *r, sim_taken_t *t, int step);
/* 1 if a coach ring or a control ring holds a record, or a gateway asked for the
 * players' rings (hdr.players_now): something to apply at once. */
int  sim_cmd_pending_now(const shm_region_sh_t *r, const sim_taken_t *t);

/* ---- sim_coach.c ---- */
/* One record from a coach's ring: side 0 the trainer, else the online coach of side.
 * Long texts are assembled; coach-language messages queued; substitutions checked
 * against the rules (online coach) and applied; replies emitted as SHM_EV_COACH_REPLY.
 * Returns 0 for a world command, which the caller applies (sim_cmd_control). */
int  sim_coach_record(sim_world_t *w, const shm_cmd_sh_t *c, int side);
/* One record a coach sent before it left (what follows its (bye) in the ring): only what
 * it sent goes to the text log (its (bye) among them, as the reference logs it); the rest
 * is dropped. */
void sim_coach_record_gone(sim_world_t *w, const shm_cmd_sh_t *c, int side);
/* Release the queued coach-language messages that are due (every step, after the
 * commands were drained). */
void sim_coach_release(sim_world_t *w);
/* Substitute player idx with type (no rules: trainer and monitors); emits the notice. */
void sim_coach_substitute(sim_world_t *w, int idx, int type);
/* The first kick-off: the reference's automatic assignment of heterogeneous types
 * (the referee calls it through its table's first_kick_off, at the kick-off of time 0). */
void sim_coach_kick_off(sim_world_t *w);

/* ---- sim_loop.c ---- */
/* One turn of the main loop: clients, commands, the step (or a reset), the match flow,
 * publish. */
void sim_loop_turn(sim_t *s);
/* After a commit: the event stream's held lines, the team commands, the lines printed. */
void sim_loop_outside(sim_t *s);

/* ---- sim_proc.c (a match taken over) ---- */
/* The children of a dead sim, as the region's slots name them: those still running are
 * watched by pid (they are not this process's children: the supervisor reaps them), the
 * others are started again. */
void sim_proc_adopt(sim_proc_t *p);

#endif
