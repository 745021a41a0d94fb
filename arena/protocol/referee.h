/* arena/protocol/referee.h — what the coordinator tells each player during one game: the game_start, turn,
 * result and game_end messages, derived from the engine's per-player event logs so that a player is told
 * exactly its information state and nothing else (rules.md), until game_end reveals the board.
 *
 * Each player is told it in the protocol version it speaks (docs/protocol.md "Changes"):
 *   2  an attempt's outcome is not sent on its own: it is an event ("placed", "rejected", "collided", "swap") of
 *      the mover's next turn, or of its game_end; an opening comes in game_start (own, seen, hidden).
 *   1  an attempt's outcome is a `result` to the mover at once, turns carry only events about the opponent; an
 *      opening is replayed (game_start without own/seen/hidden): a `result` "placed" for each of the player's own
 *      opening stones, in play order, right after game_start, and the opponent's stones it is told (hex) as
 *      opp_placed events at the head of its first turn (ref_replay). */
#ifndef ARENA_PROTOCOL_REFEREE_H
#define ARENA_PROTOCOL_REFEREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "protocol.h"

typedef struct {
    hx_game game;
    uint64_t id;
    int sent[2]; /* how much of each player's event log it has been sent */
    int opening; /* stones of the opening: the game's first `opening` attempts */
    int version[2]; /* the protocol version each player speaks (PM_VERSION_MIN..PM_VERSION; ref_init: PM_VERSION) */
} hx_referee;

/* Starts game `id`. Returns 0 or an HX_ERR_* from hx_new(). */
int ref_init(hx_referee *r, uint64_t id, hx_variant v, int rows, int cols, unsigned flags);

/* Sets the protocol version `player` speaks (1 or 2), before ref_opening and the first message. */
void ref_speaks(hx_referee *r, int player, int version);

/* Plays an opening (docs/protocol.md "Openings") on a game just started: `cells` placed alternately by Black and
 * White, Black first, as the game's first n attempts, each `placed`. Each player is told it in its game_start
 * (own, seen, hidden), never in a turn. With the swap rule, White's first own move may swap only when n == 1.
 * Returns 0, or -1 with a one-line reason in why (a stone off the board or on a cell taken before, a winner
 * after the opening, a game already under way); the game must then be started again with ref_init(). */
int ref_opening(hx_referee *r, const uint16_t *cells, int n, char *why, size_t whylen);

/* The game_start message for `player`, with its part of the opening (protocol 2): its own stones, the opponent's it
 * is told (hex) and how many it is not (dark variants). A protocol-1 player's has no opening keys. */
void ref_game_start(const hx_referee *r, int player, uint32_t move_ms, uint64_t seed, pm_msg *out);

/* The replay of the opening for a protocol-1 `player`, to send right after its game_start: a `result` "placed" for
 * each of its own opening stones, in play order; this fills the k-th (from 0) into out and returns true, or returns
 * false when there is no k-th (always for a protocol-2 player, or without an opening). The opponent's stones it is
 * told come in its first turn. */
bool ref_replay(const hx_referee *r, int player, int k, pm_msg *out);

/* The turn message for the player to move: what it was told since it was last sent anything (protocol 2: its own
 * outcomes included). */
void ref_turn(hx_referee *r, pm_msg *out);

/* Plays `cell` (or HX_SWAP) for the player to move. For a protocol-1 mover, fills its result message (out->type
 * PM_RESULT); a protocol-2 mover's outcome waits for its next turn or its game_end (out->type PM_TYPE_COUNT:
 * nothing to send). Returns the outcome (>= 0), or an HX_ERR_* (< 0, game unchanged, `out` untouched) for an
 * illegal attempt. */
int ref_move(hx_referee *r, int cell, pm_msg *out);

/* The game_end message: winner, reason, detail, and the full true board (the same for both players; ref_tail makes
 * it a player's). */
void ref_end(const hx_referee *r, int winner, hx_end_reason reason, const char *detail, pm_msg *out);

/* Makes the game_end in *end `player`'s: for protocol 2, with the events it was not yet told (end->protocol 2);
 * for protocol 1 as it is (end->protocol 1, no events). */
void ref_tail(hx_referee *r, int player, pm_msg *end);

#endif
