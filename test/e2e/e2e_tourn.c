/* e2e_tourn.c -- the helpers of e2e_tourn.h: rcss-tournament run as a child in its own
 * process group (killed as a group on a timeout), the quick tournament file, and the
 * checks of a tournament folder from result.json files read here with jansson. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_logs.h"
#include "e2e_tourn.h"

int e2e_tourn_cmd(const char *const *args, const char *const *env, char *out, size_t len,
                  int timeout_s)
{
    const char *bin = getenv("RCSS_BIN_DIR");
    char prog[512];
    snprintf(prog, sizeof prog, "%s/rcss-tournament", bin ? bin : "build/bin");
    int p[2];
    if (pipe(p) < 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        dup2(p[1], 1);
        dup2(p[1], 2);
        close(p[0]);
        close(p[1]);
        for (int i = 0; env && env[i]; i++)
            putenv((char *)env[i]);
        const char *argv[32] = { prog };
        for (int i = 0; args[i] && i < 30; i++)
            argv[i + 1] = args[i];
        execv(prog, (char *const *)argv);
        _exit(127);
    }
    close(p[1]);
    size_t n = 0;
    double end = e2e_now_ms() + timeout_s * 1000.0;
    int status = -1, done = 0;
    while (!done) {
        struct pollfd pf = { .fd = p[0], .events = POLLIN };
        int left = (int)(end - e2e_now_ms());
        if (left <= 0) {
            kill(-pid, SIGTERM);
            usleep(3000000);
            kill(-pid, SIGKILL);
            waitpid(pid, NULL, 0);
            break;
        }
        if (poll(&pf, 1, left > 1000 ? 1000 : left) > 0) {
            char sink[4096];
            ssize_t r = n + 1 < len ? read(p[0], out + n, len - n - 1) : read(p[0], sink, sizeof sink);
            if (r > 0 && n + 1 < len)
                n += (size_t)r;
            if (r == 0) {
                int st;
                waitpid(pid, &st, 0);
                status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
                done = 1;
            }
        }
    }
    out[n] = '\0';
    close(p[0]);
    return status;
}

int e2e_tourn_quick_file(const char *path, double half_time)
{
    json_error_t je;
    json_t *d = json_load_file("conf/tournament/demo.json", 0, &je);
    if (!d)
        return -1;
    json_t *srv = json_object_get(d, "server");
    json_object_set_new(srv, "half_time", json_real(half_time));
    json_object_set_new(srv, "bind_address", json_string("127.0.0.1"));
    json_object_set_new(d, "timeout", json_integer(300));
    int rc = json_dump_file(d, path, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(d);
    return rc;
}

typedef struct row {
    char name[32];
    int  v[7];     /* played won drawn lost gf ga points */
} row_t;

static row_t *row_of(row_t *rows, int *n, const char *name)
{
    for (int i = 0; i < *n; i++) {
        if (!strcmp(rows[i].name, name))
            return &rows[i];
    }
    memset(&rows[*n], 0, sizeof rows[*n]);
    snprintf(rows[*n].name, sizeof rows[*n].name, "%s", name);
    return &rows[(*n)++];
}

static json_t *load_in(const char *dir, const char *id, const char *file)
{
    char p[1024];
    json_error_t je;
    snprintf(p, sizeof p, "%.700s/matches/%.31s/%.63s", dir, id, file);
    return json_load_file(p, 0, &je);
}

static int exists_in(const char *dir, const char *id, const char *file)
{
    char p[1024];
    struct stat st;
    snprintf(p, sizeof p, "%.700s/matches/%.31s/%.63s", dir, id, file);
    return stat(p, &st) == 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_id(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* the match ids in dir/matches, sorted; count */
static int match_ids(const char *dir, char ids[][32], int max)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/matches", dir);
    DIR *d = opendir(p);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d)) && n < max) {
        if (e->d_name[0] != '.')
            snprintf(ids[n++], 32, "%.31s", e->d_name);
    }
    if (d)
        closedir(d);
    qsort(ids, (size_t)n, 32, cmp_id);
    return n;
}

static int check_match(const char *dir, const char *id, row_t *rows, int *nrows, char *why, size_t len)
{
    json_t *m = load_in(dir, id, "match.json"), *r = load_in(dir, id, "result.json");
    int rc = -1;
    const char *l = json_string_value(json_object_get(json_object_get(m, "left"), "name"));
    const char *rn = json_string_value(json_object_get(json_object_get(m, "right"), "name"));
    json_t *teams = json_object_get(r, "teams");
    const char *rl = json_string_value(json_object_get(json_array_get(teams, 0), "name"));
    const char *rr = json_string_value(json_object_get(json_array_get(teams, 1), "name"));
    const char *reason = json_string_value(json_object_get(r, "exit_reason"));
    char f[64];
    if (!m || !r)
        snprintf(why, len, "%s: match.json or result.json missing", id);
    else if (!reason || strcmp(reason, "game_over"))
        snprintf(why, len, "%s: exit_reason %s", id, reason ? reason : "?");
    else if (!l || !rn || !rl || !rr || strcmp(l, rl) || strcmp(rn, rr))
        snprintf(why, len, "%s: teams %s-%s, result says %s-%s", id, l, rn, rl, rr);
    else if (json_integer_value(json_object_get(m, "seed")) != json_integer_value(json_object_get(r, "seed")))
        snprintf(why, len, "%s: seed %lld, the server used %lld", id,
                 (long long)json_integer_value(json_object_get(m, "seed")),
                 (long long)json_integer_value(json_object_get(r, "seed")));
    else if (exists_in(dir, id, "running.json"))
        snprintf(why, len, "%s: running.json left behind", id);
    else if (snprintf(f, sizeof f, "%s.log", l), !exists_in(dir, id, f) ||
             (snprintf(f, sizeof f, "%s.log", rn), !exists_in(dir, id, f)))
        snprintf(why, len, "%s: a team's output is missing", id);
    else {
        const char *rcg = json_string_value(json_object_get(json_object_get(r, "logs"), "game"));
        struct stat st;
        if (!rcg || stat(rcg, &st) < 0) {
            snprintf(why, len, "%s: no game log (%s)", id, rcg ? rcg : "null");
        } else {
            int s0 = (int)json_integer_value(json_object_get(json_array_get(teams, 0), "score"));
            int s1 = (int)json_integer_value(json_object_get(json_array_get(teams, 1), "score"));
            row_t *a = row_of(rows, nrows, l), *b = row_of(rows, nrows, rn);
            a->v[0]++, b->v[0]++;
            a->v[4] += s0, a->v[5] += s1, b->v[4] += s1, b->v[5] += s0;
            if (s0 > s1) a->v[1]++, b->v[3]++, a->v[6] += 3;
            else if (s0 < s1) b->v[1]++, a->v[3]++, b->v[6] += 3;
            else a->v[2]++, b->v[2]++, a->v[6]++, b->v[6]++;
            rc = 0;
        }
    }
    json_decref(m);
    json_decref(r);
    return rc;
}

int e2e_tourn_check(const char *dir, int n_matches, char *why, size_t len)
{
    static char ids[512][32];
    row_t rows[64];
    int nrows = 0, n = match_ids(dir, ids, 512);
    if (n != n_matches) {
        snprintf(why, len, "%d match folders, %d expected", n, n_matches);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (check_match(dir, ids[i], rows, &nrows, why, len) < 0)
            return -1;
    }
    char p[1024];
    json_error_t je;
    snprintf(p, sizeof p, "%s/standings.json", dir);
    json_t *s = json_load_file(p, 0, &je), *table = json_object_get(s, "standings");
    static const char *const keys[] = { "played", "won", "drawn", "lost", "goals_for",
                                        "goals_against", "points" };
    int rc = 0;
    if ((int)json_array_size(table) != nrows) {
        snprintf(why, len, "standings.json has %zu teams, the results %d", json_array_size(table), nrows);
        rc = -1;
    }
    for (size_t i = 0; rc == 0 && i < json_array_size(table); i++) {
        json_t *e = json_array_get(table, i);
        const char *name = json_string_value(json_object_get(e, "name"));
        row_t *want = name ? row_of(rows, &nrows, name) : NULL;
        for (int k = 0; want && k < 7 && rc == 0; k++) {
            if (json_integer_value(json_object_get(e, keys[k])) != want->v[k]) {
                snprintf(why, len, "standings.json: %s %s %lld, the results say %d", name, keys[k],
                         (long long)json_integer_value(json_object_get(e, keys[k])), want->v[k]);
                rc = -1;
            }
        }
        if (i > 0 && rc == 0) {
            json_t *prev = json_array_get(table, i - 1);
            int pp = (int)json_integer_value(json_object_get(prev, "points"));
            int pd = (int)(json_integer_value(json_object_get(prev, "goals_for")) -
                           json_integer_value(json_object_get(prev, "goals_against")));
            int pg = (int)json_integer_value(json_object_get(prev, "goals_for"));
            int d = want->v[4] - want->v[5];
            int ok = pp > want->v[6] ||
                     (pp == want->v[6] && (pd > d || (pd == d && (pg > want->v[4] ||
                     (pg == want->v[4] && strcmp(json_string_value(json_object_get(prev, "name")), name) < 0)))));
            if (!ok) {
                snprintf(why, len, "standings.json: %s is not in its place", name);
                rc = -1;
            }
        }
    }
    json_decref(s);
    snprintf(p, sizeof p, "%s/index.html", dir);
    FILE *f = fopen(p, "r");
    static char html[1 << 20];
    size_t hl = f ? fread(html, 1, sizeof html - 1, f) : 0;
    html[hl] = '\0';
    if (f)
        fclose(f);
    for (int i = 0; rc == 0 && i < n; i++) {
        char link[128];
        snprintf(link, sizeof link, "href=\"matches/%s/result.json\"", ids[i]);
        if (!strstr(html, link)) {
            snprintf(why, len, "index.html has no link to %s's result", ids[i]);
            rc = -1;
        }
    }
    return rc;
}

/* one line per match: fmt filled from match.json / result.json */
static int per_match(const char *dir, char *out, size_t len, int scores)
{
    static char ids[512][32];
    int n = match_ids(dir, ids, 512);
    char **lines = calloc((size_t)n + 1, sizeof *lines);
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        json_t *m = load_in(dir, ids[i], "match.json"), *r = load_in(dir, ids[i], "result.json");
        char line[256];
        if (scores) {
            json_t *t = json_object_get(r, "teams");
            snprintf(line, sizeof line, "%.31s %lld-%lld\n", ids[i],
                     (long long)json_integer_value(json_object_get(json_array_get(t, 0), "score")),
                     (long long)json_integer_value(json_object_get(json_array_get(t, 1), "score")));
        } else {
            snprintf(line, sizeof line, "%.31s %lld %.31s %.31s\n", ids[i],
                     (long long)json_integer_value(json_object_get(m, "seed")),
                     json_string_value(json_object_get(json_object_get(m, "left"), "name")),
                     json_string_value(json_object_get(json_object_get(m, "right"), "name")));
        }
        lines[i] = strdup(line);
        json_decref(m);
        json_decref(r);
    }
    qsort(lines, (size_t)n, sizeof *lines, cmp_str);
    for (int i = 0; i < n; i++) {
        size_t l = strlen(lines[i]);
        if (used + l + 1 < len) {
            memcpy(out + used, lines[i], l + 1);
            used += l;
        }
        free(lines[i]);
    }
    free(lines);
    return n;
}

int e2e_tourn_schedule_of(const char *dir, char *out, size_t len)
{
    return per_match(dir, out, len, 0);
}

int e2e_tourn_scores_of(const char *dir, char *out, size_t len)
{
    return per_match(dir, out, len, 1);
}

/* the game log of match id in dir (its result.json says where), into path */
static int game_log_of(const char *dir, const char *id, char *path, size_t len)
{
    json_t *r = load_in(dir, id, "result.json");
    const char *g = json_string_value(json_object_get(json_object_get(r, "logs"), "game"));
    int rc = g ? 0 : -1;
    snprintf(path, len, "%s", g ? g : "");
    json_decref(r);
    return rc;
}

int e2e_tourn_same_games(const char *a, const char *b, char *why, size_t len)
{
    static char ids[512][32], idb[512][32];
    int n = match_ids(a, ids, 512), m = match_ids(b, idb, 512);
    if (n != m || n <= 0) {
        snprintf(why, len, "%d matches in %s, %d in %s", n, a, m, b);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        char pa[1024], pb[1024], diff[1024];
        size_t la = 0, lb = 0;
        if (game_log_of(a, ids[i], pa, sizeof pa) < 0 || game_log_of(b, ids[i], pb, sizeof pb) < 0) {
            snprintf(why, len, "%s: no game log in one of the result.json files", ids[i]);
            return -1;
        }
        char *ta = e2e_rcg_play(pa, &la), *tb = e2e_rcg_play(pb, &lb);
        int same = ta && tb && e2e_text_same(ta, la, tb, lb, diff, sizeof diff);
        if (!same)
            snprintf(why, len, "%s: %s and %s: %s", ids[i], pa, pb,
                     ta && tb ? diff : "a game log without a show");
        free(ta);
        free(tb);
        if (!same)
            return -1;
    }
    return 0;
}

int e2e_tourn_standings_of(const char *dir, char *out, size_t len)
{
    char p[1024];
    json_error_t je;
    snprintf(p, sizeof p, "%s/standings.json", dir);
    json_t *s = json_load_file(p, 0, &je), *table = json_object_get(s, "standings");
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < json_array_size(table); i++) {
        json_t *e = json_array_get(table, i);
#define V(k) (long long)json_integer_value(json_object_get(e, k))
        used += (size_t)snprintf(out + used, used < len ? len - used : 0,
                                 "%s %lld %lld %lld %lld %lld %lld %lld\n",
                                 json_string_value(json_object_get(e, "name")), V("played"), V("won"),
                                 V("drawn"), V("lost"), V("goals_for"), V("goals_against"), V("points"));
#undef V
        if (used >= len)
            break;
    }
    json_decref(s);
    return s ? 0 : -1;
}

int e2e_tourn_attempts(const char *dir)
{
    char p[1024];
    json_error_t je;
    snprintf(p, sizeof p, "%s/jobs.json", dir);
    json_t *j = json_load_file(p, 0, &je), *m = json_object_get(j, "matches"), *v;
    const char *k;
    int n = j ? 0 : -1;
    json_object_foreach(m, k, v)
        n += (int)json_integer_value(json_object_get(v, "attempts"));
    json_decref(j);
    return n;
}
