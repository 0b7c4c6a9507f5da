/* lp_main.c -- rcss-logplayer [options] FILE: replays a game log (plain or gzip) to
 * monitors. Monitors send (dispinit version 3|4|5) to --port; each gets the log's
 * parameter messages, the team graphics so far and the current frame from a socket of its
 * own, then every frame as the playback moves (frames encoded once per version with the
 * live encoder, mgw_encode_show; going forward one frame also sends the messages that came
 * before it). Commands on stdin, one per line (lp_ctl.c); a status line answers each. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <event2/event.h>
#include "dispinit.h"
#include "lp.h"
#include "mgw.h"
#include "net.h"

typedef struct lp_mon {
    int                      used;
    int                      version;
    int                      fd;          /* connected to the monitor */
    struct event            *ev;
    struct lp               *lp;
} lp_mon_t;

typedef struct lp {
    rcg_t               log;
    lp_play_t           play;
    char                bind[64];
    int                 fd;               /* the port monitors send their dispinit to */
    struct event_base  *base;
    struct event       *listen_ev, *stdin_ev, *tick_ev, *sig_ev[2];
    lp_mon_t            mon[LP_MAX_MONITORS];
    int                 shown;            /* frame last sent */
    int                 enc_frame[MGW_NVER];  /* frame encoded in enc[v] */
    char                enc[MGW_NVER][MGW_FRAME_MAX];
    char                line[4096];       /* stdin bytes of an unfinished line */
    size_t              line_len;
} lp_t;

/* ---- sending ------------------------------------------------------------------------- */
static void mon_close(lp_mon_t *m)
{
    if (m->ev)
        event_free(m->ev);
    if (m->fd >= 0)
        close(m->fd);
    memset(m, 0, sizeof *m);
    m->fd = -1;
}

static void mon_send(lp_mon_t *m, const char *text)
{
    if (net_udp_send(m->fd, text, strlen(text) + 1) < 0 && errno == ECONNREFUSED) {
        printf("a monitor left\n");
        mon_close(m);
    }
}

static const char *frame_text(lp_t *lp, int version)
{
    if (lp->enc_frame[version] != lp->play.cur) {
        const shm_snapshot_sh_t *s = &lp->log.frame[lp->play.cur].snap;
        if (mgw_encode_show(s, version, lp->enc[version], MGW_FRAME_MAX) < 0)
            lp->enc[version][0] = '\0';
        lp->enc_frame[version] = lp->play.cur;
    }
    return lp->enc[version];
}

/* board-1 messages [from, to) to every monitor; only_graphics for a late monitor */
static void send_msgs(lp_t *lp, lp_mon_t *only, int from, int to, int only_graphics)
{
    char buf[MGW_FRAME_MAX];
    for (int i = from; i < to; i++) {
        const rcg_msg_t *msg = &lp->log.msg[i];
        if (msg->board != 1 || (only_graphics && strncmp(msg->text, "(team_graphic_", 14)))
            continue;
        if (mgw_encode_msg(msg->time, 1, msg->text, buf, sizeof buf) < 0)
            continue;
        for (int k = 0; k < LP_MAX_MONITORS; k++) {
            lp_mon_t *m = &lp->mon[k];
            if (m->used && (!only || only == m))
                mon_send(m, buf);
        }
    }
}

static void show_frame(lp_t *lp)
{
    int cur = lp->play.cur;
    if (lp->log.n_frames == 0)
        return;
    if (cur == lp->shown + 1) /* played forward: what happened in between */
        send_msgs(lp, NULL, lp->log.frame[lp->shown].msg_end, lp->log.frame[cur].msg_end, 0);
    lp->shown = cur;
    for (int k = 0; k < LP_MAX_MONITORS; k++) {
        lp_mon_t *m = &lp->mon[k];
        if (m->used)
            mon_send(m, frame_text(lp, m->version));
    }
}

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

static void apply(lp_t *lp, int out)
{
    if (out & LP_OUT_FRAME)
        show_frame(lp);
    if (out & LP_OUT_TIMER)
        arm_timer(lp);
    if (out & LP_OUT_QUIT)
        event_base_loopbreak(lp->base);
}

static void on_tick(evutil_socket_t fd, short what, void *arg)
{
    lp_t *lp = arg;
    (void)fd;
    (void)what;
    int out = lp_tick(&lp->play);
    apply(lp, out);
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
    int out = lp_command(&lp->play, &lp->log, line, reply, sizeof reply);
    printf("%s\n", reply);
    fflush(stdout);
    apply(lp, out);
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

/* ---- monitors ------------------------------------------------------------------------ */
static void mon_init(lp_t *lp, lp_mon_t *m)
{
    if (lp->log.server_param)
        mon_send(m, lp->log.server_param);
    if (m->used && lp->log.player_param)
        mon_send(m, lp->log.player_param);
    for (int i = 0; m->used && i < lp->log.n_types; i++)
        mon_send(m, lp->log.player_type[i]);
    if (m->used && lp->log.n_frames > 0) {
        send_msgs(lp, m, 0, lp->log.frame[lp->play.cur].msg_end, 1);
        if (m->used)
            mon_send(m, frame_text(lp, m->version));
    }
}

/* the text protocols only: the binary and JSON init blocks are not replayed yet */
static int lp_version_served(int version)
{
    return version >= 3 && version <= DISPINIT_MAX_VERSION;
}

static void on_monitor(evutil_socket_t fd, short what, void *arg)
{
    lp_mon_t *m = arg;
    lp_t *lp = m->lp;
    char buf[512];
    int version;
    (void)what;
    for (int i = 0; i < 16 && m->used; i++) {
        ssize_t n = recv(fd, buf, sizeof buf - 1, MSG_DONTWAIT);
        if (n < 0) {
            if (errno == ECONNREFUSED)
                mon_close(m);
            return;
        }
        buf[n] = '\0';
        if (strncmp(buf, "(dispbye", 8) == 0) {
            printf("a monitor left\n");
            mon_close(m);
        } else if (strncmp(buf, "(dispstart", 10) == 0) {
            command(lp, "play");
        } else if (dispinit_parse(buf, strlen(buf), &version) == 0
                   && lp_version_served(version)) {
            m->version = version;
            mon_init(lp, m);
        }
    }
}

static void mon_add(lp_t *lp, const struct sockaddr_storage *from, int version)
{
    char err[256];
    lp_mon_t *m = NULL;
    for (int k = 0; k < LP_MAX_MONITORS && !m; k++)
        m = lp->mon[k].used ? NULL : &lp->mon[k];
    if (!m) {
        net_udp_sendto(lp->fd, from, "(error no_more_monitor)", 24);
        return;
    }
    m->fd = net_udp_connected(lp->bind, 0, from, err, sizeof err);
    if (m->fd < 0) {
        fprintf(stderr, "rcss-logplayer: %s\n", err);
        return;
    }
    m->used = 1;
    m->version = version;
    m->lp = lp;
    m->ev = event_new(lp->base, m->fd, EV_READ | EV_PERSIST, on_monitor, m);
    event_add(m->ev, NULL);
    printf("a monitor (version %d) connected\n", version);
    fflush(stdout);
    mon_init(lp, m);
}

static void on_listen(evutil_socket_t fd, short what, void *arg)
{
    lp_t *lp = arg;
    char buf[512];
    (void)what;
    for (int i = 0; i < 16; i++) {
        struct sockaddr_storage from;
        socklen_t fl = sizeof from;
        ssize_t n = recvfrom(fd, buf, sizeof buf - 1, MSG_DONTWAIT, (struct sockaddr *)&from, &fl);
        if (n < 0)
            return;
        buf[n] = '\0';
        size_t len = strlen(buf);
        while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
            buf[--len] = '\0';
        int version;
        if (dispinit_parse(buf, len, &version) < 0)
            continue; /* not a monitor: nothing to say to it */
        if (!lp_version_served(version)) {
            const char *e = "(error illegal_client_version)";
            net_udp_sendto(fd, &from, e, strlen(e) + 1);
            continue;
        }
        mon_add(lp, &from, version);
    }
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
    fprintf(stderr, "usage: rcss-logplayer [--port P] [--bind ADDR] [--play] [--speed X] "
                    "[--jump CYCLE] FILE.rcg[.gz]\n"
                    "commands on stdin: play, pause, step [N], back [N], reverse, faster, "
                    "slower, speed X, jump CYCLE, first, last, status, quit\n");
}

typedef struct lp_opts {
    const char *file;
    int         port;
    int         play;
    double      speed;
    long        jump;
    int         has_jump;
} lp_opts_t;

static int parse_args(int argc, char **argv, lp_t *lp, lp_opts_t *o)
{
    o->port = 6000;
    o->speed = 1.0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(a, "--play")) {
            o->play = 1;
        } else if (!strcmp(a, "--port") && v) {
            o->port = (int)strtol(v, &end, 10);
            i++;
        } else if (!strcmp(a, "--bind") && v && strlen(v) < sizeof lp->bind) {
            snprintf(lp->bind, sizeof lp->bind, "%s", v);
            i++;
        } else if (!strcmp(a, "--speed") && v) {
            o->speed = strtod(v, &end);
            i++;
        } else if (!strcmp(a, "--jump") && v) {
            o->jump = strtol(v, &end, 10);
            o->has_jump = 1;
            i++;
        } else if (a[0] != '-' && !o->file) {
            o->file = a;
        } else {
            return -1;
        }
        if (end && *end)
            return -1;
    }
    return o->file && o->port > 0 && o->port < 65536 && o->speed > 0.0 ? 0 : -1;
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
    lp->play.speed = o->speed;
    if (o->has_jump)
        lp->play.cur = rcg_frame_at(&lp->log, (int)o->jump);
    lp->play.playing = o->play && lp->log.n_frames > 1;
    lp->shown = lp->play.cur;
    for (int v = 0; v < MGW_NVER; v++)
        lp->enc_frame[v] = -1;
    for (int k = 0; k < LP_MAX_MONITORS; k++)
        lp->mon[k].fd = -1;
    lp->base = event_base_new();
    if (!lp->base)
        return -1;
    lp->listen_ev = event_new(lp->base, lp->fd, EV_READ | EV_PERSIST, on_listen, lp);
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
    arm_timer(lp);
    const rcg_t *g = &lp->log;
    printf("%s: version %d, %d frames (cycles %d-%d)", o->file, g->version, g->n_frames,
           g->n_frames ? g->frame[0].snap.time : 0,
           g->n_frames ? g->frame[g->n_frames - 1].snap.time : 0);
    if (g->has_seed)
        printf(", random seed %llu", (unsigned long long)g->seed);
    if (g->bad_lines)
        printf(", %d malformed lines skipped", g->bad_lines);
    printf("; monitors on port %d\n", net_udp_local_port(lp->fd));
    fflush(stdout);
    return 0;
}

static void lp_stop(lp_t *lp)
{
    for (int k = 0; k < LP_MAX_MONITORS; k++) {
        if (lp->mon[k].used)
            mon_close(&lp->mon[k]);
    }
    struct event *evs[] = { lp->listen_ev, lp->stdin_ev, lp->tick_ev, lp->sig_ev[0], lp->sig_ev[1] };
    for (size_t i = 0; i < sizeof evs / sizeof evs[0]; i++) {
        if (evs[i])
            event_free(evs[i]);
    }
    if (lp->base)
        event_base_free(lp->base);
    if (lp->fd > 0)
        close(lp->fd);
    rcg_free(&lp->log);
}

int main(int argc, char **argv)
{
    static lp_t lp; /* large: encoded frames */
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
