/* rcss-monbench.c -- the monitor fan-out figure of `make bench`: attaches to a running
 * server's region, registers N text (v3) monitors on 127.0.0.1 with one burst of
 * dispinits, then over CYCLES published snapshots counts the frames every monitor got
 * and the CPU time monitorgw spent (utime + stime from /proc), printed per cycle.
 *     rcss-monbench SHM PORT N CYCLES */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include "shm.h"

static double cpu_ms(int pid)
{
    char path[64], line[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f || !fgets(line, sizeof line, f)) {
        if (f)
            fclose(f);
        return -1;
    }
    fclose(f);
    const char *p = strrchr(line, ')');
    unsigned long ut = 0, st = 0;
    /* fields after the command: state(3) ... utime(14) stime(15) */
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
        return -1;
    return (double)(ut + st) * 1000.0 / (double)sysconf(_SC_CLK_TCK);
}

static int udp_open(void)
{
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
    struct sockaddr_in a = { .sin_family = AF_INET };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int big = 1 << 20;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) < 0)
        return -1;
    return fd;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: rcss-monbench SHM PORT N CYCLES\n");
        return 2;
    }
    int port = atoi(argv[2]), n = atoi(argv[3]), cycles = atoi(argv[4]);
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    shm_handle_t h;
    char err[SHM_ERR_LEN];
    if (shm_region_attach(&h, argv[1], err, sizeof err) < 0) {
        fprintf(stderr, "rcss-monbench: %s\n", err);
        return 1;
    }
    int pid = atomic_load(&h.r->monitorgw.pid);
    int *fd = calloc((size_t)n, sizeof *fd);
    long *frames = calloc((size_t)n, sizeof *frames);
    int ep = epoll_create1(0);
    struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    for (int i = 0; i < n; i++) {
        if ((fd[i] = udp_open()) < 0) {
            fprintf(stderr, "rcss-monbench: socket %d: %s\n", i, strerror(errno));
            return 1;
        }
        struct epoll_event e = { .events = EPOLLIN, .data.u32 = (uint32_t)i };
        epoll_ctl(ep, EPOLL_CTL_ADD, fd[i], &e);
        sendto(fd[i], "(dispinit version 3)", 21, 0, (struct sockaddr *)&to, sizeof to);
    }
    static char buf[65536];
    struct timespec ts = { 1, 0 };
    nanosleep(&ts, NULL); /* registrations and init blocks */
    for (int i = 0; i < n; i++)
        while (recv(fd[i], buf, sizeof buf, 0) > 0)
            ;
    uint64_t p0 = atomic_load(&h.r->hdr.published);
    double c0 = cpu_ms(pid);
    while (atomic_load(&h.r->hdr.published) < p0 + (uint64_t)cycles) {
        struct epoll_event ev[256];
        int k = epoll_wait(ep, ev, 256, 200);
        for (int j = 0; j < k; j++) {
            int i = (int)ev[j].data.u32;
            while (recv(fd[i], buf, sizeof buf, 0) > 0)
                frames[i]++;
        }
    }
    double c1 = cpu_ms(pid);
    /* the last cycle's fan-out may still be under way when its snapshot is published:
     * collect for 50 ms more (half a cycle, ten times the fan-out to 1,000 monitors) */
    struct timespec tail = { 0, 50000000 };
    nanosleep(&tail, NULL);
    for (int i = 0; i < n; i++)
        while (recv(fd[i], buf, sizeof buf, 0) > 0)
            frames[i]++;
    long total = 0, worst = -1;
    for (int i = 0; i < n; i++) {
        total += frames[i];
        if (worst < 0 || frames[i] < worst)
            worst = frames[i];
    }
    printf("%5d monitors: monitorgw %.3f ms CPU per cycle", n, (c1 - c0) / cycles);
    if (n > 0)
        printf(", %.0f frames/s sent, frames per monitor per cycle %.3f (fewest %ld of %d)",
               (double)total / (cycles * 0.1), (double)total / n / cycles, worst, cycles);
    printf("\n");
    shm_region_detach(&h);
    return 0;
}
