/* clang_lex.c -- the tokens of the coach language inside one unquoted s-expression atom
 * (clang.h). The rules are the reference lexer's: at each position the longest match
 * wins and a keyword beats a variable of the same length; variables cannot start with
 * c, d, p or s, which alone are ball-move tokens; numbers may carry a sign; anything no
 * rule accepts is an error token. Since whitespace, parentheses and quotes end atoms in
 * common/sexp as they end tokens here, splitting atoms gives the reference's token
 * stream. Pure; used by clang_parse.c. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "clang.h"

const char *const clang_keywords[CK_COUNT] = {
    "say", "hear", "online_coach_left", "online_coach_right", "meta", "freeform",
    "unsupported_clang", "info", "advice", "define", "definec", "defined", "definer",
    "definea", "ver", "null", "quad", "arc", "pt", "reg", "tri", "rec", "ball", "pos",
    "home", "bto", "mark", "markl", "oline", "htype", "do", "dont", "our", "opp", "clear",
    "true", "false", "ppos", "bpos", "bowner", "and", "or", "not", "playm", "time",
    "opp_goals", "our_goals", "goal_diff", "unum", "pass", "dribble", "shoot", "hold",
    "intercept", "tackle", "rule", "on", "off", "all", "delete", "definerule", "model",
    "direc"
};

const char *const clang_mode_names[CLANG_MODE_COUNT + 1] = {
    "", "bko", "time_over", "play_on", "ko_our", "ko_opp", "ki_our", "ki_opp", "fk_our",
    "fk_opp", "ck_our", "ck_opp", "gk_our", "gk_opp", "gc_our", "gc_opp", "ag_our",
    "ag_opp"
};

static int lex_var_first(char c)
{
    /* [abe-oqrt-zA-Z_] */
    return (c >= 'a' && c <= 'z' && c != 'c' && c != 'd' && c != 'p' && c != 's')
        || (c >= 'A' && c <= 'Z') || c == '_';
}

static int lex_var_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

static size_t lex_digits(const char *s, size_t n, size_t i)
{
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++;
    return i;
}

/* length of the longest number at s: INT [+-]?[0-9]+, REAL [+-]?[0-9]*\.[0-9]+, either
 * followed by an exponent [eE][+-]?[0-9]+; 0 if none. *real tells REAL/EXP from INT. */
static size_t lex_number(const char *s, size_t n, int *real)
{
    size_t i = 0;
    *real = 0;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        i++;
    size_t d0 = i, d1 = lex_digits(s, n, i);
    size_t end = 0;
    if (d1 > d0)
        end = d1;                       /* INT */
    if (d1 < n && s[d1] == '.') {
        size_t f = lex_digits(s, n, d1 + 1);
        if (f > d1 + 1) {
            end = f;                    /* REAL */
            *real = 1;
        }
    }
    if (end == 0)
        return 0;
    if (end < n && (s[end] == 'e' || s[end] == 'E')) {
        size_t j = end + 1;
        if (j < n && (s[j] == '+' || s[j] == '-'))
            j++;
        size_t k = lex_digits(s, n, j);
        if (k > j) {
            end = k;                    /* EXP */
            *real = 1;
        }
    }
    return end;
}

/* longest keyword (or play mode) that s starts with: its length, 0 if none */
static size_t lex_keyword(const char *s, size_t n, int *kind, int *code)
{
    size_t best = 0;
    for (int k = 0; k < CK_COUNT; k++) {
        size_t l = strlen(clang_keywords[k]);
        if (l <= n && l > best && memcmp(s, clang_keywords[k], l) == 0) {
            best = l;
            *kind = CT_KW;
            *code = k;
        }
    }
    for (int m = 1; m <= CLANG_MODE_COUNT; m++) {
        size_t l = strlen(clang_mode_names[m]);
        if (l <= n && l > best && memcmp(s, clang_mode_names[m], l) == 0) {
            best = l;
            *kind = CT_MODE;
            *code = m;
        }
    }
    return best;
}

/* operators and braces: length, 0 if none */
static size_t lex_punct(const char *s, size_t n, int *kind)
{
    char c = s[0], c2 = n > 1 ? s[1] : '\0';
    switch (c) {
    case '{': *kind = CT_LB; return 1;
    case '}': *kind = CT_RB; return 1;
    case '<': if (c2 == '=') { *kind = CT_OP_LE; return 2; } *kind = CT_OP_L; return 1;
    case '>': if (c2 == '=') { *kind = CT_OP_GE; return 2; } *kind = CT_OP_G; return 1;
    case '=': if (c2 == '=') { *kind = CT_OP_E; return 2; } return 0;
    case '!': if (c2 == '=') { *kind = CT_OP_NE; return 2; } return 0;
    case '+': *kind = CT_PLUS; return 1;
    case '-': *kind = CT_MINUS; return 1;
    case '*': *kind = CT_MULT; return 1;
    case '/': *kind = CT_DIV; return 1;
    default: return 0;
    }
}

static int lex_bmove(char c)
{
    return c == 'p' ? 1 : c == 'd' ? 2 : c == 'c' ? 3 : c == 's' ? 4 : 0;
}

void clang_lex(const char *s, size_t n, clang_tok_t *t)
{
    memset(t, 0, sizeof *t);
    t->s = s;
    if (n == 0) {
        t->kind = CT_END;
        return;
    }
    /* candidates, longest first; on a tie the earlier rule (keyword) wins */
    size_t best = 0;
    int kind = CT_ERROR, code = 0;
    size_t kl = lex_keyword(s, n, &kind, &code);
    best = kl;
    if (lex_bmove(s[0]) && best < 1) {
        best = 1;
        kind = CT_BMOVE;
        code = lex_bmove(s[0]);
    }
    int pk;
    size_t pl = lex_punct(s, n, &pk);
    int real;
    size_t nl = lex_number(s, n, &real);
    if (nl > best && nl >= pl) {
        best = nl;
        kind = real ? CT_REAL : CT_INT;
    } else if (pl > best) {
        best = pl;
        kind = pk;
    }
    if (lex_var_first(s[0])) {
        size_t vl = 1;
        while (vl < n && lex_var_char(s[vl]))
            vl++;
        if (vl > best) {
            best = vl;
            kind = CT_VAR;
        }
    }
    if (best == 0) {
        t->kind = CT_ERROR;
        t->n = 1;
        return;
    }
    t->kind = kind;
    t->n = best;
    if (kind == CT_INT || kind == CT_REAL) {
        char buf[512]; /* longer numbers: the value of their first 511 characters */
        size_t k = best < sizeof buf - 1 ? best : sizeof buf - 1;
        memcpy(buf, s, k);
        buf[k] = '\0';
        if (kind == CT_INT) /* as atoi: strtol's value cut to int */
            t->ival = (int)strtol(buf, NULL, 10);
        else
            t->dval = strtod(buf, NULL);
    } else if (kind != CT_VAR && kind != CT_ERROR) {
        t->ival = code;
    }
}

int clang_str_ok(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!(isalnum((unsigned char)c) || strchr("().+-*/?<>_ ", c)))
            return 0;
    }
    return 1;
}
