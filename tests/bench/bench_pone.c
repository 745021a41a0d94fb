/* tests/bench/bench_pone.c — the pONE search (arena/solver/pone.h): for 3x3 and 4x3 classical, each player,
 * the time to walk every reachable key and solve it, keys per second and positions expanded per second;
 * the baseline is one plain pass over the same keys (a consistency check of each, in the same run). Then
 * the pONE bot's worst case: fresh searches with its default budget (100000 positions) from keys of random
 * 8x8 classical games with 16 unknown cells, in milliseconds. */
#include <stdio.h>
#include <stdlib.h>

#include "clock.h"
#include "game.h"
#include "pone.h"
#include "rng.h"

typedef struct {
    sv_pone_key *keys;
    size_t n, cap;
} key_list;

static void collect(const sv_pone_key *k, int pone, int cell, void *user)
{
    (void)pone, (void)cell;
    key_list *l = user;
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 4096;
        l->keys = realloc(l->keys, l->cap * sizeof *l->keys);
        if (!l->keys) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
    }
    l->keys[l->n++] = *k;
}

static void board(int rows, int cols)
{
    for (int p = 0; p < 2; p++) {
        sv_pone *s = sv_pone_new(rows, cols, p);
        sv_pone_counts c;
        key_list l = { 0 };
        double t0 = clk_now();
        if (!s || sv_pone_enumerate(s, &c, collect, &l) != 0) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
        double secs = clk_now() - t0;
        sv_pone_free(s);
        s = sv_pone_new(rows, cols, p);
        size_t ok = 0;
        double t1 = clk_now();
        for (size_t i = 0; i < l.n; i++)
            ok += sv_pone_consistent(s, &l.keys[i]);
        double base = clk_now() - t1;
        sv_pone_free(s);
        printf("%dx%d %-5s  %8llu keys  %8llu pONE  %7.3f s  %10.0f keys/s  %10.0f positions/s  "
               "x%.1f the plain pass (%llu checked)\n",
               rows, cols, p ? "white" : "black", (unsigned long long)c.keys, (unsigned long long)c.pone, secs,
               c.keys / secs, c.nodes / secs, secs / (base > 0 ? base : 1e-9), (unsigned long long)ok);
        free(l.keys);
    }
}

/* Plays random classical attempts until `unknown` cells are unknown to the player to move. */
static void bot_case(rng_state *rng, int unknown, double *worst, double *total, int *searched, int *found)
{
    hx_game g;
    hx_new(&g, HX_CLASSICAL, 8, 8, 0);
    for (;;) {
        if (hx_winner(&g) != HX_NOBODY)
            return;
        int p = hx_to_move(&g), n = 0, cells[64];
        for (int i = 0; i < 64; i++)
            if (hx_view(&g, p, i) == HX_VIEW_UNKNOWN)
                cells[n++] = i;
        if (n <= unknown) {
            sv_pone *s = sv_pone_new(8, 8, p);
            sv_pone_set_budget(s, 100000);
            sv_pone_key k = { 0, 0, 0 };
            int mine = 0, theirs_seen = 0;
            for (int i = 0; i < 64; i++) {
                if (hx_view(&g, p, i) == HX_VIEW_OWN)
                    k.own |= 1ull << i, mine++;
                else if (hx_view(&g, p, i) == HX_VIEW_OPPONENT)
                    k.seen |= 1ull << i, theirs_seen++;
            }
            /* classical: Black moves with equal counts, White one stone behind */
            k.hidden = (p == HX_BLACK ? mine : mine + 1) - theirs_seen;
            double t0 = clk_now();
            int r = sv_pone_solve(s, &k, NULL);
            double ms = (clk_now() - t0) * 1e3;
            sv_pone_free(s);
            *worst = ms > *worst ? ms : *worst;
            *total += ms;
            (*searched)++;
            *found += r == 1;
            return;
        }
        hx_attempt(&g, cells[rng_below(rng, (uint64_t)n)]);
    }
}

int main(void)
{
    printf("pONE search, classical Dark Hex (every reachable key solved)\n");
    board(3, 3);
    board(4, 3);
    rng_state rng;
    rng_seed(&rng, 7);
    for (int unknown = 16; unknown <= 32; unknown += 8) {
        double worst = 0, total = 0;
        int searched = 0, found = 0;
        for (int i = 0; i < 200; i++)
            bot_case(&rng, unknown, &worst, &total, &searched, &found);
        printf("bot budget (100000 positions), 8x8 with %d unknown cells: %d searches, %d pONE, mean %.2f ms, "
               "worst %.2f ms\n", unknown, searched, found, searched ? total / searched : 0, worst);
    }
    return 0;
}
