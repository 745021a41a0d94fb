/* agents/ismcts/resist.h — the electrical-resistance evaluation of a full Hex position (docs/bots.md "ismcts").
 *
 * Contract
 * - ism_resist_flow(): `col` holds each cell's colour (0 Black, 1 White, ISM_RESIST_EMPTY). The player's
 *   network: a cell of the opponent's colour is cut out; the conductance between two neighbouring cells is
 *   1 / (r_a + r_b), r = 1 for an empty cell and 0.01 for the player's stone; a cell on the player's first
 *   edge (Black: row 0; White: column 0) is joined to the source at voltage 1 by 1 / r, a cell on its second
 *   edge to the sink at 0 likewise. flow[i] is the share of the current from source to sink that passes
 *   through empty cell i: half the current through its links (0 for stones, for cells whose group does not
 *   touch both edges, and everywhere when the player is cut off). The voltages come from successive
 *   over-relaxation until no voltage moves by 1e-6 in a sweep (at most 2,000 sweeps): flows within 1e-3 of
 *   the exact network's (tests/unit/test_ismcts_resist.c). Rows and cols 1..19; `flow` holds rows * cols.
 *   About 150 to 300 us a player on 11x11 positions of real games (bench_ismcts). */
#ifndef AGENTS_ISMCTS_RESIST_H
#define AGENTS_ISMCTS_RESIST_H

#include <stdbool.h>
#include <stdint.h>

#define ISM_RESIST_EMPTY 2
#define ISM_RESIST_MAX 361

void ism_resist_flow(int rows, int cols, const uint8_t *col, int player, double *flow);

#endif
