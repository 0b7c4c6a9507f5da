/* cf_clust.c -- phase clusters (cf_clust.h), used by cf_cmp.c for timing scenarios. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cf_mem.h"
#include "cf_clust.h"

static int dbl_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int cf_clust(const double *v, int n, double join, cf_cluster_t *out, int max)
{
    if (n <= 0 || max <= 0)
        return 0;
    double *s = cf_xmalloc((size_t)n * sizeof *s);
    memcpy(s, v, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, dbl_cmp);
    int nc = 0;
    double sum = 0;
    for (int i = 0; i < n; i++) {
        if (i == 0 || s[i] - s[i - 1] > join) {
            if (nc == max) {
                /* out of room: the rest joins the last cluster */
                sum += s[i];
                out[nc - 1].n++;
                out[nc - 1].hi = s[i];
                continue;
            }
            if (nc)
                out[nc - 1].centre = sum / out[nc - 1].n;
            out[nc++] = (cf_cluster_t){ .lo = s[i], .hi = s[i], .n = 0 };
            sum = 0;
        }
        sum += s[i];
        out[nc - 1].n++;
        out[nc - 1].hi = s[i];
    }
    out[nc - 1].centre = sum / out[nc - 1].n;
    for (int i = 0; i < nc; i++)
        out[i].share = (double)out[i].n / n;
    free(s);
    return nc;
}

double cf_clust_in_place(const double *v, int n, const cf_cluster_t *c, int nc, double tol,
                         double min_share)
{
    if (n <= 0)
        return -1;
    int in = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < nc; k++)
            if (c[k].share >= min_share && fabs(v[i] - c[k].centre) <= tol) {
                in++;
                break;
            }
    return (double)in / n;
}

/* share of v[0..n) within tol of x */
static double share_near(const double *v, int n, double x, double tol)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (fabs(v[i] - x) <= tol)
            k++;
    return n ? (double)k / n : 0;
}

static int one_way(const double *va, int na, const cf_cluster_t *ca, int nca, const double *vb,
                   int nb, double tol, double min_share, double share_tol, const char *an,
                   const char *bn, char *why, size_t whylen)
{
    for (int i = 0; i < nca; i++) {
        if (ca[i].share < min_share)
            continue;
        double sa = share_near(va, na, ca[i].centre, tol);
        double sb = share_near(vb, nb, ca[i].centre, tol);
        if (sb == 0) {
            if (why)
                snprintf(why, whylen, "phase %.1f ms (%.0f%%) of %s not in %s", ca[i].centre,
                         100 * ca[i].share, an, bn);
            return 1;
        }
        if (fabs(sa - sb) > share_tol) {
            if (why)
                snprintf(why, whylen, "within %.0f ms of %.1f ms: %.0f%% in %s, %.0f%% in %s", tol,
                         ca[i].centre, 100 * sa, an, 100 * sb, bn);
            return 1;
        }
    }
    return 0;
}

int cf_clust_differ(const double *va, int na, const cf_cluster_t *ca, int nca, const double *vb,
                    int nb, const cf_cluster_t *cb, int ncb, double tol, double min_share,
                    double share_tol, const char *an, const char *bn, char *why, size_t whylen)
{
    return one_way(va, na, ca, nca, vb, nb, tol, min_share, share_tol, an, bn, why, whylen)
           || one_way(vb, nb, cb, ncb, va, na, tol, min_share, share_tol, bn, an, why, whylen);
}

void cf_clust_format(const cf_cluster_t *c, int nc, double min_share, char *out, size_t len)
{
    size_t o = 0;
    out[0] = '\0';
    for (int i = 0; i < nc && o < len; i++) {
        if (c[i].share < min_share)
            continue;
        int w = snprintf(out + o, len - o, "%s%.1f ms %.0f%% (%d)", o ? ", " : "", c[i].centre,
                         100 * c[i].share, c[i].n);
        if (w < 0)
            break;
        o += (size_t)w;
    }
    if (o == 0)
        snprintf(out, len, "no phase");
}
