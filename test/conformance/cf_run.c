/* cf_run.c -- the scenario interpreter (cf_run.h): one server, the scripted clients, the
 * recording of every datagram, then the server's stdout and logs. Called by cf_main.c
 * once per server and scenario. */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <netinet/in.h>
#include <poll.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "cf_mem.h"
#include "cf_norm.h"
#include "cf_proc.h"
#include "cf_run.h"

#define DGRAM_MAX   (64 * 1024)
#define INFLATE_MAX (1 << 20)
#define DRAIN_MS    150
#define READY_MS    15000
#define STOP_MS     10000

typedef struct client {
    int fd;              /* -1 once closed */
    int port;            /* where it sends: its kind's port, then the last reply's */
    int replied;         /* got anything from the server */
    int joined;          /* got an (init ...) or (reconnect ...) reply */
    int think;           /* a (think) arrived since the client's last (done) */
    int thinks;          /* (think)s so far */
    int sync;            /* in the lock-step set */
    int zlevel;          /* compression of what it sends, -1 plain */
    int cursor;          /* wait looks at records from here on */
} client_t;

typedef struct runner {
    const cf_scn_t *s;
    cf_run_t       *run;
    cf_proc_t       proc;
    client_t        cl[CF_MAX_CLIENTS];
    long long       t0;          /* µs, CLOCK_MONOTONIC, when the server was started */
    int64_t         anchor_us;   /* run time of the message the last waitafter matched */
    int             verbose;
    int             stopped;
    unsigned char  *buf;         /* one datagram */
    unsigned char  *zbuf;        /* its inflated text */
} runner_t;

/* ---- records ---------------------------------------------------------------------- */

char *cf_printable(const unsigned char *data, size_t len, int keep_tab)
{
    while (len && data[len - 1] == '\0')
        len--;
    if (len && data[len - 1] == '\n')
        len--;
    char *out = cf_xrealloc(NULL, len * 4 + 1), *o = out;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = data[i];
        if ((c < 0x20 && !(keep_tab && c == '\t')) || c >= 0x7f)
            o += sprintf(o, "\\x%02x", c);
        else
            *o++ = (char)c;
    }
    *o = '\0';
    return out;
}

void cf_stream_add(cf_stream_t *st, int64_t t_us, int sent, int zlib, int note, const char *text)
{
    if (st->n == st->cap) {
        st->cap = st->cap ? st->cap * 2 : 256;
        st->rec = cf_xrealloc(st->rec, (size_t)st->cap * sizeof *st->rec);
    }
    cf_rec_t *r = &st->rec[st->n++];
    r->t_us = t_us;
    r->sent = sent;
    r->zlib = zlib;
    r->note = note;
    r->text = cf_xstrdup(text);
}

cf_stream_t *cf_run_stream(const cf_run_t *run, const char *name)
{
    for (int i = 0; i < run->nst; i++)
        if (strcmp(run->st[i].name, name) == 0)
            return &run->st[i];
    return NULL;
}

cf_stream_t *cf_run_stream_add(cf_run_t *run, const char *name)
{
    cf_stream_t *st = cf_run_stream(run, name);
    if (st)
        return st;
    run->st = cf_xrealloc(run->st, (size_t)(run->nst + 1) * sizeof *run->st);
    st = &run->st[run->nst++];
    memset(st, 0, sizeof *st);
    snprintf(st->name, sizeof st->name, "%s", name);
    return st;
}

void cf_run_free(cf_run_t *run)
{
    for (int i = 0; i < run->nst; i++) {
        for (int j = 0; j < run->st[i].n; j++)
            free(run->st[i].rec[j].text);
        free(run->st[i].rec);
    }
    free(run->st);
    memset(run, 0, sizeof *run);
}

static void note(runner_t *r, int c, const char *fmt, const char *arg)
{
    char msg[600];
    snprintf(msg, sizeof msg, fmt, arg);
    cf_stream_add(&r->run->st[c], cf_now_us() - r->t0, 0, 0, 1, msg);
    if (r->verbose)
        fprintf(stderr, "  %s %s: %s\n", r->run->label, r->s->client[c].name, msg);
}

/* ---- sockets -------------------------------------------------------------------------- */

static int kind_port(const runner_t *r, cf_kind_t k)
{
    return r->run->port + (k == CF_KIND_TRAINER ? 1 : k == CF_KIND_COACH ? 2 : 0);
}

static int open_client(void)
{
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    int on = 1, rcv = 4 << 20;
    setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on);
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof rcv);
    struct sockaddr_in a = { .sin_family = AF_INET };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, (struct sockaddr *)&a, sizeof a) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* one zlib stream ending in a sync flush, as the servers read a compressed client */
static size_t deflate_msg(const char *in, size_t len, int level, unsigned char *out, size_t cap)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit(&z, level) != Z_OK)
        return 0;
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)len;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    int rc = deflate(&z, Z_SYNC_FLUSH);
    size_t n = cap - z.avail_out;
    deflateEnd(&z);
    return rc == Z_OK ? n : 0;
}

static void send_text(runner_t *r, int c, int port, const char *text, int raw)
{
    client_t *cl = &r->cl[c];
    if (cl->fd < 0)
        return;
    size_t len = strlen(text) + (raw ? 0 : 1);
    unsigned char z[DGRAM_MAX];
    const void *data = text;
    if (cl->zlevel >= 0) {
        len = deflate_msg(text, len, cl->zlevel, z, sizeof z);
        data = z;
    }
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (sendto(cl->fd, data, len, 0, (struct sockaddr *)&a, sizeof a) < 0 && r->verbose)
        fprintf(stderr, "  %s %s: sendto: %s\n", r->run->label, r->s->client[c].name,
                strerror(errno));
    cf_stream_add(&r->run->st[c], cf_now_us() - r->t0, 1, cl->zlevel >= 0, 0, text);
}

/* the inflated text of a datagram that is a zlib stream, else NULL */
static const unsigned char *try_inflate(runner_t *r, const unsigned char *d, size_t len,
                                        size_t *outlen)
{
    if (len < 2 || d[0] != 0x78 || ((d[0] << 8) | d[1]) % 31 != 0)
        return NULL;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK)
        return NULL;
    z.next_in = (Bytef *)d;
    z.avail_in = (uInt)len;
    z.next_out = r->zbuf;
    z.avail_out = INFLATE_MAX;
    int rc = inflate(&z, Z_SYNC_FLUSH);
    *outlen = INFLATE_MAX - z.avail_out;
    inflateEnd(&z);
    return (rc == Z_OK || rc == Z_STREAM_END) && *outlen ? r->zbuf : NULL;
}

/* kernel arrival time of a datagram as µs since t0 on CLOCK_MONOTONIC */
static int64_t arrival_us(runner_t *r, struct msghdr *mh)
{
    for (struct cmsghdr *cm = CMSG_FIRSTHDR(mh); cm; cm = CMSG_NXTHDR(mh, cm))
        if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_TIMESTAMPNS) {
            struct timespec k, rt, mono;
            memcpy(&k, CMSG_DATA(cm), sizeof k);
            clock_gettime(CLOCK_REALTIME, &rt);
            clock_gettime(CLOCK_MONOTONIC, &mono);
            long long age = ((long long)rt.tv_sec - k.tv_sec) * 1000000
                            + (rt.tv_nsec - k.tv_nsec) / 1000;
            if (age < 0 || age > 1000000)
                break;
            long long m = (long long)mono.tv_sec * 1000000 + mono.tv_nsec / 1000;
            return m - age - r->t0;
        }
    return cf_now_us() - r->t0;
}

static void receive(runner_t *r, int c)
{
    client_t *cl = &r->cl[c];
    for (;;) {
        struct sockaddr_in from;
        char ctl[256];
        struct iovec iov = { r->buf, DGRAM_MAX };
        struct msghdr mh = { .msg_name = &from, .msg_namelen = sizeof from, .msg_iov = &iov,
                             .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof ctl };
        ssize_t n = recvmsg(cl->fd, &mh, 0);
        if (n < 0)
            return;     /* EAGAIN, or ECONNREFUSED reported for an earlier send */
        int64_t t = arrival_us(r, &mh);
        size_t zl;
        const unsigned char *z = try_inflate(r, r->buf, (size_t)n, &zl);
        char *text = z ? cf_printable(z, zl, 0) : cf_printable(r->buf, (size_t)n, 0);
        cf_stream_add(&r->run->st[c], t, 0, z != NULL, 0, text);
        if (strncmp(text, "(init ", 6) == 0 || strncmp(text, "(reconnect ", 11) == 0)
            cl->joined = 1;
        if (strcmp(text, "(think)") == 0) {
            cl->think = 1;
            cl->thinks++;
        }
        free(text);
        cl->replied = 1;
        cl->port = ntohs(from.sin_port);
    }
}

/* receive on every open client until deadline (µs, CLOCK_MONOTONIC) or, with stop_fn,
 * until it returns 1 */
static int pump(runner_t *r, long long deadline, int (*stop_fn)(runner_t *, void *), void *arg)
{
    struct pollfd pf[CF_MAX_CLIENTS];
    int idx[CF_MAX_CLIENTS];
    for (;;) {
        if (stop_fn && stop_fn(r, arg))
            return 1;
        long long now = cf_now_us();
        if (now >= deadline)
            return 0;
        int n = 0;
        for (int i = 0; i < r->s->nclient; i++)
            if (r->cl[i].fd >= 0) {
                pf[n].fd = r->cl[i].fd;
                pf[n].events = POLLIN;
                idx[n++] = i;
            }
        int ms = (int)((deadline - now + 999) / 1000);
        if (poll(pf, (nfds_t)n, ms > 20 ? 20 : ms) > 0)
            for (int i = 0; i < n; i++)
                if (pf[i].revents)
                    receive(r, idx[i]);
    }
}

/* ---- steps ---------------------------------------------------------------------------- */

static void do_step_until(runner_t *r, const cf_step_t *st, int timeout_ms);
static void do_forget(runner_t *r, const cf_step_t *st);

typedef struct wait_arg {
    int     client;
    int     after_ms;   /* > 0: the match must follow the message before it this closely,
                           and arrive after the wait began */
    int64_t from_us;    /* when the wait began (run time) */
    regex_t re;
} wait_arg_t;

/* the arrival of the received message before rec i of stream st, -1 if none */
static int64_t prev_arrival(const cf_stream_t *st, int i)
{
    for (int k = i - 1; k >= 0; k--)
        if (!st->rec[k].sent && !st->rec[k].note)
            return st->rec[k].t_us;
    return -1;
}

static int wait_match(runner_t *r, void *arg)
{
    wait_arg_t *w = arg;
    cf_stream_t *st = &r->run->st[w->client];
    client_t *cl = &r->cl[w->client];
    for (; cl->cursor < st->n; cl->cursor++) {
        const cf_rec_t *rec = &st->rec[cl->cursor];
        if (rec->sent || rec->note || regexec(&w->re, rec->text, 0, NULL, 0) != 0)
            continue;
        int64_t prev = w->after_ms > 0 ? prev_arrival(st, cl->cursor) : 0;
        if (w->after_ms > 0 && (rec->t_us < w->from_us || prev < 0
                                || rec->t_us - prev > (int64_t)w->after_ms * 1000))
            continue;
        if (w->after_ms > 0)
            r->anchor_us = rec->t_us;
        cl->cursor++;
        return 1;
    }
    return 0;
}

static void do_wait(runner_t *r, const cf_step_t *st)
{
    wait_arg_t w = { .client = st->client, .after_ms = st->n,
                     .from_us = cf_now_us() - r->t0 };
    if (regcomp(&w.re, st->text, REG_EXTENDED | REG_NOSUB) != 0)
        return;     /* checked by the parser */
    if (!pump(r, cf_now_us() + (long long)st->ms * 1000, wait_match, &w))
        note(r, st->client, "#timeout waiting for /%s/", st->text);
    regfree(&w.re);
}

/* lock-step members: sync clients whose socket is open and that joined (an init or
 * reconnect reply, not an error); with active only those that have had a (think) */
static int member(const runner_t *r, int i, int active)
{
    const client_t *cl = &r->cl[i];
    return cl->sync && cl->fd >= 0 && (cl->joined || cl->thinks > 0)
           && (!active || cl->thinks > 0);
}

static int all_think(runner_t *r, void *arg)
{
    int active = *(int *)arg;
    for (int i = 0; i < r->s->nclient; i++)
        if (member(r, i, active) && !r->cl[i].think)
            return 0;
    return 1;
}

static void think_timeout(runner_t *r, int active)
{
    for (int i = 0; i < r->s->nclient; i++)
        if (member(r, i, active) && !r->cl[i].think)
            note(r, i, "%s", "#timeout waiting for (think)");
}

/* one lock-step cycle: every member has its (think), each answers (done), and the
 * cycle ends when every member has the next (think) */
static void do_step(runner_t *r, int timeout_ms)
{
    int active = 1, all = 0;
    if (!pump(r, cf_now_us() + (long long)timeout_ms * 1000, all_think, &active))
        think_timeout(r, active);
    for (int i = 0; i < r->s->nclient; i++)
        if (member(r, i, 1) && r->cl[i].think) {
            r->cl[i].think = 0;
            send_text(r, i, r->cl[i].port, "(done)", 0);
        }
    if (!pump(r, cf_now_us() + (long long)timeout_ms * 1000, all_think, &all))
        think_timeout(r, all);
}

static void do_stall(runner_t *r, const cf_step_t *st)
{
    for (int i = 0; i < st->n; i++) {
        if (r->run->nstall + 2 <= 2 * CF_MAX_STALLS)
            r->run->stall[r->run->nstall++] = cf_now_us() - r->t0;
        cf_proc_stall(&r->proc, st->ms);
        if (r->run->nstall + 1 <= 2 * CF_MAX_STALLS)
            r->run->stall[r->run->nstall++] = cf_now_us() - r->t0;
        pump(r, cf_now_us() + (long long)st->gap * 1000, NULL, NULL);
    }
}

static void do_steps(runner_t *r)
{
    const cf_scn_t *s = r->s;
    for (int i = 0; i < s->nstep && !r->stopped; i++) {
        const cf_step_t *st = &s->step[i];
        client_t *cl = st->client >= 0 ? &r->cl[st->client] : NULL;
        switch (st->op) {
        case CF_OP_SEND:
            send_text(r, st->client, cl->port, st->text, st->n);
            break;
        case CF_OP_SENDINIT:
            send_text(r, st->client, kind_port(r, s->client[st->client].kind), st->text, 0);
            break;
        case CF_OP_WAIT:
            do_wait(r, st);
            break;
        case CF_OP_SLEEP:
            pump(r, cf_now_us() + (long long)st->ms * 1000, NULL, NULL);
            break;
        case CF_OP_SLEEPTO:
            pump(r, r->t0 + r->anchor_us + (long long)st->ms * 1000, NULL, NULL);
            break;
        case CF_OP_STEP:
            for (int k = 0; k < st->n; k++)
                do_step(r, s->timeout);
            break;
        case CF_OP_STEPUNTIL:
            do_step_until(r, st, s->timeout);
            break;
        case CF_OP_SYNC:
            cl->sync = st->n;
            break;
        case CF_OP_STALL:
            do_stall(r, st);
            break;
        case CF_OP_ZLIB:
            cl->zlevel = st->n;
            break;
        case CF_OP_FORGET:
            do_forget(r, st);
            break;
        case CF_OP_CLOSE:
            if (cl->fd >= 0)
                close(cl->fd);
            cl->fd = -1;
            break;
        case CF_OP_STOP:
            r->stopped = 1;
            break;
        }
    }
}

/* the messages matching re that client c received between its last two (think)s; -1
 * if it has not had two */
static int last_cycle_count(runner_t *r, int c, const regex_t *re)
{
    const cf_stream_t *st = &r->run->st[c];
    int last = -1, prev = -1;
    for (int i = st->n - 1; i >= 0 && prev < 0; i--) {
        const cf_rec_t *rec = &st->rec[i];
        if (rec->sent || rec->note || strcmp(rec->text, "(think)") != 0)
            continue;
        if (last < 0)
            last = i;
        else
            prev = i;
    }
    if (prev < 0)
        return -1;
    int n = 0;
    for (int i = prev + 1; i < last; i++) {
        const cf_rec_t *rec = &st->rec[i];
        n += !rec->sent && !rec->note && regexec(re, rec->text, 0, NULL, 0) == 0;
    }
    return n;
}

/* lock-step cycles until the client's last cycle had n matches (a known place in the
 * timer's period: see docs/conformance.md); a note if it never came */
static void do_step_until(runner_t *r, const cf_step_t *st, int timeout_ms)
{
    regex_t re;
    if (regcomp(&re, st->text, REG_EXTENDED | REG_NOSUB) != 0)
        return;     /* checked by the parser */
    int k = 0;
    for (; k < st->gap; k++) {
        do_step(r, timeout_ms);
        if (last_cycle_count(r, st->client, &re) == st->n)
            break;
    }
    if (k == st->gap)
        note(r, st->client, "#no cycle with the count of /%s/", st->text);
    regfree(&re);
}

/* what the client received so far (all of it, or what matches the step's pattern) is
 * left out of the comparison */
static void do_forget(runner_t *r, const cf_step_t *st)
{
    cf_stream_t *fs = &r->run->st[st->client];
    regex_t re;
    int all = !st->text;
    if (!all && regcomp(&re, st->text, REG_EXTENDED | REG_NOSUB) != 0)
        return;
    int n = 0;
    for (int k = 0; k < fs->n; k++) {
        if (all || (!fs->rec[k].sent && regexec(&re, fs->rec[k].text, 0, NULL, 0) == 0))
            free(fs->rec[k].text);
        else
            fs->rec[n++] = fs->rec[k];
    }
    fs->n = n;
    r->cl[st->client].cursor = n;
    if (!all)
        regfree(&re);
}

/* ---- files ---------------------------------------------------------------------------- */

static void add_file_lines(cf_run_t *run, const char *stream, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    cf_stream_t *st = cf_run_stream_add(run, stream);
    size_t cap = 1 << 16, len = 0;
    unsigned char *line = cf_xrealloc(NULL, cap);
    int ch;
    while ((ch = fgetc(f)) != EOF) {
        if (len + 1 >= cap)
            line = cf_xrealloc(line, cap *= 2);
        if (ch == '\n') {
            char *t = cf_printable(line, len, 1);
            cf_stream_add(st, 0, 0, 0, 0, t);
            free(t);
            len = 0;
        } else {
            line[len++] = (unsigned char)ch;
        }
    }
    if (len) {
        char *t = cf_printable(line, len, 1);
        cf_stream_add(st, 0, 0, 0, 0, t);
        free(t);
    }
    free(line);
    fclose(f);
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* logfiles: the names in dir/logs; rcg, rcl, kwy: the contents (a second file of a
 * kind is stream rcg2, ...) */
static void collect_files(runner_t *r)
{
    char path[600];
    snprintf(path, sizeof path, "%s/stdout", r->run->dir);
    add_file_lines(r->run, "stdout", path);
    snprintf(path, sizeof path, "%s/logs", r->run->dir);
    DIR *d = opendir(path);
    if (!d)
        return;
    char *names[256];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 256)
        if (e->d_name[0] != '.')
            names[n++] = cf_xstrdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, name_cmp);
    cf_run_stream_add(r->run, "logfiles");
    int count[3] = { 0 };
    static const char *const ext[3] = { "rcg", "rcl", "kwy" };
    for (int i = 0; i < n; i++) {
        /* looked up each time: adding a stream may move the others */
        cf_stream_add(cf_run_stream(r->run, "logfiles"), 0, 0, 0, 0, names[i]);
        const char *dot = strrchr(names[i], '.');
        for (int k = 0; k < 3; k++)
            if (dot && strcmp(dot + 1, ext[k]) == 0) {
                char sname[16];
                if (count[k]++)
                    snprintf(sname, sizeof sname, "%s%d", ext[k], count[k]);
                else
                    snprintf(sname, sizeof sname, "%s", ext[k]);
                snprintf(path, sizeof path, "%s/logs/%s", r->run->dir, names[i]);
                add_file_lines(r->run, sname, path);
            }
        free(names[i]);
    }
}

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

/* ---- the run -------------------------------------------------------------------------- */

static char **build_argv(const runner_t *r, const cf_server_t *srv)
{
    const cf_scn_t *s = r->s;
    int n = 0, cap = 16 + s->nopt_both + s->nopt_ours + s->nopt_ref;
    char **v = cf_xrealloc(NULL, (size_t)cap * sizeof *v);
    char a[700];
#define ADD(...) do { snprintf(a, sizeof a, __VA_ARGS__); v[n++] = cf_xstrdup(a); } while (0)
    ADD("%s", srv->exe);
    ADD("server::port=%d", r->run->port);
    ADD("server::coach_port=%d", r->run->port + 1);
    ADD("server::olcoach_port=%d", r->run->port + 2);
    ADD("server::game_logging=%s", s->logs ? "true" : "false");
    ADD("server::text_logging=%s", s->logs ? "true" : "false");
    ADD("server::game_log_dir=%s/logs", r->run->dir);
    ADD("server::text_log_dir=%s/logs", r->run->dir);
    ADD("server::keepaway_log_dir=%s/logs", r->run->dir);
    if (!srv->is_ref)
        ADD("server::bind_address=127.0.0.1");
    for (int i = 0; i < s->nopt_both; i++)
        ADD("%s", s->opt_both[i]);
    for (int i = 0; !srv->is_ref && i < s->nopt_ours; i++)
        ADD("%s", s->opt_ours[i]);
    for (int i = 0; srv->is_ref && i < s->nopt_ref; i++)
        ADD("%s", s->opt_ref[i]);
#undef ADD
    v[n] = NULL;
    return v;
}

static void first_line(const char *path, char *out, size_t len)
{
    out[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    if (fgets(out, (int)len, f))
        out[strcspn(out, "\n")] = '\0';
    fclose(f);
}

int cf_run_scenario(const cf_scn_t *s, const cf_server_t *srv, cf_run_t *run, int keep,
                    int verbose)
{
    memset(run, 0, sizeof *run);
    run->label = srv->label;
    long long wall0 = cf_now_us();
    runner_t r = { .s = s, .run = run, .verbose = verbose };
    snprintf(run->dir, sizeof run->dir, "/tmp/rcss-conform-%s-XXXXXX", srv->label);
    if (!mkdtemp(run->dir)) {
        snprintf(run->problem, sizeof run->problem, "mkdtemp: %s", strerror(errno));
        return -1;
    }
    char path[600];
    snprintf(path, sizeof path, "%s/logs", run->dir);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/conf", run->dir);
    mkdir(path, 0755);
    for (int i = 0; i < s->nclient; i++)
        cf_run_stream_add(run, s->client[i].name);
    cf_run_stream_add(run, "exit");

    int started = -1;
    for (int attempt = 0; attempt < 3 && started < 0; attempt++) {
        run->port = cf_proc_free_ports();
        if (run->port < 0) {
            snprintf(run->problem, sizeof run->problem, "no free ports");
            break;
        }
        char **argv = build_argv(&r, srv);
        char err[256];
        r.t0 = cf_now_us();
        if (cf_proc_start(&r.proc, argv, run->dir, err, sizeof err) < 0)
            snprintf(run->problem, sizeof run->problem, "%s", err);
        else if (cf_proc_wait_ready(&r.proc, run->port, READY_MS) == 0)
            started = 0;
        else {
            int st = cf_proc_stop(&r.proc, 2000);
            char l[300];
            snprintf(path, sizeof path, "%s/stderr", run->dir);
            first_line(path, l, sizeof l);
            snprintf(run->problem, sizeof run->problem,
                     "%s did not start (exit status %d): %s", srv->exe, st, l);
        }
        for (int i = 0; argv[i]; i++)
            free(argv[i]);
        free(argv);
    }
    if (started < 0) {
        if (!keep) {
            nftw(run->dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
        }
        run->secs = (double)(cf_now_us() - wall0) / 1e6;
        return -1;
    }
    run->problem[0] = '\0';
    r.buf = cf_xrealloc(NULL, DGRAM_MAX);
    r.zbuf = cf_xrealloc(NULL, INFLATE_MAX);
    for (int i = 0; i < s->nclient; i++) {
        client_t *cl = &r.cl[i];
        cl->fd = open_client();
        cl->port = kind_port(&r, s->client[i].kind);
        cl->sync = s->client[i].sync;
        cl->zlevel = -1;
    }

    do_steps(&r);
    pump(&r, cf_now_us() + DRAIN_MS * 1000, NULL, NULL);
    int alive = cf_proc_alive(&r.proc);
    int status = cf_proc_stop(&r.proc, STOP_MS);
    char line[80];
    snprintf(line, sizeof line, alive ? "exit status %d (stopped by SIGINT)"
                                      : "exit status %d (exited before the end)", status);
    cf_stream_add(cf_run_stream(run, "exit"), cf_now_us() - r.t0, 0, 0, 0, line);
    for (int i = 0; i < s->nclient; i++)
        if (r.cl[i].fd >= 0)
            close(r.cl[i].fd);
    collect_files(&r);
    free(r.buf);
    free(r.zbuf);

    cf_norm_ctx_t nc = { .port = run->port, .dir = run->dir };
    for (int i = 0; i < run->nst; i++)
        for (int j = 0; j < run->st[i].n; j++) {
            char *t = cf_norm_line(&nc, run->st[i].rec[j].text);
            free(run->st[i].rec[j].text);
            run->st[i].rec[j].text = t;
        }
    if (!keep)
        nftw(run->dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    run->secs = (double)(cf_now_us() - wall0) / 1e6;
    return 0;
}

int cf_run_dump(const cf_run_t *run, const char *dir)
{
    mkdir(dir, 0755);
    for (int i = 0; i < run->nst; i++) {
        char path[600];
        snprintf(path, sizeof path, "%s/%s.%s.txt", dir, run->label, run->st[i].name);
        FILE *f = fopen(path, "w");
        if (!f)
            return -1;
        for (int j = 0; j < run->st[i].n; j++) {
            const cf_rec_t *rc = &run->st[i].rec[j];
            fprintf(f, "%+.6f %s%s%s\n", (double)rc->t_us / 1e6, rc->sent ? "> " : "",
                    rc->zlib ? "[zlib] " : "", rc->text);
        }
        fclose(f);
    }
    return 0;
}
