/* arena/solver/gametree.h — a game tree built once from an efg_game into flat arrays: nodes in depth-first
 * order with each node's children contiguous (so every descendant has a larger index than its ancestor),
 * and the information states of both players with their action lists, indexed densely by an
 * open-addressing table built once. The CFR family and the exact best response walk these arrays; no
 * strings, no allocation per node or per iteration. */
#ifndef ARENA_SOLVER_GAMETREE_H
#define ARENA_SOLVER_GAMETREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "efg.h"

typedef struct {
    uint32_t first;   /* index of the first child; children are first .. first + n - 1 */
    uint16_t n;       /* children (0 at a terminal) */
    int8_t player;    /* 0, 1, EFG_CHANCE or EFG_TERMINAL */
    uint8_t depth;    /* decisions of the acting player above this node (its information-state depth) */
    uint32_t infoset; /* player nodes: dense information-state index */
    float value;      /* terminals: player 0's utility */
} sv_node;

typedef struct {
    uint64_t key;     /* the game's 64-bit key */
    uint64_t view;    /* the view key of its histories when the game has one (else 0) */
    uint32_t offset;  /* into the per-action arrays (actions, regrets, strategies) */
    uint16_t n;       /* actions */
    uint8_t player;
    uint8_t depth;
} sv_infoset;

typedef struct {
    sv_node *nodes;
    uint32_t n_nodes;
    double *chance_prob;      /* [n_nodes]: probability of the edge into a chance node's child (else 1) */
    sv_infoset *infosets;
    uint32_t n_infosets, n_actions, infosets_of[2];
    uint16_t *actions;        /* [n_actions]: each information state's actions, from its offset */
    uint32_t *slots;          /* open addressing: key -> infoset index + 1 (0 empty) */
    uint32_t cap;             /* table capacity, a power of two */
    uint32_t action_cap;      /* capacity of actions[] */
    int max_depth;
    bool view_keys;           /* information states are keyed by the game's view key (an abstraction) */
} sv_tree;

/* Builds the whole tree of g. With view_keys, histories are grouped by g->view_key instead of the
 * perfect-recall key (imperfect recall: CFR's guarantees no longer hold). Returns 0, or -1 when out of
 * memory, the tree exceeds max_nodes, or one key lists different actions at different histories. */
int sv_tree_build(sv_tree *t, const efg_game *g, uint32_t max_nodes, bool view_keys);
void sv_tree_free(sv_tree *t);

/* The information state with this player and key, or -1. */
int64_t sv_tree_find(const sv_tree *t, int player, uint64_t key);

/* The information-state table alone (no nodes), for algorithms that sample instead of walking a built
 * tree: finds (player, key) or adds it with these actions. Start from a zeroed sv_tree. Returns the
 * index, or -1 when out of memory or the key is known with another number of actions. */
int64_t sv_tree_intern(sv_tree *t, int player, uint64_t key, int depth, const uint16_t *actions, int n);

#endif
