/* arena/base/grow.h — growing the solvers' arrays: a doubling capacity and a realloc that leaves the
 * array as it was when memory runs out. Arrays that share one capacity are each resized to the same new
 * capacity; if a later one fails, those already resized stay valid (only larger than recorded). */
#ifndef ARENA_BASE_GROW_H
#define ARENA_BASE_GROW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The capacity to grow `cap` to so that it holds `need` elements: doubled from `cap` (or from `first`
 * when cap is 0). 0 when that would exceed UINT32_MAX. */
static inline uint32_t grow_capacity(uint32_t cap, uint64_t need, uint32_t first)
{
    uint64_t c = cap ? cap : first;
    while (c < need)
        c *= 2;
    return c > UINT32_MAX ? 0 : (uint32_t)c;
}

/* Resizes the array whose pointer is at `array` (a T **) to n elements of `elem` bytes. Returns false,
 * leaving it unchanged, when n is 0 or memory runs out. */
static inline bool grow_resize(void *array, size_t elem, uint32_t n)
{
    void *p;
    memcpy(&p, array, sizeof p);
    void *q = n ? realloc(p, elem * n) : NULL;
    if (!q)
        return false;
    memcpy(array, &q, sizeof q);
    return true;
}

#endif
