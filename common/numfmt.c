/* numfmt.c -- numbers as text without printf (numfmt.h).
 *
 * "%.6g" of a finite v != 0: the decimal exponent X of v rounded to 6 significant
 * digits, then fixed notation with 5 - X decimals when -4 <= X < 6, exponent notation
 * d.ddddde+XX otherwise, trailing zeros (and a bare point) removed. glibc rounds the
 * exact binary value, half to even (the default rounding mode), so the digits here come
 * from exact integer arithmetic too: v = m * 2^e2 (m < 2^53), and the six digits are
 * N = round(m * 2^e2 * 10^(5 - X)) computed in 128 bits: a multiplication by a power of
 * five and a shift when 5 - X >= 0 (|v| < 1e6, the usual case), one division when
 * |v| >= 1e6. Magnitudes outside [2^-67, 2^67) (below 7e-21 or above 1.4e20; no
 * protocol value is) are left to snprintf. */
#include <stdio.h>
#include <string.h>
#include "numfmt.h"

__extension__ typedef unsigned __int128 numfmt_u128;

#define NUMFMT_POW5_N 28

static const uint64_t numfmt_pow5[NUMFMT_POW5_N] = {
    1ULL, 5ULL, 25ULL, 125ULL, 625ULL, 3125ULL, 15625ULL, 78125ULL, 390625ULL,
    1953125ULL, 9765625ULL, 48828125ULL, 244140625ULL, 1220703125ULL, 6103515625ULL,
    30517578125ULL, 152587890625ULL, 762939453125ULL, 3814697265625ULL,
    19073486328125ULL, 95367431640625ULL, 476837158203125ULL, 2384185791015625ULL,
    11920928955078125ULL, 59604644775390625ULL, 298023223876953125ULL,
    1490116119384765625ULL, 7450580596923828125ULL,
};

/* "00" "01" ... "99" */
static const char numfmt_d2[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

int numfmt_uint(char *out, uint64_t v)
{
    if (v < 10) { /* the usual counters and small numbers */
        out[0] = (char)('0' + v);
        out[1] = '\0';
        return 1;
    }
    char tmp[24];
    int n = 24;
    while (v >= 100) {
        n -= 2;
        memcpy(tmp + n, numfmt_d2 + 2 * (v % 100), 2);
        v /= 100;
    }
    if (v >= 10) {
        n -= 2;
        memcpy(tmp + n, numfmt_d2 + 2 * v, 2);
    } else {
        tmp[--n] = (char)('0' + v);
    }
    memcpy(out, tmp + n, (size_t)(24 - n));
    out[24 - n] = '\0';
    return 24 - n;
}

int numfmt_int(char *out, int64_t v)
{
    if (v >= 0)
        return numfmt_uint(out, (uint64_t)v);
    out[0] = '-';
    return 1 + numfmt_uint(out + 1, (uint64_t)0 - (uint64_t)v);
}

/* N = m * 2^e2 * 10^k rounded half to even (N < 10^7 for the k the caller picks) */
static uint64_t numfmt_scaled(uint64_t m, int e2, int k)
{
    numfmt_u128 num, den, q, rem;
    if (k >= 0) {
        num = (numfmt_u128)m * numfmt_pow5[k];
        int s = e2 + k;
        if (s >= 0)
            return (uint64_t)(num << s);
        int sh = -s;
        q = num >> sh;
        rem = num - (q << sh);
        numfmt_u128 half = (numfmt_u128)1 << (sh - 1);
        if (rem > half || (rem == half && (q & 1)))
            q++;
        return (uint64_t)q;
    }
    int j = -k, s = e2 - j;
    if (s >= 0) {
        num = (numfmt_u128)m << s;
        den = numfmt_pow5[j];
    } else {
        num = m;
        den = (numfmt_u128)numfmt_pow5[j] << -s;
    }
    q = num / den;
    rem = num - q * den;
    if (2 * rem > den || (2 * rem == den && (q & 1)))
        q++;
    return (uint64_t)q;
}

/* exact powers of ten (a double holds 10^k exactly up to k = 22) */
static const double numfmt_p10[10] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9 };

/* The usual case, 1e-4 <= a < 1e6 (fixed notation), in double arithmetic: y = a * 10^k
 * is one rounding off the exact product (less than 1e-9 for y < 1e7), so where y is
 * not within 1e-6 of a rounding midpoint or a decade edge its digits are the exact
 * ones. 0 done, -1 undecided (the caller does it exactly). */
static int numfmt_digits_fast(double a, int e10, uint32_t *d, int *x)
{
    int k = 5 - e10;
    if (k < 0 || k > 9)
        return -1;
    double y = a * numfmt_p10[k];
    if (y >= 1000000.0) {
        if (k == 0)
            return -1;
        e10++;
        y = a * numfmt_p10[--k];
    }
    if (y < 100000.0 + 1e-6 || y > 1000000.0 - 1e-6)
        return -1; /* at a decade edge: exactly */
    uint32_t n = (uint32_t)y;
    double frac = y - (double)n;
    if (frac > 0.5 - 1e-6 && frac < 0.5 + 1e-6)
        return -1; /* near a midpoint: exactly */
    n += frac > 0.5;
    if (n == 1000000) { /* rounded up to the next decade */
        n = 100000;
        e10++;
    }
    *d = n;
    *x = e10;
    return 0;
}

/* |v| as 6 digits d (100000..999999) and the exponent of the first; -1 out of range */
static int numfmt_digits(double a, uint32_t *d, int *x)
{
    uint64_t bits;
    memcpy(&bits, &a, sizeof bits);
    int be = (int)((bits >> 52) & 0x7ff);
    if (be == 0 || be == 0x7ff)
        return -1;
    uint64_t m = (bits & ((1ULL << 52) - 1)) | (1ULL << 52);
    int e2 = be - 1075;
    int p = e2 + 52; /* 2^p <= a < 2^(p+1) */
    if (p < -67 || p >= 67)
        return -1;
    /* floor(p * log10(2)) (gcc shifts negatives arithmetically): X or X - 1 */
    int e10 = (p * 78913) >> 18;
    if (numfmt_digits_fast(a, e10, d, x) == 0)
        return 0;
    uint64_t n = numfmt_scaled(m, e2, 5 - e10);
    if (n >= 1000000) {
        e10++;
        n = numfmt_scaled(m, e2, 5 - e10);
    }
    if (n >= 1000000) { /* rounded up to the next decade: 999999.5 -> 1000000 */
        n /= 10;
        e10++;
    }
    *d = (uint32_t)n;
    *x = e10;
    return 0;
}

/* the six digits (dig holds 16 bytes: the copies below move 8 at a time) with trailing
 * zeros dropped; their count */
static int numfmt_sig(uint32_t d, char dig[16])
{
    uint32_t hi = d / 10000, lo = d % 100;
    memcpy(dig, numfmt_d2 + 2 * hi, 2);
    memcpy(dig + 2, numfmt_d2 + 2 * (d / 100 % 100), 2);
    memcpy(dig + 4, numfmt_d2 + 2 * lo, 2);
    int nd = 6;
    while (nd > 1 && dig[nd - 1] == '0')
        nd--;
    return nd;
}

static int numfmt_special(char *out, double v, int neg)
{
    const char *s = v != v ? (neg ? "-nan" : "nan")
                  : v == 0.0 ? (neg ? "-0" : "0")
                  : (neg ? "-inf" : "inf");
    size_t n = strlen(s);
    memcpy(out, s, n + 1);
    return (int)n;
}

int numfmt_g6(char *out, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    int neg = (int)(bits >> 63);
    if (v == 0.0) { /* common (no motion, no change): "0", "-0" */
        out[0] = '-';
        out[neg] = '0';
        out[neg + 1] = '\0';
        return neg + 1;
    }
    double a = neg ? -v : v;
    if (a != a || a > 1.7976931348623157e308)
        return numfmt_special(out, v, neg);
    uint32_t d;
    int x;
    if (numfmt_digits(a, &d, &x) < 0)
        return snprintf(out, NUMFMT_MAX, "%.6g", v);
    char dig[16] = "", *o = out;
    int nd = numfmt_sig(d, dig);
    if (neg)
        *o++ = '-';
    if (x >= 6 || x < -4) { /* d.ddddde+XX */
        *o++ = dig[0];
        if (nd > 1) {
            *o++ = '.';
            for (int i = 1; i < nd; i++)
                *o++ = dig[i];
        }
        *o++ = 'e';
        *o++ = x < 0 ? '-' : '+';
        int ax = x < 0 ? -x : x;
        if (ax >= 100)
            *o++ = (char)('0' + ax / 100);
        *o++ = (char)('0' + ax / 10 % 10);
        *o++ = (char)('0' + ax % 10);
    } else if (x >= 0) { /* X + 1 integer digits, then what is left; fixed 8-byte
                            * copies (out has NUMFMT_MAX bytes), the end set after */
        memcpy(o, dig, 8);
        o += x + 1;
        if (nd > x + 1) {
            *o++ = '.';
            memcpy(o, dig + x + 1, 8);
            o += nd - x - 1;
        }
    } else { /* 0.000ddd */
        memcpy(o, "0.000000", 8);
        o += 1 - x;
        memcpy(o, dig, 8);
        o += nd;
    }
    *o = '\0';
    return (int)(o - out);
}
