/* netgw_zlib.c -- compressed traffic with a client that sent (compression N) (see
 * docs/protocol/player.md §10, compression row): from then on every datagram to it is zlib data and
 * every datagram from it must be. As the reference, each datagram is one zlib stream
 * flushed with Z_SYNC_FLUSH (header, deflate blocks, sync marker; no trailer) and the
 * compressor is reset after each, so a client inflates every datagram on its own; an
 * incoming datagram is inflated the same way (a complete stream is accepted too).
 * Level 0 still frames the data (stored blocks); -1 switches compression off.
 * State is kept per socket (the per-client sockets are connected to their client), so
 * every send on a client's socket (ngw_udp_send) is compressed whoever builds the
 * message. One gateway thread sends, so no locking. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "netgw_conn.h"

#define ZLIB_FDS 4096

typedef struct zlib_fd {
    int       on;
    int       level;
    z_stream *def;
    z_stream *inf;
} zlib_fd_t;

static zlib_fd_t zfd[ZLIB_FDS];

static zlib_fd_t *zlib_get(int fd)
{
    return fd >= 0 && fd < ZLIB_FDS ? &zfd[fd] : NULL;
}

static void zlib_end(zlib_fd_t *z)
{
    if (z->def) {
        deflateEnd(z->def);
        free(z->def);
    }
    if (z->inf) {
        inflateEnd(z->inf);
        free(z->inf);
    }
    memset(z, 0, sizeof *z);
}

void ngw_zlib_forget(int fd)
{
    zlib_fd_t *z = zlib_get(fd);
    if (z)
        zlib_end(z);
}

int ngw_zlib_set(int fd, int level)
{
    zlib_fd_t *z = zlib_get(fd);
    if (!z)
        return -1;
    zlib_end(z);
    if (level < 0)
        return 0;
    z->def = calloc(1, sizeof *z->def);
    z->inf = calloc(1, sizeof *z->inf);
    if (!z->def || !z->inf || deflateInit(z->def, level > 9 ? 9 : level) != Z_OK) {
        free(z->def);
        free(z->inf);
        memset(z, 0, sizeof *z);
        return -1;
    }
    if (inflateInit(z->inf) != Z_OK) {
        deflateEnd(z->def);
        free(z->def);
        free(z->inf);
        memset(z, 0, sizeof *z);
        return -1;
    }
    z->on = 1;
    z->level = level;
    return 0;
}

int ngw_zlib_level(int fd)
{
    zlib_fd_t *z = zlib_get(fd);
    return z && z->on ? z->level : -1;
}

int ngw_zlib_deflate(int fd, const void *in, size_t n, void *out, size_t cap)
{
    zlib_fd_t *z = zlib_get(fd);
    if (!z || !z->on)
        return -1;
    z->def->next_in = (Bytef *)(uintptr_t)in;
    z->def->avail_in = (uInt)n;
    z->def->next_out = out;
    z->def->avail_out = (uInt)cap;
    int rc = deflate(z->def, Z_SYNC_FLUSH);
    int used = (int)(cap - z->def->avail_out);
    int whole = z->def->avail_in == 0 && z->def->avail_out > 0;
    deflateReset(z->def);
    return rc == Z_OK && whole ? used : -1;
}

int ngw_zlib_inflate(int fd, const void *in, size_t n, void *out, size_t cap)
{
    zlib_fd_t *z = zlib_get(fd);
    if (!z || !z->on || cap == 0)
        return -1;
    z->inf->next_in = (Bytef *)(uintptr_t)in;
    z->inf->avail_in = (uInt)n;
    z->inf->next_out = out;
    z->inf->avail_out = (uInt)(cap - 1);
    int rc;
    do
        rc = inflate(z->inf, Z_SYNC_FLUSH);
    while (rc == Z_OK && z->inf->avail_in > 0 && z->inf->avail_out > 0);
    int got = (int)(cap - 1 - z->inf->avail_out);
    inflateReset(z->inf);
    if ((rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) || got <= 0)
        return -1;
    ((char *)out)[got] = '\0';
    return got;
}
