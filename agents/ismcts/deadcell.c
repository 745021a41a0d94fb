/* agents/ismcts/deadcell.c — dead cells of a view: the exact test on few unknown cells and the local pattern
 * (deadcell.h). */
#include <string.h>

#include "deadcell.h"

int ism_edge_owner(int rows, int cols, int r, int c)
{
    bool out_r = r < 0 || r >= rows, out_c = c < 0 || c >= cols;
    if (out_r && out_c)
        return -1;
    if (out_r)
        return HX_BLACK;
    if (out_c)
        return HX_WHITE;
    return ISM_ON_BOARD;
}

/* Who owns a neighbour position for the pattern: the known stone's colour, the edge's player off the board
 * (ism_edge_owner), -1 at a corner or an unknown cell. */
static int owner(const ism_belief *b, int r, int c)
{
    int edge = ism_edge_owner(b->rows, b->cols, r, c);
    if (edge != ISM_ON_BOARD)
        return edge;
    int v = b->view[r * b->cols + c];
    return v == HX_VIEW_OWN ? b->color : v == HX_VIEW_OPPONENT ? b->color ^ 1 : -1;
}

int ism_dead_pattern(const ism_belief *b, int c)
{
    /* The six neighbours in cyclic order: each adjacent to the next. */
    static const int dr[6] = { -1, -1, 0, 1, 1, 0 }, dc[6] = { 0, 1, 1, 0, -1, -1 };
    int r = c / b->cols, k = c % b->cols, own[6];
    for (int d = 0; d < 6; d++)
        own[d] = owner(b, r + dr[d], k + dc[d]);
    for (int d = 0; d < 6; d++) {
        int o = own[d];
        if (o >= 0 && own[(d + 1) % 6] == o && own[(d + 2) % 6] == o && own[(d + 3) % 6] == o)
            return 1;
    }
    return 0;
}

/* Exact: over every colouring of the other unknown cells, the player's stones join its edges with cell u
 * the player's exactly when they do with u the opponent's. */
static int dead_exact(const ism_belief *b, int k)
{
    uint8_t mine[HX_MAX_CELLS];
    int others[ISM_DEAD_EXACT_LIMIT], n = 0, u = b->unknown[k];
    for (int i = 0; i < b->cells; i++)
        mine[i] = b->view[i] == HX_VIEW_OWN;
    for (int j = 0; j < b->n_unknown; j++)
        if (j != k)
            others[n++] = b->unknown[j];
    for (uint32_t m = 0; m < 1u << n; m++) {
        for (int j = 0; j < n; j++)
            mine[others[j]] = (uint8_t)(m >> j & 1);
        mine[u] = 0;
        bool without = ism_joins(b->rows, b->cols, b->color, mine);
        if (without) /* joined without u: joined with it too */
            continue;
        mine[u] = 1;
        if (ism_joins(b->rows, b->cols, b->color, mine))
            return 0;
    }
    return 1;
}

int ism_dead_cells(const ism_belief *b, int exact_max, uint8_t *dead)
{
    memset(dead, 0, (size_t)b->cells);
    bool exact = exact_max > 0 && b->n_unknown <= exact_max && b->n_unknown <= ISM_DEAD_EXACT_LIMIT;
    int n = 0;
    for (int k = 0; k < b->n_unknown; k++) {
        int c = b->unknown[k];
        dead[c] = (uint8_t)(exact ? dead_exact(b, k) : ism_dead_pattern(b, c));
        n += dead[c];
    }
    return n;
}
