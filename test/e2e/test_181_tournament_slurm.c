/* test_181_tournament_slurm.c -- rcss-tournament's Slurm backend on a real single-node
 * Slurm cluster (slurmctld, slurmd, munge) that the test starts and stops with
 * scripts/slurm/slurm-local.sh in a private directory. The tournament of test_180
 * (conf/tournament/demo.json, halves of 5 s, synch mode; its teams have cores 0, so each
 * match is a 1-CPU job and the two CPUs of this machine take two at once):
 *
 *  - it runs to the end with --backend slurm, every match a job; while a match is in
 *    play its job is killed with scancel: the runner sees it CANCELLED, submits it
 *    again, and the tournament still completes; standings.json equals a recount of
 *    every result.json (e2e_tourn.h);
 *  - the same command again submits nothing (no "start" line, jobs.json counts no new
 *    attempt, squeue shows no job);
 *  - the local backend with --parallel 2 on the same file gives the same matches with
 *    the same seeds and sides, and the same games (issue 25): standings.json the same
 *    bytes, every match the same score, every game log the same from the first show on
 *    (e2e_tourn_same_games), the match whose job was cancelled and run again included,
 *    although the two backends start the teams at other moments and run two matches at
 *    once on the same two CPUs (README "Tournaments and sweeps", "Same seeds, same
 *    matches?").
 *
 * Skipped (with the reason) where Slurm cannot run: not root, slurm-wlm / munge not
 * installed, or no scripts/slurm/slurm-local.sh. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "e2e.h"
#include "e2e_proc.h"
#include "e2e_logs.h"
#include "e2e_tourn.h"

#define HALF_S 5.0

static char base[] = "/tmp/rcss-e2e-slurm-XXXXXX";
static char cluster[300], conf_env[600];
static int cluster_up;
static char out[1 << 16];

static int have(const char *prog)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", prog);
    return system(cmd) == 0;
}

static void stop_cluster(void)
{
    if (cluster_up) {
        char cmd[400];
        snprintf(cmd, sizeof cmd, "scripts/slurm/slurm-local.sh stop '%s' >/dev/null 2>&1", cluster);
        cr_expect_eq(system(cmd), 0, "slurm-local.sh stop failed");
        cluster_up = 0;
    }
    char rm[400];
    snprintf(rm, sizeof rm, "rm -rf '%s'", base);
    if (base[strlen(base) - 1] != 'X')
        cr_expect_eq(system(rm), 0);
}

/* a background `rcss-tournament run`, its output into a file */
static pid_t spawn_run(const char *const *args, const char *log)
{
    const char *bin = getenv("RCSS_BIN_DIR");
    char prog[512];
    snprintf(prog, sizeof prog, "%s/rcss-tournament", bin ? bin : "build/bin");
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        FILE *f = freopen(log, "w", stdout);
        if (!f || dup2(1, 2) < 0)
            _exit(126);
        const char *argv[16] = { prog };
        for (int i = 0; args[i] && i < 14; i++)
            argv[i + 1] = args[i];
        execv(prog, (char *const *)argv);
        _exit(127);
    }
    return pid;
}

/* an active Slurm job of dir/jobs.json whose match is in play (running.json); its id */
static int job_in_play(const char *dir, char *job, size_t len, char *id, size_t idlen)
{
    char p[600];
    json_error_t je;
    snprintf(p, sizeof p, "%s/jobs.json", dir);
    json_t *j = json_load_file(p, 0, &je), *v;
    const char *k;
    int found = 0;
    json_object_foreach(json_object_get(j, "matches"), k, v) {
        struct stat st;
        snprintf(p, sizeof p, "%s/matches/%s/running.json", dir, k);
        if (!found && json_is_true(json_object_get(v, "active")) && stat(p, &st) == 0) {
            snprintf(job, len, "%s", json_string_value(json_object_get(v, "job")));
            snprintf(id, idlen, "%s", k);
            found = 1;
        }
    }
    json_decref(j);
    return found;
}

Test(tournament, slurm_round_robin_scancel_resubmit_resume_and_local, .timeout = 600,
     .fini = stop_cluster)
{
    if (geteuid() != 0)
        cr_skip_test("the single-node Slurm cluster needs root (slurmd runs jobs as their users)");
    if (!have("slurmctld") && access("/usr/sbin/slurmctld", X_OK) != 0)
        cr_skip_test("slurm-wlm is not installed (scripts/install-deps.sh installs it)");
    if (!have("sbatch") || (access("/usr/sbin/munged", X_OK) != 0 && !have("munged")))
        cr_skip_test("slurm-client or munge is not installed");
    if (access("scripts/slurm/slurm-local.sh", X_OK) != 0)
        cr_skip_test("scripts/slurm/slurm-local.sh is not in the tree");
    cr_assert_not_null(mkdtemp(base));
    snprintf(cluster, sizeof cluster, "%s/cluster", base);

    /* the cluster, as a user would start it */
    char cmd[800], env[4096];
    double t0 = e2e_now_ms();
    snprintf(cmd, sizeof cmd, "scripts/slurm/slurm-local.sh start '%s'", cluster);
    int st = e2e_sh(cmd, env, sizeof env);
    cr_assert_eq(st, 0, "slurm-local.sh start failed (status %d)", st);
    cluster_up = 1;
    char *conf = strstr(env, "SLURM_CONF=");
    cr_assert_not_null(conf, "no SLURM_CONF in: %s", env);
    size_t n = strcspn(conf, "\n; ");
    snprintf(conf_env, sizeof conf_env, "%.*s", (int)n, conf);
    char *q;
    while ((q = strchr(conf_env, '\'')) || (q = strchr(conf_env, '"')))
        memmove(q, q + 1, strlen(q));
    putenv(conf_env);
    cr_log_info("slurm: cluster up in %.1f s (%s)", (e2e_now_ms() - t0) / 1000, conf_env);

    char file[400], sres[400], lres[400], log[400], why[1024];
    snprintf(file, sizeof file, "%s/quick.json", base);
    snprintf(sres, sizeof sres, "%s/slurm", base);
    snprintf(lres, sizeof lres, "%s/local", base);
    snprintf(log, sizeof log, "%s/run.log", base);
    cr_assert_eq(e2e_tourn_quick_file(file, HALF_S), 0);

    /* 1. the round robin on Slurm, one job killed while its match is in play */
    const char *args[] = { "run", file, "--out", sres, "--backend", "slurm", NULL };
    t0 = e2e_now_ms();
    pid_t run = spawn_run(args, log);
    cr_assert_gt(run, 0);
    char job[32] = "", id[32] = "";
    json_error_t je0;
    for (double end = e2e_now_ms() + 120000; e2e_now_ms() < end && !job[0];) {
        if (!job_in_play(sres, job, sizeof job, id, sizeof id))
            usleep(100000);
    }
    cr_assert(job[0], "no match came into play within 2 minutes");
    /* index.html links to its browser monitor while it plays */
    char idx[600], rj[600], want[128];
    snprintf(idx, sizeof idx, "%s/index.html", sres);
    snprintf(rj, sizeof rj, "%s/matches/%s/running.json", sres, id);
    json_t *running = json_load_file(rj, 0, &je0);
    int http = (int)json_integer_value(json_object_get(running, "http_port"));
    json_decref(running);
    snprintf(want, sizeof want, "playing: <a href=\"http://127.0.0.1:%d/\">watch</a>", http);
    int linked = 0;
    for (double end = e2e_now_ms() + 5000; e2e_now_ms() < end && !linked;) {
        FILE *h = fopen(idx, "r");
        size_t hl = h ? fread(out, 1, sizeof out - 1, h) : 0;
        out[hl] = '\0';
        if (h)
            fclose(h);
        linked = http > 0 && strstr(out, want) != NULL;
        if (!linked)
            usleep(100000);
    }
    cr_expect(linked, "index.html has no link %s while %s plays", want, id);
    snprintf(cmd, sizeof cmd, "scancel %s", job);
    cr_expect_eq(e2e_sh(cmd, NULL, 0), 0, "scancel %s", job);
    cr_log_info("slurm: cancelled job %s (match %s) in play", job, id);
    int status = -1;
    for (double end = e2e_now_ms() + 400000; e2e_now_ms() < end;) {
        int w;
        if (waitpid(run, &w, WNOHANG) == run) {
            status = WIFEXITED(w) ? WEXITSTATUS(w) : 128 + WTERMSIG(w);
            break;
        }
        usleep(200000);
    }
    if (status < 0) {
        kill(-run, SIGTERM);
        waitpid(run, NULL, 0);
    }
    FILE *f = fopen(log, "r");
    size_t ol = f ? fread(out, 1, sizeof out - 1, f) : 0;
    out[ol] = '\0';
    if (f)
        fclose(f);
    cr_log_info("slurm: 6 matches in %.1f s", (e2e_now_ms() - t0) / 1000);
    cr_assert_eq(status, 0, "the Slurm run: status %d:\n%s", status, out);
    cr_expect(strstr(out, "6 matches: 6 done, 0 failed, 7 started") != NULL, "%s", out);
    cr_assert_eq(e2e_tourn_check(sres, 6, why, sizeof why), 0, "%s", why);
    cr_expect_eq(e2e_tourn_attempts(sres), 7, "six matches, one twice");
    char p[600];
    json_error_t je;
    snprintf(p, sizeof p, "%s/jobs.json", sres);
    json_t *jobs = json_load_file(p, 0, &je);
    json_t *cancelled = json_object_get(json_object_get(jobs, "matches"), id);
    cr_expect_eq(json_integer_value(json_object_get(cancelled, "attempts")), 2);
    const char *reasons = json_string_value(json_object_get(cancelled, "reasons"));
    cr_expect(reasons && strstr(reasons, "CANCELLED"), "the cancelled attempt's reason: %s",
              reasons ? reasons : "none");
    json_decref(jobs);

    /* 2. again: nothing submitted */
    st = e2e_tourn_cmd(args, NULL, out, sizeof out, 120);
    cr_expect_eq(st, 0, "%s", out);
    cr_expect(strstr(out, "nothing to run") != NULL, "%s", out);
    cr_expect(strstr(out, "start ") == NULL, "the second run submitted something:\n%s", out);
    cr_expect_eq(e2e_tourn_attempts(sres), 7);
    char q2[4096];
    cr_expect_eq(e2e_sh("squeue -h -o %i", q2, sizeof q2), 0);
    cr_expect_str_eq(q2, "", "jobs in the queue after a run that had nothing to do: %s", q2);

    /* 3. the same file on the local backend, two at a time */
    const char *largs[] = { "run", file, "--out", lres, "--backend", "local", "--parallel", "2", NULL };
    t0 = e2e_now_ms();
    st = e2e_tourn_cmd(largs, NULL, out, sizeof out, 300);
    cr_log_info("local: 6 matches in %.1f s", (e2e_now_ms() - t0) / 1000);
    cr_assert_eq(st, 0, "%s", out);
    cr_assert_eq(e2e_tourn_check(lres, 6, why, sizeof why), 0, "%s", why);
    static char a[8192], b[8192];
    e2e_tourn_schedule_of(sres, a, sizeof a);
    e2e_tourn_schedule_of(lres, b, sizeof b);
    cr_expect_str_eq(a, b, "the matches, seeds and sides differ between the backends");
    /* the same games: standings.json byte for byte, every score, every game log */
    char ps[600], pl[600];
    size_t ls = 0, ll = 0;
    snprintf(ps, sizeof ps, "%s/standings.json", sres);
    snprintf(pl, sizeof pl, "%s/standings.json", lres);
    char *js = e2e_read_file(ps, &ls), *jl = e2e_read_file(pl, &ll);
    cr_assert(js && jl, "no standings.json");
    cr_expect(ls == ll && memcmp(js, jl, ls) == 0, "standings.json differ:\nslurm:\n%s\nlocal:\n%s",
              js, jl);
    free(js);
    free(jl);
    e2e_tourn_scores_of(sres, a, sizeof a);
    e2e_tourn_scores_of(lres, b, sizeof b);
    cr_expect_str_eq(a, b, "the scores differ between the backends");
    cr_log_info("scores (both backends):\n%s", a);
    cr_expect_eq(e2e_tourn_same_games(sres, lres, why, sizeof why), 0, "%s", why);
    /* played per team: the first two fields of each standings line, in name order */
    e2e_tourn_standings_of(sres, a, sizeof a);
    e2e_tourn_standings_of(lres, b, sizeof b);
    for (const char *t = "Alpha"; t; t = !strcmp(t, "Alpha") ? "Bravo" : !strcmp(t, "Bravo") ? "Charlie"
                                        : !strcmp(t, "Charlie") ? "Delta" : NULL) {
        char *x = strstr(a, t), *y = strstr(b, t);
        cr_assert(x && y);
        cr_expect_eq(atoi(x + strlen(t) + 1), 3, "%s played on Slurm", t);
        cr_expect_eq(atoi(y + strlen(t) + 1), 3, "%s played locally", t);
    }
    cr_log_info("standings (slurm):\n%s", a);
}
