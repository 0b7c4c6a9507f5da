/* mgw_zlib.c -- compressed monitor traffic (docs/protocol/coach.md §9): after
 * (compression N) every datagram, both ways, is an independent zlib stream: the 2-byte
 * header, deflate data ending with a sync flush (00 00 ff ff), no adler trailer. Pure. */
#include <string.h>
#include <zlib.h>
#include "mgw.h"

int mgw_zlib_pack(int level, const void *in, size_t len, uint8_t *out, size_t cap)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (level < 0 || level > 9 || deflateInit(&z, level) != Z_OK)
        return -1;
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)len;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    int rc = deflate(&z, Z_SYNC_FLUSH);
    int n = (int)(cap - z.avail_out);
    int done = rc == Z_OK && z.avail_in == 0 && z.avail_out > 0;
    deflateEnd(&z);
    return done ? n : -1;
}

int mgw_zlib_unpack(const void *in, size_t len, char *out, size_t cap)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (cap == 0 || len < 2 || inflateInit(&z) != Z_OK)
        return -1;
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)len;
    z.next_out = (Bytef *)out;
    z.avail_out = (uInt)(cap - 1);
    int rc = inflate(&z, Z_SYNC_FLUSH);
    int n = (int)(cap - 1 - z.avail_out);
    inflateEnd(&z);
    if ((rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) || n == 0 || z.avail_out == 0)
        return -1;
    out[n] = '\0';
    return n;
}
