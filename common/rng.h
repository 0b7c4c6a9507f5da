/* rng.h -- seeded pseudo-random generator (xoshiro256**, seeded through splitmix64).
 * Same seed, same sequence on every machine: the sim draws all its noise from one of
 * these so a match replays exactly given the seed and the command stream. */
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

#endif
