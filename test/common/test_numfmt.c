/* test_numfmt.c -- the printf-free number formatter against snprintf: every value must
 * print exactly as "%.6g" ("%lld", "%llu") prints it. Explicit edge cases (halfway
 * values, powers of ten, the 1e-4 / 1e6 switches to exponent form, negative zero, values
 * that round up to the next decade, specials, subnormals), then several million values
 * from a fixed-seed generator: random bit patterns, log-uniform magnitudes, values a
 * hair either side of the rounding midpoints of 6 significant digits, and the quantised
 * forms the see and sense_body encoders print. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "numfmt.h"
#include "rng.h"

static long numfmt_fails;

static void check(double v)
{
    char want[64], got[NUMFMT_MAX + 8];
    int wn = snprintf(want, sizeof want, "%.6g", v);
    memset(got, 'x', sizeof got);
    int gn = numfmt_g6(got, v);
    if (gn != wn || strcmp(got, want) != 0 || got[NUMFMT_MAX] != 'x') {
        if (numfmt_fails++ < 20)
            cr_log_error("%.17g (%a): want \"%s\", got \"%s\"", v, v, want, got);
    }
}

static void check_both(double v)
{
    check(v);
    check(-v);
}

/* v and the doubles right next to it */
static void check_around(double v)
{
    check_both(v);
    check_both(nextafter(v, 0.0));
    check_both(nextafter(v, INFINITY));
}

Test(numfmt, edge_cases)
{
    static const double cases[] = {
        0.0, 1.0, 0.5, 1.5, 2.5, 0.25, 0.125, 1234565.0, 1234575.0, 1234555.0, 12345650.0,
        0.0001, 0.00009999995, 0.000099999949, 0.0000999995, 1e-5, 1e-4, 1e-3, 0.1, 1e5,
        1e6, 999999.0, 999999.5, 999999.4999999, 999999.5000001, 9999995.0, 9.999995,
        99999.95, 99999.85, 0.1234565, 3.14159265, 100.0, 1e15, 1e16, 123456789012.0,
        4503599627370496.0, 9007199254740992.0, 9007199254740993.0, 1e20, 1e21, 1e-20,
        1e-21, 7e-21, 1.4e20, 1.5e20, DBL_MIN, DBL_MAX, DBL_TRUE_MIN, 4.9e-324, 1e-310,
        2.2250738585072009e-308, 1e300, 1e-300, 0.30000000000000004, 52.5, 34.0, 2.44,
        -0.0, 0.06, 0.15, 45.0, 90.0, 180.0, 8000.0, 0.94, 0.6, 1.3, 0.0006,
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_around(cases[i]);
    for (int e = -30; e <= 30; e++) { /* powers of ten and the decade edges */
        double p = pow(10.0, e);
        check_around(p);
        check_around(p * 0.9999995);
        check_around(p * 0.99999949999);
        check_around(p * 9.999995);
        check_around(p * 5.0);
    }
    check(NAN);
    check(-NAN);
    check(INFINITY);
    check(-INFINITY);
    char buf[NUMFMT_MAX];
    cr_expect_eq(numfmt_g6(buf, -0.0), 2);
    cr_expect_str_eq(buf, "-0");
    numfmt_g6(buf, 1234567.0);
    cr_expect_str_eq(buf, "1.23457e+06");
    numfmt_g6(buf, 0.5);
    cr_expect_str_eq(buf, "0.5");
    numfmt_g6(buf, 1234565.0); /* an exact tie: half to even */
    cr_expect_str_eq(buf, "1.23456e+06");
    numfmt_g6(buf, 0.00001234);
    cr_expect_str_eq(buf, "1.234e-05");
    cr_expect_eq(numfmt_fails, 0, "%ld values differ from snprintf", numfmt_fails);
}

/* x * 2^k with x a random 53-bit mantissa: every exponent, both signs */
Test(numfmt, random_bit_patterns, .timeout = 120)
{
    rng_t r;
    rng_seed(&r, 20261124);
    for (int i = 0; i < 1000000; i++) {
        uint64_t bits = rng_next(&r);
        double v;
        memcpy(&v, &bits, sizeof v);
        check(v);
    }
    cr_expect_eq(numfmt_fails, 0, "%ld values differ from snprintf", numfmt_fails);
}

/* magnitudes 1e-7 .. 1e8, uniform in the exponent */
Test(numfmt, log_uniform, .timeout = 120)
{
    rng_t r;
    rng_seed(&r, 7);
    for (int i = 0; i < 1000000; i++)
        check_both(pow(10.0, rng_uniform(&r, -7.0, 8.0)));
    cr_expect_eq(numfmt_fails, 0, "%ld values differ from snprintf", numfmt_fails);
}

/* (N + 0.5) * 10^(X-5) for random 6-digit N and X in -6..7: the nearest double to a
 * decimal midpoint and its neighbours, where a wrong rounding would show */
Test(numfmt, rounding_midpoints, .timeout = 120)
{
    rng_t r;
    rng_seed(&r, 42);
    for (int i = 0; i < 300000; i++) {
        double n = (double)(100000 + rng_next(&r) % 900000);
        int x = (int)(rng_next(&r) % 14) - 6;
        double v = (n + 0.5) * pow(10.0, x - 5);
        check_around(v);
    }
    /* exact binary ties: integers with 7 significant digits ending in 5, and halves */
    for (int i = 0; i < 200000; i++) {
        double n = (double)(1000000 + rng_next(&r) % 9000000);
        check_both(n - fmod(n, 10.0) + 5.0);
        check_both((double)(rng_next(&r) % 2000000) + 0.5);
    }
    cr_expect_eq(numfmt_fails, 0, "%ld values differ from snprintf", numfmt_fails);
}

/* what the encoders print: quantised distances and changes, float steps, degrees */
Test(numfmt, quantised_forms, .timeout = 120)
{
    rng_t r;
    rng_seed(&r, 1999);
    static const double steps[] = { 0.1, 0.01, 0.02, 0.001, 0.0001, (double)0.001f,
                                    (double)0.0001f, 0.5, 1.0 };
    for (int i = 0; i < 300000; i++) {
        double v = rng_uniform(&r, -130.0, 130.0);
        for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++)
            check(rint(v / steps[k]) * steps[k]);
        double d = fabs(v);
        double q = exp(rint(log(d + 1.0e-10) / 0.1) * 0.1); /* the see distances */
        check(rint(q / 0.1) * 0.1);
        check(d * rint(v / d / 0.02) * 0.02);
        check(v * 57.29577951308232);
    }
    cr_expect_eq(numfmt_fails, 0, "%ld values differ from snprintf", numfmt_fails);
}

Test(numfmt, integers)
{
    static const int64_t cases[] = { 0, 1, -1, 9, 10, -10, 99, 100, 2147483647LL,
                                     -2147483648LL, INT64_MAX, INT64_MIN };
    char want[32], got[NUMFMT_MAX];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(want, sizeof want, "%lld", (long long)cases[i]);
        cr_expect_eq(numfmt_int(got, cases[i]), (int)strlen(want));
        cr_expect_str_eq(got, want);
    }
    rng_t r;
    rng_seed(&r, 3);
    for (int i = 0; i < 200000; i++) {
        uint64_t u = rng_next(&r) >> (rng_next(&r) % 64);
        snprintf(want, sizeof want, "%llu", (unsigned long long)u);
        numfmt_uint(got, u);
        cr_assert_str_eq(got, want);
        snprintf(want, sizeof want, "%lld", (long long)(int64_t)u);
        numfmt_int(got, (int64_t)u);
        cr_assert_str_eq(got, want);
    }
    snprintf(want, sizeof want, "%llu", (unsigned long long)UINT64_MAX);
    numfmt_uint(got, UINT64_MAX);
    cr_expect_str_eq(got, want);
}
