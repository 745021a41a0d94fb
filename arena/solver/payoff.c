/* arena/solver/payoff.c — pure-strategy payoff matrices: the strategies in order, the play-out of two of them
 * on the engine, and the matrix of every pair (payoff.h states the rules of a play-out). */
#include "payoff.h"

#include <stdbool.h>
#include <stdlib.h>

uint64_t po_strategies(int cells, int moves)
{
    if (moves < 1 || moves > cells)
        return 0;
    uint64_t n = 1;
    for (int k = 0; k < moves; k++) {
        uint64_t f = (uint64_t)(cells - k);
        if (n > UINT64_MAX / f)
            return UINT64_MAX;
        n *= f;
    }
    return n;
}

/* PO_PASS: player p plays the cells rest[0..n-1] alone on g (its opponent has none left). Its stones as a
 * set, each new one added, and hx_set_joins() for its win. */
static int po_alone(const hx_game *g, int p, const uint16_t *rest, int n, po_tail *tail)
{
    int cells = hx_cells(g);
    if (n == 0)
        return HX_NOBODY;
    if (cells > PO_PASS_MAX_CELLS)
        return PO_ERR_PASS;
    uint64_t mine = 0;
    for (int c = 0; c < cells; c++)
        if (hx_owner(g, c) == p + 1)
            mine |= 1ull << c;
    uint8_t hit = hx_variant_keeps_turn(hx_variant_of(g)) ? HX_REJECTED : HX_COLLISION;
    if (tail)
        tail->player = p;
    for (int i = 0; i < n; i++) {
        if (hx_view(g, p, rest[i]) != HX_VIEW_UNKNOWN)
            continue;
        bool empty = hx_owner(g, rest[i]) == 0;
        if (tail) {
            tail->cell[tail->n] = rest[i];
            tail->outcome[tail->n++] = empty ? HX_PLACED : hit;
        }
        if (empty) {
            mine |= 1ull << rest[i];
            if (hx_set_joins(hx_rows(g), hx_cols(g), p, mine))
                return p;
        }
    }
    return HX_NOBODY;
}

int po_playout(hx_game *g, const uint16_t *black, const uint16_t *white, int moves, po_rule rule, po_tail *tail)
{
    const uint16_t *seq[2] = { black, white };
    int next[2] = { 0, 0 };
    if (tail)
        tail->n = 0;
    while (!hx_over(g)) {
        int p = hx_to_move(g);
        while (next[p] < moves && hx_view(g, p, seq[p][next[p]]) != HX_VIEW_UNKNOWN)
            next[p]++;
        if (next[p] == moves)
            return rule == PO_PASS ? po_alone(g, p ^ 1, seq[p ^ 1] + next[p ^ 1], moves - next[p ^ 1], tail)
                                   : HX_NOBODY;
        if (hx_attempt(g, seq[p][next[p]++]) < 0)
            return HX_NOBODY; /* cannot happen: the cell is unknown to the mover */
    }
    return hx_winner(g);
}

/* The cell index of number k in the order: k itself, or column-major (k = c*R + r). */
static uint16_t po_cell_of(po_order order, int rows, int cols, int k)
{
    return (uint16_t)(order == PO_ORDER_COLUMN ? (k % rows) * cols + k / rows : k);
}

/* Writes every sequence of `moves` distinct numbers below `cells` into out, in lexicographic order, each
 * number turned into its cell (po_cell_of). */
static void po_enumerate(uint16_t *out, po_order order, int rows, int cols, int moves)
{
    int cells = rows * cols;
    int pick[HX_MAX_CELLS];
    bool used[HX_MAX_CELLS] = { false };
    int depth = 0;
    pick[0] = -1;
    while (depth >= 0) {
        /* advance position `depth` to its next unused number */
        int k = pick[depth];
        if (k >= 0)
            used[k] = false;
        for (k++; k < cells && used[k]; k++)
            ;
        if (k == cells) {
            depth--;
            continue;
        }
        pick[depth] = k;
        used[k] = true;
        if (depth + 1 < moves) {
            pick[++depth] = -1;
            continue;
        }
        for (int i = 0; i < moves; i++)
            *out++ = po_cell_of(order, rows, cols, pick[i]);
    }
}

int po_build(po_matrix *m, hx_variant variant, int rows, int cols, int moves, po_order order, po_rule rule)
{
    *m = (po_matrix){ .variant = variant, .rows = rows, .cols = cols, .moves = moves, .order = order,
                      .rule = rule };
    hx_game start;
    if (hx_new(&start, variant, rows, cols, 0) < 0)
        return PO_ERR_GAME;
    uint64_t n = po_strategies(rows * cols, moves);
    if (n == 0)
        return PO_ERR_MOVES;
    if (n > PO_MAX_ENTRIES / n)
        return PO_ERR_LARGE;
    m->n = (uint32_t)n;
    m->strategy = malloc(n * (uint64_t)moves * sizeof *m->strategy);
    m->outcome = malloc(n * n);
    if (!m->strategy || !m->outcome) {
        po_free(m);
        return PO_ERR_MEMORY;
    }
    po_enumerate(m->strategy, order, rows, cols, moves);
    hx_game g;
    for (uint32_t b = 0; b < m->n; b++)
        for (uint32_t w = 0; w < m->n; w++) {
            hx_copy(&g, &start);
            m->outcome[(uint64_t)b * m->n + w] =
                (uint8_t)po_playout(&g, po_strategy(m, b), po_strategy(m, w), moves, rule, NULL);
        }
    return 0;
}

void po_free(po_matrix *m)
{
    free(m->strategy);
    free(m->outcome);
    m->strategy = NULL;
    m->outcome = NULL;
    m->n = 0;
}

const char *po_strerror(int err)
{
    switch (err) {
    case PO_ERR_MOVES:
        return "the number of moves must be between 1 and the number of cells";
    case PO_ERR_LARGE:
        return "the matrix would be too large";
    case PO_ERR_MEMORY:
        return "out of memory";
    case PO_ERR_GAME:
        return "unknown variant or board size";
    case PO_ERR_PASS:
        return "the pass rule needs a board of at most 64 cells";
    default:
        return "no error";
    }
}
