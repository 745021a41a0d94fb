/* arena/solver/efg.h — a small extensive-form game interface for the solvers: players 0 and 1, chance,
 * legal actions, apply, terminal utility and a perfect-recall information-state key. Dark Hex implements it
 * (darkhex.h) and the tests implement Kuhn poker. The solvers only read a game through it once, to build
 * their flat tree (gametree.h); speed comes from the tree, not from these calls. */
#ifndef ARENA_SOLVER_EFG_H
#define ARENA_SOLVER_EFG_H

#include <stddef.h>
#include <stdint.h>

enum { EFG_CHANCE = 2, EFG_TERMINAL = 3 };
#define EFG_MAX_ACTIONS 512

typedef struct efg_game {
    size_t state_size;                                   /* bytes of one state */
    void (*root)(const struct efg_game *g, void *state);
    /* 0 or 1 (the player to act), EFG_CHANCE or EFG_TERMINAL */
    int (*player)(const struct efg_game *g, const void *state);
    /* Terminal: player 0's utility (zero-sum: player 1 gets its negation). */
    double (*utility)(const struct efg_game *g, const void *state);
    /* The legal actions in a canonical order that depends only on the acting player's information state
     * (so that every history of an information state lists the same actions); for chance nodes also their
     * probabilities. Returns the count (<= EFG_MAX_ACTIONS). */
    int (*actions)(const struct efg_game *g, const void *state, uint16_t *out, double *probs);
    /* dst = src followed by action (dst and src never overlap). */
    void (*apply)(const struct efg_game *g, void *dst, const void *src, int action);
    /* The acting player's perfect-recall information-state key, hashed to 64 bits. */
    uint64_t (*infoset)(const struct efg_game *g, const void *state);
    /* Optional (NULL if the game has none): the acting player's imperfect-recall "view" key, an
     * abstraction that merges information states (rules.md). */
    uint64_t (*view_key)(const struct efg_game *g, const void *state);
    const void *ctx;                                     /* the game's parameters */
} efg_game;

#endif
