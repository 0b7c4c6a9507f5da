/* cf_dev.c -- the deviations file (cf_dev.h), read by cf_main.c, consulted by cf_cmp.c. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cf_dev.h"
#include "cf_mem.h"

static int parse_line(cf_dev_t *e, const char *l, int line, char *err, size_t errlen)
{
    char scn[64], stream[32];
    int off = 0;
    memset(e, 0, sizeof *e);
    e->line = line;
    if (sscanf(l, "%63s %31s %n", scn, stream, &off) != 2 || !off) {
        snprintf(err, errlen, "line %d: SCENARIO STREAM PATTERN -- REASON expected", line);
        return -1;
    }
    const char *pat = l + off, *sep = strstr(pat, " -- ");
    if (!sep || sep == pat || !sep[4]) {
        snprintf(err, errlen, "line %d: ' -- REASON' missing", line);
        return -1;
    }
    char re[1024];
    snprintf(re, sizeof re, "%.*s", (int)(sep - pat), pat);
    int rc = regcomp(&e->re, re, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        char m[128];
        regerror(rc, &e->re, m, sizeof m);
        snprintf(err, errlen, "line %d: bad pattern: %s", line, m);
        return -1;
    }
    snprintf(e->scn, sizeof e->scn, "%s", scn);
    snprintf(e->stream, sizeof e->stream, "%s", stream);
    snprintf(e->reason, sizeof e->reason, "%s", sep + 4);
    return 0;
}

int cf_dev_parse(cf_devs_t *d, const char *text, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    int line = 0;
    for (const char *p = text; *p; ) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char l[2048];
        snprintf(l, sizeof l, "%.*s", (int)(n < sizeof l - 1 ? n : sizeof l - 1), p);
        line++;
        p = e ? e + 1 : p + n;
        size_t b = strspn(l, " \t");
        if (!l[b] || l[b] == '#')
            continue;
        d->d = cf_xrealloc(d->d, (size_t)(d->n + 1) * sizeof *d->d);
        if (parse_line(&d->d[d->n], l + b, line, err, errlen) < 0) {
            cf_dev_free(d);
            return -1;
        }
        d->n++;
    }
    return 0;
}

int cf_dev_load(cf_devs_t *d, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char e2[256];
    if (cf_dev_parse(d, buf, e2, sizeof e2) < 0) {
        snprintf(err, errlen, "%s: %s", path, e2);
        return -1;
    }
    return 0;
}

void cf_dev_free(cf_devs_t *d)
{
    for (int i = 0; i < d->n; i++)
        regfree(&d->d[i].re);
    free(d->d);
    memset(d, 0, sizeof *d);
}

cf_dev_t *cf_dev_match(cf_devs_t *d, const char *scn, const char *stream,
                       const char *const *lines, int n)
{
    cf_dev_t *first = NULL;
    for (int i = 0; i < n; i++) {
        cf_dev_t *hit = NULL;
        for (int k = 0; k < d->n && !hit; k++)
            if (fnmatch(d->d[k].scn, scn, 0) == 0 && fnmatch(d->d[k].stream, stream, 0) == 0
                && regexec(&d->d[k].re, lines[i], 0, NULL, 0) == 0)
                hit = &d->d[k];
        if (!hit)
            return NULL;
        if (!first)
            first = hit;
    }
    if (first)
        first->used++;
    return first;
}
