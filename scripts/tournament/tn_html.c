/* tn_html.c -- DIR/index.html, one static page (no script, refreshes itself every 10 s
 * while matches are out): the standings, the knock-out bracket and its winner, the
 * matches being played with links to their browser monitors (http://HOST:PORT/ from
 * each running.json), and every match with its score, state (done, running, waiting,
 * failed and why) and links to its files (result.json, the game and text logs, the event
 * stream, the server's and each team's output). Written again as matches start and end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tn.h"

static void esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

static void link_if(FILE *f, const char *dir, const char *id, const char *file, const char *label)
{
    char p[TN_PATH_LEN];
    if (!file || !file[0])
        return;
    tn_match_path(p, sizeof p, dir, id, file);
    if (!tn_exists(p))
        return;
    fprintf(f, " <a href=\"matches/%s/", id);
    esc(f, file);
    fprintf(f, "\">%s</a>", label);
}

static const char *team(const tn_spec_t *s, int k, const char *from)
{
    return k >= 0 ? s->teams[k].name : from[0] ? from : "?";
}

/* the browser monitor's URL of a running match, "" if none */
static void monitor_url(const char *dir, const char *id, char *url, size_t len)
{
    char p[TN_PATH_LEN];
    url[0] = '\0';
    tn_match_path(p, sizeof p, dir, id, "running.json");
    json_error_t je;
    json_t *r = json_load_file(p, 0, &je);
    const char *u = json_string_value(json_object_get(r, "monitor"));
    if (u)
        snprintf(url, len, "%s", u);
    json_decref(r);
}

static void standings(FILE *f, const tn_spec_t *s, const tn_sched_t *t, const char *dir)
{
    tn_row_t *rows = calloc((size_t)s->nteams, sizeof *rows);
    if (!rows)
        return;
    tn_standings_compute(s, t, dir, rows);
    fprintf(f, "<h2>Standings</h2>\n<table id=\"standings\">\n<tr><th>#</th><th>team</th>"
               "<th>played</th><th>won</th><th>drawn</th><th>lost</th><th>goals</th>"
               "<th>diff</th><th>points</th></tr>\n");
    for (int i = 0, pos = 1; i < s->nteams; i++) {
        const tn_row_t *r = &rows[i];
        if (s->format == TN_FMT_SWEEP && tn_spec_team(s, r->name) != s->sweep_l &&
            tn_spec_team(s, r->name) != s->sweep_r)
            continue;
        fprintf(f, "<tr><td>%d</td><td>%s</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td>"
                   "<td>%d:%d</td><td>%+d</td><td><b>%d</b></td></tr>\n", pos++, r->name,
                r->played, r->won, r->drawn, r->lost, r->goals_for, r->goals_against,
                r->goals_for - r->goals_against, r->points);
    }
    fprintf(f, "</table>\n");
    free(rows);
}

static void bracket(FILE *f, const tn_spec_t *s, const tn_sched_t *t, const char *dir)
{
    fprintf(f, "<h2>Knock-out</h2>\n<table id=\"bracket\"><tr>");
    for (int k = 1;; k++) {
        int any = 0;
        for (int i = 0; i < t->n; i++) {
            const tn_match_t *m = &t->m[i];
            tn_outcome_t o;
            if (m->ko != k)
                continue;
            if (!any)
                fprintf(f, "<td><b>round %d</b>", k);
            any = 1;
            fprintf(f, "<p>%s: %s - %s", m->id, team(s, m->left, m->from_l), team(s, m->right, m->from_r));
            if (tn_plan_outcome(s, m, dir, &o) == 1)
                fprintf(f, " <b>%d-%d</b>%s, winner %s", o.score[0], o.score[1],
                        o.pen[0] + o.pen[1] ? " (pen.)" : "",
                        s->teams[o.winner == 0 ? m->left : m->right].name);
            fprintf(f, "</p>");
        }
        if (!any)
            break;
        fprintf(f, "</td>");
    }
    int champ = tn_plan_champion(s, t, dir);
    fprintf(f, "</tr></table>\n<p id=\"winner\">Winner: <b>%s</b></p>\n",
            champ >= 0 ? s->teams[champ].name : "not decided yet");
}

static void match_row(FILE *f, const tn_spec_t *s, const tn_match_t *m, const tn_state_t *st,
                      const char *dir, int *out)
{
    tn_outcome_t o;
    char url[512];
    int have = tn_plan_outcome(s, m, dir, &o) == 1;
    const tn_job_t *j = tn_state_get((tn_state_t *)st, m->id, 0);
    monitor_url(dir, m->id, url, sizeof url);
    fprintf(f, "<tr><td>%s</td><td>%d</td><td>%s</td><td>", m->id, m->round,
            team(s, m->left, m->from_l));
    if (have)
        fprintf(f, "<b>%d-%d</b>%s", o.score[0], o.score[1], o.pen[0] + o.pen[1] ? " (pen.)" : "");
    fprintf(f, "</td><td>%s</td><td>%d</td><td>", team(s, m->right, m->from_r), m->seed);
    char p[TN_PATH_LEN];
    tn_match_path(p, sizeof p, dir, m->id, "failed.json");
    if (have) {
        fprintf(f, "done");
    } else if (tn_exists(p)) {
        fprintf(f, "<b>failed</b>: ");
        esc(f, j ? j->reasons : "");
    } else if (url[0]) {
        fprintf(f, "playing: <a href=\"%s\">watch</a>", url);
        (*out)++;
    } else if (j && j->active) {
        fprintf(f, "out (%s %s)", j->backend, j->job);
        (*out)++;
    } else {
        fprintf(f, "%s", m->left < 0 ? "waiting for earlier results" : "waiting");
    }
    if (!have && !tn_exists(p) && j && j->reasons[0]) {
        fprintf(f, "<br><small>earlier attempts: ");
        esc(f, j->reasons);
        fprintf(f, "</small>");
    }
    fprintf(f, "</td><td>");
    link_if(f, dir, m->id, "result.json", "result");
    if (have) {
        link_if(f, dir, m->id, o.rcg, "rcg");
        link_if(f, dir, m->id, o.rcl, "rcl");
    }
    link_if(f, dir, m->id, "events.ndjson", "events");
    link_if(f, dir, m->id, "server.log", "server");
    char name[TN_NAME_LEN + 8];
    for (int k = 0; k < 2; k++) {
        int tm = k == 0 ? m->left : m->right;
        if (tm < 0)
            continue;
        snprintf(name, sizeof name, "%s.log", s->teams[tm].name);
        link_if(f, dir, m->id, name, s->teams[tm].name);
    }
    fprintf(f, "</td></tr>\n");
}

int tn_html_write(const tn_spec_t *s, const tn_sched_t *t, const tn_state_t *st, const char *dir)
{
    char path[TN_PATH_LEN], tmp[TN_PATH_LEN + 8];
    snprintf(path, sizeof path, "%s/index.html", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    /* the matches table first into memory: it tells whether anything is out */
    char *rows = NULL;
    size_t rlen = 0;
    FILE *mf = open_memstream(&rows, &rlen);
    int out = 0;
    for (int i = 0; mf && i < t->n; i++)
        match_row(mf, s, &t->m[i], st, dir, &out);
    if (mf)
        fclose(mf);
    fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">%s<title>",
            out ? "<meta http-equiv=\"refresh\" content=\"10\">" : "");
    esc(f, s->name);
    fprintf(f, "</title>\n<style>body{font-family:sans-serif;margin:2em}table{border-collapse:"
               "collapse}td,th{border:1px solid #ccc;padding:2px 8px;vertical-align:top}"
               "</style></head><body>\n<h1>");
    esc(f, s->name);
    fprintf(f, "</h1>\n<p>%s, %d teams, %d matches%s</p>\n", tn_format_name(s->format), s->nteams,
            t->n, out ? " (this page reloads every 10 s while matches are out)" : "");
    standings(f, s, t, dir);
    if (s->format == TN_FMT_RR_KO)
        bracket(f, s, t, dir);
    fprintf(f, "<h2>Matches</h2>\n<table id=\"matches\">\n<tr><th>match</th><th>round</th>"
               "<th>left</th><th>score</th><th>right</th><th>seed</th><th>state</th>"
               "<th>files</th></tr>\n%s</table>\n</body></html>\n", rows ? rows : "");
    free(rows);
    int ok = fclose(f) == 0;
    return ok && rename(tmp, path) == 0 ? 0 : -1;
}
