/* tn_sched.c -- the schedule: every match of a tournament file, in rounds. A round robin
 * by the circle method (n-1 rounds for n teams, a bye each round when n is odd; each
 * pair once, no team twice in a round), a double one with the second half's sides
 * swapped, the knock-out after it (the best N seeded 1vN, 2vN-1, ... in the usual bracket
 * order, so 1 and 2 can meet only in the final; its teams are filled in by tn_plan.c when
 * the results are there), or a sweep (N matches of A vs B in one round). Each match's
 * seed is derived from the file's base seed and the match's id alone, so the same file
 * gives the same seeds on any backend and in any order of play. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tn.h"

static unsigned long long splitmix64(unsigned long long x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

int tn_seed(unsigned long long base, const char *id)
{
    unsigned long long x = splitmix64(splitmix64(base) ^ tn_fnv1a(id));
    return (int)(x % 2147483646ULL) + 1;
}

void tn_bracket_order(int n, int *order)
{
    order[0] = 1;
    for (int size = 1; size < n; size *= 2) {
        /* each seed s of the bracket of size meets 2*size+1-s in the next one */
        for (int i = size - 1; i >= 0; i--) {
            order[2 * i] = order[i];
            order[2 * i + 1] = 2 * size + 1 - order[i];
        }
    }
}

static tn_match_t *add(tn_sched_t *t, int *cap)
{
    if (t->n == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        tn_match_t *m = realloc(t->m, (size_t)*cap * sizeof *m);
        if (!m)
            return NULL;
        t->m = m;
    }
    tn_match_t *m = &t->m[t->n++];
    memset(m, 0, sizeof *m);
    m->left = m->right = -1;
    return m;
}

/* one round robin's rounds, from round `first`, sides swapped if `swap` */
static int round_robin(const tn_spec_t *s, tn_sched_t *t, int *cap, int first, int swap)
{
    int n = s->nteams, m = n + (n & 1);          /* m-1: the bye when n is odd */
    int *arr = malloc((size_t)m * sizeof *arr);
    if (!arr)
        return -1;
    for (int i = 0; i < m; i++)
        arr[i] = i < n ? i : -1;
    for (int r = 0; r < m - 1; r++) {
        int idx = 0;
        for (int i = 0; i < m / 2; i++) {
            int a = arr[i], b = arr[m - 1 - i];
            if (a < 0 || b < 0)
                continue;
            /* the first pair alternates; in the others the upper row is left: every team
             * walks through all the places, as often in the upper row as in the lower */
            if (i == 0 && (r & 1)) {
                int x = a;
                a = b;
                b = x;
            }
            tn_match_t *mt = add(t, cap);
            if (!mt)
                return free(arr), -1;
            mt->round = first + r;
            mt->index = idx++;
            mt->left = swap ? b : a;
            mt->right = swap ? a : b;
            snprintf(mt->id, sizeof mt->id, "r%02d-m%02d", mt->round, mt->index + 1);
        }
        /* rotate all but the first */
        int last = arr[m - 1];
        memmove(arr + 2, arr + 1, (size_t)(m - 2) * sizeof *arr);
        arr[1] = last;
    }
    free(arr);
    return m - 1;
}

static int knockout(const tn_spec_t *s, tn_sched_t *t, int *cap, int first)
{
    int n = s->ko_top, order[64];
    if (n > 64)
        return -1;
    tn_bracket_order(n, order);
    int rounds = 0;
    for (int size = n, k = 1; size >= 2; size /= 2, k++, rounds++) {
        for (int i = 0; i < size / 2; i++) {
            tn_match_t *mt = add(t, cap);
            if (!mt)
                return -1;
            mt->round = first + k - 1;
            mt->index = i;
            mt->ko = k;
            snprintf(mt->id, sizeof mt->id, "ko%d-m%d", k, i + 1);
            if (k == 1) {
                snprintf(mt->from_l, sizeof mt->from_l, "seed %d", order[2 * i]);
                snprintf(mt->from_r, sizeof mt->from_r, "seed %d", order[2 * i + 1]);
            } else {
                snprintf(mt->from_l, sizeof mt->from_l, "winner of ko%d-m%d", k - 1, 2 * i + 1);
                snprintf(mt->from_r, sizeof mt->from_r, "winner of ko%d-m%d", k - 1, 2 * i + 2);
            }
        }
    }
    return rounds;
}

int tn_sched_build(const tn_spec_t *s, tn_sched_t *t)
{
    memset(t, 0, sizeof *t);
    int cap = 0, r;
    if (s->format == TN_FMT_SWEEP) {
        for (int i = 0; i < s->sweep_n; i++) {
            tn_match_t *mt = add(t, &cap);
            if (!mt)
                return -1;
            mt->round = 1;
            mt->index = i;
            mt->left = s->sweep_l;
            mt->right = s->sweep_r;
            snprintf(mt->id, sizeof mt->id, "s%04d", i + 1);
        }
        t->rounds = t->group_rounds = 1;
    } else {
        if ((r = round_robin(s, t, &cap, 1, 0)) < 0)
            return -1;
        t->rounds = t->group_rounds = r;
        if (s->format == TN_FMT_DRR) {
            if (round_robin(s, t, &cap, r + 1, 1) < 0)
                return -1;
            t->rounds = t->group_rounds = 2 * r;
        }
        if (s->format == TN_FMT_RR_KO) {
            int k = knockout(s, t, &cap, t->rounds + 1);
            if (k < 0)
                return -1;
            t->rounds += k;
        }
    }
    for (int i = 0; i < t->n; i++) {
        tn_match_t *mt = &t->m[i];
        mt->seed = s->format == TN_FMT_SWEEP && s->sweep_seeds ? (int)s->sweep_seeds[i]
                                                                : tn_seed(s->seed, mt->id);
    }
    return 0;
}

void tn_sched_free(tn_sched_t *t)
{
    free(t->m);
    memset(t, 0, sizeof *t);
}

tn_match_t *tn_sched_find(tn_sched_t *t, const char *id)
{
    for (int i = 0; i < t->n; i++) {
        if (strcmp(t->m[i].id, id) == 0)
            return &t->m[i];
    }
    return NULL;
}

tn_match_t *tn_sched_at(tn_sched_t *t, int round, int index)
{
    for (int i = 0; i < t->n; i++) {
        if (t->m[i].round == round && t->m[i].index == index)
            return &t->m[i];
    }
    return NULL;
}
