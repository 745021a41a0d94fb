/* arena/engine/gale.h — Gale's algorithm: the winner of a full board (every cell Black or White) found by
 * walking the boundary between the colours from a corner, and the path of winning cells the walk touched.
 *
 * Contract
 * - A gale_board is a plain struct (no pointers, no heap) holding an R x C board (HX_MIN_SIDE..HX_MAX_SIDE per
 *   side) with a one-cell border: the top and bottom rows are Black's edges, the left and right columns
 *   White's (rules.md "Board"; neighbours of (r,c): (r-1,c) (r-1,c+1) (r,c-1) (r,c+1) (r+1,c-1) (r+1,c)).
 *   gale_init() sets the geometry and makes every cell Black; gale_set() colours one cell in O(1). Nothing
 *   allocates.
 * - gale_walk() walks the boundary between Black's cluster of its first edge and White's cluster of its
 *   first edge, from one of two opposite corners: GALE_TOP_LEFT (between the top row and the left column) or
 *   GALE_BOTTOM_RIGHT (the same walk on the board rotated by 180 degrees). Each step looks at the one cell
 *   ahead of the current boundary edge and turns, so it visits each edge of the honeycomb at most once and
 *   stops as soon as Black's side reaches its far edge (Black wins) or White's side reaches its far edge
 *   (White wins). Its cost is the length of the walk, often far less than the number of cells. Both corners
 *   give the same winner (Hex has exactly one); the paths differ.
 * - The path: the cells of the winner's colour the walk touched, in order, from the last time the walk left
 *   the winner's first edge (top for Black, left for White; bottom, right from GALE_BOTTOM_RIGHT) to the
 *   cell on its far edge. Consecutive cells are adjacent, so it is a chain joining the winner's two edges.
 *   A cell may appear more than once (when the walk went round a dead end and came back to it).
 */
#ifndef ARENA_ENGINE_GALE_H
#define ARENA_ENGINE_GALE_H

#include <stdint.h>

#include "game.h"

enum { GALE_TOP_LEFT = 0, GALE_BOTTOM_RIGHT = 1 };

/* Longest possible path (one entry per step of the walk at most: the edges of the bordered board). */
#define GALE_PATH_MAX (3 * HX_PAD_CELLS)

/* Bits of gale_board.code: the colour, and where a cell lies (for the walk's stops). */
#define GALE_BLACK 1u
#define GALE_FIRST_ROW 2u
#define GALE_LAST_ROW 4u
#define GALE_FIRST_COL 8u
#define GALE_LAST_COL 16u

typedef struct {
    int rows, cols, stride, npad;
    uint16_t pad_of[HX_MAX_CELLS];  /* cell -> index on the bordered board */
    uint16_t cell_of[HX_PAD_CELLS]; /* index on the bordered board -> cell, 0xffff on the border */
    uint8_t code[HX_PAD_CELLS];     /* GALE_* bits per bordered cell */
} gale_board;

/* Sets up an R x C board (sides in HX_MIN_SIDE..HX_MAX_SIDE; the caller checks), every cell Black. */
void gale_init(gale_board *b, int rows, int cols);

/* Colours cell `cell` (0 .. R*C-1) HX_BLACK or HX_WHITE. O(1). */
static inline void gale_set(gale_board *b, int cell, int colour)
{
    uint8_t *c = &b->code[b->pad_of[cell]];
    *c = (uint8_t)((*c & ~GALE_BLACK) | (colour == HX_BLACK ? GALE_BLACK : 0u));
}

/* Colours every cell: colours[i] is HX_BLACK or HX_WHITE. O(cells). */
void gale_fill(gale_board *b, const uint8_t *colours);

/* The winner (HX_BLACK or HX_WHITE) of the full board, by the walk from `corner`. When `path` is not NULL
 * (GALE_PATH_MAX entries), the winner's path (see above) is written there and its length to *len. */
int gale_walk(const gale_board *b, int corner, uint16_t *path, int *len);

#endif
