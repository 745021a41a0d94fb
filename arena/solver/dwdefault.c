/* arena/solver/dwdefault.c — the default play (dwdefault.h): two shortest-path distances on the player's view,
 * by bit boards, for each legal cell; the memo by view. */
#include "dwdefault.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "mix.h"

/* The neighbours of the cells of x on an r x c board of at most 64 cells (mask: the board's cells), by shifts
 * of the row-major bit board: (r-1, c), (r-1, c+1), (r, c-1), (r, c+1), (r+1, c-1), (r+1, c). */
typedef struct {
    int cols;
    uint64_t board, not_first, not_last; /* all cells; all but column 0; all but the last column */
} bits_board;

static uint64_t neighbours(const bits_board *b, uint64_t x)
{
    int c = b->cols;
    uint64_t n = x >> c | x << c | ((x << 1 | x >> (c - 1)) & b->not_first) | ((x >> 1 | x << (c - 1)) & b->not_last);
    return n & b->board;
}

/* Cells still needed to join side0 to side1 when the cells of `free` cost nothing, those of `step` one each and
 * the others cannot be used: layer d is every cell reachable from side0 at cost at most d. */
static int distance(const bits_board *b, uint64_t side0, uint64_t side1, uint64_t free, uint64_t step,
                    int unreachable)
{
    uint64_t reach = side0 & free, grow;
    for (int d = 0;; d++) {
        while ((grow = reach | (neighbours(b, reach) & free)) != reach) /* the free cells joined to the layer */
            reach = grow;
        if (reach & side1)
            return d;
        uint64_t next = reach | ((neighbours(b, reach) | side0) & step);
        if (next == reach)
            return unreachable;
        reach = next;
    }
}

int dw_default(const hx_game *g)
{
    int rows = hx_rows(g), cols = hx_cols(g), cells = rows * cols, p = hx_to_move(g);
    uint16_t legal[HX_MAX_CELLS + 1];
    int n = hx_legal(g, legal);
    if (cells > 64)
        return legal[0];
    uint64_t mine = 0, theirs = 0, unknown = 0, top = 0, bottom = 0, left = 0, right = 0;
    for (int i = 0; i < cells; i++) {
        int v = hx_view(g, p, i);
        mine |= (uint64_t)(v == HX_VIEW_OWN) << i;
        theirs |= (uint64_t)(v == HX_VIEW_OPPONENT) << i;
        unknown |= (uint64_t)(v == HX_VIEW_UNKNOWN) << i;
        top |= (uint64_t)(i / cols == 0) << i, bottom |= (uint64_t)(i / cols == rows - 1) << i;
        left |= (uint64_t)(i % cols == 0) << i, right |= (uint64_t)(i % cols == cols - 1) << i;
    }
    bits_board b = { .cols = cols, .board = cells == 64 ? ~0ull : (1ull << cells) - 1 };
    b.not_first = b.board & ~left, b.not_last = b.board & ~right;
    /* the player's sides and the opponent's: Black joins top and bottom, White left and right */
    uint64_t my0 = p == 0 ? top : left, my1 = p == 0 ? bottom : right;
    uint64_t op0 = p == 0 ? left : top, op1 = p == 0 ? right : bottom;
    int best = -1, best_score = 0, best_centre = 0;
    for (int k = 0; k < n; k++) {
        int c = legal[k];
        if (c >= cells)
            continue; /* the swap move */
        uint64_t bit = 1ull << c;
        int score = distance(&b, my0, my1, mine | bit, unknown & ~bit, 2 * cells) -
                    distance(&b, op0, op1, theirs, unknown & ~bit, 2 * cells);
        /* twice the distance to the centre, in rows and columns */
        int centre = abs(2 * (c / cols) - (rows - 1)) + abs(2 * (c % cols) - (cols - 1));
        if (best < 0 || score < best_score || (score == best_score && centre < best_centre))
            best = c, best_score = score, best_centre = centre;
    }
    return best >= 0 ? best : legal[0];
}

int dw_default_spread(const hx_game *g, uint64_t key, uint32_t salt)
{
    uint16_t legal[HX_MAX_CELLS + 1];
    int n = hx_legal(g, legal), cells = hx_rows(g) * hx_cols(g), m = 0;
    for (int k = 0; k < n; k++)
        if (legal[k] < cells)
            legal[m++] = legal[k];
    if (m == 0)
        return legal[0];
    return legal[mix64(key ^ mix64((uint64_t)salt * MIX_GOLDEN)) % (uint64_t)m];
}

enum { MEMO_BITS = 16, MEMO_MAX_CELLS = 16 };

struct dw_memo {
    uint64_t slot[1u << MEMO_BITS]; /* (view key | 1 << 43) << 8 | cell; 0: empty */
};

dw_memo *dw_memo_new(void)
{
    return calloc(1, sizeof(dw_memo));
}

void dw_memo_free(dw_memo *m)
{
    free(m);
}

int dw_default_memo(dw_memo *m, const hx_game *g)
{
    int rows = hx_rows(g), cols = hx_cols(g), cells = rows * cols, p = hx_to_move(g);
    if (!m || cells > MEMO_MAX_CELLS)
        return dw_default(g);
    uint64_t own = 0, known = 0;
    for (int i = 0; i < cells; i++) {
        int v = hx_view(g, p, i);
        own |= (uint64_t)(v == HX_VIEW_OWN) << i;
        known |= (uint64_t)(v == HX_VIEW_OPPONENT) << i;
    }
    /* the view, the player and the board: 16 + 16 + 1 + 5 + 5 bits, and a bit that no empty slot has */
    uint64_t key = own | known << 16 | (uint64_t)p << 32 | (uint64_t)rows << 33 | (uint64_t)cols << 38 | 1ull << 43;
    uint64_t *slot = &m->slot[mix64(key) >> (64 - MEMO_BITS)];
    if (*slot >> 8 == key)
        return (int)(*slot & 0xff);
    int cell = dw_default(g);
    *slot = key << 8 | (uint64_t)cell;
    return cell;
}
