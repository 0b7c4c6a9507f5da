/* mgw_status.c -- the runner endpoints of monitorgw's HTTP server (server::http_port;
 * -1 = a free port, reported in the region for the sim's ready line and kept across a
 * monitorgw restart): GET /status (JSON: match, clients with their connection and
 * synch-mode miss counts, monitors, cycle metrics, drops, the broadcast tier's publisher,
 * gateways), GET /metrics (the
 * same numbers in the Prometheus text format) and GET /match/events, the sim's runner
 * events (start, connect, playmode, goal, card, half, reset, end) as server-sent events
 * with ids, so a client reconnecting with Last-Event-ID gets what it missed (the last
 * MGW_ST_BACKLOG events). Registered by mgw_http.c; reads the region only. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include "log.h"
#include "mgw.h"
#include "playmode.h"
#include "sse_stream.h"

#define MGW_ST_BACKLOG   256      /* runner events kept for Last-Event-ID */

typedef struct mgw_status {
    mgw_t        *g;
    uint64_t      cursor;          /* next event sequence to read */
    shm_text_t    part;            /* an event text in parts */
    sse_ev_t     *backlog[MGW_ST_BACKLOG]; /* "id: N\ndata: {...}\n\n" */
    uint64_t      nevents;         /* runner events seen (backlog[(n - 1) % BACKLOG]) */
    sse_stream_t  viewers;         /* no limit: the events are few and each matters */
} mgw_status_t;

/* ---- the port -------------------------------------------------------------------------- */
int mgw_status_port(mgw_t *g, int port)
{
    int had = atomic_load(&g->r->runner.http_port);
    return port >= 0 ? port : had > 0 ? had : 0;
}

void mgw_status_bound(mgw_t *g, int port)
{
    atomic_store(&g->r->runner.http_port, port);
}

/* ---- /match/events --------------------------------------------------------------------- */
static void on_match_events(struct evhttp_request *req, void *arg)
{
    mgw_status_t *st = arg;
    sse_viewer_t *v = sse_stream_add(&st->viewers, req);
    if (!v)
        return;
    /* a reconnecting client: what came after the last event it got */
    const char *last = evhttp_find_header(evhttp_request_get_input_headers(req), "Last-Event-ID");
    if (!last)
        return;
    uint64_t from = strtoull(last, NULL, 10) + 1;
    uint64_t first = st->nevents > MGW_ST_BACKLOG ? st->nevents - MGW_ST_BACKLOG + 1 : 1;
    for (uint64_t id = from < first ? first : from; id <= st->nevents; id++)
        sse_viewer_send(v, st->backlog[(id - 1) % MGW_ST_BACKLOG]);
}

static void add_event(mgw_status_t *st, const char *json, size_t len)
{
    sse_ev_t *e = sse_ev_new(st->nevents + 1, json, len);
    if (!e)
        return;
    sse_ev_t **slot = &st->backlog[st->nevents % MGW_ST_BACKLOG];
    st->nevents++;
    sse_ev_unref(*slot);
    *slot = e;
    sse_stream_send(&st->viewers, e);
}

void mgw_status_poll(mgw_t *g)
{
    mgw_status_t *st = g->status;
    if (!st)
        return;
    shm_region_sh_t *r = g->r;
    shm_event_sh_t ev;
    int rc;
    while ((rc = shm_event_next(r, &st->cursor, shm_event_head(r), &ev)) <= 0) {
        if (rc < 0) { /* overwritten: nobody read for a long while */
            st->part.complete = 1;
            continue;
        }
        size_t len = ev.len < 0 ? 0 : ev.len > SHM_EVENT_TEXT_LEN ? SHM_EVENT_TEXT_LEN
                                                                   : (size_t)ev.len;
        len = strnlen(ev.text, len);
        if (!shm_text_feed(&st->part, ev.kind == SHM_EV_CONT, ev.text, len)
            || ev.kind != SHM_EV_RUNNER || st->part.overflow)
            continue;
        add_event(st, st->part.buf, st->part.len);
    }
    atomic_store(&r->runner.mgw_event_read, st->cursor);
}

/* ---- /status ----------------------------------------------------------------------------- */
static const char *client_kind(int i)
{
    return i < SHM_MAX_PLAYERS ? "player" : i == SHM_COACH_TRAINER ? "trainer" : "coach";
}

static int client_side(int i)
{
    return i < SHM_TEAM_SIZE || i == SHM_COACH_LEFT ? 0
         : i < SHM_MAX_PLAYERS || i == SHM_COACH_RIGHT ? 1 : -1;
}

static json_t *clients_json(const mgw_t *g)
{
    const shm_region_sh_t *r = g->r;
    json_t *a = json_array();
    for (int i = 0; a && i < SHM_MAX_CLIENTS; i++) {
        const shm_client_sh_t *e = &r->client[i];
        const shm_client_stat_sh_t *cs = &r->runner.client[i];
        int on = atomic_load(&e->state) == CLIENT_ST_ACTIVE;
        if (!on && cs->connects == 0)
            continue;
        int k = client_side(i);
        json_t *o = json_pack("{s:i, s:s, s:b, s:i, s:I, s:i, s:i}", "index", i, "client",
                              client_kind(i), "connected", on, "connections", (int)cs->connects,
                              "misses", (json_int_t)cs->misses, "consecutive_misses",
                              (int)cs->miss_run, "max_consecutive_misses", (int)cs->miss_run_max);
        if (!o)
            continue;
        if (k >= 0) {
            char team[SHM_TEAM_NAME_LEN];
            memcpy(team, g->snap.team[k], sizeof team);
            team[sizeof team - 1] = '\0';
            json_object_set_new(o, "side", json_string(k == 0 ? "l" : "r"));
            json_object_set_new(o, "team", json_string(team));
        }
        if (i < SHM_MAX_PLAYERS)
            json_object_set_new(o, "unum", json_integer(i % SHM_TEAM_SIZE + 1));
        if (on)
            json_object_set_new(o, "version", json_real(e->version));
        json_array_append_new(a, o);
    }
    return a;
}

/* drops of every kind: command rings, control rings, monitor and viewer frames,
 * event-stream lines, what the recorder lost */
typedef struct st_drops {
    uint64_t cmd, ctrl, monitor, viewer, events, rec_snaps, rec_events;
} st_drops_t;

static void drops(const mgw_t *g, st_drops_t *d)
{
    const shm_region_sh_t *r = g->r;
    memset(d, 0, sizeof *d);
    for (int i = 0; i < SHM_MAX_CLIENTS; i++)
        d->cmd += r->cmd[i].dropped;
    for (uint32_t k = 0; k < r->hdr.n_gateways && k < SHM_MAX_GATEWAYS; k++)
        d->ctrl += r->netgw[k].ctrl.dropped;
    d->ctrl += r->monitorgw.ctrl.dropped;
    for (int i = 0; i < g->npeers; i++)
        d->monitor += g->peers[i] ? g->peers[i]->skipped : 0;
    d->viewer = mgw_http_skipped(g);
    d->events = r->runner.event_drops;
    d->rec_snaps = atomic_load(&r->rec.lost_snaps);
    d->rec_events = atomic_load(&r->rec.lost_events);
}

static double ms(int64_t ns) { return (double)ns / 1e6; }

static json_t *cycle_json(const shm_runner_sh_t *u)
{
    uint64_t n = u->cycles;
    return json_pack("{s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:I}", "count", (json_int_t)n,
                     "period_ms", ms(u->period_ns), "period_mean_ms",
                     n > 1 ? ms(u->period_sum_ns) / (double)(n - 1) : 0.0, "period_max_ms",
                     ms(u->period_max_ns), "jitter_ms", ms(u->jitter_ns), "publish_ms",
                     ms(u->publish_ns), "publish_mean_ms",
                     n > 0 ? ms(u->publish_sum_ns) / (double)n : 0.0, "publish_max_ms",
                     ms(u->publish_max_ns), "late_steps", (json_int_t)u->late_steps);
}

static json_t *teams_json(const mgw_t *g)
{
    const shm_snapshot_sh_t *s = &g->snap;
    json_t *a = json_array();
    for (int k = 0; a && k < 2; k++) {
        char team[SHM_TEAM_NAME_LEN];
        int players = 0;
        memcpy(team, s->team[k], sizeof team);
        team[sizeof team - 1] = '\0';
        for (int i = 0; i < SHM_TEAM_SIZE; i++)
            players += s->player[k * SHM_TEAM_SIZE + i].enabled != 0;
        json_array_append_new(a, json_pack("{s:s, s:o, s:i, s:i, s:{s:i, s:i}}", "side",
                                           k == 0 ? "l" : "r", "name",
                                           team[0] ? json_string(team) : json_null(), "score",
                                           s->score[k], "players", players, "penalties", "goals",
                                           s->pen_score[k], "taken",
                                           s->pen_score[k] + s->pen_miss[k]));
    }
    return a;
}

/* "up" (a heartbeat within server::gateway_timeout_ms), "silent" (none since), "missing"
 * (never came up: under systemd, a unit not started), "off" (the recorder, no log on) */
static const char *gateway_state(const mgw_t *g, const shm_proc_sh_t *p, int recorder)
{
    const conf_t *c = &g->conf;
    if (recorder && !conf_bool(c, SP_game_logging) && !conf_bool(c, SP_text_logging)
        && !(conf_bool(c, SP_keepaway) && conf_bool(c, SP_keepaway_logging)))
        return "off";
    int64_t beat = atomic_load(&p->heartbeat_ns), tmo = conf_int(c, SP_gateway_timeout_ms);
    if (beat == 0)
        return "missing";
    if (tmo > 0 && shm_now_ns() - beat > (int64_t)tmo * 1000000LL)
        return "silent";
    return "up";
}

static json_t *gateways_json(const mgw_t *g)
{
    const shm_region_sh_t *r = g->r;
    json_t *a = json_array();
    for (uint32_t k = 0; a && k <= r->hdr.n_gateways + 1 && k < SHM_MAX_GATEWAYS + 2; k++) {
        char name[32];
        const shm_proc_sh_t *p = k < r->hdr.n_gateways ? &r->netgw[k]
                               : k == r->hdr.n_gateways ? &r->monitorgw : &r->recorder;
        if (k < r->hdr.n_gateways)
            snprintf(name, sizeof name, "netgw%u", k);
        else
            snprintf(name, sizeof name, "%s", k == r->hdr.n_gateways ? "monitorgw" : "recorder");
        json_array_append_new(a, json_pack("{s:s, s:s, s:i, s:i, s:I}", "name", name, "state",
                                           gateway_state(g, p, k > r->hdr.n_gateways), "pid",
                                           (int)atomic_load(&p->pid), "restarts",
                                           (int)atomic_load(&p->restarts), "resets",
                                           (json_int_t)atomic_load(&p->resets)));
    }
    return a;
}

static json_t *status_json(const mgw_t *g)
{
    const shm_region_sh_t *r = g->r;
    const shm_runner_sh_t *u = &r->runner;
    st_drops_t d;
    drops(g, &d);
    int over = u->exit_code >= 0, ready = atomic_load(&u->ready) != 0;
    json_t *o = json_pack(
        "{s:s, s:b, s:i, s:s, s:I, s:i, s:b, s:s, s:{s:i, s:i, s:i, s:i}, s:i, s:I, s:s}",
        "state", over ? "over" : ready ? "running" : "starting", "ready", ready, "pid",
        (int)r->hdr.sim_pid, "shm", r->hdr.name, "seed", (json_int_t)r->hdr.random_seed,
        "episode", (int)g->snap.episode, "synch_mode", conf_bool(&g->conf, SP_synch_mode),
        "miss_policy", conf_str(&g->conf, SP_synch_miss_policy), "ports", "port", u->port,
        "coach_port", u->coach_port, "olcoach_port", u->olcoach_port, "http_port",
        (int)atomic_load(&u->http_port), "time", g->snap.time, "step",
        (json_int_t)g->snap.step, "play_mode", playmode_name(g->snap.play_mode));
    if (!o)
        return NULL;
    json_object_set_new(o, "teams", teams_json(g));
    json_object_set_new(o, "clients", clients_json(g));
    json_object_set_new(o, "monitors", json_integer(atomic_load(&r->montab.count)));
    json_object_set_new(o, "viewers", json_integer(mgw_http_viewers(g)));
    /* steps that waited for the players to be served first, and waits that ran out */
    json_object_set_new(o, "players_first", json_pack("{s:I, s:I}", "waits",
                                                      (json_int_t)g->yields, "timeouts",
                                                      (json_int_t)g->yield_timeouts));
    json_object_set_new(o, "cycle", cycle_json(u));
    json_object_set_new(o, "misses", json_integer((json_int_t)u->misses));
    json_object_set_new(o, "drops", json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
                                              "commands", (json_int_t)d.cmd, "control",
                                              (json_int_t)d.ctrl, "monitor_frames",
                                              (json_int_t)d.monitor, "viewer_frames",
                                              (json_int_t)d.viewer, "events",
                                              (json_int_t)d.events, "recorder_snapshots",
                                              (json_int_t)d.rec_snaps, "recorder_events",
                                              (json_int_t)d.rec_events));
    json_object_set_new(o, "broadcast", mgw_bcast_json(g));
    json_object_set_new(o, "gateways", gateways_json(g));
    json_object_set_new(o, "sim", json_pack("{s:i, s:i, s:i}", "pid", (int)r->hdr.sim_pid,
                                            "supervisor_pid", (int)r->hdr.super_pid,
                                            "restarts",
                                            (int)atomic_load(&r->hdr.sim_restarts)));
    json_object_set_new(o, "exit", over ? json_pack("{s:i, s:s}", "code", u->exit_code,
                                                    "reason", u->exit_reason)
                                        : json_null());
    return o;
}

static void reply(struct evhttp_request *req, const char *type, struct evbuffer *b)
{
    struct evkeyvalq *h = evhttp_request_get_output_headers(req);
    evhttp_add_header(h, "Content-Type", type);
    evhttp_add_header(h, "Cache-Control", "no-cache");
    evhttp_add_header(h, "Access-Control-Allow-Origin", "*");
    evhttp_send_reply(req, HTTP_OK, "OK", b);
}

static void on_status(struct evhttp_request *req, void *arg)
{
    mgw_status_t *st = arg;
    json_t *o = status_json(st->g);
    char *text = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    struct evbuffer *b = evbuffer_new();
    if (!text || !b) {
        evhttp_send_error(req, HTTP_INTERNAL, NULL);
    } else {
        evbuffer_add_printf(b, "%s\n", text);
        reply(req, "application/json", b);
    }
    if (b)
        evbuffer_free(b);
    free(text);
    json_decref(o);
}

/* ---- /metrics ---------------------------------------------------------------------------- */
static void metric(struct evbuffer *b, const char *name, const char *type, const char *help)
{
    evbuffer_add_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void metrics_cycle(struct evbuffer *b, const shm_runner_sh_t *u)
{
    uint64_t n = u->cycles;
    metric(b, "rcss_cycles_total", "counter", "Simulation cycles published.");
    evbuffer_add_printf(b, "rcss_cycles_total %llu\n", (unsigned long long)n);
    metric(b, "rcss_cycle_period_seconds", "summary", "Time between two published cycles.");
    evbuffer_add_printf(b, "rcss_cycle_period_seconds_sum %.9f\nrcss_cycle_period_seconds_count %llu\n",
                        (double)u->period_sum_ns / 1e9, (unsigned long long)(n > 0 ? n - 1 : 0));
    metric(b, "rcss_cycle_period_last_seconds", "gauge", "The last cycle period.");
    evbuffer_add_printf(b, "rcss_cycle_period_last_seconds %.9f\n", (double)u->period_ns / 1e9);
    metric(b, "rcss_cycle_period_max_seconds", "gauge", "The longest cycle period.");
    evbuffer_add_printf(b, "rcss_cycle_period_max_seconds %.9f\n", (double)u->period_max_ns / 1e9);
    metric(b, "rcss_cycle_jitter_seconds", "gauge",
           "Smoothed difference between consecutive cycle periods (gain 1/16).");
    evbuffer_add_printf(b, "rcss_cycle_jitter_seconds %.9f\n", (double)u->jitter_ns / 1e9);
    metric(b, "rcss_publish_seconds", "summary",
           "The sim's work per cycle: commands, step and publish.");
    evbuffer_add_printf(b, "rcss_publish_seconds_sum %.9f\nrcss_publish_seconds_count %llu\n",
                        (double)u->publish_sum_ns / 1e9, (unsigned long long)n);
    metric(b, "rcss_publish_last_seconds", "gauge", "The sim's work in the last cycle.");
    evbuffer_add_printf(b, "rcss_publish_last_seconds %.9f\n", (double)u->publish_ns / 1e9);
    metric(b, "rcss_publish_max_seconds", "gauge", "The sim's longest cycle of work.");
    evbuffer_add_printf(b, "rcss_publish_max_seconds %.9f\n", (double)u->publish_max_ns / 1e9);
    metric(b, "rcss_clock_late_steps_total", "counter",
           "Real-time steps more than a poll late (the sim's grid moved with them).");
    evbuffer_add_printf(b, "rcss_clock_late_steps_total %llu\n",
                        (unsigned long long)u->late_steps);
}

static void metrics_clients(struct evbuffer *b, const mgw_t *g)
{
    const shm_region_sh_t *r = g->r;
    int n[3] = { 0, 0, 0 };
    for (int i = 0; i < SHM_MAX_CLIENTS; i++) {
        if (atomic_load(&r->client[i].state) == CLIENT_ST_ACTIVE)
            n[i < SHM_MAX_PLAYERS ? 0 : i == SHM_COACH_TRAINER ? 1 : 2]++;
    }
    metric(b, "rcss_clients", "gauge", "Connected clients by kind.");
    evbuffer_add_printf(b, "rcss_clients{kind=\"player\"} %d\nrcss_clients{kind=\"trainer\"} %d\n"
                        "rcss_clients{kind=\"coach\"} %d\n", n[0], n[1], n[2]);
    metric(b, "rcss_monitors", "gauge", "Monitors served.");
    evbuffer_add_printf(b, "rcss_monitors %u\n", atomic_load(&r->montab.count));
    metric(b, "rcss_viewers", "gauge", "Browser viewers of the show stream.");
    evbuffer_add_printf(b, "rcss_viewers %d\n", mgw_http_viewers(g) < 0 ? 0 : mgw_http_viewers(g));
    metric(b, "rcss_synch_misses_total", "counter",
           "Synch-mode cycles a client let pass without its (done).");
    evbuffer_add_printf(b, "rcss_synch_misses_total %llu\n", (unsigned long long)r->runner.misses);
    metric(b, "rcss_client_misses_total", "counter", "Synch-mode misses of one client.");
    metric(b, "rcss_client_connections_total", "counter", "(Re)connections of one client.");
    for (int i = 0; i < SHM_MAX_CLIENTS; i++) {
        const shm_client_stat_sh_t *cs = &r->runner.client[i];
        if (cs->connects == 0)
            continue;
        int k = client_side(i);
        char labels[64];
        if (i < SHM_MAX_PLAYERS)
            snprintf(labels, sizeof labels, "client=\"player\",side=\"%s\",unum=\"%d\"",
                     k == 0 ? "l" : "r", i % SHM_TEAM_SIZE + 1);
        else
            snprintf(labels, sizeof labels, "client=\"%s\",side=\"%s\"", client_kind(i),
                     k == 0 ? "l" : k == 1 ? "r" : "");
        evbuffer_add_printf(b, "rcss_client_misses_total{%s} %llu\n", labels,
                            (unsigned long long)cs->misses);
        evbuffer_add_printf(b, "rcss_client_connections_total{%s} %u\n", labels, cs->connects);
    }
}

static void on_metrics(struct evhttp_request *req, void *arg)
{
    mgw_status_t *st = arg;
    const mgw_t *g = st->g;
    const shm_runner_sh_t *u = &g->r->runner;
    struct evbuffer *b = evbuffer_new();
    if (!b) {
        evhttp_send_error(req, HTTP_INTERNAL, NULL);
        return;
    }
    st_drops_t d;
    drops(g, &d);
    metric(b, "rcss_ready", "gauge", "1 once every gateway is up.");
    evbuffer_add_printf(b, "rcss_ready %d\n", atomic_load(&u->ready) ? 1 : 0);
    metric(b, "rcss_game_time", "gauge", "Game time (cycles) of the newest snapshot.");
    evbuffer_add_printf(b, "rcss_game_time %d\n", g->snap.time);
    metric(b, "rcss_episode", "gauge", "Resets so far.");
    evbuffer_add_printf(b, "rcss_episode %u\n", g->snap.episode);
    metric(b, "rcss_score", "gauge", "Goals of each side.");
    evbuffer_add_printf(b, "rcss_score{side=\"l\"} %d\nrcss_score{side=\"r\"} %d\n",
                        g->snap.score[0], g->snap.score[1]);
    metrics_cycle(b, u);
    metrics_clients(b, g);
    metric(b, "rcss_drops_total", "counter", "Things dropped because a reader or ring was full.");
    evbuffer_add_printf(b, "rcss_drops_total{what=\"commands\"} %llu\n"
                        "rcss_drops_total{what=\"control\"} %llu\n"
                        "rcss_drops_total{what=\"monitor_frames\"} %llu\n"
                        "rcss_drops_total{what=\"viewer_frames\"} %llu\n"
                        "rcss_drops_total{what=\"events\"} %llu\n"
                        "rcss_drops_total{what=\"recorder_snapshots\"} %llu\n"
                        "rcss_drops_total{what=\"recorder_events\"} %llu\n",
                        (unsigned long long)d.cmd, (unsigned long long)d.ctrl,
                        (unsigned long long)d.monitor, (unsigned long long)d.viewer,
                        (unsigned long long)d.events, (unsigned long long)d.rec_snaps,
                        (unsigned long long)d.rec_events);
    uint64_t bc_pub, bc_drop;
    mgw_bcast_totals(g, &bc_pub, &bc_drop);
    metric(b, "rcss_broadcast_frames_total", "counter",
           "Frames published to the broadcast tier (every URL), and dropped.");
    evbuffer_add_printf(b, "rcss_broadcast_frames_total{result=\"published\"} %llu\n"
                        "rcss_broadcast_frames_total{result=\"dropped\"} %llu\n",
                        (unsigned long long)bc_pub, (unsigned long long)bc_drop);
    reply(req, "text/plain; version=0.0.4; charset=utf-8", b);
    evbuffer_free(b);
}

/* ---- registration -------------------------------------------------------------------------- */
int mgw_status_start(mgw_t *g, struct evhttp *http)
{
    mgw_status_t *st = calloc(1, sizeof *st);
    if (!st)
        return -1;
    st->g = g;
    g->status = st;
    /* from where a previous monitorgw stopped, if that is still in the ring */
    uint64_t head = shm_event_head(g->r), read = atomic_load(&g->r->runner.mgw_event_read);
    st->cursor = head - read < SHM_EVENT_SLOTS / 2 ? read : head;
    evhttp_set_cb(http, "/status", on_status, st);
    evhttp_set_cb(http, "/metrics", on_metrics, st);
    evhttp_set_cb(http, "/match/events", on_match_events, st);
    return 0;
}

void mgw_status_stop(mgw_t *g)
{
    mgw_status_t *st = g->status;
    if (!st)
        return;
    sse_stream_clear(&st->viewers); /* evhttp_free closed their connections */
    for (int i = 0; i < MGW_ST_BACKLOG; i++)
        sse_ev_unref(st->backlog[i]);
    free(st);
    g->status = NULL;
}

int mgw_status_fd_room(const mgw_t *g)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return 1;
    int viewers = mgw_http_viewers(g);
    long used = (long)g->npeers + (viewers > 0 ? viewers : 0) + MGW_FD_RESERVE;
    return used < (long)rl.rlim_cur;
}
