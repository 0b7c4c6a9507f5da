/* sim_resume.c -- the match state in the region, and a new sim taking a match over from
 * a dead one (docs/ARCHITECTURE.md "A killed sim").
 *
 * Commits. Everything the next turn needs (the world, the clock, the referee and coach
 * state, the random generators, the runner's last report, and how far the rings were
 * read) is copied into the region's spare state copy, which then becomes the consistent
 * one, before anything it leads to is shown: the rings' tails and the event head move
 * only at a commit, and the snapshot or live world it leads to is published right after.
 * So whatever moment the sim dies at, the region holds one state from which the next sim
 * goes on, and what the old one did after it (records taken, events written, a snapshot
 * filled) is either redone the same way or, for a filled snapshot, published.
 *
 * Taking over. A new sim attaches the region, checks the state's version, takes the
 * instance locks, names itself in the header, copies the state back, publishes what the
 * dead sim committed but did not publish, adopts the gateways that still run and starts
 * those that do not, and runs the loop as usual. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>
#include "sim.h"
#include "log.h"
#include "playmode.h"
#include "proc.h"
#include "shm_gateway.h"

#define POLL_NS ((int64_t)TGRID_POLL_MS * 1000000LL)

/* The state body: the sim_t fields a turn depends on, the world last (copied without
 * the unused parts of its buffers). Pinned by test/sim/test_state.c: a change of this
 * structure or of sim_world_t needs a new SIM_STATE_VERSION. */
typedef struct sim_state {
    uint64_t    commit;           /* commits before this one */
    int32_t     kind;             /* SIM_COMMIT_*: what is published after it */
    int32_t     game_over;
    uint64_t    pub;              /* STEP: the snapshot number; LIVE: hdr.live_pub after */
    sim_taken_t taken;
    uint64_t    poll, late_steps, seed;
    int64_t     start_time;
    uint32_t    kick_offs_said;
    int32_t     team_started[2];
    int32_t     team_pid[2];
    /* the runner: what the event stream last reported */
    int32_t     ready, forfeit_side, exit_code;
    int32_t     pm, score[2], pen_score[2], pen_miss[2], halves;
    uint32_t    gen[SHM_MAX_CLIENTS];
    int8_t      active[SHM_MAX_CLIENTS];
    int8_t      card[SHM_MAX_PLAYERS];
    sim_world_t world;
} sim_state_t;

_Static_assert(sizeof(sim_state_t) <= SHM_STATE_BYTES, "the state body outgrew the region");

static sim_state_t *state_body(shm_region_sh_t *r, uint32_t i)
{
    return (sim_state_t *)(void *)r->state.body[i & 1u];
}

static void state_save(const sim_t *s, sim_state_t *d, int kind, uint64_t pub)
{
    const sim_runner_t *u = &s->runner;
    d->commit = atomic_load_explicit(&s->shm.r->state.commits, memory_order_relaxed);
    d->kind = kind;
    d->game_over = s->game_over;
    d->pub = pub;
    d->taken = s->taken;
    d->poll = s->poll;
    d->late_steps = s->late_steps;
    d->seed = s->seed;
    d->start_time = (int64_t)s->start_time;
    d->kick_offs_said = s->kick_offs_said;
    for (int k = 0; k < 2; k++) {
        d->team_started[k] = s->team_started[k];
        d->team_pid[k] = (int32_t)s->proc.team[k];
        d->score[k] = u->score[k];
        d->pen_score[k] = u->pen_score[k];
        d->pen_miss[k] = u->pen_miss[k];
    }
    d->ready = u->ready;
    d->forfeit_side = u->forfeit_side;
    d->exit_code = u->exit_code;
    d->pm = u->pm;
    d->halves = u->halves;
    memcpy(d->gen, u->gen, sizeof d->gen);
    memcpy(d->active, u->active, sizeof d->active);
    memcpy(d->card, u->card, sizeof d->card);
    sim_world_copy(&d->world, &s->world);
}

static void state_load(sim_t *s, const sim_state_t *d)
{
    sim_runner_t *u = &s->runner;
    s->game_over = d->game_over;
    s->taken = d->taken;
    s->poll = d->poll;
    s->late_steps = d->late_steps;
    s->seed = d->seed;
    s->start_time = (time_t)d->start_time;
    s->kick_offs_said = d->kick_offs_said;
    for (int k = 0; k < 2; k++) {
        s->team_started[k] = d->team_started[k];
        s->proc.team[k] = (pid_t)d->team_pid[k];
        u->score[k] = d->score[k];
        u->pen_score[k] = d->pen_score[k];
        u->pen_miss[k] = d->pen_miss[k];
    }
    u->ready = d->ready;
    u->forfeit_side = d->forfeit_side;
    u->exit_code = d->exit_code;
    u->pm = d->pm;
    u->halves = d->halves;
    memcpy(u->gen, d->gen, sizeof u->gen);
    memcpy(u->active, d->active, sizeof u->active);
    memcpy(u->card, d->card, sizeof u->card);
    sim_world_copy(&s->world, &d->world);
    /* this process's addresses (a new program may be mapped elsewhere) */
    s->world.conf = &s->conf;
    s->world.emit = sim_state_emit;
    s->world.emit_ctx = s;
    sim_referee_attach(&s->world, &sim_step_referees);
}

/* the producers may reuse what was taken, readers see the events written */
static void state_release(sim_t *s)
{
    shm_region_sh_t *r = s->shm.r;
    for (int i = 0; i < SHM_MAX_CLIENTS; i++) {
        if (atomic_load_explicit(&r->cmd[i].tail, memory_order_relaxed) != s->taken.cmd[i])
            atomic_store_explicit(&r->cmd[i].tail, s->taken.cmd[i], memory_order_release);
    }
    for (int g = 0; g <= SHM_MAX_GATEWAYS; g++) {
        shm_ctrl_ring_sh_t *q = g < SHM_MAX_GATEWAYS ? &r->netgw[g].ctrl : &r->monitorgw.ctrl;
        if (atomic_load_explicit(&q->tail, memory_order_relaxed) != s->taken.ctrl[g])
            atomic_store_explicit(&q->tail, s->taken.ctrl[g], memory_order_release);
    }
    shm_event_release(r, s->taken.ev_head);
}

size_t sim_state_size(void)
{
    return sizeof(sim_state_t);
}

void sim_state_init(shm_region_sh_t *r)
{
    r->state.body_version = SIM_STATE_VERSION;
    r->state.body_size = sizeof(sim_state_t);
    atomic_store(&r->state.cur, 0);
    atomic_store(&r->state.commits, 0);
}

void sim_commit(sim_t *s, int kind)
{
    shm_region_sh_t *r = s->shm.r;
    uint32_t cur = atomic_load_explicit(&r->state.cur, memory_order_relaxed) & 1u;
    uint64_t pub = kind == SIM_COMMIT_STEP ? atomic_load(&r->hdr.published) + 1
                   : kind == SIM_COMMIT_LIVE ? atomic_load(&r->hdr.live_pub) + 1 : 0;
    state_save(s, state_body(r, cur ^ 1u), kind, pub);
    atomic_store_explicit(&r->state.cur, cur ^ 1u, memory_order_release);
    atomic_fetch_add_explicit(&r->state.commits, 1, memory_order_relaxed);
    state_release(s);
}

void sim_state_emit(void *ctx, const shm_event_sh_t *ev)
{
    sim_t *s = ctx;
    shm_event_put(s->shm.r, s->taken.ev_head++, ev);
}

void sim_after_commit(sim_t *s)
{
    shm_region_sh_t *r = s->shm.r;
    sim_state_t *d = state_body(r, atomic_load_explicit(&r->state.cur, memory_order_relaxed));
    if (s->world.notes_len > 0) {
        sim_world_print_notes(&s->world, stdout);
        d->world.notes_len = 0;
        d->world.notes[0] = '\0';
    }
    for (int k = 0; k < 2; k++) {
        d->team_started[k] = s->team_started[k];
        d->team_pid[k] = (int32_t)s->proc.team[k];
    }
}

void sim_publish_between(sim_t *s)
{
    sim_commit(s, SIM_COMMIT_LIVE);
    sim_publish_live(&s->world, s->shm.r);
}

void sim_publish_step(sim_t *s)
{
    shm_region_sh_t *r = s->shm.r;
    shm_snapshot_sh_t *snap = sim_publish_fill_step(&s->world, r, sim_clock_due(s->grid0_ns,
                                                    s->poll), s->poll, s->taken.ev_head);
    sim_commit(s, SIM_COMMIT_STEP);
    sim_publish_done(r, snap);
}

void sim_resume_progress(sim_t *s)
{
    if (s->resume.progress_left <= 0 || --s->resume.progress_left > 0)
        return;
    atomic_store(&s->shm.r->hdr.resume_tries, 0);
    sim_super_tell(s, "P");
}

/* ---- taking a match over --------------------------------------------------------- */
/* a gateway still serves the match (a new sim without any would take over nobody) */
static int resume_served(const shm_region_sh_t *r)
{
    for (uint32_t g = 0; g < r->hdr.n_gateways && g < SHM_MAX_GATEWAYS; g++) {
        if (shm_pid_running((pid_t)atomic_load(&r->netgw[g].pid), 0))
            return 1;
    }
    return shm_pid_running((pid_t)atomic_load(&r->monitorgw.pid), 0);
}

int sim_resume_possible(const char *name, char *why, size_t len)
{
    shm_handle_t h;
    char err[SHM_ERR_LEN];
    if (shm_region_attach(&h, name, err, sizeof err) != 0) {
        snprintf(why, len, "%s", err);
        return 0;
    }
    const shm_region_sh_t *r = h.r;
    int ok = 0;
    if (atomic_load(&r->hdr.shutdown) || atomic_load(&r->hdr.ready) != 1)
        snprintf(why, len, "shm %s: its match has ended", name);
    else if (r->hdr.resume_wait_ms == 0)
        snprintf(why, len, "shm %s: its sim ran with server::resume_match=false", name);
    else if (shm_sim_alive(&r->hdr))
        snprintf(why, len, "shm %s is in use by a running server (pid %d)", name,
                 (int)r->hdr.sim_pid);
    else if (!resume_served(r))
        snprintf(why, len, "shm %s: no gateway serves its match any more", name);
    else if (atomic_load(&r->state.commits) == 0 || r->state.body_version != SIM_STATE_VERSION
             || r->state.body_size != sizeof(sim_state_t))
        snprintf(why, len, "shm %s: no match state this program can take over (version %u, "
                 "%llu bytes; ours %u, %zu)", name, r->state.body_version,
                 (unsigned long long)r->state.body_size, SIM_STATE_VERSION,
                 sizeof(sim_state_t));
    else
        ok = 1;
    shm_region_detach(&h);
    return ok;
}

/* the crash loop: this many sims died on the match without getting anywhere */
static int resume_give_up(sim_t *s, uint32_t tries)
{
    shm_region_sh_t *r = s->shm.r;
    fprintf(stderr, "rcssserver: the sim died %u times in a row within %d steps of its "
            "start; giving up the match at cycle %d (server::resume_tries=%d)\n", tries - 1,
            SHM_RESUME_PROGRESS, s->world.time, conf_int(&s->conf, SP_resume_tries));
    s->runner.exit_code = SIM_EXIT_CRASH_LOOP;
    s->runner.why = "crash_loop";
    r->runner.exit_code = SIM_EXIT_CRASH_LOOP;
    snprintf(r->runner.exit_reason, sizeof r->runner.exit_reason, "crash_loop");
    return SIM_EXIT_CRASH_LOOP;
}

/* publish what the dead sim committed but did not show */
static void resume_publish(sim_t *s, const sim_state_t *d)
{
    shm_region_sh_t *r = s->shm.r;
    if (d->kind == SIM_COMMIT_STEP && atomic_load(&r->hdr.published) + 1 == d->pub) {
        shm_snapshot_sh_t *snap = &r->snap[(d->pub - 1) % SHM_SNAP_SLOTS];
        if (atomic_load(&snap->seq) & 1u) /* filled before the commit, not closed */
            sim_publish_done(r, snap);
    } else if (d->kind == SIM_COMMIT_LIVE && atomic_load(&r->hdr.live_pub) + 1 == d->pub) {
        sim_publish_live(&s->world, r);
    }
}

/* The clock goes on from the last step. Real time: on the dead sim's timer grid (the
 * last snapshot's due time and poll), so the next step comes when it was due and the
 * cycle keeps its length; if that moment has passed (the takeover took longer), at once,
 * the grid moving by the pause as after a stall. Synch mode: when the clients are done. */
static void resume_clock(sim_t *s)
{
    shm_region_sh_t *r = s->shm.r;
    int64_t now = shm_now_ns();
    uint64_t next = tgrid_next(&s->grid, s->poll, TGRID_STEP);
    uint64_t pub = atomic_load(&r->hdr.published);
    const shm_snapshot_sh_t *last = &r->snap[(pub - 1) % SHM_SNAP_SLOTS];
    int64_t grid0 = last->grid_ns - (int64_t)last->poll * POLL_NS;
    s->last_step_ns = now;
    s->runner.last_pub_ns = now;
    if (!conf_bool(&s->conf, SP_synch_mode) && pub > 0 && last->poll == s->poll
        && now < grid0 + (int64_t)next * POLL_NS) {
        s->grid0_ns = grid0;
        /* the polls already due passed with the dead sim (none of them a step): the wait
         * starts after them, so none counts as late */
        uint64_t passed = (uint64_t)((now - grid0) / POLL_NS);
        if (passed > s->poll && passed < next)
            s->poll = passed;
        return;
    }
    s->grid0_ns = now - (int64_t)next * POLL_NS;
    if (!conf_bool(&s->conf, SP_synch_mode) && next > 0)
        s->poll = next - 1;
    s->late_steps++;
}

static int resume_attach(sim_t *s)
{
    char err[SHM_ERR_LEN];
    shm_region_sh_t *r;
    if (shm_region_attach(&s->shm, s->resume.name, err, sizeof err) != 0) {
        fprintf(stderr, "rcssserver: cannot take the match over: %s\n", err);
        return 1;
    }
    r = s->shm.r;
    s->shm.owner = 1; /* ours now: removed at the end */
    if (atomic_load(&r->hdr.shutdown)) { /* the dead sim was ending the match: end it */
        int code = r->runner.exit_code >= 0 ? r->runner.exit_code : 0;
        log_warn("the sim died while the match was ending: the region is removed");
        shm_region_destroy(&s->shm);
        return code ? code : -1;
    }
    shm_gateway_conf(r, &s->conf);
    if (conf_bool(&s->conf, SP_verbose))
        log_level = LOG_DEBUG;
    int rc = sim_guard_take(&s->guard, &s->conf, s->resume.name, 0xfu, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "rcssserver: cannot take the match over: %s\n", err);
        return rc;
    }
    tgrid_param_t tp;
    tgrid_param_conf(&tp, &s->conf);
    tgrid_free(&s->grid);
    if (tgrid_init(&s->grid, &tp, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    s->step_ns = r->hdr.step_ns;
    return 0;
}

int sim_resume_serve(sim_t *s)
{
    char err[PATH_MAX + 64];
    int rc = resume_attach(s);
    if (rc != 0) /* -1: the match had ended, its region is gone */
        return rc;
    shm_region_sh_t *r = s->shm.r;
    uint32_t tries = atomic_fetch_add(&r->hdr.resume_tries, 1) + 1;
    const sim_state_t *d = state_body(r, atomic_load(&r->state.cur));
    int was_time = d->world.time;
    state_load(s, d);
    r->hdr.sim_start = shm_pid_start(getpid());
    r->hdr.sim_pid = (int32_t)getpid();
    uint32_t n = atomic_fetch_add(&r->hdr.sim_restarts, 1) + 1;
    s->resume.progress_left = SHM_RESUME_PROGRESS;
    int limit = conf_int(&s->conf, SP_resume_tries);
    if ((int)tries > (limit > 0 ? limit : 0))
        rc = resume_give_up(s, tries);
    log_warn("the sim died; this one (pid %d, restart %u) takes the match over at cycle %d",
             (int)getpid(), n, was_time);
    state_release(s);
    resume_publish(s, d);
    sim_after_commit(s); /* what the dead sim committed but did not print */
    if (rc == 0) {
        sim_super_tell(s, "R");
        if (sim_events_open(&s->runner.sink, conf_str(&s->conf, SP_event_stream), err,
                            sizeof err) < 0)
            log_warn("event stream: %s", err);
        for (int i = 0; i < 3; i++)
            s->runner.resv_fd[i] = -1;
        int pol = sim_runner_miss_policy(conf_str(&s->conf, SP_synch_miss_policy));
        s->runner.miss_policy = pol < 0 ? SIM_MISS_SKIP : pol; /* checked at the start */
        s->runner.start_ns = shm_now_ns();
        if (s->runner.exit_code < 0)
            s->runner.why = NULL;
        resume_clock(s);
    }
    if (sim_proc_init(&s->proc, r, &s->conf, s->shm.name, (int)r->hdr.n_gateways, err,
                      sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        rc = rc ? rc : 1;
    }
    s->proc.team[0] = (pid_t)d->team_pid[0];
    s->proc.team[1] = (pid_t)d->team_pid[1];
    sim_proc_adopt(&s->proc);
    if (rc != 0) {
        sim_proc_kill_teams(&s->proc);
        return rc;
    }
    json_t *o = json_pack("{s:i, s:i, s:i}", "restarts", (int)n, "pid", (int)getpid(),
                          "time", was_time);
    sim_events_emit(s, "sim_restart", o);
    sim_commit(s, SIM_COMMIT_QUIET);
    return 0;
}
