/* dt_net.c -- the demo team's UDP helpers: resolve the server, open a socket, send a
 * NUL-terminated message, receive one datagram with a timeout. */
#include <arpa/inet.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "dt.h"

double dt_net_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int dt_net_addr(const char *host, int port, struct sockaddr_in *addr)
{
    struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_DGRAM }, *res;
    char p[16];
    snprintf(p, sizeof p, "%d", port);
    if (getaddrinfo(host, p, &hints, &res) != 0)
        return -1;
    memcpy(addr, res->ai_addr, sizeof *addr);
    freeaddrinfo(res);
    return 0;
}

int dt_net_socket(void)
{
    return socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
}

int dt_net_send(int fd, const struct sockaddr_in *to, const char *msg)
{
    ssize_t n = sendto(fd, msg, strlen(msg) + 1, 0, (const struct sockaddr *)to, sizeof *to);
    return n < 0 ? -1 : 0;
}

int dt_net_recv(int fd, char *buf, size_t len, int timeout_ms, struct sockaddr_in *from)
{
    struct pollfd p = { .fd = fd, .events = POLLIN };
    int r = poll(&p, 1, timeout_ms);
    if (r <= 0)
        return r;
    socklen_t l = sizeof *from;
    ssize_t n = recvfrom(fd, buf, len - 1, 0, (struct sockaddr *)from, &l);
    if (n < 0)
        return -1;
    buf[n] = '\0';
    return n == 0 ? 1 : (int)n;
}
