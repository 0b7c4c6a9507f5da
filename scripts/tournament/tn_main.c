/* tn_main.c -- rcss-tournament's command line:
 *   rcss-tournament run FILE --out DIR [--backend local|slurm] [--parallel K] [--retry-failed]
 *   rcss-tournament schedule FILE            every match: id, round, teams, seed
 *   rcss-tournament k8s FILE [--out DIR]     Kubernetes manifests (stdout: one List)
 *   rcss-tournament match DIR ID             one match (what the backends start)
 *   rcss-tournament match DIR --file FILE --round R --index I    the same, for a k8s pod
 * Exit status: run 0 all done, 1 some failed, 2 a bad file or DIR, 130 interrupted;
 * match: the server's status (1 a setup error; the --file form 1 also when the result
 * does not count, so Kubernetes retries the pod). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tn.h"

static int usage(void)
{
    fprintf(stderr,
            "usage: rcss-tournament run FILE --out DIR [--backend local|slurm] [--parallel K]\n"
            "                           [--retry-failed] [--quiet]\n"
            "       rcss-tournament schedule FILE\n"
            "       rcss-tournament k8s FILE [--out DIR]\n"
            "       rcss-tournament match DIR ID\n"
            "       rcss-tournament match DIR --file FILE --round R --index I\n");
    return 2;
}

static int load(const char *file, tn_spec_t *s)
{
    char err[512];
    if (tn_spec_load(file, s, err, sizeof err) < 0) {
        fprintf(stderr, "rcss-tournament: %s: %s\n", file, err);
        tn_spec_free(s);
        return -1;
    }
    return 0;
}

static int cmd_run(int argc, char **argv)
{
    const char *file = NULL, *out = NULL, *backend = "local";
    int parallel = 0;
    tn_run_opts_t o = { 0 };
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--out") && v) out = argv[++i];
        else if (!strcmp(a, "--backend") && v) backend = argv[++i];
        else if (!strcmp(a, "--parallel") && v) parallel = atoi(argv[++i]);
        else if (!strcmp(a, "--retry-failed")) o.retry_failed = 1;
        else if (!strcmp(a, "--quiet")) o.quiet = 1;
        else if (a[0] != '-' && !file) file = a;
        else return usage();
    }
    if (!file || !out || (strcmp(backend, "local") && strcmp(backend, "slurm")))
        return usage();
    tn_spec_t s;
    if (load(file, &s) < 0)
        return 2;
    char dir[PATH_MAX];
    if (tn_mkdirs(out) < 0 || !realpath(out, dir)) {
        fprintf(stderr, "rcss-tournament: cannot create %s\n", out);
        tn_spec_free(&s);
        return 2;
    }
    tn_backend_t b;
    if (!strcmp(backend, "slurm"))
        tn_slurm_init(&b, parallel);
    else
        tn_local_init(&b, parallel > 0 ? parallel : 1);
    int rc = tn_run(&s, dir, &b, &o);
    tn_spec_free(&s);
    return rc;
}

static int cmd_schedule(int argc, char **argv)
{
    tn_spec_t s;
    tn_sched_t t;
    if (argc != 3)
        return usage();
    if (load(argv[2], &s) < 0)
        return 2;
    if (tn_sched_build(&s, &t) < 0) {
        tn_spec_free(&s);
        return 2;
    }
    for (int i = 0; i < t.n; i++) {
        const tn_match_t *m = &t.m[i];
        printf("%-10s round %2d  %-15s vs %-15s seed %d\n", m->id, m->round,
               m->left >= 0 ? s.teams[m->left].name : m->from_l,
               m->right >= 0 ? s.teams[m->right].name : m->from_r, m->seed);
    }
    tn_sched_free(&t);
    tn_spec_free(&s);
    return 0;
}

static int cmd_k8s(int argc, char **argv)
{
    const char *file = NULL, *out = NULL;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else if (argv[i][0] != '-' && !file) file = argv[i];
        else return usage();
    }
    tn_spec_t s;
    if (!file)
        return usage();
    if (load(file, &s) < 0)
        return 2;
    int rc = tn_k8s_write(&s, out) < 0 ? 2 : 0;
    tn_spec_free(&s);
    return rc;
}

/* match DIR --file FILE --round R --index I: plan the match from the file and DIR's
 * results, run it, then bring DIR's standings and page up to date */
static int match_from_file(const char *dir, const char *file, int round, int index)
{
    tn_spec_t s;
    tn_sched_t t;
    if (load(file, &s) < 0)
        return 1;
    if (tn_sched_build(&s, &t) < 0) {
        tn_spec_free(&s);
        return 1;
    }
    tn_plan_resolve(&s, &t, dir);
    tn_match_t *m = tn_sched_at(&t, round, index);
    int rc = 1;
    if (!m)
        fprintf(stderr, "rcss-tournament: no match %d of round %d\n", index, round);
    else if (m->left < 0 || m->right < 0)
        fprintf(stderr, "rcss-tournament: %s: its teams are not known yet (%s, %s): run its "
                        "round after the round before it\n", m->id, m->from_l, m->from_r);
    else if (tn_plan_write_match(&s, m, dir) < 0)
        fprintf(stderr, "rcss-tournament: cannot write the match into %s\n", dir);
    else {
        char path[TN_PATH_LEN];
        snprintf(path, sizeof path, "%s/tournament.json", dir);
        if (!tn_exists(path))
            tn_write_atomic(path, s.text);
        rc = tn_match_run(dir, m->id);
        tn_outcome_t o;
        if (rc == 0 && tn_plan_outcome(&s, m, dir, &o) != 1) {
            fprintf(stderr, "rcss-tournament: %s: the result does not count: %s\n", m->id, o.why);
            rc = 1;
        }
        tn_state_t st = { 0 };
        tn_plan_resolve(&s, &t, dir);
        tn_plan_write_standings(&s, &t, dir);
        tn_html_write(&s, &t, &st, dir);
    }
    tn_sched_free(&t);
    tn_spec_free(&s);
    return rc;
}

static int cmd_match(int argc, char **argv)
{
    if (argc == 4)
        return tn_match_run(argv[2], argv[3]);
    const char *file = NULL;
    int round = -1, index = -1;
    for (int i = 3; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--file")) file = argv[i + 1];
        else if (!strcmp(argv[i], "--round")) round = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--index")) index = atoi(argv[i + 1]);
        else return usage();
    }
    if (argc < 3 || !file || round < 1 || index < 0 || (argc - 3) % 2)
        return usage();
    return match_from_file(argv[2], file, round, index);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    if (!strcmp(argv[1], "run"))
        return cmd_run(argc, argv);
    if (!strcmp(argv[1], "schedule"))
        return cmd_schedule(argc, argv);
    if (!strcmp(argv[1], "k8s"))
        return cmd_k8s(argc, argv);
    if (!strcmp(argv[1], "match"))
        return cmd_match(argc, argv);
    return usage();
}
