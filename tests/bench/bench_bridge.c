/* tests/bench/bench_bridge.c — the bridge builder: microseconds per move on 11x11 (bb_choose() alone, on
 * the positions of real games against random; baseline: one uniformly random legal move on the same
 * positions), its win rate against random in every variant on 5x5, 7x7 and 11x11 (200 games each, half
 * as Black), and the dark-variant options measured against random and against the intruder
 * (docs/bots.md quotes these figures). */
#include <stdio.h>
#include <time.h>

#include "bridge_play.h"
#include "clock.h"

/* Per-move time on 11x11: positions from games of the builder against random, each planned 20 times. */
static void per_move(hx_variant v)
{
    static hx_game g;
    static uint8_t view[HX_MAX_CELLS];
    static hx_event ev[HX_MAX_EVENTS];
    bb_options o = bb_defaults();
    double plan = 0, base = 0;
    long moves = 0;
    volatile long sink = 0;
    for (uint64_t seed = 1; seed <= 100; seed++) {
        rng_state rng, orng;
        rng_seed(&rng, seed);
        rng_seed(&orng, seed + 1000);
        uint16_t jitter[HX_MAX_CELLS];
        for (int i = 0; i < 121; i++)
            jitter[i] = (uint16_t)rng_below(&rng, BB_JITTER_MAX + 1);
        int builder = (int)(seed % 2);
        hx_new(&g, v, 11, 11, 0);
        while (!hx_over(&g)) {
            if (hx_to_move(&g) != builder) {
                hx_attempt(&g, hx_random_legal(&g, &orng));
                continue;
            }
            int known = 0;
            for (int i = 0; i < 121; i++) {
                view[i] = (uint8_t)hx_view(&g, builder, i);
                known += view[i] == HX_VIEW_OPPONENT;
            }
            int ne = hx_events(&g, builder, ev);
            bb_position p = { .rows = 11, .cols = 11, .color = builder, .view = view,
                              .hidden = bb_hidden_estimate(v, builder, ev, ne, known),
                              .own_stones = hx_stones(&g, builder), .dark = hx_variant_dark(v), .jitter = jitter };
            int cell = 0;
            double t0 = clk_now();
            for (int k = 0; k < 20; k++) {
                rng_state r2 = rng;
                cell = bb_choose(&p, &o, &r2, NULL);
            }
            double t1 = clk_now();
            for (int k = 0; k < 20; k++) {
                rng_state r2 = rng;
                sink += hx_random_legal(&g, &r2);
            }
            double t2 = clk_now();
            plan += t1 - t0, base += t2 - t1, moves += 20;
            (void)bb_choose(&p, &o, &rng, NULL);
            hx_attempt(&g, cell);
        }
    }
    (void)sink; /* only there so the baseline's moves are not optimised away */
    printf("  %-16s %6.2f us per move  (baseline: a random legal move %.3f us; %.0fx; %ld plans)\n",
           hx_variant_name(v), 1e6 * plan / (double)moves, 1e6 * base / (double)moves, plan / base, moves);
}

static double rate(hx_variant v, int side, const bb_options *o, bp_opponent opp, int games)
{
    bp_stats st = { 0 };
    int wins = 0;
    for (int k = 0; k < games; k++) {
        int builder = k % 2;
        wins += bp_game(v, side, side, builder, 7000 + (uint64_t)k, o, opp, NULL, &st) == builder;
    }
    return 100.0 * wins / games;
}

int main(void)
{
    printf("bridge builder: time per move on 11x11 (bb_choose on positions of games against random)\n");
    per_move(HX_HEX);
    per_move(HX_CLASSICAL);
    per_move(HX_ABRUPT);

    bb_options def = bb_defaults();
    printf("\nwin rate against random, 200 games per cell, half as Black (default options)\n");
    printf("  %-16s %7s %7s %7s\n", "variant", "5x5", "7x7", "11x11");
    for (int v = 0; v < HX_VARIANT_COUNT; v++) {
        printf("  %-16s", hx_variant_name((hx_variant)v));
        for (int s = 0; s < 3; s++)
            printf(" %6.1f%%", rate((hx_variant)v, s == 0 ? 5 : s == 1 ? 7 : 11, &def, BP_RANDOM, 200));
        printf("\n");
    }

    printf("\ndark-variant options (win %% over 400 games, half as Black): against random / against the intruder\n");
    static const struct { double w; int fill; } opts[] = { { 0, 0 }, { 1, 0 }, { 2, 0 }, { 1, 2 }, { 1, 3 }, { 1, 5 } };
    static const hx_variant vars[] = { HX_CLASSICAL, HX_ABRUPT };
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
        bb_options o = { .hidden_weight = opts[i].w, .fill_every = opts[i].fill };
        printf("  hidden-weight %.0f, fill-every %d:", o.hidden_weight, o.fill_every);
        for (size_t v = 0; v < 2; v++)
            for (int s = 0; s < 2; s++) {
                int side = s ? 11 : 7;
                printf("  %s %dx%d %5.1f/%5.1f", v ? "abrupt" : "classical", side, side,
                       rate(vars[v], side, &o, BP_RANDOM, 400), rate(vars[v], side, &o, BP_INTRUDER, 400));
            }
        printf("\n");
    }
    /* head to head: each option set against the plain builder (hidden-weight 0, fill-every 0) */
    printf("\nhead to head against hidden-weight 0, fill-every 0 (win %% over 400 games, half as Black)\n");
    bb_options plain = { 0 };
    static const hx_variant all_dark[] = { HX_CLASSICAL, HX_ABRUPT, HX_CLASSICAL_NOISY, HX_ABRUPT_FLASH };
    for (size_t i = 1; i < sizeof opts / sizeof opts[0]; i++) {
        bb_options o = { .hidden_weight = opts[i].w, .fill_every = opts[i].fill };
        printf("  hidden-weight %.0f, fill-every %d:", o.hidden_weight, o.fill_every);
        for (size_t v = 0; v < sizeof all_dark / sizeof all_dark[0]; v++)
            for (int s = 0; s < 2; s++) {
                int side = s ? 11 : 7, wins = 0;
                bp_stats st = { 0 };
                for (int k = 0; k < 400; k++) {
                    int builder = k % 2;
                    wins += bp_game(all_dark[v], side, side, builder, 9000 + (uint64_t)k, &o, BP_BUILDER, &plain,
                                    &st) == builder;
                }
                printf("  %s %dx%d %5.1f", hx_variant_name(all_dark[v]), side, side, 100.0 * wins / 400);
            }
        printf("\n");
    }
    return 0;
}
