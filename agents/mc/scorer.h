/* agents/mc/scorer.h — the Monte Carlo bot's scorer: fills sampled positions at random, finds the winner and
 * its two Gale paths, scores the cells on both, and picks the move (docs/bots.md "mc").
 *
 * Contract
 * - One sample (mc_score_sample()): mc_sample() places the hidden opponent stones; the rest of the unknown
 *   cells are filled, either alternately (MC_FILL_ALTERNATE: the player to move, us, gets ceil(E/2) of the E
 *   empty cells and the opponent the rest, a uniformly random split, as if both played at random from now
 *   on) or by random turns (MC_FILL_RANDOM_TURN: each cell a fair coin, seed 003's random-turn Hex). Gale's
 *   walks from the two opposite corners give the winner and two paths of its cells; each cell on both paths
 *   that was empty in the sample (not our stone, not a learned or sampled opponent stone) scores one point,
 *   whoever won (the pivotal-cell estimate of seed 003).
 * - mc_choose() runs samples until the budget is spent (a number of samples, a time, or both: whichever
 *   comes first) and returns the legal cell (unknown in the view) with the most points, ties broken by rng
 *   (a uniformly random legal cell when no sample scored). It always returns a legal cell; it never swaps.
 * - Nothing allocates. */
#ifndef AGENTS_MC_SCORER_H
#define AGENTS_MC_SCORER_H

#include <stdint.h>

#include "sampler.h"

typedef enum { MC_FILL_ALTERNATE = 0, MC_FILL_RANDOM_TURN = 1 } mc_fill;

typedef struct {
    long samples;      /* at most this many samples (0: no limit) */
    double seconds;    /* at most this long (0: no limit); at least one of the two is set */
    mc_fill fill;
} mc_options;

typedef struct {
    long samples;      /* samples scored */
    long failed;       /* mc_sample() calls that found no consistent sample */
    double seconds;
    uint32_t score[HX_MAX_CELLS];
} mc_result;

/* Scores one sample into score[] (see above). `mark` (HX_MAX_CELLS entries, zero at first) and a stamp that
 * differs on every call (never 0) let it mark cells without clearing. Returns the winner, or -1 when the
 * sampler found no consistent sample. */
int mc_score_sample(mc_sampler *s, mc_fill fill, rng_state *rng, uint32_t *mark, uint32_t stamp, uint32_t *score);

/* The move: samples within the budget, then the best legal cell (see above). `r` may be NULL. */
int mc_choose(mc_sampler *s, const mc_options *o, rng_state *rng, mc_result *r);

#endif
