/* arena/engine/infocount.h — counting each player's decision information states in plain `classical` without
 * walking histories: each player's own information-state tree is walked, and an attempt's result is kept
 * when some opponent stone set is consistent with everything the player was told (rules.md). 3x3 (1.9e10
 * histories) takes well under a second. */
#ifndef ARENA_ENGINE_INFOCOUNT_H
#define ARENA_ENGINE_INFOCOUNT_H

#include <stdint.h>

#include "variant.h"

/* Largest board (in cells) hx_count_infosets() takes: its memo has 2^(2*cells+6) bytes. */
#define HX_INFOCOUNT_MAX_CELLS 10

/* Counts the decision information states of Black (out[0]) and White (out[1]) of `classical` on a board
 * of rows x cols. Returns 0; -1 for another variant, a board over HX_INFOCOUNT_MAX_CELLS cells, or no
 * memory. */
int hx_count_infosets(hx_variant v, int rows, int cols, uint64_t out[2]);

#endif
