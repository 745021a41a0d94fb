/* arena/solver/doseq_cert.c — the certificate of a restricted game's exact equilibrium (doseq_cert.h): the
 * walk listing each player's states on the rules engine, their rational probabilities, the writer. */
#include "doseq_cert.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "dowalk.h"
#include "dwdefault.h"
#include "valcert.h"

typedef struct {
    const sv_tree *t;
    mpq_t *const *policy;
    int p;
    dw_memo *memo;  /* default cells */
} xc_walk;

/* p's probabilities at g (vw_list_player): the restricted tree's where it has the state, else the default
 * cell's (as there) with probability 1. */
static int xc_state(void *ctx, const hx_game *g, uint64_t key, int m, const uint16_t *legal, double *prob,
                    bool *played, int depth)
{
    (void)depth;
    const xc_walk *w = ctx;
    int64_t idx = sv_tree_find(w->t, w->p, key);
    if (idx < 0) { /* outside the restricted game */
        int cell = dw_default_memo(w->memo, g);
        for (int k = 0; k < m; k++)
            if (legal[k] == cell)
                prob[k] = 1, played[k] = true;
        return 0;
    }
    const sv_infoset *is = &w->t->infosets[idx];
    for (int a = 0; a < is->n; a++)
        for (int k = 0; k < m; k++)
            if (legal[k] == w->t->actions[is->offset + a]) {
                prob[k] = mpq_get_d((*w->policy)[is->offset + a]);
                played[k] = mpq_sgn((*w->policy)[is->offset + a]) > 0;
            }
    return 0;
}

/* Candidate policy's probabilities at every state listed in s into q: the restricted tree's where it has the
 * state, else the default cell (listed with probability 1 by xc_state). */
static void xc_rationals(const vw_states *s, const sv_tree *t, mpq_t *const policy, mpq_t *q)
{
    for (uint32_t i = 0; i < s->table.n_infosets; i++) {
        const sv_infoset *ls = &s->table.infosets[i];
        int64_t idx = sv_tree_find(t, ls->player, ls->key);
        if (idx < 0) { /* the default cell, listed with probability 1 */
            for (int k = 0; k < ls->n; k++)
                mpq_set_ui(q[ls->offset + k], s->prob[ls->offset + k] == 1.0, 1);
            continue;
        }
        const sv_infoset *is = &t->infosets[idx];
        for (int a = 0; a < is->n; a++)
            for (int k = 0; k < ls->n; k++)
                if (s->table.actions[ls->offset + k] == t->actions[is->offset + a])
                    mpq_set(q[ls->offset + k], policy[is->offset + a]);
    }
}

int ds_write_exact_certificate(hx_variant v, int rows, int cols, const sv_tree *t, mpq_t *const *policy, int k,
                               const vw_options *o, const char *path, vw_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    double t0 = clk_now();
    hx_game g;
    if (!dw_supported(v, rows, cols, &(const char *){ NULL }) || hx_new(&g, v, rows, cols, 0) != 0) {
        snprintf(err, errlen, "not a game the sequence oracle handles");
        return -1;
    }
    vw_states s = { 0 };
    dw_memo *memo = dw_memo_new();
    mpq_t *q[DS_MAX_CANDIDATES] = { NULL };
    uint32_t nq = 0;
    int rc = -1;
    if (k < 1 || k > DS_MAX_CANDIDATES || !memo) {
        if (memo)
            snprintf(err, errlen, "%d candidate strategies (1 to %d)", k, DS_MAX_CANDIDATES);
        else
            snprintf(err, errlen, "out of memory");
        dw_memo_free(memo);
        return -1;
    }
    for (int c = 0; c < k; c++)
        for (int p = 0; p < 2; p++) {
            xc_walk w = { .t = t, .policy = &policy[c], .p = p, .memo = memo };
            bool over_cap = false;
            if (vw_list_player(&s, &g, p, cols, o->max_states, xc_state, NULL, &w, &over_cap) != 0) {
                snprintf(err, errlen, over_cap ? "more than %llu histories to list %s's strategy" : "out of memory",
                         (unsigned long long)o->max_states, p ? "White" : "Black");
                goto done;
            }
        }
    nq = s.table.n_actions;
    for (int c = 0; c < k; c++) {
        if (!(q[c] = malloc(sizeof *q[c] * (nq ? nq : 1)))) {
            snprintf(err, errlen, "out of memory");
            goto done;
        }
        for (uint32_t i = 0; i < nq; i++)
            mpq_init(q[c][i]);
        xc_rationals(&s, t, policy[c], q[c]);
    }
    rc = vw_write_states_exact(&s, q, k, v, rows, cols, o, path, r, err, errlen);
done:
    for (int c = 0; c < k; c++) {
        for (uint32_t i = 0; q[c] && i < nq; i++)
            mpq_clear(q[c][i]);
        free(q[c]);
    }
    vw_states_free(&s);
    dw_memo_free(memo);
    r->seconds = clk_now() - t0;
    return rc;
}
