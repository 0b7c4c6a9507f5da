/* cf_main.c -- rcss-conform, the differential conformance suite: every scenario of a
 * directory run against this server and the reference (or twice against this server,
 * a determinism check), the differences printed, then one line
 * "conformance: N scenarios, M differences"; exit 0 only when M is 0, 2 on a usage or
 * scenario error. */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cf_cmp.h"
#include "cf_mem.h"
#include "cf_dev.h"
#include "cf_proc.h"
#include "cf_run.h"
#include "cf_scn.h"

typedef struct opts {
    const char *ours, *ref, *dir, *devfile, *keep, *only;
    int         verbose, max_show;
    int         ref_twice;      /* the reference against itself (what is random in it) */
} opts_t;

static void usage(void)
{
    fprintf(stderr,
            "usage: rcss-conform --ours PATH [--ref PATH] [--scenarios DIR] [--deviations FILE]\n"
            "                    [--only NAME[,NAME...]] [--keep DIR] [--show N] [-v]\n"
            "  --ours PATH        this server's rcssserver\n"
            "  --ref PATH         the reference rcssserver; without it every scenario runs\n"
            "                     twice against --ours (a determinism check)\n"
            "  --scenarios DIR    the *.scn files (default test/conformance/scenarios)\n"
            "  --deviations FILE  intended deviations (default test/conformance/deviations)\n"
            "  --only LIST        run only these scenarios (comma-separated names)\n"
            "  --keep DIR         keep each run's transcripts, logs and output under DIR\n"
            "  --show N           differences shown per stream (default 4)\n"
            "  --full             whole lines, not excerpts around the first difference\n"
            "  --ref-twice        run the reference twice instead (what differs between two of\n"
            "                     its runs is what the scenarios must not depend on)\n"
            "  -v                 progress and every timing comparison\n");
}

static int parse_opts(int argc, char **argv, opts_t *o)
{
    *o = (opts_t){ .dir = "test/conformance/scenarios",
                   .devfile = "test/conformance/deviations", .max_show = 4 };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-v") == 0) {
            o->verbose = 1;
            continue;
        }
        if (strcmp(a, "--full") == 0) {
            cf_cmp_full_lines = 1;
            continue;
        }
        if (strcmp(a, "--ref-twice") == 0) {
            o->ref_twice = 1;
            continue;
        }
        if (!v)
            return -1;
        if (strcmp(a, "--ours") == 0)
            o->ours = v;
        else if (strcmp(a, "--ref") == 0)
            o->ref = *v ? v : NULL;
        else if (strcmp(a, "--scenarios") == 0)
            o->dir = v;
        else if (strcmp(a, "--deviations") == 0)
            o->devfile = v;
        else if (strcmp(a, "--only") == 0)
            o->only = v;
        else if (strcmp(a, "--keep") == 0)
            o->keep = v;
        else if (strcmp(a, "--show") == 0)
            o->max_show = atoi(v);
        else
            return -1;
        i++;
    }
    if (o->ref_twice && !o->ref)
        return -1;
    if (o->ref_twice && !o->ours)
        o->ours = o->ref;
    return o->ours ? 0 : -1;
}

static int selected(const opts_t *o, const char *name)
{
    if (!o->only)
        return 1;
    size_t n = strlen(name);
    for (const char *p = o->only; *p; ) {
        size_t k = strcspn(p, ",");
        if (k == n && strncmp(p, name, n) == 0)
            return 1;
        p += k + (p[k] == ',');
    }
    return 0;
}

static int scn_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the scenario files of dir, sorted; returns the count */
static int list_scenarios(const char *dir, char ***out)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    *out = NULL;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".scn") != 0)
            continue;
        *out = cf_xrealloc(*out, (size_t)(n + 1) * sizeof **out);
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        (*out)[n++] = cf_xstrdup(path);
    }
    closedir(d);
    qsort(*out, (size_t)n, sizeof **out, scn_cmp);
    return n;
}

static void keep_run(const opts_t *o, const cf_scn_t *s, const cf_run_t *r)
{
    char dir[1024];
    mkdir(o->keep, 0755);
    snprintf(dir, sizeof dir, "%s/%s", o->keep, s->name);
    if (cf_run_dump(r, dir) < 0)
        fprintf(stderr, "rcss-conform: cannot write transcripts into %s\n", dir);
    else if (r->dir[0])
        fprintf(stderr, "rcss-conform: %s %s: server directory %s\n", s->name, r->label, r->dir);
}

int main(int argc, char **argv)
{
    opts_t o;
    if (parse_opts(argc, argv, &o) < 0) {
        usage();
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (access(o.ours, X_OK) != 0 || (o.ref && access(o.ref, X_OK) != 0)) {
        fprintf(stderr, "rcss-conform: %s is not an executable\n",
                access(o.ours, X_OK) != 0 ? o.ours : o.ref);
        return 2;
    }
    char ours_abs[4096], ref_abs[4096];
    if (!realpath(o.ours, ours_abs) || (o.ref && !realpath(o.ref, ref_abs))) {
        fprintf(stderr, "rcss-conform: cannot resolve %s\n", o.ours);
        return 2;
    }
    o.ours = ours_abs;
    if (o.ref)
        o.ref = ref_abs;
    char err[512];
    cf_devs_t devs = { 0 };
    if (access(o.devfile, R_OK) == 0 && cf_dev_load(&devs, o.devfile, err, sizeof err) < 0) {
        fprintf(stderr, "rcss-conform: %s\n", err);
        return 2;
    }
    char **files;
    int nf = list_scenarios(o.dir, &files);
    if (nf <= 0) {
        fprintf(stderr, "rcss-conform: no scenarios in %s\n", o.dir);
        return 2;
    }
    cf_server_t a = { .exe = o.ours, .is_ref = 0, .label = o.ref ? "ours" : "run1" };
    if (o.ref_twice)
        a = (cf_server_t){ .exe = o.ref, .is_ref = 1, .label = "ref1" };
    cf_server_t b = { .exe = o.ref ? o.ref : o.ours, .is_ref = o.ref != NULL,
                      .label = o.ref_twice ? "ref2" : o.ref ? "ref" : "run2" };
    printf("conformance: %s (%s) against %s (%s)\n", a.exe, a.label, b.exe, b.label);
    int nscn = 0, bad = 0;
    cf_cmp_count_t total = { 0 };
    long long t0 = cf_now_us();
    for (int i = 0; i < nf; i++) {
        cf_scn_t s;
        if (cf_scn_load(&s, files[i], err, sizeof err) < 0) {
            fprintf(stderr, "rcss-conform: %s\n", err);
            bad = 1;
            continue;
        }
        if (!selected(&o, s.name) || (s.noref && o.ref)) {
            cf_scn_free(&s);
            continue;
        }
        nscn++;
        if (o.verbose)
            fprintf(stderr, "rcss-conform: %s ...\n", s.name);
        cf_run_t ra, rb;
        cf_run_scenario(&s, &a, &ra, o.keep != NULL, o.verbose);
        cf_run_scenario(&s, &b, &rb, o.keep != NULL, o.verbose);
        cf_cmp_count_t c = { 0 };
        /* the report of one scenario: header, then its differences */
        char *buf = NULL;
        size_t blen = 0;
        FILE *mem = open_memstream(&buf, &blen);
        cf_cmp_scenario(&s, &ra, &rb, &devs, mem, o.max_show, o.verbose, &c);
        fclose(mem);
        char devnote[32] = "";
        if (c.devs)
            snprintf(devnote, sizeof devnote, ", %d deviation%s", c.devs, c.devs == 1 ? "" : "s");
        printf("== %-22s %3d difference%s%s  (%s %.1f s, %s %.1f s)  %s\n", s.name, c.diffs,
               c.diffs == 1 ? "" : "s", devnote, a.label, ra.secs, b.label, rb.secs, s.desc);
        fputs(buf, stdout);
        free(buf);
        total.diffs += c.diffs;
        total.devs += c.devs;
        if (o.keep) {
            keep_run(&o, &s, &ra);
            keep_run(&o, &s, &rb);
        }
        cf_run_free(&ra);
        cf_run_free(&rb);
        cf_scn_free(&s);
    }
    for (int i = 0; i < devs.n; i++)
        if (!devs.d[i].used && !o.only && o.ref && !o.ref_twice)
            printf("note: deviation of line %d never matched (%s %s -- %s)\n", devs.d[i].line,
                   devs.d[i].scn, devs.d[i].stream, devs.d[i].reason);
    for (int i = 0; i < nf; i++)
        free(files[i]);
    free(files);
    cf_dev_free(&devs);
    printf("(%d deviations, %.0f s)\n", total.devs, (double)(cf_now_us() - t0) / 1e6);
    printf("conformance: %d scenarios, %d differences\n", nscn, total.diffs);
    if (bad)
        return 2;
    return total.diffs ? 1 : 0;
}
