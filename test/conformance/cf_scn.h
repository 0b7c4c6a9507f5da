/* cf_scn.h -- scenario files of the conformance suite: a small sequential language
 * (server options, clients, send / wait / step / sleep / stall, loops) and the rules that
 * say how each recorded stream is compared. Pure: parsing only, no I/O beyond reading
 * the file. The language is described in docs/conformance.md. */
#ifndef RCSS_CF_SCN_H
#define RCSS_CF_SCN_H

#include <stddef.h>

#define CF_MAX_CLIENTS 64
#define CF_NAME_LEN    32
#define CF_ERR_LEN     256

/* what a client talks to: the player, trainer or online-coach port; monitors use the
 * player port */
typedef enum cf_kind {
    CF_KIND_PLAYER,
    CF_KIND_TRAINER,
    CF_KIND_COACH,
    CF_KIND_MONITOR
} cf_kind_t;

typedef enum cf_op {
    CF_OP_SEND,      /* text to the port the client follows */
    CF_OP_SENDINIT,  /* text to its kind's well-known port */
    CF_OP_WAIT,      /* until a message matching re arrives (ms timeout); n > 0: one
                        that arrives at most n ms after the message before it */
    CF_OP_SLEEP,     /* ms, still receiving */
    CF_OP_SLEEPTO,   /* until ms after the arrival of the message the last waitafter
                        matched (joins timed from one anchor, not from each other) */
    CF_OP_STEP,      /* n lock-step cycles */
    CF_OP_STEPUNTIL, /* lock-step cycles (at most gap) until the client's last cycle (from
                        one (think) to the next) held n messages matching re */
    CF_OP_SYNC,      /* client joins (n=1) or leaves (n=0) the lock-step set */
    CF_OP_STALL,     /* n times: stop the server's process group for ms, then gap ms */
    CF_OP_ZLIB,      /* compress what the client sends at level n (-1: plain) */
    CF_OP_FORGET,    /* what the client received so far is not compared (a set-up whose
                        course depends on when the server started) */
    CF_OP_CLOSE,     /* the client's socket is closed */
    CF_OP_STOP       /* the server is stopped (logs and stdout complete) */
} cf_op_t;

typedef struct cf_step {
    cf_op_t op;
    int     line;          /* line in the scenario file */
    int     client;        /* index into cf_scn_t.client, -1 none */
    int     n, ms, gap;
    char   *text;          /* send: the datagram; wait: the pattern (owned) */
} cf_step_t;

typedef struct cf_client_decl {
    char      name[CF_NAME_LEN];
    cf_kind_t kind;
    int       sync;        /* in the lock-step set from the start */
} cf_client_decl_t;

/* How a stream (a client, or stdout, rcg, rcl, kwy, logfiles) is compared. */
typedef enum cf_rule_kind {
    CF_RULE_DROP,      /* messages matching re are left out */
    CF_RULE_KEEP,      /* only messages matching re are kept */
    CF_RULE_NOTIME,    /* the cycle after the message's first word becomes "T" */
    CF_RULE_SQUASH,    /* consecutive equal messages count once */
    CF_RULE_SHAPE,     /* in messages matching re every number becomes "#" */
    CF_RULE_BLANK,     /* every part of a message that matches re becomes "#" */
    CF_RULE_STRIP,     /* every part of a message that matches re is left out */
    CF_RULE_SEECANON,  /* see messages without the parts the reference drops at random */
    CF_RULE_SEENAMES,  /* see messages reduced to the names of what is seen */
    CF_RULE_SORTRUN,   /* each run of consecutive messages matching re is sorted */
    CF_RULE_CUT,       /* messages matching re are cut to their first n bytes */
    CF_RULE_TIMING,    /* arrival phases compared instead of the bytes */
    CF_RULE_IGNORE     /* not compared */
} cf_rule_kind_t;

typedef struct cf_rule {
    cf_rule_kind_t kind;
    char           stream[CF_NAME_LEN];
    char          *re;     /* DROP, KEEP, SHAPE, SORTRUN, CUT (owned) */
    int            n;      /* CUT: bytes kept */
    int            line;
} cf_rule_t;

typedef struct cf_scn {
    char              name[64];
    char              desc[200];
    char            **opt_both, **opt_ours, **opt_ref;  /* server arguments (owned) */
    int               nopt_both, nopt_ours, nopt_ref;
    cf_client_decl_t  client[CF_MAX_CLIENTS];
    int               nclient;
    cf_step_t        *step;
    int               nstep;
    cf_rule_t        *rule;
    int               nrule;
    int               logs;      /* game and text logs on, compared */
    int               stdout_cmp;/* the server's stdout compared */
    int               noref;     /* only for this server (never against the reference) */
    int               timeout;   /* default wait timeout, ms */
} cf_scn_t;

/* Parse a scenario from text (name: the scenario's name). 0, or -1 with err
 * ("line N: ..."). The result is freed with cf_scn_free. */
int  cf_scn_parse(cf_scn_t *s, const char *name, const char *text, char *err, size_t errlen);
/* Read and parse a file; the name is its base name without ".scn". */
int  cf_scn_load(cf_scn_t *s, const char *path, char *err, size_t errlen);
void cf_scn_free(cf_scn_t *s);
/* Index of a client by name, -1 if none. */
int  cf_scn_client(const cf_scn_t *s, const char *name);
/* The rules for one stream, in file order: fills out (up to max), returns the count. */
int  cf_scn_rules(const cf_scn_t *s, const char *stream, const cf_rule_t **out, int max);
/* 1 if the stream has a rule of that kind. */
int  cf_scn_has_rule(const cf_scn_t *s, const char *stream, cf_rule_kind_t kind);

#endif
