/* test_standings.c -- the standings (scripts/tournament/tn_standings.c, tn_result.c,
 * tn_plan.c): points 3/1/0, a forfeit lost whatever the score; ordered by points, goal
 * difference, goals for, then name; counted from result.json files, where only results
 * that count do (ended normally, the expected teams on their sides); the knock-out's
 * teams from the round robin's table, its later rounds from the winners (shoot-outs
 * included), and the winner of the final; standings.json as written. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tn.h"

static char dir[256];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/tn-standings-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

static tn_row_t row(const char *name, int w, int d, int l, int gf, int ga)
{
    tn_row_t r = { .played = w + d + l, .won = w, .drawn = d, .lost = l, .goals_for = gf,
                   .goals_against = ga, .points = 3 * w + d };
    snprintf(r.name, sizeof r.name, "%s", name);
    return r;
}

Test(standings, ordering_rules)
{
    tn_row_t rows[] = {
        row("Eve", 1, 0, 2, 5, 5),     /* 3 pts, diff 0, gf 5 */
        row("Dan", 1, 0, 2, 4, 4),     /* 3 pts, diff 0, gf 4 */
        row("Bob", 1, 0, 2, 3, 2),     /* 3 pts, diff +1 */
        row("Cat", 0, 3, 0, 1, 1),     /* 3 pts, diff 0, gf 1 */
        row("Abe", 0, 3, 0, 1, 1),     /* the same as Cat: by name */
        row("Fay", 2, 0, 1, 2, 9),     /* 6 pts */
    };
    tn_standings_sort(rows, 6);
    const char *want[] = { "Fay", "Bob", "Eve", "Dan", "Abe", "Cat" };
    for (int i = 0; i < 6; i++)
        cr_expect_str_eq(rows[i].name, want[i], "place %d", i + 1);
}

Test(standings, points_and_forfeits)
{
    tn_row_t rows[2] = { { "A", 0, 0, 0, 0, 0, 0, 0 }, { "B", 0, 0, 0, 0, 0, 0, 0 } };
    tn_outcome_t o = { .valid = 1, .score = { 2, 1 }, .winner = 0, .forfeit = -1 };
    tn_standings_add(rows, 0, 1, &o);
    o = (tn_outcome_t){ .valid = 1, .score = { 1, 1 }, .winner = -1, .forfeit = -1 };
    tn_standings_add(rows, 1, 0, &o);
    o = (tn_outcome_t){ .valid = 1, .score = { 3, 0 }, .winner = 1, .forfeit = 0 };
    tn_standings_add(rows, 0, 1, &o);      /* A forfeits although ahead */
    cr_expect_eq(rows[0].played, 3);
    cr_expect_eq(rows[0].won, 1);
    cr_expect_eq(rows[0].drawn, 1);
    cr_expect_eq(rows[0].lost, 1);
    cr_expect_eq(rows[0].points, 4);
    cr_expect_eq(rows[0].goals_for, 6);
    cr_expect_eq(rows[0].goals_against, 2);
    cr_expect_eq(rows[1].won, 1);
    cr_expect_eq(rows[1].points, 4);
    cr_expect_eq(rows[1].goals_for, 2);
}

/* result.json as the server writes it (the fields the tournament reads) */
static void result(const char *id, const char *reason, const char *l, int sl, const char *r,
                   int sr, int pl, int pr, const char *winner, const char *forfeit)
{
    char path[512], text[2048];
    snprintf(path, sizeof path, "%s/matches/%s", dir, id);
    cr_assert_eq(tn_mkdirs(path), 0);
    snprintf(path, sizeof path, "%s/matches/%s/result.json", dir, id);
    snprintf(text, sizeof text,
             "{\"exit_reason\": \"%s\", \"teams\": [{\"side\": \"l\", \"name\": \"%s\", \"score\": %d, "
             "\"penalties\": {\"goals\": %d, \"taken\": 5}}, {\"side\": \"r\", \"name\": \"%s\", "
             "\"score\": %d, \"penalties\": {\"goals\": %d, \"taken\": 5}}], \"winner\": %s%s%s, "
             "\"forfeit\": %s%s%s, \"logs\": {\"game\": \"/x/y/%s.rcg\", \"text\": null}}",
             reason, l, sl, pl, r, sr, pr, winner ? "\"" : "", winner ? winner : "null",
             winner ? "\"" : "", forfeit ? "\"" : "", forfeit ? forfeit : "null",
             forfeit ? "\"" : "", id);
    cr_assert_eq(tn_write_atomic(path, text), 0);
}

static void load(tn_spec_t *s, tn_sched_t *t, const char *format)
{
    char text[512], err[256];
    snprintf(text, sizeof text, "{\"teams\": [\"A\", \"B\", \"C\", \"D\"], \"format\": %s}", format);
    cr_assert_eq(tn_spec_parse(text, s, err, sizeof err), 0, "%s", err);
    cr_assert_eq(tn_sched_build(s, t), 0);
}

/* write the result of the scheduled match between a and b (whichever side each is on) */
static void played(tn_spec_t *s, tn_sched_t *t, const char *a, int ga, const char *b, int gb)
{
    int ia = tn_spec_team(s, a), ib = tn_spec_team(s, b);
    for (int i = 0; i < t->n; i++) {
        tn_match_t *m = &t->m[i];
        if (m->ko)
            continue;
        if (m->left == ia && m->right == ib)
            result(m->id, "game_over", a, ga, b, gb, 0, 0, ga > gb ? "l" : ga < gb ? "r" : NULL, NULL);
        else if (m->left == ib && m->right == ia)
            result(m->id, "game_over", b, gb, a, ga, 0, 0, gb > ga ? "l" : gb < ga ? "r" : NULL, NULL);
        else
            continue;
        return;
    }
    cr_assert_fail("no match %s-%s", a, b);
}

Test(standings, from_result_files, .init = setup, .fini = teardown)
{
    tn_spec_t s;
    tn_sched_t t;
    load(&s, &t, "\"round_robin\"");
    played(&s, &t, "A", 2, "B", 0);
    played(&s, &t, "A", 1, "C", 1);
    played(&s, &t, "A", 0, "D", 1);
    played(&s, &t, "B", 3, "C", 0);
    played(&s, &t, "B", 1, "D", 1);
    played(&s, &t, "C", 2, "D", 0);
    tn_row_t rows[4];
    tn_standings_compute(&s, &t, dir, rows);
    /* all 4 points: B +1 (goals for 4), A +1 (3), C -1 (3), D -1 (2) */
    const char *want[] = { "B", "A", "C", "D" };
    for (int i = 0; i < 4; i++) {
        cr_expect_str_eq(rows[i].name, want[i], "place %d: %s", i + 1, rows[i].name);
        cr_expect_eq(rows[i].played, 3);
        cr_expect_eq(rows[i].points, 4);
    }
    cr_expect_eq(rows[0].goals_for, 4);
    cr_expect_eq(rows[0].goals_against, 3);

    /* a result that does not count: sides swapped, or the match did not end normally */
    tn_match_t *m = &t.m[0];
    const char *l = s.teams[m->left].name, *r = s.teams[m->right].name;
    result(m->id, "game_over", r, 5, l, 0, 0, 0, "l", NULL);
    tn_outcome_t o;
    cr_expect_eq(tn_plan_outcome(&s, m, dir, &o), 0);
    cr_expect(strstr(o.why, "expected on the left") != NULL, "%s", o.why);
    result(m->id, "team_missing", l, 0, r, 0, 0, 0, NULL, NULL);
    cr_expect_eq(tn_plan_outcome(&s, m, dir, &o), 0);
    cr_expect(strstr(o.why, "team_missing") != NULL, "%s", o.why);
    tn_standings_compute(&s, &t, dir, rows);
    int played_total = 0;
    for (int i = 0; i < 4; i++)
        played_total += rows[i].played;
    cr_expect_eq(played_total, 10, "five matches count, not the sixth");

    /* standings.json says the same */
    cr_assert_eq(tn_plan_write_standings(&s, &t, dir), 0);
    char path[512];
    snprintf(path, sizeof path, "%s/standings.json", dir);
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    cr_assert_not_null(j);
    json_t *table = json_object_get(j, "standings");
    cr_assert_eq(json_array_size(table), 4);
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(j, "matches"), "done")), 5);
    tn_standings_compute(&s, &t, dir, rows);
    for (int i = 0; i < 4; i++) {
        json_t *e = json_array_get(table, (size_t)i);
        cr_expect_str_eq(json_string_value(json_object_get(e, "name")), rows[i].name);
        cr_expect_eq(json_integer_value(json_object_get(e, "points")), rows[i].points);
        cr_expect_eq(json_integer_value(json_object_get(e, "goals_for")), rows[i].goals_for);
    }
    json_decref(j);
    tn_sched_free(&t);
    tn_spec_free(&s);
}

Test(standings, knockout_seeding_and_winner, .init = setup, .fini = teardown)
{
    tn_spec_t s;
    tn_sched_t t;
    load(&s, &t, "{\"type\": \"round_robin_knockout\", \"top\": 4}");
    played(&s, &t, "A", 0, "B", 1);
    played(&s, &t, "A", 0, "C", 1);
    played(&s, &t, "A", 0, "D", 1);
    played(&s, &t, "B", 0, "C", 1);
    played(&s, &t, "B", 0, "D", 1);
    tn_plan_resolve(&s, &t, dir);
    tn_match_t *sf1 = tn_sched_find(&t, "ko1-m1"), *sf2 = tn_sched_find(&t, "ko1-m2");
    tn_match_t *fin = tn_sched_find(&t, "ko2-m1");
    cr_expect(sf1->left < 0, "the round robin is not over: no knock-out yet");
    played(&s, &t, "C", 1, "D", 2);                 /* D 9, C 6, B 3, A 0 */
    tn_plan_resolve(&s, &t, dir);
    cr_assert(sf1->left >= 0 && sf2->left >= 0);
    cr_expect_str_eq(s.teams[sf1->left].name, "D");
    cr_expect_str_eq(s.teams[sf1->right].name, "A");
    cr_expect_str_eq(s.teams[sf2->left].name, "C");
    cr_expect_str_eq(s.teams[sf2->right].name, "B");
    cr_expect(fin->left < 0);
    /* D loses on penalties, C wins; the final is then A vs C */
    result("ko1-m1", "game_over", "D", 1, "A", 1, 3, 4, "r", NULL);
    result("ko1-m2", "game_over", "C", 2, "B", 0, 0, 0, "l", NULL);
    tn_plan_resolve(&s, &t, dir);
    cr_assert(fin->left >= 0);
    cr_expect_str_eq(s.teams[fin->left].name, "A");
    cr_expect_str_eq(s.teams[fin->right].name, "C");
    cr_expect_eq(tn_plan_champion(&s, &t, dir), -1);
    /* a knock-out match without a winner does not count */
    result("ko2-m1", "game_over", "A", 0, "C", 0, 0, 0, NULL, NULL);
    tn_outcome_t o;
    cr_expect_eq(tn_plan_outcome(&s, fin, dir, &o), 0);
    result("ko2-m1", "game_over", "A", 0, "C", 1, 0, 0, "r", NULL);
    cr_expect_str_eq(s.teams[tn_plan_champion(&s, &t, dir)].name, "C");
    cr_assert_eq(tn_plan_write_standings(&s, &t, dir), 0);
    char path[512];
    snprintf(path, sizeof path, "%s/standings.json", dir);
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    cr_expect_str_eq(json_string_value(json_object_get(j, "winner")), "C");
    cr_expect_eq(json_array_size(json_object_get(j, "knockout")), 2);
    json_decref(j);
    /* match.json of a knock-out match: extra halves, penalties, a winner always */
    cr_assert_eq(tn_plan_write_match(&s, fin, dir), 0);
    snprintf(path, sizeof path, "%s/matches/ko2-m1/match.json", dir);
    char *text = tn_read_file(path, NULL);
    cr_assert_not_null(text);
    cr_expect(strstr(text, "server::penalty_shoot_outs=true") != NULL);
    cr_expect(strstr(text, "server::nr_extra_halfs=2") != NULL);
    cr_expect(strstr(text, "server::pen_random_winner=true") != NULL);
    free(text);
    snprintf(path, sizeof path, "%s/matches/%s/match.json", dir, t.m[0].id);
    cr_assert_eq(tn_plan_write_match(&s, &t.m[0], dir), 0);
    text = tn_read_file(path, NULL);
    cr_expect(strstr(text, "server::penalty_shoot_outs=false") != NULL);
    cr_expect(strstr(text, "server::nr_extra_halfs=0") != NULL);
    free(text);
    tn_sched_free(&t);
    tn_spec_free(&s);
}
