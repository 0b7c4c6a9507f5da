/* test_cf_diff.c -- line differences as hunks. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "cf_diff.h"

static int diff(const char *const *a, int na, const char *const *b, int nb, cf_hunk_t **h)
{
    return cf_diff(a, na, b, nb, h);
}

Test(cf_diff, equal_has_no_hunk)
{
    const char *a[] = { "x", "y", "z" };
    cf_hunk_t *h;
    cr_assert_eq(diff(a, 3, a, 3, &h), 0);
    cr_assert_null(h);
}

Test(cf_diff, one_inserted_line_is_one_hunk)
{
    const char *a[] = { "a", "b", "c", "d", "e" };
    const char *b[] = { "a", "b", "X", "c", "d", "e" };
    cf_hunk_t *h;
    cr_assert_eq(diff(a, 5, b, 6, &h), 1);
    cr_assert_eq(h[0].a0, 2);
    cr_assert_eq(h[0].a1, 2);
    cr_assert_eq(h[0].b0, 2);
    cr_assert_eq(h[0].b1, 3);
    free(h);
}

Test(cf_diff, changes_apart_are_separate_hunks)
{
    const char *a[] = { "1", "2", "3", "4", "5", "6", "7" };
    const char *b[] = { "1", "two", "3", "4", "5", "7", "8" };
    cf_hunk_t *h;
    int n = diff(a, 7, b, 7, &h);
    cr_assert_eq(n, 3);
    cr_assert_eq(h[0].a0, 1);       /* 2 -> two */
    cr_assert_eq(h[0].a1, 2);
    cr_assert_eq(h[0].b1, 2);
    cr_assert_eq(h[1].a0, 5);       /* 6 dropped */
    cr_assert_eq(h[1].a1, 6);
    cr_assert_eq(h[1].b0, h[1].b1);
    cr_assert_eq(h[2].a0, 7);       /* 8 added at the end */
    cr_assert_eq(h[2].b0, 6);
    cr_assert_eq(h[2].b1, 7);
    free(h);
}

Test(cf_diff, empty_side)
{
    const char *b[] = { "p", "q" };
    cf_hunk_t *h;
    cr_assert_eq(diff(NULL, 0, b, 2, &h), 1);
    cr_assert_eq(h[0].b1, 2);
    free(h);
    cr_assert_eq(diff(b, 2, NULL, 0, &h), 1);
    cr_assert_eq(h[0].a1, 2);
    free(h);
}

Test(cf_diff, too_many_edits_make_one_hunk)
{
    enum { N = 2 * CF_DIFF_MAX_EDITS };
    static char sa[N][8], sb[N][8];
    const char *a[N + 2], *b[N + 2];
    a[0] = b[0] = "head";
    for (int i = 0; i < N; i++) {
        snprintf(sa[i], sizeof sa[i], "a%d", i);
        snprintf(sb[i], sizeof sb[i], "b%d", i);
        a[i + 1] = sa[i];
        b[i + 1] = sb[i];
    }
    a[N + 1] = b[N + 1] = "tail";
    cf_hunk_t *h;
    cr_assert_eq(diff(a, N + 2, b, N + 2, &h), 1);
    cr_assert_eq(h[0].a0, 1);
    cr_assert_eq(h[0].a1, N + 1);
    cr_assert_eq(h[0].b1, N + 1);
    free(h);
}

/* random edits: applying the hunks to a must give b */
Test(cf_diff, hunks_rebuild_the_other_side)
{
    static const char *words[] = { "a", "b", "c", "d" };
    unsigned seed = 7;
    for (int round = 0; round < 200; round++) {
        const char *a[40], *b[40];
        int na = rand_r(&seed) % 40, nb = rand_r(&seed) % 40;
        for (int i = 0; i < na; i++)
            a[i] = words[rand_r(&seed) % 4];
        for (int i = 0; i < nb; i++)
            b[i] = words[rand_r(&seed) % 4];
        cf_hunk_t *h;
        int n = diff(a, na, b, nb, &h);
        const char *r[80];
        int nr = 0, x = 0;
        for (int k = 0; k < n; k++) {
            while (x < h[k].a0)
                r[nr++] = a[x++];
            for (int j = h[k].b0; j < h[k].b1; j++)
                r[nr++] = b[j];
            x = h[k].a1;
        }
        while (x < na)
            r[nr++] = a[x++];
        cr_assert_eq(nr, nb, "round %d", round);
        for (int i = 0; i < nb; i++)
            cr_assert_str_eq(r[i], b[i], "round %d", round);
        free(h);
    }
}

Test(cf_diff, a_message_in_another_place_is_a_move)
{
    const char *a[] = { "sb 1", "think", "see 1", "sb 2", "think" };
    const char *b[] = { "sb 1", "see 1", "think", "sb 2", "think" };
    cf_hunk_t *h;
    int n = diff(a, 5, b, 5, &h);
    cr_assert_eq(n, 2);
    cr_assert(cf_diff_is_move(h, n, 0, a, b, 4));
    cr_assert_not(cf_diff_is_move(h, n, 1, a, b, 4));
    cr_assert_not(cf_diff_is_move(h, n, 0, a, b, 0));   /* one line apart */
    free(h);
    const char *c[] = { "sb 1", "think", "see 2", "sb 2", "think" };
    n = diff(c, 5, b, 5, &h);
    for (int i = 0; i < n; i++)
        cr_assert_not(cf_diff_is_move(h, n, i, c, b, 4));   /* see 2 is not see 1 */
    free(h);
}
