/* tn_spec.c -- the tournament file (JSON; README "Tournaments and sweeps"): the teams
 * (name, start command template, cores), the format (round robin, double round robin,
 * round robin then knock-out, sweep), the server's parameters, the base seed, the retry
 * limit and the Kubernetes settings. Unknown keys and bad values are refused with one
 * line naming them, so a typo does not silently run another tournament. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tn.h"

#define DEFAULT_COMMAND "{bindir}/rcss-demoteam --host {host} --port {port} " \
                        "--coach-port {olcoach_port} --team {team}"

const char *tn_format_name(tn_format_t f)
{
    switch (f) {
    case TN_FMT_RR: return "round_robin";
    case TN_FMT_DRR: return "double_round_robin";
    case TN_FMT_RR_KO: return "round_robin_knockout";
    case TN_FMT_SWEEP: return "sweep";
    }
    return "?";
}

static int fail(char *err, size_t len, const char *what, const char *name)
{
    snprintf(err, len, what, name);
    return -1;
}

/* every key of o must be in keys (NULL-terminated) */
static int known_keys(json_t *o, const char *const *keys, const char *where, char *err, size_t len)
{
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v) {
        int ok = 0;
        for (int i = 0; keys[i]; i++)
            ok |= strcmp(k, keys[i]) == 0;
        if (!ok) {
            snprintf(err, len, "unknown key \"%s\" in %s", k, where);
            return -1;
        }
    }
    return 0;
}

static int valid_name(const char *n)
{
    size_t len = strlen(n);
    if (len == 0 || len >= TN_NAME_LEN)
        return 0;
    for (; *n; n++) {
        if (!isalnum((unsigned char)*n) && *n != '-' && *n != '+' && *n != '_')
            return 0;
    }
    return 1;
}

int tn_spec_team(const tn_spec_t *s, const char *name)
{
    for (int i = 0; i < s->nteams; i++) {
        if (strcmp(s->teams[i].name, name) == 0)
            return i;
    }
    return -1;
}

static int parse_teams(json_t *root, tn_spec_t *s, char *err, size_t len)
{
    json_t *teams = json_object_get(root, "teams");
    json_t *dcmd = json_object_get(root, "command"), *dcores = json_object_get(root, "cores");
    if (dcmd && !json_is_string(dcmd))
        return fail(err, len, "\"command\" must be a string%s", "");
    if (dcores && (!json_is_integer(dcores) || json_integer_value(dcores) < 0))
        return fail(err, len, "\"cores\" must be a whole number >= 0%s", "");
    if (!json_is_array(teams) || json_array_size(teams) < 2)
        return fail(err, len, "\"teams\" must be an array of at least two teams%s", "");
    s->nteams = (int)json_array_size(teams);
    s->teams = calloc((size_t)s->nteams, sizeof *s->teams);
    static const char *const keys[] = { "name", "command", "cores", NULL };
    for (int i = 0; i < s->nteams; i++) {
        json_t *t = json_array_get(teams, (size_t)i), *name = t, *cmd = dcmd, *cores = dcores;
        if (json_is_object(t)) {
            if (known_keys(t, keys, "a team", err, len) < 0)
                return -1;
            name = json_object_get(t, "name");
            if (json_object_get(t, "command"))
                cmd = json_object_get(t, "command");
            if (json_object_get(t, "cores"))
                cores = json_object_get(t, "cores");
        }
        if (!json_is_string(name) || !valid_name(json_string_value(name)))
            return fail(err, len, "team %s: a name of 1-15 letters, digits, '-', '+', '_' is needed",
                        json_is_string(name) ? json_string_value(name) : "?");
        snprintf(s->teams[i].name, TN_NAME_LEN, "%s", json_string_value(name));
        if (tn_spec_team(s, s->teams[i].name) != i)
            return fail(err, len, "team %s is named twice", s->teams[i].name);
        if (cmd && !json_is_string(cmd))
            return fail(err, len, "team %s: \"command\" must be a string", s->teams[i].name);
        s->teams[i].command = strdup(cmd ? json_string_value(cmd) : DEFAULT_COMMAND);
        if (cores && (!json_is_integer(cores) || json_integer_value(cores) < 0))
            return fail(err, len, "team %s: \"cores\" must be a whole number >= 0", s->teams[i].name);
        s->teams[i].cores = cores ? (int)json_integer_value(cores) : 1;
    }
    return 0;
}

static int parse_sweep(json_t *f, tn_spec_t *s, char *err, size_t len)
{
    json_t *l = json_object_get(f, "left"), *r = json_object_get(f, "right");
    json_t *n = json_object_get(f, "matches"), *seeds = json_object_get(f, "seeds");
    s->sweep_l = json_is_string(l) ? tn_spec_team(s, json_string_value(l)) : -1;
    s->sweep_r = json_is_string(r) ? tn_spec_team(s, json_string_value(r)) : -1;
    if (!l && !r && s->nteams == 2) {
        s->sweep_l = 0;
        s->sweep_r = 1;
    }
    if (s->sweep_l < 0 || s->sweep_r < 0 || s->sweep_l == s->sweep_r)
        return fail(err, len, "a sweep needs \"left\" and \"right\": two different teams%s", "");
    if (seeds && !json_is_array(seeds))
        return fail(err, len, "\"seeds\" must be an array of numbers%s", "");
    s->sweep_n = n ? (int)json_integer_value(n) : seeds ? (int)json_array_size(seeds) : 0;
    if (s->sweep_n < 1 || s->sweep_n > 100000 || (n && !json_is_integer(n)))
        return fail(err, len, "a sweep needs \"matches\": 1..100000%s", "");
    if (seeds) {
        if ((int)json_array_size(seeds) != s->sweep_n)
            return fail(err, len, "\"seeds\" must have one seed per match%s", "");
        s->sweep_seeds = calloc((size_t)s->sweep_n, sizeof *s->sweep_seeds);
        for (int i = 0; i < s->sweep_n; i++) {
            json_t *v = json_array_get(seeds, (size_t)i);
            if (!json_is_integer(v) || json_integer_value(v) < 0 ||
                json_integer_value(v) > 2147483647)
                return fail(err, len, "a seed must be a whole number 0..2147483647%s", "");
            s->sweep_seeds[i] = json_integer_value(v);
        }
    }
    return 0;
}

static int parse_format(json_t *root, tn_spec_t *s, char *err, size_t len)
{
    json_t *f = json_object_get(root, "format"), *type = f;
    if (json_is_object(f)) {
        static const char *const keys[] = { "type", "top", "left", "right", "matches", "seeds", NULL };
        if (known_keys(f, keys, "\"format\"", err, len) < 0)
            return -1;
        type = json_object_get(f, "type");
    }
    const char *t = json_is_string(type) ? json_string_value(type) : "round_robin";
    if (f && !json_is_string(type))
        return fail(err, len, "\"format\" must be a name or an object with \"type\"%s", "");
    if (!strcmp(t, "round_robin"))
        s->format = TN_FMT_RR;
    else if (!strcmp(t, "double_round_robin"))
        s->format = TN_FMT_DRR;
    else if (!strcmp(t, "round_robin_knockout") || !strcmp(t, "knockout"))
        s->format = TN_FMT_RR_KO;
    else if (!strcmp(t, "sweep"))
        s->format = TN_FMT_SWEEP;
    else
        return fail(err, len, "unknown format \"%s\" (round_robin, double_round_robin, "
                              "round_robin_knockout, sweep)", t);
    if (s->format == TN_FMT_RR_KO) {
        json_t *top = json_is_object(f) ? json_object_get(f, "top") : NULL;
        int n = top ? (int)json_integer_value(top) : 4;
        if (n < 2 || (n & (n - 1)) || n > s->nteams)
            return fail(err, len, "\"top\" must be a power of two, at least 2, at most the teams%s", "");
        s->ko_top = n;
    }
    if (s->format == TN_FMT_SWEEP)
        return parse_sweep(json_is_object(f) ? f : NULL, s, err, len);
    return 0;
}

/* one server parameter from the file as "server::name=value" */
static char *param_arg(const char *key, json_t *v)
{
    char val[512], *out;
    if (json_is_string(v))
        snprintf(val, sizeof val, "%s", json_string_value(v));
    else if (json_is_true(v) || json_is_false(v))
        snprintf(val, sizeof val, "%s", json_is_true(v) ? "true" : "false");
    else if (json_is_integer(v))
        snprintf(val, sizeof val, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        snprintf(val, sizeof val, "%.17g", json_real_value(v));
    else
        return NULL;
    int pre = strstr(key, "::") == NULL;
    size_t n = strlen(key) + strlen(val) + 16;
    out = malloc(n);
    if (out)
        snprintf(out, n, "%s%s=%s", pre ? "server::" : "", key, val);
    return out;
}

static int parse_server(json_t *root, tn_spec_t *s, char *err, size_t len)
{
    json_t *srv = json_object_get(root, "server");
    s->synch = 1;
    s->half_time = 300;
    s->halves = 2;
    s->extra_halves = 2;
    s->game_log = s->text_log = 1;
    if (!srv)
        return 0;
    static const char *const keys[] = { "synch_mode", "half_time", "halves", "extra_halves",
                                        "game_log", "text_log", "bind_address", "params", NULL };
    if (!json_is_object(srv) || known_keys(srv, keys, "\"server\"", err, len) < 0)
        return err[0] ? -1 : fail(err, len, "\"server\" must be an object%s", "");
    json_t *v;
    if ((v = json_object_get(srv, "synch_mode")))
        s->synch = json_is_true(v);
    if ((v = json_object_get(srv, "half_time")) && (!json_is_number(v) || json_number_value(v) <= 0))
        return fail(err, len, "\"half_time\" must be a number of seconds > 0%s", "");
    if (v)
        s->half_time = json_number_value(v);
    if ((v = json_object_get(srv, "halves")))
        s->halves = (int)json_integer_value(v);
    if ((v = json_object_get(srv, "extra_halves")))
        s->extra_halves = (int)json_integer_value(v);
    if (s->halves < 1 || s->extra_halves < 0)
        return fail(err, len, "\"halves\" must be >= 1 and \"extra_halves\" >= 0%s", "");
    if ((v = json_object_get(srv, "game_log")))
        s->game_log = json_is_true(v);
    if ((v = json_object_get(srv, "text_log")))
        s->text_log = json_is_true(v);
    if ((v = json_object_get(srv, "bind_address")))
        snprintf(s->bind, sizeof s->bind, "%s", json_string_value(v) ? json_string_value(v) : "");
    json_t *p = json_object_get(srv, "params");
    if (p && !json_is_object(p))
        return fail(err, len, "\"params\" must be an object of server parameters%s", "");
    if (p) {
        s->params = calloc(json_object_size(p) + 1, sizeof *s->params);
        const char *k;
        json_object_foreach(p, k, v) {
            char *a = param_arg(k, v);
            if (!a)
                return fail(err, len, "parameter %s: a string, number or boolean is needed", k);
            s->params[s->nparams++] = a;
        }
    }
    return 0;
}

static void parse_k8s(json_t *root, tn_spec_t *s)
{
    json_t *k = json_object_get(root, "k8s");
    const char *img = json_string_value(json_object_get(k, "image"));
    const char *claim = json_string_value(json_object_get(k, "claim"));
    const char *ns = json_string_value(json_object_get(k, "namespace"));
    snprintf(s->k8s_image, sizeof s->k8s_image, "%s", img ? img : "rcssserver-shm:latest");
    snprintf(s->k8s_claim, sizeof s->k8s_claim, "%s", claim ? claim : "rcss-tournament-results");
    snprintf(s->k8s_namespace, sizeof s->k8s_namespace, "%s", ns ? ns : "");
}

int tn_spec_parse(const char *text, tn_spec_t *s, char *err, size_t len)
{
    memset(s, 0, sizeof *s);
    err[0] = '\0';
    json_error_t je;
    json_t *root = json_loads(text, 0, &je);
    if (!json_is_object(root)) {
        snprintf(err, len, "not a JSON object (line %d: %s)", je.line, root ? "" : je.text);
        json_decref(root);
        return -1;
    }
    static const char *const keys[] = { "name", "seed", "command", "cores", "teams", "format",
                                        "server", "timeout", "retries", "k8s", "comment", NULL };
    int rc = known_keys(root, keys, "the file", err, len);
    const char *name = json_string_value(json_object_get(root, "name"));
    snprintf(s->name, sizeof s->name, "%s", name ? name : "tournament");
    json_t *seed = json_object_get(root, "seed");
    s->seed = seed ? (unsigned long long)json_integer_value(seed) : 1;
    json_t *to = json_object_get(root, "timeout"), *re = json_object_get(root, "retries");
    s->timeout_s = to ? (int)json_integer_value(to) : 3600;
    s->retries = re ? (int)json_integer_value(re) : 2;
    if (rc == 0 && (s->timeout_s <= 0 || s->retries < 0))
        rc = fail(err, len, "\"timeout\" must be > 0 s and \"retries\" >= 0%s", "");
    if (rc == 0)
        rc = parse_teams(root, s, err, len);
    if (rc == 0)
        rc = parse_format(root, s, err, len);
    if (rc == 0)
        rc = parse_server(root, s, err, len);
    parse_k8s(root, s);
    s->text = strdup(text);
    json_decref(root);
    return rc;
}

int tn_spec_load(const char *path, tn_spec_t *s, char *err, size_t len)
{
    char *text = tn_read_file(path, NULL);
    if (!text) {
        memset(s, 0, sizeof *s);
        return fail(err, len, "cannot read %s", path);
    }
    int rc = tn_spec_parse(text, s, err, len);
    free(text);
    return rc;
}

void tn_spec_free(tn_spec_t *s)
{
    for (int i = 0; i < s->nteams && s->teams; i++)
        free(s->teams[i].command);
    free(s->teams);
    for (int i = 0; i < s->nparams; i++)
        free(s->params[i]);
    free(s->params);
    free(s->sweep_seeds);
    free(s->text);
    memset(s, 0, sizeof *s);
}
