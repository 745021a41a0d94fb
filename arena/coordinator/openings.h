/* arena/coordinator/openings.h — opening suites of a league: the positions its game pairs start from. An opening is
 * k stones placed alternately by Black and White, Black first, on distinct cells, with no winner yet; the referee
 * plays them as the game's first k attempts (docs/protocol.md#openings). A suite is built in (balanced random
 * openings, seeded) or read from a file (docs/leagues.md#openings). */
#ifndef ARENA_COORDINATOR_OPENINGS_H
#define ARENA_COORDINATOR_OPENINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "variant.h"

#define OP_MAX_STONES 32

typedef struct {
    uint16_t cells[OP_MAX_STONES]; /* in play order: Black, White, Black, ... */
    int n;
} op_opening;

/* Parses cells such as "a1 b2" or "a1,b2" on a rows x cols board and checks the opening (distinct cells, on the
 * board, nobody connected after it). Returns 0, or -1 with the reason in why. */
int op_parse(const char *text, int rows, int cols, op_opening *o, char *why, size_t whylen);

/* Checks an opening as op_parse does. */
bool op_valid(const op_opening *o, int rows, int cols, char *why, size_t whylen);

/* "a1 b2" ("" for none). */
void op_format(const op_opening *o, int cols, char *out, size_t outlen);

/* The share of Black's wins when the rest of the board is filled at random (ceil(cells/2) Black stones in all),
 * over `fills` fills from seed: how far the opening leans to one side. */
double op_black_share(const op_opening *o, int rows, int cols, int fills, uint64_t seed);

/* Balanced random openings of `stones` stones for variant v on rows x cols, distinct as positions (the set of
 * each colour's cells), up to `want` of them, from `seed`: each is drawn uniformly and kept when Black's share
 * of 64 random fills is within [0.25, 0.75]; when too few balanced ones turn up after many draws, the least
 * unbalanced of the others complete the suite. Returns how many were made (fewer than want when the board has
 * fewer positions). Same arguments, same suite. */
int op_random_suite(uint64_t seed, hx_variant v, int rows, int cols, int stones, int want, op_opening *out);

/* A suite file: one opening per line, "[VARIANT] RxC CELL CELL ..." (no variant: every variant), '#' or ';'
 * starts a comment. */
typedef struct op_book op_book;

/* Reads and checks a suite file. NULL with "FILE:LINE: reason" in err. */
op_book *op_book_load(const char *path, char *err, size_t errlen);
void op_book_free(op_book *b);

/* The book's openings for variant v on rows x cols, in file order, up to max; returns how many there are. */
int op_book_suite(const op_book *b, hx_variant v, int rows, int cols, op_opening *out, int max);

#endif
