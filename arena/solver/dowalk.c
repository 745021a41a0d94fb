/* arena/solver/dowalk.c — the double oracle on the rules engine (see dowalk.h): sparse pure strategies, the
 * payoff of a pair by playing it out, the best response to a mixture by the walk over the responder's
 * information states with the vector of (support member, game) pairs, and the loop (the restricted game and its
 * LP are matgame.c's, as doracle.c's). */
#include "dowalk.h"
#include "dwdefault.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game.h"
#include "matgame.h"

#define DW_IMPROVE 1e-12 /* a best response joins its set when it beats the restricted value by more */
#define DW_NEGLIGIBLE 1e-12 /* mixture weights below this share are dropped (see dowalk.h) */
#define DW_LEVELS (2 * DW_MAX_CELLS + 4)

struct dw_pure {
    uint64_t *keys; /* open addressing; 0 empty (key 0 itself in has_zero/zero_cell) */
    uint8_t *cells;
    size_t cap, n;
    bool has_zero;
    uint8_t zero_cell;
    uint32_t salt; /* 0: dw_default where nothing is stored; else dw_default_spread */
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void fail(char *err, size_t errlen, const char *msg)
{
    if (err && errlen)
        snprintf(err, errlen, "%s", msg);
}

dw_pure *dw_pure_new(void)
{
    return calloc(1, sizeof(dw_pure));
}

void dw_pure_free(dw_pure *s)
{
    if (!s)
        return;
    free(s->keys);
    free(s->cells);
    free(s);
}

static inline size_t slot_of(uint64_t key, size_t cap)
{
    return (size_t)(key * 0x9e3779b97f4a7c15ULL >> 7) & (cap - 1);
}

int dw_pure_set(dw_pure *s, uint64_t key, int cell)
{
    if (key == 0) {
        s->n += !s->has_zero;
        s->has_zero = true;
        s->zero_cell = (uint8_t)cell;
        return 0;
    }
    if (2 * (s->n + 1) > s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        uint64_t *k = calloc(cap, sizeof *k);
        uint8_t *c = malloc(cap);
        if (!k || !c) {
            free(k);
            free(c);
            return -1;
        }
        for (size_t i = 0; i < s->cap; i++)
            if (s->keys[i]) {
                size_t j = slot_of(s->keys[i], cap);
                while (k[j])
                    j = (j + 1) & (cap - 1);
                k[j] = s->keys[i];
                c[j] = s->cells[i];
            }
        free(s->keys);
        free(s->cells);
        s->keys = k;
        s->cells = c;
        s->cap = cap;
    }
    size_t j = slot_of(key, s->cap);
    while (s->keys[j] && s->keys[j] != key)
        j = (j + 1) & (s->cap - 1);
    if (!s->keys[j]) {
        s->keys[j] = key;
        s->n++;
    }
    s->cells[j] = (uint8_t)cell;
    return 0;
}

int dw_pure_get(const dw_pure *s, uint64_t key)
{
    if (key == 0)
        return s->has_zero ? s->zero_cell : -1;
    if (!s->cap)
        return -1;
    for (size_t j = slot_of(key, s->cap);; j = (j + 1) & (s->cap - 1)) {
        if (!s->keys[j])
            return -1;
        if (s->keys[j] == key)
            return s->cells[j];
    }
}

size_t dw_pure_size(const dw_pure *s)
{
    return s->n;
}

int dw_pure_each(const dw_pure *s, int (*fn)(void *ctx, uint64_t key, int cell), void *ctx)
{
    if (s->has_zero && fn(ctx, 0, s->zero_cell) != 0)
        return -1;
    for (size_t j = 0; j < s->cap; j++)
        if (s->keys[j] && fn(ctx, s->keys[j], s->cells[j]) != 0)
            return -1;
    return 0;
}

/* Whether two strategies store the same cells at the same states. */
static bool pure_equal(const dw_pure *a, const dw_pure *b)
{
    if (a->n != b->n || a->salt != b->salt || a->has_zero != b->has_zero || (a->has_zero && a->zero_cell != b->zero_cell))
        return false;
    for (size_t i = 0; i < a->cap; i++)
        if (a->keys[i] && dw_pure_get(b, a->keys[i]) != a->cells[i])
            return false;
    return true;
}

bool dw_supported(hx_variant v, int rows, int cols, const char **why)
{
    if (!hx_variant_dark(v)) {
        *why = "the walk is for the dark variants";
        return false;
    }
    if (rows < HX_MIN_SIDE || cols < HX_MIN_SIDE || rows * cols > DW_MAX_CELLS) {
        *why = "the walk handles boards of at most 16 cells";
        return false;
    }
    return true;
}

void dw_pure_set_salt(dw_pure *s, uint32_t salt)
{
    s->salt = salt;
}

int dw_pure_play_key(const dw_pure *s, const hx_game *g, uint64_t key, dw_memo *memo)
{
    int c = dw_pure_get(s, key);
    if (c >= 0 && hx_check(g, c) == 0)
        return c;
    return s->salt ? dw_default_spread(g, key, s->salt) : dw_default_memo(memo, g);
}

int dw_pure_play(const dw_pure *s, const hx_game *g, dw_memo *memo)
{
    return dw_pure_play_key(s, g, hx_key_fingerprint(g, hx_to_move(g)), memo);
}

double dw_payoff(hx_variant v, int rows, int cols, const dw_pure *b, const dw_pure *w, dw_memo *memo)
{
    hx_game g;
    if (hx_new(&g, v, rows, cols, 0) != 0)
        return 0;
    while (!hx_over(&g))
        hx_attempt(&g, dw_pure_play(hx_to_move(&g) == HX_BLACK ? b : w, &g, memo));
    return hx_winner(&g) == HX_BLACK ? 1.0 : -1.0;
}

/* ---- the best-response walk ---- */

typedef struct {
    hx_game g;
    uint64_t h[2]; /* each player's key hash so far, unfinished (hx_key_extend()) */
    double w;
    uint32_t j;
    uint64_t key; /* the responder's key once it is to move */
} elem;

/* An attempt in e's game, each player's key hash extended by what it was told. */
static void elem_attempt(elem *e, int cell)
{
    int n = hx_num_attempts(&e->g);
    hx_attempt(&e->g, cell);
    if (hx_num_attempts(&e->g) != n)
        for (int p = 0; p < 2; p++)
            e->h[p] = hx_key_extend(&e->g, p, e->h[p]);
}

typedef struct {
    uint64_t key;
    uint32_t i;
} keyed;

typedef struct {
    elem *v;
    keyed *idx;
    uint32_t n, cap;
} level;

typedef struct {
    int p;
    int first;       /* Black's first attempt fixed to this cell (p 0 only), or -1 */
    const dw_pure *const *opp;
    level lv[DW_LEVELS + 1];
    uint64_t *ek;    /* the strategy being built: a stack of (key, cell) */
    uint8_t *ec;
    size_t en, ecap;
    uint64_t states;
    dw_memo *memo;   /* the opponent's default cells */
    bool oom;
} bw;

static elem *level_push(bw *b, level *l)
{
    if (l->n == l->cap) {
        uint32_t cap = l->cap ? 2 * l->cap : 16;
        elem *v = realloc(l->v, sizeof *v * cap);
        if (!v) {
            b->oom = true;
            return NULL;
        }
        l->v = v;
        keyed *idx = realloc(l->idx, sizeof *idx * cap);
        if (!idx) {
            b->oom = true;
            return NULL;
        }
        l->idx = idx;
        l->cap = cap;
    }
    return &l->v[l->n++];
}

static int entry_push(bw *b, uint64_t key, int cell)
{
    if (b->en == b->ecap) {
        size_t cap = b->ecap ? 2 * b->ecap : 1024;
        uint64_t *k = realloc(b->ek, sizeof *k * cap);
        if (!k)
            return -1;
        b->ek = k;
        uint8_t *c = realloc(b->ec, cap);
        if (!c)
            return -1;
        b->ec = c;
        b->ecap = cap;
    }
    b->ek[b->en] = key;
    b->ec[b->en++] = (uint8_t)cell;
    return 0;
}

/* Plays the opponent's moves in e until the responder is to move or the game is over. Returns the
 * responder's utility weighted when over (and *over set), else 0 with e->key set. */
static double advance(const bw *b, elem *e, bool *over)
{
    const int o = b->p ^ 1;
    while (!hx_over(&e->g) && hx_to_move(&e->g) != b->p)
        elem_attempt(e, dw_pure_play_key(b->opp[e->j], &e->g, hx_key_finish(e->h[o]), b->memo));
    if (hx_over(&e->g)) {
        *over = true;
        return e->w * (hx_winner(&e->g) == b->p ? 1.0 : -1.0);
    }
    *over = false;
    e->key = hx_key_finish(e->h[b->p]);
    return 0;
}

static int by_key(const void *x, const void *y)
{
    const keyed *a = x, *c = y;
    return a->key != c->key ? (a->key < c->key ? -1 : 1) : (a->i > c->i) - (a->i < c->i);
}

static double walk_state(bw *b, int d, const elem *const *group, uint32_t n);

/* The value of the games in level d (already advanced, none over), grouped by the responder's key. */
static double walk_groups(bw *b, int d)
{
    level *l = &b->lv[d];
    for (uint32_t i = 0; i < l->n; i++)
        l->idx[i] = (keyed){ l->v[i].key, i };
    qsort(l->idx, l->n, sizeof *l->idx, by_key);
    const elem *grp[64], **gp = grp;
    const elem **heap = NULL;
    if (l->n > 64) {
        heap = malloc(sizeof *heap * l->n);
        if (!heap) {
            b->oom = true;
            return 0;
        }
        gp = heap;
    }
    for (uint32_t i = 0; i < l->n; i++)
        gp[i] = &l->v[l->idx[i].i];
    double sum = 0;
    for (uint32_t i = 0; i < l->n && !b->oom;) {
        uint32_t k = i + 1;
        while (k < l->n && gp[k]->key == gp[i]->key)
            k++;
        sum += walk_state(b, d + 1, gp + i, k - i);
        i = k;
    }
    free(heap);
    return sum;
}

/* One responder information state (the n games of the group, all with the responder to move): the best
 * cell's value; its cell and the cells below it pushed on the strategy stack. */
static double walk_state(bw *b, int d, const elem *const *group, uint32_t n)
{
    b->states++;
    if (d > DW_LEVELS) {
        b->oom = true;
        return 0;
    }
    uint16_t legal[HX_MAX_CELLS + 1];
    int nl = hx_legal(&group[0]->g, legal);
    if (b->first >= 0 && hx_num_attempts(&group[0]->g) == 0) /* Black's opening is fixed */
        legal[0] = (uint16_t)b->first, nl = 1;
    size_t start = b->en, best_end = start;
    double best = -INFINITY;
    int best_cell = legal[0];
    level *l = &b->lv[d];
    double all = 0, least = INFINITY; /* the group's weight, its least member's */
    for (uint32_t i = 0; i < n; i++) {
        all += group[i]->w;
        least = fmin(least, group[i]->w);
    }
    for (int a = 0; a < nl && !b->oom; a++) {
        double val = 0;
        l->n = 0;
        for (uint32_t i = 0; i < n; i++) {
            elem *e = level_push(b, l);
            if (!e)
                return 0;
            hx_copy(&e->g, &group[i]->g);
            e->h[0] = group[i]->h[0], e->h[1] = group[i]->h[1];
            e->w = group[i]->w;
            e->j = group[i]->j;
            elem_attempt(e, legal[a]);
            bool over;
            val += advance(b, e, &over);
            if (over)
                l->n--;
        }
        size_t mark = b->en;
        if (l->n)
            val += walk_groups(b, d);
        if (val > best) {
            size_t len = b->en - mark;
            if (mark != start) {
                memmove(b->ek + start, b->ek + mark, sizeof *b->ek * len);
                memmove(b->ec + start, b->ec + mark, len);
            }
            b->en = best_end = start + len;
            best = val;
            best_cell = legal[a];
        } else {
            b->en = best_end;
        }
        /* every game of the group won: no cell does better (a loss would cost at least twice the least
         * weight, far above rounding) */
        if (best > all - least)
            break;
    }
    if (entry_push(b, group[0]->key, best_cell) != 0)
        b->oom = true;
    return best;
}

int dw_best_response(hx_variant v, int rows, int cols, int p, const dw_pure *const *opp, const double *w, int k,
                     double *value, dw_pure **out, uint64_t *states, char *err, size_t errlen)
{
    return dw_best_response_first(v, rows, cols, -1, p, opp, w, k, value, out, states, err, errlen);
}

int dw_best_response_first(hx_variant v, int rows, int cols, int first, int p, const dw_pure *const *opp,
                           const double *w, int k, double *value, dw_pure **out, uint64_t *states, char *err,
                           size_t errlen)
{
    const char *why;
    if (!dw_supported(v, rows, cols, &why)) {
        fail(err, errlen, why);
        return -1;
    }
    if (first < -1 || first >= rows * cols) {
        fail(err, errlen, "a first cell off the board");
        return -1;
    }
    double sum = 0, total = 0;
    for (int j = 0; j < k; j++)
        sum += w[j] > 0 ? w[j] : 0;
    for (int j = 0; j < k; j++)
        total += w[j] > DW_NEGLIGIBLE * sum ? w[j] : 0;
    if (!(total > 0)) {
        fail(err, errlen, "a mixture without positive weight");
        return -1;
    }
    bw b = { .p = p, .first = p == 0 ? first : -1, .opp = opp, .memo = dw_memo_new() };
    if (!b.memo) {
        fail(err, errlen, "out of memory");
        return -1;
    }
    hx_game g0;
    hx_new(&g0, v, rows, cols, 0);
    double val = 0;
    level *l = &b.lv[0];
    for (int j = 0; j < k && !b.oom; j++) {
        if (!(w[j] > DW_NEGLIGIBLE * sum))
            continue;
        elem *e = level_push(&b, l);
        if (!e)
            break;
        hx_copy(&e->g, &g0);
        e->h[0] = e->h[1] = HX_KEY_SEED;
        e->w = w[j] / total;
        e->j = (uint32_t)j;
        bool over;
        val += advance(&b, e, &over);
        if (over)
            l->n--;
    }
    if (!b.oom && l->n)
        val += walk_groups(&b, 0);
    dw_pure *s = NULL;
    if (!b.oom && out) {
        s = dw_pure_new();
        if (!s)
            b.oom = true;
        for (size_t i = 0; s && i < b.en; i++)
            if (dw_pure_set(s, b.ek[i], b.ec[i]) != 0) {
                b.oom = true;
                break;
            }
    }
    for (int d = 0; d <= DW_LEVELS; d++) {
        free(b.lv[d].v);
        free(b.lv[d].idx);
    }
    free(b.ek);
    free(b.ec);
    dw_memo_free(b.memo);
    if (states)
        *states += b.states;
    if (b.oom) {
        dw_pure_free(s);
        fail(err, errlen, "out of memory in the best-response walk");
        return -1;
    }
    *value = val;
    if (out)
        *out = s;
    return 0;
}

/* ---- the loop ---- */

typedef struct {
    hx_variant v;
    int rows, cols;
    dw_pure **set[2];
    uint32_t n_set[2], cap_set[2];
    mg_game game; /* the restricted game (matgame.h) */
    dw_memo *memo; /* default cells, for the payoffs */
} dws;

/* The payoff of the strategy being added (st, player p's) against the other player's k-th (mg_payoff). */
typedef struct {
    const dws *s;
    int p;
    const dw_pure *st;
} pay_ctx;

static double pay_of(void *ctx, uint32_t k)
{
    const pay_ctx *c = ctx;
    const dws *s = c->s;
    return c->p == 0 ? dw_payoff(s->v, s->rows, s->cols, c->st, s->set[1][k], s->memo)
                     : dw_payoff(s->v, s->rows, s->cols, s->set[0][k], c->st, s->memo);
}

/* Adds st (taken over on 1, freed on 0 and -1) to p's set with its row or column: 1 added, 0 already there,
 * -1 out of memory. */
static int add_strategy(dws *s, int p, dw_pure *st)
{
    for (uint32_t j = 0; j < s->n_set[p]; j++)
        if (pure_equal(s->set[p][j], st)) {
            dw_pure_free(st);
            return 0;
        }
    if (s->n_set[p] == s->cap_set[p]) {
        uint32_t cap = s->cap_set[p] ? 2 * s->cap_set[p] : 64;
        dw_pure **grown = realloc(s->set[p], sizeof *grown * cap);
        if (!grown) {
            dw_pure_free(st);
            return -1;
        }
        s->set[p] = grown;
        s->cap_set[p] = cap;
    }
    pay_ctx c = { s, p, st };
    if (mg_add(&s->game, p, pay_of, &c) != 0) {
        dw_pure_free(st);
        return -1;
    }
    s->set[p][s->n_set[p]++] = st;
    return 1;
}

void dw_mixture_free(dw_mixture *m)
{
    for (int j = 0; j < m->k; j++)
        dw_pure_free(m->member[j]);
    free(m->member), free(m->weight);
    memset(m, 0, sizeof *m);
}

/* Copies the n weights w into *best (grown to hold them). 0, or -1 out of memory. */
static int keep_weights(double **best, uint32_t *n_best, const double *w, uint32_t n)
{
    double *b = realloc(*best, sizeof *b * (n ? n : 1));
    if (!b)
        return -1;
    memcpy(b, w, sizeof *b * n);
    *best = b;
    *n_best = n;
    return 0;
}

/* Moves the members of p's set with weight above 1e-12 of the sum into m (they leave the set). */
static int take_mixture(dws *s, int p, const double *w, uint32_t n, dw_mixture *m)
{
    double sum = 0;
    for (uint32_t j = 0; j < n; j++)
        sum += w[j];
    m->member = malloc(sizeof *m->member * (n ? n : 1));
    m->weight = malloc(sizeof *m->weight * (n ? n : 1));
    if (!m->member || !m->weight || !(sum > 0))
        return -1;
    double kept = 0;
    for (uint32_t j = 0; j < n; j++)
        if (w[j] > 1e-12 * sum) {
            m->member[m->k] = s->set[p][j];
            m->weight[m->k++] = w[j];
            s->set[p][j] = NULL;
            kept += w[j];
        }
    for (int j = 0; j < m->k; j++)
        m->weight[j] /= kept;
    return 0;
}

void dw_options_default(dw_options *o)
{
    *o = (dw_options){ .tolerance = 1e-10, .first = -1 };
}

int dw_solve(hx_variant v, int rows, int cols, const dw_options *o, dw_result *r, char *err, size_t errlen)
{
    double t0 = now();
    *r = (dw_result){ .lower = -INFINITY, .upper = INFINITY, .gap = INFINITY };
    const char *why;
    if (!dw_supported(v, rows, cols, &why)) {
        fail(err, errlen, why);
        return -1;
    }
    if (o->first >= 0) {
        fail(err, errlen, "a fixed first cell is for the sequence oracle");
        return -1;
    }
    dws s = { .v = v, .rows = rows, .cols = cols, .memo = dw_memo_new() };
    int rc = -1;
    double *best_w[2] = { NULL, NULL };
    uint32_t n_best[2] = { 0, 0 };
    if (!s.memo || mg_init(&s.game, 1.0) != 0) { /* payoffs are wins and losses: +-1 */
        fail(err, errlen, "out of memory");
        goto done;
    }
    for (int p = 0; p < 2; p++) {
        dw_pure *st = dw_pure_new();
        if (!st || add_strategy(&s, p, st) < 0) {
            fail(err, errlen, "out of memory");
            goto done;
        }
    }
    for (;;) {
        double t1 = now(), val;
        if (mg_solve(&s.game, false, &val, &r->lp_iterations, err, errlen) != 0)
            goto done;
        double t2 = now();
        r->seconds_lp += t2 - t1;
        r->iterations++;
        r->value = val;
        double upper, lower;
        dw_pure *black = NULL, *white = NULL;
        if (dw_best_response(v, rows, cols, 0, (const dw_pure *const *)s.set[1], s.game.y, (int)s.n_set[1], &upper,
                             &black, &r->states, err, errlen) != 0)
            goto done;
        if (dw_best_response(v, rows, cols, 1, (const dw_pure *const *)s.set[0], s.game.x, (int)s.n_set[0], &lower,
                             &white, &r->states, err, errlen) != 0) {
            dw_pure_free(black);
            goto done;
        }
        lower = -lower;
        r->seconds_oracle += now() - t2;
        bool kept = true;
        if (lower > r->lower) {
            r->lower = lower;
            kept = !o->keep || keep_weights(&best_w[0], &n_best[0], s.game.x, s.n_set[0]) == 0;
        }
        if (upper < r->upper) {
            r->upper = upper;
            kept = kept && (!o->keep || keep_weights(&best_w[1], &n_best[1], s.game.y, s.n_set[1]) == 0);
        }
        if (!kept) {
            dw_pure_free(black);
            dw_pure_free(white);
            fail(err, errlen, "out of memory");
            goto done;
        }
        r->gap = r->upper - r->lower;
        mg_support(&s.game, r->support);
        r->strategies[0] = s.n_set[0];
        r->strategies[1] = s.n_set[1];
        if (o->progress) {
            do_progress_info info = { .iteration = r->iterations, .value = val, .lower = r->lower,
                                      .upper = r->upper, .strategies = { s.n_set[0], s.n_set[1] },
                                      .support = { r->support[0], r->support[1] }, .seconds = now() - t0 };
            o->progress(o->ctx, &info);
        }
        if (r->gap <= o->tolerance) {
            dw_pure_free(black);
            dw_pure_free(white);
            r->converged = true;
            break;
        }
        int added = 0, a;
        if (upper > val + DW_IMPROVE) {
            a = add_strategy(&s, 0, black);
            if (a < 0) {
                dw_pure_free(white);
                fail(err, errlen, "out of memory");
                goto done;
            }
            added += a;
        } else {
            dw_pure_free(black);
        }
        if (lower < val - DW_IMPROVE) {
            if ((a = add_strategy(&s, 1, white)) < 0) {
                fail(err, errlen, "out of memory");
                goto done;
            }
            added += a;
        } else {
            dw_pure_free(white);
        }
        if (!added) {
            r->stalled = true;
            break;
        }
        if (o->max_iterations > 0 && r->iterations >= o->max_iterations)
            break;
        if (o->time_limit > 0 && now() - t0 >= o->time_limit)
            break;
    }
    r->strategies[0] = s.n_set[0];
    r->strategies[1] = s.n_set[1];
    r->bytes = mg_bytes(&s.game);
    for (int p = 0; p < 2; p++)
        for (uint32_t j = 0; j < s.n_set[p]; j++) {
            r->stored += s.set[p][j]->n;
            r->bytes += s.set[p][j]->cap * (sizeof(uint64_t) + 1) + sizeof(dw_pure);
        }
    if (o->keep)
        for (int p = 0; p < 2; p++)
            if (take_mixture(&s, p, best_w[p], n_best[p], &o->keep[p]) != 0) {
                dw_mixture_free(&o->keep[0]);
                dw_mixture_free(&o->keep[1]);
                fail(err, errlen, "out of memory");
                goto done;
            }
    rc = 0;
done:
    free(best_w[0]), free(best_w[1]);
    r->seconds = now() - t0;
    for (int p = 0; p < 2; p++) {
        for (uint32_t j = 0; j < s.n_set[p]; j++)
            dw_pure_free(s.set[p][j]);
        free(s.set[p]);
    }
    mg_free(&s.game);
    dw_memo_free(s.memo);
    return rc;
}
