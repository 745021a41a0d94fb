/* arena/coordinator/league.c — league schedules (see league.h). */
#include "league.h"
#include "mix.h"

#include <stdio.h>
#include <string.h>

bool lg_plays(const cfg_games *plays, int v, int rows, int cols)
{
    if (!(plays->variants & (1u << v)))
        return false;
    if (plays->n_boards == 0)
        return true;
    for (int i = 0; i < plays->n_boards; i++)
        if (plays->boards[i][0] == rows && plays->boards[i][1] == cols)
            return true;
    return false;
}

static uint64_t game_seed(uint64_t seed, int n)
{
    return mix_stream(seed, (uint64_t)n) >> 1; /* 63 bits: an SQLite integer */
}

int lg_plan(const cfg_league *c, const cfg_games *plays, store_planned *out)
{
    int n = 0, challenger = -1;
    if (c->mode == CFG_GAUNTLET)
        for (int i = 0; i < c->n_agents; i++)
            if (strcmp(c->agents[i].name, c->challenger) == 0)
                challenger = i;
    for (int v = 0; v < HX_VARIANT_COUNT; v++) {
        if (!(c->games.variants & (1u << v)))
            continue;
        for (int b = 0; b < c->games.n_boards; b++) {
            int rows = c->games.boards[b][0], cols = c->games.boards[b][1];
            for (int k = 0; k < c->per_pairing; k++)
                for (int i = 0; i < c->n_agents; i++)
                    for (int j = i + 1; j < c->n_agents; j++) {
                        if (challenger >= 0 && i != challenger && j != challenger)
                            continue;
                        if (!lg_plays(&plays[i], v, rows, cols) || !lg_plays(&plays[j], v, rows, cols))
                            continue;
                        if (out) {
                            store_planned *p = &out[n];
                            p->id = 0;
                            p->n = n;
                            p->variant = (hx_variant)v;
                            p->rows = rows;
                            p->cols = cols;
                            int black = k % 2 == 0 ? i : j, white = black == i ? j : i;
                            snprintf(p->black, sizeof p->black, "%s", c->agents[black].name);
                            snprintf(p->white, sizeof p->white, "%s", c->agents[white].name);
                            p->seed = game_seed(c->seed, n);
                        }
                        n++;
                    }
        }
    }
    return n;
}

long long lg_count(const cfg_league *c, const cfg_games *plays)
{
    int challenger = -1;
    if (c->mode == CFG_GAUNTLET)
        for (int i = 0; i < c->n_agents; i++)
            if (strcmp(c->agents[i].name, c->challenger) == 0)
                challenger = i;
    long long n = 0;
    for (int v = 0; v < HX_VARIANT_COUNT; v++) {
        if (!(c->games.variants & (1u << v)))
            continue;
        for (int b = 0; b < c->games.n_boards; b++) {
            int rows = c->games.boards[b][0], cols = c->games.boards[b][1];
            long long pairs = 0;
            for (int i = 0; i < c->n_agents; i++)
                for (int j = i + 1; j < c->n_agents; j++)
                    if ((challenger < 0 || i == challenger || j == challenger) &&
                        (!plays || (lg_plays(&plays[i], v, rows, cols) && lg_plays(&plays[j], v, rows, cols))))
                        pairs++;
            n += pairs * c->per_pairing;
        }
    }
    return n;
}
