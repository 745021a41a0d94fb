/* arena/solver/doseq.c — the sequence-form double oracle (doseq.h): the restricted game as an efg_game over
 * the rules engine, its tree and LP, the equilibria decomposed into mixtures of pure strategies, and dowalk.c's
 * best responses. */
#include "doseq.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "darkhex.h"
#include "doseq_cert.h"
#include "dwdefault.h"
#include "gametree.h"
#include "memguard.h"

#define DS_EPS 1e-12 /* realisation weights below this are zero */

/* ---- the attempts allowed at each information state: key -> bit mask of cells ------------------------ */

typedef struct {
    uint64_t *keys;
    uint32_t *mask;
    uint8_t *used;
    size_t cap, n;
} ds_allowed;

static size_t ds_slot(const ds_allowed *a, uint64_t key)
{
    size_t j = (size_t)(key * 0x9e3779b97f4a7c15ULL >> 11) & (a->cap - 1);
    while (a->used[j] && a->keys[j] != key)
        j = (j + 1) & (a->cap - 1);
    return j;
}

static uint32_t ds_get(const ds_allowed *a, uint64_t key)
{
    if (!a->cap)
        return 0;
    size_t j = ds_slot(a, key);
    return a->used[j] ? a->mask[j] : 0;
}

/* Adds cell to key's mask: 1 new, 0 already there, -1 out of memory. */
static int ds_add(ds_allowed *a, uint64_t key, int cell)
{
    if (2 * (a->n + 1) > a->cap) {
        ds_allowed b = { .cap = a->cap ? 2 * a->cap : 1024 };
        b.keys = malloc(sizeof *b.keys * b.cap);
        b.mask = malloc(sizeof *b.mask * b.cap);
        b.used = calloc(b.cap, 1);
        if (!b.keys || !b.mask || !b.used) {
            free(b.keys), free(b.mask), free(b.used);
            return -1;
        }
        for (size_t i = 0; i < a->cap; i++)
            if (a->used[i]) {
                size_t j = ds_slot(&b, a->keys[i]);
                b.used[j] = 1, b.keys[j] = a->keys[i], b.mask[j] = a->mask[i];
            }
        b.n = a->n;
        free(a->keys), free(a->mask), free(a->used);
        *a = b;
    }
    size_t j = ds_slot(a, key);
    if (!a->used[j]) {
        a->used[j] = 1, a->keys[j] = key, a->mask[j] = 0;
        a->n++;
    }
    uint32_t bit = 1u << cell;
    if (a->mask[j] & bit)
        return 0;
    a->mask[j] |= bit;
    return 1;
}

static void ds_allowed_free(ds_allowed *a)
{
    free(a->keys), free(a->mask), free(a->used);
    memset(a, 0, sizeof *a);
}

/* ---- the restricted game --------------------------------------------------------------------------------- */

typedef struct {
    efg_game inner;      /* the whole game (darkhex.h) */
    ds_allowed allowed[2];
    dw_memo *memo;       /* default cells */
    int first;           /* Black's first attempt fixed to this cell, or -1 (dw_options.first) */
} ds_game;

static const efg_game *inner_of(const efg_game *g)
{
    return &((const ds_game *)g->ctx)->inner;
}

static void rg_root(const efg_game *g, void *state)
{
    inner_of(g)->root(inner_of(g), state);
}

static int rg_player(const efg_game *g, const void *state)
{
    return inner_of(g)->player(inner_of(g), state);
}

static double rg_utility(const efg_game *g, const void *state)
{
    return inner_of(g)->utility(inner_of(g), state);
}

static void rg_apply(const efg_game *g, void *dst, const void *src, int action)
{
    inner_of(g)->apply(inner_of(g), dst, src, action);
}

static uint64_t rg_infoset(const efg_game *g, const void *state)
{
    return inner_of(g)->infoset(inner_of(g), state);
}

/* The default cell (dwdefault.h), and the cells the player's best responses attempted at this state. */
static int rg_actions(const efg_game *g, const void *state, uint16_t *out, double *probs)
{
    const ds_game *d = g->ctx;
    const efg_game *in = &d->inner;
    int n = in->actions(in, state, out, probs);
    int p = in->player(in, state);
    if (n <= 1 || (p != 0 && p != 1))
        return n;
    uint32_t mask = ds_get(&d->allowed[p], in->infoset(in, state)) | 1u << dw_default_memo(d->memo, state);
    if (p == 0 && d->first >= 0 && hx_num_attempts((const hx_game *)state) == 0)
        mask = 1u << d->first; /* Black's opening is fixed */
    int m = 0;
    for (int k = 0; k < n; k++)
        if (mask >> out[k] & 1)
            out[m++] = out[k];
    return m;
}

/* ---- an equilibrium as a mixture of pure strategies ------------------------------------------------------ */

/* Player p's behaviour strategy `policy` on the restricted tree t as a mixture of pure strategies: the
 * realisation weight of each of p's sequences, then repeatedly the pure strategy that takes, at every state
 * it reaches, the attempt of largest remaining weight, with the smallest of those weights, subtracted from
 * them (each round zeroes a sequence; the weights still satisfy the plan's constraints). With spread, the
 * members after the first get salts 1, 2, ... (dw_pure_set_salt). */
static int decompose(const sv_tree *t, const double *policy, int p, bool spread, dw_mixture *m)
{
    int rc = -1;
    uint32_t na = t->n_actions ? t->n_actions : 1, ni = t->n_infosets ? t->n_infosets : 1;
    int64_t *parent = malloc(sizeof *parent * ni);     /* each state's parent sequence (-1: none) */
    int64_t *seq = malloc(sizeof *seq * (t->n_nodes ? t->n_nodes : 1)); /* p's last sequence above each node */
    double *rem = calloc(na, sizeof *rem);
    uint32_t *first_child = malloc(sizeof *first_child * (na + 1)), *kids = malloc(sizeof *kids * ni);
    uint32_t *roots = malloc(sizeof *roots * ni), *order = malloc(sizeof *order * ni), *stack = malloc(sizeof *stack * ni);
    uint32_t *state_of = malloc(sizeof *state_of * na), *chosen = malloc(sizeof *chosen * ni);
    uint8_t *seen = calloc(ni, 1);
    uint32_t n_roots = 0, n_order = 0;
    if (!parent || !seq || !rem || !first_child || !kids || !roots || !order || !stack || !state_of || !chosen || !seen)
        goto done;
    seq[0] = -1;
    for (uint32_t i = 0; i < t->n_nodes; i++) {
        const sv_node *nd = &t->nodes[i];
        bool mine = nd->player == p;
        if (mine && !seen[nd->infoset]) {
            seen[nd->infoset] = 1;
            parent[nd->infoset] = seq[i];
            order[n_order++] = nd->infoset; /* parents first: a parent sequence's state is at an ancestor */
        }
        for (int k = 0; k < nd->n; k++)
            seq[nd->first + k] = mine ? (int64_t)t->infosets[nd->infoset].offset + k : seq[i];
    }
    /* realisation weights, and the states below each sequence */
    memset(first_child, 0, sizeof *first_child * (na + 1));
    for (uint32_t o = 0; o < n_order; o++) {
        uint32_t s = order[o];
        const sv_infoset *is = &t->infosets[s];
        double above = parent[s] < 0 ? 1.0 : rem[parent[s]];
        for (int k = 0; k < is->n; k++) {
            rem[is->offset + k] = above * policy[is->offset + k];
            state_of[is->offset + k] = s;
        }
        if (parent[s] < 0)
            roots[n_roots++] = s;
        else
            first_child[parent[s] + 1]++;
    }
    for (uint32_t a = 0; a < na; a++)
        first_child[a + 1] += first_child[a];
    uint32_t *fill = calloc(na, sizeof *fill);
    if (!fill)
        goto done;
    for (uint32_t o = 0; o < n_order; o++) {
        uint32_t s = order[o];
        if (parent[s] >= 0)
            kids[first_child[parent[s]] + fill[parent[s]]++] = s;
    }
    free(fill);
    m->k = 0;
    int cap = 0;
    for (;;) {
        /* the pure strategy: at each state it reaches, the attempt of largest remaining weight */
        uint32_t top = 0, n_chosen = 0;
        double w = INFINITY;
        for (uint32_t r = 0; r < n_roots; r++)
            stack[top++] = roots[r];
        while (top) {
            uint32_t s = stack[--top];
            const sv_infoset *is = &t->infosets[s];
            int best = 0;
            for (int k = 1; k < is->n; k++)
                if (rem[is->offset + k] > rem[is->offset + best])
                    best = k;
            uint32_t a = is->offset + (uint32_t)best;
            w = fmin(w, rem[a]);
            chosen[n_chosen++] = a;
            for (uint32_t c = first_child[a]; c < first_child[a + 1]; c++)
                stack[top++] = kids[c];
        }
        if (!(w > DS_EPS) || n_chosen == 0)
            break;
        dw_pure *st = dw_pure_new();
        if (!st)
            goto done;
        if (spread)
            dw_pure_set_salt(st, (uint32_t)m->k);
        for (uint32_t c = 0; c < n_chosen; c++) {
            uint32_t a = chosen[c];
            rem[a] -= w;
            if (dw_pure_set(st, t->infosets[state_of[a]].key, t->actions[a]) != 0) {
                dw_pure_free(st);
                goto done;
            }
        }
        if (m->k == cap) {
            cap = cap ? 2 * cap : 16;
            dw_pure **mm = realloc(m->member, sizeof *mm * (size_t)cap);
            double *ww = mm ? realloc(m->weight, sizeof *ww * (size_t)cap) : NULL;
            if (mm)
                m->member = mm;
            if (ww)
                m->weight = ww;
            if (!mm || !ww) {
                dw_pure_free(st);
                goto done;
            }
        }
        m->member[m->k] = st;
        m->weight[m->k++] = w;
    }
    double sum = 0;
    for (int j = 0; j < m->k; j++)
        sum += m->weight[j];
    if (m->k == 0 || !(sum > 0))
        goto done;
    for (int j = 0; j < m->k; j++)
        m->weight[j] /= sum;
    rc = 0;
done:
    free(parent), free(seq), free(rem), free(first_child), free(kids), free(roots), free(order), free(stack);
    free(state_of), free(chosen), free(seen);
    if (rc != 0)
        dw_mixture_free(m);
    return rc;
}

/* ---- the loop -------------------------------------------------------------------------------------------- */

typedef struct {
    ds_allowed *a;
    uint64_t added;
    bool failed;
} add_ctx;

static int add_pair(void *ctx, uint64_t key, int cell)
{
    add_ctx *c = ctx;
    int r = ds_add(c->a, key, cell);
    if (r < 0) {
        c->failed = true;
        return -1;
    }
    c->added += (uint64_t)r;
    return 0;
}

void ds_exact_free(ds_exact *exact)
{
    free(exact->value);
    exact->value = NULL;
    vw_result_free(&exact->cert);
}

/* Each player's best response to each candidate's strategies (policy[c], doubles), the best bounds they give
 * in lo and up, and their attempts added to the restricted game d (the number new in *added). 0, or -1 when
 * out of memory or a best response fails (err). */
static int ds_answer_candidates(hx_variant v, int rows, int cols, const sv_tree *t, mpq_t *const *policy, int k,
                                ds_game *d, double *lo, double *up, uint64_t *added, uint64_t *states, char *err,
                                size_t errlen)
{
    *lo = -INFINITY, *up = INFINITY, *added = 0;
    double *pol = malloc(sizeof *pol * (t->n_actions ? t->n_actions : 1));
    if (!pol) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    for (int c = 0; c < k && rc == 0; c++) {
        for (uint32_t i = 0; i < t->n_actions; i++)
            pol[i] = mpq_get_d(policy[c][i]);
        dw_mixture mix[2] = { { 0 }, { 0 } };
        if (decompose(t, pol, 0, false, &mix[0]) != 0 || decompose(t, pol, 1, false, &mix[1]) != 0) {
            dw_mixture_free(&mix[0]);
            snprintf(err, errlen, "out of memory (or an empty exact strategy)");
            rc = -1;
            break;
        }
        for (int p = 0; p < 2 && rc == 0; p++) {
            const dw_mixture *m = &mix[1 - p];
            double val;
            dw_pure *br = NULL;
            if (dw_best_response_first(v, rows, cols, d->first, p, (const dw_pure *const *)m->member, m->weight, m->k,
                                       &val, &br, states, err, errlen) != 0) {
                rc = -1;
                break;
            }
            if (p == 0)
                *up = fmin(*up, val);
            else
                *lo = fmax(*lo, -val);
            add_ctx a = { .a = &d->allowed[p] };
            dw_pure_each(br, add_pair, &a);
            dw_pure_free(br);
            *added += a.added;
            if (a.failed) {
                snprintf(err, errlen, "out of memory");
                rc = -1;
            }
        }
        dw_mixture_free(&mix[0]), dw_mixture_free(&mix[1]);
    }
    free(pol);
    return rc;
}

/* Both players' exact LPs of t (seqform.h's sf_solve_exact: Black's from start, then White's), their strategies
 * into policy[0] and policy[1] and their values into value. */
typedef struct {
    const sv_tree *t;
    const sf_basis *start;
    mpq_t *policy[2];
    mpq_t *value; /* two */
    char *why;
    size_t whylen;
} ds_lps;

static int ds_lps_run(ds_lps *l)
{
    return sf_solve_exact(l->t, 0, l->start, l->policy[0], l->value[0], l->why, l->whylen) == 0 &&
                   sf_solve_exact(l->t, 1, NULL, l->policy[1], l->value[1], l->why, l->whylen) == 0
               ? 0
               : -1;
}

/* q in base 16 and a newline (the process's GMP allocator is malloc's: lpexact.h switches it only inside). */
static void ds_write_mpq(FILE *out, const mpq_t q)
{
    char *text = mpq_get_str(NULL, 16, q);
    if (!text)
        _exit(1);
    fputs(text, out);
    fputc('\n', out);
    free(text);
}

/* The child's side of ds_exact_lps: the two values, then both policies, one rational a line (base 16), or the
 * reason they failed. */
static int ds_lps_step(void *ctx, FILE *out)
{
    ds_lps *l = ctx;
    if (ds_lps_run(l) != 0) {
        fputs(l->why, out);
        return -1;
    }
    for (int c = 0; c < 2; c++)
        ds_write_mpq(out, l->value[c]);
    for (int c = 0; c < 2; c++)
        for (uint32_t i = 0; i < l->t->n_actions; i++)
            ds_write_mpq(out, l->policy[c][i]);
    return 0;
}

/* Reads one rational of a line from *p into q; 0, or -1 when malformed. */
static int ds_read_mpq(char **p, mpq_t q)
{
    char *nl = strchr(*p, '\n');
    if (!nl)
        return -1;
    *nl = 0;
    int rc = mpq_set_str(q, *p, 16);
    *p = nl + 1;
    if (rc != 0 || !mpz_sgn(mpq_denref(q)))
        return -1;
    mpq_canonicalize(q);
    return 0;
}

/* Runs l: in this process when limit_s <= 0; otherwise in a child (memguard.h) stopped after limit_s seconds,
 * its rationals read back. 0, or -1 with the reason in l->why. */
static int ds_exact_lps(ds_lps *l, double limit_s)
{
    if (limit_s <= 0)
        return ds_lps_run(l);
    char *data = NULL;
    size_t len = 0;
    mg_result m;
    int rc = mg_run_stream(ds_lps_step, l, 0, limit_s, &data, &len, &m);
    if (m.status != MG_DONE) {
        snprintf(l->why, l->whylen, "the exact LPs: %s", m.why);
        return -1;
    }
    if (rc != 0) {
        snprintf(l->why, l->whylen, "%s", data);
        free(data);
        return -1;
    }
    char *p = data;
    for (int c = 0; c < 2 && rc == 0; c++)
        rc = ds_read_mpq(&p, l->value[c]);
    for (int c = 0; c < 2; c++)
        for (uint32_t i = 0; i < l->t->n_actions && rc == 0; i++)
            rc = ds_read_mpq(&p, l->policy[c][i]);
    bool bad = rc != 0 || *p;
    if (bad)
        snprintf(l->why, l->whylen, "the exact LPs' child sent a malformed result (%zu bytes)", len);
    free(data);
    return bad ? -1 : 0;
}

/* The restricted game g (as it stands) solved exactly into x: Black's LP from CLP's last basis (start), and
 * White's LP; each gives both players' strategies (one from its plan, the other from its duals). Each player's
 * best response to each candidate then checks them in the whole game: when the best bounds they give are the
 * exact value (within tol), the certificate keeps the better of each player's two; otherwise their attempts join
 * the restricted game d (*added of them new) and nothing is certified. Failures of the exact step are noted in
 * x->why (0 returned, nothing added); -1 when out of memory or a best response fails (err). */
static int ds_solve_exact(hx_variant v, int rows, int cols, const efg_game *g, ds_game *d, uint32_t max_nodes,
                          const sf_basis *start, double tol, double limit_s, ds_exact *x, uint64_t *added,
                          uint64_t *states, char *err, size_t errlen)
{
    double t0 = clk_now();
    *added = 0;
    ds_exact_free(x);
    x->why[0] = 0, x->certified = false, x->rounds++;
    sv_tree t;
    if (sv_tree_build(&t, g, max_nodes, false) != 0) {
        snprintf(x->why, sizeof x->why, "the restricted game's tree: out of memory or more than %u nodes", max_nodes);
        return 0;
    }
    int rc = 0;
    mpq_t *policy[2] = { malloc(sizeof(mpq_t) * (t.n_actions ? t.n_actions : 1)),
                         malloc(sizeof(mpq_t) * (t.n_actions ? t.n_actions : 1)) };
    mpq_t value[2];
    mpq_inits(value[0], value[1], NULL);
    for (int c = 0; c < 2; c++)
        for (uint32_t i = 0; policy[c] && i < t.n_actions; i++)
            mpq_init(policy[c][i]);
    if (!policy[0] || !policy[1])
        snprintf(x->why, sizeof x->why, "out of memory");
    else if (ds_exact_lps(&(ds_lps){ .t = &t, .start = start, .policy = { policy[0], policy[1] }, .value = value,
                                     .why = x->why, .whylen = sizeof x->why },
                          limit_s) == 0) {
        if (!mpq_equal(value[0], value[1]))
            snprintf(x->why, sizeof x->why, "the two players' exact LPs disagree on the value");
        else
            x->value = mpq_get_str(NULL, 10, value[0]);
        x->seconds += clk_now() - t0;
        double lo, up, val = mpq_get_d(value[0]);
        if (x->value && (rc = ds_answer_candidates(v, rows, cols, &t, policy, 2, d, &lo, &up, added, states, err,
                                                   errlen)) == 0) {
            if (lo < val - tol || up > val + tol) {
                snprintf(x->why, sizeof x->why,
                         "the exact restricted equilibria are worth [%+.12f, %+.12f] in the whole game%s", lo, up,
                         *added ? "" : ", and their best responses add no attempt");
                if (*added) {
                    free(x->value);
                    x->value = NULL;
                }
            } else {
                *added = 0;
                if (x->certificate) {
                    double t1 = clk_now();
                    x->certified = ds_write_exact_certificate(v, rows, cols, &t, policy, 2, &x->vw, x->certificate,
                                                              &x->cert, x->why, sizeof x->why) == 0;
                    x->cert_seconds = clk_now() - t1;
                }
            }
        }
    }
    for (int c = 0; c < 2; c++) {
        for (uint32_t i = 0; policy[c] && i < t.n_actions; i++)
            mpq_clear(policy[c][i]);
        free(policy[c]);
    }
    mpq_clears(value[0], value[1], NULL);
    sv_tree_free(&t);
    return rc;
}

int ds_solve(hx_variant v, int rows, int cols, const dw_options *o, const sf_options *lp, uint32_t max_nodes,
             dw_mixture *seed, const double *seed_bounds, ds_exact *exact, ds_result *r, char *err, size_t errlen)
{
    if (exact) {
        exact->value = NULL, exact->certified = false, exact->why[0] = 0, exact->rounds = 0;
        exact->seconds = exact->cert_seconds = 0;
        memset(&exact->cert, 0, sizeof exact->cert);
    }
    double t0 = clk_now();
    *r = (ds_result){ .lower = -INFINITY, .upper = INFINITY, .gap = INFINITY };
    dw_mixture best[2] = { { 0 }, { 0 } };
    if (seed) { /* taken over: the seeds are the best mixtures until beaten */
        best[0] = seed[0], best[1] = seed[1];
        seed[0] = seed[1] = (dw_mixture){ 0 };
        r->lower = seed_bounds[0], r->upper = seed_bounds[1];
    }
    const char *why;
    if (!dw_supported(v, rows, cols, &why)) {
        dw_mixture_free(&best[0]), dw_mixture_free(&best[1]);
        snprintf(err, errlen, "%s", why);
        return -1;
    }
    if (o->first < -1 || o->first >= rows * cols) {
        dw_mixture_free(&best[0]), dw_mixture_free(&best[1]);
        snprintf(err, errlen, "a first cell off the board");
        return -1;
    }
    if (exact)
        exact->vw.first = o->first; /* the certificate states the opening */
    sv_darkhex dh = { .variant = v, .rows = rows, .cols = cols };
    ds_game d = { .memo = dw_memo_new(), .first = o->first };
    sv_darkhex_game(&d.inner, &dh);
    efg_game g = d.inner;
    g.root = rg_root, g.player = rg_player, g.utility = rg_utility, g.actions = rg_actions, g.apply = rg_apply;
    g.infoset = rg_infoset, g.view_key = NULL, g.ctx = &d;
    sf_options so = *lp;
    so.only = 0, so.write_mps = NULL;
    sf_basis *basis = NULL; /* each restricted LP starts from the last one's optimal basis */
    if (so.solver == SF_CLP && !so.warm && !so.cold)
        so.warm = basis = sf_basis_new();
    int rc = -1;
    if (!d.memo) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    for (int p = 0; seed && p < 2; p++)
        for (int j = 0; j < best[p].k; j++) {
            add_ctx c = { .a = &d.allowed[p] };
            dw_pure_each(best[p].member[j], add_pair, &c);
            r->seeded[p] += c.added;
            if (c.failed) {
                snprintf(err, errlen, "out of memory");
                goto done;
            }
        }
    for (;;) {
        double t1 = clk_now();
        sv_tree t;
        if (sv_tree_build(&t, &g, max_nodes, false) != 0) {
            snprintf(err, errlen, "the restricted game's tree: out of memory or more than %u nodes", max_nodes);
            goto done;
        }
        double t2 = clk_now();
        r->seconds_tree += t2 - t1;
        r->nodes = t.n_nodes;
        r->infosets[0] = t.infosets_of[0], r->infosets[1] = t.infosets_of[1];
        double *policy = malloc(sizeof *policy * (t.n_actions ? t.n_actions : 1));
        sf_result sr;
        if (!policy || sf_solve(&t, &so, policy, &sr, err, errlen) != 0) {
            if (!policy)
                snprintf(err, errlen, "out of memory");
            free(policy);
            sv_tree_free(&t);
            goto done;
        }
        double t3 = clk_now();
        r->seconds_lp += t3 - t2;
        r->iterations++;
        r->value = sr.value;
        r->lp_iterations += (uint64_t)sr.lp[0].iterations;
        dw_mixture mix[2] = { { 0 }, { 0 } };
        int dec = decompose(&t, policy, 0, o->spread, &mix[0]) != 0 || decompose(&t, policy, 1, o->spread, &mix[1]) != 0
                      ? -1
                      : 0;
        free(policy);
        sv_tree_free(&t);
        if (dec != 0) {
            dw_mixture_free(&mix[0]);
            snprintf(err, errlen, "out of memory (or an empty restricted strategy)");
            goto done;
        }
        r->support[0] = (uint32_t)mix[0].k, r->support[1] = (uint32_t)mix[1].k;
        double upper, lower;
        dw_pure *br[2] = { NULL, NULL };
        if (dw_best_response_first(v, rows, cols, o->first, 0, (const dw_pure *const *)mix[1].member, mix[1].weight,
                                   mix[1].k, &upper, &br[0], &r->states, err, errlen) != 0 ||
            dw_best_response_first(v, rows, cols, o->first, 1, (const dw_pure *const *)mix[0].member, mix[0].weight,
                                   mix[0].k, &lower, &br[1], &r->states, err, errlen) != 0) {
            dw_pure_free(br[0]);
            dw_mixture_free(&mix[0]), dw_mixture_free(&mix[1]);
            goto done;
        }
        lower = -lower;
        r->seconds_oracle += clk_now() - t3;
        if (lower > r->lower) {
            r->lower = lower;
            dw_mixture_free(&best[0]);
            best[0] = mix[0];
            mix[0] = (dw_mixture){ 0 };
        }
        if (upper < r->upper) {
            r->upper = upper;
            dw_mixture_free(&best[1]);
            best[1] = mix[1];
            mix[1] = (dw_mixture){ 0 };
        }
        dw_mixture_free(&mix[0]), dw_mixture_free(&mix[1]);
        r->gap = r->upper - r->lower;
        if (o->progress) {
            do_progress_info info = { .iteration = r->iterations, .value = sr.value, .lower = r->lower,
                                      .upper = r->upper, .strategies = { r->infosets[0], r->infosets[1] },
                                      .support = { r->support[0], r->support[1] }, .seconds = clk_now() - t0 };
            o->progress(o->ctx, &info);
        }
        bool met = r->gap <= o->tolerance;
        if (met)
            r->converged = true;
        if (met && !exact) {
            dw_pure_free(br[0]), dw_pure_free(br[1]);
            break;
        }
        /* With exact, the restricted game is solved exactly once this restricted equilibrium's own bounds meet as
         * well: the best bounds may come from earlier restricted games, and the exact LP gives this one's
         * equilibrium (the vertex CLP just found), which is then the game's too. Until then (or until the best
         * responses add nothing) their attempts join the restricted game as before. */
        bool try_exact = met && upper - lower <= o->tolerance;
        if (!try_exact) {
            uint64_t added = 0;
            bool failed = false;
            for (int p = 0; p < 2; p++) {
                add_ctx c = { .a = &d.allowed[p] };
                dw_pure_each(br[p], add_pair, &c);
                failed |= c.failed;
                added += c.added;
                r->attempts[p] += c.added;
                dw_pure_free(br[p]);
            }
            if (failed) {
                snprintf(err, errlen, "out of memory");
                goto done;
            }
            if (!added && !met) {
                r->stalled = true;
                break;
            }
            try_exact = !added; /* met, and the restricted game can grow no more: solved exactly as it is */
        } else {
            dw_pure_free(br[0]), dw_pure_free(br[1]);
        }
        if (try_exact) {
            /* the restricted game solved exactly: done unless its exact equilibria are exploitable in the whole
             * game, in which case their best responses grew it and the loop goes on */
            uint64_t grew = 0;
            double left = exact->time_limit > 0 ? exact->time_limit
                          : o->time_limit > 0   ? o->time_limit - (clk_now() - t0)
                                                : 0;
            if ((exact->time_limit > 0 || o->time_limit > 0) && left <= 0) {
                ds_exact_free(exact);
                snprintf(exact->why, sizeof exact->why, "the time limit was reached when the bounds met: no exact step");
                break;
            }
            if (ds_solve_exact(v, rows, cols, &g, &d, max_nodes, so.warm, o->tolerance, left, exact, &grew,
                               &r->states, err, errlen) != 0)
                goto done;
            if (!grew)
                break;
        }
        if (o->max_iterations > 0 && r->iterations >= o->max_iterations)
            break;
        if (o->time_limit > 0 && clk_now() - t0 >= o->time_limit)
            break;
    }
    if (exact && !exact->value && !exact->why[0])
        snprintf(exact->why, sizeof exact->why, r->converged ? "the bounds met, but no restricted equilibrium's own "
                                                               "bounds did before the limit: no exact step"
                                                             : "the bounds did not meet");
    if (o->keep) {
        o->keep[0] = best[0], o->keep[1] = best[1];
        best[0] = best[1] = (dw_mixture){ 0 };
    }
    rc = 0;
done:
    sf_basis_free(basis);
    dw_mixture_free(&best[0]), dw_mixture_free(&best[1]);
    ds_allowed_free(&d.allowed[0]), ds_allowed_free(&d.allowed[1]);
    dw_memo_free(d.memo);
    r->seconds = clk_now() - t0;
    return rc;
}
