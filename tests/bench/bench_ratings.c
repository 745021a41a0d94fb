/* tests/bench/bench_ratings.c — rating fit speed: 50 players and 1,000,000 games drawn from the model
 * (counting them into pairings is timed too), the maximum-likelihood fit alone, and 1,000 bootstrap
 * resamples; the baseline is one pass over the games (reading them), measured in the same run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bt.h"
#include "rng.h"
#include "clock.h"

int main(void)
{
    enum { N = 50, GAMES = 1000000 };
    rng_state rng;
    rng_seed(&rng, 1);
    double truth[N];
    for (int i = 0; i < N; i++)
        truth[i] = -600 + 1200.0 * i / (N - 1);
    int *black = malloc(sizeof *black * GAMES), *white = malloc(sizeof *white * GAMES);
    unsigned char *won = malloc(GAMES);
    if (!black || !white || !won)
        return 1;
    for (int k = 0; k < GAMES; k++) {
        int b = (int)rng_below(&rng, N), w = (int)rng_below(&rng, N - 1);
        w += w >= b;
        double p = 1 / (1 + pow(10, -(truth[b] - truth[w] + 50) / 400));
        black[k] = b, white[k] = w;
        won[k] = (double)(rng_next(&rng) >> 11) * 0x1.0p-53 < p;
    }
    double t0 = clk_now();
    long sum = 0;
    for (int k = 0; k < GAMES; k++)
        sum += black[k] + white[k] + won[k];
    double pass = clk_now() - t0;

    rt_data d;
    rt_data_init(&d, N, 1);
    t0 = clk_now();
    for (int k = 0; k < GAMES; k++) {
        *rt_cell(&d, d.games, 0, black[k], white[k]) += 1;
        *rt_cell(&d, d.wins, 0, black[k], white[k]) += won[k];
    }
    double count = clk_now() - t0;
    rt_options o = { .prior = 1, .anchor = -1, .bootstrap = 0, .seed = 1 };
    rt_fit f;
    t0 = clk_now();
    rt_fit_all(&d, &o, &f);
    double fit = clk_now() - t0;
    double err = 0, mean = 0;
    for (int i = 0; i < N; i++)
        mean += truth[i] / N;
    for (int i = 0; i < N; i++)
        err = fmax(err, fabs(f.elo[i] - (truth[i] - mean)));
    int iterations = f.iterations;
    rt_fit_free(&f);
    o.bootstrap = 1000;
    t0 = clk_now();
    rt_fit_all(&d, &o, &f);
    double boot = clk_now() - t0 - fit;
    printf("ratings: Bradley-Terry with first-move advantage, %d players, %d games (checksum %ld)\n", N, GAMES, sum);
    printf("  one pass over the games (baseline)   %8.1f ms\n", pass * 1e3);
    printf("  counting games into pairings          %8.1f ms  (%.1fx the pass)\n", count * 1e3, count / pass);
    printf("  maximum-likelihood fit                %8.1f ms  (%d Newton iterations; worst error %.1f Elo)\n",
           fit * 1e3, iterations, err);
    printf("  1000 bootstrap resamples and refits   %8.1f ms  (%.2f ms each; 95%% interval of player 0: +-%.0f)\n",
           boot * 1e3, boot, (f.hi[0] - f.lo[0]) / 2);
    rt_fit_free(&f);
    rt_data_free(&d);
    free(black);
    free(white);
    free(won);
    return 0;
}
