/* test_063_broadcast.c -- the viewers beyond one host (issue 27; README "Broadcasting a
 * match"): a real-time server whose monitorgw publishes every frame
 * (server::broadcast_url) to a tier started by scripts/broadcast/tier-local.sh: two real
 * nginx nodes with the nchan module sharing their channel through a real Redis, all on
 * 127.0.0.1 and free ports, stopped by their pids at the end.
 *   - a viewer reading node 2 that goes away and comes back to node 1 with the
 *     Last-Event-ID of the last frame it got gets every frame it missed, in order, then
 *     the live ones (the publish numbers in the frames' stamps have no gap); the same
 *     for a WebSocket viewer (nchan's ws+meta.nchan subprotocol, ?last_event_id=),
 *     whose handshake answer carries the Sec-WebSocket-Accept of its key;
 *   - rcss-viewload opens 10,000 viewers, half server-sent events and half WebSocket,
 *     spread over both nodes: every one connects and gets frames;
 *   - the sim's publish timing does not move: the p90 of how far each cycle's publish
 *     strays from its period (the publish instants the sim stamps into the snapshots
 *     of its region, as rcss-clockbench reads them) over 50 cycles while the 10,000
 *     viewers watch is within 10 ms (one poll of the sim's timer grid) of the same
 *     figure over 50 cycles before, the tier running and publishing but nobody
 *     watching. The tier, the viewers and the server share one machine here: the tier
 *     and the viewers are kept on its last core (taskset, rcss-viewload --cpus),
 *     standing in for the other hosts they run on in a deployment; the server is not
 *     pinned (on a one-core machine everything shares that core).
 * And the publisher's failures: three more URLs, a closed port, a location answering 403
 * and a listener that never answers, are "down" in /status with what failed (a log line
 * says so), while the URL of node 1 stays "up" and publishing.
 * Skipped only when nginx, its nchan module or redis-server is not installed
 * (scripts/install-deps.sh installs them). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <poll.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "e2e.h"
#include "e2e_http.h"
#include "e2e_proc.h"
#include "e2e_runner.h"
#include "frame_stamp.h"
#include "shm.h"
#include "sse_read.h"
#include "ws_frame.h"

#define VIEWERS   10000
#define CYCLES    50              /* each timing window: 5 s of real time */
#define TOL_MS    10.0            /* the p90 may grow by this much, no more: a poll of the
                                     sim's timer grid (a step within a poll of its due time
                                     keeps its place on the sensor grid, sim/sim_clock.c) */

static char base[] = "/tmp/rcss-e2e-tier-XXXXXX";
static char tier[300];
static int  tier_up;

static void stop_tier(void)
{
    char cmd[600];
    if (tier_up) {
        snprintf(cmd, sizeof cmd, "scripts/broadcast/tier-local.sh stop '%s' >/dev/null 2>&1", tier);
        cr_expect_eq(system(cmd), 0, "tier-local.sh stop failed");
        tier_up = 0;
    }
    if (base[strlen(base) - 1] != 'X') {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
        cr_expect_eq(system(cmd), 0);
    }
}

/* the value of NAME=... in the tier's env lines (quotes dropped) */
static void env_value(const char *env, const char *name, char *out, size_t len)
{
    char key[64];
    snprintf(key, sizeof key, "%s=", name);
    const char *p = strstr(env, key);
    out[0] = '\0';
    if (!p)
        return;
    p += strlen(key);
    if (*p == '"')
        p++;
    size_t n = strcspn(p, "\"\n");
    snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), p);
}

/* a TCP port on 127.0.0.1 that nobody listens on (bound, then closed) */
static int closed_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in a = { .sin_family = AF_INET };
    socklen_t l = sizeof a;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    cr_assert(fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0
              && getsockname(fd, (struct sockaddr *)&a, &l) == 0);
    close(fd);
    return ntohs(a.sin_port);
}

static int url_port(const char *url)
{
    const char *c = strstr(url, "127.0.0.1:");
    return c ? atoi(c + 10) : -1;
}

/* ---- one viewer by hand (the resume check) ------------------------------------------- */
typedef struct got {
    int      n;
    uint64_t seq[256];
    char     id[SSE_READ_ID];      /* the last event's id */
} got_t;

static void on_event(void *arg, const char *id, const char *data, size_t len)
{
    got_t *g = arg;
    uint64_t seq;
    int64_t us;
    if (g->n < 256 && frame_stamp_read(data, len, &seq, &us) == 0)
        g->seq[g->n++] = seq;
    snprintf(g->id, sizeof g->id, "%s", id);
}

/* read events from the stream at port/path until want of them or timeout_ms */
static void watch(int port, const char *path, const char *last_id, int want, int timeout_ms,
                  got_t *g)
{
    int fd = e2e_tcp_connect(port);
    cr_assert_geq(fd, 0, "cannot connect to node port %d", port);
    char req[512], buf[65536];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                     "Accept: text/event-stream\r\n%s%s%s\r\n", path, port,
                     last_id ? "Last-Event-ID: " : "", last_id ? last_id : "",
                     last_id ? "\r\n" : "");
    cr_assert_eq(write(fd, req, (size_t)n), n);
    size_t have = e2e_read_until(fd, buf, sizeof buf, 0, 3000, "\r\n\r\n");
    char *end = strstr(buf, "\r\n\r\n");
    cr_assert_not_null(end, "no answer from the tier: %.200s", buf);
    cr_assert(strncmp(buf, "HTTP/1.1 200", 12) == 0, "%.200s", buf);
    sse_read_t r;
    memset(&r, 0, sizeof r);
    r.chunked = strstr(buf, "chunked") != NULL && strstr(buf, "chunked") < end;
    size_t off = (size_t)(end + 4 - buf);
    sse_read_feed(&r, buf + off, have - off, on_event, g);
    double until = e2e_now_ms() + timeout_ms;
    while (g->n < want && e2e_now_ms() < until) {
        struct pollfd pf = { .fd = fd, .events = POLLIN };
        if (poll(&pf, 1, 200) <= 0)
            continue;
        ssize_t k = read(fd, buf, sizeof buf);
        if (k <= 0)
            break;
        cr_assert_eq(sse_read_feed(&r, buf, (size_t)k, on_event, g), 0);
    }
    close(fd);
}

/* the same over WebSocket with the ids of ws+meta.nchan, resuming with ?last_event_id= */
typedef struct ws_got {
    ws_read_t r;
    got_t    *g;
} ws_got_t;

static void on_ws_msg(void *arg, int opcode, const char *data, size_t len)
{
    ws_got_t *w = arg;
    if (opcode != WS_OP_TEXT && opcode != WS_OP_BINARY)
        return;
    char id[SSE_READ_ID];
    if (ws_meta_id(&w->r, id, sizeof id) >= 0)
        on_event(w->g, id, data, len);
}

static void watch_ws(int port, const char *path, const char *last_id, int want, int timeout_ms,
                     got_t *g)
{
    int fd = e2e_tcp_connect(port);
    cr_assert_geq(fd, 0, "cannot connect to node port %d", port);
    char target[512], req[1024], key[25], acc[29];
    static char buf[65536];
    cr_assert_gt(ws_resume_target(target, sizeof target, path, last_id), 0);
    const uint8_t nonce[16] = { 'r', 'c', 's', 's', 'w', 's', 'r', 'e', 's', 'u', 'm', 'e',
                                (uint8_t)port, (uint8_t)(port >> 8), (uint8_t)want, 1 };
    ws_key(nonce, key);
    ws_accept(key, acc);
    char host[32];
    snprintf(host, sizeof host, "127.0.0.1:%d", port);
    size_t n = ws_handshake(req, sizeof req, host, target, key, WS_META_PROTOCOL);
    cr_assert_gt(n, 0);
    cr_assert_eq(write(fd, req, n), (ssize_t)n);
    size_t have = e2e_read_until(fd, buf, sizeof buf, 0, 3000, "\r\n\r\n");
    char *end = strstr(buf, "\r\n\r\n");
    cr_assert_not_null(end, "no WebSocket answer from the tier: %.200s", buf);
    cr_assert(strncmp(buf, "HTTP/1.1 101", 12) == 0, "%.300s", buf);
    char want_acc[64];
    snprintf(want_acc, sizeof want_acc, "Sec-WebSocket-Accept: %s\r\n", acc);
    cr_assert(strcasestr(buf, want_acc) != NULL && strcasestr(buf, want_acc) < end,
              "want %s in %.300s", acc, buf);
    cr_assert(strcasestr(buf, "Sec-WebSocket-Protocol: ws+meta.nchan") != NULL, "%.300s", buf);
    static ws_got_t w;
    memset(&w, 0, sizeof w);
    w.g = g;
    size_t off = (size_t)(end + 4 - buf);
    cr_assert_eq(ws_read_feed(&w.r, (const uint8_t *)buf + off, have - off, on_ws_msg, &w), 0);
    double until = e2e_now_ms() + timeout_ms;
    while (g->n < want && e2e_now_ms() < until) {
        struct pollfd pf = { .fd = fd, .events = POLLIN };
        if (poll(&pf, 1, 200) <= 0)
            continue;
        ssize_t k = read(fd, buf, sizeof buf);
        if (k <= 0)
            break;
        cr_assert_eq(ws_read_feed(&w.r, (const uint8_t *)buf, (size_t)k, on_ws_msg, &w), 0);
    }
    close(fd);
}

/* A viewer (watch or watch_ws) gets 5 frames from node `from`, goes away 1.5 s (about
 * 15 frames) and comes back on node `to` with the id of the last one: every frame since,
 * in order, then the live ones (no gap in the stamps' publish numbers). */
typedef void (*watch_fn)(int port, const char *path, const char *last_id, int want,
                         int timeout_ms, got_t *g);

static void resume_check(const char *how, watch_fn watch_on, int from, int to,
                         const char *path)
{
    static got_t a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    watch_on(from, path, NULL, 5, 3000, &a);
    cr_assert_geq(a.n, 5, "port %d gave %d %sframes", from, a.n, how);
    cr_assert(a.id[0], "no %sevent ids from the tier", how);
    for (int i = 1; i < a.n; i++)
        cr_expect_eq(a.seq[i], a.seq[i - 1] + 1, "a %sgap on port %d at %d", how, from, i);
    usleep(1500000);
    watch_on(to, path, a.id, 25, 5000, &b);
    cr_assert_geq(b.n, 25, "port %d gave %d %sframes after the id %s", to, b.n, how, a.id);
    cr_expect_eq(b.seq[0], a.seq[a.n - 1] + 1, "%sresumed at %llu after %llu", how,
                 (unsigned long long)b.seq[0], (unsigned long long)a.seq[a.n - 1]);
    for (int i = 1; i < b.n; i++)
        cr_expect_eq(b.seq[i], b.seq[i - 1] + 1, "a %sgap after the resume at %d", how, i);
    fprintf(stderr, "broadcast: %sresumed on the other node at publish %llu after %llu, "
                    "%d frames in order\n", how, (unsigned long long)b.seq[0],
            (unsigned long long)a.seq[a.n - 1], b.n);
}

/* ---- the sim's publish timing ---------------------------------------------------------- */
static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* over the next n cycles the sim publishes: p99 of |period - step| (ms), its p90
 * (*p90), and p99 of how late after its grid time each was published (*late_p99) */
static double publish_p99(const char *shm_name, int n, double *p90, double *late_p99)
{
    shm_handle_t h;
    char err[SHM_ERR_LEN];
    cr_assert_eq(shm_region_attach(&h, shm_name, err, sizeof err), 0, "%s", err);
    static shm_snapshot_sh_t snap;
    int64_t pub[CYCLES + 1], dev[CYCLES], late[CYCLES + 1];
    uint64_t first = atomic_load(&h.r->hdr.published) + 1;
    int got = 0;
    double until = e2e_now_ms() + (n + 20) * 200.0;
    while (got <= n && e2e_now_ms() < until) {
        uint64_t now = atomic_load(&h.r->hdr.published);
        while (got <= n && first + (uint64_t)got <= now) {
            cr_assert_eq(shm_snap_read(h.r, first + (uint64_t)got, &snap), 0);
            pub[got] = snap.publish_ns;
            late[got++] = snap.publish_ns - snap.grid_ns;
        }
        usleep(20000);
    }
    int64_t step = h.r->hdr.step_ns;
    shm_region_detach(&h);
    cr_assert_eq(got, n + 1, "the sim published %d of %d cycles", got, n + 1);
    for (int i = 0; i < n; i++) {
        int64_t d = pub[i + 1] - pub[i] - step;
        dev[i] = d < 0 ? -d : d;
    }
    qsort(dev, (size_t)n, sizeof *dev, cmp_i64);
    qsort(late, (size_t)n + 1, sizeof *late, cmp_i64);
    *late_p99 = late[(n + 1) * 99 / 100] / 1e6;
    *p90 = dev[n * 90 / 100] / 1e6;
    return dev[n * 99 / 100] / 1e6;
}

static json_t *status(int http)
{
    static char body[262144];
    cr_assert_eq(e2e_http_get(http, "/status", body, sizeof body), 200);
    json_t *s = json_loads(body, 0, NULL);
    cr_assert_not_null(s, "%.300s", body);
    return s;
}

static json_int_t broadcast_field(int http, const char *k, char *state, size_t len)
{
    json_t *s = status(http);
    json_t *b = json_array_get(json_object_get(s, "broadcast"), 0);
    cr_assert_not_null(b, "no broadcast in /status");
    if (state)
        snprintf(state, len, "%s", json_string_value(json_object_get(b, "state")));
    json_int_t v = json_integer_value(json_object_get(b, k));
    json_decref(s);
    return v;
}

Test(broadcast, tier_of_two_nodes_10000_viewers_resume_and_publish_timing, .timeout = 180,
     .fini = stop_tier)
{
    if (system("command -v nginx >/dev/null && command -v redis-server >/dev/null") != 0)
        cr_skip_test("nginx or redis-server is not installed (scripts/install-deps.sh installs "
                     "nginx, libnginx-mod-nchan and redis-server)");
    if (access("/usr/lib/nginx/modules/ngx_nchan_module.so", R_OK) != 0)
        cr_skip_test("the nchan module is not installed (libnginx-mod-nchan; "
                     "scripts/install-deps.sh installs it)");
    cr_assert_not_null(mkdtemp(base));
    snprintf(tier, sizeof tier, "%s/tier", base);

    /* the tier, as a user starts it */
    char cmd[800], env[4096], publish[256], events[600], pages[600];
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    char cpus[24];
    snprintf(cpus, sizeof cpus, "%ld", ncpu > 1 ? ncpu - 1 : 0);
    snprintf(cmd, sizeof cmd, "taskset -c %s scripts/broadcast/tier-local.sh start '%s' 2", cpus,
             tier);
    int st = e2e_sh(cmd, env, sizeof env);
    cr_assert_eq(st, 0, "tier-local.sh start failed (status %d): %s", st, env);
    tier_up = 1;
    env_value(env, "TIER_PUBLISH", publish, sizeof publish);
    env_value(env, "TIER_EVENTS", events, sizeof events);
    env_value(env, "TIER_PAGES", pages, sizeof pages);
    char ev1[300], ev2[300];
    cr_assert_eq(sscanf(events, "%299s %299s", ev1, ev2), 2, "two nodes: %s", events);
    int port1 = url_port(ev1), port2 = url_port(ev2);
    cr_assert(port1 > 0 && port2 > 0 && port1 != port2, "%s", events);
    const char *path = strstr(ev1 + 7, "/");

    /* the server, publishing to node 1, and to three URLs that fail: a port nobody
     * listens on, a location of the node that answers 403, and a listener that never
     * answers (the test's own socket, never accepted) */
    int mute = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in ma = { .sin_family = AF_INET };
    socklen_t ml = sizeof ma;
    ma.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    cr_assert(mute >= 0 && bind(mute, (struct sockaddr *)&ma, sizeof ma) == 0
              && listen(mute, 4) == 0 && getsockname(mute, (struct sockaddr *)&ma, &ml) == 0);
    int closed = closed_port();
    char bc[900];
    snprintf(bc, sizeof bc, "server::broadcast_url=%s,http://127.0.0.1:%d/pub/live,"
             "http://127.0.0.1:%d/match/live/cmd,http://127.0.0.1:%d/pub/live", publish,
             closed, url_port(publish), ntohs(ma.sin_port));
    const char *args[] = { "server::port=0", "server::coach_port=0", "server::olcoach_port=0",
                           "server::http_port=-1", bc, NULL };
    e2e_srv_t srv;
    cr_assert_eq(e2e_srv_start(&srv, args, NULL), 0);
    char state[32] = "";
    double until = e2e_now_ms() + 5000;
    while (broadcast_field(srv.http_port, "published", state, sizeof state) < 5
           && e2e_now_ms() < until)
        usleep(100000);
    cr_assert_str_eq(state, "up");

    /* the failing URLs are down, with what failed, and cost nothing else */
    until = e2e_now_ms() + 8000;
    json_t *bcs = NULL;
    for (;;) {
        json_t *s = status(srv.http_port);
        bcs = json_incref(json_object_get(s, "broadcast"));
        json_decref(s);
        int down = 0;
        for (int i = 1; i < 4; i++)
            down += strcmp(json_string_value(json_object_get(json_array_get(bcs, (size_t)i),
                                                             "state")), "down") == 0
                 && json_integer_value(json_object_get(json_array_get(bcs, (size_t)i),
                                                       "failures")) > 0;
        if (down == 3 || e2e_now_ms() > until)
            break;
        json_decref(bcs);
        usleep(200000);
    }
    cr_assert_eq(json_array_size(bcs), 4);
    const char *why[4];
    for (int i = 0; i < 4; i++) {
        json_t *b = json_array_get(bcs, (size_t)i);
        why[i] = json_string_value(json_object_get(b, "last_error"));
        cr_expect_str_eq(json_string_value(json_object_get(b, "state")), i ? "down" : "up",
                         "URL %d: %s", i, why[i]);
    }
    cr_expect(strstr(why[1], "no answer"), "%s", why[1]);
    cr_expect(strstr(why[2], "HTTP 403"), "%s", why[2]);
    cr_expect(strstr(why[3], "no answer"), "%s", why[3]);
    json_decref(bcs);
    char log[65536];
    e2e_srv_output(&srv, log, sizeof log);
    cr_expect(strstr(log, "broadcast: cannot publish to http://127.0.0.1:"), "%s", log);

    /* the page from a node: the same page, which opens "events" next to itself */
    char page1[300], body[65536];
    cr_assert_eq(sscanf(pages, "%299s", page1), 1);
    cr_assert_eq(e2e_http_get(url_port(page1), strstr(page1 + 7, "/"), body, sizeof body), 200);
    cr_expect(strstr(body, "new EventSource(\"events\")") != NULL, "%.200s", body);

    /* resume: 5 frames on one node, away 1.5 s (about 15 frames), back on the other */
    resume_check("", watch, port2, port1, path);
    resume_check("WebSocket ", watch_ws, port1, port2, path);

    /* the sim's publish timing with nobody watching */
    double late0, late1, q0, q1;
    double p0 = publish_p99(srv.shm, CYCLES, &q0, &late0);

    /* 10,000 viewers over both nodes, half of them WebSockets */
    char urls[700], pids[512];
    snprintf(urls, sizeof urls, "%s,%s", ev1, ev2);
    snprintf(cmd, sizeof cmd, "scripts/broadcast/tier-local.sh pids '%s'", tier);
    cr_assert_eq(e2e_sh(cmd, pids, sizeof pids), 0);
    pids[strcspn(pids, "\n")] = '\0';
    char nview[16];
    snprintf(nview, sizeof nview, "%d", VIEWERS);
    const char *vl[] = { "rcss-viewload", "--url", urls, "--viewers", nview, "--mode", "mix",
                         "--seconds", "7", "--ramp-ms", "2000", "--pids", pids, "--cpus", cpus,
                         "--json", NULL };
    static e2e_proc_t p;
    cr_assert_eq(e2e_proc_start(&p, vl), 0);
    usleep(3200000); /* the ramp (2 s) and its second of settling */
    double p1 = publish_p99(srv.shm, CYCLES, &q1, &late1);
    char line[8192];
    cr_assert_eq(e2e_proc_line(&p, line, sizeof line, 30000), 1, "no figures from rcss-viewload");
    cr_expect_eq(e2e_proc_wait(&p, 5000), 0);
    fprintf(stderr, "broadcast: %s\n", line);
    json_t *r = json_loads(line, 0, NULL);
    cr_assert_not_null(r, "%s", line);
    cr_expect_eq(json_integer_value(json_object_get(r, "connected")), VIEWERS, "%s", line);
    cr_expect_eq(json_integer_value(json_object_get(r, "bad_accept")), 0, "%s", line);
    cr_expect_eq(json_integer_value(json_object_get(r, "with_frames")), VIEWERS, "%s", line);
    cr_expect_geq(json_integer_value(json_object_get(r, "frames_min")), 1, "%s", line);
    cr_expect_eq(json_integer_value(json_object_get(r, "ws")), VIEWERS / 2);
    json_decref(r);

    fprintf(stderr, "broadcast: the sim's publish timing, |period - 100 ms| over %d "
                    "cycles, p90 / p99: %.3f / %.3f ms with nobody watching, %.3f / %.3f ms "
                    "with %d viewers (publish after grid time p99 %.3f / %.3f ms)\n",
            CYCLES, q0, p0, q1, p1, VIEWERS, late0, late1);
    /* The p90, not the p99: of 50 periods the p99 is the worst one, and on a shared
     * virtual machine the host takes the vCPUs away for 10-20 ms now and then, with or
     * without viewers (7-16 % steal time under load, vmstat), which moves one period
     * whatever the server does; a server whose viewers reach the sim moves many. */
    cr_expect_leq(q1, q0 + TOL_MS, "publish p90 %.3f ms with viewers, %.3f ms without", q1, q0);

    /* monitorgw published to the tier all along, its /status says so */
    json_int_t published = broadcast_field(srv.http_port, "published", state, sizeof state);
    cr_expect_str_eq(state, "up");
    cr_expect_gt(published, 100);
    cr_expect_eq(e2e_srv_stop(&srv), 0);
    e2e_srv_clean(&srv);
    close(mute);
}
