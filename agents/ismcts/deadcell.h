/* agents/ismcts/deadcell.h — dead cells of the ismcts bot's view: unknown cells whose colour cannot decide the
 * game, whatever the rest of the board holds (docs/bots.md "ismcts").
 *
 * Contract
 * - The stones a player knows (its own and the opponent stones it learned) are on the true board, and the
 *   true board has only more stones on the unknown cells; every way the game can end fills those. So a cell
 *   dead for the known stones alone (over every colouring of the other unknown cells, the winner is the same
 *   whichever colour the cell gets) is dead on the true board too, whatever the hidden stones are.
 * - ism_dead_cells() marks dead[c] = 1 for the unknown cells it proves dead, 0 for the rest, and returns how
 *   many. Two tests, both sound (a cell marked is dead):
 *   - exact, when at most `exact_max` cells are unknown (at most ISM_DEAD_EXACT_LIMIT): every colouring of
 *     the other unknown cells is tried, with the cell the player's and the opponent's;
 *   - otherwise (more unknown cells, or exact_max 0) the local pattern: four consecutive neighbours of the
 *     cell (in the cyclic order of its six) are stones of one colour or that colour's edge (a corner position
 *     off the board counts for nobody). Then that colour's stones around it are already one group, and the
 *     two other neighbours touch the group's ends and each other, so the cell joins nothing for either
 *     player.
 * - Nothing allocates. */
#ifndef AGENTS_ISMCTS_DEADCELL_H
#define AGENTS_ISMCTS_DEADCELL_H

#include <stdint.h>

#include "belief.h"

/* The exact test's most unknown cells (2^(n-1) colourings per cell). */
#define ISM_DEAD_EXACT_LIMIT 16

/* Marks the unknown cells of the belief's view proved dead (see above); returns their number. */
int ism_dead_cells(const ism_belief *b, int exact_max, uint8_t *dead);

/* For the local patterns (here and the search's bridges): who owns the position (r, c) of a rows x cols board
 * when it is off the board: the player whose edge it is (rows above and below: Black; columns left and right:
 * White), -1 at a corner; ISM_ON_BOARD for a position on the board. */
#define ISM_ON_BOARD (-2)
int ism_edge_owner(int rows, int cols, int r, int c);

/* The local pattern alone for cell c of the view: four consecutive neighbours of one colour (see above). */
int ism_dead_pattern(const ism_belief *b, int c);

#endif
