/* rcg_read.c -- game logs back into frames (rcg.h): the whole file into memory (plain
 * or gzip), the version from its first bytes (docs/protocol/logs.md §1: "[" JSON,
 * "ULG" + byte 2 or 3 binary, "ULG4".."ULG6" + newline text, otherwise version 1, whose
 * first record must then be a show or a message), then the version's reader
 * (rcg_bin.c, rcg_text.c, rcg_json.c) fills the frames and messages through the builder
 * of rcg_store.c. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "rcg.h"

#define RCG_MAX_BYTES (1ull << 31)   /* refuse logs past 2 GB uncompressed */

/* ---- versions ---------------------------------------------------------------------------- */
/* the version, and the header's length in *skip; 0 with err if not a game log */
static int detect(const char *data, size_t len, size_t *skip, char *err, size_t errlen)
{
    size_t ws = 0;
    while (ws < len && (data[ws] == ' ' || data[ws] == '\t' || data[ws] == '\r' || data[ws] == '\n'))
        ws++;
    if (ws < len && data[ws] == '[') {
        *skip = ws + 1;
        return RCG_JSON_VERSION;
    }
    if (len >= 4 && memcmp(data, "ULG", 3) == 0) {
        if (data[3] == 2 || data[3] == 3) {
            *skip = 4;
            return data[3];
        }
        if (data[3] >= '4' && data[3] <= '6' && (len == 4 || data[4] == '\n' || data[4] == '\r')) {
            *skip = 4;
            return data[3] - '0';
        }
        snprintf(err, errlen, "a game log of an unknown version (ULG byte %d)",
                 (unsigned char)data[3]);
        return 0;
    }
    /* version 1 has no header: its first record is a show (1) or a message (2) */
    if (len >= 2 && data[0] == 0 && (data[1] == 1 || data[1] == 2)) {
        *skip = 0;
        return 1;
    }
    snprintf(err, errlen, "not a game log (no ULG header, not a JSON array, not a version 1 "
                          "record)");
    return 0;
}

int rcg_read_mem(const char *data, size_t len, rcg_t *g, char *err, size_t errlen)
{
    size_t skip = 0;
    memset(g, 0, sizeof *g);
    conf_defaults(&g->conf);
    int v = detect(data, len, &skip, err, errlen);
    if (v == 0)
        return -1;
    g->version = v;
    int rc;
    if (v == RCG_JSON_VERSION)
        rc = rcg_json_read(g, data + skip, len - skip);
    else if (v <= 3)
        rc = rcg_bin_read(g, (const uint8_t *)data + skip, len - skip);
    else
        rc = rcg_text_read(g, data + skip, len - skip);
    if (rc < 0) {
        snprintf(err, errlen, "out of memory reading the log");
        rcg_free(g);
        return -1;
    }
    return 0;
}

/* the whole (decompressed) file; *cut when its gzip stream ends early */
static char *slurp(gzFile f, size_t *len, int *cut, const char **zmsg)
{
    size_t cap = 1 << 20;
    char *buf = malloc(cap);
    *zmsg = NULL;
    *cut = 0;
    int n = 0;
    *len = 0;
    while (buf && (n = gzread(f, buf + *len, (unsigned)(cap - *len))) > 0) {
        *len += (size_t)n;
        if (*len == cap) {
            char *b = cap < RCG_MAX_BYTES ? realloc(buf, cap * 2) : NULL;
            if (!b) {
                free(buf);
                return NULL;
            }
            buf = b;
            cap *= 2;
        }
    }
    int zerr = 0;
    *zmsg = n < 0 ? gzerror(f, &zerr) : NULL;
    *cut = n < 0;
    return buf;
}

int rcg_read_file(const char *path, rcg_t *g, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    errno = 0;
    gzFile f = gzopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno ? errno : ENOENT));
        return -1;
    }
    size_t len = 0;
    int cut = 0;
    const char *zmsg = NULL;
    char *buf = slurp(f, &len, &cut, &zmsg);
    char zbuf[128];
    snprintf(zbuf, sizeof zbuf, "%s", zmsg ? zmsg : "");
    gzclose(f);
    if (!buf) {
        snprintf(err, errlen, "%s: too large or out of memory", path);
        return -1;
    }
    /* a cut gzip stream still gives what came before the cut: read that */
    if (cut && len == 0) {
        snprintf(err, errlen, "%s: %s", path, zbuf);
        free(buf);
        return -1;
    }
    int rc = rcg_read_mem(buf, len, g, err, errlen);
    free(buf);
    if (rc == 0 && cut) {
        g->truncated = 1;
        g->note[0] = '\0';
        rcg_note(g, "the compressed data is cut short (%s): read up to %d frames", zbuf,
                 g->n_frames);
    }
    return rc;
}
