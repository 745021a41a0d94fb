/* arena/solver/surewin.h — sure wins in every dark variant (docs/surewin.md): for player P, the beliefs
 * from which P wins with probability one whatever the hidden stones are and whatever the opponent Q does,
 * and the attempt that keeps the win. Classical is pONE (pone.h) again, with a compact memo; abrupt adds
 * Q's collisions, which cost Q its turn (a pass, allowed while Q has not learned every P stone), told to
 * P in abrupt-noisy/-flash and not in abrupt.
 *
 * A key is P's belief: P's stones, the Q stones P has learned, who is to move, and the set of Q collision
 * counts c still possible (a bit mask; in classical and in the told variants one count). The number of
 * hidden Q stones follows from the key and c: Q's turns are fixed by P's own turns, and every Q turn
 * placed a stone or collided. The boards the key stands for: for each c in the set, every placement of
 * that many hidden stones on the cells P does not know that leaves Q unjoined.
 *
 * The memo is one 64-bit word per key (P to move only): own and seen as 16-bit sets, the count mask and
 * the result with its cell, in an open-addressing table; boards of at most SW_MAX_CELLS cells. */
#ifndef ARENA_SOLVER_SUREWIN_H
#define ARENA_SOLVER_SUREWIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "variant.h"

#define SW_MAX_CELLS 16

/* What a sure win depends on (docs/surewin.md): classical and its -noisy/-flash forms share one search,
 * abrupt-noisy and abrupt-flash another. */
typedef enum { SW_CLASSICAL, SW_ABRUPT_TOLD, SW_ABRUPT } sw_rules;

/* The rules of a dark variant; -1 for hex. */
int sw_rules_of(hx_variant v);

typedef struct sw sw;

typedef struct {
    uint64_t own, seen; /* P's stones; the Q stones P has learned */
    bool q_to_move;     /* Q is to move (P has just finished its turn) */
    uint32_t counts;    /* bit c: Q may have collided c times so far (classical: bit 0) */
} sw_key;

/* A search for `player` (0 Black, 1 White) on an R x C board (at most SW_MAX_CELLS cells); NULL otherwise
 * or when memory runs out. */
sw *sw_new(int rows, int cols, sw_rules rules, int player);
void sw_free(sw *s);

/* Stops a search at clk_now() >= deadline (0: never) and when the memo would grow past max_bytes (0: no
 * limit). */
void sw_set_limits(sw *s, double deadline, uint64_t max_bytes);

/* The key of the empty board: P to move when P is Black. */
sw_key sw_root(const sw *s);

/* Solves k: 1 a sure win, 0 not, -1 k inconsistent or out of memory (the memo limit), -2 the deadline
 * passed. On 1 with P to move and not yet joined, *cell (when not NULL) is an attempt that keeps the win;
 * otherwise -1. */
int sw_solve(sw *s, const sw_key *k, int *cell);

/* What follows an event, for walking P's histories. After P's attempt at x (P to move, x unknown):
 * placed / collided keys and whether each can happen (*placed_won: P's stones join). After Q's turn (Q
 * to move): out[0] the key when P is told nothing and out[1] when P is told of a collision; *n the number
 * of outcomes that can happen, with ok[i] saying which. Returns -1 for a key of the wrong mover. */
int sw_after_attempt(const sw *s, const sw_key *k, int x, sw_key *placed, bool *can_place, bool *placed_won,
                     sw_key *collided, bool *can_collide);
int sw_after_opponent(const sw *s, const sw_key *k, sw_key out[2], bool ok[2]);

/* Walks every history of what P is told that the winning strategy from k can meet (k a sure win), in
 * depth-first order, calling visit with the events told so far (engine kinds: HX_EV_PLACED, HX_EV_REJECTED or
 * HX_EV_COLLIDED, and HX_EV_OPP_HIT for a collision P is told of) and the attempt the strategy makes there.
 * At most max_moves calls (0: no limit). Returns the number of calls, -1 k not a sure win or out of memory,
 * -2 the deadline, -3 more than max_moves. */
typedef void (*sw_visit)(const hx_event *ev, int n, int cell, void *user);
int64_t sw_walk_strategy(sw *s, const sw_key *k, uint64_t max_moves, sw_visit visit, void *user);

/* Every key with P to move (P not yet joined) that real games reach from the empty board, solved:
 * *keys of them, *wins sure wins. Returns 0, or -1 out of memory / -2 the deadline (the counts so far). */
int sw_enumerate(sw *s, uint64_t *keys, uint64_t *wins);

typedef struct {
    uint64_t nodes;   /* P-to-move keys expanded */
    uint64_t keys;    /* keys in the memo */
    uint64_t bytes;   /* the memo's size */
} sw_stats;

void sw_get_stats(const sw *s, sw_stats *out);

#endif
