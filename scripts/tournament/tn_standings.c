/* tn_standings.c -- the table of the round robin (or the sweep): per team played, won,
 * drawn, lost, goals for and against and points (3 a win, 1 a draw), counted from the
 * matches whose result.json counts; a team that forfeits loses whatever the score.
 * Ordered by points, then goal difference, then goals for, then name. */
#include <stdlib.h>
#include <string.h>

#include "tn.h"

void tn_standings_add(tn_row_t *rows, int l, int r, const tn_outcome_t *o)
{
    tn_row_t *a = &rows[l], *b = &rows[r];
    a->played++;
    b->played++;
    a->goals_for += o->score[0];
    a->goals_against += o->score[1];
    b->goals_for += o->score[1];
    b->goals_against += o->score[0];
    int d = o->forfeit >= 0 ? (o->forfeit == 0 ? -1 : 1) : o->score[0] - o->score[1];
    if (d > 0) {
        a->won++;
        b->lost++;
        a->points += 3;
    } else if (d < 0) {
        b->won++;
        a->lost++;
        b->points += 3;
    } else {
        a->drawn++;
        b->drawn++;
        a->points++;
        b->points++;
    }
}

static int cmp_rows(const void *pa, const void *pb)
{
    const tn_row_t *a = pa, *b = pb;
    if (a->points != b->points)
        return b->points - a->points;
    int da = a->goals_for - a->goals_against, db = b->goals_for - b->goals_against;
    if (da != db)
        return db - da;
    if (a->goals_for != b->goals_for)
        return b->goals_for - a->goals_for;
    return strcmp(a->name, b->name);
}

void tn_standings_sort(tn_row_t *rows, int n)
{
    qsort(rows, (size_t)n, sizeof *rows, cmp_rows);
}

void tn_standings_compute(const tn_spec_t *s, const tn_sched_t *t, const char *dir, tn_row_t *rows)
{
    memset(rows, 0, (size_t)s->nteams * sizeof *rows);
    for (int i = 0; i < s->nteams; i++)
        memcpy(rows[i].name, s->teams[i].name, TN_NAME_LEN);
    for (int i = 0; i < t->n; i++) {
        const tn_match_t *m = &t->m[i];
        tn_outcome_t o;
        if (m->ko || m->left < 0 || m->right < 0)
            continue;
        if (tn_plan_outcome(s, m, dir, &o) == 1)
            tn_standings_add(rows, m->left, m->right, &o);
    }
    tn_standings_sort(rows, s->nteams);
}
