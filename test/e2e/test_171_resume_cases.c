/* test_171_resume_cases.c -- a sim that dies in the middle of a match is replaced and the
 * match goes on (sim/sim_resume.c, sim/sim_super.c; docs/protocol/config.md
 * server::resume_match, resume_tries, resume_wait_ms), seen from the outside:
 *   - real_time_with_viewers_and_logs: a real-time match with players, two UDP monitors,
 *     a browser viewer, both logs, the event stream and /status; the sim is killed three
 *     times (SIGKILL, SIGSEGV, SIGABRT) and every client goes on within moments, the
 *     match time never repeats or skips a cycle for anyone, and the logs, result.json,
 *     the event stream and /status tell of the three restarts;
 *   - crash_loop_gives_up: sims that keep dying before they get anywhere make the match
 *     end by itself after server::resume_tries of them (status 4, one line, nothing left
 *     behind);
 *   - systemd_layout_new_sim_takes_over: under systemd (no supervisor) a new rcssserver
 *     started with the same arguments takes the match over and the gateways, which
 *     waited for it, keep serving;
 *   - systemd_unit_restart_policy: conf/systemd/rcssserver-sim.service restarts a dead
 *     sim fast enough for the gateways' wait and does not restart a given-up match. */
#include <criterion/criterion.h>
#include <errno.h>
#include <ftw.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_http.h"
#include "e2e_logs.h"
#include "e2e_players.h"
#include "e2e_runner.h"
#include "e2e_safety.h"
#include "e2e_trainer.h"
#include "rcg.h"
#include "shm.h"

#define NPL   2          /* players */
#define NMON  2          /* UDP monitors */
#define MAXN  4096       /* times kept per client */
#ifndef NKILL
#define NKILL 3          /* deaths of the sim in real_time_with_viewers_and_logs (-DNKILL=20
                            for a longer run by hand) */
#endif

/* ---- small helpers -------------------------------------------------------------------- */

/* a SIGSEGV / SIGABRT sent to the sim must not leave core files around */
static void no_core_files(void)
{
    struct rlimit rl = { 0, 0 };
    setrlimit(RLIMIT_CORE, &rl);
}

typedef struct region {
    pid_t    sim, super;
    uint32_t restarts, tries;
    uint64_t published;
    pid_t    netgw, monitorgw, recorder;
} region_t;

/* what the region's header says now; 0, or -1 if there is no region */
static int region_read(const char *name, region_t *g)
{
    shm_handle_t h;
    char err[SHM_ERR_LEN];
    memset(g, 0, sizeof *g);
    if (shm_region_attach(&h, name, err, sizeof err) != 0)
        return -1;
    const shm_region_sh_t *r = h.r;
    g->sim = (pid_t)r->hdr.sim_pid;
    g->super = (pid_t)r->hdr.super_pid;
    g->restarts = atomic_load(&r->hdr.sim_restarts);
    g->tries = atomic_load(&r->hdr.resume_tries);
    g->published = atomic_load(&r->hdr.published);
    g->netgw = atomic_load(&r->netgw[0].pid);
    g->monitorgw = atomic_load(&r->monitorgw.pid);
    g->recorder = atomic_load(&r->recorder.pid);
    shm_region_detach(&h);
    return 0;
}

/* wait up to ms for the region to name a sim other than old; the region then */
static int wait_new_sim(const char *name, pid_t old, int ms, region_t *g)
{
    double end = e2e_now_ms() + ms;
    do {
        if (region_read(name, g) == 0 && g->sim > 0 && g->sim != old)
            return 0;
        usleep(1000);
    } while (e2e_now_ms() < end);
    return -1;
}

/* field 4 of /proc/PID/stat (0 if the process is gone) */
static pid_t parent_of(pid_t pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')');
    int ppid = 0;
    char st;
    if (!p || sscanf(p + 1, " %c %d", &st, &ppid) != 2)
        return 0;
    return (pid_t)ppid;
}

/* 1 while pid runs (not gone, not a zombie waiting for a parent to reap it) */
static int running(pid_t pid)
{
    char path[64], buf[512];
    if (pid <= 0)
        return 0;
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')');
    return p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
}

static int gone_within(pid_t pid, int ms)
{
    double end = e2e_now_ms() + ms;
    while (running(pid)) {
        if (e2e_now_ms() > end)
            return 0;
        usleep(10000);
    }
    return 1;
}

static int shm_gone_within(const char *name, int ms)
{
    double end = e2e_now_ms() + ms;
    while (es_shm_exists(name)) {
        if (e2e_now_ms() > end)
            return 0;
        usleep(10000);
    }
    return 1;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void rm_tree(const char *dir)
{
    if (dir[0])
        nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* the lines of text that contain what (at most len bytes of them, for a message) */
static const char *lines_with(const char *text, const char *what, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (const char *l = text; l && *l && used + 1 < len;) {
        const char *nl = strchr(l, '\n');
        size_t n = nl ? (size_t)(nl - l) : strlen(l);
        if (memmem(l, n, what, strlen(what))) {
            int w = snprintf(out + used, len - used, "%.*s\n", (int)n, l);
            used += w > 0 ? (size_t)w : 0;
        }
        l = nl ? nl + 1 : NULL;
    }
    if (used >= len)
        out[len - 1] = '\0';
    return out;
}

static int count_lines_with(const char *text, const char *what)
{
    int n = 0;
    for (const char *l = text; l && *l;) {
        const char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l) : strlen(l);
        n += memmem(l, len, what, strlen(what)) != NULL;
        l = nl ? nl + 1 : NULL;
    }
    return n;
}

/* SIGTERM to the server and wait (5 s); its exit status, -1 if it had to be killed or
 * died of a signal. Unlike e2e_server_stop the directory (its log) is kept. */
static int stop_keep(e2e_server_t *s)
{
    int st = 0;
    if (s->pid <= 0)
        return -1;
    kill(s->pid, SIGTERM);
    double end = e2e_now_ms() + 5000;
    while (waitpid(s->pid, &st, WNOHANG) == 0) {
        if (e2e_now_ms() > end) {
            kill(s->pid, SIGKILL);
            waitpid(s->pid, &st, 0);
            s->pid = -1;
            return -1;
        }
        usleep(10000);
    }
    s->pid = -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* ---- the clients of a real-time match, read together ----------------------------------- */

typedef struct seen {
    int    n;
    int    t[MAXN];      /* the match time of each message */
    double ms[MAXN];     /* when it was read */
} seen_t;

static void seen_add(seen_t *s, int t)
{
    if (s->n < MAXN) {
        s->t[s->n] = t;
        s->ms[s->n] = e2e_now_ms();
        s->n++;
    }
}

/* the first message read after ms whose time is above t: its index, -1 if none */
static int seen_first(const seen_t *s, double ms, int t)
{
    for (int i = 0; i < s->n; i++) {
        if (s->ms[i] > ms && s->t[i] > t)
            return i;
    }
    return -1;
}

/* From the first time >= from on, every message one cycle after the one before:
 * 1 if so; else 0 with the first place where not in why. */
static int seen_consecutive(const seen_t *s, int from, char *why, size_t len)
{
    int prev = -1;
    for (int i = 0; i < s->n; i++) {
        if (prev < 0) {
            if (s->t[i] >= from)
                prev = s->t[i];
            continue;
        }
        if (s->t[i] != prev + 1) {
            snprintf(why, len, "time %d came after %d (message %d of %d)", s->t[i], prev, i,
                     s->n);
            return 0;
        }
        prev = s->t[i];
    }
    snprintf(why, len, "%s", prev < 0 ? "no message at all" : "");
    return prev >= 0;
}

typedef struct match {
    e2e_server_t s;
    e2e_pl_t     pl[NPL];
    seen_t       sb[NPL];              /* (sense_body T ...) of each player */
    int          ncmd[NPL];            /* (turn N) sent by player i: N = 1..ncmd[i] */
    int          cmd_t[NPL][MAXN];     /* the sense_body time (turn N) answered */
    double       cmd_ms[NPL][MAXN];
    int          mon[NMON];
    seen_t       show[NMON];           /* (show T ...) of each monitor */
    int          sse;                  /* the browser viewer's event stream, -1 closed */
    int          sse_closed;           /* the server closed it */
    seen_t       view;                 /* {"show":{"time":T of the stream */
} match_t;

static char buf[65536];

static void read_player(match_t *m, int i)
{
    e2e_pl_t *p = &m->pl[i];
    while (e2e_pl_recv(p, buf, sizeof buf, 0) > 0) {
        int t;
        if (sscanf(buf, "(sense_body %d ", &t) != 1)
            continue;
        seen_add(&m->sb[i], t);
        int n = m->ncmd[i] + 1; /* one command per cycle, each its own number */
        if (n < MAXN) {
            char cmd[64];
            snprintf(cmd, sizeof cmd, "(turn %d)", n);
            e2e_pl_send(p, cmd);
            m->ncmd[i] = n;
            m->cmd_t[i][n] = t;
            m->cmd_ms[i][n] = e2e_now_ms();
        }
    }
    if (p->n > E2E_PL_KEEP / 2)
        e2e_pl_clear(p);
}

static void read_monitor(match_t *m, int i)
{
    while (e2e_recv(m->mon[i], buf, sizeof buf, 0, NULL) > 0) {
        int t;
        if (sscanf(buf, "(show %d ", &t) == 1)
            seen_add(&m->show[i], t);
    }
}

static void read_viewer(match_t *m)
{
    static const char key[] = "{\"show\":{\"time\":";
    /* 2 ms: its wait is cut to whole milliseconds, and 1 can become 0 (no read at all) */
    while (e2e_sse_next(m->sse, buf, sizeof buf, NULL, 2) > 0) {
        if (strncmp(buf, key, strlen(key)) == 0)
            seen_add(&m->view, atoi(buf + strlen(key)));
    }
    char c;
    if (recv(m->sse, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0) { /* the server closed it */
        e2e_sse_close(m->sse);
        m->sse = -1;
        m->sse_closed = 1;
    }
}

/* read every client for ms milliseconds; each player answers each sense_body */
static void pump(match_t *m, int ms)
{
    double end = e2e_now_ms() + ms;
    while (e2e_now_ms() < end) {
        struct pollfd pf[NPL + NMON + 1];
        int n = 0;
        for (int i = 0; i < NPL; i++)
            pf[n++] = (struct pollfd){ .fd = m->pl[i].fd, .events = POLLIN };
        for (int i = 0; i < NMON; i++)
            pf[n++] = (struct pollfd){ .fd = m->mon[i], .events = POLLIN };
        if (m->sse >= 0)
            pf[n++] = (struct pollfd){ .fd = m->sse, .events = POLLIN };
        if (poll(pf, (nfds_t)n, 5) <= 0)
            continue;
        for (int i = 0; i < NPL; i++) {
            if (pf[i].revents)
                read_player(m, i);
        }
        for (int i = 0; i < NMON; i++) {
            if (pf[NPL + i].revents)
                read_monitor(m, i);
        }
        if (m->sse >= 0 && pf[NPL + NMON].revents)
            read_viewer(m);
    }
}

/* /status's "sim" object: pid, supervisor_pid, restarts (-1 each if unreadable) */
static void status_sim(int http, int *pid, int *super, int *restarts)
{
    static char body[262144];
    *pid = *super = *restarts = -1;
    if (e2e_http_get(http, "/status", body, sizeof body) != 200)
        return;
    json_error_t err;
    json_t *o = json_loads(body, 0, &err);
    json_t *sim = o ? json_object_get(o, "sim") : NULL;
    if (sim) {
        *pid = (int)json_integer_value(json_object_get(sim, "pid"));
        *super = (int)json_integer_value(json_object_get(sim, "supervisor_pid"));
        *restarts = (int)json_integer_value(json_object_get(sim, "restarts"));
    }
    json_decref(o);
}

/* ---- 1. real time, viewers, logs ------------------------------------------------------- */

/* Shows: a real-time match (100 ms steps) with two players answering every sense_body,
 * two UDP monitors (protocols 3 and 4), a browser viewer on /events, the game and text
 * logs, the event stream and result.json survives three deaths of its sim, a few seconds
 * apart, by SIGKILL, SIGSEGV and SIGABRT:
 *   - the supervisor (the rcssserver the test started) forks a new sim each time, which
 *     the region, /status, the event stream, result.json and the supervisor's stderr all
 *     name (the kills come 10, 51 and 92 ms after a sense_body: early, in the middle and
 *     at the end of a cycle); the gateways and the recorder are the same processes throughout;
 *   - each player gets a sense_body made by the new sim (a time after the cycle it took
 *     the match over at) within 300 ms of the kill; both monitors and the viewer get
 *     frames again too;
 *   - nobody sees a cycle twice or misses one: each player's sense_bodies and each
 *     monitor's shows after the kick-off are one cycle apart throughout, the viewer's
 *     never go back, the game log holds every cycle once in order, and the text log holds
 *     every command once, in the cycle the player sent it in (the one of the sense_body it
 *     answered, or the next if it came late), its cycles in order;
 *   - SIGTERM then ends the match normally (status 0). */
Test(resume_cases, real_time_with_viewers_and_logs, .timeout = 30 + 10 * NKILL)
{
    e2e_segv_kills();
    static match_t m;
    static const int sigs[3] = { SIGKILL, SIGSEGV, SIGABRT }, signo[3] = { 9, 11, 6 };
    static char text[1 << 20];
    char why[512], events[600], a_events[700];
    no_core_files();
    memset(&m, 0, sizeof m);
    m.sse = -1;
    e2e_logdir_t d;
    cr_assert_eq(e2e_logdir_make(&d), 0);
    snprintf(events, sizeof events, "%s/events.ndjson", d.dir);
    snprintf(a_events, sizeof a_events, "server::event_stream=%s", events);
    const char *args[] = { "server::coach=true", "server::game_logging=true",
                           "server::text_logging=true", d.game_arg, d.text_arg,
                           "server::http_port=-1", "server::result_file=result.json",
                           a_events, NULL };
    cr_assert_eq(e2e_server_start(&m.s, args), 0);
    int http = e2e_runner_http_port(m.s.shm_name);
    cr_assert_gt(http, 0, "the HTTP server's port in the region");

    /* the clients: two players, two monitors, the viewer; the trainer kicks off */
    const char *init[NPL] = { "(init TeamA (version 19))", "(init TeamB (version 19))" };
    for (int i = 0; i < NPL; i++)
        cr_assert_eq(e2e_pl_connect(&m.pl[i], &m.s, init[i]), 0, "player %d: %s", i,
                     m.pl[i].first);
    const char *dispinit[NMON] = { "(dispinit version 3)", "(dispinit version 4)" };
    for (int i = 0; i < NMON; i++) {
        m.mon[i] = e2e_udp_open();
        e2e_send(m.mon[i], m.s.port, dispinit[i]);
        cr_assert_gt(e2e_recv_prefix(m.mon[i], "(server_param ", buf, sizeof buf, 2000, NULL),
                     0, "monitor %d was not answered", i);
    }
    m.sse = e2e_sse_open(http, "/events", NULL);
    cr_assert_geq(m.sse, 0, "the browser viewer's stream /events");
    e2e_trainer_t t;
    cr_assert_eq(e2e_trainer_connect(&t, &m.s, 19), 0);
    cr_assert_eq(e2e_trainer_start(&t), 0, "%s", t.last);
    cr_assert_eq(e2e_trainer_change_mode(&t, "play_on"), 0, "%s", t.last);
    pump(&m, 2500); /* the first sim goes well past SHM_RESUME_PROGRESS steps */

    region_t g0;
    cr_assert_eq(region_read(m.s.shm_name, &g0), 0);
    cr_assert(g0.sim > 0 && g0.sim != m.s.pid, "the sim (%d) is not the supervisor (%d)",
              (int)g0.sim, (int)m.s.pid);
    cr_expect_eq(g0.super, m.s.pid, "the region names the supervisor");
    cr_expect_eq(g0.restarts, 0u);
    cr_assert(g0.netgw > 0 && g0.monitorgw > 0 && g0.recorder > 0, "gateways and recorder");
    int st_pid, st_super, st_restarts;
    status_sim(http, &st_pid, &st_super, &st_restarts);
    cr_expect(st_pid == g0.sim && st_super == m.s.pid && st_restarts == 0,
              "/status before any kill: sim pid %d (region %d), supervisor %d (%d), "
              "restarts %d (0)", st_pid, (int)g0.sim, st_super, (int)m.s.pid, st_restarts);

    pid_t sim[NKILL + 1] = { g0.sim };
    double kill_ms[NKILL];
    for (int k = 0; k < NKILL; k++) {
        cr_assert_eq(parent_of(sim[k]), m.s.pid, "sim %d (pid %d) is the supervisor's child",
                     k, (int)sim[k]);
        int n0 = m.sb[0].n;
        for (int w = 0; w < 100 && m.sb[0].n == n0; w++)
            pump(&m, 2);
        /* each kill at another moment of the 100 ms cycle: 10, 51, 92 ms after a
         * sense_body (soon after a step, in the middle, just before the next), ... */
        pump(&m, (10 + 41 * k) % 100);
        kill_ms[k] = e2e_now_ms();
        cr_assert_eq(kill(sim[k], sigs[k % 3]), 0, "kill(%d, %d): %s", (int)sim[k], sigs[k % 3],
                     strerror(errno));
        pump(&m, 1000);
        region_t g;
        cr_assert_eq(wait_new_sim(m.s.shm_name, sim[k], 2000, &g), 0,
                     "no new sim in the region after signal %d to %d", sigs[k % 3], (int)sim[k]);
        sim[k + 1] = g.sim;
        cr_expect_eq(g.restarts, (uint32_t)k + 1, "hdr.sim_restarts after kill %d", k + 1);
        cr_expect_eq(g.super, m.s.pid, "the same supervisor");
        status_sim(http, &st_pid, &st_super, &st_restarts);
        cr_expect(st_pid == g.sim && st_super == m.s.pid && st_restarts == k + 1,
                  "/status after kill %d: sim pid %d (region %d), supervisor %d (%d), "
                  "restarts %d (%d)", k + 1, st_pid, (int)g.sim, st_super, (int)m.s.pid,
                  st_restarts, k + 1);
        pump(&m, 1500); /* well past SHM_RESUME_PROGRESS steps of the new sim */
    }
    region_t g1;
    cr_assert_eq(region_read(m.s.shm_name, &g1), 0);
    cr_expect(g1.netgw == g0.netgw && g1.monitorgw == g0.monitorgw
              && g1.recorder == g0.recorder,
              "the same gateways and recorder: netgw %d -> %d, monitorgw %d -> %d, recorder "
              "%d -> %d", (int)g0.netgw, (int)g1.netgw, (int)g0.monitorgw, (int)g1.monitorgw,
              (int)g0.recorder, (int)g1.recorder);
    cr_expect(running(g0.netgw) && running(g0.monitorgw) && running(g0.recorder),
              "the first gateways and recorder still run");
    cr_expect_eq(g1.tries, 0u, "each new sim got %d steps done: hdr.resume_tries is reset",
                 SHM_RESUME_PROGRESS);
    double stop_ms = e2e_now_ms();
    e2e_trainer_close(&t);
    int st = stop_keep(&m.s);
    FILE *lf = fopen(m.s.log, "r");
    size_t ln = lf ? fread(text, 1, sizeof text - 1, lf) : 0;
    text[ln] = '\0';
    if (lf)
        fclose(lf);
    cr_expect_eq(st, 0, "SIGTERM: exit status %d; the sims said:\n%s", st,
                 lines_with(text, "rcssserver", why, sizeof why));

    /* the supervisor said each death; each new sim where it took over */
    for (int k = 0; k < NKILL; k++) {
        char l[160];
        snprintf(l, sizeof l, "rcssserver: the sim (pid %d) was killed by signal %d; a new sim "
                 "takes the match over", (int)sim[k], signo[k % 3]);
        cr_expect(strstr(text, l) != NULL, "server log lacks \"%s\":\n%s", l,
                  lines_with(text, "rcssserver", why, sizeof why));
    }
    cr_expect_eq(count_lines_with(text, "takes the match over at cycle"), NKILL, "%s",
                 lines_with(text, "takes the match over", why, sizeof why));

    /* the event stream: three sim_restart events, 1, 2, 3, by the new sims; the cycle
     * each took the match over at */
    int took_at[NKILL], nrestart = 0;
    for (int k = 0; k < NKILL; k++)
        took_at[k] = -1;
    char *ev = e2e_read_file(events, NULL);
    cr_assert_not_null(ev, "%s", events);
    for (char *save = NULL, *l = strtok_r(ev, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        json_error_t err;
        json_t *o = json_loads(l, 0, &err);
        const char *name = json_string_value(json_object_get(o, "event"));
        if (name && strcmp(name, "sim_restart") == 0) {
            if (nrestart < NKILL) {
                int r = (int)json_integer_value(json_object_get(o, "restarts"));
                int pid = (int)json_integer_value(json_object_get(o, "pid"));
                cr_expect(r == nrestart + 1 && pid == sim[nrestart + 1],
                          "sim_restart %d: restarts %d, pid %d (sim %d)", nrestart + 1, r, pid,
                          (int)sim[nrestart + 1]);
                took_at[nrestart] = (int)json_integer_value(json_object_get(o, "time"));
            }
            nrestart++;
        }
        json_decref(o);
    }
    free(ev);
    cr_expect_eq(nrestart, NKILL, "sim_restart events in %s", events);

    /* each kill: a sense_body of the new sim's within 300 ms for every player, frames for
     * the monitors and the viewer soon after */
    for (int k = 0; k < NKILL && took_at[k] >= 0; k++) {
        for (int i = 0; i < NPL; i++) {
            int j = seen_first(&m.sb[i], kill_ms[k], took_at[k]);
            cr_log_info("kill %d (signal %d): took over at cycle %d; player %d's sense_body %d "
                        "%.0f ms after the kill, %.0f ms after the one before", k + 1,
                        sigs[k % 3], took_at[k], i, j >= 0 ? m.sb[i].t[j] : -1,
                        j >= 0 ? m.sb[i].ms[j] - kill_ms[k] : -1.0,
                        j > 0 ? m.sb[i].ms[j] - m.sb[i].ms[j - 1] : -1.0);
            cr_expect(j >= 0 && m.sb[i].ms[j] - kill_ms[k] <= 300.0,
                      "kill %d (signal %d, the new sim took over at cycle %d): player %d's "
                      "first sense_body after it came %.0f ms later", k + 1, sigs[k % 3],
                      took_at[k], i, j >= 0 ? m.sb[i].ms[j] - kill_ms[k] : -1.0);
        }
        for (int i = 0; i < NMON; i++) {
            int j = seen_first(&m.show[i], kill_ms[k], took_at[k]);
            cr_expect(j >= 0 && m.show[i].ms[j] - kill_ms[k] <= 500.0,
                      "kill %d: monitor %d's next frame came %.0f ms later", k + 1, i,
                      j >= 0 ? m.show[i].ms[j] - kill_ms[k] : -1.0);
        }
        int j = seen_first(&m.view, kill_ms[k], took_at[k]);
        cr_expect(j >= 0 && m.view.ms[j] - kill_ms[k] <= 1000.0,
                  "kill %d: the viewer's next frame came %.0f ms later", k + 1,
                  j >= 0 ? m.view.ms[j] - kill_ms[k] : -1.0);
    }
    cr_expect(!m.sse_closed, "the viewer's stream stayed open");

    /* no cycle twice, none skipped, for any client */
    for (int i = 0; i < NPL; i++) {
        cr_expect(seen_consecutive(&m.sb[i], 1, why, sizeof why), "player %d's sense_bodies: %s",
                  i, why);
        cr_expect_gt(m.sb[i].n, 0);
        cr_expect_geq(m.sb[i].t[m.sb[i].n - 1], took_at[NKILL - 1] + 10,
                      "player %d: the match went on to cycle %d after the last takeover at %d",
                      i, m.sb[i].t[m.sb[i].n - 1], took_at[NKILL - 1]);
    }
    for (int i = 0; i < NMON; i++)
        cr_expect(seen_consecutive(&m.show[i], 1, why, sizeof why), "monitor %d's shows: %s",
                  i, why);
    for (int i = 1; i < m.view.n; i++) {
        if (m.view.t[i] < m.view.t[i - 1]) {
            cr_expect_fail("the viewer's time went back from %d to %d", m.view.t[i - 1],
                           m.view.t[i]);
            break;
        }
    }
    cr_expect_gt(m.view.n, 50, "the viewer got %d frames", m.view.n);
    cr_log_info("sense_bodies %d/%d (last %d), shows %d/%d, viewer frames %d, commands %d/%d",
                m.sb[0].n, m.sb[1].n, m.sb[0].n ? m.sb[0].t[m.sb[0].n - 1] : -1, m.show[0].n,
                m.show[1].n, m.view.n, m.ncmd[0], m.ncmd[1]);

    /* result.json */
    char path[700];
    snprintf(path, sizeof path, "%s/result.json", d.dir);
    json_error_t jerr;
    json_t *res = json_load_file(path, 0, &jerr);
    cr_assert_not_null(res, "%s: %s", path, jerr.text);
    cr_expect_eq(json_integer_value(json_object_get(res, "sim_restarts")), NKILL,
                 "result.json's sim_restarts");
    cr_expect_eq(json_integer_value(json_object_get(res, "exit_code")), 0);
    json_t *logs = json_object_get(res, "logs");
    char game[512] = "", textlog[512] = "";
    if (json_string_value(json_object_get(logs, "game")))
        snprintf(game, sizeof game, "%s", json_string_value(json_object_get(logs, "game")));
    if (json_string_value(json_object_get(logs, "text")))
        snprintf(textlog, sizeof textlog, "%s", json_string_value(json_object_get(logs, "text")));
    json_decref(res);
    cr_assert(game[0] && textlog[0], "result.json names both logs");

    /* the game log: every cycle once, in order, up to where the players got */
    rcg_t gl;
    char err[256];
    memset(&gl, 0, sizeof gl);
    cr_assert_eq(rcg_read_file(game, &gl, err, sizeof err), 0, "%s: %s", game, err);
    cr_expect_eq(gl.bad_items, 0, "malformed items in %s", game);
    cr_expect_eq(gl.truncated, 0, "%s is cut", game);
    cr_assert_gt(gl.n_frames, 0);
    for (int i = 1; i < gl.n_frames; i++) {
        const disp_show_t *a = &gl.frame[i - 1].show, *b = &gl.frame[i].show;
        if (!((b->time == a->time + 1 && b->stime == 0)
              || (b->time == a->time && b->stime == a->stime + 1))) {
            cr_expect_fail("%s: frame %d is cycle %d,%d after %d,%d", game, i, b->time,
                           b->stime, a->time, a->stime);
            break;
        }
    }
    int last = m.sb[0].n ? m.sb[0].t[m.sb[0].n - 1] : 0;
    cr_log_info("game log: %d frames, cycles %d..%d", gl.n_frames, gl.frame[0].show.time,
                gl.frame[gl.n_frames - 1].show.time);
    cr_expect_geq(gl.frame[gl.n_frames - 1].show.time, last,
                  "the game log ends at %d, before the cycle %d a player saw",
                  gl.frame[gl.n_frames - 1].show.time, last);
    rcg_free(&gl);

    /* the text log: each command once, in its cycle; the cycles in order */
    char *rcl = e2e_read_file(textlog, NULL);
    cr_assert_not_null(rcl, "%s", textlog);
    static int logged[NPL][MAXN], logged_t[NPL][MAXN];
    memset(logged, 0, sizeof logged);
    int pt = -1, ps = -1, bad_order = 0;
    for (char *save = NULL, *l = strtok_r(rcl, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        int lt, ls, n, off = 0;
        char team;
        if (sscanf(l, "%d,%d\t%n", &lt, &ls, &off) < 2 || off == 0)
            continue;
        if (!bad_order && (lt < pt || (lt == pt && ls < ps))) {
            bad_order = 1;
            cr_expect_fail("%s: cycle %d,%d after %d,%d (\"%s\")", textlog, lt, ls, pt, ps, l);
        }
        pt = lt;
        ps = ls;
        if (sscanf(l + off, "Recv Team%c_1: (turn %d)", &team, &n) == 2 && (team == 'A'
            || team == 'B') && n > 0 && n < MAXN) {
            int i = team - 'A';
            logged[i][n]++;
            logged_t[i][n] = lt;
        }
    }
    free(rcl);
    for (int i = 0; i < NPL; i++) {
        int missing = 0, twice = 0, wrong = 0, late = 0;
        char first[200] = "";
        for (int n = 1; n <= m.ncmd[i]; n++) {
            if (m.cmd_ms[i][n] > stop_ms - 500) /* may not have been taken in before the end */
                break;
            int ok_t = logged_t[i][n] == m.cmd_t[i][n] || logged_t[i][n] == m.cmd_t[i][n] + 1;
            late += logged[i][n] == 1 && logged_t[i][n] == m.cmd_t[i][n] + 1;
            if (logged[i][n] == 0)
                missing++;
            else if (logged[i][n] > 1)
                twice++;
            else if (!ok_t)
                wrong++;
            if ((logged[i][n] != 1 || !ok_t) && !first[0])
                snprintf(first, sizeof first, "(turn %d), sent after sense_body %d: logged %d "
                         "times, at %d", n, m.cmd_t[i][n], logged[i][n], logged_t[i][n]);
        }
        cr_log_info("player %d: %d commands sent, %d missing, %d twice, %d in another cycle, "
                    "%d late (in the next cycle)", i, m.ncmd[i], missing, twice, wrong, late);
        cr_expect(missing == 0 && twice == 0 && wrong == 0,
                  "player %d's commands in the text log: %d missing, %d twice or more, %d in "
                  "another cycle; first: %s", i, missing, twice, wrong, first);
    }

    for (int i = 0; i < NPL; i++)
        e2e_pl_close(&m.pl[i]);
    for (int i = 0; i < NMON; i++)
        close(m.mon[i]);
    if (m.sse >= 0)
        e2e_sse_close(m.sse);
    e2e_logdir_remove(&d);
    rm_tree(m.s.dir);
}

/* ---- 2. a crash loop ------------------------------------------------------------------- */

/* Shows: with server::resume_tries=3, sims that die before they publish
 * SHM_RESUME_PROGRESS steps are counted in hdr.resume_tries (each new sim adds one before
 * it names itself in the region) and the match is given up by the sim that would be the
 * fourth such in a row: after the first sim (which got its 20 steps done) and three new
 * ones are killed as soon as they appear, the fifth sim gives up by itself. The
 * supervisor then exits with status 4 without anyone stopping it; the output holds
 * exactly one "giving up the match" line (the sim's, not also the supervisor's);
 * result.json says crash_loop; the region is removed and the gateways end. */
Test(resume_cases, crash_loop_gives_up, .timeout = 60)
{
    static char out[1 << 18];
    char why[2048];
    no_core_files();
    e2e_server_t s;
    const char *args[] = { "server::resume_tries=3", "server::result_file=result.json", NULL };
    cr_assert_eq(e2e_server_start(&s, args), 0);
    /* the first sim gets somewhere: its death is not part of the loop */
    cr_assert_eq(e2e_wait_steps(&s, SHM_RESUME_PROGRESS + 5, 5000), 0);
    region_t g;
    cr_assert_eq(region_read(s.shm_name, &g), 0);
    pid_t ngw = g.netgw, mgw = g.monitorgw, sim = g.sim;
    cr_assert(ngw > 0 && mgw > 0 && sim > 0 && sim != s.pid);
    cr_expect_eq(g.tries, 0u);

    pid_t killed[4];
    for (int k = 0; k < 4; k++) {
        killed[k] = sim;
        cr_assert_eq(kill(sim, SIGKILL), 0, "kill %d: %s", k + 1, strerror(errno));
        cr_assert_eq(wait_new_sim(s.shm_name, sim, 3000, &g), 0,
                     "no new sim after kill %d (the supervisor %s): %s", k + 1,
                     running(s.pid) ? "runs" : "is gone",
                     lines_with(e2e_read_file(s.log, NULL), "rcssserver", why, sizeof why));
        sim = g.sim;
        cr_expect_eq(g.tries, (uint32_t)k + 1, "hdr.resume_tries once sim %d took over", k + 1);
        cr_expect_eq(g.restarts, (uint32_t)k + 1);
    }
    /* sim is the fifth: left alone, it gives up */
    int st = e2e_server_wait(&s, 10000, out, sizeof out);
    cr_expect_eq(st, 4, "the supervisor's exit status (4: crash loop); it said:\n%s",
                 lines_with(out, "rcssserver", why, sizeof why));
    cr_expect_eq(count_lines_with(out, "giving up the match"), 1,
                 "one line saying the match was given up:\n%s",
                 lines_with(out, "giving up", why, sizeof why));
    const char *l = strstr(out, "giving up the match");
    while (l && l > out && l[-1] != '\n')
        l--;
    cr_expect(l && strncmp(l, "rcssserver: the sim died 3 times in a row within 20 steps of its "
                           "start; giving up the match", 90) == 0, "the line: %.200s",
              l ? l : "(none)");
    cr_expect_eq(count_lines_with(out, "a new sim takes the match over"), 4,
                 "the supervisor started a new sim after each of the 4 kills:\n%s",
                 lines_with(out, "rcssserver", why, sizeof why));

    char path[400];
    snprintf(path, sizeof path, "%s/result.json", s.dir);
    json_error_t err;
    json_t *res = json_load_file(path, 0, &err);
    cr_expect_not_null(res, "%s: %s", path, err.text);
    if (res) {
        const char *reason = json_string_value(json_object_get(res, "exit_reason"));
        cr_expect(reason && strcmp(reason, "crash_loop") == 0, "exit_reason %s",
                  reason ? reason : "(none)");
        cr_expect_eq(json_integer_value(json_object_get(res, "exit_code")), 4);
        cr_expect_eq(json_integer_value(json_object_get(res, "sim_restarts")), 4);
        json_decref(res);
    }

    cr_expect(shm_gone_within(s.shm_name, 3000), "the region %s is still there", s.shm_name);
    cr_expect(gone_within(ngw, 3000), "netgw %d still runs", (int)ngw);
    cr_expect(gone_within(mgw, 3000), "monitorgw %d still runs", (int)mgw);
    cr_expect(gone_within(sim, 3000), "the last sim %d still runs", (int)sim);
    for (int k = 0; k < 4; k++)
        cr_expect(!running(killed[k]), "killed sim %d runs", (int)killed[k]);
    rm_tree(s.dir);
}

/* ---- 3. the systemd layout ------------------------------------------------------------- */

/* Shows: without a supervisor (server::spawn_gateways=false, a netgw and a monitorgw of
 * their own, as systemd runs them), a sim killed with SIGKILL leaves the match in the
 * region; the gateways wait for a new sim (server::resume_wait_ms, 5 s), and a new
 * rcssserver started ~100 ms later with exactly the same arguments (systemd's Restart=)
 * finds the region with a dead sim and takes the match over: the same gateway processes
 * serve on, the player gets sense_bodies again within moments, their time going on from
 * the cycle it was at, one cycle at a time (no reset to 0, none skipped or repeated), and
 * the trainer's commands are answered. A SIGTERM to the new sim then ends it all cleanly:
 * status 0, the gateways leave by themselves, the region is removed. */
Test(resume_cases, systemd_layout_new_sim_takes_over, .timeout = 60)
{
    static match_t m; /* its players only */
    char why[2048];
    no_core_files();
    memset(&m, 0, sizeof m);
    m.sse = -1;
    const char *args[] = { "server::coach=true", NULL };
    cr_assert_eq(e2e_server_start_standalone(&m.s, args, 1), 0);
    e2e_server_t *s = &m.s;
    cr_assert_eq(e2e_pl_connect(&m.pl[0], s, "(init TeamA (version 19))"), 0);
    cr_assert_eq(e2e_pl_connect(&m.pl[1], s, "(init TeamB (version 19))"), 0);
    for (int i = 0; i < NMON; i++) { /* a monitor each, on monitorgw */
        m.mon[i] = e2e_udp_open();
        e2e_send(m.mon[i], s->port, "(dispinit version 4)");
        cr_assert_gt(e2e_recv_prefix(m.mon[i], "(server_param ", buf, sizeof buf, 2000, NULL),
                     0);
    }
    e2e_trainer_t t;
    cr_assert_eq(e2e_trainer_connect(&t, s, 19), 0);
    cr_assert_eq(e2e_trainer_start(&t), 0, "%s", t.last);
    cr_assert_eq(e2e_trainer_change_mode(&t, "play_on"), 0, "%s", t.last);
    pump(&m, 2500);

    region_t g0;
    cr_assert_eq(region_read(s->shm_name, &g0), 0);
    cr_assert_eq(g0.sim, s->pid, "no supervisor: the sim is the process started");
    cr_expect_eq(g0.super, 0, "no supervisor in the region");
    cr_assert_eq(s->nstandalone, 2);
    cr_expect(g0.netgw == s->standalone[0] && g0.monitorgw == s->standalone[1],
              "the region names the harness's gateways");
    int before = m.sb[0].n ? m.sb[0].t[m.sb[0].n - 1] : -1;
    cr_assert_gt(before, 10, "the match time runs (cycle %d)", before);

    pid_t old = s->pid;
    double kill_ms = e2e_now_ms();
    cr_assert_eq(kill(old, SIGKILL), 0);
    waitpid(old, NULL, 0);
    s->pid = -1;
    pump(&m, 100); /* RestartSec=100ms */
    cr_assert_eq(e2e_server_restart_standalone_sim(s), 0);
    region_t g;
    cr_assert_eq(wait_new_sim(s->shm_name, old, 3000, &g), 0,
                 "the new rcssserver (pid %d) did not take the match over: %s", (int)s->pid,
                 lines_with(e2e_read_file(s->log, NULL), "rcss", why, sizeof why));
    cr_expect_eq(g.sim, s->pid, "the region names the new sim");
    cr_expect_eq(g.restarts, 1u);
    pump(&m, 2000);
    cr_assert_eq(region_read(s->shm_name, &g), 0);
    cr_expect_eq(g.sim, s->pid, "the new sim still runs the match");
    for (int i = 0; i < s->nstandalone; i++)
        cr_expect_eq(waitpid(s->standalone[i], NULL, WNOHANG), 0,
                     "gateway %d (pid %d) is still the one serving", i, (int)s->standalone[i]);
    cr_expect(g.netgw == g0.netgw && g.monitorgw == g0.monitorgw,
              "the same gateways: netgw %d -> %d, monitorgw %d -> %d", (int)g0.netgw,
              (int)g.netgw, (int)g0.monitorgw, (int)g.monitorgw);

    for (int i = 0; i < NPL; i++) {
        int j = seen_first(&m.sb[i], kill_ms, before);
        cr_expect(j >= 0, "player %d got no sense_body after cycle %d once the new sim ran", i,
                  before);
        if (j >= 0)
            cr_log_info("player %d: sense_body %d after %d, %.0f ms after the kill", i,
                        m.sb[i].t[j], before, m.sb[i].ms[j] - kill_ms);
        if (j >= 0)
            cr_expect_leq(m.sb[i].ms[j] - kill_ms, 1000.0,
                          "player %d's next sense_body came %.0f ms after the kill", i,
                          m.sb[i].ms[j] - kill_ms);
        cr_expect(seen_consecutive(&m.sb[i], 1, why, sizeof why),
                  "player %d's sense_bodies: %s", i, why);
        cr_expect_geq(m.sb[i].t[m.sb[i].n - 1], before + 10,
                      "player %d: the time went on from %d to %d", i, before,
                      m.sb[i].t[m.sb[i].n - 1]);
    }
    for (int i = 0; i < NMON; i++)
        cr_expect(seen_consecutive(&m.show[i], 1, why, sizeof why), "monitor %d's shows: %s",
                  i, why);
    e2e_world_t w;
    cr_expect_eq(e2e_trainer_look(&t, &w), 0, "the trainer is answered: %s", t.last);
    cr_expect_geq(w.time, before, "(look) says cycle %d", w.time);
    e2e_trainer_close(&t);

    char *text = e2e_read_file(s->log, NULL);
    cr_expect(text && strstr(text, "takes the match over at cycle"), "%s",
              text ? lines_with(text, "rcss", why, sizeof why) : "(no log)");
    free(text);
    int st = e2e_server_stop(s); /* also: the gateways left by themselves */
    cr_expect_eq(st, 0, "the new sim's exit status, its gateways leaving (log %s)", s->log);
    cr_expect(shm_gone_within(s->shm_name, 3000), "the region is still there");
    for (int i = 0; i < NPL; i++)
        e2e_pl_close(&m.pl[i]);
    for (int i = 0; i < NMON; i++)
        close(m.mon[i]);
}

/* ---- 4. the systemd unit --------------------------------------------------------------- */

/* Shows: conf/systemd/rcssserver-sim.service restarts a sim that died
 * (Restart=on-failure or on-abnormal) soon enough for the gateways' wait
 * (server::resume_wait_ms, 5 s by default): RestartSec of at most 200 ms; and does not
 * restart a sim that gave the match up (status 4) or could not have its port or region
 * (status 2): RestartPreventExitStatus=2 4. */
Test(resume_cases, systemd_unit_restart_policy, .timeout = 10)
{
    const char *bindir = getenv("RCSS_BIN_DIR");
    char path[600];
    snprintf(path, sizeof path, "%s/../../conf/systemd/rcssserver-sim.service",
             bindir ? bindir : "build/bin");
    if (access(path, R_OK) != 0)
        snprintf(path, sizeof path, "conf/systemd/rcssserver-sim.service");
    char *unit = e2e_read_file(path, NULL);
    cr_assert_not_null(unit, "%s", path);
    char restart[64] = "", sec[64] = "", prevent[128] = "";
    for (char *save = NULL, *l = strtok_r(unit, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (strncmp(l, "Restart=", 8) == 0)
            snprintf(restart, sizeof restart, "%s", l + 8);
        else if (strncmp(l, "RestartSec=", 11) == 0)
            snprintf(sec, sizeof sec, "%s", l + 11);
        else if (strncmp(l, "RestartPreventExitStatus=", 25) == 0)
            snprintf(prevent, sizeof prevent, "%s", l + 25);
    }
    free(unit);
    cr_expect(strcmp(restart, "on-failure") == 0 || strcmp(restart, "on-abnormal") == 0,
              "Restart=%s", restart);
    /* systemd's time span: "100ms", "0.1", "1" (seconds), "1s" */
    char *end;
    double v = strtod(sec, &end), ms = -1;
    if (end != sec) {
        if (strcmp(end, "ms") == 0)
            ms = v;
        else if (*end == '\0' || strcmp(end, "s") == 0)
            ms = v * 1000.0;
    }
    cr_expect(ms >= 0 && ms <= 200.0, "RestartSec=%s: a new sim must come well within the "
              "gateways' wait", sec);
    int has2 = 0, has4 = 0;
    char words[128];
    snprintf(words, sizeof words, "%s", prevent);
    for (char *save = NULL, *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        has2 |= strcmp(w, "2") == 0;
        has4 |= strcmp(w, "4") == 0;
    }
    cr_expect(has2 && has4, "RestartPreventExitStatus=%s must hold 2 and 4 (a given-up match "
              "is not restarted)", prevent);
}
