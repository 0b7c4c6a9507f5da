/* lp_main.c -- rcss-logplayer [options] FILE: replays a game log of any version (plain
 * or gzip) to UDP monitors of any version (lp_mon.c) on --port and to browsers
 * (lp_http.c) on --http-port. Commands on stdin, one per line (lp_ctl.c); a status line
 * answers each. The same commands come from the page and from a monitor's (dispstart);
 * every one goes through lp_apply, which sends the frame, re-arms the timer and tells the
 * page. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <event2/event.h>
#include "lp.h"
#include "net.h"
#include "sse.h"

/* ---- playback ------------------------------------------------------------------------- */
static void arm_timer(lp_t *lp)
{
    event_del(lp->tick_ev);
    if (!lp->play.playing)
        return;
    int ms = lp_period_ms(&lp->play);
    struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
    event_add(lp->tick_ev, &tv);
}

/* what a command or a tick asks; the page gets the state after every command, and after
 * a tick that moved (a frame counter) */
static void apply(lp_t *lp, int out, int after_cmd)
{
    if (out & LP_OUT_FRAME) {
        lp_mon_frame(lp);
        lp_http_frame(lp);
    }
    if (out & LP_OUT_TIMER)
        arm_timer(lp);
    if (after_cmd || (out & (LP_OUT_TIMER | LP_OUT_FRAME)))
        lp_http_status(lp, after_cmd);
    if (out & LP_OUT_QUIT)
        event_base_loopbreak(lp->base);
}

int lp_apply(lp_t *lp, const char *cmd, char *reply, size_t len)
{
    int out = lp_command(&lp->play, &lp->log, cmd, reply, len);
    apply(lp, out, !(out & LP_OUT_ERROR));
    return out;
}

static void on_tick(evutil_socket_t fd, short what, void *arg)
{
    lp_t *lp = arg;
    (void)fd;
    (void)what;
    int out = lp_tick(&lp->play);
    apply(lp, out, 0);
    if (out & LP_OUT_TIMER) { /* stopped at an end */
        char st[160];
        lp_status(&lp->play, &lp->log, st, sizeof st);
        printf("%s\n", st);
        fflush(stdout);
    }
}

static void command(lp_t *lp, const char *line)
{
    char reply[320];
    lp_apply(lp, line, reply, sizeof reply);
    printf("%s\n", reply);
    fflush(stdout);
}

static void on_stdin(evutil_socket_t fd, short what, void *arg)
{
    lp_t *lp = arg;
    (void)what;
    ssize_t n = read(fd, lp->line + lp->line_len, sizeof lp->line - 1 - lp->line_len);
    if (n <= 0) {
        if (n == 0 || (errno != EAGAIN && errno != EINTR))
            event_del(lp->stdin_ev); /* stdin closed: monitors and the timer go on */
        return;
    }
    lp->line_len += (size_t)n;
    lp->line[lp->line_len] = '\0';
    char *start = lp->line, *nl;
    while ((nl = strchr(start, '\n'))) {
        *nl = '\0';
        command(lp, start);
        start = nl + 1;
    }
    lp->line_len = strlen(start);
    memmove(lp->line, start, lp->line_len + 1);
    if (lp->line_len == sizeof lp->line - 1) /* a line too long to be a command */
        lp->line_len = 0;
}

/* ---- process -------------------------------------------------------------------------- */
static void on_signal(evutil_socket_t sig, short what, void *arg)
{
    (void)sig;
    (void)what;
    event_base_loopbreak(((lp_t *)arg)->base);
}

static void usage(void)
{
    fprintf(stderr, "usage: rcss-logplayer [--port P] [--bind ADDR] [--http-port P] "
                    "[--http-token T] [--play] [--speed X] [--jump CYCLE] FILE.rcg[.gz]\n"
                    "  monitors of any version (1-5, JSON) send (dispinit ...) to --port "
                    "(6000);\n  browsers open http://HOST:HTTP-PORT/ (with --http-port)\n"
                    "commands on stdin and from the page: play, pause, step [N], back [N], "
                    "reverse, faster, slower, speed X, jump CYCLE, first, last, status, quit\n");
}

typedef struct lp_opts {
    const char *file;
    int         port;
    int         http_port;
    int         play;
    double      speed;
    long        jump;
    int         has_jump;
} lp_opts_t;

/* a value option: copies or converts v; -1 if it is malformed */
static int opt_value(const char *a, const char *v, lp_t *lp, lp_opts_t *o)
{
    char *end = NULL;
    if (!strcmp(a, "--port")) {
        o->port = (int)strtol(v, &end, 10);
    } else if (!strcmp(a, "--http-port")) {
        o->http_port = (int)strtol(v, &end, 10);
    } else if (!strcmp(a, "--speed")) {
        o->speed = strtod(v, &end);
    } else if (!strcmp(a, "--jump")) {
        o->jump = strtol(v, &end, 10);
        o->has_jump = 1;
    } else if (!strcmp(a, "--bind") && strlen(v) < sizeof lp->bind) {
        snprintf(lp->bind, sizeof lp->bind, "%s", v);
    } else if (!strcmp(a, "--http-token") && strlen(v) < sizeof lp->token && v[0]) {
        snprintf(lp->token, sizeof lp->token, "%s", v);
    } else {
        return -1;
    }
    return end && (*end || end == v) ? -1 : 0;
}

static int parse_args(int argc, char **argv, lp_t *lp, lp_opts_t *o)
{
    o->port = 6000;
    o->speed = 1.0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--play")) {
            o->play = 1;
        } else if (a[0] == '-' && a[1] == '-' && i + 1 < argc) {
            if (opt_value(a, argv[++i], lp, o) < 0)
                return -1;
        } else if (a[0] != '-' && !o->file) {
            o->file = a;
        } else {
            return -1;
        }
    }
    return o->file && o->port > 0 && o->port < 65536 && o->http_port >= 0
           && o->http_port < 65536 && o->speed > 0.0 ? 0 : -1;
}

static int make_events(lp_t *lp)
{
    lp->base = event_base_new();
    if (!lp->base)
        return -1;
    lp->listen_ev = event_new(lp->base, lp->fd, EV_READ | EV_PERSIST, lp_mon_listen, lp);
    lp->stdin_ev = event_new(lp->base, 0, EV_READ | EV_PERSIST, on_stdin, lp);
    lp->tick_ev = event_new(lp->base, -1, EV_PERSIST, on_tick, lp);
    lp->sig_ev[0] = evsignal_new(lp->base, SIGTERM, on_signal, lp);
    lp->sig_ev[1] = evsignal_new(lp->base, SIGINT, on_signal, lp);
    if (!lp->listen_ev || !lp->stdin_ev || !lp->tick_ev || !lp->sig_ev[0] || !lp->sig_ev[1])
        return -1;
    event_add(lp->listen_ev, NULL);
    struct stat st;
    /* commands come from a terminal or a pipe; a file or /dev/null cannot be watched */
    if (fstat(0, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || isatty(0)))
        event_add(lp->stdin_ev, NULL);
    event_add(lp->sig_ev[0], NULL);
    event_add(lp->sig_ev[1], NULL);
    return 0;
}

/* the first line: what was read, and what the reader had to say about the file */
static void say_hello(const lp_t *lp, const lp_opts_t *o)
{
    const rcg_t *g = &lp->log;
    printf("%s: version %d, %d frames (cycles %d-%d)", o->file, g->version, g->n_frames,
           g->n_frames ? g->frame[0].show.time : 0,
           g->n_frames ? g->frame[g->n_frames - 1].show.time : 0);
    if (g->has_seed)
        printf(", random seed %llu", (unsigned long long)g->seed);
    if (g->bad_items)
        printf(", %d malformed items skipped", g->bad_items);
    printf("; monitors on port %d", net_udp_local_port(lp->fd));
    if (lp->http)
        printf(", browsers on http port %d", sse_port(lp->http));
    printf("\n");
    if (g->note[0])
        printf("note: %s\n", g->note);
    fflush(stdout);
}

static int lp_start(lp_t *lp, const lp_opts_t *o)
{
    char err[512];
    if (rcg_read_file(o->file, &lp->log, err, sizeof err) < 0) {
        fprintf(stderr, "rcss-logplayer: %s\n", err);
        return -1;
    }
    lp->fd = net_udp_bind(lp->bind, o->port, 0, err, sizeof err);
    if (lp->fd < 0) {
        fprintf(stderr, "rcss-logplayer: %s\n", err);
        return -1;
    }
    lp_init(&lp->play, lp->log.n_frames);
    lp->play.speed = o->speed < LP_SPEED_MIN ? LP_SPEED_MIN
                     : o->speed > LP_SPEED_MAX ? LP_SPEED_MAX : o->speed;
    if (o->has_jump)
        lp->play.cur = rcg_frame_at(&lp->log, (int)o->jump);
    lp->play.playing = o->play && lp->log.n_frames > 1;
    lp->shown = lp->play.cur;
    for (int v = 0; v < MGW_NVER; v++)
        lp->enc_frame[v] = -1;
    for (int k = 0; k < LP_MAX_MONITORS; k++)
        lp->mon[k].fd = -1;
    if (make_events(lp) < 0 || lp_http_start(lp, o->http_port) < 0)
        return -1;
    arm_timer(lp);
    say_hello(lp, o);
    return 0;
}

static void lp_stop(lp_t *lp)
{
    lp_mon_close_all(lp);
    lp_http_stop(lp);
    struct event *evs[] = { lp->listen_ev, lp->stdin_ev, lp->tick_ev, lp->sig_ev[0], lp->sig_ev[1] };
    for (size_t i = 0; i < sizeof evs / sizeof evs[0]; i++) {
        if (evs[i])
            event_free(evs[i]);
    }
    if (lp->base)
        event_base_free(lp->base);
    if (lp->fd >= 0)
        close(lp->fd);
    rcg_free(&lp->log);
}

int main(int argc, char **argv)
{
    static lp_t lp; /* large: encoded frames, the log */
    lp_opts_t o;
    memset(&o, 0, sizeof o);
    signal(SIGPIPE, SIG_IGN);
    lp.fd = -1;
    if (parse_args(argc, argv, &lp, &o) < 0) {
        usage();
        return 2;
    }
    int rc = lp_start(&lp, &o) == 0 ? 0 : 1;
    if (rc == 0)
        event_base_dispatch(lp.base);
    lp_stop(&lp);
    return rc;
}
