/* cf_diff.h -- the differences between two sequences of lines as hunks (Myers' O(ND)
 * algorithm after the common head and tail are set aside). Pure. */
#ifndef RCSS_CF_DIFF_H
#define RCSS_CF_DIFF_H

/* lines [a0, a1) of the first sequence stand where the second has [b0, b1) */
typedef struct cf_hunk {
    int a0, a1, b0, b1;
} cf_hunk_t;

/* Beyond this many edits the middle part is reported as one hunk. */
#define CF_DIFF_MAX_EDITS 400

/* Hunks of a against b in order (*out malloc'd, NULL if none); returns their count. */
int cf_diff(const char *const *a, int na, const char *const *b, int nb, cf_hunk_t **out);

/* 1 if hunks h[i] and h[i+1] are one move: the first only removes lines from one
 * sequence, the second only adds the same lines to it at most max_gap lines later (a
 * message that arrives a little earlier or later in one of them). */
int cf_diff_is_move(const cf_hunk_t *h, int nh, int i, const char *const *a,
                    const char *const *b, int max_gap);

#endif
