/* tn_slurm.c -- the Slurm backend: each match is one batch job (DIR/matches/ID/job.sh,
 * submitted with sbatch) with --cpus-per-task = 1 for the server plus both teams' cores,
 * so the server and both teams run inside the job on the CPUs Slurm binds to it; the
 * job's output is DIR/matches/ID/slurm-JOBID.out. DIR must be on a file system every
 * node sees. Job states come from Slurm: squeue for the jobs still queued or running
 * (one call for all), then scontrol and sacct -c for one that left the queue (COMPLETED,
 * FAILED, CANCELLED, TIMEOUT, NODE_FAIL, ...; scripts/slurm/README.md "Job states").
 * Jobs are submitted with --no-requeue: a job whose node is lost ends NODE_FAIL and the
 * runner submits it again itself. Jobs are not cancelled when the runner is
 * interrupted: the next run finds them in jobs.json and waits for them.
 * RCSS_SBATCH_ARGS="--partition=P ..." adds sbatch options (split at spaces). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tn.h"

#define OUT_LEN 65536

int tn_slurm_state_over(const char *state)
{
    static const char *const over[] = { "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT",
                                        "NODE_FAIL", "BOOT_FAIL", "OUT_OF_MEMORY", "PREEMPTED",
                                        "DEADLINE", "SPECIAL_EXIT", "REVOKED", NULL };
    for (int i = 0; over[i]; i++) {
        if (!strncmp(state, over[i], strlen(over[i])))
            return 1;
    }
    return 0;
}

static int write_script(const tn_ctx_t *c, const tn_match_t *m, char *path, size_t len)
{
    char mdir[TN_PATH_LEN], text[3 * TN_PATH_LEN];
    tn_match_path(mdir, sizeof mdir, c->dir, m->id, "");
    tn_match_path(path, len, c->dir, m->id, "job.sh");
    int minutes = c->spec->timeout_s / 60 + 2;
    snprintf(text, sizeof text,
             "#!/bin/sh\n"
             "# one match of tournament %s, written by rcss-tournament (sbatch job.sh reruns it)\n"
             "#SBATCH --job-name=rcss-%s\n"
             "#SBATCH --ntasks=1\n"
             "#SBATCH --no-requeue\n"
             "#SBATCH --cpus-per-task=%d\n"
             "#SBATCH --time=%d\n"
             "#SBATCH --output=%s/slurm-%%j.out\n"
             "exec '%s' match '%s' '%s'\n",
             c->spec->name, m->id, tn_plan_cpus(c->spec, m), minutes, mdir, c->self, c->dir, m->id);
    if (tn_write_atomic(path, text) < 0)
        return -1;
    return 0;
}

static int slurm_start(tn_backend_t *b, const tn_ctx_t *c, const tn_match_t *m, tn_job_t *j,
                       char *err, size_t errlen)
{
    (void)b;
    char script[TN_PATH_LEN], out[1024], extra[1024] = "";
    if (write_script(c, m, script, sizeof script) < 0) {
        snprintf(err, errlen, "cannot write %s", script);
        return -1;
    }
    const char *argv[40];
    int k = 0;
    argv[k++] = "sbatch";
    argv[k++] = "--parsable";
    const char *env = getenv("RCSS_SBATCH_ARGS");
    if (env) {
        snprintf(extra, sizeof extra, "%s", env);
        for (char *t = strtok(extra, " "); t && k < 36; t = strtok(NULL, " "))
            argv[k++] = t;
    }
    argv[k++] = script;
    argv[k] = NULL;
    int rc = tn_capture(argv, out, sizeof out);
    long id = atol(out);
    if (rc != 0 || id <= 0) {
        snprintf(err, errlen, "sbatch failed (status %d)%s%.60s", rc, out[0] ? ": " : "", out);
        char *nl = strchr(err, '\n');
        if (nl)
            *nl = '\0';
        return -1;
    }
    snprintf(j->job, sizeof j->job, "%ld", id);
    return 0;
}

/* a job that left the queue: its final state from scontrol, else sacct */
static void final_state(const char *job, char *why, size_t len)
{
    static char out[OUT_LEN];
    const char *sc[] = { "scontrol", "-o", "show", "job", job, NULL };
    if (tn_capture(sc, out, sizeof out) == 0) {
        char *s = strstr(out, "JobState="), *r = strstr(out, " Reason="), *e = strstr(out, " ExitCode=");
        if (s) {
            char state[32] = "", reason[48] = "", code[16] = "";
            sscanf(s + 9, "%31s", state);
            if (r)
                sscanf(r + 8, "%47s", reason);
            if (e)
                sscanf(e + 10, "%15s", code);
            snprintf(why, len, "%s%s%s exit %s", state, strcmp(reason, "None") && reason[0] ? " " : "",
                     strcmp(reason, "None") ? reason : "", code);
            return;
        }
    }
    /* without slurmdbd, sacct -c reads the job completion file; a requeued job has a
     * line per run: the last counts */
    const char *sa[] = { "sacct", "-c", "-n", "-P", "-o", "State,ExitCode", "-j", job, NULL };
    if (tn_capture(sa, out, sizeof out) == 0 && out[0] && out[0] != '\n') {
        size_t n = strlen(out);
        while (n > 0 && out[n - 1] == '\n')
            out[--n] = '\0';
        char *last = strrchr(out, '\n');
        last = last ? last + 1 : out;
        char *bar = strchr(last, '|');
        if (bar)
            *bar = ' ';
        snprintf(why, len, "%.80s", last);
        return;
    }
    snprintf(why, len, "job %s is no longer known to Slurm", job);
}

static int slurm_poll(tn_backend_t *b, const tn_ctx_t *c, tn_job_t **jobs, int n, int *running,
                      char (*why)[96])
{
    (void)b;
    (void)c;
    static char out[1 << 20];
    char user[64];
    snprintf(user, sizeof user, "%d", (int)getuid());
    const char *argv[] = { "squeue", "-h", "-o", "%i %T", "-u", user, NULL };
    if (tn_capture(argv, out, sizeof out) != 0)
        return -1;                   /* the controller did not answer: try again later */
    for (int i = 0; i < n; i++) {
        running[i] = 0;
        for (char *l = out; l && *l;) {
            char id[32], state[32];
            if (sscanf(l, "%31s %31s", id, state) == 2 && !strcmp(id, jobs[i]->job) &&
                !tn_slurm_state_over(state))
                running[i] = 1;
            l = strchr(l, '\n');
            l = l ? l + 1 : NULL;
        }
        if (!running[i])
            final_state(jobs[i]->job, why[i], sizeof why[i]);
    }
    return 0;
}

void tn_slurm_init(tn_backend_t *b, int parallel)
{
    memset(b, 0, sizeof *b);
    b->name = "slurm";
    b->capacity = parallel > 0 ? parallel : 0;
    b->start = slurm_start;
    b->poll = slurm_poll;
    b->stop_all = NULL;
}
