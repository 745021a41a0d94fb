/* arena/base/rng.h — the project's seeded pseudo-random generator (xoshiro256**, seeded by splitmix64).
 * Header-only so that random playouts inline it; the same seed gives the same stream everywhere. */
#ifndef ARENA_BASE_RNG_H
#define ARENA_BASE_RNG_H

#include <stdint.h>

#include "mix.h"

typedef struct {
    uint64_t s[4];
} rng_state;

static inline void rng_seed(rng_state *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = mix_next(&seed);
}

static inline uint64_t rng_next(rng_state *r)
{
    uint64_t *s = r->s;
    uint64_t x = s[1] * 5;
    uint64_t result = ((x << 7) | (x >> 57)) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return result;
}

/* Uniform integer in [0, n) for 0 < n < 2^32 (multiply-shift; the bias is below 2^-32 per draw). */
static inline uint32_t rng_below(rng_state *r, uint32_t n)
{
    return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* A uniform double in [0, 1) (53 random bits). */
static inline double rng_double(rng_state *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

#endif
