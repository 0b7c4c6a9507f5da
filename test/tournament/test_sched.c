/* test_sched.c -- the schedule (scripts/tournament/tn_sched.c): a round robin has every
 * pair once in n-1 rounds (n when odd), no team twice in a round and sides about even;
 * a double one has every pair twice, once each way; the knock-out is seeded 1vN, 2vN-1,
 * ... with 1 and 2 in different halves, its later rounds fed by the winners; a sweep
 * has N matches of A vs B, each with its own seed (or the seeds given); seeds depend on
 * the file's base seed and the match id alone (pinned values: the same on any machine). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "tn.h"

static void make_spec(tn_spec_t *s, int nteams, const char *format)
{
    char text[4096], teams[2048] = "";
    for (int i = 0; i < nteams; i++) {
        char t[32];
        snprintf(t, sizeof t, "%s\"T%d\"", i ? ", " : "", i + 1);
        strcat(teams, t);
    }
    snprintf(text, sizeof text, "{\"seed\": 5, \"teams\": [%s], \"format\": %s}", teams, format);
    char err[256];
    cr_assert_eq(tn_spec_parse(text, s, err, sizeof err), 0, "%s", err);
}

static void check_round_robin(int n)
{
    tn_spec_t s;
    tn_sched_t t;
    make_spec(&s, n, "\"round_robin\"");
    cr_assert_eq(tn_sched_build(&s, &t), 0);
    int rounds = n % 2 ? n : n - 1;
    cr_expect_eq(t.rounds, rounds, "%d teams: %d rounds", n, t.rounds);
    cr_expect_eq(t.n, n * (n - 1) / 2, "%d teams: %d matches", n, t.n);
    int pair[16][16] = { { 0 } }, left[16] = { 0 };
    for (int r = 1; r <= rounds; r++) {
        int seen[16] = { 0 }, idx = 0;
        for (int i = 0; i < t.n; i++) {
            const tn_match_t *m = &t.m[i];
            if (m->round != r)
                continue;
            cr_expect_eq(m->index, idx++, "indices run 0.. within a round");
            cr_expect(m->left != m->right);
            cr_expect_eq(seen[m->left]++, 0, "%d teams: T%d twice in round %d", n, m->left + 1, r);
            cr_expect_eq(seen[m->right]++, 0, "%d teams: T%d twice in round %d", n, m->right + 1, r);
            pair[m->left][m->right]++;
            left[m->left]++;
        }
        cr_expect_eq(idx, n / 2, "%d teams: round %d has %d matches", n, r, idx);
    }
    for (int a = 0; a < n; a++) {
        for (int b = a + 1; b < n; b++)
            cr_expect_eq(pair[a][b] + pair[b][a], 1, "%d teams: T%d-T%d played %d times", n,
                         a + 1, b + 1, pair[a][b] + pair[b][a]);
        /* each team about as often on the left as on the right */
        cr_expect(left[a] >= (n - 1) / 2 - 1 && left[a] <= n / 2 + 1, "%d teams: T%d left %d times",
                  n, a + 1, left[a]);
    }
    for (int i = 0; i < t.n; i++) {
        for (int j = i + 1; j < t.n; j++)
            cr_expect_str_neq(t.m[i].id, t.m[j].id);
    }
    tn_sched_free(&t);
    tn_spec_free(&s);
}

Test(sched, round_robin_every_pair_once_no_team_twice_in_a_round)
{
    for (int n = 2; n <= 12; n++)
        check_round_robin(n);
}

Test(sched, double_round_robin_both_sides)
{
    tn_spec_t s;
    tn_sched_t t;
    make_spec(&s, 6, "\"double_round_robin\"");
    cr_assert_eq(tn_sched_build(&s, &t), 0);
    cr_expect_eq(t.rounds, 10);
    cr_expect_eq(t.n, 30);
    int pair[6][6] = { { 0 } };
    for (int i = 0; i < t.n; i++)
        pair[t.m[i].left][t.m[i].right]++;
    for (int a = 0; a < 6; a++) {
        for (int b = 0; b < 6; b++)
            cr_expect_eq(pair[a][b], a == b ? 0 : 1, "T%d left vs T%d right: %d", a + 1, b + 1,
                         pair[a][b]);
    }
    /* the second half is the first with sides swapped, round by round */
    for (int i = 0; i < 15; i++) {
        const tn_match_t *a = &t.m[i], *b = &t.m[i + 15];
        cr_expect_eq(b->round, a->round + 5);
        cr_expect(b->left == a->right && b->right == a->left);
    }
    tn_sched_free(&t);
    tn_spec_free(&s);
}

Test(sched, bracket_order)
{
    int o4[4], o8[8], o16[16];
    tn_bracket_order(4, o4);
    tn_bracket_order(8, o8);
    tn_bracket_order(16, o16);
    int w4[] = { 1, 4, 2, 3 }, w8[] = { 1, 8, 4, 5, 2, 7, 3, 6 };
    cr_expect_arr_eq(o4, w4, sizeof w4);
    cr_expect_arr_eq(o8, w8, sizeof w8);
    /* every pair sums to N+1; seeds 1 and 2 in different halves; 1..16 each once */
    int seen[17] = { 0 }, half1 = -1, half2 = -1;
    for (int i = 0; i < 16; i++) {
        seen[o16[i]]++;
        if (i % 2 == 0)
            cr_expect_eq(o16[i] + o16[i + 1], 17);
        if (o16[i] == 1) half1 = i / 8;
        if (o16[i] == 2) half2 = i / 8;
    }
    for (int k = 1; k <= 16; k++)
        cr_expect_eq(seen[k], 1);
    cr_expect_neq(half1, half2);
}

Test(sched, knockout_after_round_robin)
{
    tn_spec_t s;
    tn_sched_t t;
    make_spec(&s, 6, "{\"type\": \"round_robin_knockout\", \"top\": 4}");
    cr_assert_eq(tn_sched_build(&s, &t), 0);
    cr_expect_eq(t.group_rounds, 5);
    cr_expect_eq(t.rounds, 7, "5 group rounds, semi-finals, final");
    cr_expect_eq(t.n, 15 + 2 + 1);
    tn_match_t *sf1 = tn_sched_find(&t, "ko1-m1"), *sf2 = tn_sched_find(&t, "ko1-m2");
    tn_match_t *fin = tn_sched_find(&t, "ko2-m1");
    cr_assert(sf1 && sf2 && fin);
    cr_expect_str_eq(sf1->from_l, "seed 1");
    cr_expect_str_eq(sf1->from_r, "seed 4");
    cr_expect_str_eq(sf2->from_l, "seed 2");
    cr_expect_str_eq(sf2->from_r, "seed 3");
    cr_expect_str_eq(fin->from_l, "winner of ko1-m1");
    cr_expect_str_eq(fin->from_r, "winner of ko1-m2");
    cr_expect(sf1->left < 0 && fin->right < 0, "teams unknown until the results are in");
    cr_expect_eq(sf1->round, 6);
    cr_expect_eq(fin->round, 7);
    cr_expect_eq(fin->ko, 2);
    tn_sched_free(&t);
    tn_spec_free(&s);
    char err[256];
    const char *bad = "{\"teams\": [\"A\", \"B\", \"C\"], \"format\": {\"type\": \"round_robin_knockout\", "
                      "\"top\": 3}}";
    cr_expect_eq(tn_spec_parse(bad, &s, err, sizeof err), -1, "top must be a power of two");
    tn_spec_free(&s);
}

Test(sched, sweep_seeds)
{
    tn_spec_t s, s2;
    tn_sched_t t, t2;
    make_spec(&s, 3, "{\"type\": \"sweep\", \"left\": \"T3\", \"right\": \"T1\", \"matches\": 50}");
    cr_assert_eq(tn_sched_build(&s, &t), 0);
    cr_expect_eq(t.n, 50);
    cr_expect_eq(t.rounds, 1);
    for (int i = 0; i < t.n; i++) {
        cr_expect(t.m[i].left == 2 && t.m[i].right == 0);
        cr_expect(t.m[i].seed >= 1);
        cr_expect_eq(t.m[i].index, i);
        for (int j = 0; j < i; j++)
            cr_expect_neq(t.m[i].seed, t.m[j].seed, "s%d and s%d share a seed", i + 1, j + 1);
    }
    /* the same file, built again: the same seeds */
    make_spec(&s2, 3, "{\"type\": \"sweep\", \"left\": \"T3\", \"right\": \"T1\", \"matches\": 50}");
    cr_assert_eq(tn_sched_build(&s2, &t2), 0);
    for (int i = 0; i < t.n; i++)
        cr_expect_eq(t.m[i].seed, t2.m[i].seed);
    tn_sched_free(&t2);
    tn_spec_free(&s2);
    /* seeds given in the file are used as given */
    char err[256];
    cr_assert_eq(tn_spec_parse("{\"teams\": [\"A\", \"B\"], \"format\": {\"type\": \"sweep\", "
                               "\"seeds\": [11, 0, 2147483647]}}", &s2, err, sizeof err), 0, "%s", err);
    cr_assert_eq(tn_sched_build(&s2, &t2), 0);
    cr_expect_eq(t2.n, 3);
    cr_expect_eq(t2.m[0].seed, 11);
    cr_expect_eq(t2.m[1].seed, 0);
    cr_expect_eq(t2.m[2].seed, 2147483647);
    cr_expect_str_eq(t2.m[2].id, "s0003");
    tn_sched_free(&t2);
    tn_spec_free(&s2);
    tn_sched_free(&t);
    tn_spec_free(&s);
}

Test(sched, seeds_pinned_and_from_base_and_id_only)
{
    /* pinned: a change here changes every tournament's seeds */
    cr_expect_eq(tn_seed(2026, "r01-m01"), 1464389463);
    cr_expect_eq(tn_seed(2026, "r03-m02"), 1329504043);
    cr_expect_neq(tn_seed(2026, "r01-m01"), tn_seed(2027, "r01-m01"));
    cr_expect_neq(tn_seed(2026, "r01-m01"), tn_seed(2026, "r01-m02"));
    for (int i = 0; i < 1000; i++) {
        char id[16];
        snprintf(id, sizeof id, "s%04d", i);
        int v = tn_seed((unsigned long long)i, id);
        cr_expect(v >= 1 && v <= 2147483647);
    }
    /* a round robin's seeds do not depend on its order of play: the id and base only */
    tn_spec_t s;
    tn_sched_t t;
    make_spec(&s, 4, "\"round_robin\"");
    cr_assert_eq(tn_sched_build(&s, &t), 0);
    for (int i = 0; i < t.n; i++)
        cr_expect_eq(t.m[i].seed, tn_seed(5, t.m[i].id));
    tn_sched_free(&t);
    tn_spec_free(&s);
}
