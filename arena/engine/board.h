/* arena/engine/board.h — board geometry: sizes, cell indices and cell names (rules.md "Board").
 *
 * A board has R rows and C columns, each side in HX_MIN_SIDE..HX_MAX_SIDE. Cell index i = r*C + c.
 * A cell name is the column letter followed by the 1-based row number: "a1" is row 0 column 0,
 * "c2" is row 1 column 2. Names are read case-insensitively and written in lower case. */
#ifndef ARENA_ENGINE_BOARD_H
#define ARENA_ENGINE_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#define HX_MIN_SIDE 2
#define HX_MAX_SIDE 19
#define HX_MAX_CELLS (HX_MAX_SIDE * HX_MAX_SIDE)
/* Longest cell name: a letter, two digits, and the terminating NUL. */
#define HX_CELL_NAME_MAX 4

/* Parses "RxC" (also "RXC"), e.g. "3x4" = 3 rows, 4 columns. Returns false, with *why set to a short
 * reason, when the text is malformed or a side is outside HX_MIN_SIDE..HX_MAX_SIDE. */
bool hx_board_parse(const char *text, int *rows, int *cols, const char **why);

/* Parses a cell name on an R x C board. Returns the cell index, or -1 with *why set to a short reason
 * (malformed name, column or row outside the board). */
int hx_cell_parse(const char *text, int rows, int cols, const char **why);

/* Writes the lower-case name of cell index `cell` on a board with `cols` columns into out. */
void hx_cell_name(int cell, int cols, char out[HX_CELL_NAME_MAX]);

/* Whether the stones in `set` (bit i = cell i; boards of at most 64 cells) join the two sides of
 * `player` (0 Black: top and bottom rows; 1 White: left and right columns). O(stones). Searches that
 * tabulate wins over every stone set use this. */
bool hx_set_joins(int rows, int cols, int player, uint64_t set);

#endif
