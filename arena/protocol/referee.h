/* arena/protocol/referee.h — what the coordinator tells each player during one game: the game_start, turn,
 * result and game_end messages, derived from the engine's per-player event logs so that a player is told
 * exactly its information state and nothing else (rules.md), until game_end reveals the board. */
#ifndef ARENA_PROTOCOL_REFEREE_H
#define ARENA_PROTOCOL_REFEREE_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "protocol.h"

typedef struct {
    hx_game game;
    uint64_t id;
    int sent[2]; /* how much of each player's event log it has been sent */
    int opening; /* stones of the opening: the game's first `opening` attempts */
} hx_referee;

/* Starts game `id`. Returns 0 or an HX_ERR_* from hx_new(). */
int ref_init(hx_referee *r, uint64_t id, hx_variant v, int rows, int cols, unsigned flags);

/* Plays an opening (docs/protocol.md "Openings") on a game just started: `cells` placed alternately by Black and
 * White, Black first, as the game's first n attempts, each `placed`. Each player is told it in its game_start
 * (own, seen, hidden), never in a turn. With the swap rule, White's first own move may swap only when n == 1.
 * Returns 0, or -1 with a one-line reason in why (a stone off the board or on a cell taken before, a winner
 * after the opening, a game already under way); the game must then be started again with ref_init(). */
int ref_opening(hx_referee *r, const uint16_t *cells, int n, char *why, size_t whylen);

/* The game_start message for `player`, with its part of the opening: its own stones, the opponent's it is told
 * (hex) and how many it is not (dark variants). */
void ref_game_start(const hx_referee *r, int player, uint32_t move_ms, uint64_t seed, pm_msg *out);

/* The turn message for the player to move: what it was told since it was last sent anything. */
void ref_turn(hx_referee *r, pm_msg *out);

/* Plays `cell` (or HX_SWAP) for the player to move and fills its result message. Returns the outcome
 * (>= 0), or an HX_ERR_* (< 0, game unchanged, `out` untouched) for an illegal attempt. */
int ref_move(hx_referee *r, int cell, pm_msg *out);

/* The game_end message: winner, reason, detail, and the full true board. */
void ref_end(const hx_referee *r, int winner, hx_end_reason reason, const char *detail, pm_msg *out);

#endif
