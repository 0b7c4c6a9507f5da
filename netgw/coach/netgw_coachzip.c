/* netgw_coachzip.c -- (compression N) for the trainer and online coaches (see
 * docs/protocol/coach.md §9). After (ok compression N) with N from 0 to 9 (sent plain),
 * every message to the coach is one independent zlib stream: the zlib header, the
 * deflated text with its NUL, a sync flush (00 00 ff ff) and no trailer, as a deflate
 * stream reset after each message gives; level 0 still wraps the text (stored blocks).
 * Every datagram from the coach must then be a zlib stream too; one that does not
 * inflate is ignored, as the reference ignores it. A negative N returns to plain text.
 * The level lives in the coach's client-table entry (compression = level + 1), so a
 * restarted gateway goes on compressing; the streams are this process's. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "log.h"
#include "net.h"
#include "netgw.h"
#include "netgw_coachgw.h"
#include "netgw_conn.h"

#define ZIP_OUT_MAX (NGW_SEND_MAX + 1024)

static z_stream *zip_stream(ngw_t *g, int idx, int level)
{
    ngw_coach_t *c = &g->coach.c[idx - SHM_COACH_TRAINER];
    if (c->zip && c->zip_level != level)
        ngw_coach_zip_free(g, idx);
    if (c->zip)
        return c->zip;
    z_stream *z = calloc(1, sizeof *z);
    if (!z)
        return NULL;
    if (deflateInit(z, level) != Z_OK) {
        free(z);
        return NULL;
    }
    c->zip = z;
    c->zip_level = level;
    return z;
}

void ngw_coach_zip_free(ngw_t *g, int idx)
{
    ngw_coach_t *c = &g->coach.c[idx - SHM_COACH_TRAINER];
    if (!c->zip)
        return;
    deflateEnd(c->zip);
    free(c->zip);
    c->zip = NULL;
}

void ngw_coach_zip_send(ngw_t *g, int idx, const char *msg)
{
    static unsigned char out[ZIP_OUT_MAX];
    int level = g->r->client[idx].compression - 1;
    z_stream *z = zip_stream(g, idx, level < 0 ? 0 : level > 9 ? 9 : level);
    if (!z) {
        log_warn("coach %d: no deflate stream, a message was dropped", idx);
        return;
    }
    z->next_in = (Bytef *)msg;
    z->avail_in = (uInt)strlen(msg) + 1; /* the NUL travels inside the stream */
    z->next_out = out;
    z->avail_out = sizeof out;
    int rc = deflate(z, Z_SYNC_FLUSH);
    size_t n = sizeof out - z->avail_out;
    int whole = z->avail_in == 0 && (rc == Z_OK || rc == Z_BUF_ERROR);
    deflateReset(z);
    if (!whole) {
        log_warn("coach %d: a message too large to compress was dropped", idx);
        return;
    }
    ngw_udp_send_raw(g->cl[idx].fd, out, n);
}

long ngw_coach_unzip(ngw_t *g, const char *in, size_t n, char *out, size_t cap)
{
    (void)g;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (cap < 2 || inflateInit(&z) != Z_OK)
        return -1;
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)n;
    z.next_out = (Bytef *)out;
    z.avail_out = (uInt)(cap - 1);
    int rc = inflate(&z, Z_SYNC_FLUSH);
    long len = (long)(cap - 1 - z.avail_out);
    inflateEnd(&z);
    if ((rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) || len <= 0)
        return -1;
    out[len] = '\0';
    return len;
}
