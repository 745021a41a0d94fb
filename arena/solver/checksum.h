/* arena/solver/checksum.h — the 64-bit checksum of policy files and checkpoints: eight bytes per step,
 * chainable over several arrays (pass the previous result as h). Catches truncation, bit flips and edits;
 * not a cryptographic hash. */
#ifndef ARENA_SOLVER_CHECKSUM_H
#define ARENA_SOLVER_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SV_CHECKSUM_SEED 0x243f6a8885a308d3ULL

static inline uint64_t sv_checksum(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    size_t i = 0;
    h ^= n;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
        h ^= h >> 29;
    }
    for (; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ULL;
    return h ^ (h >> 31);
}

#endif
