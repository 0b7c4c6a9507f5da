/* params.h -- the table of configuration parameters (server::, player::) and their ids.
 * Pure data, shared by every process; values live in conf_t (conf.h) and, once the sim
 * has resolved them, in the shm region (shm_layout.h shm_params_sh_t). */
#ifndef RCSS_PARAMS_H
#define RCSS_PARAMS_H

#include <stdint.h>

typedef enum param_type {
    PARAM_INT,
    PARAM_BOOL,
    PARAM_REAL,
    PARAM_STR
} param_type_t;

/* Ids: SP_<name> for server::<name>, PP_<name> for player::<name>. */
#define SP_server(n) SP_##n
#define SP_player(n) PP_##n
typedef enum param_id {
#define PARAM(mod, name, type, def, tag) SP_##mod(name),
#include "params.def"
#undef PARAM
    PARAM_COUNT
} param_id_t;

typedef struct param_def {
    const char   *module;   /* "server" or "player" */
    const char   *name;     /* without module prefix */
    param_type_t  type;
    const char   *defval;   /* default as text, as it appears in a config file */
    int           tag;      /* lowest protocol version that is sent it; 999 logs/monitors; 0 never */
} param_def_t;

extern const param_def_t param_defs[PARAM_COUNT];

/* Look up "module::name" (or module and name separately); -1 if unknown. */
int param_lookup(const char *module, const char *name);

/* FNV-1a hash over every module, name, type and tag: processes built from different
 * tables refuse to share a region (shm header params_hash). */
uint32_t param_table_hash(void);

#define PARAM_TAG_EXTENSION 0
#define PARAM_TAG_MONITOR   999

#endif
