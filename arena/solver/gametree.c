/* arena/solver/gametree.c — building the flat game tree and the information-state table (see gametree.h). */
#include "gametree.h"
#include "grow.h"
#include "mix.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 1024

typedef struct {
    sv_tree *t;
    const efg_game *g;
    uint32_t max_nodes, node_cap;
    unsigned char *states; /* MAX_DEPTH states */
    bool failed;
} builder;

int64_t sv_tree_find(const sv_tree *t, int player, uint64_t key)
{
    if (!t->cap) /* a zeroed table (sv_tree_intern's start) */
        return -1;
    uint32_t mask = t->cap - 1, i = (uint32_t)mix64(key ^ (uint64_t)player * MIX_GOLDEN) & mask;
    for (; t->slots[i]; i = (i + 1) & mask) {
        const sv_infoset *s = &t->infosets[t->slots[i] - 1];
        if (s->key == key && s->player == player)
            return t->slots[i] - 1;
    }
    return -1;
}

static bool grow_table(sv_tree *t)
{
    uint32_t cap = t->cap ? 2 * t->cap : 1024;
    uint32_t *slots = calloc(cap, sizeof *slots);
    sv_infoset *is = realloc(t->infosets, sizeof *is * cap / 2);
    if (!slots || !is) {
        free(slots);
        if (is)
            t->infosets = is;
        return false;
    }
    t->infosets = is;
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
    for (uint32_t k = 0; k < t->n_infosets; k++) {
        uint32_t i = (uint32_t)mix64(is[k].key ^ (uint64_t)is[k].player * MIX_GOLDEN) & (cap - 1);
        while (slots[i])
            i = (i + 1) & (cap - 1);
        slots[i] = k + 1;
    }
    return true;
}

int64_t sv_tree_intern(sv_tree *t, int player, uint64_t key, int depth, const uint16_t *actions, int n)
{
    if (!t->cap && !grow_table(t))
        return -1;
    int64_t found = sv_tree_find(t, player, key);
    if (found >= 0)
        return t->infosets[found].n == n ? found : -1; /* a key listing other actions: not perfect recall */
    if ((t->n_infosets + 1) * 2 > t->cap && !grow_table(t))
        return -1;
    if (t->n_actions + (uint64_t)n > t->action_cap) {
        uint32_t cap = grow_capacity(t->action_cap, (uint64_t)t->n_actions + (uint64_t)n, 4096);
        if (!grow_resize(&t->actions, sizeof *t->actions, cap))
            return -1;
        t->action_cap = cap;
    }
    uint32_t k = t->n_infosets++;
    t->infosets[k] = (sv_infoset){ .key = key, .offset = t->n_actions, .n = (uint16_t)n, .player = (uint8_t)player,
                                   .depth = (uint8_t)(depth > 255 ? 255 : depth) };
    memcpy(t->actions + t->n_actions, actions, sizeof *actions * (size_t)n);
    t->n_actions += (uint32_t)n;
    t->infosets_of[player]++;
    uint32_t mask = t->cap - 1, i = (uint32_t)mix64(key ^ (uint64_t)player * MIX_GOLDEN) & mask;
    while (t->slots[i])
        i = (i + 1) & mask;
    t->slots[i] = k + 1;
    return k;
}

static bool reserve(builder *b, uint32_t n)
{
    sv_tree *t = b->t;
    if (t->n_nodes + n > b->max_nodes)
        return false;
    if (t->n_nodes + n > b->node_cap) {
        uint32_t cap = grow_capacity(b->node_cap, (uint64_t)t->n_nodes + n, 65536);
        if (!grow_resize(&t->nodes, sizeof *t->nodes, cap) || !grow_resize(&t->chance_prob, sizeof *t->chance_prob, cap))
            return false;
        b->node_cap = cap;
    }
    return true;
}

/* Fills node `at` from the state at `level` and expands it. */
static void expand(builder *b, uint32_t at, int level, int d0, int d1)
{
    if (b->failed)
        return;
    sv_tree *t = b->t;
    const efg_game *g = b->g;
    const void *s = b->states + (size_t)level * g->state_size;
    int player = g->player(g, s);
    sv_node *node = &t->nodes[at];
    node->player = (int8_t)player;
    node->n = 0;
    node->first = 0;
    node->infoset = 0;
    node->value = 0;
    node->depth = 0;
    if (level + 1 > t->max_depth)
        t->max_depth = level + 1;
    if (player == EFG_TERMINAL) {
        node->value = (float)g->utility(g, s);
        return;
    }
    if (level + 1 >= MAX_DEPTH) {
        b->failed = true;
        return;
    }
    uint16_t actions[EFG_MAX_ACTIONS];
    double probs[EFG_MAX_ACTIONS];
    int n = g->actions(g, s, actions, probs);
    if (player != EFG_CHANCE) {
        int depth = player == 0 ? d0 : d1;
        bool by_view = t->view_keys && g->view_key;
        uint32_t before = t->n_infosets;
        int64_t k = sv_tree_intern(t, player, by_view ? g->view_key(g, s) : g->infoset(g, s), depth, actions, n);
        if (k < 0) {
            b->failed = true;
            return;
        }
        if (t->n_infosets > before && g->view_key)
            t->infosets[k].view = by_view ? t->infosets[k].key : g->view_key(g, s);
        node->infoset = (uint32_t)k;
        node->depth = (uint8_t)(depth > 255 ? 255 : depth);
    }
    if (!reserve(b, (uint32_t)n)) {
        b->failed = true;
        return;
    }
    node = &t->nodes[at]; /* the array may have moved */
    uint32_t first = t->n_nodes;
    node->first = first;
    node->n = (uint16_t)n;
    t->n_nodes += (uint32_t)n;
    void *child = b->states + (size_t)(level + 1) * g->state_size;
    for (int a = 0; a < n; a++) {
        t->chance_prob[first + a] = player == EFG_CHANCE ? probs[a] : 1.0;
        g->apply(g, child, s, actions[a]);
        expand(b, first + (uint32_t)a, level + 1, d0 + (player == 0), d1 + (player == 1));
    }
}

int sv_tree_build(sv_tree *t, const efg_game *g, uint32_t max_nodes, bool view_keys)
{
    memset(t, 0, sizeof *t);
    t->view_keys = view_keys;
    builder b = { .t = t, .g = g, .max_nodes = max_nodes };
    b.states = malloc(g->state_size * MAX_DEPTH);
    if (!b.states || !reserve(&b, 1) || !grow_table(t)) {
        free(b.states);
        sv_tree_free(t);
        return -1;
    }
    g->root(g, b.states);
    t->n_nodes = 1;
    t->chance_prob[0] = 1.0;
    expand(&b, 0, 0, 0, 0);
    free(b.states);
    if (b.failed) {
        sv_tree_free(t);
        return -1;
    }
    return 0;
}

void sv_tree_free(sv_tree *t)
{
    free(t->nodes);
    free(t->chance_prob);
    free(t->infosets);
    free(t->actions);
    free(t->slots);
    memset(t, 0, sizeof *t);
}
