/* arena/solver/hexbits.c — Hex geometry on bitsets (hexbits.h). */
#include "hexbits.h"

bool hb_init(hb_geom *g, int rows, int cols)
{
    if (rows < 2 || cols < 2 || rows * cols > HB_MAX_CELLS)
        return false;
    g->rows = rows, g->cols = cols, g->cells = rows * cols;
    g->all = g->cells == 64 ? ~0ull : (1ull << g->cells) - 1;
    uint64_t first = 0, last = 0, top = 0, bottom = 0;
    for (int r = 0; r < rows; r++)
        first |= 1ull << (r * cols), last |= 1ull << (r * cols + cols - 1);
    for (int c = 0; c < cols; c++)
        top |= 1ull << c, bottom |= 1ull << ((rows - 1) * cols + c);
    g->not_first = g->all & ~first;
    g->not_last = g->all & ~last;
    g->edge[0][0] = top, g->edge[0][1] = bottom;
    g->edge[1][0] = first, g->edge[1][1] = last;
    return true;
}

uint64_t hb_spread(const hb_geom *g, uint64_t x)
{
    int c = g->cols;
    uint64_t n = (x << c) | (x >> c) | ((x << 1) & g->not_first) | ((x >> 1) & g->not_last) |
                 ((x >> (c - 1)) & g->not_first) | ((x << (c - 1)) & g->not_last);
    return n & g->all;
}

uint64_t hb_closure(const hb_geom *g, uint64_t reach, uint64_t free)
{
    for (;;) {
        uint64_t next = reach | (hb_spread(g, reach) & free);
        if (next == reach)
            return reach;
        reach = next;
    }
}

int hb_distance(const hb_geom *g, int p, uint64_t free, uint64_t costly)
{
    uint64_t start = g->edge[p][0], goal = g->edge[p][1];
    uint64_t reach = hb_closure(g, start & free, free);
    for (int k = 0;; k++) {
        if (reach & goal)
            return k;
        uint64_t next = (hb_spread(g, reach) | start) & costly & ~reach;
        if (!next)
            return HB_FAR;
        reach = hb_closure(g, reach | next, free);
    }
}

bool hb_joined(const hb_geom *g, int p, uint64_t stones) { return hb_distance(g, p, stones, 0) == 0; }
