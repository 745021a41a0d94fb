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
 *   connects (that player is the outcome). When the player to move has no attempt left (its sequence is
 *   exhausted; nothing else can leave it without one), the rule decides:
 *   PO_STOP (the default): the play-out ends there, outcome HX_NOBODY. A turn cannot be passed, so the
 *     opponent's remaining attempts are not played, and every play-out is the prefix of a legal game
 *     (`arena replay` replays it attempt by attempt).
 *   PO_PASS: the player passes; the opponent plays its remaining cells alone (skipping those it knows
 *     occupied, a hit on a hidden stone just makes it known), and the play-out ends at its win or when it
 *     too has none. Boards of at most PO_PASS_MAX_CELLS cells, which every matrix po_build() may make
 *     needs: with one move nobody is left to play alone, and a matrix of two moves or more within
 *     PO_MAX_ENTRIES has at most 45 cells.
 *   In the abrupt family (and with one move each) both rules give the same matrix: each turn consumes one
 *   attempt of the mover, so Black runs out only after White's last attempt.
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

/* What happens when the player to move has no attempt left (see above). */
typedef enum { PO_STOP = 0, PO_PASS = 1 } po_rule;
#define PO_PASS_MAX_CELLS 64

/* Errors (< 0). */
enum {
    PO_ERR_MOVES = -1,  /* moves outside 1..cells */
    PO_ERR_LARGE = -2,  /* more than PO_MAX_ENTRIES entries */
    PO_ERR_MEMORY = -3, /* out of memory */
    PO_ERR_GAME = -4,   /* hx_new() refused the variant or board */
    PO_ERR_PASS = -5,   /* PO_PASS on a board of more than PO_PASS_MAX_CELLS cells */
};

/* The attempts a player made alone after its opponent ran out (PO_PASS): cells and outcomes in order
 * (HX_PLACED, or HX_REJECTED / HX_COLLISION for a hidden stone it hit). */
typedef struct {
    int player, n;
    uint16_t cell[HX_MAX_CELLS];
    uint8_t outcome[HX_MAX_CELLS];
} po_tail;

typedef struct {
    hx_variant variant;
    int rows, cols, moves;
    po_order order;
    po_rule rule;
    uint32_t n;          /* strategies per player */
    uint16_t *strategy;  /* n * moves cell indices: strategy s is strategy[s*moves .. s*moves+moves-1] */
    uint8_t *outcome;    /* n * n: outcome[b*n + w] is HX_BLACK, HX_WHITE or HX_NOBODY */
} po_matrix;

/* Strategies per player on a board of `cells` cells: cells!/(cells-moves)!, saturated at UINT64_MAX; 0 when
 * moves is outside 1..cells. */
uint64_t po_strategies(int cells, int moves);

/* Plays Black's sequence against White's (each `moves` distinct cells of g's board) on g, which must be a
 * fresh game (hx_new(), no attempt yet). Returns the outcome: HX_BLACK, HX_WHITE or HX_NOBODY, or
 * PO_ERR_PASS. g holds the alternating part of the play-out afterwards (hx_move_at() gives its attempts);
 * `tail` (may be NULL) receives the attempts played alone under PO_PASS (n 0 when none). */
int po_playout(hx_game *g, const uint16_t *black, const uint16_t *white, int moves, po_rule rule, po_tail *tail);

/* Builds the matrix. Returns 0, or a PO_ERR_* (m is then empty: po_free() is still safe). */
int po_build(po_matrix *m, hx_variant variant, int rows, int cols, int moves, po_order order, po_rule rule);

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
