/* rcss-benchmon.c -- the monitor load of `make bench`: N UDP monitors (dispinit version V,
 * text) on 127.0.0.1 and M browser viewers (GET /events on server::http_port, the SSE
 * stream), for any server that speaks the monitor protocol (ours or the reference). Each
 * monitor and viewer notes the game time of every show frame it gets; at the end it
 * prints, for the window of game times [FROM, TO], how many frames every monitor got and
 * the fewest any one got (every frame: TO - FROM + 1). Runs until every monitor has seen
 * a frame of time TO, or SIGTERM/SIGINT, or TIMEOUT seconds without a frame.
 *     rcss-benchmon PORT N [--version V] [--http PORT M] [--from T] [--to T]
 *                   [--timeout S] */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct bm_peer {
    int    fd;
    int    http;          /* an SSE viewer */
    long   frames;        /* show frames of the window */
    int    last;          /* newest game time seen (-1 none) */
    int    done;          /* has seen TO */
    char   line[48];      /* SSE: the start of the current line */
    int    llen;
} bm_peer_t;

static volatile sig_atomic_t stop_flag;
static void on_signal(int sig) { (void)sig; stop_flag = 1; }

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int udp_monitor(const struct sockaddr_in *to, int version)
{
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
    if (fd < 0)
        return -1;
    int big = 1 << 20;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
    char msg[48];
    int n = snprintf(msg, sizeof msg, "(dispinit version %d)", version);
    if (sendto(fd, msg, (size_t)n + 1, 0, (const struct sockaddr *)to, sizeof *to) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static int sse_viewer(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    static const char req[] = "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                              "Accept: text/event-stream\r\n\r\n";
    if (write(fd, req, sizeof req - 1) != (ssize_t)(sizeof req - 1)) {
        close(fd);
        return -1;
    }
    fcntl(fd, F_SETFL, O_NONBLOCK);
    return fd;
}

static void bm_frame(bm_peer_t *p, int t, int from, int to)
{
    if (t >= from && t <= to && t != p->last)
        p->frames++;
    if (t > p->last)
        p->last = t;
    if (t >= to)
        p->done = 1;
}

/* a text show datagram: "(show T ..." */
static void bm_udp(bm_peer_t *p, const char *buf, ssize_t n, int from, int to)
{
    if (n > 6 && memcmp(buf, "(show ", 6) == 0)
        bm_frame(p, atoi(buf + 6), from, to);
}

/* SSE bytes: lines "data: {"show":{"time":T ..." (chunk sizes and blank lines between) */
static void bm_sse(bm_peer_t *p, const char *buf, ssize_t n, int from, int to)
{
    static const char key[] = "data: {\"show\":{\"time\":";
    for (ssize_t i = 0; i < n; i++) {
        char ch = buf[i];
        if (ch == '\n') {
            p->line[p->llen] = '\0';
            if (p->llen > (int)sizeof key - 1 && memcmp(p->line, key, sizeof key - 1) == 0)
                bm_frame(p, atoi(p->line + sizeof key - 1), from, to);
            p->llen = 0;
        } else if (p->llen < (int)sizeof p->line - 1) {
            p->line[p->llen++] = ch;
        }
    }
}

static void bm_read(bm_peer_t *p, int from, int to)
{
    static char buf[1 << 16];
    for (;;) {
        ssize_t n = recv(p->fd, buf, sizeof buf, MSG_DONTWAIT);
        if (n <= 0)
            return;
        if (p->http)
            bm_sse(p, buf, n, from, to);
        else
            bm_udp(p, buf, n, from, to);
    }
}

static void bm_report(const bm_peer_t *peer, int n, int http, int from, int to)
{
    long total = 0, fewest = -1;
    int cnt = 0;
    for (int i = 0; i < n; i++) {
        if (peer[i].http != http)
            continue;
        cnt++;
        total += peer[i].frames;
        if (fewest < 0 || peer[i].frames < fewest)
            fewest = peer[i].frames;
    }
    if (cnt == 0)
        return;
    printf("rcss-benchmon: %d %s: frames of cycles %d..%d: %.3f per %s of %d, fewest %ld\n",
           cnt, http ? "viewers" : "monitors", from, to, (double)total / cnt,
           http ? "viewer" : "monitor", to - from + 1, fewest);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s PORT N [--version V] [--http PORT M] [--from T] [--to T]"
                        " [--timeout S]\n", argv[0]);
        return 2;
    }
    int port = atoi(argv[1]), nmon = atoi(argv[2]), version = 5, hport = 0, nview = 0;
    int from = 0, to = 1 << 30, timeout = 10;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--version") == 0 && i + 1 < argc)
            version = atoi(argv[++i]);
        else if (strcmp(argv[i], "--http") == 0 && i + 2 < argc) {
            hport = atoi(argv[++i]);
            nview = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--from") == 0 && i + 1 < argc)
            from = atoi(argv[++i]);
        else if (strcmp(argv[i], "--to") == 0 && i + 1 < argc)
            to = atoi(argv[++i]);
        else if (strcmp(argv[i], "--timeout") == 0 && i + 1 < argc)
            timeout = atoi(argv[++i]);
        else {
            fprintf(stderr, "rcss-benchmon: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    if (nmon < 0 || nview < 0 || nmon + nview > 100000) {
        fprintf(stderr, "rcss-benchmon: bad counts\n");
        return 2;
    }
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    struct sigaction sa = { .sa_handler = on_signal };
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    int n = nmon + nview;
    bm_peer_t *peer = calloc((size_t)(n > 0 ? n : 1), sizeof *peer);
    int ep = epoll_create1(0);
    struct sockaddr_in srv = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    srv.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    for (int i = 0; i < n; i++) {
        peer[i].http = i >= nmon;
        peer[i].last = -1;
        peer[i].fd = peer[i].http ? sse_viewer(hport) : udp_monitor(&srv, version);
        if (peer[i].fd < 0) {
            fprintf(stderr, "rcss-benchmon: %s %d: %s\n", peer[i].http ? "viewer" : "monitor",
                    i, strerror(errno));
            return 1;
        }
        struct epoll_event e = { .events = EPOLLIN, .data.u32 = (uint32_t)i };
        epoll_ctl(ep, EPOLL_CTL_ADD, peer[i].fd, &e);
    }
    printf("rcss-benchmon: %d monitors, %d viewers connected\n", nmon, nview);
    fflush(stdout);
    int64_t last_frame = now_ms();
    int left = n;
    while (!stop_flag && left > 0 && now_ms() - last_frame < timeout * 1000LL) {
        struct epoll_event ev[512];
        int k = epoll_wait(ep, ev, 512, 200);
        if (k < 0 && errno != EINTR)
            break;
        for (int j = 0; j < k; j++) {
            bm_peer_t *p = &peer[ev[j].data.u32];
            int was = p->done;
            bm_read(p, from, to);
            left -= p->done && !was;
            last_frame = now_ms();
        }
    }
    bm_report(peer, n, 0, from, to);
    bm_report(peer, n, 1, from, to);
    for (int i = 0; i < n; i++)
        close(peer[i].fd);
    free(peer);
    return 0;
}
