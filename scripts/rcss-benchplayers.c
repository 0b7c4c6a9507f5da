/* rcss-benchplayers.c -- trivial players for benchmarks: N players (default 22, half of
 * them in team BenchL, half in BenchR; protocol 19) that do nothing but answer each
 * (think) with (done), so a synch-mode server runs as fast as it can serve a full
 * field. Used by `make bench` (scripts/bench-synch.sh). Leaves on SIGINT/SIGTERM or
 * when the server has been silent for 3 s; prints how many (think) it answered.
 * usage: rcss-benchplayers PORT [N] [--host ADDR] */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define BENCH_MAX 22

static volatile sig_atomic_t stop_flag;
static void on_signal(int sig) { (void)sig; stop_flag = 1; }

static int send_to(int fd, const struct sockaddr_in *a, const char *msg)
{
    return (int)sendto(fd, msg, strlen(msg) + 1, 0, (const struct sockaddr *)a, sizeof *a);
}

/* init one player; its own port into srv. 0 ok */
static int connect_one(int fd, const struct sockaddr_in *init, const char *team,
                       struct sockaddr_in *srv)
{
    char msg[64], buf[8192];
    snprintf(msg, sizeof msg, "(init %s (version 19))", team);
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

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s PORT [N] [--host ADDR]\n", argv[0]);
        return 1;
    }
    struct sockaddr_in init = { .sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[1])) };
    init.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int n = BENCH_MAX;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--host") == 0 && i + 1 < argc)
            inet_pton(AF_INET, argv[++i], &init.sin_addr);
        else
            n = atoi(argv[i]);
    }
    if (n < 1 || n > BENCH_MAX) {
        fprintf(stderr, "rcss-benchplayers: N must be 1..%d\n", BENCH_MAX);
        return 1;
    }
    struct sigaction sa = { .sa_handler = on_signal };
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    struct pollfd pfd[BENCH_MAX];
    struct sockaddr_in srv[BENCH_MAX];
    for (int i = 0; i < n; i++) {
        pfd[i] = (struct pollfd){ .fd = socket(AF_INET, SOCK_DGRAM, 0), .events = POLLIN };
        if (pfd[i].fd < 0 || connect_one(pfd[i].fd, &init, i % 2 ? "BenchR" : "BenchL", &srv[i]) < 0)
            return 1;
    }
    printf("rcss-benchplayers: %d players connected\n", n);
    fflush(stdout);
    long thinks = 0;
    char buf[65536];
    while (!stop_flag) {
        int r = poll(pfd, (nfds_t)n, 3000);
        if (r == 0)
            break; /* the server is gone */
        if (r < 0 && errno != EINTR)
            break;
        for (int i = 0; r > 0 && i < n; i++) {
            if (!(pfd[i].revents & POLLIN))
                continue;
            ssize_t len = recv(pfd[i].fd, buf, sizeof buf - 1, 0);
            if (len <= 0)
                continue;
            buf[len] = '\0';
            if (strcmp(buf, "(think)") == 0) {
                send_to(pfd[i].fd, &srv[i], "(done)");
                thinks++;
            }
        }
    }
    for (int i = 0; i < n; i++) {
        send_to(pfd[i].fd, &srv[i], "(bye)");
        close(pfd[i].fd);
    }
    printf("rcss-benchplayers: answered %ld (think)\n", thinks);
    return 0;
}
