/* net.c -- UDP sockets and packed addresses for the gateways (net.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "net.h"

static int udp_resolve(const char *bind_address, int port, struct sockaddr_storage *ss,
                       socklen_t *sl, char *err, size_t errlen)
{
    memset(ss, 0, sizeof *ss);
    struct sockaddr_in *a4 = (struct sockaddr_in *)ss;
    struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)ss;
    if (!bind_address || !bind_address[0]) {
        a4->sin_family = AF_INET;
        a4->sin_addr.s_addr = htonl(INADDR_ANY);
        a4->sin_port = htons((uint16_t)port);
        *sl = sizeof *a4;
        return 0;
    }
    if (inet_pton(AF_INET, bind_address, &a4->sin_addr) == 1) {
        a4->sin_family = AF_INET;
        a4->sin_port = htons((uint16_t)port);
        *sl = sizeof *a4;
        return 0;
    }
    if (inet_pton(AF_INET6, bind_address, &a6->sin6_addr) == 1) {
        a6->sin6_family = AF_INET6;
        a6->sin6_port = htons((uint16_t)port);
        *sl = sizeof *a6;
        return 0;
    }
    snprintf(err, errlen, "server::bind_address '%s' is not an IPv4 or IPv6 address",
             bind_address);
    return -1;
}

static int udp_socket(int family, char *err, size_t errlen)
{
    /* no SO_REUSEADDR: on Linux it lets any local user bind the same UDP port and
     * receive what was meant for us. The gateways share the listening ports with
     * SO_REUSEPORT only, which the kernel grants to sockets of one user. */
    int fd = socket(family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        snprintf(err, errlen, "socket: %s", strerror(errno));
        return -1;
    }
    return fd;
}

int net_udp_bind(const char *bind_address, int port, int reuseport, char *err, size_t errlen)
{
    struct sockaddr_storage ss;
    socklen_t sl;
    if (udp_resolve(bind_address, port, &ss, &sl, err, errlen) < 0)
        return -1;
    int fd = udp_socket(ss.ss_family, err, errlen);
    if (fd < 0)
        return -1;
    int on = 1;
    if (reuseport && setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof on) < 0) {
        snprintf(err, errlen, "SO_REUSEPORT: %s", strerror(errno));
        close(fd);
        return -1;
    }
    if (reuseport) { /* a listening port: room for a burst of inits (1,000 monitors) */
        int big = NET_LISTEN_RCVBUF;
        if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof big) < 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof big); /* capped by rmem_max */
    }
    if (bind(fd, (struct sockaddr *)&ss, sl) < 0) {
        snprintf(err, errlen, "cannot bind UDP port %d on %s: %s", port,
                 bind_address && bind_address[0] ? bind_address : "all interfaces",
                 strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

int net_udp_connected(const char *bind_address, int local_port, const struct sockaddr_storage *peer,
                   char *err, size_t errlen)
{
    struct sockaddr_storage ss;
    socklen_t sl;
    if (udp_resolve(bind_address, local_port, &ss, &sl, err, errlen) < 0)
        return -1;
    if (ss.ss_family != peer->ss_family) {
        snprintf(err, errlen, "client address family differs from server::bind_address");
        return -1;
    }
    int fd = udp_socket(ss.ss_family, err, errlen);
    if (fd < 0)
        return -1;
    if (bind(fd, (struct sockaddr *)&ss, sl) < 0) {
        snprintf(err, errlen, "cannot bind client port %d: %s", local_port, strerror(errno));
        close(fd);
        return -1;
    }
    socklen_t pl = peer->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6)
                                               : sizeof(struct sockaddr_in);
    if (connect(fd, (const struct sockaddr *)peer, pl) < 0) {
        snprintf(err, errlen, "connect to client: %s", strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

int net_udp_local_port(int fd)
{
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0)
        return 0;
    if (ss.ss_family == AF_INET6)
        return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
    return ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

static int net_result(ssize_t n)
{
    if (n >= 0)
        return 0;
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS ? 1 : -1;
}

int net_udp_send(int fd, const void *data, size_t len)
{
    if (fd < 0)
        return -1;
    return net_result(send(fd, data, len, MSG_DONTWAIT | MSG_NOSIGNAL));
}

int net_udp_sendto(int fd, const struct sockaddr_storage *to, const void *data, size_t len)
{
    socklen_t tl = to->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6)
                                             : sizeof(struct sockaddr_in);
    return net_result(sendto(fd, data, len, MSG_DONTWAIT | MSG_NOSIGNAL,
                             (const struct sockaddr *)to, tl));
}

void net_addr_pack(const struct sockaddr_storage *a, uint8_t addr[16], int32_t *family,
                   uint16_t *port)
{
    memset(addr, 0, 16);
    *family = a->ss_family;
    if (a->ss_family == AF_INET6) {
        const struct sockaddr_in6 *a6 = (const struct sockaddr_in6 *)a;
        memcpy(addr, &a6->sin6_addr, 16);
        *port = ntohs(a6->sin6_port);
    } else {
        const struct sockaddr_in *a4 = (const struct sockaddr_in *)a;
        memcpy(addr, &a4->sin_addr, 4);
        *port = ntohs(a4->sin_port);
    }
}

void net_addr_unpack(const uint8_t addr[16], int32_t family, uint16_t port,
                     struct sockaddr_storage *a)
{
    memset(a, 0, sizeof *a);
    if (family == AF_INET6) {
        struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)a;
        a6->sin6_family = AF_INET6;
        memcpy(&a6->sin6_addr, addr, 16);
        a6->sin6_port = htons(port);
    } else {
        struct sockaddr_in *a4 = (struct sockaddr_in *)a;
        a4->sin_family = AF_INET;
        memcpy(&a4->sin_addr, addr, 4);
        a4->sin_port = htons(port);
    }
}

/* The address bind_address:port as a socket address ("" = all IPv4 interfaces); the
 * resolution the UDP binds use, for the 3D server's TCP ports (net_tcp.c). */
int net_addr_resolve(const char *bind_address, int port, struct sockaddr_storage *ss,
                     socklen_t *sl, char *err, size_t errlen)
{
    return udp_resolve(bind_address, port, ss, sl, err, errlen);
}
