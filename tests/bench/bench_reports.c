/* tests/bench/bench_reports.c — what the reports cost on a big league: a database of N league games (default
 * 20,000: 8 agents, classical and abrupt 5x5, random play, every attempt with a thinking time) written through
 * the store, then the wall time of `arena ratings` (1,000 resamples), `arena plot` and `arena report` on it,
 * next to the baseline measured in the same run: reading every game and every attempt through the store's read
 * side (query.h), which is what the report's thinking-time and forfeit statistics must do at least; and the
 * time `arena merge` takes to put together 4 shard databases of a league of M games (default 100,000), and
 * to merge them again (nothing new). Figures only; nothing is asserted.
 *
 * usage: bench_reports [ARENA [N [M]]]   (default build/bench/bin/arena, 20000, 100000) */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "game.h"
#include "query.h"
#include "store.h"

static const char config[] = "[league]\nname = big\nvariants = classical, abrupt\nboards = 5x5\ngames = 2\n"
                             "[agent a0]\ncommand = bin/random\n[agent a1]\ncommand = bin/random\n"
                             "[agent a2]\ncommand = bin/random\n[agent a3]\ncommand = bin/random\n"
                             "[agent a4]\ncommand = bin/random\n[agent a5]\ncommand = bin/random\n"
                             "[agent a6]\ncommand = bin/random\n[agent a7]\ncommand = bin/random\n";

static double run(const char *cmd)
{
    double t0 = clk_now();
    int rc = system(cmd);
    if (rc != 0)
        fprintf(stderr, "bench_reports: '%s' exited with %d\n", cmd, rc);
    return clk_now() - t0;
}

/* Writes league "big" of n games into a new database at `path`, playing the rows of shard k of `shards` (all
 * of them with 1 of 1); every shard gets the same schedule and secret, as `arena league --shard --secret` does.
 * Returns the seconds it took, or -1. */
static double write_league(const char *path, int n, int k, int shards, long *attempts)
{
    char err[256];
    store_db *s = store_open(path, NULL, err, sizeof err);
    if (!s) {
        fprintf(stderr, "bench_reports: %s\n", err);
        return -1;
    }
    enum { AGENTS = 8 };
    int64_t ids[AGENTS];
    for (int a = 0; a < AGENTS; a++) {
        char name[16];
        snprintf(name, sizeof name, "a%d", a);
        ids[a] = store_agent(s, name, "bin/random", "1.0", "0123456789abcdef");
    }
    store_planned *plan = calloc((size_t)n, sizeof *plan);
    rng_state rng;
    rng_seed(&rng, 7);
    for (int i = 0; i < n; i++) {
        int b = (int)rng_below(&rng, AGENTS), w = (b + 1 + (int)rng_below(&rng, AGENTS - 1)) % AGENTS;
        plan[i] = (store_planned){ .n = i, .variant = i % 2 ? HX_ABRUPT : HX_CLASSICAL, .rows = 5, .cols = 5,
                                   .seed = (uint64_t)i, .pair = -1 };
        snprintf(plan[i].black, sizeof plan[i].black, "a%d", b);
        snprintf(plan[i].white, sizeof plan[i].white, "a%d", w);
    }
    uint8_t secret[16] = { 1, 2, 3 };
    int64_t league = store_league_create(s, "big", config, "sha", 1, plan, n);
    int64_t run_id = store_run_begin(s, "league", "big");
    store_planned *pending;
    int left, total;
    if (league < 0 || run_id < 0 || store_league_secret(s, league, secret, sizeof secret) != 0 ||
        store_league_pending(s, league, &pending, &left, &total) != 0) {
        fprintf(stderr, "bench_reports: %s\n", store_error(s));
        return -1;
    }
    double t0 = clk_now();
    static double think[HX_MAX_ATTEMPTS];
    rng_seed(&rng, 11);
    for (int i = 0; i < left; i++) {
        if (pending[i].n % shards != k - 1)
            continue;
        hx_game g;
        rng_state game_rng;
        rng_seed(&game_rng, pending[i].seed); /* the same game whichever shard plays it */
        hx_new(&g, pending[i].variant, 5, 5, 0);
        while (!hx_over(&g))
            hx_attempt(&g, hx_random_legal(&g, &game_rng));
        for (int q = 0; q < hx_num_attempts(&g); q++)
            think[q] = 0.05 + 0.001 * (double)rng_below(&rng, 5000);
        *attempts += hx_num_attempts(&g);
        store_game_rec rec = { .run = run_id, .black = ids[pending[i].black[1] - '0'],
                               .white = ids[pending[i].white[1] - '0'], .seed = pending[i].seed,
                               .winner = hx_winner(&g), .reason = HX_END_CONNECTED, .seconds = 0.01,
                               .started = "2026-11-24T02:00:00.000Z", .finished = "2026-11-24T02:00:00.010Z",
                               .game = &g, .schedule = pending[i].id, .think_ms = think };
        if (store_game(s, &rec) < 0) {
            fprintf(stderr, "bench_reports: %s\n", store_error(s));
            return -1;
        }
    }
    double seconds = clk_now() - t0;
    store_run_end(s, run_id);
    free(pending);
    free(plan);
    store_close(s);
    return seconds;
}

int main(int argc, char **argv)
{
    const char *arena = argc > 1 ? argv[1] : "build/bench/bin/arena";
    int n = argc > 2 ? atoi(argv[2]) : 20000, merge_n = argc > 3 ? atoi(argv[3]) : 100000;
    char tmp[] = "/tmp/arena-bench-reports-XXXXXX";
    if (!mkdtemp(tmp) || n <= 0 || merge_n <= 0)
        return 1;
    char db[128], err[256];
    snprintf(db, sizeof db, "%s/big.db", tmp);
    long attempts = 0;
    double write = write_league(db, n, 1, 1, &attempts);
    if (write < 0)
        return 1;
    store_db *s = store_open(db, NULL, err, sizeof err);
    if (!s)
        return 1;
    int64_t league = 1;
    /* the baseline: every game and every attempt through the read side */
    double t0 = clk_now();
    store_filter f = { .league = league };
    store_games *q = store_query(s, &f);
    store_game_row row;
    long games = 0, read_attempts = 0;
    double sum = 0;
    while (store_games_next(q, &row) == 1) {
        games++;
        store_transcript *t = store_transcript_open(s, row.id);
        store_attempt_row a;
        while (store_transcript_next(t, &a) == 1) {
            read_attempts++;
            sum += a.ms;
        }
        store_transcript_end(t);
    }
    store_games_end(q);
    double baseline = clk_now() - t0;
    store_close(s);

    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' ratings --db '%s' --bootstrap 1000 >/dev/null", arena, db);
    double ratings = run(cmd);
    snprintf(cmd, sizeof cmd, "'%s' plot --db '%s' --out '%s/plots' >/dev/null", arena, db, tmp);
    double plot = run(cmd);
    snprintf(cmd, sizeof cmd, "'%s' report --db '%s' --out '%s/report' --logs '%s' >/dev/null", arena, db, tmp, tmp);
    double report = run(cmd);

    printf("reports on a league of %ld games (%ld attempts, 8 agents, classical and abrupt 5x5), %s:\n", games,
           read_attempts, arena);
    printf("  written through the store:        %7.2f s (%.0f games/s)\n", write, (double)n / write);
    (void)attempts;
    printf("  baseline, every game and attempt: %7.2f s (%.0f games/s; mean thinking time %.2f ms)\n", baseline,
           (double)games / baseline, sum / (double)(read_attempts ? read_attempts : 1));
    printf("  arena ratings (1,000 resamples):  %7.2f s (%.1fx the baseline)\n", ratings, ratings / baseline);
    printf("  arena plot:                       %7.2f s (%.1fx)\n", plot, plot / baseline);
    printf("  arena report:                     %7.2f s (%.1fx; %.0f games/s)\n", report, report / baseline,
           (double)games / report);

    /* shards: merge_n games written as 4 shard databases, merged into one, then merged again (idempotent) */
    char shard[4][160], list[800] = "";
    long merge_attempts = 0;
    for (int k = 1; k <= 4; k++) {
        snprintf(shard[k - 1], sizeof shard[0], "%s/shard%d.db", tmp, k);
        if (write_league(shard[k - 1], merge_n, k, 4, &merge_attempts) < 0)
            return 1;
        snprintf(list + strlen(list), sizeof list - strlen(list), " '%s'", shard[k - 1]);
    }
    snprintf(cmd, sizeof cmd, "'%s' merge '%s/merged.db'%s >/dev/null", arena, tmp, list);
    double merge = run(cmd);
    double again = run(cmd);
    printf("  arena merge, 4 shards of %d games (%ld attempts) in all: %.2f s (%.0f games/s); merged again (nothing "
           "new): %.2f s\n",
           merge_n, merge_attempts, merge, merge_n / merge, again);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    return system(cmd) == 0 ? 0 : 1;
}
