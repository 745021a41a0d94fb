/* arena/solver/dwdefault.h — the default play of the tree-free solvers (dowalk.h, doseq.h): the cell a pure
 * strategy attempts at a state where it stores none, computed from what the player to move knows.
 *
 * dw_default(g): among the player's legal cells (hx_legal), the one that minimises
 *     d_own(after the cell) - d_opp(with the cell taken from the opponent),
 * where d_own is the number of cells the player still needs to join its two sides (its own stones free, cells
 * it knows the opponent holds blocked, every other cell one) and d_opp the same for the opponent as the player
 * sees the board (the opponent's stones the player has learned free, the player's own stones blocked); a side
 * that can no longer be joined counts as 2 * cells. Ties go to the cell nearest the board's centre, then to the
 * lowest cell. It depends only on the player's view (hx_view), so it is a function of the information state:
 * a strategy that plays it is a strategy of the game. The swap move is never the default. On boards of more
 * than 64 cells (beyond the tree-free solvers' 16) it is the lowest legal cell. */
#ifndef ARENA_SOLVER_DWDEFAULT_H
#define ARENA_SOLVER_DWDEFAULT_H

#include "game.h"

/* The default cell of the player to move in g (the game must not be over). */
int dw_default(const hx_game *g);

/* The spread default (salt != 0): one of the legal cells of the player to move in g other than the swap,
 * chosen uniformly by a hash of key (the state's perfect-recall key, hx_key_fingerprint()) and salt. A
 * function of the information state, as dw_default is; the members of a mixture with different salts play
 * different cells where they store none, so that outside what they store the mixture is not one known
 * strategy (dowalk.h's dw_pure_set_salt). */
int dw_default_spread(const hx_game *g, uint64_t key, uint32_t salt);

/* A memo of dw_default by view (boards of at most 16 cells; 512 KiB, direct-mapped: a slot holds the last
 * view hashed to it). The best-response walk asks for the default at nearly every opponent move. */
typedef struct dw_memo dw_memo;

/* A new, empty memo, or NULL when out of memory. */
dw_memo *dw_memo_new(void);
void dw_memo_free(dw_memo *m);

/* dw_default(g), from the memo when it holds g's view (m may be NULL: computed). */
int dw_default_memo(dw_memo *m, const hx_game *g);

#endif
