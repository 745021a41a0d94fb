/* arena/coordinator/timecontrol.h — game clocks: a time control `MOVES/SECONDS+INCREMENT` (cutechess-cli's tc=
 * notation; docs/leagues.md "Time controls") and one player's clock under it during a game.
 *
 * Contract
 * - Text forms: "SECONDS" (sudden death), "SECONDS+INC" (sudden death with an increment), "MOVES/SECONDS" (a period
 *   of MOVES moves that repeats), "MOVES/SECONDS+INC". SECONDS and INC are decimal seconds with at most three
 *   decimals (ms), SECONDS > 0, INC >= 0, each at most TC_MAX_SECONDS; MOVES from 1 to TC_MAX_MOVES.
 * - tc_format() writes the canonical text (shortest decimals, no "+0"), which tc_parse() reads back.
 * - A clock runs only while its player is to move: tc_clock_charge() takes the time one attempt took (measured by
 *   the coordinator from the turn sent to the move received). A completed move (the turn passes to the opponent;
 *   a rejected attempt is not one) adds the increment, and after each MOVES-th completed move SECONDS again.
 *   Time left never goes below 0 (an attempt that took longer is the caller's to forfeit; see runner.h). */
#ifndef ARENA_COORDINATOR_TIMECONTROL_H
#define ARENA_COORDINATOR_TIMECONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TC_MAX_SECONDS 86400 /* SECONDS and INC */
#define TC_MAX_MOVES 1000
#define TC_TEXT_MAX 40       /* tc_format()'s text with its NUL */

typedef struct {
    int moves;               /* moves per period; 0: sudden death (one period for the whole game) */
    uint32_t base_ms;        /* time per period; > 0 for a time control that is set */
    uint32_t inc_ms;         /* added after each completed move */
} tc_control;

/* Parses `text` into *tc. Returns true, or false with what is wrong in why (one line, e.g. "'40/': expected
 * SECONDS after '/'"; the caller adds the file, line and key). */
bool tc_parse(const char *text, tc_control *tc, char *why, size_t whylen);

/* The canonical text ("40/60+0.5", "300", "60+1") into out (TC_TEXT_MAX bytes suffice). Returns out. */
char *tc_format(const tc_control *tc, char *out, size_t n);

typedef struct {
    tc_control tc;
    int64_t left_ms;         /* time left, >= 0 */
    int moves;               /* completed moves */
} tc_clock;

/* A clock at the start of a game: SECONDS left, no move made. */
void tc_clock_start(tc_clock *c, const tc_control *tc);

/* Charges an attempt that took `ms` (>= 0); time left stops at 0. Returns true when the attempt came within the
 * time left (ms <= left before it), false when it overran the clock. */
bool tc_clock_charge(tc_clock *c, double ms);

/* The player's move is complete: the increment, and with a period whose last move this was, SECONDS again. */
void tc_clock_complete(tc_clock *c);

/* Moves until the next period's time is added (1..MOVES), 0 for sudden death. */
int tc_clock_moves_to_go(const tc_clock *c);

#endif
