/* frame.c -- blocking length-prefixed message I/O for 3D clients (frame.h). */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>
#include "frame.h"

void frame_reader_init(frame_reader_t *r, char *buf, size_t cap)
{
    r->buf = buf;
    r->cap = cap;
    r->have = 0;
    r->skip = 0;
}

/* A complete message at the front of the buffer: 1 with msg/len, 0 not yet, -2 too long. */
static int frame_take(frame_reader_t *r, const char **msg, size_t *len)
{
    if (r->have < FRAME_HDR)
        return 0;
    uint32_t n = frame_get_len((const uint8_t *)r->buf);
    if ((size_t)n + FRAME_HDR + 1 > r->cap)
        return -2;
    if (r->have < FRAME_HDR + (size_t)n)
        return 0;
    /* NUL-terminate in place: the byte after the message moves to the spare slot, so
     * move the rest of the buffer one byte up only if there is a rest */
    size_t rest = r->have - FRAME_HDR - n;
    if (rest > 0)
        memmove(r->buf + FRAME_HDR + n + 1, r->buf + FRAME_HDR + n, rest);
    r->buf[FRAME_HDR + n] = '\0';
    r->have++;
    r->skip = FRAME_HDR + (size_t)n + 1;
    *msg = r->buf + FRAME_HDR;
    *len = n;
    return 1;
}

int frame_read(int fd, frame_reader_t *r, int timeout_ms, const char **msg, size_t *len)
{
    if (r->skip) {
        memmove(r->buf, r->buf + r->skip, r->have - r->skip);
        r->have -= r->skip;
        r->skip = 0;
    }
    for (;;) {
        int t = frame_take(r, msg, len);
        if (t != 0)
            return t;
        if (r->have + 1 >= r->cap)
            return -2;
        struct pollfd p = { .fd = fd, .events = POLLIN };
        int pr = poll(&p, 1, timeout_ms);
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr < 0)
            return -1;
        if (pr == 0)
            return 0;
        /* keep one byte spare for the NUL of frame_take */
        ssize_t n = read(fd, r->buf + r->have, r->cap - r->have - 1);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0)
            return -1;
        r->have += (size_t)n;
    }
}

int frame_write(int fd, const char *msg, size_t len)
{
    uint8_t hdr[FRAME_HDR];
    frame_put_len(hdr, (uint32_t)len);
    struct iovec iov[2] = { { hdr, FRAME_HDR }, { (void *)msg, len } };
    size_t total = FRAME_HDR + len, done = 0;
    while (done < total) {
        struct iovec v[2];
        int nv = 0;
        size_t off = done;
        for (int i = 0; i < 2; i++) {
            if (off >= iov[i].iov_len) {
                off -= iov[i].iov_len;
                continue;
            }
            v[nv].iov_base = (char *)iov[i].iov_base + off;
            v[nv].iov_len = iov[i].iov_len - off;
            nv++;
            off = 0;
        }
        ssize_t n = writev(fd, v, nv);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN) {
            struct pollfd p = { .fd = fd, .events = POLLOUT };
            if (poll(&p, 1, 1000) < 0 && errno != EINTR)
                return -1;
            continue;
        }
        if (n < 0)
            return -1;
        done += (size_t)n;
    }
    return 0;
}
