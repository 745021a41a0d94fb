/* tests/bench/bench_rl.c — the tabular RL trainer: self-play Q-learning episodes per second on 5x5
 * classical with perfect-recall and view keys (table growing from empty, as in a real run), and SARSA
 * against the bridge builder; then on 3x3 classical the rl-train defaults (pool self:1,random:4,bridge:1)
 * without and with the 180-degree symmetry (each update applied to the rotated step too). The baseline is
 * uniformly random playouts of the same game (hx_playout), measured in the same run, so the ratio is the
 * learner's cost per game over the bare rules engine. */
#define _GNU_SOURCE
#include <stdio.h>
#include <time.h>

#include "game.h"
#include "learn.h"
#include "rng.h"
#include "clock.h"

static double playouts_per_second(hx_variant v, int rows, int cols)
{
    rng_state rng;
    rng_seed(&rng, 1);
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

static void run(const char *what, int side, rl_algo algo, const char *pool, bool view, bool symmetry, double base)
{
    rl_config c = { .variant = HX_CLASSICAL, .rows = side, .cols = side, .algo = algo, .view_keys = view,
                    .symmetry = symmetry, .alpha = 0.1, .gamma = 1,
                    .epsilon = { .kind = RL_LINEAR, .e0 = 1, .e1 = 0.05, .n = 1e5 }, .budget = (size_t)4 << 30,
                    .seed = 1 };
    const char *why;
    if (rl_pool_parse(pool, c.pool, &why) != 0)
        return;
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
    run("Q-learning, self-play, perfect keys", 5, RL_QLEARNING, "self", false, false, base);
    run("Q-learning, self-play, view keys", 5, RL_QLEARNING, "self", true, false, base);
    run("SARSA against the bridge builder", 5, RL_SARSA, "bridge", true, false, base);
    base = playouts_per_second(HX_CLASSICAL, 3, 3);
    printf("on 3x3 classical, the rl-train pool (random playouts: %.0f games/s)\n", base);
    run("Q-learning, pool, no symmetry", 3, RL_QLEARNING, "self:1,random:4,bridge:1", false, false, base);
    run("Q-learning, pool, symmetry", 3, RL_QLEARNING, "self:1,random:4,bridge:1", false, true, base);
    return 0;
}
