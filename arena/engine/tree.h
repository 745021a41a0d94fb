/* arena/engine/tree.h — exhaustive game-tree walk: counts histories, terminals, Black wins and each player's
 * distinct decision information states (perfect recall). */
#ifndef ARENA_ENGINE_TREE_H
#define ARENA_ENGINE_TREE_H

#include <stdint.h>

#include "game.h"

typedef struct {
    uint64_t histories;   /* every node: root, inner nodes and terminals */
    uint64_t terminals;   /* finished games */
    uint64_t black_wins;  /* terminals won by Black */
    uint64_t infosets[2]; /* distinct keys of the player to move, over non-terminal nodes */
    int longest;          /* most attempts in one terminal history */
} hx_tree_counts;

/* Walks every history that extends `root` (the root itself counts). Returns 0, or -1 when memory runs
 * out. Cost is proportional to the number of histories. */
int hx_tree_count(const hx_game *root, hx_tree_counts *out);

#endif
