/* netgw_udp.c -- UDP sockets of a gateway: the shared listening ports (SO_REUSEPORT, so N
 * gateway processes split the clients by the kernel's 4-tuple hash), one connected socket
 * per client (the "new port" the reference answers from), and the address conversions
 * between sockaddr and the shm client table. Non-blocking; errors go to err buffers. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "netgw.h"

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
    int fd = socket(family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        snprintf(err, errlen, "socket: %s", strerror(errno));
        return -1;
    }
    int on = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    return fd;
}

int ngw_udp_bind(const char *bind_address, int port, int reuseport, char *err, size_t errlen)
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
    if (bind(fd, (struct sockaddr *)&ss, sl) < 0) {
        snprintf(err, errlen, "cannot bind UDP port %d on %s: %s", port,
                 bind_address && bind_address[0] ? bind_address : "all interfaces",
                 strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

int ngw_udp_client(const char *bind_address, int local_port, const struct sockaddr_storage *peer,
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

int ngw_udp_local_port(int fd)
{
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0)
        return 0;
    if (ss.ss_family == AF_INET6)
        return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
    return ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

void ngw_udp_send(int fd, const char *text)
{
    if (fd < 0)
        return;
    /* ECONNREFUSED after the client went away, EAGAIN on a full buffer: dropped */
    (void)send(fd, text, strlen(text) + 1, MSG_DONTWAIT | MSG_NOSIGNAL);
}

void ngw_udp_sendto(int fd, const struct sockaddr_storage *to, const char *text)
{
    socklen_t tl = to->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6)
                                             : sizeof(struct sockaddr_in);
    (void)sendto(fd, text, strlen(text) + 1, MSG_DONTWAIT | MSG_NOSIGNAL,
                 (const struct sockaddr *)to, tl);
}

void ngw_addr_to_entry(const struct sockaddr_storage *a, shm_client_sh_t *e)
{
    memset(e->addr, 0, sizeof e->addr);
    e->family = a->ss_family;
    if (a->ss_family == AF_INET6) {
        const struct sockaddr_in6 *a6 = (const struct sockaddr_in6 *)a;
        memcpy(e->addr, &a6->sin6_addr, 16);
        e->port = ntohs(a6->sin6_port);
    } else {
        const struct sockaddr_in *a4 = (const struct sockaddr_in *)a;
        memcpy(e->addr, &a4->sin_addr, 4);
        e->port = ntohs(a4->sin_port);
    }
}

void ngw_entry_to_addr(const shm_client_sh_t *e, struct sockaddr_storage *a)
{
    memset(a, 0, sizeof *a);
    if (e->family == AF_INET6) {
        struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)a;
        a6->sin6_family = AF_INET6;
        memcpy(&a6->sin6_addr, e->addr, 16);
        a6->sin6_port = htons(e->port);
    } else {
        struct sockaddr_in *a4 = (struct sockaddr_in *)a;
        a4->sin_family = AF_INET;
        memcpy(&a4->sin_addr, e->addr, 4);
        a4->sin_port = htons(e->port);
    }
}

int ngw_addr_equal_entry(const struct sockaddr_storage *a, const shm_client_sh_t *e)
{
    shm_client_sh_t tmp;
    ngw_addr_to_entry(a, &tmp);
    return tmp.family == e->family && tmp.port == e->port
           && memcmp(tmp.addr, e->addr, sizeof tmp.addr) == 0;
}
