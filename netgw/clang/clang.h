/* clang.h -- the standard coach language, CLANG 7 and 8 (docs/protocol/clang.md),
 * as the online coach says it: a hand-written recursive-descent parser over the lists
 * of common/sexp (clang_parse.c) whose atoms are split into the language's tokens by
 * clang_lex.c, building a small tree in a caller-supplied workspace, and the canonical
 * re-serialisation players hear (clang_print.c). Pure: no I/O, no allocation, no
 * process state; errors name the offset and what was expected.
 *
 * What the reference does and this module reproduces: the version span of a message
 * (7-only, 8-only or "7 or 8") computed from the constructs it uses; numbers printed as
 * C++ streams print doubles (%g), unum sets reversed, actions of a directive printed
 * without separators, (quad ...) printed with its first three points, quoted names of
 * conditions kept with their quotes, names limited to 8 characters (quotes counted
 * where the reference counts them) and freeform strings to say_coach_msg_size. */
#ifndef RCSS_CLANG_H
#define RCSS_CLANG_H

#include <stddef.h>
#include <stdint.h>
#include "sexp.h"

/* message types, in the order of the reference's windows */
enum {
    CLANG_NONE,
    CLANG_META,
    CLANG_FREEFORM,
    CLANG_INFO,
    CLANG_ADVICE,
    CLANG_DEFINE,
    CLANG_UNSUPP,
    CLANG_RULE,
    CLANG_DEL
};

#define CLANG_NAME_MAX     8        /* longest name / variable */
#define CLANG_MAX_NODES    4608     /* tree nodes of one message */
#define CLANG_MAX_SEXP     6144     /* s-expression nodes of one message */
#define CLANG_ERR_LEN      160

/* tree node kinds (children in the order written, unum sets reversed as the reference) */
enum {
    CN_META, CN_VER, CN_FREEFORM, CN_UNSUPP, CN_INFO, CN_ADVICE, CN_TOKRULE, CN_TOKCLEAR,
    CN_DEFINE, CN_DEFC, CN_DEFD, CN_DEFR, CN_DEFA, CN_DEFRULE, CN_RULEMSG, CN_ACTIVATE,
    CN_DEL, CN_IDLIST, CN_RID, CN_SIMPLERULE, CN_NESTEDRULE, CN_IDRULE,
    /* conditions */
    CN_TRUE, CN_FALSE, CN_PPOS, CN_BPOS, CN_BOWNER, CN_PLAYM, CN_AND, CN_OR, CN_NOT,
    CN_CONDNAMED, CN_TIME, CN_OPPGOALS, CN_OURGOALS, CN_GOALDIFF, CN_CONDUNUM,
    /* directives and actions */
    CN_DO, CN_DIRNAMED, CN_POS, CN_HOME, CN_BTOREG, CN_BTOPLAYER, CN_MARK, CN_MARKL_P,
    CN_MARKL_R, CN_OLINE, CN_HTYPE, CN_ACTNAMED, CN_PASS_R, CN_PASS_U, CN_DRIBBLE,
    CN_CLEARACT, CN_SHOOT, CN_HOLD, CN_INTERCEPT, CN_TACKLE,
    /* regions and points */
    CN_RNULL, CN_QUAD, CN_ARC, CN_RUNION, CN_RNAMED, CN_TRI, CN_REC,
    CN_PT, CN_PTREL, CN_PTBALL, CN_PTPLAYER, CN_PTARITH,
    /* unum sets */
    CN_UNUMSET, CN_UNUM
};

/* One parsed message (the tree lives in the workspace). */
typedef struct clang_msg {
    int      type;                  /* CLANG_* */
    uint32_t min_ver, max_ver;      /* version span (see clang_supported) */
    int      root;                  /* tree node of the message */
} clang_msg_t;

/* A tree node: kind (CN_* in clang_parse.c), small fields, children by index. */
typedef struct clang_node {
    int16_t     kind;
    int16_t     flag;               /* our/opp, do/dont, on/off, model, operator, mode */
    int32_t     i[2];               /* ttl, min/max, compared value, type, unum */
    double      d[4];               /* point, arc and version numbers */
    const char *s;                  /* name as printed (points into the parsed text) */
    uint32_t    slen;
    int32_t     first;              /* first child, -1 none */
    int32_t     next;               /* next sibling, -1 none */
} clang_node_t;

/* Workspace for one parse: large (about 600 KB), so callers keep one (static or heap). */
typedef struct clang_work {
    sexp_t        sx[CLANG_MAX_SEXP];
    clang_node_t  node[CLANG_MAX_NODES];
    int           nnodes;
    const char   *text;             /* the parsed text (offsets in errors) */
} clang_work_t;

/* Parse what an online coach said: "(say MESSAGE)", a bare MESSAGE, or the hear form
 * "(hear TIME online_coach_left|right RECV MESSAGE)"; nothing may follow it.
 * freeform_max = server::say_coach_msg_size. 0 with *msg filled, or -1 with err
 * ("offset 12: expected a condition, found 'foo'"). */
int clang_parse(clang_work_t *w, const char *text, size_t len, int freeform_max,
                clang_msg_t *msg, char *err, size_t errlen);

/* Canonical text of a parsed message as the reference prints it. Returns its length, or
 * -1 if buf is too small. */
int clang_print(const clang_work_t *w, const clang_msg_t *msg, char *buf, size_t len);

/* 1 if a player announcing (clang (ver MIN MAX)) receives the message itself rather than
 * (unsupported_clang); players that never announced have 0 0. */
int clang_supported(uint32_t msg_min, uint32_t msg_max, uint32_t min, uint32_t max);

/* ---- lexer (clang_lex.c): one token of an unquoted atom ---- */
enum {
    CT_END,        /* atom exhausted */
    CT_ERROR,      /* a character no rule accepts */
    CT_INT, CT_REAL, CT_STR, CT_VAR, CT_LIST, CT_LB, CT_RB,
    CT_OP_L, CT_OP_LE, CT_OP_E, CT_OP_NE, CT_OP_GE, CT_OP_G,   /* comparisons */
    CT_PLUS, CT_MINUS, CT_MULT, CT_DIV,                       /* point arithmetic */
    CT_BMOVE,      /* p d c s: ival = 1 pass, 2 dribble, 3 clear, 4 score */
    CT_MODE,       /* play mode keyword: ival = index in clang_mode_names */
    CT_KW          /* any other keyword: ival = CK_* */
};

/* keywords other than play modes (order = clang_keywords[]) */
enum {
    CK_SAY, CK_HEAR, CK_COACH_L, CK_COACH_R, CK_META, CK_FREEFORM, CK_UNSUPP, CK_INFO,
    CK_ADVICE, CK_DEFINE, CK_DEFINEC, CK_DEFINED, CK_DEFINER, CK_DEFINEA, CK_VER, CK_NULL,
    CK_QUAD, CK_ARC, CK_PT, CK_REG, CK_TRI, CK_REC, CK_BALL, CK_POS, CK_HOME, CK_BTO,
    CK_MARK, CK_MARKL, CK_OLINE, CK_HTYPE, CK_DO, CK_DONT, CK_OUR, CK_OPP, CK_CLEAR,
    CK_TRUE, CK_FALSE, CK_PPOS, CK_BPOS, CK_BOWNER, CK_AND, CK_OR, CK_NOT, CK_PLAYM,
    CK_TIME, CK_OPP_GOALS, CK_OUR_GOALS, CK_GOAL_DIFF, CK_UNUM, CK_PASS, CK_DRIBBLE,
    CK_SHOOT, CK_HOLD, CK_INTERCEPT, CK_TACKLE, CK_RULE, CK_ON, CK_OFF, CK_ALL, CK_DELETE,
    CK_DEFINERULE, CK_MODEL, CK_DIREC, CK_COUNT
};

#define CLANG_MODE_COUNT 17
extern const char *const clang_keywords[CK_COUNT];
extern const char *const clang_mode_names[CLANG_MODE_COUNT + 1]; /* [0] = "" */

typedef struct clang_tok {
    int         kind;   /* CT_* */
    int         ival;   /* INT value (as atoi), BMOVE / MODE / KW code, op index */
    double      dval;   /* REAL value (as atof) */
    const char *s;      /* token text */
    size_t      n;
} clang_tok_t;

/* The token starting at s[0..n) (n > 0) by the reference lexer's rules: longest match,
 * keywords before variables. Quoted strings never reach it (sexp reads them). */
void clang_lex(const char *s, size_t n, clang_tok_t *t);
/* 1 if a quoted string's contents are a legal CLANG string: 1+ of [0-9A-Za-z().+-*\/?<>_ ] */
int  clang_str_ok(const char *s, size_t n);

#endif
