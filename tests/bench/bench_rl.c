/* tests/bench/bench_rl.c — the tabular RL trainer: self-play Q-learning episodes per second on 5x5
 * classical with perfect-recall and view keys (table growing from empty, as in a real run), and SARSA
 * against the bridge builder; the baseline is uniformly random playouts of the same game (hx_playout),
 * measured in the same run, so the ratio is the learner's cost per game over the bare rules engine. */
#define _GNU_SOURCE
#include <stdio.h>
#include <time.h>

#include "game.h"
#include "learn.h"
#include "rng.h"
#include "clock.h"

static double playouts_per_second(hx_variant v, int rows, int cols)
{
    hx_rng rng;
    hx_rng_seed(&rng, 1);
    long games = 0;
    double t0 = clk_now();
    while (clk_now() - t0 < 1)
        for (int k = 0; k < 100; k++, games++) {
            hx_game g;
            hx_new(&g, v, rows, cols, 0);
            hx_playout(&g, &rng);
        }
    return games / (clk_now() - t0);
}

static void run(const char *what, rl_algo algo, rl_opponent opp, bool view, double base)
{
    rl_config c = { .variant = HX_CLASSICAL, .rows = 5, .cols = 5, .algo = algo, .opponent = opp, .view_keys = view,
                    .alpha = 0.1, .gamma = 1, .epsilon = { .kind = RL_LINEAR, .e0 = 1, .e1 = 0.05, .n = 1e5 },
                    .budget = (size_t)4 << 30, .seed = 1 };
    rl_learner l;
    rl_init(&l, &c);
    double t0 = clk_now();
    while (clk_now() - t0 < 3)
        for (int k = 0; k < 100; k++)
            if (rl_episode(&l) < 0)
                return;
    double rate = (double)l.episode / (clk_now() - t0);
    printf("  %-34s %8.0f episodes/s  (%.1fx the random playout's time per game), %u states after %llu episodes\n",
           what, rate, base / rate, l.table.n_infosets, (unsigned long long)l.episode);
    rl_free(&l);
}

int main(void)
{
    double base = playouts_per_second(HX_CLASSICAL, 5, 5);
    printf("rl-train: episodes per second on 5x5 classical, 3 s each (random playouts: %.0f games/s)\n", base);
    run("Q-learning, self-play, perfect keys", RL_QLEARNING, RL_SELF, false, base);
    run("Q-learning, self-play, view keys", RL_QLEARNING, RL_SELF, true, base);
    run("SARSA against the bridge builder", RL_SARSA, RL_BRIDGE, true, base);
    return 0;
}
