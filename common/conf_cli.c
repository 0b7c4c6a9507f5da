/* conf_cli.c -- --config FILE, --print-config and the effective configuration written
 * back in the files' syntax (conf_cli.h). Used by rcssserver's startup. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "conf_cli.h"

static int opt_is(const char *arg, const char *name)
{
    if (arg[0] != '-')
        return 0;
    arg += arg[1] == '-' ? 2 : 1;
    return strcmp(arg, name) == 0;
}

/* "--config=FILE" / "-config=FILE": the file, else NULL */
static const char *opt_value(const char *arg, const char *name)
{
    if (arg[0] != '-')
        return NULL;
    arg += arg[1] == '-' ? 2 : 1;
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && arg[n] == '=' ? arg + n + 1 : NULL;
}

static int add_file(conf_cli_t *cli, const char *f, char *err, size_t errlen)
{
    if (!f || !*f) {
        snprintf(err, errlen, "command line: --config needs a file name");
        return -1;
    }
    if (cli->nfiles >= CONF_CLI_MAX_FILES) {
        snprintf(err, errlen, "command line: more than %d --config files", CONF_CLI_MAX_FILES);
        return -1;
    }
    cli->files[cli->nfiles++] = f;
    return 0;
}

int conf_cli_split(int argc, char **argv, conf_cli_t *cli, char *err, size_t errlen)
{
    memset(cli, 0, sizeof *cli);
    cli->argv = calloc((size_t)(argc > 0 ? argc : 1) + 1, sizeof *cli->argv);
    if (!cli->argv) {
        snprintf(err, errlen, "command line: out of memory");
        return -1;
    }
    cli->argv[cli->argc++] = argc > 0 ? argv[0] : "rcssserver";
    for (int i = 1; i < argc; i++) {
        const char *v;
        if (opt_is(argv[i], "print-config")) {
            cli->print = 1;
        } else if (opt_is(argv[i], "config")) {
            if (add_file(cli, i + 1 < argc ? argv[i + 1] : NULL, err, errlen) < 0)
                return -1;
            i++;
        } else if ((v = opt_value(argv[i], "config")) != NULL) {
            if (add_file(cli, v, err, errlen) < 0)
                return -1;
        } else {
            cli->argv[cli->argc++] = argv[i];
        }
    }
    cli->argv[cli->argc] = NULL;
    return 0;
}

void conf_cli_free(conf_cli_t *cli)
{
    free(cli->argv);
    cli->argv = NULL;
}

int conf_cli_load(conf_t *c, const conf_cli_t *cli, char *err, size_t errlen)
{
    if (cli->nfiles == 0)
        return conf_load(c, cli->argc, cli->argv, err, errlen);
    conf_defaults(c);
    if (err && errlen)
        err[0] = '\0';
    for (int i = 0; i < cli->nfiles; i++) {
        if (conf_parse_file(c, cli->files[i], 0, err, errlen) != 0)
            return -1;
    }
    return conf_parse_args(c, cli->argc, cli->argv, err, errlen);
}

/* the shortest %g form that strtod reads back to v */
static int real_text(double v, char *buf, size_t len)
{
    int n = 0;
    for (int prec = 6; prec <= 17; prec++) {
        n = snprintf(buf, len, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    /* a whole number still reads as a number, but keep reals looking real */
    if (n > 0 && (size_t)n + 2 < len && !strpbrk(buf, ".eE"))
        n += snprintf(buf + n, len - (size_t)n, ".0");
    return n;
}

int conf_cli_line(const conf_t *c, param_id_t id, char *buf, size_t len)
{
    const param_def_t *d = &param_defs[id];
    char val[CONF_STR_LEN + 8];
    switch (d->type) {
    case PARAM_INT:
        snprintf(val, sizeof val, "%lld", (long long)c->num[id]);
        break;
    case PARAM_BOOL:
        snprintf(val, sizeof val, "%s", c->num[id] != 0 ? "true" : "false");
        break;
    case PARAM_REAL:
        real_text(c->num[id], val, sizeof val);
        break;
    case PARAM_STR: {
        char q = strchr(c->str[id], '"') ? '\'' : '"';
        snprintf(val, sizeof val, "%c%s%c", q, c->str[id], q);
        break;
    }
    }
    return snprintf(buf, len, "%s::%s = %s", d->module, d->name, val);
}

int conf_cli_print(const conf_t *c, FILE *out)
{
    char line[CONF_STR_LEN * 2];
    fputs("# rcssserver effective configuration (read it back with --config FILE)\n", out);
    for (int i = 0; i < PARAM_COUNT; i++) {
        conf_cli_line(c, (param_id_t)i, line, sizeof line);
        fprintf(out, "%s\n", line);
    }
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
