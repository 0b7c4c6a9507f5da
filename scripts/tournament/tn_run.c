/* tn_run.c -- `rcss-tournament run`: the loop that drives a backend. It keeps DIR's plan
 * up to date (match.json of every match whose teams are known, the knock-out filled in as
 * results come), starts what is missing (not done: no result.json that counts; not
 * failed for good; not out already) up to the backend's capacity, polls what is out, and
 * when a match ends checks its result.json: a result that counts makes it done, anything
 * else is a failed attempt, started again up to the file's retries and then recorded as
 * failed (failed.json, with every attempt's reason). jobs.json is saved after each
 * change; standings.json and index.html are written again whenever a match starts or
 * ends. Run again, it starts only what is missing; when all is done it starts nothing. */
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tn.h"

static volatile sig_atomic_t interrupted;
static void on_int(int sig) { (void)sig; interrupted = 1; }

typedef struct loop {
    const tn_spec_t *s;
    tn_sched_t       t;
    tn_state_t       st;
    tn_backend_t    *b;
    tn_ctx_t         c;
    char             state_path[TN_PATH_LEN];
    int              started, done_now, quiet;
} loop_t;

static void say(const loop_t *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const loop_t *l, const char *fmt, ...)
{
    va_list ap;
    if (l->quiet)
        return;
    va_start(ap, fmt);
    printf("rcss-tournament: ");
    vprintf(fmt, ap);
    printf("\n");
    fflush(stdout);
    va_end(ap);
}

static int has_file(const loop_t *l, const tn_match_t *m, const char *name)
{
    char p[TN_PATH_LEN];
    tn_match_path(p, sizeof p, l->c.dir, m->id, name);
    return tn_exists(p);
}

static void record_failed(loop_t *l, const tn_match_t *m, tn_job_t *j)
{
    char p[TN_PATH_LEN];
    const char *last = strrchr(j->reasons, ';');
    json_t *f = json_pack("{s:s, s:i, s:s, s:s}", "id", m->id, "attempts", j->attempts,
                          "reason", last ? last + 2 : j->reasons, "reasons", j->reasons);
    tn_match_path(p, sizeof p, l->c.dir, m->id, "failed.json");
    tn_write_json(p, f);
    json_decref(f);
    say(l, "%s failed for good after %d attempt%s: %s", m->id, j->attempts,
        j->attempts == 1 ? "" : "s", j->reasons);
}

/* a failed attempt: again, or failed for good */
static void attempt_failed(loop_t *l, const tn_match_t *m, tn_job_t *j, const char *reason)
{
    tn_job_fail(j, reason);
    if (j->attempts > l->s->retries)
        record_failed(l, m, j);
    else
        say(l, "%s: attempt %d failed (%s); it runs again", m->id, j->attempts, reason);
}

static void finished(loop_t *l, tn_match_t *m, tn_job_t *j, const char *why)
{
    tn_outcome_t o;
    j->active = 0;
    if (tn_plan_outcome(l->s, m, l->c.dir, &o) == 1) {
        say(l, "done %s %s %d-%d %s%s", m->id, l->s->teams[m->left].name, o.score[0],
            o.score[1], l->s->teams[m->right].name, o.pen[0] + o.pen[1] > 0 ? " (penalties)" : "");
        l->done_now++;
        return;
    }
    char reason[200];
    snprintf(reason, sizeof reason, "%s (%s)", o.why[0] ? o.why : "no result.json", why);
    attempt_failed(l, m, j, reason);
}

/* poll what is out; 1 if anything ended */
static int poll_jobs(loop_t *l)
{
    int n = 0, changed = 0;
    tn_job_t **jobs = calloc((size_t)l->st.n + 1, sizeof *jobs);
    int *running = calloc((size_t)l->st.n + 1, sizeof *running);
    char (*why)[96] = calloc((size_t)l->st.n + 1, sizeof *why);
    for (int i = 0; jobs && i < l->st.n; i++) {
        if (l->st.j[i].active)
            jobs[n++] = &l->st.j[i];
    }
    if (n > 0 && running && why && l->b->poll(l->b, &l->c, jobs, n, running, why) == 0) {
        for (int i = 0; i < n; i++) {
            tn_match_t *m = tn_sched_find(&l->t, jobs[i]->id);
            if (running[i] || !m)
                continue;
            finished(l, m, jobs[i], why[i]);
            changed = 1;
        }
    }
    free(jobs);
    free(running);
    free(why);
    return changed;
}

/* start what is missing, up to the capacity; the matches still to run (out or not) */
static int start_missing(loop_t *l, int *changed)
{
    int active = 0, todo = 0;
    for (int i = 0; i < l->st.n; i++)
        active += l->st.j[i].active;
    for (int i = 0; i < l->t.n && !interrupted; i++) {
        tn_match_t *m = &l->t.m[i];
        tn_outcome_t o;
        if (m->left < 0 || m->right < 0 || has_file(l, m, "failed.json") ||
            tn_plan_outcome(l->s, m, l->c.dir, &o) == 1)
            continue;
        tn_job_t *j = tn_state_get(&l->st, m->id, 1);
        todo++;
        if (!j || j->active || (l->b->capacity > 0 && active >= l->b->capacity))
            continue;
        if (tn_plan_write_match(l->s, m, l->c.dir) < 0) {
            say(l, "%s: cannot write its match.json", m->id);
            continue;
        }
        char err[160] = "";
        j->attempts++;
        j->active = 1;
        snprintf(j->backend, sizeof j->backend, "%s", l->b->name);
        if (l->b->start(l->b, &l->c, m, j, err, sizeof err) < 0) {
            j->active = 0;
            attempt_failed(l, m, j, err);
        } else {
            active++;
            l->started++;
            say(l, "start %s %s vs %s (attempt %d, %s %s)", m->id, l->s->teams[m->left].name,
                l->s->teams[m->right].name, j->attempts, l->b->name, j->job);
        }
        *changed = 1;
    }
    return todo;
}

/* the running.json files now: a change means a match came up or went */
static unsigned long long running_sig(const loop_t *l)
{
    unsigned long long h = 0;
    for (int i = 0; i < l->t.n; i++)
        h = h * 31 + (unsigned long long)has_file(l, &l->t.m[i], "running.json") * (unsigned)(i + 1);
    return h;
}

static void publish(loop_t *l)
{
    tn_plan_write_standings(l->s, &l->t, l->c.dir);
    tn_html_write(l->s, &l->t, &l->st, l->c.dir);
}

/* DIR/tournament.json: the file this DIR runs; another one is refused */
static int claim_dir(const tn_spec_t *s, const char *dir)
{
    char p[TN_PATH_LEN];
    snprintf(p, sizeof p, "%s/matches", dir);
    if (tn_mkdirs(p) < 0) {
        fprintf(stderr, "rcss-tournament: cannot create %s\n", p);
        return -1;
    }
    snprintf(p, sizeof p, "%s/tournament.json", dir);
    char *have = tn_read_file(p, NULL);
    int rc = 0;
    if (have && strcmp(have, s->text) != 0) {
        fprintf(stderr, "rcss-tournament: %s holds another tournament (its tournament.json "
                        "differs from this file); use another --out\n", dir);
        rc = -1;
    } else if (!have && tn_write_atomic(p, s->text) < 0) {
        fprintf(stderr, "rcss-tournament: cannot write %s\n", p);
        rc = -1;
    }
    free(have);
    return rc;
}

/* jobs of an earlier run: local ones died with it (not counted); Slurm ones go on */
static int adopt(loop_t *l, int retry_failed)
{
    for (int i = 0; i < l->st.n; i++) {
        tn_job_t *j = &l->st.j[i];
        if (j->active && !strcmp(j->backend, "local")) {
            j->active = 0;
            j->attempts = j->attempts > 0 ? j->attempts - 1 : 0;
        }
        if (j->active && strcmp(j->backend, l->b->name) != 0) {
            fprintf(stderr, "rcss-tournament: match %s is still out as %s job %s: run with "
                            "--backend %s\n", j->id, j->backend, j->job, j->backend);
            return -1;
        }
        tn_match_t *m = tn_sched_find(&l->t, j->id);
        if (retry_failed && m && has_file(l, m, "failed.json")) {
            char p[TN_PATH_LEN];
            tn_match_path(p, sizeof p, l->c.dir, m->id, "failed.json");
            unlink(p);
            j->attempts = 0;
            j->reasons[0] = '\0';
        }
    }
    return 0;
}

static int summary(loop_t *l)
{
    int done = 0, failed = 0;
    for (int i = 0; i < l->t.n; i++) {
        tn_outcome_t o;
        done += tn_plan_outcome(l->s, &l->t.m[i], l->c.dir, &o) == 1;
        failed += has_file(l, &l->t.m[i], "failed.json");
    }
    if (!l->quiet) {
        printf("rcss-tournament: %d matches: %d done, %d failed, %d started in this run; "
               "%s/standings.json, %s/index.html\n", l->t.n, done, failed, l->started,
               l->c.dir, l->c.dir);
        if (l->started == 0 && done + failed == l->t.n)
            printf("rcss-tournament: nothing to run: every match is done or failed\n");
    }
    return failed > 0 ? 1 : 0;
}

int tn_run(const tn_spec_t *s, const char *dir, tn_backend_t *b, const tn_run_opts_t *o)
{
    static char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = '\0';
    loop_t l = { .s = s, .b = b, .c = { .spec = s, .dir = dir, .self = self }, .quiet = o->quiet };
    if (claim_dir(s, dir) < 0 || tn_sched_build(s, &l.t) < 0)
        return 2;
    snprintf(l.state_path, sizeof l.state_path, "%s/jobs.json", dir);
    if (tn_state_load(l.state_path, &l.st) < 0 || adopt(&l, o->retry_failed) < 0) {
        if (l.st.n == 0)
            fprintf(stderr, "rcss-tournament: %s is not readable\n", l.state_path);
        tn_sched_free(&l.t);
        tn_state_free(&l.st);
        return 2;
    }
    struct sigaction sa = { .sa_handler = on_int };
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    tn_state_save(l.state_path, &l.st);
    unsigned long long sig = ~0ULL;
    int slurm = !strcmp(b->name, "slurm"), rc = 0;
    double next_publish = 0;
    for (;;) {
        int changed = 0;
        changed |= poll_jobs(&l);
        tn_plan_resolve(s, &l.t, dir);
        int todo = start_missing(&l, &changed);
        unsigned long long now_sig = running_sig(&l);
        if (changed)
            tn_state_save(l.state_path, &l.st);
        if (changed || now_sig != sig || tn_now() > next_publish) {
            sig = now_sig;
            publish(&l);
            next_publish = tn_now() + 30;
        }
        int out = 0;               /* a done match's runner may still be stopping its teams */
        for (int i = 0; i < l.st.n; i++)
            out += l.st.j[i].active;
        if (todo == 0 && out == 0)
            break;
        if (interrupted) {
            tn_job_t **jobs = calloc((size_t)l.st.n + 1, sizeof *jobs);
            int k = 0;
            for (int i = 0; jobs && i < l.st.n; i++) {
                if (l.st.j[i].active)
                    jobs[k++] = &l.st.j[i];
            }
            if (b->stop_all && jobs) {
                b->stop_all(b, jobs, k);
                for (int i = 0; i < k; i++) {
                    jobs[i]->active = 0;
                    jobs[i]->attempts--;
                }
            }
            free(jobs);
            tn_state_save(l.state_path, &l.st);
            publish(&l);
            if (!l.quiet)
                printf("rcss-tournament: interrupted; %s\n", slurm ? "the Slurm jobs go on, "
                       "run the same command again to wait for them" : "run the same command "
                       "again to go on");
            rc = 130;
            break;
        }
        usleep(slurm ? 1000000 : 200000);
    }
    if (rc == 0) {
        publish(&l);
        rc = summary(&l);
    }
    tn_sched_free(&l.t);
    tn_state_free(&l.st);
    return rc;
}
