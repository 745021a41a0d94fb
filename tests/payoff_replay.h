/* tests/payoff_replay.h — the tests' own play-out of two attempt sequences on the engine, written apart
 * from arena/solver/payoff.c so that each payoff matrix entry is checked against an independent driver
 * (docs/payoff.md states the rules both follow). */
#ifndef TESTS_PAYOFF_REPLAY_H
#define TESTS_PAYOFF_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "game.h"

/* Black's and White's sequences of `moves` distinct cells, played from the empty board: the player to move
 * skips the cells it knows occupied (its own stones, the stones it hit, and in hex every stone) and tries the
 * next one; the play-out ends at a win or when the player to move has no cell left, unless `pass`: then the
 * other plays its remaining cells alone (boards of at most 64 cells). Returns HX_BLACK, HX_WHITE or
 * HX_NOBODY, or -1 when the engine refused an attempt (which the rules say cannot happen). With `trace`
 * (room for 2 * moves entries), writes each attempt as cell | player << 9 | outcome << 10 (a hit while alone
 * as outcome 3). */
static inline int payoff_replay(hx_variant v, int rows, int cols, const uint16_t *black, const uint16_t *white,
                                int moves, bool pass, int *trace)
{
    hx_game g;
    if (hx_new(&g, v, rows, cols, 0) < 0)
        return -1;
    const uint16_t *seq[2] = { black, white };
    bool known[2][HX_MAX_CELLS] = { { false } };
    int next[2] = { 0, 0 }, n = 0;
    while (hx_winner(&g) == HX_NOBODY) {
        int p = hx_to_move(&g);
        while (next[p] < moves &&
               (known[p][seq[p][next[p]]] || (v == HX_HEX && hx_owner(&g, seq[p][next[p]]) != 0)))
            next[p]++;
        if (next[p] == moves && pass) {
            /* the other player alone: its stones as a bit set, a win checked after each new one */
            int q = p ^ 1;
            uint64_t mine = 0;
            for (int c = 0; c < rows * cols; c++)
                mine |= (uint64_t)(hx_owner(&g, c) == q + 1) << c;
            for (; next[q] < moves; next[q]++) {
                int cell = seq[q][next[q]];
                if (known[q][cell] || (v == HX_HEX && hx_owner(&g, cell) != 0))
                    continue;
                bool empty = hx_owner(&g, cell) == 0;
                if (trace)
                    trace[n++] = cell | q << 9 | (empty ? HX_PLACED : 3) << 10;
                mine |= (uint64_t)empty << cell;
                if (empty && hx_set_joins(rows, cols, q, mine))
                    return q;
            }
            return HX_NOBODY;
        }
        if (next[p] == moves)
            return HX_NOBODY;
        int cell = seq[p][next[p]++];
        int r = hx_attempt(&g, cell);
        if (r < 0)
            return -1;
        /* the turn rules, seen from outside: a placed stone and a collision pass the turn, a rejection keeps it */
        if (hx_winner(&g) == HX_NOBODY && (hx_to_move(&g) == p) != (r == HX_REJECTED))
            return -1;
        if (trace)
            trace[n++] = cell | p << 9 | r << 10;
        known[p][cell] = true;
    }
    return hx_winner(&g);
}

#endif
