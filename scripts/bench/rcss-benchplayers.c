/* rcss-benchplayers.c -- trivial players for benchmarks: N players (default 22, half of
 * them in team BenchL, half in BenchR; protocol 19) that do nothing but answer each
 * (think) with (done), so a synch-mode server runs as fast as it can serve a full
 * field. Used by `make bench` (scripts/bench-synch.sh, bench-clock.sh) against this
 * server or the reference: everything is measured from the client side.
 *
 * With --from T --to T2 player 1 times the window of game times [T, T2] by its
 * sense_body messages and prints the cycles per second; with --pid NAME=PID (repeated)
 * also each process's CPU time per cycle over the window (utime + stime from
 * /proc/PID/stat) and at its end the RSS and PSS (/proc/PID/status, smaps_rollup);
 * with --period it prints the sense_body arrival times' mean period and deviation
 * from the ideal grid (first + n x simulator_step) instead: real-time mode; the times
 * player 1 read them, and the kernel's time stamps of their arrival in its socket (the
 * server's part, without this process's own wait for a CPU on a loaded machine).
 * With --stalls K (real time, with --pid) every player notes where in its cycle each see
 * arrives (ms after its latest sense_body; every other player speaks protocol 12); 5 s into the window the listed processes
 * are stopped K times for 60 ms (SIGSTOP/SIGCONT), 1.7 s apart at different moments of
 * a cycle, and it prints how many sees stayed within 7 ms of the player's own phases
 * from before the stalls: near a stall (up to 300 ms after it) and later.
 * Leaves on SIGINT/SIGTERM or when the server has been silent for 3 s.
 * usage: rcss-benchplayers PORT [N] [--host ADDR] [--from T --to T2] [--period]
 *                          [--stalls K] [--step MS] [--pid NAME=PID]... */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BENCH_MAX   22
#define BENCH_PIDS  16

#define STALL_MS        60
#define STALL_FIRST_MS  5000    /* phases before the first stall: the baseline */
#define STALL_GAP_MS    1723    /* not a multiple of the cycle: each stall at another moment */
#define STALL_NEAR_MS   300     /* a see this long after a stall's end counts as near it */
#define PHASE_TOL_MS    7.0     /* in place: this close to one of the player's own phases */
#define PHASE_MAX       8       /* phases per player kept from the baseline */

static volatile sig_atomic_t stop_flag;
static void on_signal(int sig) { (void)sig; stop_flag = 1; }

typedef struct bench_proc {
    char   name[32];
    int    pid;
    double cpu0, cpu1;     /* ms of CPU at the window's start and end */
    double sys0, sys1;     /* of which in the kernel (stime) */
    long   rss_kb, pss_kb;
} bench_proc_t;

typedef struct bench {
    int          from, to, period;
    double       step_ms;
    int          nproc;
    bench_proc_t proc[BENCH_PIDS];
    int64_t      t0, t1;   /* window start and end (ns) */
    double       self0, self1; /* this process's CPU (ms) then */
    int64_t     *arr;      /* --period: arrival times (read by the player) */
    long         narr;
    int64_t     *arrk;     /* and when the kernel put each in its socket (SO_TIMESTAMPNS,
                              CLOCK_REALTIME): the server's part without this process's
                              own wait for a CPU */
    long         narrk;
    int          reported;
    int          stalls, nstalled;   /* --stalls: how many, how many done */
    int64_t      stall_t[2 * 16];    /* start and end of each (ns) */
    int64_t      last_sb[BENCH_MAX]; /* each player's latest sense_body (ns) */
    struct see_rec { int64_t t; float off_ms; int player; } *see;
    long         nsee, see_cap;
} bench_t;

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* CPU time of pid in ms (utime + stime), the kernel's share in *sys */
static double proc_cpu_ms(int pid, double *sys)
{
    char path[64], line[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char *ok = fgets(line, sizeof line, f);
    fclose(f);
    const char *p = ok ? strrchr(line, ')') : NULL;
    unsigned long ut = 0, st = 0;
    /* fields after the command: state(3) ... utime(14) stime(15) */
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
        return -1;
    double tick = 1000.0 / (double)sysconf(_SC_CLK_TCK);
    *sys = (double)st * tick;
    return (double)(ut + st) * tick;
}

/* the value (kB) of "KEY: N kB" in /proc/PID/FILE, -1 if absent */
static long proc_kb(int pid, const char *file, const char *key)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/%s", pid, file);
    FILE *f = fopen(path, "r");
    long v = -1;
    size_t kl = strlen(key);
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, key, kl) == 0 && line[kl] == ':') {
            v = atol(line + kl + 1);
            break;
        }
    }
    if (f)
        fclose(f);
    return v;
}

static double self_cpu_ms(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1000.0
           + (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1000.0;
}

static int send_to(int fd, const struct sockaddr_in *a, const char *msg)
{
    return (int)sendto(fd, msg, strlen(msg) + 1, 0, (const struct sockaddr *)a, sizeof *a);
}

/* init one player; its own port into srv. 0 ok */
static int connect_one(int fd, const struct sockaddr_in *init, const char *team, int version,
                       struct sockaddr_in *srv)
{
    char msg[64], buf[8192];
    snprintf(msg, sizeof msg, "(init %s (version %d))", team, version);
    send_to(fd, init, msg);
    struct pollfd p = { .fd = fd, .events = POLLIN };
    while (poll(&p, 1, 3000) > 0) {
        socklen_t l = sizeof *srv;
        ssize_t n = recvfrom(fd, buf, sizeof buf - 1, 0, (struct sockaddr *)srv, &l);
        if (n <= 0)
            break;
        buf[n] = '\0';
        if (strncmp(buf, "(init ", 6) == 0)
            return 0;
        if (strncmp(buf, "(error", 6) == 0) {
            fprintf(stderr, "rcss-benchplayers: %s\n", buf);
            return -1;
        }
    }
    fprintf(stderr, "rcss-benchplayers: no init reply for %s\n", team);
    return -1;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* the deviations of n arrival times t from the grid t[0] + i x step, one line */
static void report_deviation(const char *label, const int64_t *t, long n, int64_t step)
{
    int64_t *dev = calloc((size_t)(n > 0 ? n : 1), sizeof *dev);
    if (n < 2 || !dev) {
        free(dev);
        return;
    }
    for (long i = 0; i < n; i++) {
        int64_t d = t[i] - (t[0] + i * step);
        dev[i] = d < 0 ? -d : d;
    }
    qsort(dev, (size_t)n, sizeof *dev, cmp_i64);
    printf("  %-22s p50 %.3f ms  p99 %.3f ms  max %.3f ms\n", label, dev[n / 2] / 1e6,
           dev[(n * 99) / 100] / 1e6, dev[n - 1] / 1e6);
    free(dev);
}

static void report_period(const bench_t *b)
{
    long n = b->narr;
    int64_t step = (int64_t)(b->step_ms * 1e6);
    const int64_t *t = b->arr;
    if (n < 2)
        return;
    printf("  sense_body arrivals    %ld cycles, mean period %.4f ms, drift %+.3f ms\n", n,
           (double)(t[n - 1] - t[0]) / (double)(n - 1) / 1e6,
           (double)(t[n - 1] - t[0] - (n - 1) * step) / 1e6);
    report_deviation("deviation from ideal", t, n, step);
    if (b->narrk == n)
        report_deviation("deviation at socket", b->arrk, b->narrk, step);
}

static int cmp_f(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* player i's phases from the sees before the first stall: clusters of offsets (3 ms
 * apart at most) holding at least a tenth of them; returns how many */
static int base_phases(const bench_t *b, int player, float *ph)
{
    static float off[4096];
    int n = 0, np = 0;
    for (long k = 0; k < b->nsee && n < 4096; k++)
        if (b->see[k].player == player && b->see[k].t < b->stall_t[0])
            off[n++] = b->see[k].off_ms;
    qsort(off, (size_t)n, sizeof *off, cmp_f);
    for (int i = 0; i < n && np < PHASE_MAX;) {
        int j = i + 1;
        double sum = off[i];
        for (; j < n && off[j] - off[j - 1] <= 3.0f; j++)
            sum += off[j];
        if ((j - i) * 10 >= n)
            ph[np++] = (float)(sum / (j - i));
        i = j;
    }
    return np;
}

static void report_phases(const bench_t *b)
{
    if (b->nstalled < b->stalls || b->stalls == 0) {
        printf("  see phases: only %d of %d stalls done in the window\n", b->nstalled, b->stalls);
        return;
    }
    float ph[BENCH_MAX][PHASE_MAX];
    int nph[BENCH_MAX];
    for (int i = 0; i < BENCH_MAX; i++)
        nph[i] = base_phases(b, i, ph[i]);
    long near = 0, near_ok = 0, later = 0, later_ok = 0, before = 0, before_ok = 0;
    for (long k = 0; k < b->nsee; k++) {
        const struct see_rec *r = &b->see[k];
        int ok = 0;
        for (int j = 0; j < nph[r->player]; j++)
            ok |= fabsf(r->off_ms - ph[r->player][j]) <= PHASE_TOL_MS;
        int is_near = 0;
        for (int s = 0; s < b->stalls; s++)
            is_near |= r->t >= b->stall_t[2 * s]
                       && r->t <= b->stall_t[2 * s + 1] + (int64_t)STALL_NEAR_MS * 1000000;
        if (r->t < b->stall_t[0]) {
            before++;
            before_ok += ok;
        } else if (is_near) {
            near++;
            near_ok += ok;
        } else {
            later++;
            later_ok += ok;
        }
    }
    for (int p = 0; p < 2; p++) {
        printf("  see phases of player %d (protocol %d) before the stalls:", p + 1,
               p ? 12 : 19);
        for (int j = 0; j < nph[p]; j++)
            printf(" %.1f", ph[p][j]);
        printf(" ms after its sense_body\n");
    }
    printf("  sees in place (within %.0f ms of the player's phases before the stalls), %d"
           " stalls of %d ms:\n", PHASE_TOL_MS, b->stalls, STALL_MS);
    printf("    before %.1f %% of %ld, near a stall %.1f %% of %ld, later %.1f %% of %ld\n",
           before ? 100.0 * before_ok / before : 0.0, before,
           near ? 100.0 * near_ok / near : 0.0, near, later ? 100.0 * later_ok / later : 0.0,
           later);
}

static void report(bench_t *b)
{
    int cycles = b->to - b->from;
    double secs = (double)(b->t1 - b->t0) / 1e9;
    b->reported = 1;
    if (b->stalls) {
        report_phases(b);
    } else if (b->period) {
        report_period(b);
    } else {
        printf("  cycles %d..%d          %.3f s, %.1f cycles/s, %.4f ms per cycle\n", b->from,
               b->to, secs, cycles / secs, secs * 1000.0 / cycles);
    }
    double total = 0, tsys = 0;
    long rss = 0, pss = 0;
    for (int i = 0; i < b->nproc; i++) {
        bench_proc_t *p = &b->proc[i];
        double ms = (p->cpu1 - p->cpu0) / cycles, sys = (p->sys1 - p->sys0) / cycles;
        total += ms;
        tsys += sys;
        rss += p->rss_kb > 0 ? p->rss_kb : 0;
        pss += p->pss_kb > 0 ? p->pss_kb : 0;
        printf("  cpu %-18s %.4f ms per cycle (kernel %.4f)   rss %6ld kB  pss %6ld kB\n",
               p->name, ms, sys, p->rss_kb, p->pss_kb);
    }
    if (b->nproc > 1)
        printf("  cpu %-18s %.4f ms per cycle (kernel %.4f)   rss %6ld kB  pss %6ld kB\n",
               "(server total)", total, tsys, rss, pss);
    printf("  client (22 players)    %.4f ms per cycle\n", (b->self1 - b->self0) / cycles);
    fflush(stdout);
}

/* one datagram, and the kernel's time stamp of it if the socket gives one (*kts) */
static ssize_t recv_stamped(int fd, char *buf, size_t len, int64_t *kts)
{
    char ctl[CMSG_SPACE(sizeof(struct timespec))];
    struct iovec iov = { buf, len };
    struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
                        .msg_controllen = sizeof ctl };
    ssize_t n = recvmsg(fd, &m, 0);
    for (struct cmsghdr *c = n > 0 ? CMSG_FIRSTHDR(&m) : NULL; c; c = CMSG_NXTHDR(&m, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
            struct timespec ts;
            memcpy(&ts, CMSG_DATA(c), sizeof ts);
            *kts = (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
        }
    }
    return n;
}

/* a sense_body of player 1 at game time t, put in its socket at kts (realtime ns; 0
 * unknown) */
static void on_time(bench_t *b, int t, int64_t kts)
{
    if (b->reported || b->to <= b->from)
        return;
    int64_t now = now_ns();
    if (b->t0 == 0 && t >= b->from) {
        b->t0 = now;
        b->self0 = self_cpu_ms();
        for (int i = 0; i < b->nproc; i++)
            b->proc[i].cpu0 = proc_cpu_ms(b->proc[i].pid, &b->proc[i].sys0);
        printf("rcss-benchplayers: window start at cycle %d\n", t);
        fflush(stdout);
    }
    if (b->t0 && b->period && b->narr <= b->to - b->from) {
        b->arr[b->narr++] = now;
        if (kts > 0 && b->arrk)
            b->arrk[b->narrk++] = kts;
    }
    if (b->t0 && t >= b->to) {
        b->t1 = now;
        b->self1 = self_cpu_ms();
        for (int i = 0; i < b->nproc; i++) {
            bench_proc_t *p = &b->proc[i];
            p->cpu1 = proc_cpu_ms(p->pid, &p->sys1);
            p->rss_kb = proc_kb(p->pid, "status", "VmRSS");
            p->pss_kb = proc_kb(p->pid, "smaps_rollup", "Pss");
        }
        report(b);
    }
}

/* the next stall when it is due: every listed process stopped, 60 ms, every one
 * continued (in the order given, the sim first) */
static void stall_due(bench_t *b)
{
    if (!b->t0 || b->reported || b->nstalled >= b->stalls)
        return;
    int64_t due = b->t0 + ((int64_t)STALL_FIRST_MS + (int64_t)b->nstalled * STALL_GAP_MS) * 1000000;
    if (now_ns() < due)
        return;
    b->stall_t[2 * b->nstalled] = now_ns();
    for (int i = 0; i < b->nproc; i++)
        kill(b->proc[i].pid, SIGSTOP);
    struct timespec ts = { 0, STALL_MS * 1000000L };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
    for (int i = 0; i < b->nproc; i++)
        kill(b->proc[i].pid, SIGCONT);
    b->stall_t[2 * b->nstalled + 1] = now_ns();
    b->nstalled++;
}

static void on_see(bench_t *b, int player)
{
    if (!b->t0 || b->reported || !b->last_sb[player])
        return;
    if (b->nsee == b->see_cap) {
        long cap = b->see_cap ? b->see_cap * 2 : 4096;
        void *p = realloc(b->see, (size_t)cap * sizeof *b->see);
        if (!p)
            return;
        b->see = p;
        b->see_cap = cap;
    }
    int64_t t = now_ns();
    b->see[b->nsee++] = (struct see_rec){ t, (float)((t - b->last_sb[player]) / 1e6), player };
}

static int parse_args(int argc, char **argv, struct sockaddr_in *init, int *n, bench_t *b)
{
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--host") == 0 && v) {
            inet_pton(AF_INET, v, &init->sin_addr);
            i++;
        } else if (strcmp(a, "--from") == 0 && v) {
            b->from = atoi(v);
            i++;
        } else if (strcmp(a, "--to") == 0 && v) {
            b->to = atoi(v);
            i++;
        } else if (strcmp(a, "--step") == 0 && v) {
            b->step_ms = atof(v);
            i++;
        } else if (strcmp(a, "--period") == 0) {
            b->period = 1;
        } else if (strcmp(a, "--stalls") == 0 && v) {
            b->stalls = atoi(v);
            if (b->stalls < 1 || b->stalls > 16)
                return -1;
            i++;
        } else if (strcmp(a, "--pid") == 0 && v && strchr(v, '=') && b->nproc < BENCH_PIDS) {
            bench_proc_t *p = &b->proc[b->nproc++];
            snprintf(p->name, sizeof p->name, "%.*s", (int)(strchr(v, '=') - v), v);
            p->pid = atoi(strchr(v, '=') + 1);
            i++;
        } else if (a[0] != '-') {
            *n = atoi(a);
        } else {
            return -1;
        }
    }
    return *n >= 1 && *n <= BENCH_MAX ? 0 : -1;
}

int main(int argc, char **argv)
{
    static bench_t b = { .step_ms = 100.0 };
    struct sockaddr_in init = { .sin_family = AF_INET };
    int n = BENCH_MAX;
    init.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (argc < 2 || parse_args(argc, argv, &init, &n, &b) < 0) {
        fprintf(stderr, "usage: %s PORT [N<=%d] [--host ADDR] [--from T --to T2] [--period]"
                        " [--stalls K<=16] [--step MS] [--pid NAME=PID]...\n", argv[0], BENCH_MAX);
        return 1;
    }
    init.sin_port = htons((uint16_t)atoi(argv[1]));
    if (b.period && b.to > b.from
        && (!(b.arr = calloc((size_t)(b.to - b.from + 1), sizeof *b.arr))
            || !(b.arrk = calloc((size_t)(b.to - b.from + 1), sizeof *b.arrk))))
        return 1;
    struct sigaction sa = { .sa_handler = on_signal };
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    struct pollfd pfd[BENCH_MAX];
    struct sockaddr_in srv[BENCH_MAX];
    for (int i = 0; i < n; i++) {
        pfd[i] = (struct pollfd){ .fd = socket(AF_INET, SOCK_DGRAM, 0), .events = POLLIN };
        /* --stalls: every other player speaks protocol 12, whose normal view sees every
         * 150 ms, at two moments of the cycle 50 ms apart: its phases tell whether the
         * timer's grid held (protocol 19's normal view sees with every other sense_body) */
        int version = b.stalls && i % 2 ? 12 : 19;
        if (i == 0 && pfd[i].fd >= 0) {
            int on = 1;
            setsockopt(pfd[i].fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on);
        }
        if (pfd[i].fd < 0
            || connect_one(pfd[i].fd, &init, i % 2 ? "BenchR" : "BenchL", version, &srv[i]) < 0)
            return 1;
    }
    printf("rcss-benchplayers: %d players connected\n", n);
    fflush(stdout);
    long thinks = 0;
    static char buf[65536];
    while (!stop_flag) {
        stall_due(&b);
        int64_t quiet_since = now_ns();
        int r = poll(pfd, (nfds_t)n, b.stalls ? 5 : 3000);
        while (r == 0 && b.stalls && now_ns() - quiet_since < 3000000000LL) {
            stall_due(&b);
            r = poll(pfd, (nfds_t)n, 5);
        }
        if (r == 0)
            break; /* the server is gone */
        if (r < 0 && errno != EINTR)
            break;
        for (int i = 0; r > 0 && i < n; i++) {
            if (!(pfd[i].revents & POLLIN))
                continue;
            int64_t kts = 0;
            ssize_t len = recv_stamped(pfd[i].fd, buf, sizeof buf - 1, &kts);
            if (len <= 0)
                continue;
            buf[len] = '\0';
            if (strcmp(buf, "(think)") == 0) {
                send_to(pfd[i].fd, &srv[i], "(done)");
                thinks++;
            } else if (strncmp(buf, "(sense_body ", 12) == 0) {
                b.last_sb[i] = now_ns();
                if (i == 0)
                    on_time(&b, atoi(buf + 12), kts);
            } else if (b.stalls && strncmp(buf, "(see ", 5) == 0) {
                on_see(&b, i);
            }
        }
    }
    for (int i = 0; i < n; i++) {
        send_to(pfd[i].fd, &srv[i], "(bye)");
        close(pfd[i].fd);
    }
    printf("rcss-benchplayers: answered %ld (think)\n", thinks);
    free(b.arr);
    free(b.arrk);
    free(b.see);
    return 0;
}
