/* test_sexp.c -- the bounded s-expression reader: nesting, quotes, errors, depth and arena
 * limits, several expressions per datagram, NUL termination, node helpers. */
#include <criterion/criterion.h>
#include <string.h>
#include "sexp.h"

#define NODES 256

typedef struct fx {
    sexp_t       nodes[NODES];
    sexp_arena_t a;
    char         err[128];
} fx_t;

static sexp_t *parse(fx_t *f, const char *s, size_t *end)
{
    f->a.nodes = f->nodes;
    f->a.cap = NODES;
    f->a.used = 0;
    f->err[0] = '\0';
    return sexp_parse(&f->a, s, strlen(s), end, f->err, sizeof f->err);
}

Test(sexp, nested_list)
{
    fx_t f;
    sexp_t *r = parse(&f, "  (dash 100 (x \"hello world\") ())", NULL);
    cr_assert_not_null(r, "%s", f.err);
    cr_assert(r->is_list);
    cr_assert_eq(sexp_count(r), 4);
    cr_assert(sexp_is(sexp_nth(r, 0), "dash"));
    double d;
    cr_assert_eq(sexp_number(sexp_nth(r, 1), &d), 0);
    cr_assert_float_eq(d, 100.0, 1e-12);
    sexp_t *inner = sexp_nth(r, 2);
    cr_assert(inner->is_list);
    cr_assert_eq(sexp_count(inner), 2);
    sexp_t *q = sexp_nth(inner, 1);
    cr_assert_eq(q->quoted, 1);
    char buf[32];
    cr_assert_eq(sexp_copy(q, buf, sizeof buf), 11);
    cr_assert_str_eq(buf, "hello world");
    cr_assert_eq(sexp_number(q, &d), -1, "quoted atoms are not numbers");
    cr_assert_eq(sexp_count(sexp_nth(r, 3)), 0);
    cr_assert_null(sexp_nth(r, 4));
}

Test(sexp, atom_and_numbers)
{
    fx_t f;
    sexp_t *r = parse(&f, "-12.5e1", NULL);
    cr_assert_not_null(r);
    cr_assert_eq(r->is_list, 0);
    double d;
    long l;
    cr_assert_eq(sexp_number(r, &d), 0);
    cr_assert_float_eq(d, -125.0, 1e-12);
    cr_assert_eq(sexp_int(r, &l), -1);
    r = parse(&f, "42", NULL);
    cr_assert_eq(sexp_int(r, &l), 0);
    cr_assert_eq(l, 42);
    static const char *const bad[] = { "nan", "inf", "0x10", "1e999", "abc", "1.2.3x" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        r = parse(&f, bad[i], NULL);
        cr_assert_not_null(r);
        cr_assert_eq(sexp_number(r, &d), -1, "%s", bad[i]);
    }
    r = parse(&f, "99999999999999999999999", NULL);
    cr_assert_eq(sexp_int(r, &l), -1);
}

Test(sexp, errors)
{
    fx_t f;
    cr_assert_null(parse(&f, "(a (b)", NULL));
    cr_assert(strstr(f.err, "unbalanced"), "%s", f.err);
    cr_assert_null(parse(&f, ")", NULL));
    cr_assert(strstr(f.err, "unbalanced"), "%s", f.err);
    cr_assert_null(parse(&f, "   ", NULL));
    cr_assert(strstr(f.err, "empty"), "%s", f.err);
    cr_assert_null(parse(&f, "(say \"open)", NULL));
    cr_assert(strstr(f.err, "unterminated"), "%s", f.err);
    cr_assert_null(sexp_parse(NULL, "(a)", 3, NULL, f.err, sizeof f.err));
}

Test(sexp, depth_limit)
{
    fx_t f;
    char s[2 * SEXP_MAX_DEPTH + 8];
    size_t k = 0;
    for (int i = 0; i < SEXP_MAX_DEPTH; i++)
        s[k++] = '(';
    for (int i = 0; i < SEXP_MAX_DEPTH; i++)
        s[k++] = ')';
    s[k] = '\0';
    cr_assert_not_null(parse(&f, s, NULL), "%s", f.err);
    k = 0;
    for (int i = 0; i < SEXP_MAX_DEPTH + 1; i++)
        s[k++] = '(';
    for (int i = 0; i < SEXP_MAX_DEPTH + 1; i++)
        s[k++] = ')';
    s[k] = '\0';
    cr_assert_null(parse(&f, s, NULL));
    cr_assert(strstr(f.err, "too deep"), "%s", f.err);
}

Test(sexp, arena_full)
{
    fx_t f;
    sexp_t few[3];
    sexp_arena_t a = { few, 3, 0 };
    cr_assert_not_null(sexp_parse(&a, "(a b)", 5, NULL, f.err, sizeof f.err));
    a.used = 0;
    cr_assert_null(sexp_parse(&a, "(a b c)", 7, NULL, f.err, sizeof f.err));
    cr_assert(strstr(f.err, "arena full"), "%s", f.err);
    (void)f.nodes;
}

Test(sexp, several_per_datagram)
{
    fx_t f;
    const char *s = "(turn 30)(dash 80) (say hi)";
    size_t off = 0, end = 0;
    const char *want[] = { "turn", "dash", "say" };
    f.a.nodes = f.nodes;
    f.a.cap = NODES;
    f.a.used = 0;
    for (int i = 0; i < 3; i++) {
        sexp_t *r = sexp_parse(&f.a, s + off, strlen(s) - off, &end, f.err, sizeof f.err);
        cr_assert_not_null(r, "%d: %s", i, f.err);
        cr_assert(sexp_is(sexp_nth(r, 0), want[i]));
        off += end;
    }
    cr_assert_null(sexp_parse(&f.a, s + off, strlen(s) - off, &end, f.err, sizeof f.err));
    cr_assert(strstr(f.err, "empty"));
}

Test(sexp, nul_stops_and_len_bounds)
{
    fx_t f;
    const char s[] = "(a)\0(b)";
    size_t end = 0;
    f.a.nodes = f.nodes;
    f.a.cap = NODES;
    f.a.used = 0;
    sexp_t *r = sexp_parse(&f.a, s, sizeof s, &end, f.err, sizeof f.err);
    cr_assert_not_null(r);
    cr_assert_eq(end, 3);
    cr_assert_null(sexp_parse(&f.a, s + end, sizeof s - end, &end, f.err, sizeof f.err),
                   "a NUL ends the datagram");
    /* len cuts a list short: unbalanced, never a read past len */
    f.a.used = 0;
    cr_assert_null(sexp_parse(&f.a, "(abc)", 4, NULL, f.err, sizeof f.err));
    f.a.used = 0;
    r = sexp_parse(&f.a, "abcdef", 3, NULL, f.err, sizeof f.err);
    cr_assert_not_null(r);
    cr_assert_eq(r->len, 3);
}

Test(sexp, helpers_on_null_and_lists)
{
    fx_t f;
    char buf[4];
    cr_assert_eq(sexp_count(NULL), 0);
    cr_assert_null(sexp_nth(NULL, 0));
    cr_assert_eq(sexp_is(NULL, "x"), 0);
    sexp_t *r = parse(&f, "(longword)", NULL);
    cr_assert_eq(sexp_copy(r, buf, sizeof buf), 0, "a list copies as empty");
    cr_assert_str_eq(buf, "");
    cr_assert_eq(sexp_copy(sexp_nth(r, 0), buf, sizeof buf), 3);
    cr_assert_str_eq(buf, "lon");
    cr_assert_eq(sexp_copy(r, buf, 0), 0);
    cr_assert_eq(sexp_is(r, "longword"), 0, "a list is not an atom");
}
