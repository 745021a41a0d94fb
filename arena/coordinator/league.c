/* arena/coordinator/league.c — league schedules and their opening suites (see league.h). */
#include "league.h"
#include "mix.h"
#include "mode.h"

#include <stdio.h>
#include <stdlib.h>
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

void lg_suites_free(lg_suites *s)
{
    for (int v = 0; v < HX_VARIANT_COUNT; v++)
        for (int b = 0; b < CFG_MAX_BOARDS; b++) {
            free(s->suite[v][b].openings);
            s->suite[v][b].openings = NULL;
            s->suite[v][b].n = 0;
        }
}

int lg_suites_make(const cfg_league *c, const op_book *book, lg_suites *s, char *note, size_t notelen)
{
    memset(s, 0, sizeof *s);
    note[0] = '\0';
    bool none = strcmp(c->openings, "none") == 0, random = strcmp(c->openings, "random") == 0;
    int pairs = c->per_pairing / 2, short_suites = 0;
    for (int v = 0; v < HX_VARIANT_COUNT; v++) {
        if (!(c->games.variants & (1u << v)) || none)
            continue;
        for (int b = 0; b < c->games.n_boards; b++) {
            int rows = c->games.boards[b][0], cols = c->games.boards[b][1];
            lg_suite *su = &s->suite[v][b];
            int most = pairs + c->mode->extra_pairs;
            int want = random ? (most < LG_SUITE_MAX ? most : LG_SUITE_MAX)
                              : op_book_suite(book, (hx_variant)v, rows, cols, NULL, 0);
            if (want > 0 && !(su->openings = calloc((size_t)want, sizeof *su->openings))) {
                lg_suites_free(s);
                return -1;
            }
            su->n = want <= 0 ? 0
                    : random ? op_random_suite(c->seed, (hx_variant)v, rows, cols, c->opening_stones, want,
                                               su->openings)
                             : op_book_suite(book, (hx_variant)v, rows, cols, su->openings, want);
            if (su->n < pairs && !(random && c->opening_stones == 0)) {
                if (short_suites++ == 0)
                    snprintf(note, notelen, "%s %dx%d has %d opening%s for %d game pairs per pairing",
                             hx_variant_name((hx_variant)v), rows, cols, su->n, su->n == 1 ? "" : "s", pairs);
            }
        }
    }
    return short_suites;
}

unsigned lg_game_flags(const cfg_league *c, hx_variant v, int rows, int cols)
{
    return c->swap && v == HX_HEX && rows == cols ? HX_SWAP_RULE : 0;
}

int lg_challenger(const cfg_league *c)
{
    if (!c->mode->challenger)
        return -1;
    for (int i = 0; i < c->n_agents; i++)
        if (strcmp(c->agents[i].name, c->challenger) == 0)
            return i;
    return -1;
}

int lg_first(const cfg_league *c, int i, int j)
{
    int challenger = lg_challenger(c);
    if (j == challenger || i == challenger)
        return challenger;
    return i < j ? i : j;
}

void lg_pair(const cfg_league *c, const lg_suites *s, int v, int b, int first, int second, int pair, int pos,
             store_planned out[2])
{
    const lg_suite *su = s ? &s->suite[v][b] : NULL;
    for (int g = 0; g < 2; g++) {
        store_planned *p = &out[g];
        memset(p, 0, sizeof *p);
        p->n = pos + g;
        p->variant = (hx_variant)v;
        p->rows = c->games.boards[b][0];
        p->cols = c->games.boards[b][1];
        int black = g == 0 ? first : second, white = g == 0 ? second : first;
        snprintf(p->black, sizeof p->black, "%s", c->agents[black].name);
        snprintf(p->white, sizeof p->white, "%s", c->agents[white].name);
        p->seed = game_seed(c->seed, pos + g);
        p->pair = pair;
        if (su && su->n > 0) {
            const op_opening *o = &su->openings[pair % su->n];
            p->opening_len = o->n < STORE_OPENING_MAX ? o->n : STORE_OPENING_MAX;
            memcpy(p->opening, o->cells, sizeof p->opening[0] * (size_t)p->opening_len);
        }
    }
}

/* Whether agents i < j meet in a schedule known at the start: every pair, or with a challenger its pairs. */
static bool meet(int challenger, int i, int j)
{
    return challenger < 0 || i == challenger || j == challenger;
}

int lg_plan(const cfg_league *c, const cfg_games *plays, const lg_suites *s, store_planned *out)
{
    int n = 0, challenger = lg_challenger(c);
    for (int v = 0; v < HX_VARIANT_COUNT; v++) {
        if (!(c->games.variants & (1u << v)))
            continue;
        for (int b = 0; b < c->games.n_boards; b++) {
            int rows = c->games.boards[b][0], cols = c->games.boards[b][1];
            for (int i = 0; i < c->n_agents; i++)
                for (int j = i + 1; j < c->n_agents; j++) {
                    if (!meet(challenger, i, j) || !lg_plays(&plays[i], v, rows, cols) ||
                        !lg_plays(&plays[j], v, rows, cols))
                        continue;
                    int first = lg_first(c, i, j), second = first == i ? j : i;
                    for (int m = 0; m < c->per_pairing / 2; m++, n += 2)
                        if (out)
                            lg_pair(c, s, v, b, first, second, m, n, &out[n]);
                }
        }
    }
    return n;
}

long long lg_count(const cfg_league *c, const cfg_games *plays)
{
    int challenger = lg_challenger(c);
    long long n = 0;
    for (int v = 0; v < HX_VARIANT_COUNT; v++) {
        if (!(c->games.variants & (1u << v)))
            continue;
        for (int b = 0; b < c->games.n_boards; b++) {
            int rows = c->games.boards[b][0], cols = c->games.boards[b][1];
            long long pairs = 0;
            for (int i = 0; i < c->n_agents; i++)
                for (int j = i + 1; j < c->n_agents; j++)
                    if (meet(challenger, i, j) &&
                        (!plays || (lg_plays(&plays[i], v, rows, cols) && lg_plays(&plays[j], v, rows, cols))))
                        pairs++;
            n += pairs * c->per_pairing;
        }
    }
    return n;
}
