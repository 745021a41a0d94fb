/* arena/engine/game.h — the rules engine: one game of Hex or Dark Hex, its true board, each player's view, what
 * each player has been told, and perfect-recall information-state keys (rules.md is the reference).
 *
 * Contract
 * - hx_game is a plain struct: no pointers, no heap. `*dst = *src` copies a game; hx_copy() does the same
 *   but touches only the parts in use, which is much cheaper on small boards.
 * - Nothing allocates; every call is O(1) amortised except the ones documented as O(cells) or O(attempts).
 * - Players: HX_BLACK (0) moves first and joins the top row to the bottom row; HX_WHITE (1) joins the left
 *   column to the right column.
 * - An attempt is legal when the game is not over and the cell is unknown in the mover's view (hx_view()
 *   is HX_VIEW_UNKNOWN). On an empty cell the stone is placed and the turn passes (unless it wins). On a
 *   hidden opponent stone the mover learns the stone; in the classical family it moves again
 *   (HX_REJECTED), in the abrupt family it loses the turn (HX_COLLISION). The stone's owner is told nothing,
 *   "a collision" (-noisy) or "a collision at cell X" (-flash).
 * - In hex with the swap rule (square boards only), White's first move may be HX_SWAP: Black's stone at
 *   (r,c) becomes a White stone at (c,r) and Black moves next.
 */
#ifndef ARENA_ENGINE_GAME_H
#define ARENA_ENGINE_GAME_H

#include <stdbool.h>
#include <stdint.h>

#include "board.h"
#include "mix.h"
#include "rng.h"
#include "variant.h"

enum { HX_BLACK = 0, HX_WHITE = 1, HX_NOBODY = 2 };

/* The cell value of the swap move (never a real cell index). */
#define HX_SWAP 511

/* Flags for hx_new(). */
#define HX_SWAP_RULE 1u   /* hex only, square boards only: White may swap as its first move */
#define HX_PLAY_TO_FULL 2u /* ignore connections until the board is full (for counting complete games) */

/* Outcome of a legal attempt (hx_attempt() returns one of these, >= 0). */
typedef enum { HX_PLACED = 0, HX_REJECTED = 1, HX_COLLISION = 2, HX_SWAPPED = 3 } hx_outcome;

/* Errors (< 0). hx_attempt() leaves the game unchanged when it returns one. */
enum {
    HX_ERR_OVER = -1,       /* the game is over */
    HX_ERR_RANGE = -2,      /* not a cell of this board */
    HX_ERR_OWN = -3,        /* the mover's own stone is there */
    HX_ERR_KNOWN = -4,      /* the mover already knows the opponent stone there */
    HX_ERR_SWAP = -5,       /* swap is not allowed now */
    HX_ERR_SIZE = -6,       /* board side outside HX_MIN_SIDE..HX_MAX_SIDE */
    HX_ERR_VARIANT = -7,    /* unknown variant */
    HX_ERR_SWAP_RULE = -8,  /* swap rule asked for outside hex or on a non-square board */
};

/* What a player sees in a cell. */
enum { HX_VIEW_UNKNOWN = 0, HX_VIEW_OWN = 1, HX_VIEW_OPPONENT = 2 };

/* What a player is told, in order: its own attempts with their results, and about the opponent what the
 * variant reveals. The perfect-recall information state is exactly this list. */
typedef enum {
    HX_EV_PLACED = 0,     /* my attempt at cell placed a stone */
    HX_EV_REJECTED = 1,   /* my attempt at cell hit a hidden stone; I move again (classical family) */
    HX_EV_COLLIDED = 2,   /* my attempt at cell hit a hidden stone; my turn is over (abrupt family) */
    HX_EV_OPP_PLACED = 3, /* hex: the opponent placed a stone at cell */
    HX_EV_OPP_HIT = 4,    /* -noisy: the opponent hit one of my stones (cell is 0: not told) */
    HX_EV_OPP_HIT_AT = 5, /* -flash: the opponent hit my stone at cell */
    HX_EV_SWAP = 6,       /* hex with swap rule: White swapped; cell is White's new stone */
} hx_event_kind;

typedef struct {
    hx_event_kind kind;
    int cell;
} hx_event;

/* One attempt of the game's history, as the referee saw it. */
typedef struct {
    int player;
    int cell;               /* HX_SWAP for the swap move */
    hx_outcome outcome;
} hx_move;

/* Bounds on one game: attempts (2*R*C - 1 in the dark variants, R*C + 1 in hex with swap) and events told
 * to one player (its own attempts plus reports on its stones). */
#define HX_MAX_ATTEMPTS (2 * HX_MAX_CELLS)
#define HX_MAX_EVENTS (2 * HX_MAX_CELLS)
/* Board with a one-cell border on every side (border cells stand for the four edges). */
#define HX_PAD_CELLS ((HX_MAX_SIDE + 2) * (HX_MAX_SIDE + 2))

typedef struct hx_game {
    /* header: small fields, copied whole by hx_copy() */
    uint8_t rows, cols, stride, variant;
    uint8_t to_move, winner, flags, report;
    uint8_t keeps_turn, dark, pad0[2];
    uint16_t cells, npad;
    uint16_t n_attempts;
    uint16_t n_unknown[2];
    uint16_t n_stones[2];
    uint16_t n_learned[2];  /* opponent stones each player has learned (dark variants) */
    uint32_t row_magic;     /* cell / cols == (cell * row_magic) >> 16 for every cell index */
    int16_t neighbour[6];   /* offsets of the six neighbours on the padded board */
    /* arrays: hx_copy() copies only the part in use */
    uint8_t owner[HX_PAD_CELLS];          /* truth on the padded board: 0 empty, 1 Black, 2 White */
    uint16_t parent[HX_PAD_CELLS + 4];    /* union-find over padded cells and the four edges */
    uint16_t unknown[2][HX_MAX_CELLS];    /* per player: the cells it may attempt, in no particular order */
    uint16_t slot[2][HX_MAX_CELLS];       /* per player: index of a cell in unknown[], or 0xffff if known */
    uint16_t history[HX_MAX_ATTEMPTS];    /* cell | player << 9 | outcome << 10 */
} hx_game;

/* Starts a new game. Returns 0, or HX_ERR_SIZE / HX_ERR_VARIANT / HX_ERR_SWAP_RULE. */
int hx_new(hx_game *g, hx_variant variant, int rows, int cols, unsigned flags);

/* Copies src into dst (both valid games), touching only the live part of the arrays. */
void hx_copy(hx_game *dst, const hx_game *src);

/* Plays one attempt by the player to move. Returns an hx_outcome (>= 0) or an HX_ERR_* (< 0, game
 * unchanged). Whether it won: hx_winner(). */
int hx_attempt(hx_game *g, int cell);

/* The error hx_attempt() would return for this cell, or 0 when the attempt is legal. */
int hx_check(const hx_game *g, int cell);

/* Short text for an HX_ERR_* code, and the name of an outcome ("placed", "rejected", "collision", "swap"). */
const char *hx_strerror(int err);
const char *hx_outcome_name(int outcome);

static inline int hx_to_move(const hx_game *g) { return g->to_move; }
static inline int hx_winner(const hx_game *g) { return g->winner; }
static inline bool hx_over(const hx_game *g) { return g->winner != HX_NOBODY; }
static inline int hx_rows(const hx_game *g) { return g->rows; }
static inline int hx_cols(const hx_game *g) { return g->cols; }
static inline int hx_cells(const hx_game *g) { return g->cells; }
static inline hx_variant hx_variant_of(const hx_game *g) { return (hx_variant)g->variant; }
static inline int hx_num_attempts(const hx_game *g) { return g->n_attempts; }
/* Stones of `player` on the board, and how many of the opponent's stones `player` has not learned. */
static inline int hx_stones(const hx_game *g, int player) { return g->n_stones[player]; }
static inline int hx_hidden(const hx_game *g, int player)
{
    return g->dark ? g->n_stones[player ^ 1] - g->n_learned[player] : 0;
}

/* True truth of a cell, for the referee: 0 empty, 1 Black stone, 2 White stone. */
int hx_owner(const hx_game *g, int cell);

/* What `player` sees in `cell`: HX_VIEW_UNKNOWN, HX_VIEW_OWN or HX_VIEW_OPPONENT. In hex every stone is
 * visible, so "unknown" means empty. */
int hx_view(const hx_game *g, int player, int cell);

/* True when the player to move may answer HX_SWAP now. */
static inline bool hx_can_swap(const hx_game *g)
{
    return (g->flags & HX_SWAP_RULE) && g->n_attempts == 1 && g->winner == HX_NOBODY;
}

/* Legal attempts for the player to move, in ascending cell order, then HX_SWAP when allowed.
 * `out` holds at least HX_MAX_CELLS + 1 entries. Returns the count (0 once the game is over). O(cells). */
int hx_legal(const hx_game *g, uint16_t *out);

/* Number of legal attempts for the player to move. O(1). */
int hx_num_legal(const hx_game *g);

/* A uniformly random legal attempt for the player to move. O(1). The game must not be over. */
static inline int hx_random_legal(const hx_game *g, rng_state *rng)
{
    int p = g->to_move;
    uint32_t n = g->n_unknown[p];
    if (hx_can_swap(g)) {
        uint32_t k = rng_below(rng, n + 1);
        return k == n ? HX_SWAP : g->unknown[p][k];
    }
    return g->unknown[p][rng_below(rng, n)];
}

/* Plays uniformly random legal attempts (hx_random_legal()) until the game is over; returns how many.
 * The same seed gives the same game as calling hx_random_legal() and hx_attempt() in a loop. */
int hx_playout(hx_game *g, rng_state *rng);

/* The i-th attempt of the game (0-based, i < hx_num_attempts()). */
hx_move hx_move_at(const hx_game *g, int i);

/* Everything `player` has been told, in order. `out` holds HX_MAX_EVENTS entries. Returns the count.
 * O(attempts). */
int hx_events(const hx_game *g, int player, hx_event *out);

/* The perfect-recall information-state key of `player`: its events, each encoded as kind << 9 | cell.
 * Two histories give equal keys exactly when they are indistinguishable to that player. `out` holds
 * HX_MAX_EVENTS entries; returns the length. O(attempts). */
int hx_key(const hx_game *g, int player, uint16_t *out);

/* 64-bit hash of a key (for hash tables; equal keys have equal hashes). */
uint64_t hx_key_hash(const uint16_t *key, int len);

/* The key hash, event by event: start from HX_KEY_SEED, hx_key_step() each code (kind << 9 | cell),
 * then hx_key_finish(). Searches that need keys at every node extend the state as they descend. */
#define HX_KEY_SEED 0x6a09e667f3bcc909ULL
static inline uint64_t hx_key_step(uint64_t h, unsigned code)
{
    return (((h << 5) | (h >> 59)) ^ (code + 1)) * MIX_GOLDEN;
}

/* Final mixing step of the key hash (splitmix64's finaliser). */
static inline uint64_t hx_key_finish(uint64_t z)
{
    return mix64(z);
}

/* hx_key_hash() of `player`'s current key, and the key's length. O(attempts): the engine keeps no
 * per-attempt hash, which would cost a quarter of the playout speed; searches that need keys at every
 * node extend their own hash as they descend. */
uint64_t hx_key_fingerprint(const hx_game *g, int player);
int hx_key_length(const hx_game *g, int player);

/* h, `player`'s key hash before the game's last attempt (unfinished: HX_KEY_SEED stepped by each earlier
 * code), stepped by the code of the event that attempt told `player`, if it told it anything: a search that
 * makes the attempts itself keeps each player's hash in O(1) per attempt, and hx_key_finish() of it equals
 * hx_key_fingerprint(). */
uint64_t hx_key_extend(const hx_game *g, int player, uint64_t h);

/* hx_key_hash() of the key made of these events: what a bot that keeps its event log (bot_state.events)
 * computes, equal to hx_key_fingerprint() of the game it is playing. */
uint64_t hx_events_hash(const hx_event *ev, int n);

/* The view key ("view" abstraction, docs/policy-format.md): a 64-bit hash of the player's colour, its view
 * of every cell and the number of collision reports it has received (-noisy and -flash: with the view
 * this fixes how many hidden opponent stones it knows of). hx_view_key_of() computes the same hash from a
 * view array (HX_VIEW_* per cell) and a report count. */
uint64_t hx_view_key(const hx_game *g, int player);
uint64_t hx_view_key_of(const uint8_t *view, int cells, int player, int reports);

#endif
