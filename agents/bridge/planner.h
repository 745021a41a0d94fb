/* agents/bridge/planner.h — the bridge builder's strategy, independent of the protocol: two-bridges and edge
 * templates, the shortest bridge path from edge to edge, answers to intrusions, and the choice of the next
 * attempt from one player's view (docs/bots.md).
 *
 * Geometry (rules.md): neighbours of (r,c) are (r-1,c) (r-1,c+1) (r,c-1) (r,c+1) (r+1,c-1) (r+1,c). A
 * two-bridge joins a cell to one of its six bridge partners, (r-2,c+1) (r-1,c+2) (r+1,c+1) (r+2,c-1)
 * (r+1,c-2) (r-1,c-1), through the two cells both are adjacent to (its carriers). An edge template joins a
 * cell on the second row from an edge to that edge through its two neighbours on the edge row.
 *
 * The planner works for any rectangular board and either colour: White's problem is Black's on the
 * transposed board (the neighbour relation is symmetric under (r,c) -> (c,r)), so every function takes the
 * real board and colour and transposes internally. Nothing allocates. */
#ifndef AGENTS_BRIDGE_PLANNER_H
#define AGENTS_BRIDGE_PLANNER_H

#include <stdbool.h>
#include <stdint.h>

#include "game.h"

/* One two-bridge from a cell: the partner and the two carriers (cell indices of the real board). */
typedef struct {
    int partner, carrier[2];
} bb_bridge;

/* The bridges of `cell` whose partner and carriers are on an R x C board. Returns the count (0..6). */
int bb_bridges(int rows, int cols, int cell, bb_bridge out[6]);

/* What the player knows: its view (HX_VIEW_* per cell of the real board) and a few counts. */
typedef struct {
    int rows, cols, color;       /* HX_BLACK joins top and bottom, HX_WHITE left and right */
    const uint8_t *view;         /* HX_VIEW_UNKNOWN / HX_VIEW_OWN / HX_VIEW_OPPONENT */
    int hidden;                  /* opponent stones the player has not seen (an estimate in the abrupt family) */
    int own_stones;
    bool dark;                   /* a Dark Hex variant: unseen intrusions are possible */
    bool can_swap;               /* hex with the swap rule: White may swap now */
    const uint16_t *jitter;      /* per real cell, 0..BB_JITTER_MAX: the game's seeded tie-breaks; may be NULL */
} bb_position;

#define BB_JITTER_MAX 63

typedef struct {
    double hidden_weight;        /* a bridge or template costs hidden_weight * hidden / unknown cells stones
                                  * per unknown carrier (the chance an unseen stone already breaks it) */
    int fill_every;              /* dark variants: every k-th attempt fills a bridge of the path (0: never) */
} bb_options;

/* The default options (docs/bots.md says why these). */
bb_options bb_defaults(void);

/* How two consecutive nodes of a path are joined. */
typedef enum { BB_ADJACENT, BB_BRIDGE, BB_TEMPLATE } bb_link_kind;

typedef struct {
    bb_link_kind kind;
    int carrier[2];              /* bridges and templates: the carriers (real cells) */
} bb_link;

/* A shortest path from the player's first edge to its second: cells[0..n) (real cells, own or to place) and
 * links[0..n] (links[0] joins the first edge to cells[0], links[n] joins cells[n-1] to the second edge). */
typedef struct {
    bool found;
    int n, new_stones;
    int cells[HX_MAX_CELLS];
    bb_link links[HX_MAX_CELLS + 1];
} bb_path;

/* The cheapest path in stones still to place: own stones are free, unknown cells cost one stone (plus
 * jitter), known opponent stones are walls, and a bridge or template link is allowed only when neither
 * carrier is a known opponent stone (and costs the hidden-stone risk of its unknown carriers). Returns
 * path->found. */
bool bb_shortest_path(const bb_position *p, const bb_options *o, bb_path *path);

/* An intruded bridge or template to repair: one carrier a known opponent stone, the other unknown, joining
 * two own groups (or an own group and its edge) that are not yet connected. Prefers one whose free carrier
 * lies on `path` (when given). Returns the free carrier, or -1 when there is none. */
int bb_intrusion(const bb_position *p, const bb_path *path);

/* Opponent stones a player has not seen, from its events (hx_events()): the opponent's completed turns,
 * less the turns it is known to have lost on a collision (-noisy, -flash), less the stones already learned.
 * Exact in the classical family; an upper bound in the abrupt family, where an unreported collision also
 * ends a turn. 0 in hex. */
int bb_hidden_estimate(hx_variant v, int color, const hx_event *events, int n_events, int known_opponent_stones);

/* Why bb_choose() picked its cell (for logs and tests). */
typedef enum { BB_WHY_SWAP, BB_WHY_INTRUSION, BB_WHY_BUILD, BB_WHY_FILL, BB_WHY_EAGER_FILL, BB_WHY_FALLBACK } bb_why;

/* The attempt to make now: a cell unknown in the view (or HX_SWAP). `rng` breaks the remaining ties. */
int bb_choose(const bb_position *p, const bb_options *o, rng_state *rng, bb_why *why);

/* bb_choose() for `color`, to move in an engine game, from exactly what that player may know (its view,
 * events and counts: what bin/bridge sees through the protocol). For in-process opponents (the RL
 * trainer, tests, benchmarks). `jitter` as in bb_position (may be NULL). */
int bb_move(const hx_game *g, int color, const bb_options *o, const uint16_t *jitter, rng_state *rng);

#endif
