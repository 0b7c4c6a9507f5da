/* mgw3d_replay_main.c -- rcss3d-logplayer: replays a 3D monitor log (monitor.log) to
 * monitors over the monitor protocol, as the server sends it: every monitor that
 * connects gets its own replay from the start, the Init at once and the other
 * expressions INTERVAL seconds apart (the server's Info period, 0.15 s), divided by
 * --speed (0: as fast as the monitor reads). Commands from monitors are read and
 * ignored. --once: leave after the first replay ended.
 * usage: rcss3d-logplayer [--port P] [--bind ADDR] [--interval S] [--speed X] [--once] FILE */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "frame.h"
#include "mgw3d.h"
#include "net_tcp.h"

#define PLAYER_MAX_PEERS 16
#define PLAYER_FILE_MAX  (512u << 20)

typedef struct viewer {
    int    fd;
    int    next;        /* next line */
    double due;         /* s, CLOCK_MONOTONIC */
} viewer_t;

static volatile sig_atomic_t stop_flag;
static void on_signal(int sig) { (void)sig; stop_flag = 1; }

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap || cap >= PLAYER_FILE_MAX)
            break;
        char *b = realloc(buf, cap * 2);
        if (!b) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = b;
        cap *= 2;
    }
    fclose(f);
    *len = n;
    return buf;
}

/* send what is due to v; 1 finished, 0 more to come, -1 gone */
static int viewer_step(viewer_t *v, const mgw3d_replay_t *r, double step)
{
    double t = now_s();
    while (v->next < r->n && t >= v->due) {
        if (frame_write(v->fd, r->line[v->next], r->len[v->next]) < 0)
            return -1;
        v->next++;
        v->due = step > 0 ? v->due + step : t;
    }
    return v->next >= r->n;
}

/* read and drop whatever a viewer sends; -1 when it closed */
static int viewer_drain(viewer_t *v)
{
    char buf[4096];
    ssize_t n = recv(v->fd, buf, sizeof buf, MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
        return -1;
    return 0;
}

static int serve(int lfd, const mgw3d_replay_t *r, double step, int once)
{
    viewer_t view[PLAYER_MAX_PEERS];
    int nv = 0, played = 0;
    while (!stop_flag && !(once && played && nv == 0)) {
        struct pollfd pf[PLAYER_MAX_PEERS + 1];
        pf[0] = (struct pollfd){ .fd = lfd, .events = POLLIN };
        for (int i = 0; i < nv; i++)
            pf[i + 1] = (struct pollfd){ .fd = view[i].fd, .events = POLLIN };
        poll(pf, (nfds_t)nv + 1, nv == 0 ? 100 : step > 0 ? 10 : 0);
        if ((pf[0].revents & POLLIN) && nv < PLAYER_MAX_PEERS) {
            int fd = accept(lfd, NULL, NULL);
            if (fd >= 0)
                view[nv++] = (viewer_t){ fd, 0, now_s() };
        }
        for (int i = 0; i < nv; i++) {
            int rc = (pf[i + 1].revents & (POLLIN | POLLHUP)) ? viewer_drain(&view[i]) : 0;
            if (rc == 0)
                rc = viewer_step(&view[i], r, step);
            if (rc != 0) {
                played |= rc > 0;
                close(view[i].fd);
                view[i--] = view[--nv];
            }
        }
    }
    for (int i = 0; i < nv; i++)
        close(view[i].fd);
    return 0;
}

int main(int argc, char **argv)
{
    const char *path = NULL, *bind = "";
    int port = 12001, once = 0;
    double interval = 0.15, speed = 1.0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--port") && i + 1 < argc)
            port = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--bind") && i + 1 < argc)
            bind = argv[++i];
        else if (!strcmp(argv[i], "--interval") && i + 1 < argc)
            interval = atof(argv[++i]);
        else if (!strcmp(argv[i], "--speed") && i + 1 < argc)
            speed = atof(argv[++i]);
        else if (!strcmp(argv[i], "--once"))
            once = 1;
        else if (!path && argv[i][0] != '-')
            path = argv[i];
        else
            path = NULL, i = argc;
    }
    if (!path || port <= 0 || port > 65535 || interval < 0 || speed < 0) {
        fprintf(stderr, "usage: rcss3d-logplayer [--port P] [--bind ADDR] [--interval S] "
                        "[--speed X] [--once] FILE\n");
        return 1;
    }
    size_t len = 0;
    char err[256], *text = read_file(path, &len);
    if (!text) {
        fprintf(stderr, "rcss3d-logplayer: cannot read %s: %s\n", path, strerror(errno));
        return 1;
    }
    mgw3d_replay_t r;
    if (mgw3d_replay_load(&r, text, len, err, sizeof err) < 0) {
        fprintf(stderr, "rcss3d-logplayer: %s: %s\n", path, err);
        mgw3d_replay_free(&r);
        return 1;
    }
    if (r.dropped)
        fprintf(stderr, "rcss3d-logplayer: %s: %d damaged lines left out\n", path, r.dropped);
    int lfd = net_tcp_listen(bind, port, 16, err, sizeof err);
    if (lfd < 0) {
        fprintf(stderr, "rcss3d-logplayer: %s\n", err);
        mgw3d_replay_free(&r);
        return 1;
    }
    signal(SIGPIPE, SIG_IGN);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    printf("rcss3d-logplayer: %d expressions of %s on TCP port %d\n", r.n, path, port);
    fflush(stdout);
    serve(lfd, &r, speed > 0 ? interval / speed : 0.0, once);
    close(lfd);
    mgw3d_replay_free(&r);
    return 0;
}
