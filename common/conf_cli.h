/* conf_cli.h -- the options of rcssserver's command line that are not parameters:
 * --config FILE (read FILE instead of the default server.conf/player.conf, so nothing
 * is read from $RCSS_CONF_DIR or ~/.rcssserver) and --print-config (write the effective
 * configuration and exit), and the writer of that configuration in the syntax the files
 * use (`server::name = value`, read back by --config to the same values). Pure: fills
 * err, never logs, never exits. */
#ifndef RCSS_CONF_CLI_H
#define RCSS_CONF_CLI_H

#include <stddef.h>
#include <stdio.h>
#include "conf.h"

#define CONF_CLI_MAX_FILES 16

typedef struct conf_cli {
    const char *files[CONF_CLI_MAX_FILES]; /* --config FILE, in the order given */
    int         nfiles;
    int         print;                     /* --print-config */
    int         argc;                      /* what is left for the parameter parser */
    char      **argv;                      /* argv[0] and the other arguments (malloc'ed) */
} conf_cli_t;

/* Take --config FILE, --config=FILE and --print-config (also with one dash) out of
 * argv; the rest keeps its order in cli->argv. 0, or -1 with err (a --config without
 * a file, too many files, out of memory). Free with conf_cli_free. */
int  conf_cli_split(int argc, char **argv, conf_cli_t *cli, char *err, size_t errlen);
void conf_cli_free(conf_cli_t *cli);

/* The startup sequence with the options applied: defaults, then the --config files
 * (none of the default files) or, without --config, what conf_load reads, then the
 * parameters of the command line. Returns 0, 1 (help asked; text in err) or -1. */
int  conf_cli_load(conf_t *c, const conf_cli_t *cli, char *err, size_t errlen);

/* One parameter as a configuration line, "server::half_time = 300": reals with the
 * fewest digits that read back to the same double, bools true/false, strings quoted
 * (single quotes when the value holds a double quote). Returns snprintf's count. */
int  conf_cli_line(const conf_t *c, param_id_t id, char *buf, size_t len);
/* Every parameter, one line each, after a comment line; 0, or -1 on a write error. */
int  conf_cli_print(const conf_t *c, FILE *out);

#endif
