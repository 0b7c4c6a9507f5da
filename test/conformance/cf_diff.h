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

#endif
