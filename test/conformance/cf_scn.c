/* cf_scn.c -- the scenario parser: loops are unrolled first (`for V A B` ... `end`,
 * `$V` / `${V}` substituted), then each line becomes a declaration, a comparison rule
 * or a step. Called by cf_main.c; the unit tests feed it text directly. */
#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cf_mem.h"
#include "cf_scn.h"

#define MAX_VARS  8
#define MAX_LINE  8192

typedef struct xline {
    int   line;
    char *text;
} xline_t;

typedef struct xbuf {
    xline_t *v;
    int      n, cap;
} xbuf_t;

typedef struct var {
    char name[16];
    char val[24];
} var_t;

static void seterr(char *err, size_t errlen, int line, const char *fmt, ...)
{
    char msg[CF_ERR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line > 0)
        snprintf(err, errlen, "line %d: %s", line, msg);
    else
        snprintf(err, errlen, "%s", msg);
}

static void push_line(xbuf_t *b, int line, char *text)
{
    if (b->n == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 64;
        b->v = cf_xrealloc(b->v, (size_t)b->cap * sizeof *b->v);
    }
    b->v[b->n].line = line;
    b->v[b->n].text = text;
    b->n++;
}

/* text with $NAME / ${NAME} replaced by the bound values; NULL with err for an unbound
 * name. A '$' not followed by a letter, '_' or '{' stays (regular-expression anchors). */
static char *substitute(const char *in, const var_t *vars, int nvars, int line,
                        char *err, size_t errlen)
{
    char out[MAX_LINE];
    size_t o = 0;
    for (const char *p = in; *p; ) {
        if (*p == '$' && (isalpha((unsigned char)p[1]) || p[1] == '_' || p[1] == '{')) {
            int brace = p[1] == '{';
            const char *s = p + 1 + brace;
            size_t n = 0;
            while (isalnum((unsigned char)s[n]) || s[n] == '_')
                n++;
            const char *val = NULL;
            for (int i = nvars - 1; i >= 0; i--)
                if (strlen(vars[i].name) == n && strncmp(vars[i].name, s, n) == 0) {
                    val = vars[i].val;
                    break;
                }
            if (!val) {
                seterr(err, errlen, line, "unknown variable $%.*s", (int)n, s);
                return NULL;
            }
            /* ${V*2+1}: integer arithmetic, left to right */
            char num[24];
            size_t e = n;
            if (brace) {
                long v = strtol(val, NULL, 10);
                while (s[e] == '+' || s[e] == '-' || s[e] == '*') {
                    char op = s[e++], *end;
                    long x = strtol(s + e, &end, 10);
                    if (end == s + e) {
                        seterr(err, errlen, line, "number expected after '%c' in ${", op);
                        return NULL;
                    }
                    e = (size_t)(end - s);
                    v = op == '+' ? v + x : op == '-' ? v - x : v * x;
                }
                if (s[e] != '}') {
                    seterr(err, errlen, line, "unterminated ${");
                    return NULL;
                }
                snprintf(num, sizeof num, "%ld", v);
                val = num;
            }
            n = e;
            size_t vl = strlen(val);
            if (o + vl >= sizeof out - 1) {
                seterr(err, errlen, line, "line too long");
                return NULL;
            }
            memcpy(out + o, val, vl);
            o += vl;
            p = s + n + brace;
            continue;
        }
        if (o >= sizeof out - 1) {
            seterr(err, errlen, line, "line too long");
            return NULL;
        }
        out[o++] = *p++;
    }
    out[o] = '\0';
    return cf_xstrdup(out);
}

static int first_word_is(const char *l, const char *w)
{
    size_t n = strlen(w);
    return strncmp(l, w, n) == 0 && (l[n] == '\0' || isspace((unsigned char)l[n]));
}

/* Unroll lines [from, to) of src into out, `for` loops expanded. */
static int expand(char *const *src, const int *srcline, int from, int to, var_t *vars,
                  int nvars, xbuf_t *out, char *err, size_t errlen)
{
    for (int i = from; i < to; i++) {
        const char *l = src[i];
        if (first_word_is(l, "end")) {
            seterr(err, errlen, srcline[i], "end without for");
            return -1;
        }
        if (!first_word_is(l, "for")) {
            char *t = substitute(l, vars, nvars, srcline[i], err, errlen);
            if (!t)
                return -1;
            push_line(out, srcline[i], t);
            continue;
        }
        char name[16], a[24], b[24];
        if (sscanf(l, "for %15s %23s %23s", name, a, b) != 3) {
            seterr(err, errlen, srcline[i], "for VAR FROM TO expected");
            return -1;
        }
        /* bounds may use outer variables */
        char *sa = substitute(a, vars, nvars, srcline[i], err, errlen);
        char *sb = sa ? substitute(b, vars, nvars, srcline[i], err, errlen) : NULL;
        if (!sb) {
            free(sa);
            return -1;
        }
        char *ea, *eb;
        long lo = strtol(sa, &ea, 10), hi = strtol(sb, &eb, 10);
        int bad = *ea || *eb || ea == sa || eb == sb;
        free(sa);
        free(sb);
        if (bad) {
            seterr(err, errlen, srcline[i], "for: bounds must be integers");
            return -1;
        }
        int depth = 1, j;
        for (j = i + 1; j < to; j++) {
            if (first_word_is(src[j], "for"))
                depth++;
            else if (first_word_is(src[j], "end") && --depth == 0)
                break;
        }
        if (j == to) {
            seterr(err, errlen, srcline[i], "for without end");
            return -1;
        }
        if (nvars == MAX_VARS) {
            seterr(err, errlen, srcline[i], "loops nested too deep");
            return -1;
        }
        for (long v = lo; v <= hi; v++) {
            snprintf(vars[nvars].name, sizeof vars[nvars].name, "%s", name);
            snprintf(vars[nvars].val, sizeof vars[nvars].val, "%ld", v);
            if (expand(src, srcline, i + 1, j, vars, nvars + 1, out, err, errlen) < 0)
                return -1;
        }
        i = j;
    }
    return 0;
}

/* the next whitespace-separated word of *p into w; 0 if none */
static int word(const char **p, char *w, size_t wl)
{
    const char *s = *p;
    while (isspace((unsigned char)*s))
        s++;
    if (!*s)
        return 0;
    size_t n = 0;
    while (s[n] && !isspace((unsigned char)s[n]))
        n++;
    snprintf(w, wl, "%.*s", (int)n, s);
    s += n;
    while (isspace((unsigned char)*s))
        s++;
    *p = s;
    return 1;
}

static int parse_int(const char *w, int *v)
{
    char *e;
    errno = 0;
    long x = strtol(w, &e, 10);
    if (!*w || *e || errno || x < -1000000 || x > 100000000)
        return -1;
    *v = (int)x;
    return 0;
}

static int check_re(const char *re, int line, char *err, size_t errlen)
{
    regex_t r;
    int rc = regcomp(&r, re, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        char m[128];
        regerror(rc, &r, m, sizeof m);
        seterr(err, errlen, line, "bad pattern /%s/: %s", re, m);
        return -1;
    }
    regfree(&r);
    return 0;
}

static void add_opt(char ***v, int *n, const char *rest)
{
    char w[512];
    const char *p = rest;
    while (word(&p, w, sizeof w)) {
        *v = cf_xrealloc(*v, (size_t)(*n + 1) * sizeof **v);
        (*v)[(*n)++] = cf_xstrdup(w);
    }
}

static cf_step_t *add_step(cf_scn_t *s, cf_op_t op, int line)
{
    s->step = cf_xrealloc(s->step, (size_t)(s->nstep + 1) * sizeof *s->step);
    cf_step_t *st = &s->step[s->nstep++];
    memset(st, 0, sizeof *st);
    st->op = op;
    st->line = line;
    st->client = -1;
    return st;
}

static const char *const file_streams[] = { "stdout", "rcg", "rcl", "kwy", "logfiles", NULL };

static int is_file_stream(const char *name)
{
    for (int i = 0; file_streams[i]; i++)
        if (strcmp(name, file_streams[i]) == 0)
            return 1;
    return 0;
}

static const struct {
    const char    *word;
    cf_rule_kind_t kind;
    int            has_re;
} rule_words[] = {
    { "drop", CF_RULE_DROP, 1 },     { "keep", CF_RULE_KEEP, 1 },
    { "notime", CF_RULE_NOTIME, 0 }, { "squash", CF_RULE_SQUASH, 0 },
    { "shape", CF_RULE_SHAPE, 1 },   { "timing", CF_RULE_TIMING, 0 },
    { "seecanon", CF_RULE_SEECANON, 0 }, { "sortrun", CF_RULE_SORTRUN, 1 },
    { "cut", CF_RULE_CUT, 1 },           { "seenames", CF_RULE_SEENAMES, 0 },
    { "ignore", CF_RULE_IGNORE, 0 },     { "blank", CF_RULE_BLANK, 1 },
    { "strip", CF_RULE_STRIP, 1 },
};

static int parse_rule(cf_scn_t *s, int k, const char *rest, int line, char *err, size_t errlen)
{
    char stream[CF_NAME_LEN + 8];
    const char *p = rest;
    if (!word(&p, stream, sizeof stream) || strlen(stream) >= CF_NAME_LEN) {
        seterr(err, errlen, line, "%s: stream name expected", rule_words[k].word);
        return -1;
    }
    int n = 0;
    if (rule_words[k].kind == CF_RULE_CUT) {
        char w[32];
        if (!word(&p, w, sizeof w) || parse_int(w, &n) < 0 || n < 1) {
            seterr(err, errlen, line, "cut STREAM BYTES PATTERN");
            return -1;
        }
    }
    if (rule_words[k].has_re && !*p) {
        seterr(err, errlen, line, "%s: pattern expected", rule_words[k].word);
        return -1;
    }
    if (!rule_words[k].has_re && *p) {
        seterr(err, errlen, line, "%s takes only a stream name", rule_words[k].word);
        return -1;
    }
    if (rule_words[k].has_re && check_re(p, line, err, errlen) < 0)
        return -1;
    s->rule = cf_xrealloc(s->rule, (size_t)(s->nrule + 1) * sizeof *s->rule);
    cf_rule_t *r = &s->rule[s->nrule++];
    memset(r, 0, sizeof *r);
    r->kind = rule_words[k].kind;
    r->line = line;
    snprintf(r->stream, sizeof r->stream, "%s", stream);
    r->re = rule_words[k].has_re ? cf_xstrdup(p) : NULL;
    r->n = n;
    return 0;
}

static int parse_client(cf_scn_t *s, const char *rest, int line, char *err, size_t errlen)
{
    char name[64], kind[32], flag[32];
    const char *p = rest;
    if (!word(&p, name, sizeof name) || !word(&p, kind, sizeof kind)) {
        seterr(err, errlen, line, "client NAME player|trainer|coach|monitor [sync]");
        return -1;
    }
    if (strlen(name) >= CF_NAME_LEN || is_file_stream(name) || cf_scn_client(s, name) >= 0) {
        seterr(err, errlen, line, "client name '%s' too long, reserved or taken", name);
        return -1;
    }
    if (s->nclient == CF_MAX_CLIENTS) {
        seterr(err, errlen, line, "more than %d clients", CF_MAX_CLIENTS);
        return -1;
    }
    cf_client_decl_t *c = &s->client[s->nclient];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    if (strcmp(kind, "player") == 0)
        c->kind = CF_KIND_PLAYER;
    else if (strcmp(kind, "trainer") == 0)
        c->kind = CF_KIND_TRAINER;
    else if (strcmp(kind, "coach") == 0)
        c->kind = CF_KIND_COACH;
    else if (strcmp(kind, "monitor") == 0)
        c->kind = CF_KIND_MONITOR;
    else {
        seterr(err, errlen, line, "unknown client kind '%s'", kind);
        return -1;
    }
    if (word(&p, flag, sizeof flag)) {
        if (strcmp(flag, "sync") != 0 || *p) {
            seterr(err, errlen, line, "client: only 'sync' may follow the kind");
            return -1;
        }
        c->sync = 1;
    }
    s->nclient++;
    return 0;
}

/* "NAME" at the start of rest: the client's index (rest advanced), -1 with err */
static int client_arg(cf_scn_t *s, const char **rest, const char *op, int line, char *err,
                      size_t errlen)
{
    char name[64];
    if (!word(rest, name, sizeof name)) {
        seterr(err, errlen, line, "%s: client name expected", op);
        return -1;
    }
    int c = cf_scn_client(s, name);
    if (c < 0)
        seterr(err, errlen, line, "%s: unknown client '%s'", op, name);
    return c;
}

static int parse_step(cf_scn_t *s, const char *op, const char *rest, int line, char *err,
                      size_t errlen)
{
    char w[64] = "", w2[64], w3[64];
    const char *p = rest;
    if (strcmp(op, "send") == 0 || strcmp(op, "sendraw") == 0 || strcmp(op, "sendinit") == 0) {
        int c = client_arg(s, &p, op, line, err, errlen);
        if (c < 0)
            return -1;
        if (!*p) {
            seterr(err, errlen, line, "%s: text expected", op);
            return -1;
        }
        cf_step_t *st = add_step(s, strcmp(op, "sendinit") == 0 ? CF_OP_SENDINIT : CF_OP_SEND,
                                 line);
        st->client = c;
        st->n = strcmp(op, "sendraw") == 0;     /* 1: without the terminating NUL */
        st->text = cf_xstrdup(p);
        return 0;
    }
    if (strcmp(op, "wait") == 0 || strcmp(op, "waitafter") == 0) {
        int c = client_arg(s, &p, op, line, err, errlen);
        if (c < 0)
            return -1;
        int after = 0;
        if (strcmp(op, "waitafter") == 0
            && (!word(&p, w, sizeof w) || parse_int(w, &after) < 0 || after <= 0)) {
            seterr(err, errlen, line, "waitafter: milliseconds (> 0) expected");
            return -1;
        }
        if (!*p) {
            seterr(err, errlen, line, "wait: pattern expected");
            return -1;
        }
        if (check_re(p, line, err, errlen) < 0)
            return -1;
        cf_step_t *st = add_step(s, CF_OP_WAIT, line);
        st->client = c;
        st->ms = s->timeout;
        st->n = after;
        st->text = cf_xstrdup(p);
        return 0;
    }
    if (strcmp(op, "stepuntil") == 0) {
        int c = client_arg(s, &p, op, line, err, errlen);
        if (c < 0)
            return -1;
        int n = 0;
        if (!word(&p, w, sizeof w) || parse_int(w, &n) < 0 || n < 0 || !*p) {
            seterr(err, errlen, line, "stepuntil: a count and a pattern expected");
            return -1;
        }
        if (check_re(p, line, err, errlen) < 0)
            return -1;
        cf_step_t *st = add_step(s, CF_OP_STEPUNTIL, line);
        st->client = c;
        st->n = n;
        st->gap = 12;      /* cycles tried: the timer's period is 3 (at most 8) cycles */
        st->text = cf_xstrdup(p);
        return 0;
    }
    if (strcmp(op, "sleepto") == 0) {
        int v = 0, anchored = 0;
        if (!word(&p, w, sizeof w) || parse_int(w, &v) < 0 || v < 0 || *p) {
            seterr(err, errlen, line, "sleepto: milliseconds expected");
            return -1;
        }
        for (int i = 0; i < s->nstep; i++)
            anchored |= s->step[i].op == CF_OP_WAIT && s->step[i].n > 0;
        if (!anchored) {
            seterr(err, errlen, line, "sleepto: no waitafter before it to count from");
            return -1;
        }
        add_step(s, CF_OP_SLEEPTO, line)->ms = v;
        return 0;
    }
    if (strcmp(op, "sleep") == 0 || strcmp(op, "step") == 0) {
        int v = 1;
        if (word(&p, w, sizeof w) && (parse_int(w, &v) < 0 || v < 0 || *p)) {
            seterr(err, errlen, line, "%s: one non-negative number expected", op);
            return -1;
        }
        if (strcmp(op, "sleep") == 0 && !*w) {
            seterr(err, errlen, line, "sleep: milliseconds expected");
            return -1;
        }
        cf_step_t *st = add_step(s, strcmp(op, "sleep") == 0 ? CF_OP_SLEEP : CF_OP_STEP, line);
        st->ms = st->n = v;
        return 0;
    }
    if (strcmp(op, "sync") == 0 || strcmp(op, "zlib") == 0) {
        int c = client_arg(s, &p, op, line, err, errlen);
        if (c < 0)
            return -1;
        int v;
        if (!word(&p, w, sizeof w) || *p) {
            seterr(err, errlen, line, "%s: one value expected", op);
            return -1;
        }
        if (strcmp(op, "sync") == 0) {
            if (strcmp(w, "on") != 0 && strcmp(w, "off") != 0) {
                seterr(err, errlen, line, "sync: on or off");
                return -1;
            }
            v = strcmp(w, "on") == 0;
        } else if (parse_int(w, &v) < 0 || v < -1 || v > 9) {
            seterr(err, errlen, line, "zlib: level -1..9");
            return -1;
        }
        cf_step_t *st = add_step(s, strcmp(op, "sync") == 0 ? CF_OP_SYNC : CF_OP_ZLIB, line);
        st->client = c;
        st->n = v;
        return 0;
    }
    if (strcmp(op, "stall") == 0) {
        int n, ms, gap;
        if (!word(&p, w, sizeof w) || !word(&p, w2, sizeof w2) || !word(&p, w3, sizeof w3) || *p
            || parse_int(w, &n) < 0 || parse_int(w2, &ms) < 0 || parse_int(w3, &gap) < 0
            || n < 1 || ms < 1 || gap < 0) {
            seterr(err, errlen, line, "stall COUNT MS GAP_MS");
            return -1;
        }
        cf_step_t *st = add_step(s, CF_OP_STALL, line);
        st->n = n;
        st->ms = ms;
        st->gap = gap;
        return 0;
    }
    if (strcmp(op, "close") == 0 || strcmp(op, "forget") == 0) {
        int c = client_arg(s, &p, op, line, err, errlen);
        if (c < 0)
            return -1;
        int close_op = strcmp(op, "close") == 0;
        if (*p && (close_op || check_re(p, line, err, errlen) < 0)) {
            if (close_op)
                seterr(err, errlen, line, "close: nothing expected after the client");
            return -1;
        }
        cf_step_t *st = add_step(s, close_op ? CF_OP_CLOSE : CF_OP_FORGET, line);
        st->client = c;
        if (*p)
            st->text = cf_xstrdup(p); /* forget: only what matches */
        return 0;
    }
    if (strcmp(op, "stop") == 0 && !*p) {
        add_step(s, CF_OP_STOP, line);
        return 0;
    }
    seterr(err, errlen, line, "unknown statement '%s'", op);
    return -1;
}

static int parse_line(cf_scn_t *s, const char *l, int line, char *err, size_t errlen)
{
    char op[32];
    const char *p = l;
    if (!word(&p, op, sizeof op))
        return 0;
    if (strcmp(op, "desc") == 0) {
        snprintf(s->desc, sizeof s->desc, "%s", p);
        return 0;
    }
    if (strcmp(op, "opt") == 0 || strcmp(op, "ours") == 0 || strcmp(op, "ref") == 0) {
        if (!*p) {
            seterr(err, errlen, line, "%s: server arguments expected", op);
            return -1;
        }
        if (op[0] == 'o' && op[1] == 'p')
            add_opt(&s->opt_both, &s->nopt_both, p);
        else if (op[0] == 'o')
            add_opt(&s->opt_ours, &s->nopt_ours, p);
        else
            add_opt(&s->opt_ref, &s->nopt_ref, p);
        return 0;
    }
    if (strcmp(op, "logs") == 0 || strcmp(op, "stdout") == 0 || strcmp(op, "noref") == 0) {
        if (*p) {
            seterr(err, errlen, line, "%s takes no argument", op);
            return -1;
        }
        if (op[0] == 'l')
            s->logs = 1;
        else if (op[0] == 's')
            s->stdout_cmp = 1;
        else
            s->noref = 1;
        return 0;
    }
    if (strcmp(op, "timeout") == 0) {
        char w[32];
        if (!word(&p, w, sizeof w) || *p || parse_int(w, &s->timeout) < 0 || s->timeout < 1) {
            seterr(err, errlen, line, "timeout: milliseconds expected");
            return -1;
        }
        return 0;
    }
    if (strcmp(op, "client") == 0)
        return parse_client(s, p, line, err, errlen);
    for (size_t k = 0; k < sizeof rule_words / sizeof rule_words[0]; k++)
        if (strcmp(op, rule_words[k].word) == 0)
            return parse_rule(s, (int)k, p, line, err, errlen);
    return parse_step(s, op, p, line, err, errlen);
}

/* every rule names a client or a file stream */
static int check_rules(const cf_scn_t *s, char *err, size_t errlen)
{
    for (int i = 0; i < s->nrule; i++)
        if (cf_scn_client(s, s->rule[i].stream) < 0 && !is_file_stream(s->rule[i].stream)) {
            seterr(err, errlen, s->rule[i].line, "unknown stream '%s'", s->rule[i].stream);
            return -1;
        }
    return 0;
}

int cf_scn_parse(cf_scn_t *s, const char *name, const char *text, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    s->timeout = 3000;
    /* split into lines: comments (# as first non-blank) and blank lines dropped */
    char **src = NULL;
    int *srcline = NULL, nsrc = 0, lineno = 0, rc = -1;
    for (const char *p = text; *p; ) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        lineno++;
        while (n && isspace((unsigned char)p[n - 1]))
            n--;
        const char *b = p;
        while (b < p + n && isspace((unsigned char)*b))
            b++;
        if (b < p + n && *b != '#') {
            if ((size_t)(p + n - b) >= MAX_LINE) {
                seterr(err, errlen, lineno, "line too long");
                goto out;
            }
            src = cf_xrealloc(src, (size_t)(nsrc + 1) * sizeof *src);
            srcline = cf_xrealloc(srcline, (size_t)(nsrc + 1) * sizeof *srcline);
            src[nsrc] = strndup(b, (size_t)(p + n - b));
            srcline[nsrc++] = lineno;
        }
        p = e ? e + 1 : p + n;
    }
    xbuf_t x = { 0 };
    var_t vars[MAX_VARS];
    if (expand(src, srcline, 0, nsrc, vars, 0, &x, err, errlen) == 0) {
        rc = 0;
        for (int i = 0; i < x.n && rc == 0; i++)
            rc = parse_line(s, x.v[i].text, x.v[i].line, err, errlen);
        if (rc == 0)
            rc = check_rules(s, err, errlen);
    }
    for (int i = 0; i < x.n; i++)
        free(x.v[i].text);
    free(x.v);
out:
    for (int i = 0; i < nsrc; i++)
        free(src[i]);
    free(src);
    free(srcline);
    if (rc < 0)
        cf_scn_free(s);
    return rc;
}

int cf_scn_load(cf_scn_t *s, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        seterr(err, errlen, 0, "%s: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = cf_xrealloc(NULL, cap);
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len + 1 == cap)
            buf = cf_xrealloc(buf, cap *= 2);
    }
    fclose(f);
    buf[len] = '\0';
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    char name[64];
    snprintf(name, sizeof name, "%s", base);
    char *dot = strstr(name, ".scn");
    if (dot)
        *dot = '\0';
    char e2[CF_ERR_LEN];
    int rc = cf_scn_parse(s, name, buf, e2, sizeof e2);
    if (rc < 0)
        seterr(err, errlen, 0, "%s: %s", path, e2);
    free(buf);
    return rc;
}

void cf_scn_free(cf_scn_t *s)
{
    for (int i = 0; i < s->nopt_both; i++)
        free(s->opt_both[i]);
    for (int i = 0; i < s->nopt_ours; i++)
        free(s->opt_ours[i]);
    for (int i = 0; i < s->nopt_ref; i++)
        free(s->opt_ref[i]);
    free(s->opt_both);
    free(s->opt_ours);
    free(s->opt_ref);
    for (int i = 0; i < s->nstep; i++)
        free(s->step[i].text);
    free(s->step);
    for (int i = 0; i < s->nrule; i++)
        free(s->rule[i].re);
    free(s->rule);
    memset(s, 0, sizeof *s);
}

int cf_scn_client(const cf_scn_t *s, const char *name)
{
    for (int i = 0; i < s->nclient; i++)
        if (strcmp(s->client[i].name, name) == 0)
            return i;
    return -1;
}

int cf_scn_rules(const cf_scn_t *s, const char *stream, const cf_rule_t **out, int max)
{
    int n = 0;
    for (int i = 0; i < s->nrule && n < max; i++)
        if (strcmp(s->rule[i].stream, stream) == 0)
            out[n++] = &s->rule[i];
    return n;
}

int cf_scn_has_rule(const cf_scn_t *s, const char *stream, cf_rule_kind_t kind)
{
    for (int i = 0; i < s->nrule; i++)
        if (s->rule[i].kind == kind && strcmp(s->rule[i].stream, stream) == 0)
            return 1;
    return 0;
}
