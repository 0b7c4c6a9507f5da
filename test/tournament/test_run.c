/* test_run.c -- the run loop and its state (scripts/tournament/tn_run.c, tn_state.c) with
 * a fake backend that "plays" a match by writing its result.json: a run starts every
 * match once and a second run starts nothing; a match still out in jobs.json (an
 * interrupted run's job) is polled, not started again; a match that keeps failing is
 * started 1 + retries times, then recorded in failed.json with every reason and left
 * alone by later runs, unless --retry-failed; jobs.json reads back as written; another
 * tournament's DIR is refused. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tn.h"

static char dir[256];
static int starts, polls_left, linger;
static char started[64][TN_ID_LEN];
static const char *failing;            /* a match id whose every attempt fails */

static const char *FILE_TEXT =
    "{\"teams\": [\"A\", \"B\", \"C\", \"D\"], \"format\": \"round_robin\", \"retries\": 2}";

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/tn-run-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    starts = 0;
    polls_left = 0;
    linger = 0;
    failing = NULL;
}

static void teardown(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

static void write_result(const tn_ctx_t *c, const char *id, const char *reason)
{
    tn_sched_t t;
    cr_assert_eq(tn_sched_build(c->spec, &t), 0);
    tn_match_t *m = tn_sched_find(&t, id);
    char path[TN_PATH_LEN], text[1024];
    tn_match_path(path, sizeof path, c->dir, id, "result.json");
    snprintf(text, sizeof text,
             "{\"exit_reason\": \"%s\", \"teams\": [{\"name\": \"%s\", \"score\": 1}, "
             "{\"name\": \"%s\", \"score\": 0}], \"winner\": \"l\", \"forfeit\": null}",
             reason, c->spec->teams[m->left].name, c->spec->teams[m->right].name);
    cr_assert_eq(tn_write_atomic(path, text), 0);
    tn_sched_free(&t);
}

static int fake_start(tn_backend_t *b, const tn_ctx_t *c, const tn_match_t *m, tn_job_t *j,
                      char *err, size_t len)
{
    (void)b;
    (void)err;
    (void)len;
    cr_assert_lt(starts, 64);
    snprintf(started[starts++], TN_ID_LEN, "%s", m->id);
    snprintf(j->job, sizeof j->job, "fake-%d", starts);
    /* match.json is written before a start */
    char path[TN_PATH_LEN];
    tn_match_path(path, sizeof path, c->dir, m->id, "match.json");
    cr_expect(tn_exists(path), "%s has no match.json at its start", m->id);
    write_result(c, m->id, failing && !strcmp(m->id, failing) ? "team_missing" : "game_over");
    return 0;
}

static int fake_poll(tn_backend_t *b, const tn_ctx_t *c, tn_job_t **jobs, int n, int *running,
                     char (*why)[96])
{
    (void)b;
    for (int i = 0; i < n; i++) {
        running[i] = 0;
        snprintf(why[i], sizeof why[i], "exit 0");
        /* a runner still stopping its teams after its match's result is written */
        if (!strcmp(jobs[i]->job, "fake-1") && linger > 0) {
            linger--;
            running[i] = 1;
        }
        /* the job of an earlier run: still out for a few polls, then its result */
        if (!strcmp(jobs[i]->job, "fake-99")) {
            running[i] = polls_left-- > 0;
            if (!running[i])
                write_result(c, jobs[i]->id, "game_over");
        }
    }
    return 0;
}

static int run(int retry_failed)
{
    tn_spec_t s;
    char err[256];
    cr_assert_eq(tn_spec_parse(FILE_TEXT, &s, err, sizeof err), 0, "%s", err);
    tn_backend_t b = { .name = "fake", .capacity = 2, .start = fake_start, .poll = fake_poll };
    tn_run_opts_t o = { .retry_failed = retry_failed, .quiet = 1 };
    starts = 0;
    int rc = tn_run(&s, dir, &b, &o);
    tn_spec_free(&s);
    return rc;
}

Test(run, every_match_once_then_nothing, .init = setup, .fini = teardown)
{
    cr_expect_eq(run(0), 0);
    cr_expect_eq(starts, 6);
    for (int i = 0; i < 6; i++) {
        for (int k = 0; k < i; k++)
            cr_expect_str_neq(started[i], started[k], "%s started twice", started[i]);
    }
    char path[512];
    snprintf(path, sizeof path, "%s/standings.json", dir);
    cr_expect(tn_exists(path));
    snprintf(path, sizeof path, "%s/index.html", dir);
    cr_expect(tn_exists(path));
    snprintf(path, sizeof path, "%s/jobs.json", dir);
    tn_state_t st;
    cr_assert_eq(tn_state_load(path, &st), 0);
    cr_expect_eq(st.n, 6);
    for (int i = 0; i < st.n; i++) {
        cr_expect_eq(st.j[i].attempts, 1);
        cr_expect_eq(st.j[i].active, 0);
        cr_expect_str_eq(st.j[i].backend, "fake");
    }
    tn_state_free(&st);
    cr_expect_eq(run(0), 0);
    cr_expect_eq(starts, 0, "a second run starts nothing");
}

Test(run, the_run_waits_for_a_runner_still_out_after_its_result, .init = setup, .fini = teardown)
{
    linger = 20;
    cr_expect_eq(run(0), 0);
    cr_expect_eq(linger, 0, "the run ended while a runner was still out");
    char path[512];
    snprintf(path, sizeof path, "%s/jobs.json", dir);
    tn_state_t st;
    cr_assert_eq(tn_state_load(path, &st), 0);
    for (int i = 0; i < st.n; i++)
        cr_expect_eq(st.j[i].active, 0, "%s still out in jobs.json", st.j[i].id);
    tn_state_free(&st);
    cr_expect_eq(run(0), 0);
    cr_assert_eq(tn_state_load(path, &st), 0);
    for (int i = 0; i < st.n; i++)
        cr_expect_eq(st.j[i].attempts, 1, "%s: %d attempts", st.j[i].id, st.j[i].attempts);
    tn_state_free(&st);
}

Test(run, a_job_still_out_is_not_started_again, .init = setup, .fini = teardown)
{
    /* an interrupted run left r01-m01 out as job fake-99 */
    char path[512];
    snprintf(path, sizeof path, "%s/matches/r01-m01", dir);
    cr_assert_eq(tn_mkdirs(path), 0);
    snprintf(path, sizeof path, "%s/jobs.json", dir);
    tn_state_t st = { 0 };
    tn_job_t *j = tn_state_get(&st, "r01-m01", 1);
    snprintf(j->job, sizeof j->job, "fake-99");
    snprintf(j->backend, sizeof j->backend, "fake");
    j->attempts = 1;
    j->active = 1;
    cr_assert_eq(tn_state_save(path, &st), 0);
    tn_state_free(&st);
    polls_left = 3;
    cr_expect_eq(run(0), 0);
    cr_expect_eq(starts, 5);
    for (int i = 0; i < starts; i++)
        cr_expect_str_neq(started[i], "r01-m01", "the match out was started again");
    cr_assert_eq(tn_state_load(path, &st), 0);
    j = tn_state_get(&st, "r01-m01", 0);
    cr_assert_not_null(j);
    cr_expect_eq(j->attempts, 1);
    cr_expect_eq(j->active, 0);
    tn_state_free(&st);
}

Test(run, failing_match_retried_then_recorded, .init = setup, .fini = teardown)
{
    failing = "r02-m01";
    cr_expect_eq(run(0), 1, "a failed match: status 1");
    cr_expect_eq(starts, 5 + 3, "five matches once, the failing one 1 + 2 retries");
    char path[512];
    snprintf(path, sizeof path, "%s/matches/r02-m01/failed.json", dir);
    json_error_t je;
    json_t *f = json_load_file(path, 0, &je);
    cr_assert_not_null(f, "no failed.json");
    cr_expect_eq(json_integer_value(json_object_get(f, "attempts")), 3);
    const char *reasons = json_string_value(json_object_get(f, "reasons"));
    cr_assert_not_null(reasons);
    int n = 0;
    for (const char *p = reasons; (p = strstr(p, "team_missing")); p++)
        n++;
    cr_expect_eq(n, 3, "every attempt's reason: %s", reasons);
    json_decref(f);
    snprintf(path, sizeof path, "%s/standings.json", dir);
    f = json_load_file(path, 0, &je);
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(f, "matches"), "failed")), 1);
    json_decref(f);
    snprintf(path, sizeof path, "%s/index.html", dir);
    char *html = tn_read_file(path, NULL);
    cr_expect(html && strstr(html, "failed</b>"), "index.html shows the failure");
    free(html);

    cr_expect_eq(run(0), 1);
    cr_expect_eq(starts, 0, "a failed match is not started again by itself");
    failing = NULL;
    cr_expect_eq(run(1), 0, "--retry-failed");
    cr_expect_eq(starts, 1);
    cr_expect_str_eq(started[0], "r02-m01");
}

Test(run, state_round_trip_and_other_tournament_refused, .init = setup, .fini = teardown)
{
    tn_state_t st = { 0 }, back;
    for (int i = 0; i < 100; i++) {
        char id[TN_ID_LEN];
        snprintf(id, sizeof id, "s%04d", i);
        tn_job_t *j = tn_state_get(&st, id, 1);
        snprintf(j->job, sizeof j->job, "%d", 1000 + i);
        snprintf(j->backend, sizeof j->backend, i % 2 ? "slurm" : "local");
        j->attempts = i % 4;
        j->active = i % 3 == 0;
        if (i % 5 == 0) {
            tn_job_fail(j, "CANCELLED");
            tn_job_fail(j, "NODE_FAIL");
        }
    }
    char path[512];
    snprintf(path, sizeof path, "%s/jobs.json", dir);
    cr_assert_eq(tn_state_save(path, &st), 0);
    cr_assert_eq(tn_state_load(path, &back), 0);
    cr_assert_eq(back.n, 100);
    for (int i = 0; i < 100; i++) {
        tn_job_t *a = &st.j[i], *b = tn_state_get(&back, a->id, 0);
        cr_assert_not_null(b);
        cr_expect_str_eq(a->job, b->job);
        cr_expect_str_eq(a->backend, b->backend);
        cr_expect_eq(a->attempts, b->attempts);
        cr_expect_eq(a->active, b->active);
        cr_expect_str_eq(a->reasons, b->reasons);
    }
    cr_expect_str_eq(tn_state_get(&back, "s0005", 0)->reasons, "CANCELLED; NODE_FAIL");
    tn_state_free(&st);
    tn_state_free(&back);

    /* DIR of another tournament */
    unlink(path);
    snprintf(path, sizeof path, "%s/tournament.json", dir);
    cr_assert_eq(tn_write_atomic(path, "{\"teams\": [\"X\", \"Y\"]}"), 0);
    cr_expect_eq(run(0), 2);
    cr_expect_eq(starts, 0);
}
