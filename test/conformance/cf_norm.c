/* cf_norm.c -- run-specific text made equal (cf_norm.h). Called by cf_run.c on every
 * recorded line once the run is over. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cf_mem.h"
#include "cf_norm.h"

static int digits(const char *p, int n)
{
    for (int i = 0; i < n; i++)
        if (!isdigit((unsigned char)p[i]))
            return 0;
    return 1;
}

/* "YYYY-MM-DD hh:mm:ss" at p */
static int is_date_time(const char *p)
{
    return digits(p, 4) && p[4] == '-' && digits(p + 5, 2) && p[7] == '-' && digits(p + 8, 2)
           && p[10] == ' ' && digits(p + 11, 2) && p[13] == ':' && digits(p + 14, 2)
           && p[16] == ':' && digits(p + 17, 2);
}

char *cf_norm_line(const cf_norm_ctx_t *c, const char *in)
{
    size_t dl = c->dir ? strlen(c->dir) : 0;
    size_t cap = strlen(in) + 64, o = 0;
    char *out = cf_xmalloc(cap);
    static const char seed[] = "Simulator Random Seed: ";
    static const char pid[] = "pid=";
    static const char start[] = "(start_time ";
    const char *p = in;
    while (*p) {
        const char *rep = NULL;
        size_t skip = 0;
        char num[16];
        if (dl && strncmp(p, c->dir, dl) == 0) {
            rep = "<dir>";
            skip = dl;
        } else if (strncmp(p, seed, sizeof seed - 1) == 0 && isdigit((unsigned char)p[sizeof seed - 1])) {
            rep = "Simulator Random Seed: <seed>";
            skip = sizeof seed - 1;
            while (isdigit((unsigned char)p[skip]))
                skip++;
        } else if (strncmp(p, pid, sizeof pid - 1) == 0 && isdigit((unsigned char)p[sizeof pid - 1])) {
            rep = "pid=<pid>";
            skip = sizeof pid - 1;
            while (isdigit((unsigned char)p[skip]))
                skip++;
        } else if (strncmp(p, start, sizeof start - 1) == 0
                   && isdigit((unsigned char)p[sizeof start - 1])) {
            rep = "(start_time <time>";
            skip = sizeof start - 1;
            while (isdigit((unsigned char)p[skip]))
                skip++;
        } else if (isdigit((unsigned char)*p) && (p == in || (!isdigit((unsigned char)p[-1])
                                                              && p[-1] != '.'))) {
            size_t n = 0;
            while (isdigit((unsigned char)p[n]))
                n++;
            if (n == 4 && is_date_time(p)) {
                rep = "<date>";
                skip = 19;
            } else if (n == 14) {
                rep = "<date>";
                skip = 14;
            } else if (p[n] != '.' && n <= 6) {
                long v = strtol(p, NULL, 10);
                if (c->port > 0 && v >= c->port && v <= c->port + 2) {
                    static const char *const names[3] = { "<port>", "<port+1>", "<port+2>" };
                    rep = names[v - c->port];
                    skip = n;
                }
            }
            if (!rep) {
                /* copy the whole number so its tail is not taken for a new one */
                if (n < sizeof num) {
                    snprintf(num, sizeof num, "%.*s", (int)n, p);
                    rep = num;
                    skip = n;
                }
            }
        }
        size_t rl = rep ? strlen(rep) : 1;
        while (o + rl + 1 > cap) {
            out = cf_xrealloc(out, cap *= 2);
        }
        if (!rep) {
            out[o++] = *p++;
            continue;
        }
        memcpy(out + o, rep, rl);
        o += rl;
        p += skip;
    }
    out[o] = '\0';
    return out;
}
