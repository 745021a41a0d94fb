/* tests/bench/bench_pone.c — the pONE search (arena/solver/pone.h): for 3x3 and 4x3 classical, each player,
 * the time to walk every reachable key and solve it, keys per second and positions expanded per second;
 * the baseline is one plain pass over the same keys (a consistency check of each, in the same run). Then
 * the pONE bot's worst case: fresh searches with its default budget (100000 positions) from keys of random
 * 8x8 classical games with 16 unknown cells, in milliseconds. Then the memo before and after: pone.c's
 * (24 bytes a slot) against surewin.c's classical search (one 64-bit word a slot), each player: on 4x3 every
 * reachable key solved (pONE: every key; surewin: the keys with the player to move, the only ones it
 * stores), on 4x4 the keys of 300 random games solved with one memo per player, and surewin's walk over
 * every reachable 4x4 key for at most 60 s: keys stored per second and bytes per stored key. */
#include <stdio.h>
#include <stdlib.h>

#include "clock.h"
#include "game.h"
#include "pone.h"
#include "rng.h"
#include "surewin.h"

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

static void memo_line(const char *what, uint64_t keys, uint64_t bytes, double secs, const char *tail)
{
    printf("  %-40s %10llu keys  %7.1f MB  %6.1f bytes/key  %6.2f s  %10.0f keys/s%s\n", what,
           (unsigned long long)keys, bytes / 1048576.0, keys ? (double)bytes / (double)keys : 0, secs,
           keys / (secs > 0 ? secs : 1e-9), tail);
}

static void memo_4x3(int p)
{
    sv_pone *old = sv_pone_new(4, 3, p);
    sv_pone_counts *c = malloc(sizeof *c);
    uint64_t keys, bytes, wins;
    double t0 = clk_now();
    if (!old || !c || sv_pone_enumerate(old, c, NULL, NULL) != 0)
        exit(1);
    double secs = clk_now() - t0;
    sv_pone_memo(old, &keys, &bytes);
    memo_line(p ? "4x3 white, every key: pone.c" : "4x3 black, every key: pone.c", keys, bytes, secs, "");
    sv_pone_free(old);
    free(c);
    sw *s = sw_new(4, 3, SW_CLASSICAL, p);
    t0 = clk_now();
    if (!s || sw_enumerate(s, &keys, &wins) != 0)
        exit(1);
    secs = clk_now() - t0;
    sw_stats st;
    sw_get_stats(s, &st);
    memo_line(p ? "4x3 white, every key: surewin.c" : "4x3 black, every key: surewin.c", st.keys, st.bytes, secs, "");
    sw_free(s);
}

/* The keys of `games` random 4x4 classical games, player p to move, solved by both searches. */
static void memo_4x4_games(int p, int games)
{
    sv_pone *old = sv_pone_new(4, 4, p);
    sw *s = sw_new(4, 4, SW_CLASSICAL, p);
    rng_state rng;
    rng_seed(&rng, 11);
    double t_old = 0, t_new = 0;
    for (int i = 0; i < games; i++) {
        hx_game g;
        hx_new(&g, HX_CLASSICAL, 4, 4, 0);
        while (hx_winner(&g) == HX_NOBODY) {
            if (hx_to_move(&g) == p) {
                sv_pone_key k = { 0, 0, 0 };
                for (int c = 0; c < 16; c++)
                    if (hx_view(&g, p, c) == HX_VIEW_OWN)
                        k.own |= 1ull << c;
                    else if (hx_view(&g, p, c) == HX_VIEW_OPPONENT)
                        k.seen |= 1ull << c;
                k.hidden = hx_hidden(&g, p);
                sw_key q = { k.own, k.seen, false, 1 };
                double t0 = clk_now();
                int a = sv_pone_solve(old, &k, NULL);
                double t1 = clk_now();
                int b = sw_solve(s, &q, NULL);
                t_new += clk_now() - t1, t_old += t1 - t0;
                if (a != b) {
                    printf("  the searches disagree on a 4x4 key\n");
                    exit(1);
                }
            }
            uint16_t legal[HX_MAX_CELLS];
            int n = hx_legal(&g, legal);
            hx_attempt(&g, legal[rng_below(&rng, (uint32_t)n)]);
        }
    }
    uint64_t keys, bytes;
    sv_pone_memo(old, &keys, &bytes);
    memo_line(p ? "4x4 white, random games: pone.c" : "4x4 black, random games: pone.c", keys, bytes, t_old, "");
    sw_stats st;
    sw_get_stats(s, &st);
    memo_line(p ? "4x4 white, random games: surewin.c" : "4x4 black, random games: surewin.c", st.keys, st.bytes, t_new, "");
    sv_pone_free(old);
    sw_free(s);
}

static void memo_4x4_walk(int p, double seconds)
{
    sw *s = sw_new(4, 4, SW_CLASSICAL, p);
    uint64_t keys, wins;
    double t0 = clk_now();
    sw_set_limits(s, t0 + seconds, 6ull << 30);
    int r = sw_enumerate(s, &keys, &wins);
    double secs = clk_now() - t0;
    sw_stats st;
    sw_get_stats(s, &st);
    char tail[160];
    snprintf(tail, sizeof tail, "  (%s; %llu keys walked, %llu sure wins)", r == 0 ? "complete" : r == -2 ? "time budget" : "memory limit",
             (unsigned long long)keys, (unsigned long long)wins);
    memo_line(p ? "4x4 white, every key: surewin.c" : "4x4 black, every key: surewin.c", st.keys, st.bytes, secs, tail);
    sw_free(s);
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
    printf("memo before (pone.c) and after (surewin.c)\n");
    for (int p = 0; p < 2; p++)
        memo_4x3(p);
    for (int p = 0; p < 2; p++)
        memo_4x4_games(p, 300);
    for (int p = 0; p < 2; p++)
        memo_4x4_walk(p, 60);
    return 0;
}
