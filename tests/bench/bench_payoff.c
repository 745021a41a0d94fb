/* tests/bench/bench_payoff.c — payoff matrices (arena/solver/payoff.h): entries per second of po_build() on
 * 3x3 boards with 3 moves (504 x 504) and 2x3 with 4 moves (360 x 360), each rule; the baseline is uniformly
 * random play-outs to the end of the game (hx_copy() and hx_playout()) on the same board, as many as the
 * matrix has entries, measured in the same run. */
#include <stdio.h>

#include "clock.h"
#include "payoff.h"

int main(void)
{
    static const struct {
        hx_variant v;
        int rows, cols, moves;
        po_rule rule;
    } cases[] = {
        { HX_ABRUPT, 3, 3, 3, PO_STOP },    { HX_CLASSICAL, 3, 3, 3, PO_STOP }, { HX_CLASSICAL, 3, 3, 3, PO_PASS },
        { HX_HEX, 3, 3, 3, PO_STOP },       { HX_HEX, 3, 3, 3, PO_PASS },       { HX_CLASSICAL, 2, 3, 4, PO_PASS },
    };
    printf("payoff: po_build() entries per second; baseline: random play-outs per second on the same board\n");
    printf("%-10s %5s %5s %4s %10s %12s %12s %7s %9s\n", "variant", "board", "moves", "rule", "entries",
           "entries/s", "playouts/s", "ratio", "B/W/-");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        po_matrix m;
        double t0 = clk_now();
        if (po_build(&m, cases[i].v, cases[i].rows, cases[i].cols, cases[i].moves, PO_ORDER_INDEX, cases[i].rule)) {
            printf("po_build failed\n");
            return 1;
        }
        double build = clk_now() - t0;
        uint64_t entries = (uint64_t)m.n * m.n, count[3] = { 0, 0, 0 };
        for (uint64_t k = 0; k < entries; k++)
            count[m.outcome[k]]++;
        po_free(&m);

        hx_game start, g;
        hx_new(&start, cases[i].v, cases[i].rows, cases[i].cols, 0);
        rng_state rng;
        rng_seed(&rng, 42);
        uint64_t attempts = 0;
        t0 = clk_now();
        for (uint64_t k = 0; k < entries; k++) {
            hx_copy(&g, &start);
            attempts += (uint64_t)hx_playout(&g, &rng);
        }
        double base = clk_now() - t0;
        printf("%-10s %2dx%-2d %5d %4s %10llu %12.0f %12.0f %7.2f %llu/%llu/%llu\n", hx_variant_name(cases[i].v),
               cases[i].rows, cases[i].cols, cases[i].moves, cases[i].rule == PO_PASS ? "pass" : "stop",
               (unsigned long long)entries, entries / build, entries / base, base / build,
               (unsigned long long)count[HX_BLACK], (unsigned long long)count[HX_WHITE],
               (unsigned long long)count[HX_NOBODY]);
        if (attempts == 0)
            printf("(no attempts)\n");
    }
    return 0;
}
