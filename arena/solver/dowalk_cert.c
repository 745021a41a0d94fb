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
    int p, cols;
    vw_states *s;
    uint64_t histories, max_histories;
    int *buf;          /* members, one block of m->k per depth */
    int *choice;       /* per consistent member, the index of its attempt in legal: one block of m->k per depth */
    bool over_cap;
    dw_memo *memo;     /* default cells */
} dc_walk;

/* Walks every history in which p plays only attempts some member of `in` (n of them) would make, the
 * opponent anything; at each of p's states the members still consistent with p's own play share the
 * probability of each attempt by their weights. */
static int dc_list(dc_walk *w, const hx_game *g, const int *in, int n, int64_t parent, int depth)
{
    if (hx_over(g))
        return 0;
    if (w->max_histories && ++w->histories > w->max_histories) {
        w->over_cap = true;
        return -1;
    }
    uint16_t legal[HX_MAX_CELLS + 1];
    int m = hx_legal(g, legal);
    if (hx_to_move(g) != w->p) {
        for (int k = 0; k < m; k++) {
            hx_game c = *g;
            hx_attempt(&c, legal[k]);
            if (dc_list(w, &c, in, n, parent, depth) != 0)
                return -1;
        }
        return 0;
    }
    int *choice = w->choice + (size_t)depth * (size_t)w->m->k; /* a mixture may have more members than cells */
    double prob[HX_MAX_CELLS + 1] = { 0 }, sum = 0;
    for (int i = 0; i < n; i++) {
        int cell = dw_pure_play(w->m->member[in[i]], g, w->memo), k = 0;
        while (legal[k] != cell)
            k++;
        choice[i] = k;
        prob[k] += w->m->weight[in[i]];
        sum += w->m->weight[in[i]];
    }
    for (int k = 0; k < m; k++)
        prob[k] /= sum;
    uint64_t key = hx_key_fingerprint(g, w->p);
    int64_t at = sv_tree_find(&w->s->table, w->p, key);
    if (at < 0) {
        hx_event ev[HX_MAX_EVENTS];
        char h[VC_HISTORY_MAX];
        vc_history(ev, hx_events(g, w->p, ev), w->cols, h);
        if ((at = vw_states_add(w->s, w->p, key, h, parent, m, legal, prob)) < 0)
            return -1;
    }
    uint32_t offset = w->s->table.infosets[at].offset;
    int *sub = w->buf + (size_t)(depth + 1) * (size_t)w->m->k;
    for (int k = 0; k < m; k++) {
        if (!(prob[k] > 0))
            continue;
        int ns = 0;
        for (int i = 0; i < n; i++)
            if (choice[i] == k)
                sub[ns++] = in[i];
        hx_game c = *g;
        hx_attempt(&c, legal[k]);
        if (dc_list(w, &c, sub, ns, (int64_t)offset + k, depth + 1) != 0)
            return -1;
    }
    return 0;
}

int dw_behaviour(hx_variant v, int rows, int cols, int p, const dw_mixture *m, uint64_t max_histories,
                 vw_states *s, char *err, size_t errlen)
{
    hx_game g;
    if (m->k < 1 || !dw_supported(v, rows, cols, &(const char *){ NULL }) || hx_new(&g, v, rows, cols, 0) != 0) {
        snprintf(err, errlen, m->k < 1 ? "an empty mixture" : "not a game the walk handles");
        return -1;
    }
    dc_walk w = { .m = m, .p = p, .cols = cols, .s = s, .max_histories = max_histories, .memo = dw_memo_new() };
    /* a player makes at most rows * cols attempts a game */
    size_t block = (size_t)m->k * (size_t)(rows * cols + 2);
    if (!w.memo || !(w.buf = malloc(sizeof *w.buf * block)) || !(w.choice = malloc(sizeof *w.choice * block))) {
        free(w.buf);
        dw_memo_free(w.memo);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < m->k; i++)
        w.buf[i] = i;
    int rc = dc_list(&w, &g, w.buf, m->k, -1, 0);
    free(w.buf);
    free(w.choice);
    dw_memo_free(w.memo);
    if (rc != 0)
        snprintf(err, errlen, w.over_cap ? "more than %llu histories to list %s's strategy" : "out of memory",
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
