/* agents/mc/sampler.h — the Monte Carlo bot's sampler: from one player's view and event log, draws where the
 * opponent's hidden stones may be (docs/bots.md "mc").
 *
 * Contract
 * - mc_sampler_init() reads what the player knows: its view (HX_VIEW_* per cell), its events (hx_events(),
 *   bot_state.events) and the variant. It counts the opponent's hidden stones: exact in classical (one stone
 *   per completed opponent turn), in -noisy and -flash (turns lost on a reported collision are known), 0 in
 *   hex; in plain abrupt only bounded (an opponent turn may have ended on an unreported collision with one
 *   of our stones): hidden_hi assumes no such collision, hidden_lo that every stone we had was hit.
 * - mc_sample() draws one sample: a number of hidden stones h (the exact count, or in plain abrupt a draw from
 *   the prior below, clamped into [hidden_lo, hidden_hi]) and h distinct cells among the cells unknown in
 *   the view, uniformly; never on the player's stones or on opponent stones it has learned. A draw in which
 *   the opponent's stones (learned and sampled) already join its two edges is rejected and drawn again
 *   (the game would be over).
 * - Plain abrupt prior: each past opponent turn is taken as a uniformly random attempt among the cells the
 *   opponent did not know; it collided with probability (our stones it had not found) / (its unknown
 *   cells) at that turn, replayed turn by turn with our stone count of the time.
 * - The sampler keeps a gale_board of the position: the player's stones and the learned opponent stones in
 *   their colours, every unknown cell in the player's colour. mc_sample() leaves the sampled stones on it in
 *   the opponent's colour (unknown[0..h)); mc_sampler_reset() puts unknown cells back. Nothing allocates. */
#ifndef AGENTS_MC_SAMPLER_H
#define AGENTS_MC_SAMPLER_H

#include <stdint.h>

#include "gale.h"
#include "game.h"

/* Draws before mc_sample() gives up on a position where nearly every draw has the opponent connected. */
#define MC_SAMPLE_TRIES 200

typedef struct {
    int rows, cols, cells, color;
    hx_variant variant;
    uint8_t view[HX_MAX_CELLS];
    int own, known;               /* the player's stones; opponent stones it has learned */
    int hidden_lo, hidden_hi;     /* bounds on the opponent's hidden stones (equal when the count is known) */
    int opp_turns;                /* opponent turns completed */
    uint16_t own_at_turn[HX_MAX_ATTEMPTS]; /* our stones on the board at each opponent turn (the abrupt prior) */
    int n_unknown;
    uint16_t unknown[HX_MAX_CELLS]; /* the cells unknown in the view, in the order the last sample left them */
    gale_board board;
} mc_sampler;

/* Sets up the sampler from what `color` knows. */
void mc_sampler_init(mc_sampler *s, hx_variant variant, int rows, int cols, int color, const uint8_t *view,
                     const hx_event *events, int n_events);

/* The same from an engine game, with exactly what `color` may know (its view and events): for tests and
 * benchmarks. */
void mc_sampler_of_game(mc_sampler *s, const hx_game *g, int color);

/* Draws one sample (see above). Returns h >= 0, the hidden stones now at unknown[0..h) and on the board, or
 * -1 when MC_SAMPLE_TRIES draws all had the opponent connected (the board is then clean). */
int mc_sample(mc_sampler *s, rng_state *rng);

/* Puts unknown[0..n) back in the player's colour on the board. */
void mc_sampler_reset(mc_sampler *s, int n);

#endif
