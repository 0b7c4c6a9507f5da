/* bcast_url.c -- the broadcast tier's publisher URLs (bcast_url.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bcast_url.h"

/* one URL of n bytes at s into u: 0, or -1 with why */
static int parse_one(const char *s, size_t n, bcast_url_t *u, const char **why)
{
    static const char scheme[] = "http://";
    memset(u, 0, sizeof *u);
    if (n >= sizeof u->text) {
        *why = "too long";
        return -1;
    }
    memcpy(u->text, s, n);
    if (n < sizeof scheme || strncmp(s, scheme, sizeof scheme - 1) != 0) {
        *why = "not an http:// URL";
        return -1;
    }
    const char *h = s + sizeof scheme - 1, *end = s + n;
    const char *slash = memchr(h, '/', (size_t)(end - h));
    const char *hend = slash ? slash : end, *colon;
    if (h < hend && *h == '[') { /* [IPv6] */
        const char *rb = memchr(h, ']', (size_t)(hend - h));
        if (!rb || rb == h + 1) {
            *why = "bad [address]";
            return -1;
        }
        if ((size_t)(rb - h - 1) >= sizeof u->host) {
            *why = "host too long";
            return -1;
        }
        memcpy(u->host, h + 1, (size_t)(rb - h - 1));
        colon = rb + 1 < hend ? rb + 1 : NULL;
        if (colon && *colon != ':') {
            *why = "bad [address]";
            return -1;
        }
    } else {
        colon = memchr(h, ':', (size_t)(hend - h));
        const char *he = colon ? colon : hend;
        if (he == h || (size_t)(he - h) >= sizeof u->host) {
            *why = he == h ? "no host" : "host too long";
            return -1;
        }
        memcpy(u->host, h, (size_t)(he - h));
        for (const char *c = u->host; *c; c++) {
            if (*c == '@' || *c == '?' || *c == '#') {
                *why = "bad host";
                return -1;
            }
        }
    }
    u->port = 80;
    if (colon) {
        long port = 0;
        const char *c = colon + 1;
        if (c == hend) {
            *why = "no port after ':'";
            return -1;
        }
        for (; c < hend; c++) {
            if (*c < '0' || *c > '9' || (port = port * 10 + (*c - '0')) > 65535) {
                *why = "bad port";
                return -1;
            }
        }
        if (port < 1) {
            *why = "bad port";
            return -1;
        }
        u->port = (int)port;
    }
    if (!slash || (size_t)(end - slash) >= sizeof u->path) {
        *why = slash ? "path too long" : "no path (the channel's publisher, /pub/NAME)";
        return -1;
    }
    memcpy(u->path, slash, (size_t)(end - slash));
    for (const char *c = u->path; *c; c++) {
        if ((unsigned char)*c <= ' ' || *c == '#') {
            *why = "bad path";
            return -1;
        }
    }
    return 0;
}

int bcast_url_parse(const char *list, bcast_url_t *out, int max, char *err, size_t errlen)
{
    int n = 0;
    const char *p = list;
    err[0] = '\0';
    for (;;) {
        while (*p == ',' || *p == ' ' || *p == '\t')
            p++;
        if (!*p)
            return n;
        size_t len = strcspn(p, ", \t");
        const char *why = NULL;
        if (n >= max) {
            snprintf(err, errlen, "more than %d URLs", max);
            return -1;
        }
        if (parse_one(p, len, &out[n], &why) < 0) {
            snprintf(err, errlen, "'%.*s': %s", (int)(len > 200 ? 200 : len), p, why);
            return -1;
        }
        n++;
        p += len;
    }
}
