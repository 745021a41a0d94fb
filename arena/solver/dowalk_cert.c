/* arena/solver/dowalk_cert.c — a value certificate of the tree-free double oracle's mixtures (dowalk_cert.h):
 * each player's mixture of pure strategies turned into the realisation-equivalent behaviour strategy, state by
 * state on the rules engine, then written and checked as any other (valcert_write.h). */
#include "dowalk_cert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "valcert.h"

typedef struct {
    const dw_mixture *m;
    int *buf;          /* members, one block of m->k per depth: those consistent with p's own play so far */
    int *n;            /* how many of them, per depth */
    int *choice;       /* per consistent member, the index of its attempt in legal: one block of m->k per depth */
    dw_memo *memo;     /* default cells */
} dc_walk;

/* The members still consistent with p's own play share the probability of each attempt by their weights
 * (vw_list_player). */
static int dc_state(void *ctx, const hx_game *g, uint64_t key, int m, const uint16_t *legal, double *prob,
                    bool *played, int depth)
{
    dc_walk *w = ctx;
    size_t block = (size_t)depth * (size_t)w->m->k; /* a mixture may have more members than cells */
    const int *in = w->buf + block;
    int *choice = w->choice + block;
    double sum = 0;
    for (int i = 0; i < w->n[depth]; i++) {
        int cell = dw_pure_play_key(w->m->member[in[i]], g, key, w->memo), k = 0;
        while (k < m && legal[k] != cell)
            k++;
        if (k == m)
            return -1; /* not a legal attempt: never from dw_pure_play */
        choice[i] = k;
        prob[k] += w->m->weight[in[i]];
        sum += w->m->weight[in[i]];
    }
    for (int k = 0; k < m; k++) {
        prob[k] /= sum;
        played[k] = prob[k] > 0;
    }
    return 0;
}

/* Before p's attempt k at `depth` is walked: the members that make it. */
static void dc_descend(void *ctx, int k, int depth)
{
    dc_walk *w = ctx;
    size_t block = (size_t)depth * (size_t)w->m->k;
    const int *in = w->buf + block, *choice = w->choice + block;
    int *sub = w->buf + block + (size_t)w->m->k, ns = 0;
    for (int i = 0; i < w->n[depth]; i++)
        if (choice[i] == k)
            sub[ns++] = in[i];
    w->n[depth + 1] = ns;
}

int dw_behaviour(hx_variant v, int rows, int cols, int p, const dw_mixture *m, uint64_t max_histories,
                 vw_states *s, char *err, size_t errlen)
{
    hx_game g;
    if (m->k < 1 || !dw_supported(v, rows, cols, &(const char *){ NULL }) || hx_new(&g, v, rows, cols, 0) != 0) {
        snprintf(err, errlen, m->k < 1 ? "an empty mixture" : "not a game the walk handles");
        return -1;
    }
    dc_walk w = { .m = m, .memo = dw_memo_new() };
    /* a player makes at most rows * cols attempts a game */
    int depths = rows * cols + 2;
    size_t block = (size_t)m->k * (size_t)depths;
    if (!w.memo || !(w.buf = malloc(sizeof *w.buf * block)) || !(w.choice = malloc(sizeof *w.choice * block)) ||
        !(w.n = malloc(sizeof *w.n * (size_t)depths))) {
        free(w.buf), free(w.choice);
        dw_memo_free(w.memo);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < m->k; i++)
        w.buf[i] = i;
    w.n[0] = m->k;
    bool over_cap = false;
    int rc = vw_list_player(s, &g, p, cols, max_histories, dc_state, dc_descend, &w, &over_cap);
    free(w.buf), free(w.choice), free(w.n);
    dw_memo_free(w.memo);
    if (rc != 0)
        snprintf(err, errlen, over_cap ? "more than %llu histories to list %s's strategy" : "out of memory",
                 (unsigned long long)max_histories, p ? "White" : "Black");
    return rc;
}

int dw_write_certificate(hx_variant v, int rows, int cols, const dw_mixture mix[2], const vw_options *o,
                         const char *path, vw_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    double t0 = clk_now();
    vw_states s = { 0 };
    int rc = -1;
    for (int p = 0; p < 2; p++)
        if (dw_behaviour(v, rows, cols, p, &mix[p], o->max_states, &s, err, errlen) != 0)
            goto done;
    rc = vw_write_states(&s, v, rows, cols, o, path, r, err, errlen);
done:
    vw_states_free(&s);
    r->seconds = clk_now() - t0;
    return rc;
}
