/* conf3d.h -- the 3D server's configuration: the parameter table of params3d.def, its
 * values, and loading them in the 2D server's syntax (conf.c's grammar through a
 * conf_sink_t): defaults, then $RCSS3D_CONF_DIR (default ~/.rcssserver3d)/rcssserver3d.conf
 * if it exists (never written: conf/rcssserver3d.conf is the defaults file to copy
 * there), then the command line (soccer::FieldLength=105, include=FILE, ...).
 * Fills error buffers; never logs, never exits. */
#ifndef RCSS_CONF3D_H
#define RCSS_CONF3D_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include "conf.h"
#include "params.h"

#define P3_ANY NAN            /* no bound */
#define CONF3D_FILE "rcssserver3d.conf"

typedef enum conf3d_id {
#define PARAM3D(mod, name, type, def, lo, hi, help) P3_##name,
#include "params3d.def"
#undef PARAM3D
    P3_COUNT
} conf3d_id_t;

typedef struct conf3d_def {
    const char   *module;    /* "soccer" or "server" */
    const char   *name;
    param_type_t  type;      /* PARAM_INT, PARAM_BOOL, PARAM_REAL, PARAM_STR */
    const char   *defval;    /* as written in the file */
    double        lo, hi;    /* accepted range (NAN: none) */
    const char   *help;      /* one line */
} conf3d_def_t;

extern const conf3d_def_t conf3d_defs[P3_COUNT];

typedef struct conf3d {
    double num[P3_COUNT];
    char   str[P3_COUNT][CONF_STR_LEN];
} conf3d_t;

/* The game variables the manual's monitor Init expression lists, in its order (also an
 * agent's first GameState): FieldLength ... RuleHalfTime. */
extern const conf3d_id_t conf3d_game_vars[];
extern const int conf3d_n_game_vars;

void conf3d_defaults(conf3d_t *c);
/* id of module::name, -1 if unknown */
int  conf3d_lookup(const char *module, const char *name);
/* Set one parameter from its text (quoted: it came in quotes). 0, or -1 with the reason
 * in msg ("'soccer::FieldLength' must be between 100 and 110, got '120'"). */
int  conf3d_set(conf3d_t *c, const char *module, const char *name, const char *value,
                int quoted, char *msg, size_t msglen);
/* Configuration text / file in the common grammar; errors name origin and line. 0, 1
 * when help was asked (the listing is in err: use CONF_HELP_LEN), -1 on error. */
int  conf3d_parse_text(conf3d_t *c, const char *text, const char *origin, char *err,
                       size_t errlen);
int  conf3d_parse_file(conf3d_t *c, const char *path, int optional, char *err, size_t errlen);
/* Checks between parameters (ports differ, goal narrower than the field, ...). 0 or -1. */
int  conf3d_check(const conf3d_t *c, char *err, size_t errlen);
/* The whole startup sequence (see the head of this file). note (may be NULL) gets one
 * line naming the configuration file read, if any. 0, 1 help (text in err), -1 error. */
int  conf3d_load(conf3d_t *c, int argc, char **argv, char *err, size_t errlen, char *note,
                 size_t notelen);
/* The configuration as a file: every parameter with its value and meaning. Returns the
 * length (snprintf semantics). */
int  conf3d_write(const conf3d_t *c, char *buf, size_t len);
/* A value as the file writes it: ints plain, bools true/false, reals %g-style, strings
 * quoted. snprintf semantics. */
int  conf3d_format_value(const conf3d_t *c, int id, char *buf, size_t len);
/* FNV-1a over every module, name and type: processes built from other tables refuse to
 * share a region. */
uint32_t conf3d_hash(void);

static inline double conf3d_real(const conf3d_t *c, conf3d_id_t id) { return c->num[id]; }
static inline int    conf3d_int(const conf3d_t *c, conf3d_id_t id)  { return (int)c->num[id]; }
static inline int    conf3d_bool(const conf3d_t *c, conf3d_id_t id) { return c->num[id] != 0.0; }
static inline const char *conf3d_str(const conf3d_t *c, conf3d_id_t id) { return c->str[id]; }

#endif
