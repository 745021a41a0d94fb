/* tests/bench_games.h — the runner callbacks the match and league benchmarks share: `games` classical games on a
 * size x size board, colours alternating, every game played out (a forfeit stops the run), attempts counted. */
#ifndef TESTS_BENCH_GAMES_H
#define TESTS_BENCH_GAMES_H

#include <stdbool.h>
#include <stdio.h>

#include "runner.h"

typedef struct {
    long games, next, attempts;
    int size;
} bench_run;

static inline bool bench_next_game(void *user, rn_game *g)
{
    bench_run *b = user;
    if (b->next >= b->games)
        return false;
    long i = b->next++;
    *g = (rn_game){ .id = (uint64_t)i + 1, .black = (int)(i % 2), .white = (int)(1 - i % 2),
                    .variant = HX_CLASSICAL, .rows = b->size, .cols = b->size, .seed = (uint64_t)i * 7919 + 1 };
    return true;
}

static inline bool bench_finished(void *user, const rn_result *r, char *why, size_t whylen)
{
    bench_run *b = user;
    if (r->reason != HX_END_CONNECTED) {
        snprintf(why, whylen, "game %llu ended by %s: %s", (unsigned long long)r->game->id, hx_end_name(r->reason),
                 r->detail);
        return false;
    }
    b->attempts += hx_num_attempts(r->play);
    return true;
}

#endif
