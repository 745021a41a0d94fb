/* tests/bridge_play.h — in-process games for the bridge builder's tests and benchmark: the planner plays
 * one colour from its own view (exactly what bin/bridge sees: view, events, counts) against a uniformly
 * random player, an omniscient intruder that puts a stone into one carrier of each of the builder's
 * bridges and edge templates as soon as it exists, or another bridge builder with other options (to
 * compare options head to head). No processes, no sockets. */
#ifndef TESTS_BRIDGE_PLAY_H
#define TESTS_BRIDGE_PLAY_H

#include <stdbool.h>
#include <string.h>

#include "game.h"
#include "planner.h"

typedef enum { BP_RANDOM, BP_INTRUDER, BP_BUILDER } bp_opponent;

typedef struct {
    long plans;         /* bb_choose() calls */
    int intrusions;     /* stones the intruder put into carriers */
} bp_stats;

/* Bridges and templates the intruder has already intruded into (keys: cell pairs; templates by cell and side). */
typedef struct {
    int n;
    int key[4 * HX_MAX_CELLS];
} bp_done;

static inline bool bp_seen(bp_done *d, int key, bool add)
{
    for (int i = 0; i < d->n; i++)
        if (d->key[i] == key)
            return true;
    if (add && d->n < 4 * HX_MAX_CELLS)
        d->key[d->n++] = key;
    return false;
}

/* The intruder's move: a carrier of a builder bridge or template it has not intruded yet, else random. */
static inline int bp_intrude(const hx_game *g, int builder, bp_done *done, rng_state *rng, bp_stats *st)
{
    int R = hx_rows(g), C = hx_cols(g), own = builder + 1;
    for (int i = 0; i < R * C; i++) {
        if (hx_owner(g, i) != own)
            continue;
        bb_bridge b[6];
        int n = bb_bridges(R, C, i, b);
        for (int k = 0; k < n; k++) {
            int j = b[k].partner, a = b[k].carrier[0], c = b[k].carrier[1];
            int id = i < j ? i * HX_MAX_CELLS + j : j * HX_MAX_CELLS + i;
            if (hx_owner(g, j) != own || bp_seen(done, id, false) || hx_owner(g, a) || hx_owner(g, c))
                continue;
            int pick = rng_below(rng, 2) ? a : c;
            if (hx_check(g, pick) == 0) {
                bp_seen(done, id, true);
                st->intrusions++;
                return pick;
            }
        }
        /* edge templates: Black's on rows 1 and R-2, White's on columns 1 and C-2 */
        int r = i / C, c = i % C, a = -1, d = -1, id = -1 - 2 * i;
        if (builder == HX_BLACK && r == 1 && c + 1 < C)
            a = c, d = c + 1;
        else if (builder == HX_BLACK && r == R - 2 && c >= 1)
            a = (R - 1) * C + c - 1, d = (R - 1) * C + c, id--;
        else if (builder == HX_WHITE && c == 1 && r + 1 < R)
            a = r * C, d = (r + 1) * C;
        else if (builder == HX_WHITE && c == C - 2 && r >= 1)
            a = r * C + C - 1, d = (r - 1) * C + C - 1, id--;
        if (a >= 0 && !bp_seen(done, id, false) && !hx_owner(g, a) && !hx_owner(g, d)) {
            int pick = rng_below(rng, 2) ? a : d;
            if (hx_check(g, pick) == 0) {
                bp_seen(done, id, true);
                st->intrusions++;
                return pick;
            }
        }
    }
    return hx_random_legal(g, rng);
}

/* One game; returns the winner. `opp_o`: the options of a BP_BUILDER opponent (else unused). */
static inline int bp_game(hx_variant v, int rows, int cols, int builder, uint64_t seed, const bb_options *o,
                          bp_opponent opp, const bb_options *opp_o, bp_stats *st)
{
    static _Thread_local hx_game g;
    static _Thread_local bp_done done;
    rng_state brng, orng;
    rng_seed(&brng, seed * 2 + 1);
    rng_seed(&orng, seed * 2 + 2);
    uint16_t jitter[HX_MAX_CELLS], ojitter[HX_MAX_CELLS];
    for (int i = 0; i < rows * cols; i++) {
        jitter[i] = (uint16_t)rng_below(&brng, BB_JITTER_MAX + 1);
        ojitter[i] = (uint16_t)rng_below(&orng, BB_JITTER_MAX + 1);
    }
    done.n = 0;
    if (hx_new(&g, v, rows, cols, 0) != 0)
        return -1;
    while (!hx_over(&g)) {
        int cell;
        if (hx_to_move(&g) == builder) {
            cell = bb_move(&g, builder, o, jitter, &brng);
            st->plans++;
        } else {
            cell = opp == BP_INTRUDER  ? bp_intrude(&g, builder, &done, &orng, st)
                 : opp == BP_BUILDER ? bb_move(&g, builder ^ 1, opp_o, ojitter, &orng)
                                     : hx_random_legal(&g, &orng);
        }
        if (hx_attempt(&g, cell) < 0)
            return -1; /* an illegal choice: the caller's assertion fails */
    }
    return hx_winner(&g);
}

#endif
