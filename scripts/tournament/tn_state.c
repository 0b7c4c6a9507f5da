/* tn_state.c -- DIR/jobs.json, what a run leaves for the next one: per match the backend
 * that started it, its handle there (the Slurm job id, the local pid), how many times it
 * was started, whether it is still out (started and not yet seen finished) and why the
 * earlier attempts failed. A run that was interrupted finds its Slurm jobs again here
 * and waits for them instead of submitting them twice. Written through a rename after
 * every change, so an interruption leaves the last state whole. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tn.h"

tn_job_t *tn_state_get(tn_state_t *st, const char *id, int create)
{
    for (int i = 0; i < st->n; i++) {
        if (strcmp(st->j[i].id, id) == 0)
            return &st->j[i];
    }
    if (!create)
        return NULL;
    if (st->n == st->cap) {
        int cap = st->cap ? st->cap * 2 : 64;
        tn_job_t *j = realloc(st->j, (size_t)cap * sizeof *j);
        if (!j)
            return NULL;
        st->j = j;
        st->cap = cap;
    }
    tn_job_t *j = &st->j[st->n++];
    memset(j, 0, sizeof *j);
    snprintf(j->id, sizeof j->id, "%s", id);
    return j;
}

void tn_job_fail(tn_job_t *j, const char *reason)
{
    size_t n = strlen(j->reasons);
    snprintf(j->reasons + n, sizeof j->reasons - n, "%s%s", n ? "; " : "", reason);
}

int tn_state_load(const char *path, tn_state_t *st)
{
    memset(st, 0, sizeof *st);
    if (!tn_exists(path))
        return 0;
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    json_t *jobs = json_object_get(root, "matches");
    if (!json_is_object(jobs)) {
        json_decref(root);
        return -1;
    }
    const char *id;
    json_t *v;
    json_object_foreach(jobs, id, v) {
        tn_job_t *j = tn_state_get(st, id, 1);
        if (!j)
            break;
        const char *s;
        if ((s = json_string_value(json_object_get(v, "job"))))
            snprintf(j->job, sizeof j->job, "%s", s);
        if ((s = json_string_value(json_object_get(v, "backend"))))
            snprintf(j->backend, sizeof j->backend, "%s", s);
        if ((s = json_string_value(json_object_get(v, "reasons"))))
            snprintf(j->reasons, sizeof j->reasons, "%s", s);
        j->attempts = (int)json_integer_value(json_object_get(v, "attempts"));
        j->active = json_is_true(json_object_get(v, "active"));
    }
    json_decref(root);
    return 0;
}

int tn_state_save(const char *path, const tn_state_t *st)
{
    json_t *jobs = json_object();
    for (int i = 0; i < st->n; i++) {
        const tn_job_t *j = &st->j[i];
        json_object_set_new(jobs, j->id, json_pack("{s:s, s:s, s:i, s:b, s:s}", "backend",
                                                   j->backend, "job", j->job, "attempts",
                                                   j->attempts, "active", j->active,
                                                   "reasons", j->reasons));
    }
    json_t *root = json_pack("{s:o}", "matches", jobs);
    int rc = tn_write_json(path, root);
    json_decref(root);
    return rc;
}

void tn_state_free(tn_state_t *st)
{
    free(st->j);
    memset(st, 0, sizeof *st);
}
