/* rcss-viewload.c -- N browser viewers at once against a frame stream: the broadcast
 * tier's nchan subscribers (server-sent events or WebSocket) or monitorgw's own /events
 * (server-sent events). Each viewer is one non-blocking TCP connection on one libevent
 * loop; it reads the stream as a browser would (common/sse_read.h, common/ws_frame.h)
 * and reads each frame's stamp (common/frame_stamp.h): the sim's publish number (a jump
 * is a gap) and publish time (wall clock: the latency from the sim's publish to the
 * viewer). After the ramp (every viewer connecting) and a second of settling it measures
 * for S seconds: frames per viewer, frames per second per viewer, gaps, latency p50/p99/
 * max, and the CPU of the given processes (from /proc/PID/stat) and its own. A viewer
 * whose connection ends connects again after a second, as EventSource does, with the
 * Last-Event-ID of the last frame it got. A WebSocket viewer asks for nchan's
 * ws+meta.nchan subprotocol (each message starts with its id), checks the server's
 * Sec-WebSocket-Accept against its key, and comes back with ?last_event_id= as nchan's
 * own client does.
 *
 * usage: rcss-viewload --url URL[,URL...] --viewers N [--mode sse|ws|mix] [--seconds S]
 *                      [--pids [NAME=]PID,...] [--ramp-ms MS] [--cpus LIST] [--json|--row]
 * --cpus 1 or 2-3,5 keeps it on those cores (sched_setaffinity), away from the server's.
 * --row prints the figures as one line of a table (scripts/bench-viewers.sh; --row-head
 * its head): the CPU summed per process name, the CPU of every listed process but
 * monitorgw and of rcss-viewload itself per viewer and second (us), and "ok" when every
 * viewer got at least 98 % of 10 frames a second.
 * URL is http://HOST:PORT/PATH; viewer i takes URL i mod the count; mix makes every
 * second viewer a WebSocket. Exit status 0 when it measured (whatever the figures), 1 when
 * it could not start, 2 on a usage error. */
#include <arpa/inet.h>
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <jansson.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <event2/event.h>
#include "bcast_url.h"
#include "frame_stamp.h"
#include "sse_read.h"
#include "ws_frame.h"

#define VL_HEAD_MAX   4096          /* a response head */
#define VL_READ       (64 * 1024)   /* one read */
#define VL_LAT_US     50            /* latency histogram: 50 us buckets ... */
#define VL_LAT_N      (600000)      /* ... up to 30 s */
#define VL_MAX_PIDS   32
#define VL_SETTLE_MS  1000          /* after the ramp, before measuring */
#define VL_RETRY_MS   1000          /* a viewer whose connection ended connects again */
#define VL_ANSWER_MS  5000          /* ... and one not answered within this long */

enum { V_IDLE, V_CONNECTING, V_HEAD, V_BODY };

typedef struct viewer {
    int            idx, url, ws;
    int            fd, state;
    struct event  *ev, *retry;
    char          *head;            /* the response head while it is read */
    size_t         hlen;
    union {
        sse_read_t sse;
        ws_read_t  ws;
    } rd;
    char           last_id[SSE_READ_ID];
    char           key[25];         /* a WebSocket viewer's Sec-WebSocket-Key */
    uint64_t       last_seq;
    uint64_t       frames, wframes; /* all, in the window */
    uint64_t       gaps;            /* frames missed (publish numbers skipped) */
    int            connected;       /* the stream answered */
    int            ever;            /* ... at least once */
} viewer_t;

typedef struct pidcpu {
    char   name[32];
    int    pid;
    double t0, t1;                  /* cpu seconds at the window's start and end */
} pidcpu_t;

static struct {
    struct event_base *base;
    bcast_url_t        url[BCAST_URL_MAX];
    struct sockaddr_storage addr[BCAST_URL_MAX];
    socklen_t          alen[BCAST_URL_MAX];
    char               hosthdr[BCAST_URL_MAX][160];
    int                nurl;
    viewer_t          *v;
    int                n, opened;
    int                mode;        /* 0 sse, 1 ws, 2 mix */
    double             seconds;
    int                ramp_ms;
    int                json, row;
    pidcpu_t           pid[VL_MAX_PIDS];
    int                npid;
    double             self0, self1;
    int                window;      /* measuring */
    int64_t            w0_ns, w1_ns;
    uint32_t          *lat;         /* histogram, in the window */
    uint64_t           nlat, neg_lat;
    double             lat_max_ms;
    uint64_t           failed, reconnects, bad;
    uint64_t           bad_accept;      /* WebSocket answers with a wrong Sec-WebSocket-Accept */
    struct event      *ramp_ev, *phase_ev;
    char               rbuf[VL_READ];
} L;

static int64_t mono_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int64_t wall_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (int64_t)t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}

/* ---- /proc ---------------------------------------------------------------------------- */
/* utime + stime of pid in seconds, -1 if it is gone */
static double proc_cpu(int pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')');
    unsigned long ut, st;
    /* after the name: state ppid pgrp session tty tpgid flags minflt cminflt majflt
     * cmajflt utime stime */
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
        return -1;
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

static void proc_name(int pid, char *out, size_t len)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/comm", pid);
    FILE *f = fopen(path, "r");
    out[0] = '\0';
    if (f) {
        if (fgets(out, (int)len, f))
            out[strcspn(out, "\n")] = '\0';
        fclose(f);
    }
    if (!out[0])
        snprintf(out, len, "pid");
}

/* ---- one viewer ----------------------------------------------------------------------- */
static void viewer_open(viewer_t *v);

static void viewer_drop(viewer_t *v);

/* the retry timer: a viewer that waits connects again; one whose connection or answer
 * takes longer than VL_ANSWER_MS is dropped (and connects again later) */
static void on_retry(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    viewer_t *v = arg;
    if (v->state == V_CONNECTING || v->state == V_HEAD) {
        viewer_drop(v);
        return;
    }
    if (v->state != V_IDLE)
        return;
    L.reconnects++;
    viewer_open(v);
}

/* the connection ended (or never was): close, and again in VL_RETRY_MS */
static void viewer_drop(viewer_t *v)
{
    if (v->ev) {
        event_free(v->ev);
        v->ev = NULL;
    }
    if (v->fd >= 0)
        close(v->fd);
    v->fd = -1;
    free(v->head);
    v->head = NULL;
    if (!v->ever)
        L.failed++;
    v->connected = 0;
    v->state = V_IDLE;
    struct timeval tv = { VL_RETRY_MS / 1000, (VL_RETRY_MS % 1000) * 1000 };
    evtimer_add(v->retry, &tv);
}

static void frame(viewer_t *v, const char *data, size_t len)
{
    uint64_t seq;
    int64_t us;
    if (frame_stamp_read(data, len, &seq, &us) < 0) {
        L.bad++;
        return;
    }
    if (v->last_seq && seq > v->last_seq + 1)
        v->gaps += seq - v->last_seq - 1;
    if (seq > v->last_seq)
        v->last_seq = seq;
    v->frames++;
    if (!L.window)
        return;
    v->wframes++;
    int64_t lat = wall_us() - us;
    if (lat < 0) {
        L.neg_lat++;
        lat = 0;
    }
    uint64_t b = (uint64_t)lat / VL_LAT_US;
    L.lat[b < VL_LAT_N ? b : VL_LAT_N - 1]++;
    L.nlat++;
    if (lat / 1000.0 > L.lat_max_ms)
        L.lat_max_ms = lat / 1000.0;
}

static void on_sse(void *arg, const char *id, const char *data, size_t len)
{
    viewer_t *v = arg;
    snprintf(v->last_id, sizeof v->last_id, "%s", id);
    frame(v, data, len);
}

static void on_ws(void *arg, int opcode, const char *data, size_t len)
{
    viewer_t *v = arg;
    if (opcode == WS_OP_TEXT || opcode == WS_OP_BINARY) {
        char id[SSE_READ_ID];
        if (ws_meta_id(&v->rd.ws, id, sizeof id) >= 0)
            memcpy(v->last_id, id, sizeof id);
        frame(v, data, len);
    } else if (opcode == WS_OP_PING) {
        uint8_t out[140];
        size_t n = ws_frame_client(out, sizeof out, WS_OP_PONG, data, len, (uint32_t)rand());
        if (n && write(v->fd, out, n) < 0) {
            /* a full socket buffer: the next ping gets its pong */
        }
    }
}

/* the bytes after the head */
static int body(viewer_t *v, const char *p, size_t n)
{
    if (v->ws)
        return ws_read_feed(&v->rd.ws, (const uint8_t *)p, n, on_ws, v);
    return sse_read_feed(&v->rd.sse, p, n, on_sse, v);
}

/* the WebSocket answer's Sec-WebSocket-Accept (the name in any case, the value as sent)
 * is the one for our key */
static int accept_ok(const viewer_t *v)
{
    char want[29];
    ws_accept(v->key, want);
    for (const char *l = strstr(v->head, "\r\n"); l; l = strstr(l + 2, "\r\n")) {
        if (strncasecmp(l + 2, "sec-websocket-accept:", 21) != 0)
            continue;
        const char *val = l + 23;
        while (*val == ' ' || *val == '\t')
            val++;
        return strncmp(val, want, 28) == 0 && (val[28] == '\r' || val[28] == ' ');
    }
    return 0;
}

/* the response head is in v->head (hlen bytes, "\r\n\r\n" at end - 4): 0 or -1 */
static int head_done(viewer_t *v, size_t end)
{
    int code = 0;
    v->head[end] = '\0';
    if (sscanf(v->head, "HTTP/1.%*d %d", &code) != 1 || code != (v->ws ? 101 : 200))
        return -1;
    if (v->ws && !accept_ok(v)) {
        L.bad_accept++;
        return -1;
    }
    memset(&v->rd, 0, sizeof v->rd);
    for (char *c = v->head; *c; c++)
        *c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
    if (!v->ws)
        v->rd.sse.chunked = strstr(v->head, "\ntransfer-encoding: chunked") != NULL;
    v->connected = v->ever = 1;
    v->state = V_BODY;
    evtimer_del(v->retry);
    return 0;
}

static void on_read(evutil_socket_t fd, short what, void *arg)
{
    viewer_t *v = arg;
    (void)what;
    if (v->state == V_CONNECTING) { /* writable: connected, or refused */
        int err = 0;
        socklen_t l = sizeof err;
        if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &l) < 0 || err) {
            viewer_drop(v);
            return;
        }
        char req[512];
        const bcast_url_t *u = &L.url[v->url];
        size_t n;
        if (v->ws) {
            uint8_t nonce[16];
            for (int i = 0; i < 16; i++)
                nonce[i] = (uint8_t)rand();
            char path[400];
            ws_key(nonce, v->key);
            n = ws_resume_target(path, sizeof path, u->path, v->last_id) == 0 ? 0
                : ws_handshake(req, sizeof req, L.hosthdr[v->url], path, v->key,
                               WS_META_PROTOCOL);
        } else {
            int k = snprintf(req, sizeof req,
                             "GET %s HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n"
                             "Cache-Control: no-cache\r\n%s%s%s\r\n",
                             u->path, L.hosthdr[v->url], v->last_id[0] ? "Last-Event-ID: " : "",
                             v->last_id, v->last_id[0] ? "\r\n" : "");
            n = k > 0 && (size_t)k < sizeof req ? (size_t)k : 0;
        }
        if (n == 0 || write(fd, req, n) != (ssize_t)n) {
            viewer_drop(v);
            return;
        }
        event_free(v->ev);
        v->ev = event_new(L.base, fd, EV_READ | EV_PERSIST, on_read, v);
        if (!v->ev || event_add(v->ev, NULL) < 0) {
            viewer_drop(v);
            return;
        }
        v->state = V_HEAD;
        v->hlen = 0;
        if (!v->head && !(v->head = malloc(VL_HEAD_MAX + 1))) {
            viewer_drop(v);
            return;
        }
        return;
    }
    ssize_t n = read(fd, L.rbuf, sizeof L.rbuf);
    if (n <= 0) {
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
            return;
        viewer_drop(v);
        return;
    }
    const char *p = L.rbuf;
    size_t len = (size_t)n;
    if (v->state == V_HEAD) {
        size_t k = len < VL_HEAD_MAX - v->hlen ? len : VL_HEAD_MAX - v->hlen;
        memcpy(v->head + v->hlen, p, k);
        size_t from = v->hlen > 3 ? v->hlen - 3 : 0;
        v->hlen += k;
        v->head[v->hlen] = '\0';
        char *e = memmem(v->head + from, v->hlen - from, "\r\n\r\n", 4);
        if (!e) {
            if (v->hlen >= VL_HEAD_MAX)
                viewer_drop(v);
            return;
        }
        size_t end = (size_t)(e - v->head) + 4;
        size_t rest = v->hlen - end; /* body bytes in the head buffer ... */
        size_t used = k - rest;      /* ... came from this read */
        if (head_done(v, end) < 0) {
            viewer_drop(v);
            return;
        }
        free(v->head);
        v->head = NULL;
        p += used;
        len -= used;
    }
    if (len > 0 && body(v, p, len) < 0)
        viewer_drop(v);
}

static void viewer_open(viewer_t *v)
{
    int u = v->url;
    v->fd = socket(L.addr[u].ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (v->fd < 0) {
        viewer_drop(v);
        return;
    }
    int one = 1;
    setsockopt(v->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(v->fd, (struct sockaddr *)&L.addr[u], L.alen[u]) < 0 && errno != EINPROGRESS) {
        viewer_drop(v);
        return;
    }
    v->state = V_CONNECTING;
    v->ev = event_new(L.base, v->fd, EV_WRITE, on_read, v);
    if (!v->ev || event_add(v->ev, NULL) < 0) {
        viewer_drop(v);
        return;
    }
    struct timeval tv = { VL_ANSWER_MS / 1000, (VL_ANSWER_MS % 1000) * 1000 };
    evtimer_add(v->retry, &tv);
}

/* ---- the run ----------------------------------------------------------------------------- */
static void on_ramp(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    (void)arg;
    int steps = L.ramp_ms / 20 > 0 ? L.ramp_ms / 20 : 1;
    int batch = (L.n + steps - 1) / steps;
    for (int k = 0; k < batch && L.opened < L.n; k++)
        viewer_open(&L.v[L.opened++]);
    if (L.opened < L.n) {
        struct timeval tv = { 0, 20000 };
        evtimer_add(L.ramp_ev, &tv);
    }
}

static void cpu_mark(int end)
{
    for (int i = 0; i < L.npid; i++) {
        double c = proc_cpu(L.pid[i].pid);
        if (end)
            L.pid[i].t1 = c;
        else
            L.pid[i].t0 = c;
    }
    double self = proc_cpu(getpid());
    if (end)
        L.self1 = self;
    else
        L.self0 = self;
}

static void on_phase(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    (void)arg;
    if (!L.window) { /* settled: measure */
        L.window = 1;
        L.w0_ns = mono_ns();
        cpu_mark(0);
        struct timeval tv = { (time_t)L.seconds, (suseconds_t)((L.seconds - (time_t)L.seconds) * 1e6) };
        evtimer_add(L.phase_ev, &tv);
        return;
    }
    L.w1_ns = mono_ns();
    cpu_mark(1);
    L.window = 0;
    event_base_loopbreak(L.base);
}

static double lat_quantile(double q)
{
    if (L.nlat == 0)
        return 0;
    uint64_t want = (uint64_t)(q * (double)(L.nlat - 1)) + 1, acc = 0;
    for (int b = 0; b < VL_LAT_N; b++) {
        acc += L.lat[b];
        if (acc >= want)
            return (b + 0.5) * VL_LAT_US / 1000.0;
    }
    return L.lat_max_ms;
}

static void report(void)
{
    double secs = (double)(L.w1_ns - L.w0_ns) / 1e9;
    int connected = 0, with = 0, nws = 0;
    uint64_t fmin = UINT64_MAX, fmax = 0, fsum = 0, gaps = 0, total = 0;
    for (int i = 0; i < L.n; i++) {
        viewer_t *v = &L.v[i];
        connected += v->connected;
        with += v->wframes > 0;
        nws += v->ws;
        fmin = v->wframes < fmin ? v->wframes : fmin;
        fmax = v->wframes > fmax ? v->wframes : fmax;
        fsum += v->wframes;
        gaps += v->gaps;
        total += v->frames;
    }
    if (L.n == 0)
        fmin = 0;
    double fmean = L.n ? (double)fsum / L.n : 0;
    double p50 = lat_quantile(0.50), p99 = lat_quantile(0.99);
    if (L.row) {
        double nginx = 0, redis = 0, mgw = 0, others = 0;
        for (int i = 0; i < L.npid; i++) {
            const pidcpu_t *p = &L.pid[i];
            double pc = p->t0 >= 0 && p->t1 >= 0 ? (p->t1 - p->t0) / secs * 100 : 0;
            if (strcmp(p->name, "nginx") == 0)
                nginx += pc;
            else if (strcmp(p->name, "redis-server") == 0)
                redis += pc;
            else if (strcmp(p->name, "monitorgw") == 0 || strcmp(p->name, "rcss-monitorgw") == 0)
                mgw += pc;
            else
                others += pc;
        }
        double self = (L.self1 - L.self0) / secs * 100;
        double fps_min = secs > 0 ? fmin / secs : 0;
        printf("%8d %9.2f %9.2f %9.1f %9.1f %9.1f %7.0f%% %6.1f%% %6.1f%% %6.0f%% %11.1f  %s\n",
               L.n, fps_min, secs > 0 ? fmean / secs : 0.0, p50, p99, L.lat_max_ms, nginx,
               redis, mgw, self, (nginx + redis + others + self) / 100 * 1e6 / L.n,
               with == L.n && fps_min >= 9.8 ? "ok" : "-");
        return;
    }
    if (L.json) {
        json_t *cpu = json_array();
        for (int i = 0; i < L.npid; i++) {
            const pidcpu_t *p = &L.pid[i];
            double pc = p->t0 >= 0 && p->t1 >= 0 ? (p->t1 - p->t0) / secs * 100 : -1;
            json_array_append_new(cpu, json_pack("{s:s, s:i, s:f}", "name", p->name, "pid",
                                                 p->pid, "percent", pc));
        }
        json_t *o = json_pack("{s:i, s:i, s:i, s:f, s:i, s:i, s:I, s:I, s:f, s:I, s:f, s:f, s:I, "
                              "s:I, s:I, s:I, s:{s:f, s:f, s:f, s:I}, s:o, s:f}",
                              "viewers", L.n, "sse", L.n - nws, "ws", nws, "seconds", secs,
                              "connected", connected, "with_frames", with, "frames_min",
                              (json_int_t)fmin, "frames_max", (json_int_t)fmax, "frames_mean",
                              fmean, "frames_total", (json_int_t)total, "fps_min",
                              secs > 0 ? fmin / secs : 0.0, "fps_mean",
                              secs > 0 ? fmean / secs : 0.0, "gaps", (json_int_t)gaps,
                              "failed_connects", (json_int_t)L.failed, "bad_accept",
                              (json_int_t)L.bad_accept, "reconnects",
                              (json_int_t)L.reconnects, "latency_ms", "p50", p50, "p99", p99,
                              "max", L.lat_max_ms, "n", (json_int_t)L.nlat, "cpu", cpu,
                              "self_cpu_percent", (L.self1 - L.self0) / secs * 100);
        char *s = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
        if (s)
            printf("%s\n", s);
        free(s);
        json_decref(o);
        return;
    }
    printf("rcss-viewload: %d viewers (%d sse, %d ws) on %d URL(s), measured %.1f s\n", L.n,
           L.n - nws, nws, L.nurl, secs);
    printf("  connected         %d   (connections that failed %llu, reconnects %llu)\n",
           connected, (unsigned long long)L.failed, (unsigned long long)L.reconnects);
    printf("  with frames       %d\n", with);
    printf("  frames/viewer     min %llu  mean %.1f  max %llu\n", (unsigned long long)fmin,
           fmean, (unsigned long long)fmax);
    printf("  frames/s/viewer   min %.2f  mean %.2f\n", secs > 0 ? fmin / secs : 0.0,
           secs > 0 ? fmean / secs : 0.0);
    printf("  gaps              %llu frames skipped over the whole run (publish numbers)\n",
           (unsigned long long)gaps);
    printf("  latency           p50 %.2f ms  p99 %.2f ms  max %.2f ms   (sim publish -> viewer, "
           "%llu frames)\n", p50, p99, L.lat_max_ms, (unsigned long long)L.nlat);
    printf("  cpu               ");
    for (int i = 0; i < L.npid; i++) {
        const pidcpu_t *p = &L.pid[i];
        if (p->t0 < 0 || p->t1 < 0)
            printf("%s(%d) gone  ", p->name, p->pid);
        else
            printf("%s(%d) %.1f %%  ", p->name, p->pid, (p->t1 - p->t0) / secs * 100);
    }
    printf("rcss-viewload %.1f %%\n", (L.self1 - L.self0) / secs * 100);
    if (L.bad || L.neg_lat)
        printf("  note              %llu frames without a stamp, %llu arrived before their "
               "stamp (clocks apart)\n", (unsigned long long)L.bad,
               (unsigned long long)L.neg_lat);
    if (L.bad_accept)
        printf("  note              %llu WebSocket answers with a wrong Sec-WebSocket-Accept "
               "(dropped)\n", (unsigned long long)L.bad_accept);
}

static void usage(void)
{
    fprintf(stderr, "usage: rcss-viewload --url URL[,URL...] --viewers N [--mode sse|ws|mix] "
                    "[--seconds S] [--pids [NAME=]PID,...] [--ramp-ms MS] [--cpus LIST] "
                    "[--json|--row]\n       rcss-viewload --row-head\n");
    exit(2);
}

static void add_pids(const char *list)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *s = strtok(buf, ", "); s && L.npid < VL_MAX_PIDS; s = strtok(NULL, ", ")) {
        pidcpu_t *p = &L.pid[L.npid];
        char *eq = strchr(s, '=');
        p->pid = atoi(eq ? eq + 1 : s);
        if (p->pid <= 0)
            usage();
        if (eq)
            snprintf(p->name, sizeof p->name, "%.*s", (int)(eq - s), s);
        else
            proc_name(p->pid, p->name, sizeof p->name);
        L.npid++;
    }
}

/* --cpus "1" or "0-1,3" */
static void set_cpus(const char *list)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    const char *p = list;
    while (*p) {
        char *end;
        long a = strtol(p, &end, 10), b = a;
        if (end == p || a < 0 || a >= CPU_SETSIZE)
            usage();
        if (*end == '-') {
            p = end + 1;
            b = strtol(p, &end, 10);
            if (end == p || b < a || b >= CPU_SETSIZE)
                usage();
        }
        for (long c = a; c <= b; c++)
            CPU_SET((int)c, &set);
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            usage();
    }
    if (sched_setaffinity(0, sizeof set, &set) < 0) {
        fprintf(stderr, "rcss-viewload: --cpus %s: %s\n", list, strerror(errno));
        exit(1);
    }
}

static int resolve(int i)
{
    struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res = NULL;
    char port[16];
    snprintf(port, sizeof port, "%d", L.url[i].port);
    if (getaddrinfo(L.url[i].host, port, &hints, &res) != 0 || !res)
        return -1;
    memcpy(&L.addr[i], res->ai_addr, res->ai_addrlen);
    L.alen[i] = res->ai_addrlen;
    freeaddrinfo(res);
    int v6 = strchr(L.url[i].host, ':') != NULL;
    snprintf(L.hosthdr[i], sizeof L.hosthdr[i], v6 ? "[%s]:%d" : "%s:%d", L.url[i].host,
             L.url[i].port);
    return 0;
}

int main(int argc, char **argv)
{
    const char *urls = NULL, *mode = "sse";
    L.seconds = 5;
    L.ramp_ms = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--json") == 0 || strcmp(a, "--row") == 0) {
            L.json = a[2] == 'j';
            L.row = a[2] == 'r';
            continue;
        }
        if (strcmp(a, "--row-head") == 0) {
            printf("%8s %9s %9s %9s %9s %9s %8s %7s %7s %7s %11s\n", "viewers", "fps min",
                   "fps mean", "lat p50", "lat p99", "lat max", "nginx", "redis", "mgw",
                   "load", "us/viewer/s");
            return 0;
        }
        if (!val)
            usage();
        i++;
        if (strcmp(a, "--url") == 0)
            urls = val;
        else if (strcmp(a, "--viewers") == 0)
            L.n = atoi(val);
        else if (strcmp(a, "--mode") == 0)
            mode = val;
        else if (strcmp(a, "--seconds") == 0)
            L.seconds = atof(val);
        else if (strcmp(a, "--pids") == 0)
            add_pids(val);
        else if (strcmp(a, "--ramp-ms") == 0)
            L.ramp_ms = atoi(val);
        else if (strcmp(a, "--cpus") == 0)
            set_cpus(val);
        else
            usage();
    }
    L.mode = strcmp(mode, "sse") == 0 ? 0 : strcmp(mode, "ws") == 0 ? 1
           : strcmp(mode, "mix") == 0 ? 2 : -1;
    if (!urls || L.n < 1 || L.mode < 0 || L.seconds <= 0 || L.seconds > 3600)
        usage();
    char err[300];
    L.nurl = bcast_url_parse(urls, L.url, BCAST_URL_MAX, err, sizeof err);
    if (L.nurl <= 0) {
        fprintf(stderr, "rcss-viewload: --url: %s\n", L.nurl < 0 ? err : "none given");
        return 2;
    }
    for (int i = 0; i < L.nurl; i++) {
        if (resolve(i) < 0) {
            fprintf(stderr, "rcss-viewload: cannot resolve %s\n", L.url[i].host);
            return 1;
        }
    }
    /* a viewer is a descriptor: take every one the hard limit allows */
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
        if (rl.rlim_cur != RLIM_INFINITY && (rlim_t)L.n + 32 > rl.rlim_cur) {
            fprintf(stderr, "rcss-viewload: %d viewers need more descriptors than the limit "
                            "(%llu)\n", L.n, (unsigned long long)rl.rlim_cur);
            return 1;
        }
    }
    if (L.ramp_ms < 0)
        L.ramp_ms = L.n / 5 > 1000 ? L.n / 5 : 1000; /* 5,000 connections a second */
    srand((unsigned)(getpid() ^ time(NULL)));
    L.v = calloc((size_t)L.n, sizeof *L.v);
    L.lat = calloc(VL_LAT_N, sizeof *L.lat);
    L.base = event_base_new();
    if (!L.v || !L.lat || !L.base) {
        fprintf(stderr, "rcss-viewload: out of memory\n");
        return 1;
    }
    for (int i = 0; i < L.n; i++) {
        viewer_t *v = &L.v[i];
        v->idx = i;
        v->fd = -1;
        v->url = i % L.nurl;
        v->ws = L.mode == 1 || (L.mode == 2 && i % 2 == 1);
        if (!(v->retry = evtimer_new(L.base, on_retry, v))) {
            fprintf(stderr, "rcss-viewload: out of memory\n");
            return 1;
        }
    }
    L.ramp_ev = evtimer_new(L.base, on_ramp, NULL);
    L.phase_ev = evtimer_new(L.base, on_phase, NULL);
    on_ramp(0, 0, NULL);
    int settle = L.ramp_ms + VL_SETTLE_MS;
    struct timeval tv = { settle / 1000, (settle % 1000) * 1000 };
    evtimer_add(L.phase_ev, &tv);
    event_base_dispatch(L.base);
    report();
    fflush(stdout);
    _exit(0); /* 10,000 sockets: the kernel closes them faster than a loop would */
}
