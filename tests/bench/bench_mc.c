/* tests/bench/bench_mc.c — the Monte Carlo bot's samples per second (hidden stones drawn, the board filled,
 * two Gale walks with their paths, scores) on 5x5, 7x7 and 11x11 from random classical and hex positions a
 * third of the way into a game, against seed 003's first method measured in the same run: the same sample
 * and fill, then every empty cell flipped and the winner found again (one walk per cell). Prints figures;
 * asserts nothing. */
#include <stdio.h>

#include "clock.h"
#include "scorer.h"

static volatile uint64_t sink;

/* A position a third of the cells of random attempts into a game of v, the player to move (not over). */
static void position(hx_game *g, hx_variant v, int side, rng_state *rng)
{
    do {
        hx_new(g, v, side, side, 0);
        for (int i = 0; i < side * side / 3 && !hx_over(g); i++)
            hx_attempt(g, hx_random_legal(g, rng));
    } while (hx_over(g));
}

/* Samples per second of the pivotal scorer (two walks) on the position. */
static double two_walks(mc_sampler *s, double secs, rng_state *rng)
{
    static uint32_t mark[HX_MAX_CELLS], score[HX_MAX_CELLS];
    uint32_t stamp = 0;
    uint64_t n = 0;
    double t0 = clk_now(), t;
    do {
        for (int i = 0; i < 256; i++)
            sink += (uint64_t)mc_score_sample(s, MC_FILL_ALTERNATE, rng, mark, ++stamp, score);
        n += 256;
        t = clk_now() - t0;
    } while (t < secs);
    return (double)n / t;
}

/* Samples per second of the flip method: sample and alternate fill, then one walk per flipped empty cell. */
static double flips(mc_sampler *s, double secs, rng_state *rng)
{
    static uint32_t score[HX_MAX_CELLS];
    uint64_t n = 0;
    double t0 = clk_now(), t;
    int opp = s->color ^ 1;
    do {
        for (int k = 0; k < 16; k++) {
            int h = mc_sample(s, rng);
            if (h < 0)
                continue;
            int end = h + (s->n_unknown - h) / 2;
            for (int i = h; i < end; i++) {
                int j = i + (int)rng_below(rng, (uint32_t)(s->n_unknown - i));
                uint16_t c = s->unknown[j];
                s->unknown[j] = s->unknown[i], s->unknown[i] = c;
                gale_set(&s->board, c, opp);
            }
            int w = gale_walk(&s->board, GALE_TOP_LEFT, NULL, NULL);
            for (int i = h; i < s->n_unknown; i++) {
                int c = s->unknown[i], was = i < end ? opp : s->color;
                gale_set(&s->board, c, was ^ 1);
                score[c] += gale_walk(&s->board, GALE_TOP_LEFT, NULL, NULL) != w;
                gale_set(&s->board, c, was);
            }
            mc_sampler_reset(s, end);
        }
        n += 16;
        t = clk_now() - t0;
    } while (t < secs);
    sink += score[0];
    return (double)n / t;
}

int main(void)
{
    static mc_sampler s;
    static const int sides[] = { 5, 7, 11 };
    static const hx_variant vs[] = { HX_CLASSICAL, HX_HEX };
    rng_state rng;
    rng_seed(&rng, 3);
    printf("mc: samples per second (sample + fill + 2 Gale walks + scores), one core, positions a third into a game\n");
    printf("%-10s %-6s %14s %20s %8s\n", "variant", "board", "two walks", "flip every cell", "ratio");
    for (size_t v = 0; v < sizeof vs / sizeof vs[0]; v++)
        for (size_t k = 0; k < sizeof sides / sizeof sides[0]; k++) {
            hx_game g;
            position(&g, vs[v], sides[k], &rng);
            mc_sampler_of_game(&s, &g, hx_to_move(&g));
            double a = two_walks(&s, 1.0, &rng), b = flips(&s, 1.0, &rng);
            char board[16];
            snprintf(board, sizeof board, "%dx%d", sides[k], sides[k]);
            printf("%-10s %-6s %14.0f %20.0f %7.1fx\n", hx_variant_name(vs[v]), board, a, b, a / b);
        }
    return 0;
}
