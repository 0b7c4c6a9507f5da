/* fuzz_rcg.c -- libFuzzer target: the game log reader on arbitrary bytes (a log file
 * anyone may hand to rcss-logplayer), every version, from memory and as a file, plain or
 * gzip. The first byte b picks:
 *   - a header (b & 7: 0 none, the bytes as they are; 1 none, a version 1 log's first
 *     record is forced to be a show; 2, 3 "ULG" 2 / 3; 4-6 "ULG4\n".."ULG6\n"; 7 "[\n"
 *     JSON) so each reader is reached at once; the rest is the body;
 *   - the way in ((b >> 3) & 3): 0, 1 rcg_read_mem; 2 rcg_read_file on the bytes as they
 *     are (zlib passes plain data through; a body starting 1f 8b is read as gzip, so
 *     broken gzip streams come in this way); 3 rcg_read_file on the bytes gzip-compressed
 *     here, as two gzip members when b & 0x40, cut short (the last half of the
 *     compressed stream dropped, a killed writer) when b & 0x20.
 * The file is a memfd (made once), read through /proc/self/fd. Also a show line and a
 * JSON show alone. Must never crash, leak or read out of bounds.
 * Seeds: test/fuzz/seeds/rcg_*. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>
#include "rcg.h"

static int  memfd = -1;
static char memfd_path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    memfd = memfd_create("fuzz_rcg", 0);
    if (memfd < 0) {
        perror("fuzz_rcg: memfd_create");
        abort();
    }
    snprintf(memfd_path, sizeof memfd_path, "/proc/self/fd/%d", memfd);
    return 0;
}

/* src[0..n) as one gzip member appended at out[*used..cap) (level 1: speed, not size) */
static int gz_member(const char *src, size_t n, unsigned char *out, size_t cap, size_t *used)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return -1;
    z.next_in = (unsigned char *)src;
    z.avail_in = (uInt)n;
    z.next_out = out + *used;
    z.avail_out = (uInt)(cap - *used);
    int rc = deflate(&z, Z_FINISH);
    *used += cap - *used - z.avail_out;
    deflateEnd(&z);
    return rc == Z_STREAM_END ? 0 : -1;
}

/* the file the way in m asks for: 0, or -1 if it could not be made (not the reader's fault) */
static int make_file(const char *buf, size_t n, int m, int two, int cut)
{
    const char *out = buf;
    size_t len = n;
    unsigned char *z = NULL;
    if (m == 3) {
        size_t cap = 2 * (compressBound((uLong)n) + 64);
        size_t half = two ? n / 2 : n;
        z = malloc(cap);
        len = 0;
        if (!z || gz_member(buf, half, z, cap, &len) != 0
            || (two && gz_member(buf + half, n - half, z, cap, &len) != 0)) {
            free(z);
            return -1;
        }
        if (cut)
            len /= 2;
        out = (const char *)z;
    }
    int rc = ftruncate(memfd, 0) == 0 && pwrite(memfd, out, len, 0) == (ssize_t)len ? 0 : -1;
    free(z);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static rcg_t g;  /* large: the log's parameters */
    char err[256];
    if (size == 0)
        return 0;
    static const char *const heads[8] = { "", "\0\x01", "ULG\x02", "ULG\x03", "ULG4\n",
                                          "ULG5\n", "ULG6\n", "[\n" };
    static const size_t head_len[8] = { 0, 2, 4, 4, 5, 5, 5, 2 };
    int k = data[0] & 7, m = (data[0] >> 3) & 3;
    size_t n = head_len[k] + size - 1;
    char *buf = malloc(n + 1);
    if (!buf)
        return 0;
    memcpy(buf, heads[k], head_len[k]);
    memcpy(buf + head_len[k], data + 1, size - 1);
    buf[n] = '\0';
    int rc;
    err[0] = '\0';
    if (m < 2)
        rc = rcg_read_mem(buf, n, &g, err, sizeof err);
    else if (make_file(buf, n, m, data[0] & 0x40, data[0] & 0x20) == 0)
        rc = rcg_read_file(memfd_path, &g, err, sizeof err);
    else
        rc = 1;
    if (rc == 0) {
        if (g.n_frames < 0 || g.n_msgs < 0 || memchr(g.note, '\0', sizeof g.note) == NULL)
            abort();
        rcg_free(&g);
    } else if (rc == -1 && err[0] == '\0') {
        abort(); /* every refusal says why */
    }
    /* a show line alone (text), a JSON show alone */
    disp_show_t s;
    memset(&s, 0, sizeof s);
    rcg_parse_show(buf + head_len[k], &s);
    rcg_json_show(buf + head_len[k], n - head_len[k], &s);
    free(buf);
    return 0;
}
