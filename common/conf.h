/* conf.h -- configuration values: defaults, server.conf/player.conf files and the command
 * line, with the reference's syntax (module::name = value, -/-- prefixes, include = FILE,
 * comments # // and C-style). Fills an error buffer; never logs, never exits. */
#ifndef RCSS_CONF_H
#define RCSS_CONF_H

#include <stddef.h>
#include "params.h"

#define CONF_STR_LEN 256
#define CONF_ERR_LEN 512
#define CONF_HELP_LEN 16384   /* err size that holds a whole module::help listing */

typedef struct conf {
    double num[PARAM_COUNT];              /* INT, BOOL (0/1) and REAL values */
    char   str[PARAM_COUNT][CONF_STR_LEN]; /* STR values ("" for others) */
} conf_t;

/* Every parameter at its default. */
void conf_defaults(conf_t *c);

/* Parse configuration text (file contents or joined argv). base_dir resolves relative
 * include = FILE paths (NULL: current directory). Returns 0, or -1 with err filled
 * ("line 3: 'server' has no parameter called 'foo'"). Warnings (int given to bool, real
 * truncated to int) go to warn if non-NULL, one per line. Returns 1 when the text asks
 * for help (help, --help, -h, module::help): the usage or listing is in err, truncated to
 * errlen (use CONF_HELP_LEN). Errors name origin and line: "server.conf:3: ..."; origin
 * "command line" gives "command line: ..."; NULL origin gives "line 3: ...". */
int conf_parse_text(conf_t *c, const char *text, const char *origin, const char *base_dir,
                    char *err, size_t errlen, char *warn, size_t warnlen);

/* Parse one file (errors prefixed "path:line:"; relative includes resolve against the
 * file's directory); a missing file is not an error when optional is set. */
int conf_parse_file(conf_t *c, const char *path, int optional, char *err, size_t errlen);

/* The whole startup sequence: defaults, then $RCSS_CONF_DIR (or ~/.rcssserver)
 * server.conf and player.conf if present, then argv[1..] joined with spaces.
 * Returns 0; 1 if help was asked (usage text in err); -1 on error. */
int conf_load(conf_t *c, int argc, char **argv, char *err, size_t errlen);

/* argv[1..] joined with spaces (arguments holding blanks single-quoted) and parsed as
 * the command line: 0, 1 (help; text in err) or -1. The last step of conf_load. */
int conf_parse_args(conf_t *c, int argc, char **argv, char *err, size_t errlen);

/* Set one parameter from text, with the same coercions as the parser. */
int conf_set(conf_t *c, const char *module, const char *name, const char *value,
             char *err, size_t errlen);

/* Accessors. */
static inline double conf_real(const conf_t *c, param_id_t id) { return c->num[id]; }
static inline int    conf_int(const conf_t *c, param_id_t id)  { return (int)c->num[id]; }
static inline int    conf_bool(const conf_t *c, param_id_t id) { return c->num[id] != 0.0; }
static inline const char *conf_str(const conf_t *c, param_id_t id) { return c->str[id]; }

/* Write a value as the reference prints it: ints plain, bools 0/1 (or true/false when
 * json), reals %g-style (6 significant digits, no trailing zeros), strings double
 * quoted. Returns the number of chars written (snprintf semantics). */
int conf_format_value(const conf_t *c, param_id_t id, int json, char *buf, size_t len);

/* "server::help"-style listing of every parameter with type and value. */
void conf_write_help(const conf_t *c, const char *module, char *buf, size_t len);

/* ---- other parameter tables ----------------------------------------------------------
 * The same grammar (module::name = value, includes, comments, -/-- prefixes) for a
 * parameter table that is not params.def (the 3D server's, common/conf3d.c). Every
 * assignment goes to sink->assign, which returns 0, or -1 with the reason in msg (the
 * parser prefixes origin and line). help/-h call help(ctx, NULL, ...) and return 1;
 * module::help calls help(ctx, module, ...), which returns 0, or -1 for an unknown module. */
typedef struct conf_sink {
    int  (*assign)(void *ctx, const char *module, const char *name, const char *value,
                   int quoted, char *msg, size_t msglen);
    int  (*help)(void *ctx, const char *module, char *buf, size_t len);
    void  *ctx;
} conf_sink_t;

enum { CONF_VAL_BOOL, CONF_VAL_INT, CONF_VAL_REAL, CONF_VAL_STR };
/* What an unquoted word is as a value (on/off/true/false, int, real, else a string;
 * quoted: always a string), with its number in *num. */
int conf_value_kind(const char *text, int quoted, double *num);
int conf_sink_parse_text(const conf_sink_t *sink, const char *text, const char *origin,
                         const char *base_dir, char *err, size_t errlen);
int conf_sink_parse_file(const conf_sink_t *sink, const char *path, int optional,
                         char *err, size_t errlen);
/* argv[1..] joined with spaces as conf_load does (malloc'd; NULL if out of memory). */
char *conf_join_args(int argc, char **argv);

#endif
