/* conf3d.c -- the 3D server's parameter table and its loading (conf3d.h). The grammar is
 * conf.c's (a conf_sink_t); this file keeps the table, the type and range checks, the
 * help listing and the defaults file. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "conf3d.h"
#include "playmode.h"

#define CONF3D_VERSION "1.0.0"

const conf3d_def_t conf3d_defs[P3_COUNT] = {
#define PARAM3D(mod, name, type, def, lo, hi, help) \
    { #mod, #name, PARAM_##type, def, lo, hi, help },
#include "params3d.def"
#undef PARAM3D
};

const conf3d_id_t conf3d_game_vars[] = {
    P3_FieldLength, P3_FieldWidth, P3_FieldHeight, P3_GoalWidth, P3_GoalDepth,
    P3_GoalHeight, P3_BorderSize, P3_FreeKickDistance, P3_WaitBeforeKickOff,
    P3_AgentMass, P3_AgentRadius, P3_AgentMaxSpeed, P3_BallRadius, P3_BallMass,
    P3_RuleGoalPauseTime, P3_RuleKickInPauseTime, P3_RuleHalfTime,
};
const int conf3d_n_game_vars = (int)(sizeof conf3d_game_vars / sizeof conf3d_game_vars[0]);

void conf3d_defaults(conf3d_t *c)
{
    memset(c, 0, sizeof *c);
    for (int i = 0; i < P3_COUNT; i++) {
        const conf3d_def_t *d = &conf3d_defs[i];
        if (d->type == PARAM_STR)
            snprintf(c->str[i], CONF_STR_LEN, "%s", d->defval);
        else if (d->type == PARAM_BOOL)
            c->num[i] = strcmp(d->defval, "true") == 0;
        else
            c->num[i] = strtod(d->defval, NULL);
    }
}

int conf3d_lookup(const char *module, const char *name)
{
    for (int i = 0; i < P3_COUNT; i++) {
        if (strcmp(conf3d_defs[i].module, module) == 0 && strcmp(conf3d_defs[i].name, name) == 0)
            return i;
    }
    return -1;
}

static int module_known(const char *m)
{
    return strcmp(m, "soccer") == 0 || strcmp(m, "server") == 0;
}

static const char *type_name(param_type_t t)
{
    static const char *const n[] = { "int", "bool", "real", "string" };
    return (unsigned)t < 4 ? n[t] : "?";
}

/* The number v for a parameter of type t from a value of kind k; -1 with msg on a type
 * mismatch. */
static int coerce(const conf3d_def_t *d, int kind, double *v, const char *value, char *msg,
                  size_t msglen)
{
    const char *need = NULL;
    if (d->type == PARAM_BOOL && kind != CONF_VAL_BOOL
        && !(kind == CONF_VAL_INT && (*v == 0 || *v == 1)))
        need = "a bool (on, off, true, false, 0 or 1)";
    else if (d->type == PARAM_INT && kind != CONF_VAL_INT)
        need = "an int";
    else if (d->type == PARAM_REAL && kind != CONF_VAL_INT && kind != CONF_VAL_REAL)
        need = "a number";
    if (need) {
        snprintf(msg, msglen, "'%s::%s' (%s) needs %s, got '%s'", d->module, d->name,
                 type_name(d->type), need, value);
        return -1;
    }
    return 0;
}

int conf3d_set(conf3d_t *c, const char *module, const char *name, const char *value,
               int quoted, char *msg, size_t msglen)
{
    if (!module_known(module)) {
        snprintf(msg, msglen, "unknown module '%s'", module);
        return -1;
    }
    if (strcmp(name, "version") == 0)
        return 0; /* files written by conf3d_write carry it; any version is read */
    int id = conf3d_lookup(module, name);
    if (id < 0) {
        snprintf(msg, msglen, "'%s' has no parameter called '%s'", module, name);
        return -1;
    }
    const conf3d_def_t *d = &conf3d_defs[id];
    if (d->type == PARAM_STR) {
        if (strlen(value) >= CONF_STR_LEN) {
            snprintf(msg, msglen, "'%s::%s' needs at most %d characters", module, name,
                     CONF_STR_LEN - 1);
            return -1;
        }
        snprintf(c->str[id], CONF_STR_LEN, "%s", value);
        return 0;
    }
    double v = 0;
    int kind = conf_value_kind(value, quoted, &v);
    if (coerce(d, kind, &v, value, msg, msglen) < 0)
        return -1;
    if ((!isnan(d->lo) && v < d->lo) || (!isnan(d->hi) && v > d->hi)) {
        char lo[32], hi[32];
        fmt_real(lo, sizeof lo, d->lo);
        fmt_real(hi, sizeof hi, d->hi);
        snprintf(msg, msglen, "'%s::%s' must be between %s and %s, got '%s'", module, name,
                 lo, hi, value);
        return -1;
    }
    c->num[id] = v;
    return 0;
}

int conf3d_format_value(const conf3d_t *c, int id, char *buf, size_t len)
{
    if (id < 0 || id >= P3_COUNT) {
        if (len)
            buf[0] = '\0';
        return 0;
    }
    switch (conf3d_defs[id].type) {
    case PARAM_INT:
        return snprintf(buf, len, "%lld", (long long)c->num[id]);
    case PARAM_BOOL:
        return snprintf(buf, len, "%s", c->num[id] != 0 ? "true" : "false");
    case PARAM_REAL:
        return fmt_real(buf, len, c->num[id]);
    case PARAM_STR:
    default:
        return snprintf(buf, len, "\"%s\"", c->str[id]);
    }
}

/* Append one formatted piece; keeps *used within len. */
static void put(char *buf, size_t len, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
    if (!len || *used + 1 >= len) {
        *used += 1;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *used, len - *used, fmt, ap);
    va_end(ap);
    if (n > 0)
        *used += (size_t)n;
}

/* help: module NULL = usage; else every parameter of module with type, value, meaning */
static int conf3d_help(void *ctx, const char *module, char *buf, size_t len)
{
    const conf3d_t *c = ctx;
    size_t used = 0;
    if (!module) {
        snprintf(buf, len,
                 "usage: rcssserver3d [[-[-]]module::Name=value | [-[-]]include=FILE]...\n"
                 "modules: soccer (world and rules), server (processes)\n"
                 "  help                 this text\n"
                 "  module::help         every parameter of a module, type, value and meaning\n"
                 "  include=FILE         read a configuration file\n"
                 "file: $RCSS3D_CONF_DIR (default ~/.rcssserver3d)/" CONF3D_FILE "\n");
        return 0;
    }
    if (!module_known(module))
        return -1;
    buf[0] = '\0';
    put(buf, len, &used, "%s options:\n", module);
    for (int i = 0; i < P3_COUNT; i++) {
        const conf3d_def_t *d = &conf3d_defs[i];
        if (strcmp(d->module, module) != 0)
            continue;
        char val[CONF_STR_LEN + 8];
        conf3d_format_value(c, i, val, sizeof val);
        put(buf, len, &used, "  %s::%s = %s (%s) %s\n", d->module, d->name, val,
            type_name(d->type), d->help);
    }
    return 0;
}

static int conf3d_assign(void *ctx, const char *module, const char *name, const char *value,
                         int quoted, char *msg, size_t msglen)
{
    return conf3d_set(ctx, module, name, value, quoted, msg, msglen);
}

int conf3d_parse_text(conf3d_t *c, const char *text, const char *origin, char *err,
                      size_t errlen)
{
    conf_sink_t sink = { conf3d_assign, conf3d_help, c };
    return conf_sink_parse_text(&sink, text, origin, NULL, err, errlen);
}

int conf3d_parse_file(conf3d_t *c, const char *path, int optional, char *err, size_t errlen)
{
    conf_sink_t sink = { conf3d_assign, conf3d_help, c };
    return conf_sink_parse_file(&sink, path, optional, err, errlen);
}

int conf3d_check(const conf3d_t *c, char *err, size_t errlen)
{
    if (conf3d_int(c, P3_agent_port) == conf3d_int(c, P3_monitor_port)) {
        snprintf(err, errlen, "server::agent_port and server::monitor_port are both %d",
                 conf3d_int(c, P3_agent_port));
        return -1;
    }
    if (conf3d_real(c, P3_GoalWidth) + 2 * conf3d_real(c, P3_GoalPostRadius)
        >= conf3d_real(c, P3_FieldWidth)) {
        snprintf(err, errlen, "soccer::GoalWidth does not fit soccer::FieldWidth");
        return -1;
    }
    if (conf3d_real(c, P3_FieldHeight) <= conf3d_real(c, P3_GoalHeight)
                                          + 2 * conf3d_real(c, P3_GoalPostRadius)) {
        snprintf(err, errlen, "soccer::FieldHeight is below the crossbar");
        return -1;
    }
    return 0;
}

int conf3d_write(const conf3d_t *c, char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    put(buf, len, &used,
        "# rcssserver3d configuration: module::Name = value (see `rcssserver3d soccer::help`).\n"
        "# soccer:: the world and the rules, server:: the processes. Command-line arguments\n"
        "# of the same form override this file.\n"
        "soccer::version = \"" CONF3D_VERSION "\"\n");
    const char *mod = "";
    for (int i = 0; i < P3_COUNT; i++) {
        const conf3d_def_t *d = &conf3d_defs[i];
        char val[CONF_STR_LEN + 8];
        if (strcmp(mod, d->module) != 0) {
            mod = d->module;
            put(buf, len, &used, "\n");
        }
        conf3d_format_value(c, i, val, sizeof val);
        put(buf, len, &used, "%s::%s = %s  # %s\n", d->module, d->name, val, d->help);
    }
    return (int)used;
}

/* Write the defaults to path (creating its directory) if no file is there. 1 written,
 * 0 already there, -1 error (err filled). */
static int write_defaults(const char *dir, const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return 0;
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "mkdir(\"%s\") failed: %s", dir, strerror(errno));
        return -1;
    }
    static conf3d_t defaults;
    static char text[32768];
    conf3d_defaults(&defaults);
    int n = conf3d_write(&defaults, text, sizeof text);
    if (n < 0 || (size_t)n >= sizeof text) {
        snprintf(err, errlen, "the default configuration does not fit its buffer");
        return -1;
    }
    FILE *f = fopen(path, "wx"); /* x: never overwrite a file that appeared meanwhile */
    if (!f)
        return errno == EEXIST ? 0 : (snprintf(err, errlen, "cannot write '%s': %s", path,
                                               strerror(errno)), -1);
    size_t w = fwrite(text, 1, (size_t)n, f);
    if (fclose(f) != 0 || w != (size_t)n) {
        snprintf(err, errlen, "cannot write '%s'", path);
        return -1;
    }
    return 1;
}

int conf3d_load(conf3d_t *c, int argc, char **argv, char *err, size_t errlen, char *note,
                size_t notelen)
{
    char dir[PATH_MAX], path[PATH_MAX + 32];
    const char *env = getenv("RCSS3D_CONF_DIR"), *home = getenv("HOME");
    conf3d_defaults(c);
    if (note && notelen)
        note[0] = '\0';
    dir[0] = '\0';
    if (env && *env)
        snprintf(dir, sizeof dir, "%s", env);
    else if (home && *home)
        snprintf(dir, sizeof dir, "%s/.rcssserver3d", home);
    if (dir[0]) {
        snprintf(path, sizeof path, "%s/" CONF3D_FILE, dir);
        int w = write_defaults(dir, path, err, errlen);
        if (w < 0)
            return -1;
        if (w == 1 && note && notelen)
            snprintf(note, notelen, "wrote the default configuration to %s", path);
        if (conf3d_parse_file(c, path, 1, err, errlen) != 0)
            return -1;
    }
    if (argc >= 2 && argv) {
        char *line = conf_join_args(argc, argv);
        if (!line) {
            snprintf(err, errlen, "command line: out of memory");
            return -1;
        }
        int rc = conf3d_parse_text(c, line, "command line", err, errlen);
        free(line);
        if (rc != 0)
            return rc;
    }
    return conf3d_check(c, err, errlen);
}

uint32_t conf3d_hash(void)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < P3_COUNT; i++) {
        const conf3d_def_t *d = &conf3d_defs[i];
        for (const char *s = d->module; *s; s++)
            h = (h ^ (uint8_t)*s) * 16777619u;
        for (const char *s = d->name; *s; s++)
            h = (h ^ (uint8_t)*s) * 16777619u;
        h = (h ^ (uint8_t)d->type) * 16777619u;
    }
    return h;
}
