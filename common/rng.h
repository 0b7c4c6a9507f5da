/* rng.h -- seeded pseudo-random generators.
 * rng_t: xoshiro256** seeded through splitmix64. Same seed, same sequence on every
 * machine: the sim draws its noise from a few of these (one per concern) so a match
 * replays exactly given the seed and the command stream.
 * rng_mt_t: the 32-bit Mersenne Twister (MT19937) with the seeding of C++'s
 * std::mt19937, and the double conversion of libstdc++'s generate_canonical and
 * uniform_real_distribution, so a sequence of uniform doubles equals the one a
 * libstdc++ program draws from the same seed (the heterogeneous player types). */
#ifndef RCSS_RNG_H
#define RCSS_RNG_H

#include <stdint.h>

typedef struct rng {
    uint64_t s[4];
} rng_t;

void     rng_seed(rng_t *r, uint64_t seed);
uint64_t rng_next(rng_t *r);
double   rng_unit(rng_t *r);                         /* [0, 1) */
double   rng_uniform(rng_t *r, double lo, double hi); /* [lo, hi) ; lo==hi -> lo */
double   rng_normal(rng_t *r, double mean, double sd);
/* A fresh seed from the OS (getrandom), for when none was configured. */
uint64_t rng_fresh_seed(void);

#define RNG_MT_N 624

typedef struct rng_mt {
    uint32_t mt[RNG_MT_N];
    int      idx;                                    /* next word; N: regenerate */
} rng_mt_t;

/* std::mt19937::seed(value): only the low 32 bits of seed count. */
void     rng_mt_seed(rng_mt_t *r, uint32_t seed);
uint32_t rng_mt_next(rng_mt_t *r);
/* generate_canonical<double, 53>: two outputs g1, g2 -> (g1 + g2 * 2^32) / 2^64 (the
 * sum rounded to double), values >= 1 replaced by the largest double below 1. */
double   rng_mt_canonical(rng_mt_t *r);
/* uniform_real_distribution<double>(lo, hi): canonical * (hi - lo) + lo. */
double   rng_mt_uniform(rng_mt_t *r, double lo, double hi);

#endif
