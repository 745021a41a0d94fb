/* agents/mc/scorer.c — random fill, the two Gale walks and the pivotal-cell scores (scorer.h). */
#include "scorer.h"

#include "clock.h"

/* Marks in mark[]: stamp*3 + MARK_* (stamps never repeat, so old marks never match). */
enum { MARK_HIDDEN = 1, MARK_FIRST_PATH = 2 };

int mc_score_sample(mc_sampler *s, mc_fill fill, rng_state *rng, uint32_t *mark, uint32_t stamp, uint32_t *score)
{
    int h = mc_sample(s, rng);
    if (h < 0)
        return -1;
    int opp = s->color ^ 1, n = s->n_unknown, filled = h;
    uint32_t hidden = stamp * 3 + MARK_HIDDEN, first = stamp * 3 + MARK_FIRST_PATH;
    for (int i = 0; i < h; i++)
        mark[s->unknown[i]] = hidden;
    if (fill == MC_FILL_ALTERNATE) {
        /* The opponent's floor(E/2) cells: the next part of a Fisher-Yates shuffle. */
        int end = h + (n - h) / 2;
        for (int i = h; i < end; i++) {
            int j = i + (int)rng_below(rng, (uint32_t)(n - i));
            uint16_t c = s->unknown[j];
            s->unknown[j] = s->unknown[i], s->unknown[i] = c;
            gale_set(&s->board, c, opp);
        }
        filled = end;
    } else {
        uint64_t bits = 0;
        for (int i = h; i < n; i++) {
            if ((i - h) % 64 == 0)
                bits = rng_next(rng);
            gale_set(&s->board, s->unknown[i], (bits >> ((i - h) % 64) & 1) ? opp : s->color);
        }
        filled = n;
    }
    uint16_t path[GALE_PATH_MAX];
    int len;
    int winner = gale_walk(&s->board, GALE_TOP_LEFT, path, &len);
    for (int i = 0; i < len; i++)
        if (s->view[path[i]] == HX_VIEW_UNKNOWN && mark[path[i]] != hidden)
            mark[path[i]] = first;
    gale_walk(&s->board, GALE_BOTTOM_RIGHT, path, &len);
    for (int i = 0; i < len; i++)
        if (mark[path[i]] == first) {
            score[path[i]]++;
            mark[path[i]] = hidden; /* counted once */
        }
    mc_sampler_reset(s, filled);
    return winner;
}

int mc_choose(mc_sampler *s, const mc_options *o, rng_state *rng, mc_result *r)
{
    mc_result local;
    mc_result *res = r ? r : &local;
    uint32_t mark[HX_MAX_CELLS] = { 0 };
    res->samples = res->failed = 0;
    for (int i = 0; i < s->cells; i++)
        res->score[i] = 0;
    double t0 = clk_now();
    for (uint32_t stamp = 1;; stamp++) {
        if (o->samples > 0 && res->samples + res->failed >= o->samples)
            break;
        if (o->seconds > 0 && stamp % 16 == 1 && clk_now() - t0 >= o->seconds)
            break;
        if (mc_score_sample(s, o->fill, rng, mark, stamp, res->score) < 0)
            res->failed++;
        else
            res->samples++;
    }
    res->seconds = clk_now() - t0;
    /* The best unknown cell, ties broken uniformly (reservoir choice). */
    int best = -1;
    uint32_t top = 0, ties = 0;
    for (int i = 0; i < s->n_unknown; i++) {
        int c = s->unknown[i];
        if (best < 0 || res->score[c] > top) {
            best = c, top = res->score[c], ties = 1;
        } else if (res->score[c] == top && rng_below(rng, ++ties) == 0) {
            best = c;
        }
    }
    return best;
}
