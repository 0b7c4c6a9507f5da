/* netgw_udp.c -- a gateway's view of the client table's addresses and its sends: text
 * messages go out with their terminating NUL (every datagram the reference sends is
 * NUL-terminated), compressed for a client that asked for it (netgw_zlib.c); a full
 * socket buffer drops the message rather than block the loop.
 * While a batch is open (a published snapshot being handled, netgw_cycle.c) sends are
 * queued instead, and the flush gives each client's socket its messages of the cycle in
 * one sendmmsg, in the order they were made: sense_body, hears, see, (think) cost one
 * system call per client instead of one each. Sockets themselves come from common/net.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include "net.h"
#include "netgw.h"

#define UDP_BATCH_MSGS   1024
#define UDP_BATCH_BYTES  (512 * 1024)

typedef struct udp_queued {
    int      fd;
    uint32_t seq;             /* order of the send */
    uint32_t off, len;        /* in the batch buffer */
} udp_queued_t;

static struct {
    int           on;
    int           n;
    size_t        used;
    udp_queued_t  q[UDP_BATCH_MSGS];
    char          buf[UDP_BATCH_BYTES];
} batch;

static int udp_queued_cmp(const void *a, const void *b)
{
    const udp_queued_t *x = a, *y = b;
    if (x->fd != y->fd)
        return x->fd < y->fd ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* n messages for one connected socket: one sendmmsg (again after a message the kernel
 * refused, as separate sends would go on; a full buffer drops the rest) */
static void udp_send_run(const udp_queued_t *q, int n)
{
    struct mmsghdr m[64];
    struct iovec iov[64];
    int i = 0;
    while (i < n) {
        int k = n - i < 64 ? n - i : 64;
        memset(m, 0, sizeof m[0] * (size_t)k);
        for (int j = 0; j < k; j++) {
            iov[j].iov_base = batch.buf + q[i + j].off;
            iov[j].iov_len = q[i + j].len;
            m[j].msg_hdr.msg_iov = &iov[j];
            m[j].msg_hdr.msg_iovlen = 1;
        }
        int sent = sendmmsg(q[i].fd, m, (unsigned)k, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (sent > 0)
            i += sent;
        else if (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS || errno == EBADF)
            return;
        else
            i++; /* ECONNREFUSED after the client went away: that one is dropped */
    }
}

void ngw_udp_batch_begin(void)
{
    batch.on = 1;
}

void ngw_udp_batch_flush(void)
{
    if (batch.n > 1)
        qsort(batch.q, (size_t)batch.n, sizeof batch.q[0], udp_queued_cmp);
    for (int i = 0, j; i < batch.n; i = j) {
        for (j = i + 1; j < batch.n && batch.q[j].fd == batch.q[i].fd; j++)
            ;
        udp_send_run(&batch.q[i], j - i);
    }
    batch.n = 0;
    batch.used = 0;
}

void ngw_udp_batch_end(void)
{
    ngw_udp_batch_flush();
    batch.on = 0;
}

/* one datagram now, or into the open batch */
static void udp_out(int fd, const void *data, size_t n)
{
    if (!batch.on) {
        (void)net_udp_send(fd, data, n);
        return;
    }
    if (batch.n == UDP_BATCH_MSGS || batch.used + n > UDP_BATCH_BYTES)
        ngw_udp_batch_flush();
    if (n > UDP_BATCH_BYTES) {
        (void)net_udp_send(fd, data, n);
        return;
    }
    udp_queued_t *q = &batch.q[batch.n];
    q->fd = fd;
    q->seq = (uint32_t)batch.n;
    q->off = (uint32_t)batch.used;
    q->len = (uint32_t)n;
    memcpy(batch.buf + batch.used, data, n);
    batch.used += n;
    batch.n++;
}

void ngw_udp_send_raw(int fd, const void *data, size_t n)
{
    if (fd >= 0)
        udp_out(fd, data, n);
}

void ngw_udp_send(int fd, const char *text)
{
    ngw_udp_send_len(fd, text, strlen(text));
}

void ngw_udp_send_len(int fd, const char *text, size_t len)
{
    static unsigned char z[NGW_SEND_MAX + 1024];
    size_t n = len + 1;
    if (fd < 0)
        return;
    /* ECONNREFUSED after the client went away, EAGAIN on a full buffer: dropped */
    if (ngw_zlib_level(fd) >= 0) { /* (compression N): zlib data, NUL included */
        int zn = ngw_zlib_deflate(fd, text, n, z, sizeof z);
        if (zn > 0)
            udp_out(fd, z, (size_t)zn);
        return;
    }
    udp_out(fd, text, n);
}

void ngw_udp_sendto(int fd, const struct sockaddr_storage *to, const char *text)
{
    (void)net_udp_sendto(fd, to, text, strlen(text) + 1);
}

void ngw_addr_to_entry(const struct sockaddr_storage *a, shm_client_sh_t *e)
{
    net_addr_pack(a, e->addr, &e->family, &e->port);
}

void ngw_entry_to_addr(const shm_client_sh_t *e, struct sockaddr_storage *a)
{
    net_addr_unpack(e->addr, e->family, e->port, a);
}

int ngw_addr_equal_entry(const struct sockaddr_storage *a, const shm_client_sh_t *e)
{
    uint8_t addr[16];
    int32_t family;
    uint16_t port;
    net_addr_pack(a, addr, &family, &port);
    return family == e->family && port == e->port && memcmp(addr, e->addr, sizeof addr) == 0;
}
