/* arena/solver/seqform.c — the sequence-form LP of a flat tree and its solution with GLPK (see seqform.h):
 * numbering each player's sequences, the parent sequence of every information state, the payoff matrix
 * over leaf sequence pairs (merged, zeros dropped), one LP per player, and the behaviour strategies
 * recovered from the realisation plans. */
#include "seqform.h"
#include "clock.h"
#include "lpclp.h"
#include "lpexact.h"
#include "mix.h"

#include <glpk.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SF_NONE UINT32_MAX
/* q_J is at most the largest |utility| at an optimum (below); the box is twice that. */
#define SF_Q_BOUND 2.0

typedef struct {
    uint32_t s[2];   /* player 0's and player 1's sequence at the leaf */
    double u;        /* player 0's utility times the chance probability */
} sf_leaf;

typedef struct {
    const sv_tree *t;
    uint32_t *seq;        /* [n_actions]: the sequence (within its player's) that the action ends */
    uint32_t *parent;     /* [n_infosets]: the player's sequence leading to the information state */
    uint32_t *local;      /* [n_infosets]: index among the player's information states */
    uint32_t n_seq[2];
    sf_leaf *leaves;
    uint64_t n_leaves, leaf_cap, terminals;
    double umax;          /* the largest |utility| of a leaf */
    bool bad_recall, no_memory;
} sf_build;

static void sf_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void sf_fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

void sf_options_default(sf_options *o)
{
    *o = (sf_options){ .method = SF_DUAL, .only = -1 };
}

const char *sf_glpk_version(void)
{
    static char v[32];
    snprintf(v, sizeof v, "GLPK %s", glp_version());
    return v;
}

/* GLPK's terminal output goes to stderr, so that stdout stays the caller's. */
static int sf_to_stderr(void *info, const char *s)
{
    (void)info;
    fputs(s, stderr);
    return 1;
}

/* Depth-first from node h, with each player's current sequence and the chance reach. */
static void sf_walk(sf_build *b, uint32_t h, uint32_t s0, uint32_t s1, double chance)
{
    const sv_tree *t = b->t;
    const sv_node *n = &t->nodes[h];
    if (n->player == EFG_TERMINAL) {
        b->terminals++;
        if (n->value == 0)
            return;
        if (fabs(n->value) > b->umax)
            b->umax = fabs(n->value);
        if (b->n_leaves == b->leaf_cap) {
            uint64_t cap = b->leaf_cap ? 2 * b->leaf_cap : 4096;
            sf_leaf *l = realloc(b->leaves, sizeof *l * cap);
            if (!l) {
                b->no_memory = true;
                return;
            }
            b->leaves = l;
            b->leaf_cap = cap;
        }
        b->leaves[b->n_leaves++] = (sf_leaf){ .s = { s0, s1 }, .u = chance * n->value };
        return;
    }
    if (n->player == EFG_CHANCE) {
        for (uint32_t k = 0; k < n->n && !b->no_memory; k++)
            sf_walk(b, n->first + k, s0, s1, chance * t->chance_prob[n->first + k]);
        return;
    }
    const sv_infoset *is = &t->infosets[n->infoset];
    uint32_t mine = n->player == 0 ? s0 : s1;
    if (b->parent[n->infoset] == SF_NONE)
        b->parent[n->infoset] = mine;
    else if (b->parent[n->infoset] != mine)
        b->bad_recall = true; /* two histories of one information state after different own sequences */
    for (uint32_t k = 0; k < n->n && !b->no_memory; k++) {
        uint32_t s = b->seq[is->offset + k];
        sf_walk(b, n->first + k, n->player == 0 ? s : s0, n->player == 1 ? s : s1, chance);
    }
}

static int sf_leaf_order(const void *a, const void *b)
{
    const sf_leaf *x = a, *y = b;
    if (x->s[0] != y->s[0])
        return x->s[0] < y->s[0] ? -1 : 1;
    return (x->s[1] > y->s[1]) - (x->s[1] < y->s[1]);
}

/* Sorts the leaves by sequence pair and sums the entries of each pair (dropping those that cancel). */
static void sf_merge(sf_build *b)
{
    if (!b->n_leaves)
        return;
    qsort(b->leaves, b->n_leaves, sizeof *b->leaves, sf_leaf_order);
    uint64_t out = 0;
    for (uint64_t i = 0; i < b->n_leaves;) {
        sf_leaf l = b->leaves[i++];
        while (i < b->n_leaves && b->leaves[i].s[0] == l.s[0] && b->leaves[i].s[1] == l.s[1])
            l.u += b->leaves[i++].u;
        if (l.u != 0)
            b->leaves[out++] = l;
    }
    b->n_leaves = out;
}

struct sf_basis {
    uint64_t *key;        /* open addressing; 0 empty (a key of 0 is stored as 1) */
    uint8_t *status;      /* LC_* of lpclp.h */
    size_t cap, n;
};

sf_basis *sf_basis_new(void)
{
    sf_basis *b = calloc(1, sizeof *b);
    return b;
}

void sf_basis_free(sf_basis *b)
{
    if (!b)
        return;
    free(b->key);
    free(b->status);
    free(b);
}

static size_t sf_basis_slot(const sf_basis *b, uint64_t key)
{
    size_t i = (size_t)mix64(key) & (b->cap - 1);
    while (b->key[i] && b->key[i] != key)
        i = (i + 1) & (b->cap - 1);
    return i;
}

/* The status stored under key, or dflt. */
static uint8_t sf_basis_get(const sf_basis *b, uint64_t key, uint8_t dflt)
{
    key += !key;
    if (!b->cap)
        return dflt;
    size_t i = sf_basis_slot(b, key);
    return b->key[i] ? b->status[i] : dflt;
}

/* Stores status under key. -1 when out of memory. */
static int sf_basis_put(sf_basis *b, uint64_t key, uint8_t status)
{
    key += !key;
    if (2 * (b->n + 1) > b->cap) {
        sf_basis old = *b;
        b->cap = old.cap ? 2 * old.cap : 1024;
        b->key = calloc(b->cap, sizeof *b->key);
        b->status = malloc(b->cap);
        if (!b->key || !b->status) {
            free(b->key);
            free(b->status);
            *b = old;
            return -1;
        }
        b->n = 0;
        for (size_t i = 0; i < old.cap; i++)
            if (old.key[i]) {
                size_t j = sf_basis_slot(b, old.key[i]);
                b->key[j] = old.key[i], b->status[j] = old.status[i], b->n++;
            }
        free(old.key);
        free(old.status);
    }
    size_t i = sf_basis_slot(b, key);
    b->n += !b->key[i];
    b->key[i] = key, b->status[i] = status;
    return 0;
}

/* The name of a column or row of player p's LP for sf_basis: its kind (0 a sequence of p, 1 a q over an
 * opponent information state, 2 a row of E_p, 3 a row over an opponent sequence), the information state's
 * key and the action (SF_ROOT_ACTION for the empty sequence and the roots). */
#define SF_ROOT_ACTION 0x1ffffu
static uint64_t sf_name(int p, int kind, uint64_t key, uint32_t action)
{
    return mix64(key ^ mix64(((uint64_t)(4 * p + kind) << 32) | action));
}

/* The names of player p's LP's columns then rows (sf_load's layout) into name. */
static void sf_names(const sf_build *b, int p, uint64_t *name)
{
    const sv_tree *t = b->t;
    uint32_t n_x = b->n_seq[p], cols = n_x + 1 + t->infosets_of[1 - p], e_rows = 1 + t->infosets_of[p];
    name[0] = sf_name(p, 0, 0, SF_ROOT_ACTION);
    name[n_x] = sf_name(p, 1, 0, SF_ROOT_ACTION);
    name[cols] = sf_name(p, 2, 0, SF_ROOT_ACTION);
    name[cols + e_rows] = sf_name(p, 3, 0, SF_ROOT_ACTION);
    for (uint32_t k = 0; k < t->n_infosets; k++) {
        const sv_infoset *is = &t->infosets[k];
        if (is->player == p) {
            name[cols + 1 + b->local[k]] = sf_name(p, 2, is->key, SF_ROOT_ACTION);
            for (int a = 0; a < is->n; a++)
                name[b->seq[is->offset + a]] = sf_name(p, 0, is->key, t->actions[is->offset + a]);
        } else {
            name[n_x + 1 + b->local[k]] = sf_name(p, 1, is->key, SF_ROOT_ACTION);
            for (int a = 0; a < is->n; a++)
                name[cols + e_rows + b->seq[is->offset + a]] = sf_name(p, 3, is->key, t->actions[is->offset + a]);
        }
    }
}

/* Triplets of a sparse matrix for glp_load_matrix (1-based; element 0 unused). */
typedef struct {
    int *ia, *ja;
    double *ar;
    int n;
} sf_triplets;

static void sf_put(sf_triplets *m, int row, int col, double v)
{
    m->n++;
    m->ia[m->n] = row;
    m->ja[m->n] = col;
    m->ar[m->n] = v;
}

/* Player p's behaviour strategy from its realisation plan x (over its sequences): each information state's
 * weights normalised, uniform where they are all 0. Returns the information states with positive weight. */
static uint32_t sf_behaviour(const sf_build *b, int p, const double *x, double *policy)
{
    const sv_tree *t = b->t;
    uint32_t reached = 0;
    for (uint32_t k = 0; k < t->n_infosets; k++) {
        const sv_infoset *is = &t->infosets[k];
        if (is->player != p)
            continue;
        double sum = 0, *out = policy + is->offset;
        for (int a = 0; a < is->n; a++) {
            double v = x[b->seq[is->offset + a]];
            sum += v > 0 ? v : 0; /* the simplex may leave -1e-17 where 0 is meant */
        }
        reached += sum > 0;
        for (int a = 0; a < is->n; a++) {
            double v = x[b->seq[is->offset + a]];
            out[a] = sum > 0 ? (v > 0 ? v : 0) / sum : 1.0 / is->n;
        }
    }
    return reached;
}

/* The constraint matrix of player p's LP (see sf_player) into m: E, F' and the payoffs. */
static void sf_fill(const sf_build *b, int p, uint32_t e_rows, int qcol, sf_triplets *m)
{
    const sv_tree *t = b->t;
    int opp = 1 - p;
    double sign = p == 0 ? 1.0 : -1.0;
    sf_put(m, 1, 1, 1.0); /* x_0 = 1 */
    for (uint32_t k = 0; k < t->n_infosets; k++) {
        const sv_infoset *is = &t->infosets[k];
        if (is->player == p) {
            int row = 2 + (int)b->local[k];
            sf_put(m, row, 1 + (int)b->parent[k], -1.0);
            for (int a = 0; a < is->n; a++)
                sf_put(m, row, 1 + (int)b->seq[is->offset + a], 1.0);
        } else {
            int col = qcol + 1 + (int)b->local[k];
            sf_put(m, (int)e_rows + 1 + (int)b->parent[k], col, -1.0);
            for (int a = 0; a < is->n; a++)
                sf_put(m, (int)e_rows + 1 + (int)b->seq[is->offset + a], col, 1.0);
        }
    }
    sf_put(m, (int)e_rows + 1, qcol, 1.0); /* F's root row: y_0 = 1 */
    for (uint64_t i = 0; i < b->n_leaves; i++)
        sf_put(m, (int)e_rows + 1 + (int)b->leaves[i].s[opp], 1 + (int)b->leaves[i].s[p], -sign * b->leaves[i].u);
}

/* Player p's LP (see sf_player) as a GLPK problem, its size in *lp. NULL with the reason in err. */
static glp_prob *sf_load(const sf_build *b, int p, sf_lp *lp, char *err, size_t errlen)
{
    const sv_tree *t = b->t;
    int opp = 1 - p;
    uint32_t mine = t->infosets_of[p], theirs = t->infosets_of[opp];
    uint32_t n_x = b->n_seq[p], n_q = 1 + theirs, n_opp = b->n_seq[opp];
    uint32_t e_rows = 1 + mine;
    /* nonzeros: E (x_0, then per information state its parent and its actions), F' (q_0, then per opponent
     * information state its parent and its actions), the payoffs */
    uint64_t nz = 1 + (uint64_t)mine + (uint64_t)b->n_seq[p] - 1 + 1 + (uint64_t)theirs + (uint64_t)n_opp - 1 +
                  b->n_leaves;
    if (nz >= INT32_MAX || (uint64_t)n_x + n_q >= INT32_MAX || (uint64_t)e_rows + n_opp >= INT32_MAX) {
        sf_fail(err, errlen, "the LP is too large for GLPK (%llu nonzeros)", (unsigned long long)nz);
        return NULL;
    }
    sf_triplets m = { .ia = malloc(sizeof(int) * (nz + 1)), .ja = malloc(sizeof(int) * (nz + 1)),
                      .ar = malloc(sizeof(double) * (nz + 1)) };
    if (!m.ia || !m.ja || !m.ar) {
        free(m.ia);
        free(m.ja);
        free(m.ar);
        sf_fail(err, errlen, "out of memory");
        return NULL;
    }
    int qcol = (int)n_x + 1; /* the column of q_0 */
    sf_fill(b, p, e_rows, qcol, &m);

    glp_prob *lpx = glp_create_prob();
    glp_set_obj_dir(lpx, GLP_MAX);
    glp_add_rows(lpx, (int)(e_rows + n_opp));
    glp_add_cols(lpx, (int)(n_x + n_q));
    for (uint32_t r = 1; r <= e_rows; r++)
        glp_set_row_bnds(lpx, (int)r, GLP_FX, r == 1 ? 1.0 : 0.0, r == 1 ? 1.0 : 0.0);
    for (uint32_t r = e_rows + 1; r <= e_rows + n_opp; r++)
        glp_set_row_bnds(lpx, (int)r, GLP_UP, 0.0, 0.0);
    for (uint32_t c = 1; c <= n_x; c++)
        glp_set_col_bnds(lpx, (int)c, GLP_DB, 0.0, 1.0);
    for (uint32_t c = n_x + 1; c <= n_x + n_q; c++)
        glp_set_col_bnds(lpx, (int)c, GLP_DB, -SF_Q_BOUND * b->umax, SF_Q_BOUND * b->umax);
    glp_set_obj_coef(lpx, qcol, 1.0);
    glp_load_matrix(lpx, m.n, m.ia, m.ja, m.ar);
    free(m.ia);
    free(m.ja);
    free(m.ar);
    *lp = (sf_lp){ .sequences = n_x, .rows = e_rows + n_opp, .cols = n_x + n_q, .nonzeros = (uint64_t)m.n };
    return lpx;
}

/* Solves player p's LP with the simplex (and glp_exact when o->exact). Returns 0 at an optimum, else -1
 * with the reason in err. */
static int sf_simplex(glp_prob *lpx, int p, const sf_options *o, char *err, size_t errlen)
{
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = o->verbose ? GLP_MSG_ON : GLP_MSG_OFF;
    parm.meth = o->method == SF_PRIMAL ? GLP_PRIMAL : GLP_DUALP;
    parm.tol_bnd = SF_TOL_PRIMAL;
    parm.tol_dj = SF_TOL_DUAL;
    parm.presolve = GLP_ON;
    if (o->time_limit > 0)
        parm.tm_lim = o->time_limit * 1000 < 2e9 ? (int)(o->time_limit * 1000) + 1 : 2000000000;
    if (o->method == SF_DUAL)
        parm.r_test = GLP_RT_FLIP; /* the long-step ratio test: every variable is boxed */
    int term = glp_term_out(o->verbose ? GLP_ON : GLP_OFF); /* glp_scale_prob() reports even when quiet */
    glp_term_hook(sf_to_stderr, NULL);
    glp_scale_prob(lpx, GLP_SF_AUTO);
    int rc = glp_simplex(lpx, &parm);
    if (rc == 0 && o->exact && glp_get_status(lpx) == GLP_OPT)
        rc = glp_exact(lpx, &parm);
    glp_term_out(term);
    glp_term_hook(NULL, NULL);
    int status = glp_get_status(lpx);
    if (rc != 0 || status != GLP_OPT) {
        sf_fail(err, errlen, "GLPK found no optimum of %s's LP (glp_%s returned %d, status %d)", p ? "White" : "Black",
                o->exact ? "simplex/exact" : "simplex", rc, status);
        return -1;
    }
    return 0;
}

/* Player p's behaviour strategy from the optimum's plan (col: the LP's columns), and (dual not NULL) the
 * opponent's from the duals of the rows over its sequences (row: the rows' duals). */
static void sf_plans(const sf_build *b, int p, const double *col, const double *row, double *policy, sf_lp *lp,
                     sf_lp *dual)
{
    int opp = 1 - p;
    uint32_t n_opp = b->n_seq[opp], e_rows = 1 + b->t->infosets_of[p];
    lp->reached = sf_behaviour(b, p, col, policy);
    if (dual) /* the duals of the rows over opponent sequences: the opponent's plan */
        *dual = (sf_lp){ .sequences = n_opp, .rows = lp->cols, .cols = lp->rows, .nonzeros = lp->nonzeros,
                         .value = -lp->value, .reached = sf_behaviour(b, opp, row + e_rows, policy) };
}

/* Solves lpx with the solver o asks for: the columns' values into col, the rows' duals into row, the value
 * and iterations into lp. 0, or -1 with a message. */
static int sf_optimum(const sf_build *b, glp_prob *lpx, int p, const sf_options *o, double *col, double *row,
                      sf_lp *lp, char *err, size_t errlen)
{
    if (o->solver == SF_CLP) {
        lc_result r;
        size_t n = (size_t)glp_get_num_cols(lpx), total = n + (size_t)glp_get_num_rows(lpx);
        bool warm = o->warm && o->only == p;
        uint64_t *name = warm ? malloc(sizeof *name * total) : NULL;
        unsigned char *basis = warm ? malloc(total) : NULL;
        if (warm && (!name || !basis)) {
            free(name);
            free(basis);
            sf_fail(err, errlen, "out of memory");
            return -1;
        }
        if (warm) {
            sf_names(b, p, name);
            for (size_t k = 0; k < total; k++)
                basis[k] = sf_basis_get(o->warm, name[k], k < n ? LC_AT_LOWER : LC_BASIC);
        }
        int rc = lc_solve(lpx, o->time_limit, basis, col, row, basis, &r);
        for (size_t k = 0; warm && rc == 0 && k < total; k++)
            if (sf_basis_put(o->warm, name[k], basis[k]) != 0)
                break; /* out of memory: the next LP starts from less */
        free(name);
        free(basis);
        if (rc != 0) {
            sf_fail(err, errlen, "CLP found no optimum of %s's LP (or ran out of time)", p ? "White" : "Black");
            return -1;
        }
        lp->value = r.value;
        lp->iterations = r.iterations;
        return 0;
    }
    if (sf_simplex(lpx, p, o, err, errlen) != 0)
        return -1;
    lp->value = glp_get_obj_val(lpx);
    lp->iterations = glp_get_it_cnt(lpx);
    for (int j = 1; j <= glp_get_num_cols(lpx); j++)
        col[j - 1] = glp_get_col_prim(lpx, j);
    for (int i = 1; i <= glp_get_num_rows(lpx); i++)
        row[i - 1] = glp_get_row_dual(lpx, i);
    return 0;
}

/* Player p's LP. Columns 1..S_p: the plan x (x_0 the empty sequence); columns S_p+1..S_p+1+I_o: q_0 and one
 * q per opponent information state. Rows 1..1+I_p: E_p x = e_p; then one row per opponent sequence s:
 * (F_o' q)_s - sum_x A_p[x][s] x <= 0. Every variable is boxed, which changes no optimum and lets the dual
 * simplex start dual feasible (no phase 1) and take long steps: a realisation weight lies in [0, 1], and
 * some optimum has each q_J equal to the opponent's best-response value in J's subtree, weighted by p's
 * plan and chance: a sum over leaves whose weights add up to at most 1, so |q_J| <= max |utility|. */
static int sf_player(const sf_build *b, int p, const sf_options *o, double *policy, sf_lp *lp, sf_lp *dual,
                     char *err, size_t errlen)
{
    double t0 = clk_now();
    glp_prob *lpx = sf_load(b, p, lp, err, errlen);
    if (!lpx)
        return -1;
    if (o->write_mps) {
        int term = glp_term_out(GLP_OFF);
        int rc = glp_write_mps(lpx, GLP_MPS_FILE, NULL, o->write_mps);
        glp_term_out(term);
        glp_delete_prob(lpx);
        if (rc != 0)
            sf_fail(err, errlen, "%s: cannot write the LP", o->write_mps);
        return rc ? -1 : 0;
    }
    double *col = malloc(sizeof *col * ((size_t)glp_get_num_cols(lpx) + 1));
    double *row = malloc(sizeof *row * ((size_t)glp_get_num_rows(lpx) + 1));
    int rc = -1;
    if (!col || !row)
        sf_fail(err, errlen, "out of memory");
    else if ((rc = sf_optimum(b, lpx, p, o, col, row, lp, err, errlen)) == 0)
        sf_plans(b, p, col, row, policy, lp, dual);
    free(col);
    free(row);
    glp_delete_prob(lpx);
    if (rc != 0)
        return -1;
    lp->seconds = clk_now() - t0;
    return 0;
}

/* Numbers t's sequences, finds each information state's parent sequence and gathers the merged leaves into
 * b (freed with sf_build_free, also on failure). 0, or -1 with a message. */
static int sf_prepare(const sv_tree *t, sf_build *b, char *err, size_t errlen)
{
    *b = (sf_build){ .t = t, .seq = malloc(sizeof(uint32_t) * (t->n_actions ? t->n_actions : 1)),
                     .parent = malloc(sizeof(uint32_t) * (t->n_infosets ? t->n_infosets : 1)),
                     .local = malloc(sizeof(uint32_t) * (t->n_infosets ? t->n_infosets : 1)), .n_seq = { 1, 1 } };
    if (t->view_keys) {
        sf_fail(err, errlen, "the tree is keyed by views (imperfect recall): the sequence form needs perfect recall");
        return -1;
    }
    if (!b->seq || !b->parent || !b->local) {
        sf_fail(err, errlen, "out of memory");
        return -1;
    }
    uint32_t count[2] = { 0, 0 };
    for (uint32_t k = 0; k < t->n_infosets; k++) {
        const sv_infoset *is = &t->infosets[k];
        b->parent[k] = SF_NONE;
        b->local[k] = count[is->player]++;
        for (int a = 0; a < is->n; a++)
            b->seq[is->offset + a] = b->n_seq[is->player]++;
    }
    if (t->n_nodes)
        sf_walk(b, 0, 0, 0, 1.0);
    if (b->no_memory) {
        sf_fail(err, errlen, "out of memory");
        return -1;
    }
    if (b->bad_recall) {
        sf_fail(err, errlen, "an information state follows different sequences of its player: not perfect recall");
        return -1;
    }
    sf_merge(b);
    return 0;
}

static void sf_build_free(sf_build *b)
{
    free(b->seq);
    free(b->parent);
    free(b->local);
    free(b->leaves);
}

int sf_solve(const sv_tree *t, const sf_options *o, double *policy, sf_result *r, char *err, size_t errlen)
{
    sf_options def;
    if (!o) {
        sf_options_default(&def);
        o = &def;
    }
    memset(r, 0, sizeof *r);
    double t0 = clk_now();
    sf_build b;
    int rc = -1;
    if (sf_prepare(t, &b, err, errlen) != 0)
        goto out;
    r->leaves = b.terminals;
    r->payoff_nonzeros = b.n_leaves;
    double built = clk_now() - t0;
    for (int p = 0; p < 2; p++)
        if ((o->only < 0 || o->only == p) &&
            sf_player(&b, p, o, policy, &r->lp[p], o->only == p ? &r->lp[1 - p] : NULL, err, errlen) != 0)
            goto out;
    r->lp[0].seconds += built / 2;
    r->lp[1].seconds += built / 2;
    r->value = (r->lp[0].value - r->lp[1].value) / 2;
    r->gap = fabs(r->lp[0].value + r->lp[1].value);
    rc = 0;
out:
    sf_build_free(&b);
    return rc;
}

/* Player p's behaviour strategy from its exact realisation plan w (over its sequences) into policy. */
static void sf_behaviour_exact(const sf_build *b, int p, mpq_t *const w, mpq_t *policy)
{
    const sv_tree *t = b->t;
    mpq_t sum;
    mpq_init(sum);
    for (uint32_t k = 0; k < t->n_infosets; k++) {
        const sv_infoset *is = &t->infosets[k];
        if (is->player != p)
            continue;
        mpq_set_ui(sum, 0, 1);
        for (int a = 0; a < is->n; a++)
            mpq_add(sum, sum, w[b->seq[is->offset + a]]);
        for (int a = 0; a < is->n; a++)
            if (mpq_sgn(sum) > 0)
                mpq_div(policy[is->offset + a], w[b->seq[is->offset + a]], sum);
            else
                mpq_set_ui(policy[is->offset + a], 1, (unsigned long)is->n);
    }
    mpq_clear(sum);
}

int sf_solve_exact(const sv_tree *t, int p, const sf_basis *start, mpq_t *policy, mpq_t value, char *err,
                   size_t errlen)
{
    sf_build b;
    glp_prob *lpx = NULL;
    mpq_t *x = NULL, *y = NULL;
    uint64_t *name = NULL;
    unsigned char *basis = NULL;
    size_t n = 0, m = 0;
    int rc = -1;
    if (sf_prepare(t, &b, err, errlen) != 0)
        goto out;
    sf_lp lp;
    int opp = 1 - p;
    if (!(lpx = sf_load(&b, p, &lp, err, errlen)))
        goto out;
    n = (size_t)glp_get_num_cols(lpx), m = (size_t)glp_get_num_rows(lpx);
    x = lx_array(n), y = lx_array(m);
    if (start) {
        name = malloc(sizeof *name * (n + m));
        basis = malloc(n + m);
    }
    if (!x || !y || (start && (!name || !basis))) {
        sf_fail(err, errlen, "out of memory");
        goto out;
    }
    if (start) {
        sf_names(&b, p, name);
        for (size_t k = 0; k < n + m; k++)
            basis[k] = sf_basis_get(start, name[k], k < n ? LC_AT_LOWER : LC_BASIC);
    }
    if (lx_solve(lpx, basis, x, y, value, err, errlen) != 0)
        goto out;
    if (p == 1)
        mpq_neg(value, value); /* White's LP maximises White's value */
    sf_behaviour_exact(&b, p, x, policy);
    /* the opponent's plan: the duals of the rows over its sequences, scaled so that its empty sequence weighs 1
     * (the solver's sign convention aside) */
    mpq_t *w = y + 1 + t->infosets_of[p];
    if (!mpq_sgn(w[0])) {
        sf_fail(err, errlen, "the exact LP's duals give %s no plan (its empty sequence weighs 0)", opp ? "White" : "Black");
        goto out;
    }
    mpq_t scale;
    mpq_init(scale);
    mpq_inv(scale, w[0]);
    bool negative = false;
    for (uint32_t s = 0; s < b.n_seq[opp]; s++) {
        mpq_mul(w[s], w[s], scale);
        negative |= mpq_sgn(w[s]) < 0;
    }
    mpq_clear(scale);
    if (negative) {
        sf_fail(err, errlen, "the exact LP's duals give %s a plan with negative weights", opp ? "White" : "Black");
        goto out;
    }
    sf_behaviour_exact(&b, opp, w, policy);
    rc = 0;
out:
    if (lpx)
        glp_delete_prob(lpx);
    lx_array_free(x, n);
    lx_array_free(y, m);
    free(name);
    free(basis);
    sf_build_free(&b);
    return rc;
}
