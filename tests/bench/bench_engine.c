/* tests/bench/bench_engine.c — engine benchmarks: random-playout attempts per second for hex, classical
 * and abrupt at 3x3, 5x5, 7x7 and 11x11 on one core, against a plain baseline engine measured in the same
 * run (legal cells collected by a scan, wins by a breadth-first search after every placement, as generic
 * implementations do); plus game copies and key extraction. Prints figures; asserts nothing. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "game.h"
#include "clock.h"

static volatile uint64_t sink;

/* Random playouts on the engine for about `secs` seconds; returns attempts per second. */
static double engine_rate(hx_variant v, int rows, int cols, double secs)
{
    hx_game g;
    rng_state rng;
    rng_seed(&rng, 42);
    uint64_t attempts = 0, wins = 0;
    double t0 = clk_now(), t;
    do {
        for (int i = 0; i < 256; i++) {
            hx_new(&g, v, rows, cols, 0);
            attempts += (uint64_t)hx_playout(&g, &rng);
            wins += hx_winner(&g) == HX_BLACK;
        }
        t = clk_now() - t0;
    } while (t < secs);
    sink += wins;
    return (double)attempts / t;
}

/* The baseline: the same rules written the straightforward way. */
typedef struct {
    int rows, cols, n, to_move, winner, dark, keeps_turn;
    int8_t board[HX_MAX_CELLS];    /* 0 empty, 1 Black, 2 White */
    int8_t known[2][HX_MAX_CELLS]; /* opponent stones each player has learned */
} naive;

static int naive_connected(const naive *g, int p)
{
    int seen[HX_MAX_CELLS] = { 0 }, queue[HX_MAX_CELLS], n = 0;
    for (int i = 0; i < (p == 0 ? g->cols : g->rows); i++) {
        int c = p == 0 ? i : i * g->cols;
        if (g->board[c] == p + 1) {
            seen[c] = 1;
            queue[n++] = c;
        }
    }
    static const int dr[6] = { -1, -1, 0, 0, 1, 1 }, dc[6] = { 0, 1, -1, 1, -1, 0 };
    for (int h = 0; h < n; h++) {
        int r = queue[h] / g->cols, c = queue[h] % g->cols;
        if (p == 0 ? r == g->rows - 1 : c == g->cols - 1)
            return 1;
        for (int k = 0; k < 6; k++) {
            int rr = r + dr[k], cc = c + dc[k], nb = rr * g->cols + cc;
            if (rr >= 0 && rr < g->rows && cc >= 0 && cc < g->cols && !seen[nb] && g->board[nb] == p + 1) {
                seen[nb] = 1;
                queue[n++] = nb;
            }
        }
    }
    return 0;
}

static void naive_attempt(naive *g, int cell)
{
    int p = g->to_move;
    if (g->board[cell] == 0) {
        g->board[cell] = (int8_t)(p + 1);
        if (naive_connected(g, p))
            g->winner = p;
        g->to_move = 1 - p;
    } else {
        g->known[p][cell] = 1;
        if (!g->keeps_turn)
            g->to_move = 1 - p;
    }
}

static double naive_rate(hx_variant v, int rows, int cols, double secs)
{
    naive g;
    rng_state rng;
    rng_seed(&rng, 42);
    uint64_t attempts = 0;
    int legal[HX_MAX_CELLS];
    double t0 = clk_now(), t;
    do {
        for (int i = 0; i < 16; i++) {
            memset(&g, 0, sizeof g);
            g.rows = rows, g.cols = cols, g.n = rows * cols, g.winner = -1;
            g.dark = hx_variant_dark(v), g.keeps_turn = hx_variant_keeps_turn(v);
            while (g.winner < 0) {
                int p = g.to_move, n = 0;
                for (int c = 0; c < g.n; c++)
                    if (g.board[c] != p + 1 && !g.known[p][c] && (g.dark || g.board[c] == 0))
                        legal[n++] = c;
                naive_attempt(&g, legal[rng_below(&rng, (uint32_t)n)]);
                attempts++;
            }
        }
        t = clk_now() - t0;
    } while (t < secs);
    return (double)attempts / t;
}

static void copies(int rows, int cols)
{
    hx_game g, c;
    rng_state rng;
    rng_seed(&rng, 1);
    hx_new(&g, HX_CLASSICAL, rows, cols, 0);
    for (int i = 0; i < rows * cols / 2; i++)
        hx_attempt(&g, hx_random_legal(&g, &rng));
    uint64_t n = 0;
    double t0 = clk_now(), t;
    do {
        for (int i = 0; i < 4096; i++) {
            hx_copy(&c, &g);
            sink += c.n_attempts;
        }
        n += 4096;
        t = clk_now() - t0;
    } while (t < 0.2);
    double fast = (double)n / t;
    n = 0;
    t0 = clk_now();
    do {
        for (int i = 0; i < 4096; i++) {
            __asm__ volatile("" : : "r"(&g) : "memory");
            c = g;
            sink += c.n_attempts;
        }
        n += 4096;
        t = clk_now() - t0;
    } while (t < 0.2);
    printf("  copy %2dx%-2d mid-game   hx_copy %7.2f M/s   struct assignment %6.2f M/s   ratio %5.1fx\n", rows, cols,
           fast / 1e6, (double)n / t / 1e6, fast / ((double)n / t));
}

static void keys(int rows, int cols)
{
    hx_game g;
    rng_state rng;
    rng_seed(&rng, 1);
    hx_new(&g, HX_CLASSICAL_FLASH, rows, cols, 0);
    for (int i = 0; i < rows * cols && !hx_over(&g); i++)
        hx_attempt(&g, hx_random_legal(&g, &rng));
    uint16_t key[HX_MAX_EVENTS];
    uint64_t n = 0;
    double t0 = clk_now(), t;
    do {
        for (int i = 0; i < 1024; i++)
            sink += (uint64_t)hx_key(&g, i & 1, key);
        n += 1024;
        t = clk_now() - t0;
    } while (t < 0.2);
    printf("  key %2dx%-2d (%3d attempts) hx_key %6.2f M/s\n", rows, cols, hx_num_attempts(&g), (double)n / t / 1e6);
}

int main(void)
{
    static const hx_variant variants[] = { HX_HEX, HX_CLASSICAL, HX_ABRUPT };
    static const int sides[] = { 3, 5, 7, 11 };
    printf("engine: random playouts, one core (M attempts/s; baseline = scan + BFS engine, same run)\n");
    printf("  %-10s %-6s %10s %10s %8s\n", "variant", "board", "engine", "baseline", "ratio");
    double classical11 = 0;
    for (int v = 0; v < 3; v++)
        for (int s = 0; s < 4; s++) {
            int n = sides[s];
            double e = engine_rate(variants[v], n, n, 0.4), b = naive_rate(variants[v], n, n, 0.15);
            printf("  %-10s %2dx%-3d %10.2f %10.2f %7.1fx\n", hx_variant_name(variants[v]), n, n, e / 1e6, b / 1e6,
                   e / b);
            if (variants[v] == HX_CLASSICAL && n == 11)
                classical11 = e;
        }
    printf("  target: 40 M/s on 11x11 classical; measured %.2f M/s\n", classical11 / 1e6);
    printf("engine: copies and keys\n");
    copies(3, 3);
    copies(11, 11);
    keys(3, 3);
    keys(11, 11);
    return 0;
}
