/* arena/solver/hexbits.h — Hex geometry on bitsets (bit i = cell i = r*C + c, boards of at most 64 cells):
 * neighbours, the cells joined to a set through free cells, and shortest connections by a 0-1
 * breadth-first search. Shared by the searches that reason about sets of boards (pone.c, surewin.c). */
#ifndef ARENA_SOLVER_HEXBITS_H
#define ARENA_SOLVER_HEXBITS_H

#include <stdbool.h>
#include <stdint.h>

#define HB_MAX_CELLS 64
#define HB_FAR 1000 /* distance when no connection exists */

typedef struct {
    int rows, cols, cells;
    uint64_t all, not_first, not_last; /* board; cells not in the first / last column */
    uint64_t edge[2][2];               /* edge[p][0], edge[p][1]: player p's two sides (0 Black, 1 White) */
} hb_geom;

/* Fills g for an R x C board; false when R or C is below 2 or the board has more than 64 cells. */
bool hb_init(hb_geom *g, int rows, int cols);

/* The neighbours of the cells of x. */
uint64_t hb_spread(const hb_geom *g, uint64_t x);

/* Everything joined to `reach` through cells of `free`. */
uint64_t hb_closure(const hb_geom *g, uint64_t reach, uint64_t free);

/* The fewest cells of `costly` player p must add to its stones `free` to join its sides (HB_FAR when it
 * cannot). */
int hb_distance(const hb_geom *g, int p, uint64_t free, uint64_t costly);

/* Whether player p's stones join its sides. */
bool hb_joined(const hb_geom *g, int p, uint64_t stones);

#endif
