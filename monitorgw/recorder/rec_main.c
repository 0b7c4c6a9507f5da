/* rec_main.c -- rcss-recorder --shm NAME: writes the game log, the text log and the
 * keepaway log of the sim's region. Started (and restarted) by the sim when
 * server::game_logging or server::text_logging is on, or keepaway with
 * server::keepaway_logging, or by systemd. A plain loop, no sockets: wait for the cycle
 * semaphore (100 ms at most), turn every published snapshot and event into log items in
 * memory, put them on disk once a second, record in the region where the files end.
 * A restarted recorder goes on from there; a clean stop of the sim (shutdown flag) writes
 * the result and renames the files; otherwise (the sim killed, SIGTERM to the recorder
 * alone) the files are flushed and keep their running names. The sim never waits for it,
 * except in synch mode before overwriting what it has not read yet (sim_proc.c). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "log.h"
#include "playmode.h"
#include "proc.h"
#include "rec.h"
#include "shm_gateway.h"

#define REC_STATE_FINISHED 2   /* shm_rec_state_sh_t.valid: files renamed, nothing to do */
#define REC_EV_KEEP 64         /* after losing events, restart this far from the head */

typedef struct rec_ctx {
    shm_handle_t        shm;
    shm_region_sh_t    *r;
    shm_proc_sh_t      *self;
    conf_t              conf;
    int                 game_on, text_on, kwy_on;
    char                game_dir[LOGPATH_MAX], text_dir[LOGPATH_MAX], kwy_dir[LOGPATH_MAX];
    rec_file_t          game, text;
    rec_kwy_t           kwy;         /* written through, not part of the saved state */
    shm_rec_state_sh_t  st;          /* positions and writer state of what is buffered */
    rec_game_t          gw;
    shm_snapshot_sh_t   snap;        /* being handled */
    shm_snapshot_sh_t   last;        /* last handled: the final names */
    int                 have_last;
    shm_text_t          part;        /* an event text in parts */
    int64_t             next_flush_ns;
    uint64_t            flushed_snap, flushed_ev; /* positions at the last flush */
    uint64_t            lost_snaps, lost_events; /* not yet noted in the game log */
} rec_ctx_t;

static volatile sig_atomic_t stop_flag;

/* ---- state in the region ------------------------------------------------------------ */
static void save_state(rec_ctx_t *c)
{
    shm_recorder_sh_t *rec = &c->r->rec;
    uint32_t next = 1u - (atomic_load(&rec->cur) & 1u);
    c->st.game_bytes = c->game.bytes;
    c->st.text_bytes = c->text.bytes;
    rec->state[next] = c->st;
    atomic_store_explicit(&rec->cur, next, memory_order_release);
}

static void flush_all(rec_ctx_t *c)
{
    char err[LOGPATH_MAX + 128];
    if (c->game_on && rec_file_flush(&c->game, err, sizeof err) < 0)
        log_err("game log: %s; a second of it is lost", err);
    if (c->text_on && rec_file_flush(&c->text, err, sizeof err) < 0)
        log_err("text log: %s; a second of it is lost", err);
    if (c->game.buf.oom || c->text.buf.oom) {
        log_err("out of memory: log items were dropped");
        c->game.buf.oom = c->text.buf.oom = 0;
    }
    save_state(c);
    c->flushed_snap = c->st.snap_next;
    c->flushed_ev = c->st.ev_next;
    c->next_flush_ns = shm_now_ns() + REC_FLUSH_MS * 1000000LL;
}

/* flush once a second, and sooner when much is buffered or the rings' slack is half used */
static int flush_due(const rec_ctx_t *c)
{
    return c->game.buf.len + c->text.buf.len >= REC_FLUSH_BYTES
           || c->st.snap_next - c->flushed_snap >= REC_FLUSH_SNAPS
           || c->st.ev_next - c->flushed_ev >= REC_FLUSH_EVENTS
           || shm_now_ns() >= c->next_flush_ns;
}

/* ---- events ---------------------------------------------------------------------------- */
static void dispatch(rec_ctx_t *c, const shm_event_sh_t *ev, const shm_snapshot_sh_t *snap)
{
    if (c->text_on)
        rec_text_line(&c->text.buf, ev, c->part.buf, c->part.len, snap->team);
    if (c->game_on)
        rec_game_event(&c->gw, ev, c->part.buf, c->part.len, snap);
    if (c->kwy_on && ev->kind == SHM_EV_KEEPAWAY) {
        char err[LOGPATH_MAX + 128];
        if (rec_kwy_event(&c->kwy, ev, c->part.buf, c->part.len, &c->conf, err, sizeof err) < 0)
            log_err("keepaway log: %s; an episode is lost", err);
    }
}

/* every event before head, each attributed to snap (the snapshot published after it) */
static void handle_events(rec_ctx_t *c, uint64_t head, const shm_snapshot_sh_t *snap)
{
    shm_event_sh_t ev;
    while (c->st.ev_next < head) {
        int rc = shm_event_read(c->r, c->st.ev_next, &ev);
        if (rc > 0)
            break;
        if (rc < 0) { /* overwritten: the recorder was more than a ring behind */
            uint64_t h = shm_event_head(c->r);
            uint64_t first = h > SHM_EVENT_SLOTS - REC_EV_KEEP ? h - (SHM_EVENT_SLOTS - REC_EV_KEEP) : 0;
            if (first <= c->st.ev_next)
                first = c->st.ev_next + 1;
            c->lost_events += first - c->st.ev_next;
            atomic_fetch_add(&c->r->rec.lost_events, first - c->st.ev_next);
            c->st.ev_next = first;
            c->part.complete = 1; /* drop a text whose parts were lost */
            continue;
        }
        c->st.ev_next++;
        atomic_store(&c->r->rec.read_ev, c->st.ev_next);
        size_t len = ev.len < 0 ? 0 : ev.len > SHM_EVENT_TEXT_LEN ? SHM_EVENT_TEXT_LEN
                                                                   : (size_t)ev.len;
        len = strnlen(ev.text, len);
        if (ev.kind == SHM_EV_CONT) {
            shm_text_feed(&c->part, 1, ev.text, len);
            continue;
        }
        shm_text_feed(&c->part, 0, ev.text, len);
        dispatch(c, &ev, snap);
    }
}

/* ---- snapshots ------------------------------------------------------------------------- */
static void note_loss(rec_ctx_t *c, int time)
{
    if (c->lost_snaps == 0 && c->lost_events == 0)
        return;
    log_warn("fell behind the sim: %llu snapshots and %llu events lost",
             (unsigned long long)c->lost_snaps, (unsigned long long)c->lost_events);
    if (c->game_on)
        rec_game_lost(&c->gw, time, c->lost_snaps, c->lost_events);
    c->lost_snaps = c->lost_events = 0;
}

static void skip_lost(rec_ctx_t *c, uint64_t pub)
{
    uint64_t keep = SHM_SNAP_SLOTS - 2;   /* the oldest ones may be overwritten any moment */
    uint64_t first = pub > keep ? pub - keep + 1 : 1;
    if (first <= c->st.snap_next)
        first = c->st.snap_next + 1;
    c->lost_snaps += first - c->st.snap_next;
    atomic_fetch_add(&c->r->rec.lost_snaps, first - c->st.snap_next);
    c->st.snap_next = first;
}

static int rec_new_episode(rec_ctx_t *c);

static void follow(rec_ctx_t *c)
{
    uint64_t pub;
    while (c->st.snap_next <= (pub = atomic_load_explicit(&c->r->hdr.published,
                                                            memory_order_acquire))) {
        if (shm_snap_read(c->r, c->st.snap_next, &c->snap) < 0) {
            skip_lost(c, pub);
            continue;
        }
        if (c->snap.episode != c->st.episode && rec_new_episode(c) < 0) {
            stop_flag = 1; /* cannot open the new files: the sim restarts us */
            return;
        }
        if (c->text_on && c->have_last && conf_bool(&c->conf, SP_log_times))
            rec_text_times(&c->text.buf, &c->last, &c->snap);
        handle_events(c, c->snap.event_head, &c->snap);
        note_loss(c, c->snap.time);
        if (c->game_on)
            rec_game_snapshot(&c->gw, &c->snap);
        c->last = c->snap;
        c->have_last = 1;
        c->st.snap_next++;
        atomic_store(&c->self->last_step, c->snap.step);
        /* busy catching up is not hung: the sim's watchdog reads this */
        atomic_store(&c->self->heartbeat_ns, shm_now_ns());
        if (flush_due(c))
            flush_all(c);
    }
}

/* the online coaches' names, for the final file names */
static void watch_coaches(rec_ctx_t *c)
{
    for (int k = 0; k < 2; k++) {
        const shm_client_sh_t *e = &c->r->client[k == 0 ? SHM_COACH_LEFT : SHM_COACH_RIGHT];
        if (atomic_load(&e->state) != CLIENT_ST_ACTIVE || e->kind != CLIENT_KIND_OLCOACH
            || e->coach_name[0] == '\0')
            continue;
        memcpy(c->st.coach[k], e->coach_name, SHM_TEAM_NAME_LEN);
        c->st.coach[k][SHM_TEAM_NAME_LEN - 1] = '\0';
    }
}

/* ---- start ----------------------------------------------------------------------------- */
static int open_log(rec_ctx_t *c, rec_file_t *f, const char *dir, int fixed, param_id_t name_id,
                    const char *suffix, int level, int64_t resume)
{
    char path[LOGPATH_MAX], err[LOGPATH_MAX + 128], name[CONF_STR_LEN + 16];
    rec_runner_fixed(conf_str(&c->conf, name_id), c->st.episode, name, sizeof name);
    if (logpath_mkdirs(dir, err, sizeof err) < 0
        || logpath_running(dir, fixed, name, suffix, level > 0, path, sizeof path) < 0
        || rec_file_open(f, path, level, resume, err, sizeof err) < 0) {
        log_err("%s log: %s", suffix + 1, err);
        return -1;
    }
    return 0;
}

/* the keepaway log: its own directory and names (keepaway_log_*), never compressed */
static int open_kwy(rec_ctx_t *c, int resume)
{
    char path[LOGPATH_MAX], err[LOGPATH_MAX + 128];
    if (rec_kwy_name(&c->conf, c->kwy_dir, c->st.episode, 0, 0, NULL, path, sizeof path) < 0) {
        log_err("kwy log: file name too long in %s", c->kwy_dir);
        return -1;
    }
    if (logpath_mkdirs(c->kwy_dir, err, sizeof err) < 0
        || rec_kwy_open(&c->kwy, path, resume, err, sizeof err) < 0) {
        log_err("kwy log: %s", err);
        return -1;
    }
    return 0;
}

static int choose_logs(rec_ctx_t *c)
{
    char err[LOGPATH_MAX + 64];
    const conf_t *cf = &c->conf;
    c->game_on = conf_bool(cf, SP_game_logging);
    c->text_on = conf_bool(cf, SP_text_logging);
    c->kwy_on = conf_bool(cf, SP_keepaway) && conf_bool(cf, SP_keepaway_logging);
    if (c->game_on && !(c->gw.fmt = rec_fmt_find(conf_int(cf, SP_game_log_version)))) {
        log_err("server::game_log_version %d is not written by this server (%s): no game log",
                conf_int(cf, SP_game_log_version), rec_fmt_versions());
        c->game_on = 0;
    }
    if ((c->game_on && logpath_dir(conf_str(cf, SP_game_log_dir), c->game_dir,
                                   sizeof c->game_dir, err, sizeof err) < 0)
        || (c->text_on && logpath_dir(conf_str(cf, SP_text_log_dir), c->text_dir,
                                      sizeof c->text_dir, err, sizeof err) < 0)
        || (c->kwy_on && logpath_dir(conf_str(cf, SP_keepaway_log_dir), c->kwy_dir,
                                     sizeof c->kwy_dir, err, sizeof err) < 0)) {
        log_err("%s", err);
        return -1;
    }
    return 0;
}

/* the state of new files: at the start, or for the next episode after a (reset) (the
 * previous files finished: go on from where they ended) */
static void rec_fresh_state(rec_ctx_t *c, const shm_rec_state_sh_t *saved)
{
    uint64_t snap_next = 1, ev_next = 0;
    if (saved->valid == REC_STATE_FINISHED) {
        snap_next = saved->snap_next;
        ev_next = saved->ev_next;
    }
    shm_snapshot_sh_t s;
    uint32_t episode = c->r->runner.episode;
    if (shm_snap_read(c->r, snap_next, &s) == 0)
        episode = s.episode;
    memset(&c->st, 0, sizeof c->st);
    c->st.snap_next = snap_next;
    c->st.ev_next = ev_next;
    c->st.episode = episode;
}

static int rec_open(rec_ctx_t *c)
{
    shm_recorder_sh_t *rec = &c->r->rec;
    const shm_rec_state_sh_t *saved = &rec->state[atomic_load(&rec->cur) & 1u];
    int resume = saved->valid == 1;
    const conf_t *cf = &c->conf;
    if (resume) {
        c->st = *saved;
        c->flushed_snap = c->st.snap_next;
        c->flushed_ev = c->st.ev_next;
        c->next_flush_ns = shm_now_ns() + REC_FLUSH_MS * 1000000LL;
        log_info("resuming the logs at snapshot %llu", (unsigned long long)c->st.snap_next);
    } else {
        rec_fresh_state(c, saved);
    }
    c->gw.st = &c->st;
    c->gw.record_messages = conf_bool(cf, SP_record_messages);
    if (c->game_on && open_log(c, &c->game, c->game_dir, conf_bool(cf, SP_game_log_fixed),
                               SP_game_log_fixed_name, ".rcg",
                               conf_int(cf, SP_game_log_compression),
                               resume ? (int64_t)c->st.game_bytes : -1) < 0)
        return -1;
    c->gw.out = &c->game.buf;
    if (c->text_on && open_log(c, &c->text, c->text_dir, conf_bool(cf, SP_text_log_fixed),
                               SP_text_log_fixed_name, ".rcl",
                               conf_int(cf, SP_text_log_compression),
                               resume ? (int64_t)c->st.text_bytes : -1) < 0)
        return -1;
    if (c->kwy_on && open_kwy(c, resume) < 0)
        return -1;
    if (!resume) {
        rec_head_t h = { cf, &c->r->ptypes, rec->start_time };
        if (c->game_on)
            rec_game_start(&c->gw, &h);
        c->st.valid = 1;
        flush_all(c);
    }
    return 0;
}

/* 0, -1, or SHM_CONFLICT (the region of another server) */
static int rec_start(rec_ctx_t *c, const char *name, uint64_t instance)
{
    char err[SHM_ERR_LEN];
    c->game.fd = c->text.fd = c->kwy.file.fd = -1;
    int rc = shm_gateway_attach(&c->shm, name, REC_ATTACH_WAIT_MS, instance, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "rcss-recorder: %s\n", err);
        return rc;
    }
    c->r = c->shm.r;
    c->self = &c->r->recorder;
    shm_gateway_conf(c->r, &c->conf);
    if (conf_bool(&c->conf, SP_verbose))
        log_level = LOG_DEBUG;
    atomic_store(&c->self->pid, (int32_t)getpid());
    atomic_store(&c->self->state, PROC_ST_RUNNING);
    atomic_store(&c->self->heartbeat_ns, shm_now_ns());
    if (c->r->rec.start_time == 0)
        c->r->rec.start_time = (int64_t)time(NULL);
    if (choose_logs(c) < 0)
        return -1;
    return 0;
}

/* ---- end ------------------------------------------------------------------------------- */
static void rename_log(rec_ctx_t *c, rec_file_t *f, const char *dir, int dated_id,
                       const char *teaminfo, const char *suffix)
{
    char path[LOGPATH_MAX], err[2 * LOGPATH_MAX + 64], fmt[CONF_STR_LEN + 16];
    int dated = rec_runner_date(conf_str(&c->conf, SP_log_date_format),
                                conf_bool(&c->conf, dated_id), c->st.episode, fmt, sizeof fmt);
    if (logpath_final(dir, dated, fmt, (time_t)c->r->rec.start_time, teaminfo, suffix,
                      f->level > 0, path, sizeof path) < 0) {
        log_err("%s log: final name too long; left as %s", suffix + 1, f->path);
        return;
    }
    if (rec_file_rename(f, path, err, sizeof err) < 0)
        log_err("%s", err);
    else
        log_info("%s", path);
}

static void rename_kwy(rec_ctx_t *c, const char *teaminfo)
{
    char path[LOGPATH_MAX], err[2 * LOGPATH_MAX + 64];
    if (rec_kwy_name(&c->conf, c->kwy_dir, c->st.episode, 1, (time_t)c->r->rec.start_time,
                     teaminfo, path, sizeof path) < 0)
        log_err("kwy log: final name too long; left as %s", c->kwy.file.path);
    else if (rec_file_rename(&c->kwy.file, path, err, sizeof err) < 0)
        log_err("%s", err);
    else
        log_info("%s", path);
}

static void rec_finish(rec_ctx_t *c)
{
    char teaminfo[256], err[LOGPATH_MAX + 128];
    if (!c->have_last && shm_snap_read_latest(c->r, &c->last) == 0)
        memset(&c->last, 0, sizeof c->last);
    if (rec_teaminfo(&c->last, (const char (*)[SHM_TEAM_NAME_LEN])c->st.coach, teaminfo,
                     sizeof teaminfo) < 0)
        snprintf(teaminfo, sizeof teaminfo, "null-vs-null");
    if (c->game_on)
        rec_game_finish(&c->gw, &c->last, c->r->rec.start_time, teaminfo);
    c->st.valid = REC_STATE_FINISHED;
    flush_all(c);
    if (c->text_on && rec_file_close(&c->text, err, sizeof err) == 0
        && !conf_bool(&c->conf, SP_text_log_fixed))
        rename_log(c, &c->text, c->text_dir, SP_text_log_dated, teaminfo, ".rcl");
    if (c->game_on && rec_file_close(&c->game, err, sizeof err) == 0
        && !conf_bool(&c->conf, SP_game_log_fixed))
        rename_log(c, &c->game, c->game_dir, SP_game_log_dated, teaminfo, ".rcg");
    if (c->kwy_on && rec_file_close(&c->kwy.file, err, sizeof err) == 0
        && !conf_bool(&c->conf, SP_keepaway_log_fixed))
        rename_kwy(c, teaminfo);
    rec_runner_names(c->r, c->st.episode, c->game_on ? c->game.path : "",
                     c->text_on ? c->text.path : "");
}

/* a (reset) began a new episode with snapshot c->snap: the events before it go into the
 * episode's logs, which are finished and named; new files for the new one */
static int rec_new_episode(rec_ctx_t *c)
{
    handle_events(c, c->snap.event_head, c->have_last ? &c->last : &c->snap);
    rec_finish(c);
    c->r->rec.start_time = (int64_t)time(NULL);
    c->have_last = 0;
    return rec_open(c);
}

/* after finishing on the sim's request: stay (so the sim does not start another
 * recorder) until it shuts down */
static void rec_idle(rec_ctx_t *c)
{
    while (!stop_flag && !atomic_load(&c->r->hdr.shutdown) && shm_gateway_sim_alive(c->r)) {
        shm_sem_timedwait(&c->self->cycle_sem, 100);
        atomic_store(&c->self->heartbeat_ns, shm_now_ns());
    }
}

static void rec_run(rec_ctx_t *c)
{
    while (!stop_flag && !rec_runner_finish_asked(c->r)) {
        shm_sem_timedwait(&c->self->cycle_sem, 100);
        follow(c);
        watch_coaches(c);
        atomic_store(&c->self->heartbeat_ns, shm_now_ns());
        if (flush_due(c))
            flush_all(c);
        if (!shm_gateway_sim_alive(c->r))
            break;
    }
    follow(c); /* what was published before the stop */
    handle_events(c, shm_event_head(c->r), c->have_last ? &c->last : &c->snap);
    if (atomic_load(&c->r->hdr.shutdown) || rec_runner_finish_asked(c->r)) {
        rec_finish(c);
        rec_idle(c);
        return;
    }
    flush_all(c);
    char err[LOGPATH_MAX + 128];
    rec_file_close(&c->game, err, sizeof err);
    rec_file_close(&c->text, err, sizeof err);
    rec_file_close(&c->kwy.file, err, sizeof err);
    log_info("logs flushed; they keep their running names");
}

int main(int argc, char **argv)
{
    static rec_ctx_t c; /* large: snapshots, text assembly */
    shm_gwargs_t a;
    if (shm_gateway_args(argc, argv, "RCSS_SHM", SHM_ARG_INSTANCE, &a) < 0) {
        fprintf(stderr, "usage: rcss-recorder --shm NAME [--instance ID]   (NAME also "
                "from $RCSS_SHM)\n");
        return SHM_GW_EXIT_CONFLICT;
    }
    log_init("rcss-recorder", LOG_INFO);
    proc_stop_signals(&stop_flag);
    int rc = rec_start(&c, a.name, a.instance);
    int conflict = rc == SHM_CONFLICT;
    if (rc == 0 && !c.game_on && !c.text_on && !c.kwy_on)
        log_info("no log is on: nothing to record");
    else if (rc == 0 && c.r->rec.state[atomic_load(&c.r->rec.cur) & 1u].valid
                            == REC_STATE_FINISHED
             && (rec_runner_finish_asked(c.r) || atomic_load(&c.r->hdr.shutdown)))
        log_info("the logs of this match are complete");
    else if (rc == 0 && rec_open(&c) == 0)
        rec_run(&c);
    else
        rc = 1;
    if (c.self)
        atomic_store(&c.self->state, PROC_ST_EXITED);
    if (c.shm.r && shm_gateway_leave(&c.shm))
        log_info("the sim was killed: removed its region");
    return conflict ? SHM_GW_EXIT_CONFLICT : rc;
}
