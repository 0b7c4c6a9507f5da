/* numfmt.h -- numbers as text without printf, for the per-cycle encoders: reals exactly
 * as printf's "%.6g" prints them (the C++ ostream default the reference's messages
 * use: 6 significant digits, round half to even on the exact binary value, no trailing
 * zeros, exponent form below 1e-4 and from 1e6), integers as "%d" / "%u".
 * Every function writes a NUL-terminated string into out (which must hold NUMFMT_MAX
 * bytes) and returns its length. test/common/test_numfmt.c checks them against
 * snprintf over millions of values. */
#ifndef RCSS_NUMFMT_H
#define RCSS_NUMFMT_H

#include <stdint.h>

#define NUMFMT_MAX 24   /* "-1.23456e-308", "-9223372036854775808", "-nan" + NUL */

/* v as "%.6g" prints it ("-0" for -0.0, "nan", "-inf" ...) */
int numfmt_g6(char *out, double v);
/* v as "%d" / "%u" print it (any int64 / uint64) */
int numfmt_int(char *out, int64_t v);
int numfmt_uint(char *out, uint64_t v);

#endif
