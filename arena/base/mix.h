/* arena/base/mix.h — the project's one seed mixer: splitmix64's finaliser (a bijection of 64-bit words
 * with full avalanche) and the derivation of independent streams from one seed. Header-only so hash
 * tables and random playouts inline it. The mixer is invertible: a value derived with it is no secret
 * (what a bot must not learn is kept from it by the coordinator, not by mixing). */
#ifndef ARENA_BASE_MIX_H
#define ARENA_BASE_MIX_H

#include <stdint.h>

#define MIX_GOLDEN 0x9e3779b97f4a7c15ULL /* 2^64 / golden ratio: splitmix64's increment */

/* splitmix64's output function. */
static inline uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* splitmix64 as a generator: advances *state and returns the next word. */
static inline uint64_t mix_next(uint64_t *state)
{
    return mix64(*state += MIX_GOLDEN);
}

/* Stream `i` of `seed` (game i of a league, player i of a game): mix64(seed * golden + i + 1). */
static inline uint64_t mix_stream(uint64_t seed, uint64_t i)
{
    return mix64(seed * MIX_GOLDEN + i + 1);
}

#endif
