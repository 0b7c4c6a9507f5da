/* conf.c -- configuration: defaults, server.conf/player.conf, includes and the command line.
 * One grammar for files and argv (docs/protocol/config.md §1, §2): a small lexer
 * (words, quoted strings, '=', three comment styles) and an item loop that applies
 * `module::name = value` with the reference's type coercions. Fills err; never logs. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "conf.h"
#include "playmode.h"

#define CONF_MAX_INCLUDE_DEPTH 8
#define CONF_MAX_FILE          (4u << 20)  /* bytes read from one file */
#define CONF_VERSION           "19.0.0"
#define CONF_TOK_LEN           (CONF_STR_LEN * 2)

typedef enum { TK_EOF, TK_WORD, TK_STR, TK_EQ, TK_ERR } tok_kind_t;

typedef struct lexer {
    const char *s;
    size_t      pos;
    int         line;
    int         tok_line;              /* line where the last token started */
    char        tok[CONF_TOK_LEN];
    const char *msg;                   /* lexer error (TK_ERR) */
} lexer_t;

/* what one parse pass needs besides the lexer */
typedef struct pctx {
    conf_t     *c;
    const char *origin;                /* "server.conf", "command line", ... */
    int         show_line;             /* prefix errors with :line */
    const char *base_dir;              /* for relative includes; NULL = cwd */
    int         depth;
    char       *err;
    size_t      errlen;
    char       *warn;
    size_t      warnlen;
    const conf_sink_t *sink;           /* another parameter table (NULL: conf_t c) */
} pctx_t;

/* ---- messages ------------------------------------------------------------------------ */

static void vprefixed(const pctx_t *p, int line, char *buf, size_t len, const char *fmt,
                      va_list ap)
{
    if (!buf || !len)
        return;
    int n;
    if (!p->show_line || line <= 0)
        n = p->origin ? snprintf(buf, len, "%s: ", p->origin) : 0;
    else if (p->origin)
        n = snprintf(buf, len, "%s:%d: ", p->origin, line);
    else
        n = snprintf(buf, len, "line %d: ", line);
    if (n < 0 || (size_t)n >= len)
        return;
    vsnprintf(buf + n, len - (size_t)n, fmt, ap);
}

static int perr(const pctx_t *p, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int perr(const pctx_t *p, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprefixed(p, line, p->err, p->errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static void pwarn(const pctx_t *p, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void pwarn(const pctx_t *p, int line, const char *fmt, ...)
{
    if (!p->warn || !p->warnlen)
        return;
    size_t used = strnlen(p->warn, p->warnlen);
    if (used + 2 >= p->warnlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vprefixed(p, line, p->warn + used, p->warnlen - used - 1, fmt, ap);
    va_end(ap);
    used = strnlen(p->warn, p->warnlen);
    if (used + 1 < p->warnlen) {
        p->warn[used] = '\n';
        p->warn[used + 1] = '\0';
    }
}

/* ---- lexer --------------------------------------------------------------------------- */

/* Skip blanks and comments. Returns -1 on an unterminated C comment. */
static int lex_skip(lexer_t *lx)
{
    for (;;) {
        char ch = lx->s[lx->pos];
        if (ch == '\n') {
            lx->line++;
            lx->pos++;
        } else if (isspace((unsigned char)ch)) {
            lx->pos++;
        } else if (ch == '#' || (ch == '/' && lx->s[lx->pos + 1] == '/')) {
            while (lx->s[lx->pos] && lx->s[lx->pos] != '\n')
                lx->pos++;
        } else if (ch == '/' && lx->s[lx->pos + 1] == '*') {
            lx->pos += 2;
            while (lx->s[lx->pos] && !(lx->s[lx->pos] == '*' && lx->s[lx->pos + 1] == '/')) {
                if (lx->s[lx->pos] == '\n')
                    lx->line++;
                lx->pos++;
            }
            if (!lx->s[lx->pos])
                return -1;
            lx->pos += 2;
        } else {
            return 0;
        }
    }
}

static tok_kind_t lex_error(lexer_t *lx, const char *msg)
{
    lx->msg = msg;
    return TK_ERR;
}

/* Next token into lx->tok. Words end at blanks, '=', quotes and '#'. */
static tok_kind_t lex_next(lexer_t *lx)
{
    lx->tok[0] = '\0';
    if (lex_skip(lx) < 0)
        return lex_error(lx, "unterminated comment");
    lx->tok_line = lx->line;
    char ch = lx->s[lx->pos];
    if (!ch)
        return TK_EOF;
    if (ch == '=') {
        lx->pos++;
        strcpy(lx->tok, "=");
        return TK_EQ;
    }
    size_t k = 0;
    if (ch == '\'' || ch == '"') {
        lx->pos++;
        while (lx->s[lx->pos] && lx->s[lx->pos] != ch) {
            if (lx->s[lx->pos] == '\n')
                lx->line++;
            if (k + 1 >= sizeof lx->tok)
                return lex_error(lx, "string too long");
            lx->tok[k++] = lx->s[lx->pos++];
        }
        if (!lx->s[lx->pos])
            return lex_error(lx, "unterminated string");
        lx->pos++;
        lx->tok[k] = '\0';
        return TK_STR;
    }
    while ((ch = lx->s[lx->pos]) && !isspace((unsigned char)ch) && ch != '=' && ch != '\''
           && ch != '"' && ch != '#') {
        if (k + 1 >= sizeof lx->tok)
            return lex_error(lx, "word too long");
        lx->tok[k++] = ch;
        lx->pos++;
    }
    lx->tok[k] = '\0';
    return TK_WORD;
}

/* ---- values -------------------------------------------------------------------------- */

typedef enum { VAL_BOOL, VAL_INT, VAL_REAL, VAL_STR } val_kind_t;

static int is_int_text(const char *t)
{
    if (*t == '+' || *t == '-')
        t++;
    if (!*t)
        return 0;
    for (; *t; t++) {
        if (!isdigit((unsigned char)*t))
            return 0;
    }
    return 1;
}

static int is_real_text(const char *t, double *out)
{
    int digit = 0;
    for (const char *q = t; *q; q++) {
        if (isdigit((unsigned char)*q))
            digit = 1;
        else if (!strchr(".eE+-", *q))
            return 0;
    }
    if (!digit)
        return 0;
    char *end;
    errno = 0;
    double v = strtod(t, &end);
    if (*end || errno == ERANGE || !isfinite(v))
        return 0;
    *out = v;
    return 1;
}

/* Classify an unquoted word: bool, int, real or plain string. */
static val_kind_t classify(const char *t, double *num)
{
    if (!strcasecmp(t, "on") || !strcasecmp(t, "true")) {
        *num = 1;
        return VAL_BOOL;
    }
    if (!strcasecmp(t, "off") || !strcasecmp(t, "false")) {
        *num = 0;
        return VAL_BOOL;
    }
    if (is_int_text(t) && is_real_text(t, num))
        return VAL_INT;
    if (is_real_text(t, num))
        return VAL_REAL;
    return VAL_STR;
}

static const char *type_name(param_type_t t)
{
    static const char *const n[] = { "int", "bool", "real", "string" };
    return (unsigned)t < 4 ? n[t] : "?";
}

static int team_name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n > 15)
        return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (!isalnum(ch) && ch != '+' && ch != '-' && ch != '_')
            return 0;
    }
    return 1;
}

/* The value checks the reference applies when a parameter is set. */
static void apply_limits(conf_t *c, int id)
{
    switch (id) {
    case SP_foul_detect_probability:
    case SP_red_card_probability:
        if (c->num[id] < 0)
            c->num[id] = 0;
        if (c->num[id] > 1)
            c->num[id] = 1;
        break;
    case SP_nr_normal_halfs:
    case SP_nr_extra_halfs:
    case SP_extra_half_time:
        if (c->num[id] < 0)
            c->num[id] = 0;
        break;
    case SP_fixed_teamname_l:
    case SP_fixed_teamname_r:
        if (!team_name_ok(c->str[id]))
            c->str[id][0] = '\0';
        break;
    default:
        break;
    }
}

/* Store text (quoted = came in quotes) into parameter id. 0 ok, -1 with msg set. */
static int store_value(conf_t *c, int id, const char *text, int quoted, const char **msg,
                       char *wbuf, size_t wlen)
{
    const param_def_t *d = &param_defs[id];
    double v = 0;
    val_kind_t k = quoted ? VAL_STR : classify(text, &v);
    if (wbuf && wlen)
        wbuf[0] = '\0';
    switch (d->type) {
    case PARAM_STR:
        if (k != VAL_STR) {
            *msg = "a string";
            return -1;
        }
        if (strlen(text) >= CONF_STR_LEN) {
            *msg = "at most 255 characters";
            return -1;
        }
        snprintf(c->str[id], CONF_STR_LEN, "%s", text);
        break;
    case PARAM_BOOL:
        if (k == VAL_INT && (v == 0 || v == 1)) {
            if (wbuf && wlen)
                snprintf(wbuf, wlen, "int given to bool '%s::%s'", d->module, d->name);
        } else if (k != VAL_BOOL) {
            *msg = "a bool (on, off, true, false, 0 or 1)";
            return -1;
        }
        c->num[id] = v;
        break;
    case PARAM_INT:
        if (k == VAL_REAL) {
            v = trunc(v);
            if (wbuf && wlen)
                snprintf(wbuf, wlen, "real '%s' truncated to int for '%s::%s'", text,
                         d->module, d->name);
        } else if (k != VAL_INT) {
            *msg = "an int";
            return -1;
        }
        if (v < INT_MIN || v > INT_MAX) {
            *msg = "an int in range";
            return -1;
        }
        c->num[id] = v;
        break;
    case PARAM_REAL:
        if (k != VAL_INT && k != VAL_REAL) {
            *msg = "a number";
            return -1;
        }
        c->num[id] = v;
        break;
    }
    apply_limits(c, id);
    return 0;
}

/* ---- modules, help --------------------------------------------------------------------- */

static int module_known(const char *m)
{
    for (int i = 0; i < PARAM_COUNT; i++) {
        if (strcmp(param_defs[i].module, m) == 0)
            return 1;
    }
    return 0;
}

static void append(char *buf, size_t len, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
    if (*used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *used, len - *used, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    *used += (size_t)n;
    if (*used >= len)
        *used = len - 1;
}

static void write_usage(char *buf, size_t len)
{
    if (!buf || !len)
        return;
    snprintf(buf, len,
             "usage: rcssserver [[-[-]]module::param=value | [-[-]]include=FILE]...\n"
             "modules: server, player\n"
             "  help                 this text\n"
             "  module::help         every parameter of a module, type and value\n"
             "  include=FILE         read a configuration file\n"
             "  --config FILE        read FILE instead of the default files (rcssserver)\n"
             "  --print-config       print the effective configuration and exit (rcssserver)\n"
             "files: $RCSS_CONF_DIR (default ~/.rcssserver)/server.conf and player.conf\n");
}

void conf_write_help(const conf_t *c, const char *module, char *buf, size_t len)
{
    if (!buf || !len)
        return;
    size_t used = 0;
    buf[0] = '\0';
    append(buf, len, &used, "%s options:\n", module);
    append(buf, len, &used, "  %s::version = '%s' (string)\n", module, CONF_VERSION);
    for (int i = 0; i < PARAM_COUNT; i++) {
        const param_def_t *d = &param_defs[i];
        if (strcmp(d->module, module) != 0)
            continue;
        char val[CONF_STR_LEN + 16];
        conf_format_value(c, (param_id_t)i, 0, val, sizeof val);
        append(buf, len, &used, "  %s::%s = %s (%s)\n", d->module, d->name, val,
               type_name(d->type));
    }
}

/* ---- items ----------------------------------------------------------------------------- */

static int parse_text(const pctx_t *p, const char *text);

/* The whole file, NUL-terminated. The buffer starts at the file's size (plus one byte to
 * see the end), not at the limit: a 4 MB buffer per include cost its page faults (and
 * under ASan its shadow) for every small file. */
static char *read_whole_file(const char *path, int *missing, char *why, size_t whylen)
{
    FILE *f = fopen(path, "rb");
    *missing = 0;
    if (!f) {
        *missing = errno == ENOENT;
        snprintf(why, whylen, "%s", strerror(errno));
        return NULL;
    }
    struct stat st;
    size_t cap = 4096, n = 0;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0
        && (unsigned long long)st.st_size <= CONF_MAX_FILE)
        cap = (size_t)st.st_size + 1;
    char *buf = malloc(cap + 1);
    int bad = 0;
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap || ferror(f) || n > CONF_MAX_FILE) {
            bad = ferror(f) || n > CONF_MAX_FILE;
            break;
        }
        /* more than the file's size said (it grew, or not a regular file): grow */
        size_t more = cap * 2 < CONF_MAX_FILE + 1 ? cap * 2 : CONF_MAX_FILE + 1;
        char *b = realloc(buf, more + 1);
        if (!b) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = b;
        cap = more;
    }
    fclose(f);
    if (!buf) {
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    if (bad) {
        free(buf);
        snprintf(why, whylen, "read error or file too large");
        return NULL;
    }
    buf[n] = '\0';
    return buf;
}

/* Parse the file at path with the same conf and buffers as p, one level deeper. */
static int parse_file_at(const pctx_t *p, const char *path, int optional, int line)
{
    if (p->depth >= CONF_MAX_INCLUDE_DEPTH)
        return perr(p, line, "include depth exceeded at '%s' (include loop?)", path);
    char why[128];
    int missing;
    char *text = read_whole_file(path, &missing, why, sizeof why);
    if (!text) {
        if (optional && missing)
            return 0;
        return perr(p, line, "cannot read '%s': %s", path, why);
    }
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    pctx_t sub = *p;
    sub.origin = path;
    sub.show_line = 1;
    sub.depth = p->depth + 1;
    sub.base_dir = NULL;
    if (slash) {
        slash[slash == dir ? 1 : 0] = '\0';
        sub.base_dir = dir;
    }
    int rc = parse_text(&sub, text);
    free(text);
    return rc;
}

static int do_include(const pctx_t *p, const char *file, int line)
{
    char path[PATH_MAX];
    int n;
    if (!*file)
        return perr(p, line, "include needs a file name");
    if (file[0] == '/' || !p->base_dir || !*p->base_dir)
        n = snprintf(path, sizeof path, "%s", file);
    else
        n = snprintf(path, sizeof path, "%s/%s", p->base_dir, file);
    if (n < 0 || (size_t)n >= sizeof path)
        return perr(p, line, "include path too long");
    return parse_file_at(p, path, 0, line);
}

/* Apply module::name = value. */
static int do_assign(const pctx_t *p, const char *module, const char *name,
                     const char *value, int quoted, int line)
{
    if (!module_known(module))
        return perr(p, line, "unknown module '%s'", module);
    if (strcmp(name, "version") == 0) {
        if (strcmp(value, CONF_VERSION) != 0)
            return perr(p, line, "version mismatched in the configuration file");
        return 0;
    }
    int id = param_lookup(module, name);
    if (id < 0)
        return perr(p, line, "'%s' has no parameter called '%s'", module, name);
    const char *msg = NULL;
    char w[CONF_STR_LEN * 2];
    if (store_value(p->c, id, value, quoted, &msg, w, sizeof w) < 0)
        return perr(p, line, "'%s::%s' (%s) needs %s, got '%s'", module, name,
                    type_name(param_defs[id].type), msg, value);
    if (w[0])
        pwarn(p, line, "%s", w);
    return 0;
}

/* help, --help, -h: the table's usage text. Returns 1. */
static int item_usage(const pctx_t *p)
{
    if (p->sink && p->sink->help) {
        if (p->err && p->errlen)
            p->sink->help(p->sink->ctx, NULL, p->err, p->errlen);
        return 1;
    }
    write_usage(p->err, p->errlen);
    return 1;
}

/* module::help for a sink: 1 with the listing, or -1 for an unknown module. */
static int sink_help(const pctx_t *p, const char *module, int line)
{
    if (!p->sink->help || p->sink->help(p->sink->ctx, module, p->err, p->errlen) != 0)
        return perr(p, line, "unknown module '%s'", module);
    return 1;
}

/* module::name = value for a sink: its message, prefixed with origin and line. */
static int sink_assign(const pctx_t *p, const char *module, const char *name,
                       const char *value, int quoted, int line)
{
    char msg[CONF_ERR_LEN];
    msg[0] = '\0';
    if (p->sink->assign(p->sink->ctx, module, name, value, quoted, msg, sizeof msg) == 0)
        return 0;
    return perr(p, line, "%s", msg[0] ? msg : "bad value");
}

/* One item starting with the word in lx->tok. Returns 0, 1 (help) or -1. */
static int parse_item(const pctx_t *p, lexer_t *lx)
{
    int line = lx->tok_line;
    char name[CONF_TOK_LEN];
    const char *t = lx->tok;
    if (strcmp(t, "-h") == 0)
        return item_usage(p);
    if (t[0] == '-')
        t += t[1] == '-' ? 2 : 1;
    snprintf(name, sizeof name, "%s", t);
    if (!name[0] || name[0] == '-')
        return perr(p, line, "unexpected '%s'", lx->tok);
    if (strcmp(name, "help") == 0)
        return item_usage(p);
    char *sep = strstr(name, "::");
    const char *module = NULL, *pname = name;
    if (sep) {
        *sep = '\0';
        module = name;
        pname = sep + 2;
        if (strcmp(pname, "help") == 0) {
            if (p->sink)
                return sink_help(p, module, line);
            if (!module_known(module))
                return perr(p, line, "unknown module '%s'", module);
            conf_write_help(p->c, module, p->err, p->errlen);
            return 1;
        }
    } else if (strcmp(name, "include") != 0) {
        return perr(p, line, "unknown option '%s' (expected module::name = value)", lx->tok);
    }
    if (lex_next(lx) != TK_EQ)
        return perr(p, line, "missing '=' after '%s%s%s'", module ? module : "",
                    module ? "::" : "", pname);
    tok_kind_t k = lex_next(lx);
    if (k == TK_ERR)
        return perr(p, lx->tok_line, "%s", lx->msg);
    if (k != TK_WORD && k != TK_STR)
        return perr(p, line, "missing value for '%s%s%s'", module ? module : "",
                    module ? "::" : "", pname);
    if (!module)
        return do_include(p, lx->tok, line);
    if (p->sink)
        return sink_assign(p, module, pname, lx->tok, k == TK_STR, line);
    return do_assign(p, module, pname, lx->tok, k == TK_STR, line);
}

static int parse_text(const pctx_t *p, const char *text)
{
    lexer_t *lx = malloc(sizeof *lx);
    if (!lx)
        return perr(p, 0, "out of memory");
    memset(lx, 0, sizeof *lx);
    lx->s = text ? text : "";
    lx->line = 1;
    int rc = 0;
    for (;;) {
        tok_kind_t k = lex_next(lx);
        if (k == TK_EOF)
            break;
        if (k == TK_ERR) {
            rc = perr(p, lx->tok_line, "%s", lx->msg);
            break;
        }
        if (k != TK_WORD) {
            rc = perr(p, lx->tok_line, "unexpected '%s'", lx->tok);
            break;
        }
        rc = parse_item(p, lx);
        if (rc != 0)
            break;
    }
    free(lx);
    return rc;
}

/* ---- public ---------------------------------------------------------------------------- */

void conf_defaults(conf_t *c)
{
    memset(c, 0, sizeof *c);
    for (int i = 0; i < PARAM_COUNT; i++) {
        const param_def_t *d = &param_defs[i];
        if (d->type == PARAM_STR)
            snprintf(c->str[i], CONF_STR_LEN, "%s", d->defval);
        else if (d->type == PARAM_BOOL)
            c->num[i] = strcmp(d->defval, "true") == 0 || strcmp(d->defval, "on") == 0
                        || strcmp(d->defval, "1") == 0;
        else
            c->num[i] = strtod(d->defval, NULL);
    }
}

int conf_parse_text(conf_t *c, const char *text, const char *origin, const char *base_dir,
                    char *err, size_t errlen, char *warn, size_t warnlen)
{
    pctx_t p = { c, origin, 1, base_dir, 0, err, errlen, warn, warnlen, NULL };
    if (origin && strcmp(origin, "command line") == 0)
        p.show_line = 0;
    if (err && errlen)
        err[0] = '\0';
    return parse_text(&p, text);
}

int conf_parse_file(conf_t *c, const char *path, int optional, char *err, size_t errlen)
{
    pctx_t p = { c, path, 1, NULL, 0, err, errlen, NULL, 0, NULL };
    if (err && errlen)
        err[0] = '\0';
    if (!path || !*path)
        return perr(&p, 0, "no file name");
    return parse_file_at(&p, path, optional, 0);
}

/* argv[1..] joined with spaces; args holding blanks (or nothing) are single-quoted. */
static char *join_args(int argc, char **argv)
{
    size_t total = 1;
    for (int i = 1; i < argc; i++)
        total += strlen(argv[i]) + 3;
    char *s = malloc(total);
    if (!s)
        return NULL;
    size_t k = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int quote = !*a;
        for (const char *q = a; *q; q++)
            quote |= isspace((unsigned char)*q);
        if (i > 1)
            s[k++] = ' ';
        if (quote)
            s[k++] = '\'';
        size_t n = strlen(a);
        memcpy(s + k, a, n);
        k += n;
        if (quote)
            s[k++] = '\'';
    }
    s[k] = '\0';
    return s;
}

int conf_load(conf_t *c, int argc, char **argv, char *err, size_t errlen)
{
    conf_defaults(c);
    if (err && errlen)
        err[0] = '\0';
    char dir[PATH_MAX];
    const char *env = getenv("RCSS_CONF_DIR");
    const char *home = getenv("HOME");
    dir[0] = '\0';
    if (env && *env)
        snprintf(dir, sizeof dir, "%s", env);
    else if (home && *home)
        snprintf(dir, sizeof dir, "%s/.rcssserver", home);
    if (dir[0]) {
        static const char *const files[] = { "server.conf", "player.conf" };
        for (int i = 0; i < 2; i++) {
            char path[PATH_MAX + 16];
            snprintf(path, sizeof path, "%s/%s", dir, files[i]);
            if (conf_parse_file(c, path, 1, err, errlen) != 0)
                return -1;
        }
    }
    return conf_parse_args(c, argc, argv, err, errlen);
}

int conf_parse_args(conf_t *c, int argc, char **argv, char *err, size_t errlen)
{
    if (argc < 2 || !argv)
        return 0;
    char *line = join_args(argc, argv);
    if (!line) {
        snprintf(err, errlen, "command line: out of memory");
        return -1;
    }
    int rc = conf_parse_text(c, line, "command line", NULL, err, errlen, NULL, 0);
    free(line);
    return rc;
}

int conf_set(conf_t *c, const char *module, const char *name, const char *value,
             char *err, size_t errlen)
{
    pctx_t p = { c, NULL, 0, NULL, 0, err, errlen, NULL, 0, NULL };
    if (!module || !name || !value)
        return perr(&p, 0, "missing module, name or value");
    size_t n = strlen(value);
    if (n >= 2 && (value[0] == '\'' || value[0] == '"') && value[n - 1] == value[0]) {
        char v[CONF_STR_LEN + 2];
        if (n - 2 >= sizeof v)
            return perr(&p, 0, "'%s::%s' value too long", module, name);
        memcpy(v, value + 1, n - 2);
        v[n - 2] = '\0';
        return do_assign(&p, module, name, v, 1, 0);
    }
    return do_assign(&p, module, name, value, 0, 0);
}

/* JSON string body escaping (quotes, backslash, control chars). */
static int json_escape(char *buf, size_t len, const char *s)
{
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    append(buf, len, &used, "\"");
    int total = 1;
    for (const unsigned char *q = (const unsigned char *)s; *q; q++) {
        char tmp[8];
        if (*q == '"' || *q == '\\')
            snprintf(tmp, sizeof tmp, "\\%c", *q);
        else if (*q < 0x20)
            snprintf(tmp, sizeof tmp, "\\u%04x", *q);
        else
            snprintf(tmp, sizeof tmp, "%c", *q);
        total += (int)strlen(tmp);
        append(buf, len, &used, "%s", tmp);
    }
    append(buf, len, &used, "\"");
    return total + 1;
}

int conf_format_value(const conf_t *c, param_id_t id, int json, char *buf, size_t len)
{
    if ((int)id < 0 || id >= PARAM_COUNT) {
        if (len)
            buf[0] = '\0';
        return 0;
    }
    switch (param_defs[id].type) {
    case PARAM_INT:
        return snprintf(buf, len, "%lld", (long long)c->num[id]);
    case PARAM_BOOL:
        if (json)
            return snprintf(buf, len, "%s", c->num[id] != 0 ? "true" : "false");
        return snprintf(buf, len, "%d", c->num[id] != 0);
    case PARAM_REAL:
        return fmt_real(buf, len, c->num[id]);
    case PARAM_STR:
        if (json)
            return json_escape(buf, len, c->str[id]);
        return snprintf(buf, len, "\"%s\"", c->str[id]);
    }
    return 0;
}

/* ---- other parameter tables (conf.h conf_sink_t) -------------------------------------- */

int conf_value_kind(const char *text, int quoted, double *num)
{
    double v = 0;
    val_kind_t k = quoted ? VAL_STR : classify(text, &v);
    if (num)
        *num = v;
    return k == VAL_BOOL ? CONF_VAL_BOOL : k == VAL_INT ? CONF_VAL_INT
         : k == VAL_REAL ? CONF_VAL_REAL : CONF_VAL_STR;
}

int conf_sink_parse_text(const conf_sink_t *sink, const char *text, const char *origin,
                         const char *base_dir, char *err, size_t errlen)
{
    pctx_t p = { NULL, origin, 1, base_dir, 0, err, errlen, NULL, 0, sink };
    if (origin && strcmp(origin, "command line") == 0)
        p.show_line = 0;
    if (err && errlen)
        err[0] = '\0';
    return parse_text(&p, text);
}

int conf_sink_parse_file(const conf_sink_t *sink, const char *path, int optional,
                         char *err, size_t errlen)
{
    pctx_t p = { NULL, path, 1, NULL, 0, err, errlen, NULL, 0, sink };
    if (err && errlen)
        err[0] = '\0';
    if (!path || !*path)
        return perr(&p, 0, "no file name");
    return parse_file_at(&p, path, optional, 0);
}

char *conf_join_args(int argc, char **argv)
{
    return join_args(argc, argv);
}
