/* arena/solver/valcert_write.c — a value certificate from a solved tree (valcert_write.h): the histories of
 * the tree's information states read off the rules engine, the solver's probabilities rounded to rationals
 * by continued fractions and renormalised exactly, the bounds computed by the certificate's checker. */
#define _POSIX_C_SOURCE 200809L
#include "valcert_write.h"

#include <gmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "grow.h"
#include "valcert.h"

void vw_options_default(vw_options *o)
{
    *o = (vw_options){ .den_min = 10, .den_max = 1000000000ull, .max_states = 0, .first = -1 };
}

void vw_result_free(vw_result *r)
{
    free(r->lower), free(r->upper);
    r->lower = r->upper = NULL;
}

/* ---- the states to certify ----------------------------------------------------------------------------- */

void vw_states_free(vw_states *s)
{
    if (s->history)
        for (uint32_t i = 0; i < s->table.n_infosets; i++)
            free(s->history[i]);
    free(s->history), free(s->parent), free(s->prob);
    sv_tree_free(&s->table);
    memset(s, 0, sizeof *s);
}

int64_t vw_states_add(vw_states *s, int player, uint64_t key, const char *history, int64_t parent, int n,
                      const uint16_t *cells, const double *probs)
{
    uint32_t before = s->table.n_infosets;
    int64_t k = sv_tree_intern(&s->table, player, key, 0, cells, n);
    if (k < 0 || s->table.n_infosets == before)
        return k;
    if (s->table.n_infosets > s->cap_states) {
        uint32_t cap = grow_capacity(s->cap_states, s->table.n_infosets, 1024);
        if (!cap || !grow_resize(&s->history, sizeof *s->history, cap) || !grow_resize(&s->parent, sizeof *s->parent, cap))
            return -1;
        s->cap_states = cap;
    }
    if (s->table.n_actions > s->cap_probs) {
        uint32_t cap = grow_capacity(s->cap_probs, s->table.n_actions, 4096);
        if (!cap || !grow_resize(&s->prob, sizeof *s->prob, cap))
            return -1;
        s->cap_probs = cap;
    }
    if (!(s->history[k] = strdup(history)))
        return -1;
    s->parent[k] = parent;
    memcpy(s->prob + s->table.infosets[k].offset, probs, sizeof *probs * (size_t)n);
    return k;
}

/* vw_list_player's walk. */
typedef struct {
    vw_states *s;
    int p, cols;
    uint64_t histories, max_histories;
    bool over_cap;
    vw_state_fn at;
    vw_descend_fn descend;
    void *ctx;
} vw_player_walk;

/* h: p's key hash at g, unfinished (hx_key_extend()). */
static int vw_player_list(vw_player_walk *w, const hx_game *g, uint64_t h, int64_t parent, int depth)
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
            if (vw_player_list(w, &c, hx_key_extend(&c, w->p, h), parent, depth) != 0)
                return -1;
        }
        return 0;
    }
    double prob[HX_MAX_CELLS + 1] = { 0 };
    bool played[HX_MAX_CELLS + 1] = { false };
    uint64_t key = hx_key_finish(h);
    if (w->at(w->ctx, g, key, m, legal, prob, played, depth) != 0)
        return -1;
    int64_t at = sv_tree_find(&w->s->table, w->p, key);
    if (at < 0) {
        hx_event ev[HX_MAX_EVENTS];
        char history[VC_HISTORY_MAX];
        vc_history(ev, hx_events(g, w->p, ev), w->cols, history);
        if ((at = vw_states_add(w->s, w->p, key, history, parent, m, legal, prob)) < 0)
            return -1;
    }
    uint32_t offset = w->s->table.infosets[at].offset;
    for (int k = 0; k < m; k++) {
        if (!played[k])
            continue;
        if (w->descend)
            w->descend(w->ctx, k, depth);
        hx_game c = *g;
        hx_attempt(&c, legal[k]);
        if (vw_player_list(w, &c, hx_key_extend(&c, w->p, h), (int64_t)offset + k, depth + 1) != 0)
            return -1;
    }
    return 0;
}

int vw_list_player(vw_states *s, const hx_game *g, int p, int cols, uint64_t max_histories, vw_state_fn at,
                   vw_descend_fn descend, void *ctx, bool *over_cap)
{
    vw_player_walk w = { .s = s, .p = p, .cols = cols, .max_histories = max_histories, .at = at,
                         .descend = descend, .ctx = ctx };
    uint16_t key[HX_MAX_EVENTS];
    uint64_t h = HX_KEY_SEED;
    for (int i = 0, n = hx_key(g, p, key); i < n; i++)
        h = hx_key_step(h, key[i]);
    int rc = vw_player_list(&w, g, h, -1, 0);
    if (over_cap)
        *over_cap = w.over_cap;
    return rc;
}

/* The tree's states as the rules engine meets them, depth first, with the tree's probabilities. */
typedef struct {
    const sv_tree *t;
    const double *policy;
    vw_states *s;
    int cols;
    char *err;
    size_t errlen;
} vw_walk;

static int vw_list(vw_walk *w, const hx_game *g, const int64_t parent[2])
{
    if (hx_over(g))
        return 0;
    int q = hx_to_move(g);
    uint64_t key = hx_key_fingerprint(g, q);
    int64_t idx = sv_tree_find(w->t, q, key);
    uint16_t legal[HX_MAX_CELLS + 1];
    int m = hx_legal(g, legal);
    hx_event ev[HX_MAX_EVENTS];
    char h[VC_HISTORY_MAX] = "";
    int64_t at = sv_tree_find(&w->s->table, q, key);
    if (at < 0)
        vc_history(ev, hx_events(g, q, ev), w->cols, h);
    if (idx < 0) {
        snprintf(w->err, w->errlen, "the tree has no information state for %s's history %.200s (a tree of another game?)",
                 q ? "White" : "Black", h);
        return -1;
    }
    const sv_infoset *is = &w->t->infosets[idx];
    bool same = is->n == m && is->player == q;
    for (int k = 0; same && k < m; k++)
        same = w->t->actions[is->offset + k] == legal[k];
    if (!same) {
        snprintf(w->err, w->errlen, "the tree's information state %lld lists other attempts than the game", (long long)idx);
        return -1;
    }
    if (at < 0 && (at = vw_states_add(w->s, q, key, h, parent[q], m, legal, w->policy + is->offset)) < 0) {
        snprintf(w->err, w->errlen, "out of memory");
        return -1;
    }
    for (int k = 0; k < m; k++) {
        hx_game c;
        hx_copy(&c, g);
        hx_attempt(&c, legal[k]);
        int64_t next[2] = { parent[0], parent[1] };
        next[q] = (int64_t)w->s->table.infosets[at].offset + k;
        if (vw_list(w, &c, next) != 0)
            return -1;
    }
    return 0;
}

/* ---- rounding ------------------------------------------------------------------------------------------- */

/* The best rational approximation num/den of x in [0, 1] with den <= max_den (continued fractions: the last
 * convergent within the bound, or the semiconvergent after it when that is closer). */
static void vw_round(double x, uint64_t max_den, uint64_t *num, uint64_t *den)
{
    if (!(x > 0)) {
        *num = 0, *den = 1;
        return;
    }
    if (x >= 1) {
        *num = 1, *den = 1;
        return;
    }
    long double r = x;
    uint64_t h0 = 0, h1 = 1, k0 = 1, k1 = 0; /* convergents h/k: n-2 and n-1 */
    for (int i = 0; i < 64; i++) {
        long double af = floorl(r);
        uint64_t a = af > 1e18L ? (uint64_t)1e18 : (uint64_t)af;
        if (k1 && a > (max_den - k0) / k1) {
            uint64_t s = (max_den - k0) / k1; /* the largest semiconvergent within the bound */
            if (s) {
                uint64_t hs = s * h1 + h0, ks = s * k1 + k0;
                if (fabsl((long double)x - (long double)hs / ks) < fabsl((long double)x - (long double)h1 / k1))
                    h1 = hs, k1 = ks;
            }
            break;
        }
        uint64_t h2 = a * h1 + h0, k2 = a * k1 + k0;
        h0 = h1, k0 = k1, h1 = h2, k1 = k2;
        long double frac = r - af;
        if (frac < 1e-30L || (long double)h1 / k1 == (long double)x)
            break;
        r = 1 / frac;
    }
    *num = h1, *den = k1;
}

/* Every state's probabilities rounded with denominators up to max_den into q, each state's made to sum to
 * exactly 1: the difference goes to its largest probability (or, should that turn it negative, all are
 * divided by their sum). */
static void vw_round_all(const vw_states *s, uint64_t max_den, mpq_t *q)
{
    mpq_t sum, d;
    mpq_inits(sum, d, NULL);
    for (uint32_t i = 0; i < s->table.n_infosets; i++) {
        const sv_infoset *is = &s->table.infosets[i];
        const double *policy = s->prob + is->offset;
        mpq_t *r = q + is->offset;
        mpq_set_ui(sum, 0, 1);
        int big = 0;
        for (int k = 0; k < is->n; k++) {
            uint64_t num, den;
            vw_round(policy[k], max_den, &num, &den);
            mpq_set_ui(r[k], (unsigned long)num, (unsigned long)den);
            mpq_canonicalize(r[k]);
            mpq_add(sum, sum, r[k]);
            if (policy[k] > policy[big])
                big = k;
        }
        if (!mpq_sgn(sum)) {
            mpq_set_ui(r[big], 1, 1);
            continue;
        }
        mpq_set_ui(d, 1, 1);
        mpq_sub(d, d, sum);
        mpq_add(d, d, r[big]);
        if (mpq_sgn(d) >= 0) {
            mpq_set(r[big], d);
        } else {
            for (int k = 0; k < is->n; k++)
                mpq_div(r[k], r[k], sum);
        }
    }
    mpq_clears(sum, d, NULL);
}

/* ---- the certificate ------------------------------------------------------------------------------------ */

/* The certificate of Black's strategy probs[0] and White's probs[1] (each laid out like s->table.actions;
 * only the player's own states are read), listing the states each player's own strategy reaches: a state
 * whose previous own attempt is reached with positive probability (the states are listed parents first). */
static vc_cert *vw_cert(const vw_states *s, hx_variant v, int rows, int cols, mpq_t *const probs[2], int first,
                        char *err, size_t errlen)
{
    const sv_tree *t = &s->table;
    uint8_t *reached = calloc(t->n_infosets ? t->n_infosets : 1, 1);
    uint32_t *state_of = malloc(sizeof *state_of * (t->n_actions ? t->n_actions : 1));
    vc_cert *c = vc_new(v, rows, cols);
    if (!reached || !state_of || !c) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    if (vc_set_first(c, first) != 0) {
        snprintf(err, errlen, "a first cell off the board");
        goto fail;
    }
    for (uint32_t i = 0; i < t->n_infosets; i++)
        for (int k = 0; k < t->infosets[i].n; k++)
            state_of[t->infosets[i].offset + k] = i;
    for (uint32_t i = 0; i < t->n_infosets; i++) {
        const sv_infoset *is = &t->infosets[i];
        int64_t up = s->parent[i];
        reached[i] = up < 0 || (reached[state_of[up]] && mpq_sgn(probs[is->player][up]));
        if (!reached[i])
            continue;
        mpq_t *p = probs[is->player] + is->offset;
        uint16_t cells[HX_MAX_CELLS];
        char *text[HX_MAX_CELLS];
        int n = 0;
        for (int k = 0; k < is->n; k++)
            if (mpq_sgn(p[k])) {
                cells[n] = t->actions[is->offset + k];
                text[n++] = mpq_get_str(NULL, 10, p[k]);
            }
        int rc = vc_add(c, is->player, s->history[i], n, cells, (const char *const *)text, err, errlen);
        for (int k = 0; k < n; k++)
            free(text[k]);
        if (rc != 0)
            goto fail;
    }
    free(reached);
    free(state_of);
    return c;
fail:
    free(reached);
    free(state_of);
    vc_free(c);
    return NULL;
}

/* Player's best-response value against the other's strategy in c, into v. 0, or -1 with a message. */
static int vw_best_response(const vc_cert *c, int player, uint64_t max_states, mpq_t v, vw_result *r, char *err,
                            size_t errlen)
{
    char *text = NULL;
    vc_report rep;
    int res = vc_best_response(c, player, max_states, &text, &rep);
    r->histories += rep.histories;
    if (res != 1) {
        snprintf(err, errlen, "the checker %s %s's best response: %s", res ? "could not compute" : "refused",
                 player ? "White" : "Black", rep.why);
        return -1;
    }
    mpq_set_str(v, text, 10);
    free(text);
    return 0;
}

/* vw_write_states, or with exact (not NULL) those k candidates' probabilities as they are. */
static int vw_write_from(const vw_states *s, mpq_t *const *exact, int k, hx_variant v, int rows, int cols,
                         const vw_options *o, const char *path, vw_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    double t0 = clk_now();
    int res = -1;
    const sv_tree *t = &s->table;
    uint32_t na = t->n_actions ? t->n_actions : 1;
    mpq_t *cur = malloc(sizeof *cur * na), *best[2] = { malloc(sizeof *cur * na), malloc(sizeof *cur * na) };
    bool init = false;
    vc_cert *c = NULL;
    mpq_t lo, up, best_lo, best_up;
    mpq_inits(lo, up, best_lo, best_up, NULL);
    if (!cur || !best[0] || !best[1]) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < na; i++)
        mpq_inits(cur[i], best[0][i], best[1][i], NULL);
    init = true;
    bool have = false;
    int cand = 0; /* the exact candidate */
    for (uint64_t den = o->den_min ? o->den_min : 1; exact ? cand < k : den <= o->den_max; den *= 10, cand++) {
        if (exact)
            for (uint32_t i = 0; i < na && t->n_actions; i++)
                mpq_set(cur[i], exact[cand][i]);
        else
            vw_round_all(s, den, cur);
        mpq_t *both[2] = { cur, cur };
        if (!(c = vw_cert(s, v, rows, cols, both, o->first, err, errlen)))
            goto done;
        if (vw_best_response(c, 0, o->max_states, up, r, err, errlen) != 0 ||
            vw_best_response(c, 1, o->max_states, lo, r, err, errlen) != 0)
            goto done;
        vc_free(c);
        c = NULL;
        mpq_neg(lo, lo);
        r->trials++;
        if (o->progress)
            o->progress(o->ctx, exact ? 0 : den, mpq_get_d(lo), mpq_get_d(up), r->histories, clk_now() - t0);
        for (int q = 0; q < 2; q++) {
            if (have && mpq_cmp(q ? up : lo, q ? best_up : best_lo) * (q ? -1 : 1) <= 0)
                continue;
            mpq_set(q ? best_up : best_lo, q ? up : lo);
            r->den[q] = exact ? 0 : den;
            for (uint32_t i = 0; i < t->n_infosets; i++)
                if (t->infosets[i].player == q)
                    for (int a = 0; a < t->infosets[i].n; a++)
                        mpq_set(best[q][t->infosets[i].offset + a], cur[t->infosets[i].offset + a]);
        }
        have = true;
        if (!mpq_cmp(best_lo, best_up) || (!exact && den > o->den_max / 10))
            break;
    }
    if (!have) {
        snprintf(err, errlen, "no denominator bound to try (%llu .. %llu)", (unsigned long long)o->den_min,
                 (unsigned long long)o->den_max);
        goto done;
    }
    if (!(c = vw_cert(s, v, rows, cols, best, o->first, err, errlen)))
        goto done;
    r->lower = mpq_get_str(NULL, 10, best_lo);
    r->upper = mpq_get_str(NULL, 10, best_up);
    if (!r->lower || !r->upper || vc_set_bounds(c, r->lower, r->upper, err, errlen) != 0 ||
        vc_save(c, path, err, errlen) != 0)
        goto done;
    r->lower_d = mpq_get_d(best_lo), r->upper_d = mpq_get_d(best_up);
    r->exact = !mpq_cmp(best_lo, best_up);
    hx_variant vv;
    int rr, cc;
    vc_describe(c, &vv, &rr, &cc, r->states);
    res = 0;
done:
    vc_free(c);
    if (init)
        for (uint32_t i = 0; i < na; i++)
            mpq_clears(cur[i], best[0][i], best[1][i], NULL);
    free(cur), free(best[0]), free(best[1]);
    mpq_clears(lo, up, best_lo, best_up, NULL);
    if (res != 0)
        vw_result_free(r);
    r->seconds = clk_now() - t0;
    return res;
}

int vw_write_states(const vw_states *s, hx_variant v, int rows, int cols, const vw_options *o, const char *path,
                    vw_result *r, char *err, size_t errlen)
{
    return vw_write_from(s, NULL, 0, v, rows, cols, o, path, r, err, errlen);
}

int vw_write_states_exact(const vw_states *s, mpq_t *const *q, int k, hx_variant v, int rows, int cols,
                          const vw_options *o, const char *path, vw_result *r, char *err, size_t errlen)
{
    return vw_write_from(s, q, k, v, rows, cols, o, path, r, err, errlen);
}

int vw_write(const sv_tree *t, const double *policy, hx_variant v, int rows, int cols, const vw_options *o,
             const char *path, vw_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    double t0 = clk_now();
    hx_game g;
    if (!hx_variant_dark(v) || hx_new(&g, v, rows, cols, 0) != 0) {
        snprintf(err, errlen, "value certificates are for the dark variants");
        return -1;
    }
    vw_states s = { 0 };
    vw_walk w = { .t = t, .policy = policy, .s = &s, .cols = cols, .err = err, .errlen = errlen };
    int64_t none[2] = { -1, -1 };
    int res = vw_list(&w, &g, none) == 0 ? vw_write_states(&s, v, rows, cols, o, path, r, err, errlen) : -1;
    vw_states_free(&s);
    r->seconds = clk_now() - t0;
    return res;
}
