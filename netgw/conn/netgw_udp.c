/* netgw_udp.c -- a gateway's view of the client table's addresses and its sends: text
 * messages go out with their terminating NUL (every datagram the reference sends is
 * NUL-terminated), compressed for a client that asked for it (netgw_zlib.c); a full
 * socket buffer drops the message rather than block the loop.
 * While a batch is open (a published snapshot being handled, netgw_cycle.c) sends are
 * queued instead, and the flush gives each client's socket its messages of the cycle in
 * one sendmmsg, in the order they were made. A poll's marks flush each player's queue
 * as soon as that player's part is made (ngw_udp_batch_flush_fd): the replies and hears
 * before it go with its sense_body in one system call, and player 1's sense_body does
 * not wait for the 21 others' (nor the sees for the sees). Sockets themselves come from
 * common/net.c. */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include "net.h"
#include "netgw_conn.h"

#define UDP_BATCH_MSGS   1024
#define UDP_BATCH_BYTES  (512 * 1024)
#define UDP_BATCH_FDS    4096       /* sockets above this are never queued */

typedef struct udp_queued {
    int      fd;
    int      next;            /* the socket's next message, -1 none */
    uint32_t off, len;        /* in the batch buffer */
} udp_queued_t;

static struct {
    int           on;
    int           n;
    size_t        used;
    uint32_t      gen;                      /* of the current batch, never 0 */
    int           nfd;                      /* sockets with messages, in first-use order */
    int           fds[UDP_BATCH_MSGS];
    struct { uint32_t gen; int head, tail; } byfd[UDP_BATCH_FDS];
    udp_queued_t  q[UDP_BATCH_MSGS];
    char          buf[UDP_BATCH_BYTES];
} batch; /* zeroed (.bss, not 580 KB of the binary's data); gen starts at 1 */

/* one socket's queue from message i on: one sendmmsg per 64 (again after a message the
 * kernel refused, as separate sends would go on; a full buffer drops the rest) */
static void udp_send_chain(int i)
{
    struct mmsghdr m[64];
    struct iovec iov[64];
    int fd = batch.q[i].fd;
    while (i >= 0) {
        int k = 0;
        for (int j = i; j >= 0 && k < 64; j = batch.q[j].next, k++) {
            iov[k].iov_base = batch.buf + batch.q[j].off;
            iov[k].iov_len = batch.q[j].len;
            memset(&m[k], 0, sizeof m[k]);
            m[k].msg_hdr.msg_iov = &iov[k];
            m[k].msg_hdr.msg_iovlen = 1;
        }
        int sent = sendmmsg(fd, m, (unsigned)k, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (sent <= 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS
                          || errno == EBADF))
            return;
        for (int skip = sent > 0 ? sent : 1; skip > 0 && i >= 0; skip--)
            i = batch.q[i].next; /* sent, or (ECONNREFUSED) that one dropped */
    }
}

void ngw_udp_batch_begin(void)
{
    if (batch.gen == 0)
        batch.gen = 1;
    batch.on = 1;
}

void ngw_udp_batch_flush(void)
{
    for (int k = 0; k < batch.nfd; k++) {
        int fd = batch.fds[k];
        if (batch.byfd[fd].gen == batch.gen) /* not sent by ngw_udp_batch_flush_fd */
            udp_send_chain(batch.byfd[fd].head);
        batch.byfd[fd].gen = 0;
    }
    batch.n = 0;
    batch.nfd = 0;
    batch.used = 0;
    if (++batch.gen == 0)
        batch.gen = 1;
}

void ngw_udp_batch_flush_fd(int fd)
{
    if (!batch.on || fd < 0 || fd >= UDP_BATCH_FDS || batch.byfd[fd].gen != batch.gen)
        return;
    udp_send_chain(batch.byfd[fd].head);
    batch.byfd[fd].gen = 0; /* a later message starts a new queue (fds lists it again) */
}

void ngw_udp_batch_end(void)
{
    ngw_udp_batch_flush();
    batch.on = 0;
}

/* one datagram now, or into the open batch */
static void udp_out(int fd, const void *data, size_t n)
{
    if (!batch.on || fd >= UDP_BATCH_FDS || n > UDP_BATCH_BYTES) {
        (void)net_udp_send(fd, data, n);
        return;
    }
    if (batch.n == UDP_BATCH_MSGS || batch.used + n > UDP_BATCH_BYTES)
        ngw_udp_batch_flush();
    int i = batch.n++;
    udp_queued_t *q = &batch.q[i];
    q->fd = fd;
    q->next = -1;
    q->off = (uint32_t)batch.used;
    q->len = (uint32_t)n;
    memcpy(batch.buf + batch.used, data, n);
    batch.used += n;
    if (batch.byfd[fd].gen != batch.gen) {
        batch.byfd[fd].gen = batch.gen;
        batch.byfd[fd].head = i;
        batch.fds[batch.nfd++] = fd;
    } else {
        batch.q[batch.byfd[fd].tail].next = i;
    }
    batch.byfd[fd].tail = i;
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
