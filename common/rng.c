/* rng.c -- xoshiro256** seeded with splitmix64; Box-Muller for normals. */
#include <math.h>
#include <sys/types.h>
#include <sys/random.h>
#include <time.h>
#include "rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void rng_seed(rng_t *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(rng_t *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double rng_unit(rng_t *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

double rng_uniform(rng_t *r, double lo, double hi)
{
    if (lo == hi)
        return lo;
    return lo + (hi - lo) * rng_unit(r);
}

double rng_normal(rng_t *r, double mean, double sd)
{
    double u1 = rng_unit(r), u2 = rng_unit(r);
    if (u1 < 1e-300)
        u1 = 1e-300;
    return mean + sd * sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

uint64_t rng_fresh_seed(void)
{
    uint64_t s = 0;
    if (getrandom(&s, sizeof s, 0) != (ssize_t)sizeof s) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        s = (uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec;
    }
    return s;
}

/* ---- MT19937 (Matsumoto & Nishimura 1998), parameters of std::mt19937 ------------- */
#define MT_M      397
#define MT_UPPER  0x80000000u
#define MT_LOWER  0x7fffffffu
#define MT_MATRIX 0x9908b0dfu

void rng_mt_seed(rng_mt_t *r, uint32_t seed)
{
    r->mt[0] = seed;
    for (int i = 1; i < RNG_MT_N; i++) {
        uint32_t prev = r->mt[i - 1];
        r->mt[i] = 1812433253u * (prev ^ (prev >> 30)) + (uint32_t)i;
    }
    r->idx = RNG_MT_N;
}

static void mt_twist(rng_mt_t *r)
{
    for (int i = 0; i < RNG_MT_N; i++) {
        uint32_t y = (r->mt[i] & MT_UPPER) | (r->mt[(i + 1) % RNG_MT_N] & MT_LOWER);
        r->mt[i] = r->mt[(i + MT_M) % RNG_MT_N] ^ (y >> 1) ^ ((y & 1u) ? MT_MATRIX : 0u);
    }
    r->idx = 0;
}

uint32_t rng_mt_next(rng_mt_t *r)
{
    if (r->idx >= RNG_MT_N)
        mt_twist(r);
    uint32_t y = r->mt[r->idx++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

double rng_mt_canonical(rng_mt_t *r)
{
    double g1 = (double)rng_mt_next(r);
    double g2 = (double)rng_mt_next(r);
    double u = (g1 + g2 * 4294967296.0) / 18446744073709551616.0;
    return u >= 1.0 ? nextafter(1.0, 0.0) : u;
}

double rng_mt_uniform(rng_mt_t *r, double lo, double hi)
{
    return rng_mt_canonical(r) * (hi - lo) + lo;
}
