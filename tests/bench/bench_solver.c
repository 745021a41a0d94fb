/* tests/bench/bench_solver.c — the solver core on Dark Hex 3x2 and 2x3 (classical and abrupt): time to
 * build the flat tree, CFR+ milliseconds per iteration (both players' passes), bytes per information
 * state, and one exact exploitability computation; the baseline is one plain pass over the same tree
 * (every node visited once), measured in the same run. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "br.h"
#include "cfr.h"
#include "darkhex.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double plain(const sv_tree *t, uint32_t h)
{
    const sv_node *n = &t->nodes[h];
    double v = n->value;
    for (uint32_t k = 0; k < n->n; k++)
        v += plain(t, n->first + k);
    return v;
}

int main(void)
{
    static const struct { hx_variant v; int r, c; } cases[] = {
        { HX_CLASSICAL, 3, 2 }, { HX_ABRUPT, 3, 2 }, { HX_CLASSICAL, 2, 3 }, { HX_ABRUPT, 2, 3 } };
    printf("solver: flat trees and CFR+ (alternating updates) on small Dark Hex boards\n");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sv_darkhex p = { .variant = cases[i].v, .rows = cases[i].r, .cols = cases[i].c };
        efg_game g;
        sv_darkhex_game(&g, &p);
        sv_tree t;
        double t0 = now();
        if (sv_tree_build(&t, &g, 1u << 26, false) != 0)
            return 1;
        double built = now() - t0;
        volatile double sink = 0;
        t0 = now();
        for (int k = 0; k < 20; k++)
            sink += plain(&t, 0);
        double pass = (now() - t0) / 20;
        sv_cfr c;
        if (sv_cfr_init(&c, &t, SV_CFR_PLUS) != 0)
            return 1;
        int iters = 500;
        t0 = now();
        for (int k = 0; k < iters; k++)
            sv_cfr_iterate(&c);
        double per = (now() - t0) / iters;
        double *avg = malloc(sizeof *avg * t.n_actions);
        sv_cfr_average(&c, avg);
        sv_eval e;
        t0 = now();
        sv_evaluate(&t, avg, &e);
        double ev = now() - t0;
        /* per information state: its record, its actions (cell byte pairs), a float regret and a double sum
         * per action, and its table slots */
        double bytes = (double)(sizeof(sv_infoset) * t.n_infosets + t.n_actions * (sizeof(uint16_t) + 4 + 8) +
                                t.cap * sizeof(uint32_t)) / t.n_infosets;
        printf("  %-9s %dx%d: %u nodes, %u information states; tree built in %.0f ms\n", hx_variant_name(cases[i].v),
               cases[i].r, cases[i].c, t.n_nodes, t.n_infosets, 1e3 * built);
        printf("      CFR+ %.3f ms per iteration (a plain pass over the tree: %.3f ms; %.1fx), %.0f bytes per "
               "information state (+%.0f per tree node), exploitability after %d: %.2e, exact evaluation %.1f ms\n",
               1e3 * per, 1e3 * pass, per / pass, bytes, (double)(sizeof(sv_node) + sizeof(double)), iters,
               e.exploitability, 1e3 * ev);
        free(avg);
        sv_cfr_free(&c);
        sv_tree_free(&t);
    }
    return 0;
}
