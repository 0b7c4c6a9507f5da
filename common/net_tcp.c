/* net_tcp.c -- TCP listen/connect helpers (net_tcp.h). */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "net.h"
#include "net_tcp.h"

int net_tcp_listen(const char *bind_address, int port, int backlog, char *err, size_t errlen)
{
    struct sockaddr_storage ss;
    socklen_t sl;
    if (net_addr_resolve(bind_address, port, &ss, &sl, err, errlen) < 0)
        return -1;
    int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        snprintf(err, errlen, "socket: %s", strerror(errno));
        return -1;
    }
    int on = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (bind(fd, (struct sockaddr *)&ss, sl) < 0 || listen(fd, backlog) < 0) {
        snprintf(err, errlen, "cannot listen on TCP port %d on %s: %s", port,
                 bind_address && bind_address[0] ? bind_address : "all interfaces",
                 strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

int net_tcp_connect(const char *host, int port, char *err, size_t errlen)
{
    struct sockaddr_storage ss;
    socklen_t sl;
    if (!host || !host[0])
        host = "127.0.0.1";
    if (net_addr_resolve(host, port, &ss, &sl, err, errlen) < 0)
        return -1;
    int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        snprintf(err, errlen, "socket: %s", strerror(errno));
        return -1;
    }
    int rc;
    do {
        rc = connect(fd, (struct sockaddr *)&ss, sl);
    } while (rc < 0 && errno == EINTR);
    if (rc < 0) {
        snprintf(err, errlen, "cannot connect to %s:%d: %s", host, port, strerror(errno));
        close(fd);
        return -1;
    }
    int on = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    return fd;
}
