/* sim_proc.c -- the children: fork+exec of rcss-netgw (one per index), rcss-monitorgw
 * and, when a game, text or keepaway log is on, rcss-recorder; pids in the region's process slots,
 * reaping and restarting a dead one at once (at most 5 times a second; a child that
 * cannot run stops the server instead), the watchdog that kills a hung one, and
 * stopping them at exit. Nothing is spawned with server::spawn_gateways=false
 * (systemd starts them). Also the synch-mode wait for a recorder that fell behind. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <time.h>
#include "sim.h"
#include "log.h"
#include "logpath.h"
#include "proc.h"
#include "shm_gateway.h"

#define NETGW_BIN "rcss-netgw"
#define MGW_BIN   "rcss-monitorgw"
#define REC_BIN   "rcss-recorder"
#define REC_INDEX (-2)

static const char *gw_bin(const sim_gw_t *g)
{
    return g->index >= 0 ? NETGW_BIN : g->index == REC_INDEX ? REC_BIN : MGW_BIN;
}

/* The log directories exist and can be written (created with their parents if needed),
 * as the reference checks when it opens its logs: a server that cannot log does not start. */
static int check_log_dir(const conf_t *c, int on, param_id_t dir_id, const char *what,
                         char *err, size_t errlen)
{
    char dir[LOGPATH_MAX], why[LOGPATH_MAX + 128];
    if (!on)
        return 0;
    if (logpath_dir(conf_str(c, dir_id), dir, sizeof dir, why, sizeof why) < 0
        || logpath_mkdirs(dir, why, sizeof why) < 0) {
        snprintf(err, errlen, "cannot use the %s log directory: %s", what, why);
        return -1;
    }
    return 0;
}

int sim_proc_logs_on(const conf_t *c)
{
    return conf_bool(c, SP_game_logging) || conf_bool(c, SP_text_logging)
           || (conf_bool(c, SP_keepaway) && conf_bool(c, SP_keepaway_logging));
}

int sim_proc_init(sim_proc_t *p, shm_region_sh_t *r, const conf_t *c, const char *shm_name,
                  int n_netgw, char *err, size_t errlen)
{
    int logs = sim_proc_logs_on(c);
    memset(p, 0, sizeof *p);
    snprintf(p->shm_name, sizeof p->shm_name, "%s", shm_name);
    snprintf(p->instance, sizeof p->instance, "%016llx", (unsigned long long)r->hdr.instance_id);
    p->spawn = conf_bool(c, SP_spawn_gateways);
    p->keep = r->hdr.resume_wait_ms > 0;
    int tmo = conf_int(c, SP_gateway_timeout_ms);
    p->timeout_ns = tmo > 0 ? (int64_t)tmo * 1000000LL : 0;
    for (int i = 0; i < n_netgw; i++) {
        p->gw[i].slot = &r->netgw[i];
        p->gw[i].index = i;
    }
    p->gw[n_netgw].slot = &r->monitorgw;
    p->gw[n_netgw].index = -1;
    p->n = n_netgw + 1;
    p->mgw_wait = conf_bool(c, SP_synch_mode);
    if (logs) {
        p->gw[p->n].slot = &r->recorder;
        p->gw[p->n].index = REC_INDEX;
        p->n++;
        p->rec_wait = conf_bool(c, SP_synch_mode);
    }
    if (check_log_dir(c, conf_bool(c, SP_game_logging), SP_game_log_dir, "game", err, errlen) < 0
        || check_log_dir(c, conf_bool(c, SP_text_logging), SP_text_log_dir, "text", err,
                         errlen) < 0
        || check_log_dir(c, conf_bool(c, SP_keepaway) && conf_bool(c, SP_keepaway_logging),
                         SP_keepaway_log_dir, "keepaway", err, errlen) < 0)
        return -1;
    if (!p->spawn)
        return 0;
    static const char *const bins[3] = { NETGW_BIN, MGW_BIN, REC_BIN };
    return proc_find_bins(conf_str(c, SP_gateway_dir), bins, logs ? 3 : 2, p->dir,
                          sizeof p->dir, err, errlen);
}

/* fork+exec of a child (proc_spawn: its own process group, SIGTERM when the sim dies) */
static int spawn(sim_proc_t *p, sim_gw_t *g)
{
    char idx[16];
    snprintf(idx, sizeof idx, "%d", g->index);
    /* --instance: the child takes only this sim's region, never a newer one of the name */
    char *argv[8] = { (char *)gw_bin(g), "--shm", p->shm_name, "--instance", p->instance,
                      NULL };
    if (g->index >= 0) {
        argv[5] = "--index";
        argv[6] = idx;
        argv[7] = NULL;
    }
    pid_t pid = p->keep ? proc_spawn_keep(p->dir, argv) : proc_spawn(p->dir, argv);
    if (pid < 0) {
        log_err("fork() failed: %s", strerror(errno));
        return -1;
    }
    g->last_spawn_ns = shm_now_ns();
    g->pending = 0;
    g->adopted = 0;
    atomic_store(&g->slot->pid, (int32_t)pid);
    atomic_store(&g->slot->state, PROC_ST_RUNNING);
    return 0;
}

int sim_proc_start(sim_proc_t *p)
{
    if (!p->spawn)
        return 0;
    for (int i = 0; i < p->n; i++) {
        if (spawn(p, &p->gw[i]) < 0)
            return -1;
        log_debug("started %s (pid %d)", gw_bin(&p->gw[i]),
                  (int)atomic_load(&p->gw[i].slot->pid));
    }
    return 0;
}

static sim_gw_t *find_pid(sim_proc_t *p, pid_t pid)
{
    for (int k = 0; k < 2; k++) { /* a team command that ended */
        if (p->team[k] == pid)
            p->team[k] = 0;
    }
    for (int i = 0; i < p->n; i++) {
        if (atomic_load(&p->gw[i].slot->pid) == pid)
            return &p->gw[i];
    }
    return NULL;
}

static const char *gw_name(const sim_gw_t *g, char *buf, size_t len)
{
    if (g->index >= 0)
        snprintf(buf, len, "%s %d", gw_bin(g), g->index);
    else
        snprintf(buf, len, "%s", gw_bin(g));
    return buf;
}

/* A child that cannot run must not be restarted in a loop: one that says so (exit
 * status SHM_GW_EXIT_CONFLICT: its ports are taken, the region is not its sim's) stops
 * the server at once with that status; one that keeps dying right after its start
 * stops it after SIM_QUICK_DEATHS tries. A child the watchdog killed is just replaced. */
static void reaped(sim_proc_t *p, sim_gw_t *g, pid_t pid, int st)
{
    char why[48], name[48];
    proc_exit_text(st, why, sizeof why);
    gw_name(g, name, sizeof name);
    atomic_store(&g->slot->state, PROC_ST_EXITED);
    atomic_store(&g->slot->pid, 0);
    g->pending = 1;
    if (g->killed_pid == pid) {
        g->killed_pid = 0;
        g->quick_deaths = 0;
        return;
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) == SHM_GW_EXIT_CONFLICT) {
        if (!p->fatal)
            log_err("%s (pid %d) cannot run (see its message above): stopping the server",
                    name, (int)pid);
        p->fatal = SIM_EXIT_BIND;
        return;
    }
    log_warn("%s (pid %d) died: %s", name, (int)pid, why);
    if (shm_now_ns() - g->last_spawn_ns >= SIM_QUICK_DEATH_NS) {
        g->quick_deaths = 0;
    } else if (++g->quick_deaths >= SIM_QUICK_DEATHS && !p->fatal) {
        log_err("%s died within a second of its start %d times in a row: stopping the "
                "server", name, g->quick_deaths);
        p->fatal = 1;
    }
}

/* The watchdog: a child whose heartbeat is older than the timeout (a new one: older
 * than its start plus SIM_GW_GRACE_NS more) is hung, e.g. stopped; SIGKILL, and it is
 * reaped and replaced like a dead one (its clients are taken back on their ports). */
static void watch(sim_proc_t *p)
{
    if (p->timeout_ns <= 0)
        return;
    int64_t now = shm_now_ns();
    for (int i = 0; i < p->n; i++) {
        sim_gw_t *g = &p->gw[i];
        pid_t pid = atomic_load(&g->slot->pid);
        if (pid <= 0 || pid == g->killed_pid)
            continue;
        int64_t beat = atomic_load(&g->slot->heartbeat_ns);
        int64_t limit = p->timeout_ns;
        if (p->spawn && beat < g->last_spawn_ns) { /* not one beat from this process yet */
            beat = g->last_spawn_ns;
            limit += SIM_GW_GRACE_NS;
        }
        if (beat <= 0 || now - beat <= limit)
            continue;
        char name[48];
        log_warn("%s (pid %d) silent for %lld ms: killed, to be replaced",
                 gw_name(g, name, sizeof name), (int)pid, (long long)((now - beat) / 1000000));
        g->killed_pid = pid;
        kill(pid, SIGKILL);
    }
}

void sim_proc_tick(sim_proc_t *p)
{
    if (shm_now_ns() - p->last_tick_ns >= SIM_REAP_SLICE_NS)
        sim_proc_reap(p);
}

/* children of a dead sim: gone when the pid no longer runs (the supervisor reaps them;
 * how they ended is not known here) */
static void reap_adopted(sim_proc_t *p)
{
    for (int k = 0; k < 2; k++) { /* a dead sim's team command that ended */
        if (p->team[k] > 0 && proc_gone(p->team[k]))
            p->team[k] = 0;
    }
    for (int i = 0; i < p->n; i++) {
        sim_gw_t *g = &p->gw[i];
        pid_t pid = atomic_load(&g->slot->pid);
        if (!g->adopted || pid <= 0 || !proc_gone(pid))
            continue;
        char name[48];
        if (g->killed_pid != pid)
            log_warn("%s (pid %d) died", gw_name(g, name, sizeof name), (int)pid);
        g->killed_pid = 0;
        g->adopted = 0;
        g->pending = 1;
        atomic_store(&g->slot->state, PROC_ST_EXITED);
        atomic_store(&g->slot->pid, 0);
    }
}

void sim_proc_adopt(sim_proc_t *p)
{
    int64_t now = shm_now_ns();
    for (int i = 0; i < p->n; i++) {
        sim_gw_t *g = &p->gw[i];
        pid_t pid = atomic_load(&g->slot->pid);
        g->last_spawn_ns = now - SIM_RESTART_GAP_NS; /* a missing one is started at once */
        if (pid > 0 && !proc_gone(pid)) {
            g->adopted = 1;
            continue;
        }
        atomic_store(&g->slot->pid, 0);
        atomic_store(&g->slot->state, PROC_ST_EXITED);
        g->pending = p->spawn;
    }
}

void sim_proc_reap(sim_proc_t *p)
{
    int st;
    pid_t pid;
    p->last_tick_ns = shm_now_ns();
    while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
        sim_gw_t *g = find_pid(p, pid);
        if (g)
            reaped(p, g, pid, st);
    }
    reap_adopted(p);
    if (!sim_stop_flag)
        watch(p);
    if (!p->spawn || sim_stop_flag || p->fatal)
        return;
    int64_t now = shm_now_ns();
    for (int i = 0; i < p->n; i++) {
        sim_gw_t *g = &p->gw[i];
        if (!g->pending || now - g->last_spawn_ns < SIM_RESTART_GAP_NS)
            continue;
        if (spawn(p, g) < 0)
            continue;
        uint32_t n = atomic_fetch_add(&g->slot->restarts, 1) + 1;
        if (g->index >= 0)
            log_info("restarted %s %d (pid %d, restart %u)", gw_bin(g), g->index,
                     (int)atomic_load(&g->slot->pid), n);
        else
            log_info("restarted %s (pid %d, restart %u)", gw_bin(g),
                     (int)atomic_load(&g->slot->pid), n);
    }
}

/* the team commands are stopped before (sim_proc_kill_teams) */
void sim_proc_stop(sim_proc_t *p)
{
    proc_slot_t slots[SHM_MAX_GATEWAYS + 2];
    if (!p->spawn)
        return;
    for (int i = 0; i < p->n; i++)
        slots[i] = (proc_slot_t){ &p->gw[i].slot->pid, &p->gw[i].slot->state };
    if (proc_term_all(slots, p->n, PROC_ST_EXITED, SIM_STOP_WAIT_MS)) {
        log_warn("gateways still running after %d ms: SIGKILL", SIM_STOP_WAIT_MS);
        proc_kill_all(slots, p->n, PROC_ST_EXITED);
    }
}

/* ---- team start commands (server::team_l_start, team_r_start) ------------------------- */
void sim_proc_start_team(sim_proc_t *p, int k, const char *cmd)
{
    printf("Starting \"/bin/sh -c %s\"\n", cmd);
    pid_t pid = proc_fork();
    if (pid < 0) {
        log_err("fork() failed: %s", strerror(errno));
        return;
    }
    if (pid == 0) {
        proc_child_defaults();
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        fprintf(stderr, "cannot execute \"/bin/sh -c %s\": %s\n", cmd, strerror(errno));
        _exit(127);
    }
    p->team[k] = pid;
}

void sim_proc_kill_teams(sim_proc_t *p)
{
    for (int k = 0; k < 2; k++) {
        pid_t pid = p->team[k];
        if (pid <= 0)
            continue;
        kill(pid, SIGINT);
        printf("Killing %d\n", (int)pid);
        fflush(stdout);
        int st;
        for (int ms = 0; ms < 1000 && waitpid(pid, &st, WNOHANG) == 0 && !proc_gone(pid);
             ms += 10)
            usleep(10000);
        p->team[k] = 0;
    }
}

/* 1 if the next turn would overwrite a snapshot (the slot of publish n = published + 1
 * held n - K) or events that are not on disk yet, keeping a small margin. What is on disk
 * counts, not what the recorder has read: a recorder killed now is replaced by one that
 * starts from its predecessor's last flush, and must still find the rest in the rings
 * (the recorder flushes every SHM_SNAP_SLOTS / 2 snapshots, so this rarely waits). Under
 * systemd nobody restarts a missing recorder for us: a missing one is not waited for. */
static int recorder_behind(const sim_proc_t *p, const shm_region_sh_t *r, int resume)
{
    const shm_rec_state_sh_t *st = &r->rec.state[atomic_load(&r->rec.cur) & 1u];
    uint64_t next = atomic_load(&r->hdr.published) + 1;
    uint64_t done = st->valid == 1 && st->snap_next > 0 ? st->snap_next - 1 : 0;
    uint64_t ev = st->valid == 1 ? st->ev_next : 0;
    (void)resume;
    if (st->valid > 1) /* the logs are finished */
        return 0;
    if (!p->spawn && atomic_load(&r->recorder.pid) <= 0)
        return 0;
    if (next > done + SHM_SNAP_SLOTS - SIM_REC_MARGIN)
        return 1;
    return shm_event_head(r) - ev > SHM_EVENT_SLOTS / 2;
}

/* monitorgw, with monitors to serve, is more than SIM_MGW_LAG snapshots behind the next
 * publish (to resume: SIM_MGW_LAG / 2, so a few turns then run free) */
static int monitorgw_behind(const sim_proc_t *p, const shm_region_sh_t *r, int resume)
{
    (void)p;
    if (atomic_load(&r->montab.count) == 0 || atomic_load(&r->monitorgw.pid) <= 0)
        return 0;
    uint64_t next = atomic_load(&r->hdr.published) + 1;
    uint64_t lag = resume ? SIM_MGW_LAG / 2 : SIM_MGW_LAG;
    return next > atomic_load(&r->monitorgw.last_step) + lag;
}

typedef int (*sim_behind_fn)(const sim_proc_t *p, const shm_region_sh_t *r, int resume);

/* Before a turn: wait while behind(p, r, 1) from the moment behind(p, r, 0) holds, at
 * most SIM_REC_WAIT_MS (reaping and restarting children meanwhile); after a wait that
 * timed out, none until the reader has caught up (*gave_up). */
static void wait_reader(sim_proc_t *p, const shm_region_sh_t *r, sim_behind_fn behind,
                        int *gave_up, const char *who, const _Atomic uint64_t *last_step,
                        long poll_ns)
{
    if (!behind(p, r, 0)) {
        *gave_up = 0;
        return;
    }
    if (*gave_up)
        return;
    int64_t start = shm_now_ns();
    while (behind(p, r, 1)) {
        if (sim_stop_flag)
            return;
        if (shm_now_ns() - start > SIM_REC_WAIT_MS * 1000000LL) {
            log_warn("%s is behind (last step %llu, published %llu): "
                     "not waiting for it any longer", who,
                     (unsigned long long)atomic_load(last_step),
                     (unsigned long long)atomic_load(&r->hdr.published));
            *gave_up = 1;
            return;
        }
        sim_proc_reap(p);
        struct timespec ts = { 0, poll_ns };
        nanosleep(&ts, NULL);
    }
}

void sim_proc_wait_recorder(sim_proc_t *p, const shm_region_sh_t *r)
{
    if (p->rec_wait)
        wait_reader(p, r, recorder_behind, &p->rec_gave_up, "the recorder",
                    &r->recorder.last_step, 500000L);
}

void sim_proc_wait_monitors(sim_proc_t *p, const shm_region_sh_t *r)
{
    if (p->mgw_wait)
        wait_reader(p, r, monitorgw_behind, &p->mgw_gave_up, "monitorgw",
                    &r->monitorgw.last_step, 100000L);
}
