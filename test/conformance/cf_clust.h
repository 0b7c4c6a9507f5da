/* cf_clust.h -- timing phases: arrival offsets (ms) grouped into clusters, and two
 * runs' clusters compared. Pure. */
#ifndef RCSS_CF_CLUST_H
#define RCSS_CF_CLUST_H

#include <stddef.h>

#define CF_CLUST_JOIN_MS   4.0    /* a point within this of its sorted neighbour joins it */
#define CF_CLUST_TOL_MS    7.0    /* centres this close are the same phase */
#define CF_CLUST_MIN_SHARE 0.10   /* smaller clusters are not compared */
#define CF_CLUST_SHARE_TOL 0.20   /* shares of a matched phase may differ this much */
#define CF_CLUST_PLACE_TOL 0.15   /* "in place" shares may differ this much */
#define CF_CLUST_MAX       32

typedef struct cf_cluster {
    double centre;     /* mean, ms */
    double lo, hi;     /* smallest and largest point */
    int    n;
    double share;      /* n / all points */
} cf_cluster_t;

/* Clusters of v[0..n) by single linkage at join ms, sorted by centre; at most max (the
 * smallest are merged into their neighbour beyond that). Returns the count. */
int cf_clust(const double *v, int n, double join, cf_cluster_t *out, int max);

/* Share of v[0..n) within tol of the centre of one of the clusters c with a share of at
 * least min_share; -1 when n is 0. */
double cf_clust_in_place(const double *v, int n, const cf_cluster_t *c, int nc, double tol,
                         double min_share);

/* 1 if the runs' phases differ: around the centre of every significant cluster (share >=
 * min_share) of either run, the shares of both runs' points within tol must exist and
 * differ by at most share_tol (points, not clusters, so a phase split in two in one run
 * still matches). why (optional) gets the first mismatch in words, naming the runs an and
 * bn. */
int cf_clust_differ(const double *va, int na, const cf_cluster_t *ca, int nca, const double *vb,
                    int nb, const cf_cluster_t *cb, int ncb, double tol, double min_share,
                    double share_tol, const char *an, const char *bn, char *why, size_t whylen);

/* "0.1 ms 48% (31), 52.0 ms 52% (33)": the significant clusters. */
void cf_clust_format(const cf_cluster_t *c, int nc, double min_share, char *out, size_t len);

#endif
