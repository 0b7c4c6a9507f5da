/* tn_plan.c -- the tournament as it stands in DIR: which matches have a result that counts
 * (DIR/matches/ID/result.json) or failed for good (failed.json), the knock-out's teams
 * once the round robin is over (its best N by the standings, then each match's winner;
 * a knock-out match that failed for good goes to its better seed, the left team), each
 * match's match.json (the teams, their commands, the seed and the server's parameters:
 * all `rcss-tournament match` needs, on any machine that sees DIR), and
 * DIR/standings.json. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tn.h"

int tn_plan_outcome(const tn_spec_t *s, const tn_match_t *m, const char *dir, tn_outcome_t *o)
{
    char path[TN_PATH_LEN];
    memset(o, 0, sizeof *o);
    o->winner = o->forfeit = -1;
    if (m->left < 0 || m->right < 0)
        return 0;
    tn_match_path(path, sizeof path, dir, m->id, "result.json");
    if (tn_outcome_read(path, s->teams[m->left].name, s->teams[m->right].name, o) < 0)
        return 0;
    if (o->valid && m->ko && o->winner < 0) {
        o->valid = 0;
        snprintf(o->why, sizeof o->why, "a knock-out match without a winner");
    }
    return o->valid;
}

static int failed_for_good(const tn_match_t *m, const char *dir)
{
    char path[TN_PATH_LEN];
    tn_match_path(path, sizeof path, dir, m->id, "failed.json");
    return tn_exists(path);
}

/* the team index that won knock-out match id, -1 not known yet */
static int ko_winner(const tn_spec_t *s, tn_sched_t *t, const char *id, const char *dir)
{
    tn_match_t *m = tn_sched_find(t, id);
    tn_outcome_t o;
    if (!m || m->left < 0 || m->right < 0)
        return -1;
    if (tn_plan_outcome(s, m, dir, &o) == 1)
        return o.winner == 0 ? m->left : m->right;
    return failed_for_good(m, dir) ? m->left : -1;
}

void tn_plan_resolve(const tn_spec_t *s, tn_sched_t *t, const char *dir)
{
    if (s->format != TN_FMT_RR_KO)
        return;
    for (int i = 0; i < t->n; i++) {
        tn_outcome_t o;
        if (!t->m[i].ko && tn_plan_outcome(s, &t->m[i], dir, &o) != 1 &&
            !failed_for_good(&t->m[i], dir))
            return;                        /* the round robin is not over */
    }
    tn_row_t *rows = calloc((size_t)s->nteams, sizeof *rows);
    if (!rows)
        return;
    tn_standings_compute(s, t, dir, rows);
    for (int i = 0; i < t->n; i++) {
        tn_match_t *m = &t->m[i];
        int seed_l, seed_r, k, a, b;
        if (m->ko == 1 && sscanf(m->from_l, "seed %d", &seed_l) == 1 &&
            sscanf(m->from_r, "seed %d", &seed_r) == 1) {
            m->left = tn_spec_team(s, rows[seed_l - 1].name);
            m->right = tn_spec_team(s, rows[seed_r - 1].name);
        } else if (m->ko > 1 && sscanf(m->from_l, "winner of ko%d-m%d", &k, &a) == 2 &&
                   sscanf(m->from_r, "winner of ko%d-m%d", &k, &b) == 2) {
            char ida[TN_ID_LEN], idb[TN_ID_LEN];
            snprintf(ida, sizeof ida, "ko%d-m%d", k, a);
            snprintf(idb, sizeof idb, "ko%d-m%d", k, b);
            m->left = ko_winner(s, t, ida, dir);
            m->right = ko_winner(s, t, idb, dir);
            if (m->left < 0 || m->right < 0)
                m->left = m->right = -1;
        }
    }
    free(rows);
}

int tn_plan_cpus(const tn_spec_t *s, const tn_match_t *m)
{
    int cpus = 1;
    if (m->left >= 0 && m->right >= 0)
        return cpus + s->teams[m->left].cores + s->teams[m->right].cores;
    int most = 0;                         /* a knock-out match not drawn yet: the worst case */
    for (int i = 0; i < s->nteams; i++)
        most = s->teams[i].cores > most ? s->teams[i].cores : most;
    return cpus + 2 * most;
}

static json_t *team_json(const tn_team_t *t)
{
    return json_pack("{s:s, s:s, s:i}", "name", t->name, "command", t->command, "cores", t->cores);
}

static json_t *server_args(const tn_spec_t *s, const tn_match_t *m)
{
    char a[128];
    json_t *args = json_array();
#define ARG(...) (snprintf(a, sizeof a, __VA_ARGS__), json_array_append_new(args, json_string(a)))
    ARG("server::synch_mode=%s", s->synch ? "true" : "false");
    ARG("server::half_time=%g", s->half_time);
    ARG("server::nr_normal_halfs=%d", s->halves);
    ARG("server::nr_extra_halfs=%d", m->ko ? s->extra_halves : 0);
    ARG("server::penalty_shoot_outs=%s", m->ko ? "true" : "false");
    ARG("server::pen_random_winner=%s", m->ko ? "true" : "false");
    ARG("server::game_logging=%s", s->game_log ? "true" : "false");
    ARG("server::text_logging=%s", s->text_log ? "true" : "false");
    if (s->bind[0])
        ARG("server::bind_address=%s", s->bind);
#undef ARG
    for (int i = 0; i < s->nparams; i++)
        json_array_append_new(args, json_string(s->params[i]));
    return args;
}

int tn_plan_write_match(const tn_spec_t *s, const tn_match_t *m, const char *dir)
{
    char path[TN_PATH_LEN];
    if (m->left < 0 || m->right < 0)
        return -1;
    tn_match_path(path, sizeof path, dir, m->id, "");
    if (tn_mkdirs(path) < 0)
        return -1;
    const char *host = s->bind[0] && strcmp(s->bind, "0.0.0.0") && strcmp(s->bind, "::")
                       ? s->bind : "127.0.0.1";
    json_t *j = json_pack("{s:s, s:s, s:i, s:i, s:b, s:i, s:o, s:o, s:o, s:s, s:i, s:i}",
                          "tournament", s->name, "id", m->id, "round", m->round,
                          "index", m->index, "knockout", m->ko > 0, "seed", m->seed,
                          "left", team_json(&s->teams[m->left]),
                          "right", team_json(&s->teams[m->right]),
                          "server", server_args(s, m), "host", host,
                          "timeout", s->timeout_s, "cpus", tn_plan_cpus(s, m));
    tn_match_path(path, sizeof path, dir, m->id, "match.json");
    char *want = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    char *have = tn_read_file(path, NULL);
    int rc = 0;
    if (!have || !want || strncmp(have, want, strlen(want)) != 0)
        rc = tn_write_json(path, j);
    free(want);
    free(have);
    json_decref(j);
    return rc;
}

int tn_plan_champion(const tn_spec_t *s, const tn_sched_t *t, const char *dir)
{
    if (s->format != TN_FMT_RR_KO)
        return -1;
    char final[TN_ID_LEN];
    int k = 0;
    for (int n = s->ko_top; n >= 2; n /= 2)
        k++;
    snprintf(final, sizeof final, "ko%d-m1", k);
    return ko_winner(s, (tn_sched_t *)t, final, dir);
}

static json_t *row_json(const tn_row_t *r)
{
    return json_pack("{s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i}", "name", r->name,
                     "played", r->played, "won", r->won, "drawn", r->drawn, "lost", r->lost,
                     "goals_for", r->goals_for, "goals_against", r->goals_against,
                     "goal_difference", r->goals_for - r->goals_against, "points", r->points);
}

static json_t *knockout_json(const tn_spec_t *s, const tn_sched_t *t, const char *dir)
{
    json_t *rounds = json_array();
    for (int k = 1;; k++) {
        json_t *round = json_array();
        for (int i = 0; i < t->n; i++) {
            const tn_match_t *m = &t->m[i];
            tn_outcome_t o;
            if (m->ko != k)
                continue;
            int have = tn_plan_outcome(s, m, dir, &o) == 1;
            json_array_append_new(round, json_pack(
                "{s:s, s:s?, s:s?, s:s, s:s, s:o, s:s?}", "id", m->id,
                "left", m->left >= 0 ? s->teams[m->left].name : NULL,
                "right", m->right >= 0 ? s->teams[m->right].name : NULL,
                "from_left", m->from_l, "from_right", m->from_r,
                "score", have ? json_pack("[i, i]", o.score[0], o.score[1]) : json_null(),
                "winner", have ? s->teams[o.winner == 0 ? m->left : m->right].name : NULL));
        }
        if (json_array_size(round) == 0) {
            json_decref(round);
            break;
        }
        json_array_append_new(rounds, round);
    }
    return rounds;
}

int tn_plan_write_standings(const tn_spec_t *s, const tn_sched_t *t, const char *dir)
{
    tn_row_t *rows = calloc((size_t)s->nteams, sizeof *rows);
    if (!rows)
        return -1;
    tn_standings_compute(s, t, dir, rows);
    json_t *table = json_array();
    for (int i = 0; i < s->nteams; i++) {
        if (s->format == TN_FMT_SWEEP && tn_spec_team(s, rows[i].name) != s->sweep_l &&
            tn_spec_team(s, rows[i].name) != s->sweep_r)
            continue;
        json_array_append_new(table, row_json(&rows[i]));
    }
    free(rows);
    int done = 0, failed = 0;
    for (int i = 0; i < t->n; i++) {
        tn_outcome_t o;
        done += tn_plan_outcome(s, &t->m[i], dir, &o) == 1;
        failed += failed_for_good(&t->m[i], dir);
    }
    json_t *j = json_pack("{s:s, s:s, s:o, s:{s:i, s:i, s:i}}", "tournament", s->name,
                          "format", tn_format_name(s->format), "standings", table,
                          "matches", "total", t->n, "done", done, "failed", failed);
    if (s->format == TN_FMT_RR_KO) {
        int champ = tn_plan_champion(s, t, dir);
        json_object_set_new(j, "knockout", knockout_json(s, t, dir));
        json_object_set_new(j, "winner", champ >= 0 ? json_string(s->teams[champ].name) : json_null());
    }
    char path[TN_PATH_LEN];
    snprintf(path, sizeof path, "%s/standings.json", dir);
    int rc = tn_write_json(path, j);
    json_decref(j);
    return rc;
}
