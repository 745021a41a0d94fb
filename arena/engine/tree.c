/* arena/engine/tree.c — depth-first walk of a complete game tree with one game copy per depth. */
#include "tree.h"

#include <stdlib.h>
#include <string.h>

#include "keyset.h"

typedef struct {
    hx_game *stack; /* stack[d] is the game at depth d below the root */
    hx_keyset sets[2];
    hx_tree_counts *counts;
    uint16_t key[HX_MAX_EVENTS];
    int failed;
} walk;

static void visit(walk *w, int depth)
{
    hx_game *g = &w->stack[depth];
    w->counts->histories++;
    if (hx_over(g)) {
        w->counts->terminals++;
        if (hx_winner(g) == HX_BLACK)
            w->counts->black_wins++;
        if (hx_num_attempts(g) > w->counts->longest)
            w->counts->longest = hx_num_attempts(g);
        return;
    }
    int p = hx_to_move(g);
    int len = hx_key(g, p, w->key);
    if (hx_keyset_add(&w->sets[p], hx_key_hash(w->key, len), w->key, len) < 0) {
        w->failed = 1;
        return;
    }
    uint16_t moves[HX_MAX_CELLS + 1];
    int n = hx_legal(g, moves);
    hx_game *child = &w->stack[depth + 1];
    for (int i = 0; i < n && !w->failed; i++) {
        hx_copy(child, g);
        hx_attempt(child, moves[i]);
        visit(w, depth + 1);
    }
}

int hx_tree_count(const hx_game *root, hx_tree_counts *out)
{
    memset(out, 0, sizeof *out);
    walk w = { .counts = out };
    /* no game is longer than 2*cells attempts (hex: cells + 1), so that bounds the depth */
    int depth = 2 * hx_cells(root) - hx_num_attempts(root) + 2;
    w.stack = malloc((size_t)depth * sizeof *w.stack);
    if (!w.stack)
        return -1;
    hx_keyset_init(&w.sets[0]);
    hx_keyset_init(&w.sets[1]);
    hx_copy(&w.stack[0], root);
    visit(&w, 0);
    out->infosets[0] = hx_keyset_count(&w.sets[0]);
    out->infosets[1] = hx_keyset_count(&w.sets[1]);
    hx_keyset_free(&w.sets[0]);
    hx_keyset_free(&w.sets[1]);
    free(w.stack);
    return w.failed ? -1 : 0;
}
