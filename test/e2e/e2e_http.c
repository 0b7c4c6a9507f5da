/* e2e_http.c -- TCP helpers of the HTTP end-to-end tests (e2e_http.h). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "e2e.h"
#include "e2e_http.h"

int e2e_tcp_connect(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

size_t e2e_read_until(int fd, char *buf, size_t len, size_t have, int timeout_ms,
                      const char *until)
{
    double end = e2e_now_ms() + timeout_ms;
    while (have + 1 < len) {
        buf[have] = '\0';
        if (until && strstr(buf, until))
            break;
        int left = (int)(end - e2e_now_ms());
        struct pollfd pf = { .fd = fd, .events = POLLIN };
        if (left <= 0 || poll(&pf, 1, left) <= 0)
            break;
        ssize_t n = read(fd, buf + have, len - 1 - have);
        if (n <= 0)
            break;
        have += (size_t)n;
    }
    buf[have] = '\0';
    return have;
}
