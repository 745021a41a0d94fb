/* agents/solver/gametree.h — a game tree built once from an efg_game into flat arrays: nodes in depth-first
 * order with each node's children contiguous (so every descendant has a larger index than its ancestor),
 * and the information states of both players with their action lists, indexed densely by an
 * open-addressing table built once. The CFR family and the exact best response walk these arrays; no
 * strings, no allocation per node or per iteration. */
#ifndef AGENTS_SOLVER_TREE_H
#define AGENTS_SOLVER_TREE_H

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
    int max_depth;
} sv_tree;

/* Builds the whole tree of g. Returns 0, or -1 when out of memory or the tree exceeds max_nodes. */
int sv_tree_build(sv_tree *t, const efg_game *g, uint32_t max_nodes);
void sv_tree_free(sv_tree *t);

/* The information state with this player and key, or -1. */
int64_t sv_tree_find(const sv_tree *t, int player, uint64_t key);

#endif
