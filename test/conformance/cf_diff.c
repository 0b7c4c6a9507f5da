/* cf_diff.c -- line differences (cf_diff.h), used by cf_cmp.c. Myers' greedy forward
 * search keeps the furthest point of every diagonal per edit count; the path is then
 * walked back through those arrays. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cf_mem.h"
#include "cf_diff.h"

static void add_hunk(cf_hunk_t **out, int *n, int a0, int a1, int b0, int b1)
{
    if (a0 == a1 && b0 == b1)
        return;
    *out = cf_xrealloc(*out, (size_t)(*n + 1) * sizeof **out);
    (*out)[(*n)++] = (cf_hunk_t){ a0, a1, b0, b1 };
}

/* The edit path of a[0,n) against b[0,m) as moves 'E' (both advance), 'D' (a only),
 * 'I' (b only), written to path (n+m long at most); returns its length, -1 if more
 * than CF_DIFF_MAX_EDITS edits are needed. */
static int myers(const char *const *a, int n, const char *const *b, int m, char *path)
{
    int max = n + m;
    if (max > 0 && CF_DIFF_MAX_EDITS < max)
        max = CF_DIFF_MAX_EDITS;
    /* v[d] holds the furthest x per diagonal k in [-d, d], at index k + d */
    int **v = cf_xmalloc((size_t)(max + 1) * sizeof *v);
    int found = -1;
    for (int d = 0; d <= max && found < 0; d++) {
        v[d] = cf_xmalloc((size_t)(2 * d + 1) * sizeof **v);
        for (int k = -d; k <= d; k += 2) {
            int x;
            if (d == 0)
                x = 0;
            else if (k == -d || (k != d && v[d - 1][k - 1 + d - 1] < v[d - 1][k + 1 + d - 1]))
                x = v[d - 1][k + 1 + d - 1];            /* down: from diagonal k+1 */
            else
                x = v[d - 1][k - 1 + d - 1] + 1;        /* right: from diagonal k-1 */
            int y = x - k;
            while (x < n && y < m && strcmp(a[x], b[y]) == 0) {
                x++;
                y++;
            }
            v[d][k + d] = x;
            if (x >= n && y >= m) {
                found = d;
                break;
            }
        }
    }
    int len = -1;
    if (found >= 0) {
        /* walk back from (n, m), writing the moves from the end */
        int x = n, y = m, pos = n + m;
        char *tmp = cf_xmalloc((size_t)(n + m + 1));
        for (int d = found; d > 0; d--) {
            int k = x - y, pk;
            if (k == -d || (k != d && v[d - 1][k - 1 + d - 1] < v[d - 1][k + 1 + d - 1]))
                pk = k + 1;
            else
                pk = k - 1;
            int px = v[d - 1][pk + d - 1], py = px - pk;
            int mx = pk == k + 1 ? px : px + 1;
            while (x > mx) {
                tmp[--pos] = 'E';
                x--;
                y--;
            }
            tmp[--pos] = pk == k + 1 ? 'I' : 'D';
            x = px;
            y = py;
        }
        while (x > 0) {
            tmp[--pos] = 'E';
            x--;
        }
        len = n + m - pos;
        memcpy(path, tmp + pos, (size_t)len);
        free(tmp);
    }
    for (int d = 0; d <= max && d <= (found >= 0 ? found : max); d++)
        free(v[d]);
    free(v);
    return len;
}

int cf_diff(const char *const *a, int na, const char *const *b, int nb, cf_hunk_t **out)
{
    *out = NULL;
    int n = 0, head = 0, tail = 0;
    while (head < na && head < nb && strcmp(a[head], b[head]) == 0)
        head++;
    while (tail < na - head && tail < nb - head
           && strcmp(a[na - 1 - tail], b[nb - 1 - tail]) == 0)
        tail++;
    int ma = na - head - tail, mb = nb - head - tail;
    if (ma == 0 && mb == 0)
        return 0;
    char *path = cf_xmalloc((size_t)(ma + mb + 1));
    int len = myers(a + head, ma, b + head, mb, path);
    if (len < 0) {
        add_hunk(out, &n, head, head + ma, head, head + mb);
    } else {
        int x = head, y = head, i = 0;
        while (i < len) {
            if (path[i] == 'E') {
                x++;
                y++;
                i++;
                continue;
            }
            int x0 = x, y0 = y;
            while (i < len && path[i] != 'E') {
                if (path[i] == 'D')
                    x++;
                else
                    y++;
                i++;
            }
            add_hunk(out, &n, x0, x, y0, y);
        }
    }
    free(path);
    return n;
}

int cf_diff_is_move(const cf_hunk_t *h, int nh, int i, const char *const *a,
                    const char *const *b, int max_gap)
{
    if (i + 1 >= nh)
        return 0;
    const cf_hunk_t *x = &h[i], *y = &h[i + 1];
    int na = x->a1 - x->a0, nb = x->b1 - x->b0, ma = y->a1 - y->a0, mb = y->b1 - y->b0;
    const char *const *p, *const *q;
    int n;
    if (na > 0 && nb == 0 && ma == 0 && mb == na) {        /* a's lines come later in b */
        p = a + x->a0;
        q = b + y->b0;
        n = na;
    } else if (nb > 0 && na == 0 && mb == 0 && ma == nb) { /* b's lines come later in a */
        p = b + x->b0;
        q = a + y->a0;
        n = nb;
    } else {
        return 0;
    }
    if (y->a0 - x->a1 > max_gap)
        return 0;
    for (int k = 0; k < n; k++)
        if (strcmp(p[k], q[k]) != 0)
            return 0;
    return 1;
}
