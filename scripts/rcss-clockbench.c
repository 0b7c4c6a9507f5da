/* rcss-clockbench.c -- measure the sim's real-time clock from outside: attach to a
 * running server's shm region and record the publish time of N consecutive snapshots.
 * Prints the mean cycle period, the deviation of each publish from the ideal schedule
 * (first publish + n * step), p50/p99/max, and the total drift. Used by `make bench`.
 * usage: rcss-clockbench SHM_NAME [CYCLES]
 *        rcss-clockbench --free-port     (prints a free UDP port on 127.0.0.1) */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
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

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--free-port") == 0)
        return free_port();
    if (argc < 2) {
        fprintf(stderr, "usage: %s SHM_NAME [CYCLES]\n", argv[0]);
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
    int64_t *dev = calloc((size_t)cycles, sizeof *dev);
    static shm_snapshot_sh_t snap;
    if (!t || !dev) {
        fprintf(stderr, "rcss-clockbench: out of memory\n");
        return 1;
    }
    uint64_t first = atomic_load(&h.r->hdr.published) + 1;
    long got = 0;
    while (got < cycles) {
        uint64_t pub = atomic_load(&h.r->hdr.published);
        while (got < cycles && first + (uint64_t)got <= pub) {
            if (shm_snap_read(h.r, first + (uint64_t)got, &snap) < 0) {
                fprintf(stderr, "rcss-clockbench: fell behind the snapshot ring\n");
                return 1;
            }
            t[got++] = snap.publish_ns;
        }
        usleep(20000);
    }
    int64_t step = h.r->hdr.step_ns;
    for (long i = 0; i < cycles; i++) {
        int64_t d = t[i] - (t[0] + i * step);
        dev[i] = d < 0 ? -d : d;
    }
    double mean = (double)(t[cycles - 1] - t[0]) / (double)(cycles - 1) / 1e6;
    double drift = (double)(t[cycles - 1] - t[0] - (cycles - 1) * step) / 1e6;
    qsort(dev, (size_t)cycles, sizeof *dev, cmp_i64);
    printf("cycles measured        %ld\n", cycles);
    printf("configured period      %.3f ms\n", step / 1e6);
    printf("mean period            %.4f ms\n", mean);
    printf("total drift            %+.3f ms over %.1f s\n", drift, (t[cycles - 1] - t[0]) / 1e9);
    printf("deviation from ideal   p50 %.3f ms  p99 %.3f ms  max %.3f ms\n",
           dev[cycles / 2] / 1e6, dev[(cycles * 99) / 100] / 1e6, dev[cycles - 1] / 1e6);
    free(t);
    free(dev);
    shm_region_detach(&h);
    return 0;
}
