/* test_k8s.c -- `rcss-tournament k8s` (scripts/tournament/tn_k8s.c): one Indexed Job per
 * round, completions = the round's matches, each pod running its match by
 * $JOB_COMPLETION_INDEX with the CPUs of its match, every Job valid under the Kubernetes
 * batch/v1 Job schema (v1.29, standalone-strict: unknown fields are errors; the file and
 * its origin in k8s/), checked with jschema.c; the validator itself is shown to reject
 * what the schema forbids, so a pass means something. The ConfigMap carries the file. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jschema.h"
#include "tn.h"

#define SCHEMA "test/tournament/k8s/job-batch-v1.json"

static json_t *schema(void)
{
    json_error_t je;
    json_t *s = json_load_file(SCHEMA, 0, &je);
    cr_assert_not_null(s, "cannot read %s (run from the repository's root): %s", SCHEMA, je.text);
    return s;
}

static void load(tn_spec_t *s, tn_sched_t *t, const char *text)
{
    char err[256];
    cr_assert_eq(tn_spec_parse(text, s, err, sizeof err), 0, "%s", err);
    cr_assert_eq(tn_sched_build(s, t), 0);
}

static void check_jobs(const char *text, int want_rounds, const int *want_completions)
{
    json_t *sch = schema();
    tn_spec_t s;
    tn_sched_t t;
    load(&s, &t, text);
    cr_expect_eq(t.rounds, want_rounds);
    for (int r = 1; r <= t.rounds; r++) {
        json_t *job = tn_k8s_job(&s, &t, r);
        cr_assert_not_null(job);
        char err[512];
        cr_expect_eq(jschema_validate(sch, job, err, sizeof err), 0, "round %d: %s", r, err);
        json_t *spec = json_object_get(job, "spec");
        cr_expect_str_eq(json_string_value(json_object_get(spec, "completionMode")), "Indexed");
        cr_expect_eq(json_integer_value(json_object_get(spec, "completions")), want_completions[r - 1],
                     "round %d", r);
        json_t *c = json_array_get(json_object_get(json_object_get(json_object_get(spec, "template"),
                                                                   "spec"), "containers"), 0);
        char *cmd = json_dumps(json_object_get(c, "command"), 0), want[64];
        snprintf(want, sizeof want, "--round %d --index \\\"$JOB_COMPLETION_INDEX\\\"", r);
        cr_expect(strstr(cmd, want) != NULL, "round %d: %s", r, cmd);
        free(cmd);
        json_decref(job);
    }
    cr_expect_null(tn_k8s_job(&s, &t, t.rounds + 1));
    json_decref(sch);
    tn_sched_free(&t);
    tn_spec_free(&s);
}

Test(k8s, round_robin_jobs_valid)
{
    static const int c[] = { 2, 2, 2 };
    check_jobs("{\"name\": \"Demo Cup 2026!\", \"teams\": [\"A\", \"B\", \"C\", \"D\"]}", 3, c);
}

Test(k8s, knockout_and_sweep_jobs_valid)
{
    static const int ko[] = { 3, 3, 3, 3, 3, 2, 1 };
    check_jobs("{\"teams\": [\"A\", \"B\", \"C\", \"D\", \"E\", \"F\"], \"format\": {\"type\": "
               "\"round_robin_knockout\", \"top\": 4}, \"k8s\": {\"namespace\": \"rcss\", "
               "\"image\": \"registry.example/rcss:1\", \"claim\": \"results\"}}", 7, ko);
    static const int sw[] = { 100 };
    check_jobs("{\"teams\": [\"A\", \"B\"], \"format\": {\"type\": \"sweep\", \"matches\": 100}}", 1, sw);
}

Test(k8s, cpus_of_the_match)
{
    tn_spec_t s;
    tn_sched_t t;
    load(&s, &t, "{\"teams\": [{\"name\": \"A\", \"cores\": 2}, {\"name\": \"B\", \"cores\": 3}], "
                 "\"format\": \"round_robin\"}");
    json_t *job = tn_k8s_job(&s, &t, 1);
    char *text = json_dumps(job, 0);
    cr_expect(strstr(text, "\"requests\": {\"cpu\": \"6\"}") != NULL, "%s", text);
    cr_expect(strstr(text, "\"limits\": {\"cpu\": \"6\"}") != NULL);
    cr_expect(strstr(text, "\"name\": \"tournament-round-01\"") != NULL);
    free(text);
    json_decref(job);
    json_t *cm = tn_k8s_configmap(&s);
    cr_expect_str_eq(json_string_value(json_object_get(json_object_get(cm, "data"), "tournament.json")),
                     s.text);
    json_decref(cm);
    tn_sched_free(&t);
    tn_spec_free(&s);
}

Test(k8s, the_validator_rejects_what_the_schema_forbids)
{
    json_t *sch = schema();
    tn_spec_t s;
    tn_sched_t t;
    load(&s, &t, "{\"teams\": [\"A\", \"B\"]}");
    static const struct { const char *path, *field, *json, *says; } bad[] = {
        { "spec", "completionMode", "7", "type" },
        { "spec", "completions", "\"two\"", "type" },
        { "spec", "completionMod", "\"Indexed\"", "not allowed" },
        { "", "kind", "\"CronJob\"", "values allowed" },
        { "", "apiVersion", "\"batch/v2\"", "values allowed" },
        { "metadata", "labels", "{\"a\": 1}", "type" },
        { "spec/template/spec", "restartPolicy", "[\"Never\"]", "type" },
        { "spec/template/spec", "containers", "[{\"image\": \"x\"}]", "required property name" },
        { "spec/template/spec", "volumes", "[{\"name\": \"v\", \"configMap\": {\"nam\": \"x\"}}]", "not allowed" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *job = tn_k8s_job(&s, &t, 1), *at = job;
        char path[128], err[512];
        snprintf(path, sizeof path, "%s", bad[i].path);
        for (char *k = strtok(path, "/"); k; k = strtok(NULL, "/"))
            at = json_object_get(at, k);
        json_error_t je;
        cr_assert_not_null(at);
        json_object_set_new(at, bad[i].field, json_loads(bad[i].json, JSON_DECODE_ANY, &je));
        cr_expect_eq(jschema_validate(sch, job, err, sizeof err), -1, "accepted %s=%s", bad[i].field,
                     bad[i].json);
        cr_expect(strstr(err, bad[i].says) != NULL, "%s=%s: %s", bad[i].field, bad[i].json, err);
        json_decref(job);
    }
    /* and a quantity may be a string or a number (oneOf), not both nor an object */
    json_t *job = tn_k8s_job(&s, &t, 1);
    json_t *res = json_object_get(json_array_get(json_object_get(json_object_get(json_object_get(
        json_object_get(job, "spec"), "template"), "spec"), "containers"), 0), "resources");
    char err[512];
    json_object_set_new(json_object_get(res, "requests"), "cpu", json_integer(3));
    cr_expect_eq(jschema_validate(sch, job, err, sizeof err), 0, "%s", err);
    json_object_set_new(json_object_get(res, "requests"), "cpu", json_object());
    cr_expect_eq(jschema_validate(sch, job, err, sizeof err), -1);
    json_decref(job);
    json_decref(sch);
    tn_sched_free(&t);
    tn_spec_free(&s);
}

Test(k8s, written_files)
{
    char dir[] = "/tmp/tn-k8s-XXXXXX", out[300], path[400];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(out, sizeof out, "%s/manifests", dir);
    tn_spec_t s;
    char err[256];
    cr_assert_eq(tn_spec_load("conf/tournament/demo.json", &s, err, sizeof err), 0, "%s", err);
    cr_assert_eq(tn_k8s_write(&s, out), 0);
    json_t *sch = schema();
    for (int r = 1; r <= 3; r++) {
        json_error_t je;
        snprintf(path, sizeof path, "%s/round-%02d.json", out, r);
        json_t *job = json_load_file(path, 0, &je);
        cr_assert_not_null(job, "%s", path);
        cr_expect_eq(jschema_validate(sch, job, err, sizeof err), 0, "%s: %s", path, err);
        json_decref(job);
    }
    snprintf(path, sizeof path, "%s/round-04.json", out);
    cr_expect(!tn_exists(path));
    snprintf(path, sizeof path, "%s/00-configmap.json", out);
    cr_expect(tn_exists(path));
    json_decref(sch);
    tn_spec_free(&s);
    snprintf(path, sizeof path, "rm -rf '%s'", dir);
    cr_expect_eq(system(path), 0);
}
