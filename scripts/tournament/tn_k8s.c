/* tn_k8s.c -- `rcss-tournament k8s FILE [--out DIR]`: the same tournament as Kubernetes
 * manifests (JSON, which kubectl reads as it reads YAML): a ConfigMap holding the file,
 * and one Indexed Job per round (completionMode Indexed, completions = the round's
 * matches); pod I of round R runs `rcss-tournament match /results --file ... --round R
 * --index I` (I = $JOB_COMPLETION_INDEX), which plays that match, server and both teams
 * in the pod, its results on the volume /results (a PersistentVolumeClaim every pod
 * mounts). A knock-out round's pods find their teams in /results, so its Job is applied
 * after the round before it completed. Each pod requests (and is limited to) the CPUs
 * of its match: 1 for the server plus the teams' cores. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tn.h"

#define FILE_DIR    "/etc/rcss-tournament"
#define RESULTS_DIR "/results"

/* a DNS-1123 label from the tournament's name */
static void k8s_name(const tn_spec_t *s, char *out, size_t len)
{
    size_t n = 0;
    for (const char *p = s->name; *p && n + 1 < len && n < 40; p++) {
        char c = (char)tolower((unsigned char)*p);
        out[n++] = isalnum((unsigned char)c) ? c : '-';
    }
    while (n > 0 && out[n - 1] == '-')
        n--;
    out[n] = '\0';
    if (n == 0 || !isalnum((unsigned char)out[0]))
        snprintf(out, len, "tournament");
}

static json_t *labels(const char *name, int round)
{
    json_t *l = json_pack("{s:s, s:s}", "app.kubernetes.io/name", "rcss-tournament",
                          "rcss-tournament/name", name);
    if (round > 0) {
        char r[16];
        snprintf(r, sizeof r, "%d", round);
        json_object_set_new(l, "rcss-tournament/round", json_string(r));
    }
    return l;
}

static json_t *metadata(const tn_spec_t *s, const char *objname, const char *name, int round)
{
    json_t *m = json_pack("{s:s, s:o}", "name", objname, "labels", labels(name, round));
    if (s->k8s_namespace[0])
        json_object_set_new(m, "namespace", json_string(s->k8s_namespace));
    return m;
}

json_t *tn_k8s_configmap(const tn_spec_t *s)
{
    char name[64], obj[80];
    k8s_name(s, name, sizeof name);
    snprintf(obj, sizeof obj, "%s-file", name);
    return json_pack("{s:s, s:s, s:o, s:{s:s}}", "apiVersion", "v1", "kind", "ConfigMap",
                     "metadata", metadata(s, obj, name, 0), "data", "tournament.json", s->text);
}

json_t *tn_k8s_job(const tn_spec_t *s, const tn_sched_t *t, int round)
{
    char name[64], obj[96], cmd[512], cpus[16];
    int n = 0, most = 1;
    for (int i = 0; i < t->n; i++) {
        if (t->m[i].round != round)
            continue;
        n++;
        int c = tn_plan_cpus(s, &t->m[i]);
        most = c > most ? c : most;
    }
    if (n == 0)
        return NULL;
    k8s_name(s, name, sizeof name);
    snprintf(obj, sizeof obj, "%s-round-%02d", name, round);
    snprintf(cmd, sizeof cmd, "exec rcss-tournament match %s --file %s/tournament.json --round %d "
                              "--index \"$JOB_COMPLETION_INDEX\"", RESULTS_DIR, FILE_DIR, round);
    snprintf(cpus, sizeof cpus, "%d", most);
    char cm[96];
    snprintf(cm, sizeof cm, "%s-file", name);
    json_t *container = json_pack(
        "{s:s, s:s, s:[s, s, s], s:{s:{s:s}, s:{s:s}}, s:[{s:s, s:s, s:b}, {s:s, s:s}]}",
        "name", "match", "image", s->k8s_image, "command", "/bin/sh", "-c", cmd,
        "resources", "requests", "cpu", cpus, "limits", "cpu", cpus,
        "volumeMounts", "name", "tournament", "mountPath", FILE_DIR, "readOnly", 1,
        "name", "results", "mountPath", RESULTS_DIR);
    json_t *pod = json_pack(
        "{s:{s:o}, s:{s:s, s:[o], s:[{s:s, s:{s:s}}, {s:s, s:{s:s}}]}}",
        "metadata", "labels", labels(name, round),
        "spec", "restartPolicy", "Never", "containers", container,
        "volumes", "name", "tournament", "configMap", "name", cm,
        "name", "results", "persistentVolumeClaim", "claimName", s->k8s_claim);
    return json_pack("{s:s, s:s, s:o, s:{s:s, s:i, s:i, s:i, s:o}}", "apiVersion", "batch/v1",
                     "kind", "Job", "metadata", metadata(s, obj, name, round), "spec",
                     "completionMode", "Indexed", "completions", n, "parallelism", n,
                     "backoffLimit", n * (s->retries > 0 ? s->retries : 0), "template", pod);
}

int tn_k8s_write(const tn_spec_t *s, const char *outdir)
{
    tn_sched_t t;
    if (tn_sched_build(s, &t) < 0)
        return -1;
    json_t *list = json_pack("{s:s, s:s, s:[o]}", "apiVersion", "v1", "kind", "List", "items",
                             tn_k8s_configmap(s));
    for (int r = 1; r <= t.rounds; r++) {
        json_t *job = tn_k8s_job(s, &t, r);
        if (job)
            json_array_append_new(json_object_get(list, "items"), job);
    }
    int rc = 0;
    if (!outdir) {
        char *text = json_dumps(list, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        rc = text ? 0 : -1;
        if (text)
            printf("%s\n", text);
        free(text);
    } else if (tn_mkdirs(outdir) < 0) {
        fprintf(stderr, "rcss-tournament: cannot create %s\n", outdir);
        rc = -1;
    } else {
        json_t *items = json_object_get(list, "items");
        for (size_t i = 0; i < json_array_size(items) && rc == 0; i++) {
            char path[TN_PATH_LEN];
            if (i == 0)
                snprintf(path, sizeof path, "%s/00-configmap.json", outdir);
            else
                snprintf(path, sizeof path, "%s/round-%02d.json", outdir, (int)i);
            rc = tn_write_json(path, json_array_get(items, i));
            if (rc == 0)
                printf("%s\n", path);
        }
    }
    json_decref(list);
    tn_sched_free(&t);
    return rc;
}
