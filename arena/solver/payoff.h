/* arena/solver/payoff.h — pure-strategy payoff matrices of short fixed attempt sequences (the thesis's
 * "abrupt 2x2 pay-off matrix", for every variant and small board): a strategy, its play-out against another
 * and the whole matrix (docs/payoff.md).
 *
 * Contract
 * - A strategy of `moves` attempts is a sequence of `moves` distinct cells, tried in order.
 * - The play-out of Black's sequence against White's, on the engine from the empty board: the player to move
 *   tries the next cell of its own sequence, skipping the cells its view already shows occupied (in hex the
 *   opponent's stones; in the dark variants a cell is only ever known once it has been tried, so nothing is
 *   skipped there). A placed stone ends the turn; a rejection (classical family) moves on to the next cell
 *   within the same turn; a collision (abrupt family) ends the turn. The play-out ends the moment someone
 *   connects (that player is the outcome), or when the player to move has no attempt left (outcome
 *   HX_NOBODY): a turn cannot be passed, so the opponent's remaining attempts are not played. Every play-out
 *   is therefore the prefix of a legal game, which `arena replay` can replay attempt by attempt.
 * - The matrix: rows are Black's strategies, columns White's, both the same list in lexicographic order of
 *   their cells' indices (PO_ORDER_INDEX: i = r*C + c) or of column-major numbers (PO_ORDER_COLUMN:
 *   c*R + r, the thesis's numbering of the 2x2 cells: 0 a1, 1 a2, 2 b1, 3 b2).
 * - Sizes: cells!/(cells-moves)! strategies per player; po_build() refuses more than PO_MAX_ENTRIES entries.
 */
#ifndef ARENA_SOLVER_PAYOFF_H
#define ARENA_SOLVER_PAYOFF_H

#include <stdint.h>

#include "game.h"

/* Largest matrix po_build() makes (rows * columns). */
#define PO_MAX_ENTRIES 4000000u

typedef enum { PO_ORDER_INDEX = 0, PO_ORDER_COLUMN = 1 } po_order;

/* Errors (< 0). */
enum {
    PO_ERR_MOVES = -1,  /* moves outside 1..cells */
    PO_ERR_LARGE = -2,  /* more than PO_MAX_ENTRIES entries */
    PO_ERR_MEMORY = -3, /* out of memory */
    PO_ERR_GAME = -4,   /* hx_new() refused the variant or board */
};

typedef struct {
    hx_variant variant;
    int rows, cols, moves;
    po_order order;
    uint32_t n;          /* strategies per player */
    uint16_t *strategy;  /* n * moves cell indices: strategy s is strategy[s*moves .. s*moves+moves-1] */
    uint8_t *outcome;    /* n * n: outcome[b*n + w] is HX_BLACK, HX_WHITE or HX_NOBODY */
} po_matrix;

/* Strategies per player on a board of `cells` cells: cells!/(cells-moves)!, saturated at UINT64_MAX; 0 when
 * moves is outside 1..cells. */
uint64_t po_strategies(int cells, int moves);

/* Plays Black's sequence against White's (each `moves` distinct cells of g's board) on g, which must be a
 * fresh game (hx_new(), no attempt yet). Returns the outcome: HX_BLACK, HX_WHITE or HX_NOBODY. g holds the
 * play-out afterwards (hx_move_at() gives its attempts). */
int po_playout(hx_game *g, const uint16_t *black, const uint16_t *white, int moves);

/* Builds the matrix. Returns 0, or a PO_ERR_* (m is then empty: po_free() is still safe). */
int po_build(po_matrix *m, hx_variant variant, int rows, int cols, int moves, po_order order);

/* Frees the matrix's arrays (and leaves it empty). */
void po_free(po_matrix *m);

/* The cells of strategy s. */
static inline const uint16_t *po_strategy(const po_matrix *m, uint32_t s)
{
    return m->strategy + (uint64_t)s * (unsigned)m->moves;
}

/* The outcome of Black's strategy b against White's strategy w. */
static inline int po_outcome(const po_matrix *m, uint32_t b, uint32_t w)
{
    return m->outcome[(uint64_t)b * m->n + w];
}

/* 'B', 'W' or '-' for HX_BLACK, HX_WHITE, HX_NOBODY. */
static inline char po_outcome_char(int winner)
{
    return winner == HX_BLACK ? 'B' : winner == HX_WHITE ? 'W' : '-';
}

/* Short text for a PO_ERR_* code. */
const char *po_strerror(int err);

#endif
