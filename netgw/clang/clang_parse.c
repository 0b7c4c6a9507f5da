/* clang_parse.c -- recursive-descent parser of the coach language (clang.h). common/sexp
 * reads the nesting and the quoted strings; a cursor walks the elements of one list and
 * splits unquoted atoms into tokens with clang_lex(), so "{1" gives '{' then 1 and
 * "(time<5)" reads as time, '<', 5, as the reference lexer would. Every production of
 * the reference grammar has one function below; each returns a tree node index or -1
 * after recording the first error with its offset. The version span follows the
 * reference's builder: 7-only and 8-only constructs set it as they are reduced, the
 * message type sets it last. Called by the online-coach session and the tests. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "clang.h"

typedef struct pcur {
    const sexp_t *list;            /* the list being read */
    const sexp_t *at;              /* current element of the list, NULL at its end */
    size_t        off;             /* offset inside the current unquoted atom */
} pcur_t;

typedef struct parser {
    clang_work_t *w;
    const char   *base;            /* start of the parsed text */
    const char   *end;             /* just past it */
    int           freeform_max;
    uint32_t      bmin, bmax;      /* the builder's version state */
    char         *err;
    size_t        errlen;
    int           failed;
    int           rhead, rtail;    /* regions of the open (reg ...) lists, see p_region */
} parser_t;

/* ---- version span (the reference's min/max bookkeeping) --------------------------- */
static void ver_apply(uint32_t *mn, uint32_t *mx, uint32_t min, uint32_t max)
{
    if (min == max) {
        if (min < *mx)
            *mn = min;
        else if (min > *mn)
            *mx = min;
        else if (*mx < *mn)
            *mn = *mx = min;
        return;
    }
    if (min < *mn)
        *mn = min;
    if (max > *mx)
        *mx = max;
    if (min > max && *mx < *mn && min > *mx && max < *mn) {
        *mn = min;
        *mx = max;
    }
}

static void ver(parser_t *p, uint32_t min, uint32_t max)
{
    ver_apply(&p->bmin, &p->bmax, min, max);
}

int clang_supported(uint32_t mn, uint32_t mx, uint32_t min, uint32_t max)
{
    if (mn >= mx)
        return (min <= mx && max >= mx) || (min <= mn && max >= mn);
    return min <= mn && max >= mx;
}

/* ---- cursor --------------------------------------------------------------------- */
static void cur_open(pcur_t *c, const sexp_t *list)
{
    c->list = list;
    c->at = list->child;
    c->off = 0;
}

static void peek(const pcur_t *c, clang_tok_t *t)
{
    memset(t, 0, sizeof *t);
    if (!c->at) {
        t->kind = CT_END; /* at the list's ')' */
        t->s = c->list->text + (c->list->len ? c->list->len - 1 : 0);
        t->n = 1;
        return;
    }
    const sexp_t *a = c->at;
    t->s = a->text;
    t->n = a->len;
    if (a->is_list) {
        t->kind = CT_LIST;
        return;
    }
    if (a->quoted) {
        t->kind = clang_str_ok(a->text, a->len) ? CT_STR : CT_ERROR;
        if (t->kind == CT_ERROR) { /* the whole string, quotes included */
            t->s = a->text - 1;
            t->n = a->len + 2;
            t->ival = 1;
        }
        return;
    }
    clang_lex(a->text + c->off, a->len - c->off, t);
}

static void advance(pcur_t *c, const clang_tok_t *t)
{
    if (!c->at)
        return;
    if (c->at->is_list || c->at->quoted) {
        c->at = c->at->next;
        c->off = 0;
        return;
    }
    c->off += t->n;
    if (c->off >= c->at->len) {
        c->at = c->at->next;
        c->off = 0;
    }
}

/* ---- errors --------------------------------------------------------------------- */
static int fail(parser_t *p, const clang_tok_t *t, const char *what)
{
    if (p->failed)
        return -1;
    p->failed = 1;
    if (!p->err || !p->errlen)
        return -1;
    size_t off = t->s ? (size_t)(t->s - p->base) : 0;
    if (t->kind == CT_STR && off > 0)
        off--; /* at the opening quote */
    char found[48];
    if (t->kind == CT_END)
        snprintf(found, sizeof found, "')'");
    else if (t->kind == CT_LIST)
        snprintf(found, sizeof found, "a list");
    else if (t->kind == CT_STR)
        snprintf(found, sizeof found, "\"%.*s\"", (int)(t->n < 24 ? t->n : 24), t->s);
    else { /* a word in full: "circle", not just the ball-move token "c" it starts with */
        size_t n = t->n;
        int word = t->kind == CT_BMOVE || t->kind == CT_KW || t->kind == CT_VAR
                || t->kind == CT_MODE;
        while (word && t->s + n < p->end && (isalnum((unsigned char)t->s[n]) || t->s[n] == '_'))
            n++;
        snprintf(found, sizeof found, "'%.*s'", (int)(n < 24 ? n : 24), t->s);
    }
    if (t->kind == CT_ERROR)
        snprintf(p->err, p->errlen, "offset %zu: illegal %s %s", off,
                 t->ival ? "string" : "character", found);
    else
        snprintf(p->err, p->errlen, "offset %zu: %s, found %s", off, what, found);
    return -1;
}

static int fail_at(parser_t *p, const char *s, const char *fmt, ...)
{
    if (p->failed)
        return -1;
    p->failed = 1;
    if (!p->err || !p->errlen)
        return -1;
    char msg[CLANG_ERR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(p->err, p->errlen, "offset %zu: %s", (size_t)(s - p->base), msg);
    return -1;
}

/* ---- nodes ---------------------------------------------------------------------- */
static int node(parser_t *p, int kind, const char *where)
{
    clang_work_t *w = p->w;
    if (w->nnodes >= CLANG_MAX_NODES)
        return fail_at(p, where ? where : p->base, "message too large");
    int i = w->nnodes++;
    clang_node_t *n = &w->node[i];
    memset(n, 0, sizeof *n);
    n->kind = (int16_t)kind;
    n->first = n->next = -1;
    return i;
}

static clang_node_t *N(parser_t *p, int i)
{
    return &p->w->node[i];
}

/* append child to parent's children (tail kept by the caller; parent -1: a chain) */
static void link(parser_t *p, int parent, int *tail, int child)
{
    if (*tail >= 0)
        N(p, *tail)->next = child;
    else if (parent >= 0)
        N(p, parent)->first = child;
    *tail = child;
}

/* ---- token helpers -------------------------------------------------------------- */
static int is_kw(const clang_tok_t *t, int code)
{
    return t->kind == CT_KW && t->ival == code;
}

/* the current token must be a list: open it into sub and step over it */
static int open_list(parser_t *p, pcur_t *c, pcur_t *sub, const char *what)
{
    clang_tok_t t;
    peek(c, &t);
    if (t.kind != CT_LIST)
        return fail(p, &t, what);
    cur_open(sub, c->at);
    advance(c, &t);
    return 0;
}

/* the list must end here */
static int close_list(parser_t *p, pcur_t *c)
{
    clang_tok_t t;
    peek(c, &t);
    if (t.kind != CT_END)
        return fail(p, &t, "expected ')'");
    return 0;
}

/* take one keyword token */
static int expect_kw(parser_t *p, pcur_t *c, int code, const char *what)
{
    clang_tok_t t;
    peek(c, &t);
    if (!is_kw(&t, code))
        return fail(p, &t, what);
    advance(c, &t);
    return 0;
}

static int expect_int(parser_t *p, pcur_t *c, int *v, const char *what)
{
    clang_tok_t t;
    peek(c, &t);
    if (t.kind != CT_INT)
        return fail(p, &t, what);
    *v = t.ival;
    advance(c, &t);
    return 0;
}

/* num: INT (as a double) or REAL */
static int expect_num(parser_t *p, pcur_t *c, double *v)
{
    clang_tok_t t;
    peek(c, &t);
    if (t.kind == CT_INT)
        *v = (double)t.ival;
    else if (t.kind == CT_REAL)
        *v = t.dval;
    else
        return fail(p, &t, "expected a number");
    advance(c, &t);
    return 0;
}

/* our | opp: 1 our, 0 opp */
static int expect_team(parser_t *p, pcur_t *c, int *our)
{
    clang_tok_t t;
    peek(c, &t);
    if (!is_kw(&t, CK_OUR) && !is_kw(&t, CK_OPP))
        return fail(p, &t, "expected our or opp");
    *our = t.ival == CK_OUR;
    advance(c, &t);
    return 0;
}

/* a name of at most 8 characters: n counts what the reference counts */
static int name_ok(parser_t *p, const clang_tok_t *t, size_t n)
{
    if (n > CLANG_NAME_MAX) /* a quoted name: at its opening quote */
        return fail_at(p, t->kind == CT_STR ? t->s - 1 : t->s, "name longer than %d characters",
                       CLANG_NAME_MAX);
    return 0;
}

/* the quoted string of the current token with its quotes (as some productions keep it) */
static void quoted(const clang_tok_t *t, const char **s, uint32_t *n)
{
    *s = t->s - 1;
    *n = (uint32_t)t->n + 2;
}

/* a STR name, stripped of its quotes, into node i */
static int take_name(parser_t *p, pcur_t *c, int i, const char *what)
{
    clang_tok_t t;
    peek(c, &t);
    if (t.kind != CT_STR)
        return fail(p, &t, what);
    if (name_ok(p, &t, t.n) < 0)
        return -1;
    N(p, i)->s = t.s;
    N(p, i)->slen = (uint32_t)t.n;
    advance(c, &t);
    return 0;
}

static int p_region(parser_t *p, pcur_t *c);
static int p_point(parser_t *p, pcur_t *c);
static int p_cond(parser_t *p, pcur_t *c);

/* ---- unum sets and ball-move sets ------------------------------------------------- */
/* { UNUM+ } with UNUM = INT | VAR | STR; kept in reverse order, as the reference */
static int p_unumset(parser_t *p, pcur_t *c)
{
    clang_tok_t t;
    peek(c, &t);
    if (t.kind != CT_LB)
        return fail(p, &t, "expected '{'");
    int set = node(p, CN_UNUMSET, t.s);
    if (set < 0)
        return -1;
    advance(c, &t);
    int count = 0;
    for (;;) {
        peek(c, &t);
        if (t.kind == CT_RB && count > 0) {
            advance(c, &t);
            return set;
        }
        int u = node(p, CN_UNUM, t.s);
        if (u < 0)
            return -1;
        if (t.kind == CT_INT) {
            N(p, u)->i[0] = t.ival;
        } else if (t.kind == CT_VAR || t.kind == CT_STR) {
            if (name_ok(p, &t, t.n) < 0)
                return -1;
            N(p, u)->s = t.s;
            N(p, u)->slen = (uint32_t)t.n;
            N(p, u)->flag = 1;
            ver(p, 8, 8);
        } else {
            return fail(p, &t, count ? "expected a player number or '}'"
                                     : "expected a player number");
        }
        advance(c, &t);
        N(p, u)->next = N(p, set)->first; /* reversed */
        N(p, set)->first = u;
        count++;
    }
}

/* { p|d|c|s ... }: bit k-1 for token k */
static int p_bmoveset(parser_t *p, pcur_t *c, int *bits)
{
    clang_tok_t t;
    peek(c, &t);
    if (t.kind != CT_LB)
        return fail(p, &t, "expected '{'");
    advance(c, &t);
    *bits = 0;
    for (;;) {
        peek(c, &t);
        if (t.kind == CT_RB && *bits) {
            advance(c, &t);
            return 0;
        }
        if (t.kind != CT_BMOVE)
            return fail(p, &t, "expected p, d, c or s");
        *bits |= 1 << (t.ival - 1);
        advance(c, &t);
    }
}

/* ---- points -------------------------------------------------------------------- */
/* (pt X Y) (pt X Y POINT) (pt ball) (pt our|opp INT|VAR|STR), list already open */
static int p_pt(parser_t *p, pcur_t *sub, const char *where)
{
    clang_tok_t t;
    peek(sub, &t);
    if (is_kw(&t, CK_BALL)) {
        advance(sub, &t);
        if (close_list(p, sub) < 0)
            return -1;
        return node(p, CN_PTBALL, where);
    }
    if (is_kw(&t, CK_OUR) || is_kw(&t, CK_OPP)) {
        int n = node(p, CN_PTPLAYER, where);
        if (n < 0)
            return -1;
        N(p, n)->flag = is_kw(&t, CK_OUR);
        advance(sub, &t);
        peek(sub, &t);
        if (t.kind == CT_INT) {
            N(p, n)->i[0] = t.ival;
        } else if (t.kind == CT_VAR) {
            if (name_ok(p, &t, t.n) < 0)
                return -1;
            N(p, n)->s = t.s;
            N(p, n)->slen = (uint32_t)t.n;
            ver(p, 8, 8);
        } else if (t.kind == CT_STR) {
            quoted(&t, &N(p, n)->s, &N(p, n)->slen); /* the reference keeps the quotes */
            if (name_ok(p, &t, N(p, n)->slen) < 0)
                return -1;
            ver(p, 8, 8);
        } else {
            return fail(p, &t, "expected a player number");
        }
        advance(sub, &t);
        if (close_list(p, sub) < 0)
            return -1;
        return n;
    }
    double x, y;
    if (expect_num(p, sub, &x) < 0 || expect_num(p, sub, &y) < 0)
        return -1;
    peek(sub, &t);
    int n;
    if (t.kind == CT_END) {
        n = node(p, CN_PT, where);
    } else {
        int origin = p_point(p, sub);
        if (origin < 0 || close_list(p, sub) < 0)
            return -1;
        n = node(p, CN_PTREL, where);
        if (n >= 0)
            N(p, n)->first = origin;
    }
    if (n < 0)
        return -1;
    N(p, n)->d[0] = x;
    N(p, n)->d[1] = y;
    return n;
}

static int arith_op(const clang_tok_t *t)
{
    switch (t->kind) {
    case CT_PLUS:  return 0;
    case CT_MINUS: return 1;
    case CT_MULT:  return 2;
    case CT_DIV:   return 3;
    default:       return -1;
    }
}

static int arith(parser_t *p, int op, int a, int b, const char *where)
{
    int n = node(p, CN_PTARITH, where);
    if (n < 0)
        return -1;
    N(p, n)->flag = (int16_t)op;
    N(p, n)->first = a;
    N(p, a)->next = b;
    ver(p, 8, 8);
    return n;
}

/* term := point (('*'|'/') point)* */
static int p_arith_term(parser_t *p, pcur_t *sub)
{
    int a = p_point(p, sub);
    for (;;) {
        if (a < 0)
            return -1;
        clang_tok_t t;
        peek(sub, &t);
        int op = arith_op(&t);
        if (op < 2)
            return a;
        advance(sub, &t);
        int b = p_point(p, sub);
        if (b < 0)
            return -1;
        a = arith(p, op, a, b, t.s);
    }
}

/* ( POINT (op POINT)* ): +,- below *,/, all left-associative; a single point is itself */
static int p_arith(parser_t *p, pcur_t *sub)
{
    int a = p_arith_term(p, sub);
    for (;;) {
        if (a < 0)
            return -1;
        clang_tok_t t;
        peek(sub, &t);
        int op = arith_op(&t);
        if (op < 0 || op > 1) {
            if (t.kind != CT_END)
                return fail(p, &t, "expected + - * / or ')'");
            return a;
        }
        advance(sub, &t);
        int b = p_arith_term(p, sub);
        if (b < 0)
            return -1;
        a = arith(p, op, a, b, t.s);
    }
}

/* a point: a list starting with pt, or a list of point arithmetic */
static int p_point(parser_t *p, pcur_t *c)
{
    pcur_t sub;
    clang_tok_t t;
    peek(c, &t);
    const char *where = t.s;
    if (open_list(p, c, &sub, "expected a point") < 0)
        return -1;
    peek(&sub, &t);
    if (is_kw(&t, CK_PT)) {
        advance(&sub, &t);
        return p_pt(p, &sub, where);
    }
    if (t.kind == CT_LIST)
        return p_arith(p, &sub);
    return fail(p, &t, "expected pt or a point");
}

/* ---- regions ------------------------------------------------------------------- */
static int p_points(parser_t *p, pcur_t *sub, int n, int parent)
{
    int tail = -1;
    for (int k = 0; k < n; k++) {
        int pt = p_point(p, sub);
        if (pt < 0)
            return -1;
        link(p, parent, &tail, pt);
    }
    return close_list(p, sub);
}

static int p_region(parser_t *p, pcur_t *c)
{
    clang_tok_t t;
    peek(c, &t);
    if (t.kind == CT_STR) {
        int n = node(p, CN_RNAMED, t.s);
        if (n < 0 || take_name(p, c, n, "expected a region") < 0)
            return -1;
        return n;
    }
    if (t.kind != CT_LIST)
        return fail(p, &t, "expected a region");
    pcur_t sub;
    cur_open(&sub, c->at);
    clang_tok_t k;
    peek(&sub, &k);
    if (is_kw(&k, CK_PT) || k.kind == CT_LIST)
        return p_point(p, c); /* a point is a region */
    const char *where = t.s;
    advance(c, &t);
    advance(&sub, &k);
    int n = -1;
    if (is_kw(&k, CK_NULL)) {
        if (close_list(p, &sub) < 0)
            return -1;
        return node(p, CN_RNULL, where);
    }
    if (is_kw(&k, CK_QUAD) || is_kw(&k, CK_TRI) || is_kw(&k, CK_REC)) {
        int kind = is_kw(&k, CK_QUAD) ? CN_QUAD : is_kw(&k, CK_TRI) ? CN_TRI : CN_REC;
        int count = kind == CN_QUAD ? 4 : kind == CN_TRI ? 3 : 2;
        n = node(p, kind, where);
        if (n < 0 || p_points(p, &sub, count, n) < 0)
            return -1;
        ver(p, kind == CN_QUAD ? 7 : 8, kind == CN_QUAD ? 7 : 8);
        return n;
    }
    if (is_kw(&k, CK_ARC)) {
        n = node(p, CN_ARC, where);
        if (n < 0)
            return -1;
        int center = p_point(p, &sub);
        if (center < 0)
            return -1;
        N(p, n)->first = center;
        for (int i = 0; i < 4; i++) {
            if (expect_num(p, &sub, &N(p, n)->d[i]) < 0)
                return -1;
        }
        return close_list(p, &sub) < 0 ? -1 : n;
    }
    if (is_kw(&k, CK_REG)) {
        /* The reference's builder keeps the regions of a (reg ...) list on one stack and
         * closes a union by taking every region on top of it, so an inner (reg ...)
         * swallows the regions that came before it in the enclosing lists as well:
         * (reg A (reg B) C) is read as (reg (reg A B) C). Regions only nest through reg,
         * so the stack holds exactly the open lists' regions: one chain here. */
        n = node(p, CN_RUNION, where);
        if (n < 0)
            return -1;
        do {
            int r = p_region(p, &sub);
            if (r < 0)
                return -1;
            link(p, -1, &p->rtail, r);
            if (p->rhead < 0)
                p->rhead = r;
            peek(&sub, &k);
        } while (k.kind != CT_END);
        N(p, n)->first = p->rhead;
        p->rhead = p->rtail = -1;
        return n;
    }
    return fail(p, &k, "expected a region keyword");
}

/* ---- actions and directives ------------------------------------------------------ */
/* a unum set or a region, by whether '{' comes next */
static int p_set_or_region(parser_t *p, pcur_t *sub, int *is_set)
{
    clang_tok_t t;
    peek(sub, &t);
    *is_set = t.kind == CT_LB;
    return *is_set ? p_unumset(p, sub) : p_region(p, sub);
}

static int p_action(parser_t *p, pcur_t *c)
{
    clang_tok_t t;
    peek(c, &t);
    if (t.kind == CT_STR) {
        int n = node(p, CN_ACTNAMED, t.s);
        if (n < 0 || take_name(p, c, n, "expected an action") < 0)
            return -1;
        return n;
    }
    pcur_t sub;
    const char *where = t.s;
    if (open_list(p, c, &sub, "expected an action") < 0)
        return -1;
    clang_tok_t k;
    peek(&sub, &k);
    if (k.kind != CT_KW)
        return fail(p, &k, "expected an action keyword");
    advance(&sub, &k);
    int kind = -1, arg = -1, is_set = 0, v8 = 0;
    switch (k.ival) {
    case CK_POS:       kind = CN_POS;     arg = p_region(p, &sub); break;
    case CK_HOME:      kind = CN_HOME;    arg = p_region(p, &sub); break;
    case CK_MARK:      kind = CN_MARK;    arg = p_unumset(p, &sub); break;
    case CK_OLINE:     kind = CN_OLINE;   arg = p_region(p, &sub); break;
    case CK_DRIBBLE:   kind = CN_DRIBBLE; arg = p_region(p, &sub); v8 = 1; break;
    case CK_CLEAR:     kind = CN_CLEARACT; arg = p_region(p, &sub); v8 = 1; break;
    case CK_TACKLE:    kind = CN_TACKLE;  arg = p_unumset(p, &sub); v8 = 1; break;
    case CK_SHOOT:     kind = CN_SHOOT;   v8 = 1; break;
    case CK_HOLD:      kind = CN_HOLD;    v8 = 1; break;
    case CK_INTERCEPT: kind = CN_INTERCEPT; v8 = 1; break;
    case CK_MARKL:
        arg = p_set_or_region(p, &sub, &is_set);
        kind = is_set ? CN_MARKL_P : CN_MARKL_R;
        break;
    case CK_PASS:
        arg = p_set_or_region(p, &sub, &is_set);
        kind = is_set ? CN_PASS_U : CN_PASS_R;
        v8 = 1;
        break;
    case CK_HTYPE: {
        int type = 0;
        if (expect_int(p, &sub, &type, "expected a player type") < 0)
            return -1;
        int n = node(p, CN_HTYPE, where);
        if (n < 0 || close_list(p, &sub) < 0)
            return -1;
        N(p, n)->i[0] = type;
        return n;
    }
    case CK_BTO: {
        arg = p_set_or_region(p, &sub, &is_set);
        if (arg < 0)
            return -1;
        int bits = 0;
        if (!is_set && p_bmoveset(p, &sub, &bits) < 0)
            return -1;
        int n = node(p, is_set ? CN_BTOPLAYER : CN_BTOREG, where);
        if (n < 0 || close_list(p, &sub) < 0)
            return -1;
        N(p, n)->first = arg;
        N(p, n)->i[0] = bits;
        return n;
    }
    default:
        return fail(p, &k, "expected an action keyword");
    }
    if (p->failed)
        return -1;
    int n = node(p, kind, where);
    if (n < 0 || close_list(p, &sub) < 0)
        return -1;
    N(p, n)->first = arg;
    if (v8)
        ver(p, 8, 8);
    return n;
}

/* (do|dont our|opp UNUMSET ACTION+) or a named directive */
static int p_dir(parser_t *p, pcur_t *c)
{
    clang_tok_t t;
    peek(c, &t);
    if (t.kind == CT_STR) {
        int n = node(p, CN_DIRNAMED, t.s);
        if (n < 0 || take_name(p, c, n, "expected a directive") < 0)
            return -1;
        return n;
    }
    pcur_t sub;
    const char *where = t.s;
    if (open_list(p, c, &sub, "expected a directive") < 0)
        return -1;
    clang_tok_t k;
    peek(&sub, &k);
    if (!is_kw(&k, CK_DO) && !is_kw(&k, CK_DONT))
        return fail(p, &k, "expected do or dont");
    advance(&sub, &k);
    int our;
    if (expect_team(p, &sub, &our) < 0)
        return -1;
    int set = p_unumset(p, &sub);
    if (set < 0)
        return -1;
    int n = node(p, CN_DO, where);
    if (n < 0)
        return -1;
    N(p, n)->flag = (int16_t)((k.ival == CK_DO ? 1 : 0) | (our ? 2 : 0));
    int tail = -1;
    link(p, n, &tail, set);
    do {
        int a = p_action(p, &sub);
        if (a < 0)
            return -1;
        link(p, n, &tail, a);
        peek(&sub, &k);
    } while (k.kind != CT_END);
    return n;
}

/* ---- conditions --------------------------------------------------------------- */
static int comp_op(const clang_tok_t *t)
{
    return t->kind >= CT_OP_L && t->kind <= CT_OP_G ? t->kind - CT_OP_L : -1;
}

/* the comparison mirrored when the number comes first: < <= == != >= > */
static int comp_swap(int op)
{
    static const int sw[6] = { 5, 4, 2, 3, 1, 0 };
    return sw[op];
}

static int comp_kind(const clang_tok_t *t)
{
    if (t->kind != CT_KW)
        return -1;
    switch (t->ival) {
    case CK_TIME:      return CN_TIME;
    case CK_OPP_GOALS: return CN_OPPGOALS;
    case CK_OUR_GOALS: return CN_OURGOALS;
    case CK_GOAL_DIFF: return CN_GOALDIFF;
    default:           return -1;
    }
}

/* (time|opp_goals|our_goals|goal_diff OP INT) or (INT OP time|...), list open */
static int p_comparison(parser_t *p, pcur_t *sub, const char *where)
{
    clang_tok_t a, o, b;
    peek(sub, &a);
    advance(sub, &a);
    peek(sub, &o);
    int op = comp_op(&o);
    if (op < 0)
        return fail(p, &o, "expected a comparison operator");
    advance(sub, &o);
    peek(sub, &b);
    int kind, value;
    if (a.kind == CT_INT) {
        kind = comp_kind(&b);
        if (kind < 0)
            return fail(p, &b, "expected time, opp_goals, our_goals or goal_diff");
        value = a.ival;
        op = comp_swap(op);
    } else {
        kind = comp_kind(&a);
        if (b.kind != CT_INT)
            return fail(p, &b, "expected an integer");
        value = b.ival;
    }
    advance(sub, &b);
    int n = node(p, kind, where);
    if (n < 0 || close_list(p, sub) < 0)
        return -1;
    N(p, n)->flag = (int16_t)op;
    N(p, n)->i[0] = value;
    ver(p, 8, 8);
    return n;
}

static int p_cond_list(parser_t *p, pcur_t *sub, int n)
{
    int tail = -1;
    clang_tok_t t;
    do {
        int c = p_cond(p, sub);
        if (c < 0)
            return -1;
        link(p, n, &tail, c);
        peek(sub, &t);
    } while (t.kind != CT_END);
    return n;
}

static int p_cond(parser_t *p, pcur_t *c)
{
    clang_tok_t t;
    peek(c, &t);
    if (t.kind == CT_STR) {
        int n = node(p, CN_CONDNAMED, t.s);
        if (n < 0)
            return -1;
        quoted(&t, &N(p, n)->s, &N(p, n)->slen); /* kept quoted, length with quotes */
        if (name_ok(p, &t, N(p, n)->slen) < 0)
            return -1;
        advance(c, &t);
        return n;
    }
    pcur_t sub;
    const char *where = t.s;
    if (open_list(p, c, &sub, "expected a condition") < 0)
        return -1;
    clang_tok_t k;
    peek(&sub, &k);
    if (k.kind == CT_INT || comp_kind(&k) >= 0)
        return p_comparison(p, &sub, where);
    if (k.kind != CT_KW)
        return fail(p, &k, "expected a condition keyword");
    advance(&sub, &k);
    int n, our = 0, tail = -1;
    switch (k.ival) {
    case CK_TRUE:
    case CK_FALSE:
        if (close_list(p, &sub) < 0)
            return -1;
        return node(p, k.ival == CK_TRUE ? CN_TRUE : CN_FALSE, where);
    case CK_PPOS: {
        int lo = 0, hi = 0;
        if (expect_team(p, &sub, &our) < 0)
            return -1;
        int set = p_unumset(p, &sub);
        if (set < 0 || expect_int(p, &sub, &lo, "expected the minimum count") < 0
            || expect_int(p, &sub, &hi, "expected the maximum count") < 0)
            return -1;
        int reg = p_region(p, &sub);
        if (reg < 0 || close_list(p, &sub) < 0)
            return -1;
        if ((n = node(p, CN_PPOS, where)) < 0)
            return -1;
        N(p, n)->flag = (int16_t)our;
        N(p, n)->i[0] = lo;
        N(p, n)->i[1] = hi;
        link(p, n, &tail, set);
        link(p, n, &tail, reg);
        return n;
    }
    case CK_BPOS: {
        int reg = p_region(p, &sub);
        if (reg < 0 || close_list(p, &sub) < 0 || (n = node(p, CN_BPOS, where)) < 0)
            return -1;
        N(p, n)->first = reg;
        return n;
    }
    case CK_BOWNER: {
        if (expect_team(p, &sub, &our) < 0)
            return -1;
        int set = p_unumset(p, &sub);
        if (set < 0 || close_list(p, &sub) < 0 || (n = node(p, CN_BOWNER, where)) < 0)
            return -1;
        N(p, n)->flag = (int16_t)our;
        N(p, n)->first = set;
        return n;
    }
    case CK_PLAYM: {
        clang_tok_t m;
        peek(&sub, &m);
        if (m.kind != CT_MODE)
            return fail(p, &m, "expected a play mode");
        advance(&sub, &m);
        if (close_list(p, &sub) < 0 || (n = node(p, CN_PLAYM, where)) < 0)
            return -1;
        N(p, n)->flag = (int16_t)m.ival;
        return n;
    }
    case CK_AND:
    case CK_OR:
        if ((n = node(p, k.ival == CK_AND ? CN_AND : CN_OR, where)) < 0)
            return -1;
        return p_cond_list(p, &sub, n);
    case CK_NOT: {
        int inner = p_cond(p, &sub);
        if (inner < 0 || close_list(p, &sub) < 0 || (n = node(p, CN_NOT, where)) < 0)
            return -1;
        N(p, n)->first = inner;
        return n;
    }
    case CK_UNUM: {
        clang_tok_t v;
        peek(&sub, &v);
        if ((n = node(p, CN_CONDUNUM, where)) < 0)
            return -1;
        if (v.kind == CT_VAR) {
            N(p, n)->s = v.s;
            N(p, n)->slen = (uint32_t)v.n;
        } else if (v.kind == CT_STR) {
            quoted(&v, &N(p, n)->s, &N(p, n)->slen);
        } else {
            return fail(p, &v, "expected a variable or a name");
        }
        if (name_ok(p, &v, N(p, n)->slen) < 0)
            return -1;
        advance(&sub, &v);
        int set = p_unumset(p, &sub);
        if (set < 0 || close_list(p, &sub) < 0)
            return -1;
        N(p, n)->first = set;
        ver(p, 8, 8);
        return n;
    }
    default:
        return fail(p, &k, "expected a condition keyword");
    }
}

/* ---- rules and rule ids -------------------------------------------------------- */
static int p_rid(parser_t *p, pcur_t *c, int list, int *tail)
{
    clang_tok_t t;
    peek(c, &t);
    if (t.kind != CT_VAR)
        return fail(p, &t, "expected a rule name");
    if (name_ok(p, &t, t.n) < 0)
        return -1;
    int r = node(p, CN_RID, t.s);
    if (r < 0)
        return -1;
    N(p, r)->s = t.s;
    N(p, r)->slen = (uint32_t)t.n;
    advance(c, &t);
    link(p, list, tail, r);
    return 0;
}

/* VAR | (VAR+) | all; an empty list means all */
static int p_idlist(parser_t *p, pcur_t *c)
{
    clang_tok_t t;
    peek(c, &t);
    int n = node(p, CN_IDLIST, t.s), tail = -1;
    if (n < 0)
        return -1;
    if (is_kw(&t, CK_ALL)) {
        advance(c, &t);
        return n;
    }
    if (t.kind == CT_VAR)
        return p_rid(p, c, n, &tail) < 0 ? -1 : n;
    pcur_t sub;
    if (t.kind != CT_LIST)
        return fail(p, &t, "expected a rule name, a list of them or all");
    if (open_list(p, c, &sub, "expected a rule list") < 0)
        return -1;
    do {
        if (p_rid(p, &sub, n, &tail) < 0)
            return -1;
        peek(&sub, &t);
    } while (t.kind != CT_END);
    return n;
}

static int starts_directive(const pcur_t *c)
{
    clang_tok_t t;
    peek(c, &t);
    if (t.kind == CT_STR)
        return 1;
    if (t.kind != CT_LIST)
        return 0;
    pcur_t sub;
    cur_open(&sub, c->at);
    peek(&sub, &t);
    return is_kw(&t, CK_DO) || is_kw(&t, CK_DONT);
}

/* (COND DIRECTIVE+) | (COND RULE+) | IDLIST */
static int p_rule(parser_t *p, pcur_t *c)
{
    clang_tok_t t;
    peek(c, &t);
    int n, tail = -1;
    if (t.kind == CT_LIST) {
        pcur_t sub;
        cur_open(&sub, c->at);
        clang_tok_t f;
        peek(&sub, &f);
        if (f.kind != CT_VAR) {
            const char *where = t.s;
            advance(c, &t);
            int cond = p_cond(p, &sub);
            if (cond < 0)
                return -1;
            int dirs = starts_directive(&sub);
            if ((n = node(p, dirs ? CN_SIMPLERULE : CN_NESTEDRULE, where)) < 0)
                return -1;
            link(p, n, &tail, cond);
            do {
                int x = dirs ? p_dir(p, &sub) : p_rule(p, &sub);
                if (x < 0)
                    return -1;
                link(p, n, &tail, x);
                peek(&sub, &f);
            } while (f.kind != CT_END);
            return n;
        }
    }
    int ids = p_idlist(p, c);
    if (ids < 0 || (n = node(p, CN_IDRULE, t.s)) < 0)
        return -1;
    N(p, n)->first = ids;
    return n;
}

/* ---- messages ------------------------------------------------------------------ */
/* (TTL COND DIRECTIVE+) | (clear) */
static int p_token(parser_t *p, pcur_t *c)
{
    pcur_t sub;
    clang_tok_t t;
    peek(c, &t);
    const char *where = t.s;
    if (open_list(p, c, &sub, "expected a token (TTL CONDITION DIRECTIVE...) or (clear)") < 0)
        return -1;
    peek(&sub, &t);
    if (is_kw(&t, CK_CLEAR)) {
        advance(&sub, &t);
        if (close_list(p, &sub) < 0)
            return -1;
        return node(p, CN_TOKCLEAR, where);
    }
    int ttl = 0;
    if (expect_int(p, &sub, &ttl, "expected a time to live or clear") < 0)
        return -1;
    int cond = p_cond(p, &sub);
    if (cond < 0)
        return -1;
    int n = node(p, CN_TOKRULE, where), tail = -1;
    if (n < 0)
        return -1;
    N(p, n)->i[0] = ttl;
    link(p, n, &tail, cond);
    do {
        int d = p_dir(p, &sub);
        if (d < 0)
            return -1;
        link(p, n, &tail, d);
        peek(&sub, &t);
    } while (t.kind != CT_END);
    return n;
}

/* (definec "N" COND) (defined "N" DIR) (definer "N" REG) (definea "N" ACT)
 * (definerule VAR model|direc RULE) */
static int p_def(parser_t *p, pcur_t *c)
{
    pcur_t sub;
    clang_tok_t t;
    peek(c, &t);
    const char *where = t.s;
    if (open_list(p, c, &sub, "expected a definition") < 0)
        return -1;
    peek(&sub, &t);
    if (t.kind != CT_KW)
        return fail(p, &t, "expected definec, defined, definer, definea or definerule");
    int kw = t.ival, n, arg;
    advance(&sub, &t);
    if (kw == CK_DEFINERULE) {
        clang_tok_t v, m;
        peek(&sub, &v);
        if (v.kind != CT_VAR)
            return fail(p, &v, "expected a rule name");
        advance(&sub, &v);
        peek(&sub, &m);
        if (!is_kw(&m, CK_MODEL) && !is_kw(&m, CK_DIREC))
            return fail(p, &m, "expected model or direc");
        advance(&sub, &m);
        int rule = p_rule(p, &sub);
        if (rule < 0 || close_list(p, &sub) < 0 || name_ok(p, &v, v.n) < 0)
            return -1;
        if ((n = node(p, CN_DEFRULE, where)) < 0)
            return -1;
        N(p, n)->s = v.s;
        N(p, n)->slen = (uint32_t)v.n;
        N(p, n)->flag = is_kw(&m, CK_MODEL);
        N(p, n)->first = rule;
        ver(p, 8, 8);
        return n;
    }
    int kind = kw == CK_DEFINEC ? CN_DEFC : kw == CK_DEFINED ? CN_DEFD
             : kw == CK_DEFINER ? CN_DEFR : kw == CK_DEFINEA ? CN_DEFA : -1;
    if (kind < 0)
        return fail(p, &t, "expected definec, defined, definer, definea or definerule");
    if ((n = node(p, kind, where)) < 0 || take_name(p, &sub, n, "expected a quoted name") < 0)
        return -1;
    switch (kind) {
    case CN_DEFC: arg = p_cond(p, &sub); break;
    case CN_DEFD: arg = p_dir(p, &sub); break;
    case CN_DEFR: arg = p_region(p, &sub); break;
    default:      arg = p_action(p, &sub); break;
    }
    if (arg < 0 || close_list(p, &sub) < 0)
        return -1;
    N(p, n)->first = arg;
    return n;
}

typedef int (*item_fn)(parser_t *p, pcur_t *c);

/* one or more items up to the end of the list */
static int p_items(parser_t *p, pcur_t *sub, int n, item_fn fn)
{
    int tail = -1;
    clang_tok_t t;
    do {
        int x = fn(p, sub);
        if (x < 0)
            return -1;
        link(p, n, &tail, x);
        peek(sub, &t);
    } while (t.kind != CT_END);
    return n;
}

static int p_ver(parser_t *p, pcur_t *c)
{
    pcur_t sub;
    clang_tok_t t;
    peek(c, &t);
    const char *where = t.s;
    if (open_list(p, c, &sub, "expected (ver N)") < 0
        || expect_kw(p, &sub, CK_VER, "expected ver") < 0)
        return -1;
    int n = node(p, CN_VER, where);
    if (n < 0 || expect_num(p, &sub, &N(p, n)->d[0]) < 0 || close_list(p, &sub) < 0)
        return -1;
    return n;
}

static int p_activation(parser_t *p, pcur_t *c)
{
    pcur_t sub;
    clang_tok_t t;
    peek(c, &t);
    const char *where = t.s;
    if (open_list(p, c, &sub, "expected (on|off RULES)") < 0)
        return -1;
    peek(&sub, &t);
    if (!is_kw(&t, CK_ON) && !is_kw(&t, CK_OFF))
        return fail(p, &t, "expected on or off");
    advance(&sub, &t);
    int ids = p_idlist(p, &sub);
    int n;
    if (ids < 0 || close_list(p, &sub) < 0 || (n = node(p, CN_ACTIVATE, where)) < 0)
        return -1;
    N(p, n)->flag = is_kw(&t, CK_ON);
    N(p, n)->first = ids;
    return n;
}

/* the message list itself; *type gets CLANG_* */
static int p_message(parser_t *p, const sexp_t *list, int *type)
{
    pcur_t sub;
    cur_open(&sub, list);
    clang_tok_t t;
    peek(&sub, &t);
    if (t.kind != CT_KW)
        return fail(p, &t, "expected a message type");
    int kw = t.ival, n = -1;
    advance(&sub, &t);
    const char *where = list->text;
    switch (kw) {
    case CK_META:
        *type = CLANG_META;
        if ((n = node(p, CN_META, where)) < 0 || p_items(p, &sub, n, p_ver) < 0)
            return -1;
        return n;
    case CK_INFO:
    case CK_ADVICE:
        *type = kw == CK_INFO ? CLANG_INFO : CLANG_ADVICE;
        if ((n = node(p, kw == CK_INFO ? CN_INFO : CN_ADVICE, where)) < 0
            || p_items(p, &sub, n, p_token) < 0)
            return -1;
        return n;
    case CK_DEFINE:
        *type = CLANG_DEFINE;
        if ((n = node(p, CN_DEFINE, where)) < 0 || p_items(p, &sub, n, p_def) < 0)
            return -1;
        return n;
    case CK_RULE:
        *type = CLANG_RULE;
        if ((n = node(p, CN_RULEMSG, where)) < 0 || p_items(p, &sub, n, p_activation) < 0)
            return -1;
        return n;
    case CK_DELETE: {
        *type = CLANG_DEL;
        int ids = p_idlist(p, &sub);
        if (ids < 0 || close_list(p, &sub) < 0 || (n = node(p, CN_DEL, where)) < 0)
            return -1;
        N(p, n)->first = ids;
        return n;
    }
    case CK_UNSUPP:
        *type = CLANG_UNSUPP;
        if (close_list(p, &sub) < 0)
            return -1;
        return node(p, CN_UNSUPP, where);
    case CK_FREEFORM: {
        *type = CLANG_FREEFORM;
        peek(&sub, &t);
        if (t.kind != CT_STR)
            return fail(p, &t, "expected a quoted string");
        if ((int)t.n > p->freeform_max)
            return fail_at(p, t.s - 1, "freeform message longer than %d characters",
                           p->freeform_max);
        if ((n = node(p, CN_FREEFORM, where)) < 0)
            return -1;
        N(p, n)->s = t.s;
        N(p, n)->slen = (uint32_t)t.n;
        advance(&sub, &t);
        return close_list(p, &sub) < 0 ? -1 : n;
    }
    default:
        return fail(p, &t, "expected a message type");
    }
}

/* the version span every message type sets last (after its contents) */
static void message_span(parser_t *p, int type, clang_msg_t *m)
{
    uint32_t mn = UINT32_MAX, mx = 0;
    ver_apply(&p->bmin, &p->bmax, p->bmin, p->bmax); /* the builder hands its state over */
    ver_apply(&mn, &mx, p->bmin, p->bmax);
    uint32_t a, b;
    switch (type) {
    case CLANG_META: case CLANG_INFO: case CLANG_ADVICE: a = b = 7; break;
    case CLANG_RULE: case CLANG_DEL:                     a = b = 8; break;
    default:                                             a = 8; b = 7; break;
    }
    ver_apply(&mn, &mx, a, b);
    m->min_ver = mn;
    m->max_ver = mx;
}

int clang_parse(clang_work_t *w, const char *text, size_t len, int freeform_max,
                clang_msg_t *msg, char *err, size_t errlen)
{
    parser_t p = { w, text, text + len, freeform_max, UINT32_MAX, 0, err, errlen, 0, -1, -1 };
    sexp_arena_t arena = { w->sx, CLANG_MAX_SEXP, 0 };
    char sxerr[96];
    size_t end = 0;
    w->nnodes = 0;
    w->text = text;
    memset(msg, 0, sizeof *msg);
    if (err && errlen)
        err[0] = '\0';
    const sexp_t *root = sexp_parse(&arena, text, len, &end, sxerr, sizeof sxerr);
    if (!root) {
        if (err && errlen)
            snprintf(err, errlen, "%s", sxerr);
        return -1;
    }
    if (!root->is_list)
        return fail_at(&p, root->text, "expected '('");
    for (size_t i = end; i < len && text[i] != '\0'; i++) {
        if (text[i] != ' ' && text[i] != '\t' && text[i] != '\n' && text[i] != '\r')
            return fail_at(&p, text + i, "unexpected text after the message");
    }
    pcur_t top;
    cur_open(&top, root);
    clang_tok_t t;
    peek(&top, &t);
    const sexp_t *mlist = root;
    if (is_kw(&t, CK_SAY) || is_kw(&t, CK_HEAR)) {
        int hear = is_kw(&t, CK_HEAR), v = 0;
        advance(&top, &t);
        if (hear) {
            clang_tok_t s;
            if (expect_int(&p, &top, &v, "expected the time") < 0)
                return -1;
            peek(&top, &s);
            if (!is_kw(&s, CK_COACH_L) && !is_kw(&s, CK_COACH_R))
                return fail(&p, &s, "expected online_coach_left or online_coach_right");
            advance(&top, &s);
            if (expect_int(&p, &top, &v, "expected the receive time") < 0)
                return -1;
        }
        peek(&top, &t);
        if (t.kind != CT_LIST)
            return fail(&p, &t, "expected a message");
        mlist = top.at;
        advance(&top, &t);
        if (close_list(&p, &top) < 0)
            return -1;
    }
    int type = CLANG_NONE;
    int root_node = p_message(&p, mlist, &type);
    if (root_node < 0)
        return -1;
    msg->type = type;
    msg->root = root_node;
    message_span(&p, type, msg);
    return 0;
}
