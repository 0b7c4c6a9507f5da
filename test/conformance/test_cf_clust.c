/* test_cf_clust.c -- phase clusters and their comparison. */
#include <criterion/criterion.h>
#include <string.h>

#include "cf_clust.h"

Test(cf_clust, points_within_join_form_one_cluster)
{
    double v[] = { 50.5, 0.2, 1.0, 51.0, 0.0, 52.3, 3.5 };
    cf_cluster_t c[8];
    int n = cf_clust(v, 7, 4.0, c, 8);
    cr_assert_eq(n, 2);
    cr_assert_eq(c[0].n, 4);
    cr_assert_float_eq(c[0].centre, (0.0 + 0.2 + 1.0 + 3.5) / 4, 1e-9);
    cr_assert_float_eq(c[0].lo, 0.0, 1e-9);
    cr_assert_float_eq(c[0].hi, 3.5, 1e-9);
    cr_assert_eq(c[1].n, 3);
    cr_assert_float_eq(c[1].share, 3.0 / 7, 1e-9);
}

Test(cf_clust, a_chain_joins)
{
    double v[] = { 0, 3, 6, 9, 12 };   /* each within 4 of the next */
    cf_cluster_t c[4];
    cr_assert_eq(cf_clust(v, 5, 4.0, c, 4), 1);
    cr_assert_eq(cf_clust(v, 5, 2.5, c, 4), 4);   /* full: the rest joins the last */
    cr_assert_eq(c[3].n, 2);
}

Test(cf_clust, same_phases_do_not_differ)
{
    double a[] = { 0.1, 0.3, 0.2, 51.9, 52.1, 52.0 };
    double b[] = { 2.0, 1.5, 1.8, 50.0, 50.5, 49.9 };
    cf_cluster_t ca[8], cb[8];
    int na = cf_clust(a, 6, 4, ca, 8), nb = cf_clust(b, 6, 4, cb, 8);
    char why[200] = "";
    cr_assert_eq(cf_clust_differ(a, 6, ca, na, b, 6, cb, nb, 7, 0.1, 0.2, "ours", "ref", why,
                                 sizeof why), 0, "%s", why);
}

Test(cf_clust, a_moved_phase_differs)
{
    /* the measurement: 38/90 ms against 0/52 ms */
    double a[] = { 38, 38.5, 39, 90, 90.2, 89.5 };
    double b[] = { 0.1, 0.3, 0.2, 51.9, 52.1, 52.0 };
    cf_cluster_t ca[8], cb[8];
    int na = cf_clust(a, 6, 4, ca, 8), nb = cf_clust(b, 6, 4, cb, 8);
    char why[200];
    cr_assert_eq(cf_clust_differ(a, 6, ca, na, b, 6, cb, nb, 7, 0.1, 0.2, "ours", "ref", why,
                                 sizeof why), 1);
    cr_assert(strstr(why, "38.") && strstr(why, "not in ref"), "%s", why);
}

Test(cf_clust, shares_must_agree)
{
    double a[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 50 };   /* 90 % / 10 % */
    double b[] = { 0, 0, 0, 0, 0, 50, 50, 50, 50, 50 }; /* 50 % / 50 % */
    cf_cluster_t ca[8], cb[8];
    int na = cf_clust(a, 10, 4, ca, 8), nb = cf_clust(b, 10, 4, cb, 8);
    char why[200];
    cr_assert_eq(cf_clust_differ(a, 10, ca, na, b, 10, cb, nb, 7, 0.1, 0.2, "x", "y", why,
                                 sizeof why), 1);
    cr_assert(strstr(why, "90% in x, 50% in y"), "%s", why);
}

Test(cf_clust, small_clusters_are_not_compared)
{
    double a[20], b[20];
    for (int i = 0; i < 20; i++)
        a[i] = b[i] = 10;
    a[19] = 70;            /* 5 %: noise */
    cf_cluster_t ca[8], cb[8];
    int na = cf_clust(a, 20, 4, ca, 8), nb = cf_clust(b, 20, 4, cb, 8);
    cr_assert_eq(cf_clust_differ(a, 20, ca, na, b, 20, cb, nb, 7, 0.1, 0.2, "x", "y", NULL, 0), 0);
}

Test(cf_clust, a_phase_split_in_two_still_matches)
{
    /* 152 and 159 apart in one run, 154 and 160 in the other: the same late tick */
    double a[] = { 101, 101, 101, 101, 101, 101, 101, 101, 101, 101, 152, 152, 152, 159, 159 };
    double b[] = { 101, 101, 101, 101, 101, 101, 101, 101, 101, 101, 154, 154, 154, 160, 160 };
    cf_cluster_t ca[8], cb[8];
    int na = cf_clust(a, 15, 4, ca, 8), nb = cf_clust(b, 15, 4, cb, 8);
    char why[200] = "";
    cr_assert_eq(na, 3);
    cr_assert_eq(cf_clust_differ(a, 15, ca, na, b, 15, cb, nb, 7, 0.1, 0.2, "x", "y", why,
                                 sizeof why), 0, "%s", why);
}

Test(cf_clust, in_place_share)
{
    double steady[] = { 0, 1, 0.5, 52, 51, 52.5 };
    cf_cluster_t c[8];
    int nc = cf_clust(steady, 6, 4, c, 8);
    double stalled[] = { 0.5, 52, 30, 14, 2 };
    cr_assert_float_eq(cf_clust_in_place(stalled, 5, c, nc, 7, 0.1), 3.0 / 5, 1e-9);
    cr_assert_float_eq(cf_clust_in_place(stalled, 0, c, nc, 7, 0.1), -1, 1e-9);
}

Test(cf_clust, format)
{
    double v[] = { 0, 0, 0, 50 };
    cf_cluster_t c[4];
    char out[100];
    int n = cf_clust(v, 4, 4, c, 4);
    cf_clust_format(c, n, 0.1, out, sizeof out);
    cr_assert_str_eq(out, "0.0 ms 75% (3), 50.0 ms 25% (1)");
    cf_clust_format(c, n, 0.8, out, sizeof out);
    cr_assert_str_eq(out, "no phase");
}
