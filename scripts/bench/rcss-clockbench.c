/* rcss-clockbench.c -- measure the sim's real-time clock from outside: attach to a
 * running server's shm region and record the publish time of N consecutive snapshots.
 * Prints the mean cycle period, the deviation of each publish from the ideal schedule
 * (first publish + n * step), p50/p99/max, and the total drift; and how late after its
 * due time on the sim's own timer grid each snapshot was published (publish_ns - grid_ns:
 * the sim's wake-up and its work), p50/p99/max. Used by `make bench`.
 * With --player PORT it also connects a player to 127.0.0.1:PORT and times the arrival of
 * its sense_body messages over the same cycles: the period as a client experiences it.
 * usage: rcss-clockbench SHM_NAME [CYCLES] [--player PORT]
 *        rcss-clockbench --free-port     (prints a free UDP port on 127.0.0.1) */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "shm.h"

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET };
    socklen_t l = sizeof a;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) < 0 ||
        getsockname(fd, (struct sockaddr *)&a, &l) < 0)
        return 1;
    printf("%d\n", ntohs(a.sin_port));
    close(fd);
    return 0;
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* a v19 player on 127.0.0.1:port; returns the socket or -1 */
static int player_open(int port)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    static const char init[] = "(init Bench (version 19))";
    if (fd < 0 || sendto(fd, init, sizeof init, 0, (struct sockaddr *)&a, sizeof a) < 0)
        return -1;
    return fd;
}

/* read what is waiting on the player socket; record sense_body arrivals */
static void player_poll(int fd, int ms, int64_t *t, long *got, long max)
{
    struct pollfd p = { .fd = fd, .events = POLLIN };
    static char buf[65536];
    while (poll(&p, 1, ms) > 0) {
        ssize_t n = recv(fd, buf, sizeof buf - 1, 0);
        if (n <= 0)
            return;
        buf[n] = '\0';
        if (strncmp(buf, "(sense_body ", 12) == 0 && *got < max)
            t[(*got)++] = now_ns();
        ms = 0;
    }
}

/* mean period, drift and deviation from the ideal grid of n times */
static void report(const char *what, const int64_t *t, long n, int64_t step)
{
    int64_t *dev = calloc((size_t)n, sizeof *dev);
    if (!dev)
        return;
    for (long i = 0; i < n; i++) {
        int64_t d = t[i] - (t[0] + i * step);
        dev[i] = d < 0 ? -d : d;
    }
    double mean = (double)(t[n - 1] - t[0]) / (double)(n - 1) / 1e6;
    double drift = (double)(t[n - 1] - t[0] - (n - 1) * step) / 1e6;
    qsort(dev, (size_t)n, sizeof *dev, cmp_i64);
    printf("%s\n", what);
    printf("  cycles measured        %ld\n", n);
    printf("  configured period      %.3f ms\n", step / 1e6);
    printf("  mean period            %.4f ms\n", mean);
    printf("  total drift            %+.3f ms over %.1f s\n", drift, (t[n - 1] - t[0]) / 1e9);
    printf("  deviation from ideal   p50 %.3f ms  p99 %.3f ms  max %.3f ms\n",
           dev[n / 2] / 1e6, dev[(n * 99) / 100] / 1e6, dev[n - 1] / 1e6);
    free(dev);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--free-port") == 0)
        return free_port();
    int player_port = 0;
    if (argc > 3 && strcmp(argv[argc - 2], "--player") == 0) {
        player_port = atoi(argv[argc - 1]);
        argc -= 2;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: %s SHM_NAME [CYCLES] [--player PORT]\n", argv[0]);
        return 1;
    }
    long cycles = argc > 2 ? strtol(argv[2], NULL, 10) : 600;
    if (cycles < 2 || cycles > 1000000) {
        fprintf(stderr, "rcss-clockbench: CYCLES must be 2..1000000\n");
        return 1;
    }
    shm_handle_t h;
    char err[SHM_ERR_LEN];
    if (shm_region_attach(&h, argv[1], err, sizeof err) < 0) {
        fprintf(stderr, "rcss-clockbench: %s\n", err);
        return 1;
    }
    int64_t *t = calloc((size_t)cycles, sizeof *t);
    int64_t *ct = calloc((size_t)cycles, sizeof *ct);
    int64_t *late = calloc((size_t)cycles, sizeof *late);
    static shm_snapshot_sh_t snap;
    if (!t || !ct || !late) {
        fprintf(stderr, "rcss-clockbench: out of memory\n");
        return 1;
    }
    int pfd = -1;
    long cgot = 0;
    if (player_port > 0) {
        pfd = player_open(player_port);
        if (pfd < 0) {
            fprintf(stderr, "rcss-clockbench: cannot reach the player port %d\n", player_port);
            return 1;
        }
        player_poll(pfd, 500, ct, &cgot, 0); /* init reply and parameters */
    }
    uint64_t first = atomic_load(&h.r->hdr.published) + 1;
    long got = 0;
    while (got < cycles || (pfd >= 0 && cgot < cycles)) {
        uint64_t pub = atomic_load(&h.r->hdr.published);
        while (got < cycles && first + (uint64_t)got <= pub) {
            if (shm_snap_read(h.r, first + (uint64_t)got, &snap) < 0) {
                fprintf(stderr, "rcss-clockbench: fell behind the snapshot ring\n");
                return 1;
            }
            late[got] = snap.publish_ns - snap.grid_ns;
            t[got++] = snap.publish_ns;
        }
        if (pfd >= 0)
            player_poll(pfd, 20, ct, &cgot, cycles);
        else
            usleep(20000);
    }
    int64_t step = h.r->hdr.step_ns;
    report("sim: snapshot publish times", t, cycles, step);
    qsort(late, (size_t)cycles, sizeof *late, cmp_i64);
    printf("  publish after grid time p50 %.3f ms  p99 %.3f ms  max %.3f ms\n",
           late[cycles / 2] / 1e6, late[(cycles * 99) / 100] / 1e6, late[cycles - 1] / 1e6);
    if (pfd >= 0) {
        report("client: sense_body arrival times at a v19 player on 127.0.0.1", ct, cycles, step);
        close(pfd);
    }
    free(t);
    free(ct);
    free(late);
    shm_region_detach(&h);
    return 0;
}
