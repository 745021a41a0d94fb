/* tests/bench/bench_gale.c — Gale's algorithm (arena/engine/gale.h): winners of random full boards per second
 * on 5x5, 7x7 and 11x11 (colouring the board and one walk; the walk alone; both corners), against two
 * baselines measured in the same run on the same boards: union-find over every cell with the four edges
 * (what a generic winner check does) and a breadth-first search from Black's top row. Prints figures;
 * asserts nothing. */
#include <stdint.h>
#include <stdio.h>

#include "clock.h"
#include "gale.h"

#define BOARDS 4096
#define FILLED 512 /* boards kept coloured for timing the walk alone */

static uint8_t boards[BOARDS][HX_MAX_CELLS];
static gale_board filled[FILLED];
static volatile uint64_t sink;

static int uf_find(uint16_t *parent, int x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static void uf_union(uint16_t *parent, int a, int b)
{
    a = uf_find(parent, a), b = uf_find(parent, b);
    if (a != b)
        parent[a] = (uint16_t)b;
}

/* Union-find baseline: every cell joined to its same-coloured neighbours, the edge cells to four edge
 * nodes; Black wins when top and bottom share a root. */
static int uf_winner(const uint8_t *b, int rows, int cols)
{
    static uint16_t parent[HX_MAX_CELLS + 4];
    int n = rows * cols, top = n, bottom = n + 1, left = n + 2, right = n + 3;
    for (int i = 0; i < n + 4; i++)
        parent[i] = (uint16_t)i;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            int i = r * cols + c;
            if (c + 1 < cols && b[i + 1] == b[i])
                uf_union(parent, i, i + 1);
            if (r + 1 < rows && b[i + cols] == b[i])
                uf_union(parent, i, i + cols);
            if (r + 1 < rows && c > 0 && b[i + cols - 1] == b[i])
                uf_union(parent, i, i + cols - 1);
            if (b[i] == HX_BLACK && r == 0)
                uf_union(parent, i, top);
            if (b[i] == HX_BLACK && r == rows - 1)
                uf_union(parent, i, bottom);
            if (b[i] == HX_WHITE && c == 0)
                uf_union(parent, i, left);
            if (b[i] == HX_WHITE && c == cols - 1)
                uf_union(parent, i, right);
        }
    return uf_find(parent, top) == uf_find(parent, bottom) ? HX_BLACK : HX_WHITE;
}

/* Breadth-first-search baseline: Black's cells reachable from the top row; does one reach the bottom? */
static int bfs_winner(const uint8_t *b, int rows, int cols)
{
    static const int dr[6] = { -1, -1, 0, 0, 1, 1 }, dc[6] = { 0, 1, -1, 1, -1, 0 };
    uint8_t seen[HX_MAX_CELLS] = { 0 };
    int queue[HX_MAX_CELLS], n = 0;
    for (int c = 0; c < cols; c++)
        if (b[c] == HX_BLACK)
            seen[c] = 1, queue[n++] = c;
    for (int h = 0; h < n; h++) {
        int r = queue[h] / cols, c = queue[h] % cols;
        if (r == rows - 1)
            return HX_BLACK;
        for (int k = 0; k < 6; k++) {
            int rr = r + dr[k], cc = c + dc[k], nb = rr * cols + cc;
            if (rr >= 0 && rr < rows && cc >= 0 && cc < cols && !seen[nb] && b[nb] == HX_BLACK)
                seen[nb] = 1, queue[n++] = nb;
        }
    }
    return HX_WHITE;
}

enum { M_GALE_FILL, M_GALE_WALK, M_GALE_BOTH, M_UF, M_BFS };

/* Winners per second by method `m` over the prepared boards for about `secs` seconds. */
static double rate(int m, int rows, int cols, double secs)
{
    static gale_board g;
    static uint16_t path[GALE_PATH_MAX];
    gale_init(&g, rows, cols);
    for (int i = 0; i < FILLED; i++) {
        gale_init(&filled[i], rows, cols);
        gale_fill(&filled[i], boards[i]);
    }
    uint64_t done = 0, black = 0;
    int len;
    double t0 = clk_now(), t;
    do {
        for (int i = 0; i < BOARDS; i++) {
            const uint8_t *b = boards[i];
            int w;
            switch (m) {
            case M_GALE_FILL:
                gale_fill(&g, b);
                w = gale_walk(&g, GALE_TOP_LEFT, NULL, NULL);
                break;
            case M_GALE_WALK:
                w = gale_walk(&filled[i % FILLED], (i & 1) ? GALE_TOP_LEFT : GALE_BOTTOM_RIGHT, NULL, NULL);
                break;
            case M_GALE_BOTH:
                gale_fill(&g, b);
                w = gale_walk(&g, GALE_TOP_LEFT, path, &len);
                sink += (uint64_t)gale_walk(&g, GALE_BOTTOM_RIGHT, path, &len);
                break;
            case M_UF:
                w = uf_winner(b, rows, cols);
                break;
            default:
                w = bfs_winner(b, rows, cols);
            }
            black += w == HX_BLACK;
        }
        done += BOARDS;
        t = clk_now() - t0;
    } while (t < secs);
    sink += black;
    return (double)done / t;
}

int main(void)
{
    static const int sides[] = { 5, 7, 11 };
    rng_state rng;
    rng_seed(&rng, 7);
    printf("Gale's algorithm: winners of random full boards per second (millions), one core\n");
    printf("%-6s %12s %12s %14s %12s %12s %14s\n", "board", "fill+walk", "walk alone", "fill+2 paths",
           "union-find", "BFS", "fill+walk/UF");
    for (size_t s = 0; s < sizeof sides / sizeof sides[0]; s++) {
        int n = sides[s];
        for (int i = 0; i < BOARDS; i++)
            for (int c = 0; c < n * n; c++)
                boards[i][c] = (uint8_t)(rng_next(&rng) >> 63);
        double fill = rate(M_GALE_FILL, n, n, 1.0), walk = rate(M_GALE_WALK, n, n, 1.0);
        double both = rate(M_GALE_BOTH, n, n, 1.0), uf = rate(M_UF, n, n, 1.0), bfs = rate(M_BFS, n, n, 1.0);
        char name[16];
        snprintf(name, sizeof name, "%dx%d", n, n);
        printf("%-6s %12.2f %12.2f %14.2f %12.2f %12.2f %13.1fx\n", name, fill / 1e6, walk / 1e6, both / 1e6,
               uf / 1e6, bfs / 1e6, fill / uf);
    }
    return 0;
}
