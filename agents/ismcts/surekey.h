/* agents/ismcts/surekey.h — the ismcts bot's exact play: its sure-win key (arena/solver/surewin.h), followed
 * through the game from what it was told, and the solver's winning attempt when one exists (docs/bots.md
 * "ismcts").
 *
 * Contract
 * - ism_sure_key() replays the player's events from the empty board's key (sw_root) with sw_after_attempt
 *   (its own attempts: placed, rejected or collided) and sw_after_opponent (each opponent turn: one before
 *   its first attempt as White, one after each of its turns; in abrupt-noisy/-flash a turn with a collision
 *   report is the "told" outcome, in the other variants reports change nothing the search uses). Opening
 *   stones are events like any other (the SDK). The key it returns has the player to move. It fails (-1)
 *   when an event cannot happen from the key (never for a real game's events), when the player has already
 *   joined, and for events of hex (no sure-win rules).
 * - ism_sure_win() asks sw_solve() for the key, when the variant has sure-win rules (sw_rules_of() >= 0),
 *   the board has at most SW_MAX_CELLS cells and at most `max_unknown` cells are unknown in the view. It
 *   stops at `deadline` (clk_now() seconds; 0: never) and keeps the memo under `max_bytes` (0: no limit).
 *   Returns the winning cell (unknown in the view), or -1: no sure win, not searched, or out of time or
 *   memory. With `avoid` (NULL: none; nonzero for cells to keep off, the dead cells), when the solver's cell
 *   is avoided, the first other unknown cell not avoided whose every outcome is a sure win is returned
 *   instead; when there is none (or time runs out looking), the solver's cell.
 * - The context keeps its memo (what the solver finished stays true) across moves and across games of the
 *   same board, colour and rules; it starts a new one for another game shape, and drops the memo when the
 *   memory cap is reached. */
#ifndef AGENTS_ISMCTS_SUREKEY_H
#define AGENTS_ISMCTS_SUREKEY_H

#include <stdint.h>

#include "game.h"
#include "surewin.h"

typedef struct ism_sure ism_sure;

/* How the last ism_sure_win() call ended. */
typedef enum {
    ISM_SURE_SKIPPED = 0, /* not searched: no rules for the variant, a board too large, too many unknown cells */
    ISM_SURE_WIN = 1,     /* a sure win: the cell returned keeps it */
    ISM_SURE_NONE = 2,    /* searched: no sure win */
    ISM_SURE_LATE = 3,    /* the deadline came first */
    ISM_SURE_FAILED = 4,  /* the key could not be followed, or the memo reached its cap */
} ism_sure_result;

ism_sure *ism_sure_new(void);
void ism_sure_free(ism_sure *x);

/* The key of the player `color` to move after `events` (see above): 0, or -1 with *key unchanged. */
int ism_sure_key(const sw *s, hx_variant variant, int color, const hx_event *events, int n_events, sw_key *key);

/* The winning attempt of the player to move, or -1 (see above); *how says why (may be NULL). */
int ism_sure_win(ism_sure *x, hx_variant variant, int rows, int cols, int color, const uint8_t *view,
                 const hx_event *events, int n_events, int max_unknown, double deadline, uint64_t max_bytes,
                 const uint8_t *avoid, ism_sure_result *how);

/* Whether attempting `cell` from k (P to move) keeps the sure win: every outcome that can happen is one.
 * 1 yes, 0 no, -2 the deadline, -1 out of memory. */
int ism_sure_keeps(sw *s, const sw_key *k, int cell);

/* The search context of the last call (NULL before one, or for a variant or board it does not search). */
sw *ism_sure_solver(const ism_sure *x);

#endif
