/* agents/ismcts/search.h — the ismcts bot's search: information-set Monte Carlo tree search over hidden boards
 * drawn from the belief (belief.h; docs/bots.md "ismcts").
 *
 * Contract
 * - ism_choose() first looks for an immediate connection: an unknown cell that joins the player's edges with
 *   its own stones; it returns the lowest such cell at once.
 * - Otherwise it runs iterations until the budget is spent (iterations, seconds, or both: whichever comes
 *   first). Each iteration takes a hidden board (a fresh ism_sample() each time, or with `samples` > 0 the
 *   next of that many boards drawn at the start, in turn) and walks one tree shared by all boards
 *   (single-observer ISMCTS); a child is available on a board when its move is possible there, and the walk
 *   picks the available child with the best UCB score (wins / visits + c * sqrt(ln availability / visits)),
 *   expands one untried move, finishes the board at random and scores the winner (Gale's walk on the full
 *   board) up the path.
 *   - Dark variants: the tree holds the player's own attempts alone, available while the cell is unknown to
 *     it in the simulated game. An attempt on an empty cell places, then the opponent takes a turn of random
 *     attempts on cells it does not know, each with probability `opp_grow` grown from one of its stones
 *     (a random stone of its, and with probability `opp_goal` one of the six cells toward its own edges, its
 *     four neighbours off its line and its two bridge points across it, else any of its six neighbours and
 *     six bridge points; a uniformly random cell when 8 draws find none of its stones or only cells off the
 *     board), else a uniformly random cell (with `opp_centre` > 0 drawn by the centre model's weights
 *     instead); it sees none of the player's stones; hitting one, it learns it and
 *     tries again in the classical family, loses the turn in the abrupt family); an attempt
 *     on a hidden stone learns it and moves again (classical family) or loses the turn (abrupt family).
 *     Leaving the tree, the empty cells are filled alternately at random. With `rave` k > 0 every root cell
 *     is a child from the start and the root's score blends in an all-moves-as-first value: with a the
 *     mean score of the iterations that ended with the cell the player's, and t that of those that ended
 *     with it the opponent's (a cell empty on the board), A = 0.5 + 0.5 (a - t) + 0.5 (a - 0.5), which
 *     rewards a cell that wins when taken and loses when left (a pivotal cell); the score is
 *     (1 - beta) * mean + beta * A + the UCB term, beta = sqrt(k / (3 visits + k)); a root child not yet
 *     visited is tried first, best A first. With `pivot` w > 0, A is instead the pivotal-cell prior
 *     0.5 + w * f, f the share of iterations whose full board had the cell (unknown to the player, free on
 *     the drawn board) on both of the winner's Gale paths (mc's score: in random-turn Hex, the chance that a
 *     cell is pivotal is what owning it is worth); a far steadier estimate than the AMAF means on large
 *     boards. With `resist` r > 0, A gains r * e, e the cell's resistance value: before the iterations,
 *     `resist_boards` boards are drawn from the belief and on each the share of both players' currents
 *     through the cell (resist.h; 0 when the drawn board holds a stone there) is summed; e is that sum over
 *     the largest of any root cell (so 0 <= e <= 1). Its time counts against the budget.
 *   - hex: the tree holds both players' moves on the empty cells, and the playout moves alternately at
 *     random, except that a player answers an intrusion into one of its bridges (two of its stones, or a
 *     stone and its edge, sharing two empty cells) by taking the other cell.
 * - `avoid` (dead cells, deadcell.h): cells the player never attempts in the tree, at any depth in the dark
 *   variants (a dead cell stays dead as stones are added) and at the root in hex; the immediate connection
 *   and the random fill ignore it. When it covers every unknown cell it is ignored.
 * - The move is the root child with the most visits (ties: the lower cell). A root child is a cell unknown in
 *   the view (in hex an empty cell; in the dark variants the view's unknown cells) and not avoided, so the
 *   move is always legal and never a cell the player knows; with no iteration run (a budget too
 *   small, every draw rejected) it is a uniformly random unknown cell not avoided. It never swaps.
 * - The tree lives in a fixed pool (ISM_MAX_NODES nodes, allocated once by ism_search_new()); when it is
 *   full the walk stops expanding and runs playouts from the leaves it reaches. Deterministic given rng's
 *   state when the budget is a number of iterations alone. */
#ifndef AGENTS_ISMCTS_SEARCH_H
#define AGENTS_ISMCTS_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "belief.h"

#define ISM_MAX_NODES (1 << 19)
#define ISM_MAX_SAMPLES 4096

typedef struct {
    long iterations;  /* at most this many iterations (0: no limit) */
    double seconds;   /* at most this long (0: no limit); at least one of the two is set */
    int samples;      /* 0: a fresh board each iteration; else this many boards, reused in turn */
    double uct;       /* the exploration constant c */
    double rave;      /* dark variants: the RAVE constant k of the root (0: none; see above) */
    double pivot;     /* dark variants with rave > 0: the pivotal-cell prior's weight w (0: the AMAF value) */
    const uint8_t *avoid; /* NULL, or nonzero for cells the player is not to attempt (see above) */
    double opp_centre;    /* dark variants: > 0 draws the simulated opponent's attempts that are not next to
                           * its stones by the centre model of belief.h with this beta; 0: uniformly */
    double resist;        /* dark variants with rave > 0: the weight r of the resistance prior (0: none) */
    int resist_boards;    /* the boards it is averaged over (0: 16) */
    double opp_grow;      /* dark variants: the share (0..1) of the simulated opponent's attempts grown from its
                           * stones (see above; 0: every attempt drawn anywhere) */
    double opp_goal;      /* dark variants: the share (0..1) of those grown toward its own edges (0: toward any
                           * of the twelve neighbours and bridge points) */
    double mix;           /* dark variants: > 0 draws the move among the root's children with probability
                           * proportional to visits^(1/mix) (a mixed strategy, as an equilibrium plays); 0: the
                           * most visited child */
} ism_options;

typedef struct {
    long iterations;
    long samples;     /* boards drawn */
    long failed;      /* ism_sample() calls that found no consistent board */
    int nodes;        /* tree nodes used */
    long tree_bytes;  /* the memory those nodes take */
    double seconds;
    int move;
    double value;     /* the move's mean score (wins for the player) */
} ism_stats;

typedef struct ism_search ism_search;

/* The search's memory (the node pool, the boards); NULL when it cannot be allocated. */
ism_search *ism_search_new(void);
void ism_search_free(ism_search *s);

/* The bytes ism_search_new() allocates (the node pool and the boards). */
size_t ism_search_size(void);

/* The move for the player of `b` (see above). `st` may be NULL. */
int ism_choose(ism_search *s, const ism_belief *b, const ism_options *o, rng_state *rng, ism_stats *st);

/* The lowest unknown cell that joins the player's edges with its own stones, or -1. */
int ism_connecting_cell(const ism_belief *b);

#endif
