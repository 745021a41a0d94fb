/* arena/solver/infowalk.c — exact evaluation by walking each player's information states with the vector
 * of consistent opponent states (see infowalk.h).
 *
 * Walker p, opponent o. A vector element is one opponent information state: its key-hash state, its
 * stones, the walker stones it has learned, the reports it received, and its reach. At a walker state
 * (own stones B, learned opponent stones K, key-hash state) every legal cell c splits the vector: elements
 * holding c collide (classical: the walker moves again; abrupt: the opponent moves), the others see a
 * placement, which either wins or hands the move to the opponent. The opponent's turn maps an element to
 * its successors (a classical rejection keeps the opponent to move). In the -noisy and -flash variants
 * the walker is told of the opponent's collisions, so the successors are grouped by what the walker was
 * told (the walker's key after the turn); each group is one walker information state. When the opponent's
 * policy ignores its key-hash state (uniform, view keys), an element is a class of opponent states that
 * see the same, merged as the opponent's turn produces them (push). Buffers are per recursion level and
 * reused, so the walk allocates only while its vectors grow. */
#define _DEFAULT_SOURCE /* madvise(MADV_HUGEPAGE) */
#include "infowalk.h"

#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "board.h"
#include "game.h"
#include "grow.h"
#include "cfr.h"

enum { MAX_LEVELS = 4 * IW_MAX_CELLS + 8, CELL_SHIFT = 9, RECENT = 1 << 16, PREFETCH_AHEAD = 4 };
#define HUGE_PAGE ((size_t)2 << 20)

/* One player's policy as an open-addressing table: key, the cells it lists, a probability per cell. */
typedef struct {
    uint64_t key;
    double scale;   /* policy files: 1 / the sum of the state's probabilities (a policy is normalised as read) */
    uint32_t cells; /* 0: empty slot */
    uint32_t off;   /* CFR tables: the state's first action in the table's arrays (cells ascending) */
    uint32_t still; /* CFR tables: no regret here or at any later state of the player: uniform from here on;
                     * policy files: the same found on demand (0 unknown, 1 uniform from here on, 2 not) */
    float p[];
} slot;

typedef struct {
    unsigned char *slots;
    size_t mask, stride;
    int shift;   /* a key's home slot is its top bits (keys are hashes): a file's sorted keys fill it in order */
    bool lazy;   /* a policy file (perfect-recall keys, no reports): uniform subtrees are found on demand */
    bool view;
    bool closed; /* perfect-recall keys, a closed file: the states after a missing one are not looked up */
} ptable;

typedef struct {
    int rows, cols, cells;
    unsigned all;
    bool keeps_turn;
    hx_report report;
    uint8_t *wins[2];
    uint8_t *bits;   /* bits[set]: the number of cells in set */
    double recip[IW_MAX_CELLS + 1]; /* 1 / n: uniform probabilities without a division */
    ptable tab[2];
} game_ctx;

typedef struct {
    uint64_t ho;      /* the opponent's key-hash state (before hx_key_finish) */
    double r;         /* the opponent's reach */
    uint16_t W, K;    /* opponent stones; walker stones it learned */
    uint8_t rep;      /* collision reports the opponent received */
    uint8_t wrep;     /* reports the walker received in this turn */
    uint8_t off;      /* closed file: a state of this element was missing, it plays uniformly from now on */
} el;

/* A vector. In the -noisy and -flash variants obs[i] is the walker's key-hash state after the opponent's
 * turn that produced v[i] (its group); the other variants have one group per buffer and no obs. */
typedef struct {
    el *v;
    uint64_t *obs;
    uint32_t n, cap;
    bool merge;       /* equal elements are merged on push (see merge_key): all, or (all false) those off */
    bool all;
    uint32_t epoch;   /* map slots of other epochs are empty: a reset is epoch + 1 */
    uint64_t *map;    /* merge: epoch << 32 | index, 2 * cap slots */
} buf;

typedef struct {
    uint64_t obs;
    uint32_t i;
} obs_index;

typedef struct {
    uint64_t *k;
    size_t cap, n;
    bool zero;
} keyset64;

typedef struct {
    double br, ev;
} val;

/* What a walk does at the walker's states: score a policy (best response, expected value); list the
 * states (enumerate); or one player's part of a CFR+ iteration: its average strategy (own reach, the
 * opponent uniform and merged, only the walker's actions of positive probability) or its regrets (against
 * the opponent's current strategy, whose zero-probability actions prune the walk). */
enum { IW_EVAL, IW_ENUM, IW_AVERAGE, IW_REGRET };

/* Reaches below this count as 0 in the CFR passes (as in cfr.c): subnormal arithmetic would cost more
 * than the whole walk. */
#define TINY 1e-30

typedef struct {
    const game_ctx *g;
    int p, o;
    int mode;
    const ptable *otab;     /* the opponent's policy (an empty table: uniform) */
    sv_tree *table;         /* IW_ENUM: the states found (one thread) */
    float *regret;          /* IW_REGRET */
    double *sum, weight;    /* IW_AVERAGE */
    double own[MAX_LEVELS]; /* IW_AVERAGE: the walker's own reach at each level */
    const slot *mine_at[MAX_LEVELS];
    buf hit[MAX_LEVELS][IW_MAX_CELLS], out[MAX_LEVELS][IW_MAX_CELLS]; /* per level, per walker cell */
    const slot **pp[MAX_LEVELS];
    uint64_t *keys[MAX_LEVELS];
    uint32_t ppcap[MAX_LEVELS];
    buf sorted[MAX_LEVELS];          /* -noisy, -flash: a vector regrouped by obs */
    obs_index *order[MAX_LEVELS];
    uint32_t order_cap[MAX_LEVELS];
    keyset64 missing[2];
    uint64_t *recent;       /* direct-mapped: missing keys already counted (skips most repeated inserts) */
    uint64_t infosets, pairs;
    int fail; /* 1 out of memory, 2 a mismatched entry */
    char why[200];
} walker;

static inline const slot *slot_at(const ptable *t, size_t i)
{
    return (const slot *)(const void *)(t->slots + i * t->stride);
}

static inline size_t home(const ptable *t, uint64_t key)
{
    return (size_t)(key >> t->shift);
}

static const slot *table_find(const ptable *t, uint64_t key)
{
    for (size_t i = home(t, key);; i = (i + 1) & t->mask) {
        const slot *s = slot_at(t, i);
        if (!s->cells)
            return NULL;
        if (s->key == key)
            return s;
    }
}

/* An empty table for n states of `cells` cells (a power of two of slots, at most three quarters full). */
static int table_alloc(ptable *t, size_t n, int cells, char *err, size_t errlen)
{
    size_t cap = 16;
    int bits = 4;
    while (3 * cap < 4 * n) {
        cap *= 2;
        bits++;
    }
    t->shift = 64 - bits;
    t->stride = (offsetof(slot, p) + sizeof(float) * (size_t)cells + 63) / 64 * 64;
    t->mask = cap - 1;
    /* Lookups land anywhere in the table: large tables go on huge pages where the system has them, so
     * that a lookup does not also miss the TLB. */
    size_t bytes = cap * t->stride, align = bytes >= HUGE_PAGE ? HUGE_PAGE : 64;
    t->slots = aligned_alloc(align, (bytes + align - 1) / align * align);
    if (!t->slots) {
        snprintf(err, errlen, "out of memory for the policy table (%zu states)", n);
        return -1;
    }
#ifdef MADV_HUGEPAGE
    if (align == HUGE_PAGE)
        madvise(t->slots, (bytes + align - 1) / align * align, MADV_HUGEPAGE); /* a hint: failure is harmless */
#endif
    memset(t->slots, 0, bytes);
    return 0;
}

/* A new state in the table (which has room: twice the states): its key and its n cells with their
 * probabilities. NULL with a message when a cell is not on the board of `board` cells, or (`ascending`)
 * the cells are not in ascending order: a file or table for another game. */
static slot *table_put(ptable *t, uint64_t key, int n, const uint16_t *cells, const float *p, int board,
                       bool ascending, char *err, size_t errlen)
{
    size_t j = home(t, key);
    while (slot_at(t, j)->cells)
        j = (j + 1) & t->mask;
    slot *s = (slot *)(void *)(t->slots + j * t->stride);
    s->key = key;
    for (int k = 0; k < n; k++) {
        unsigned c = cells[k];
        if (c >= (unsigned)board || (ascending && k > 0 && c <= cells[k - 1])) {
            snprintf(err, errlen, "%s lists cell %u %s (a %s for another game)", ascending ? "a state" : "an entry",
                     c, c >= (unsigned)board ? "off the board" : "out of order", ascending ? "table" : "file");
            return NULL;
        }
        s->cells |= 1u << c;
        s->p[c] = p[k];
    }
    return s;
}

static int table_build(ptable *t, const pf_policy *pol, int player, int cells, char *err, size_t errlen)
{
    size_t n = 0;
    for (uint32_t i = 0; i < pol->n_entries; i++)
        n += pol->entries[i].player == player;
    t->view = pol->meta.keys == PF_KEYS_VIEW;
    t->closed = pol->meta.closed && !t->view;
    if (table_alloc(t, n, cells, err, errlen) != 0)
        return -1;
    for (uint32_t i = 0; i < pol->n_entries; i++) {
        const pf_entry *e = &pol->entries[i];
        if (e->player != player)
            continue;
        slot *s = table_put(t, e->key, e->n, pol->cells + e->offset, pol->probs + e->offset, cells, false, err,
                            errlen);
        if (!s)
            return -1;
        double sum = 0;
        for (int k = 0; k < e->n; k++)
            sum += pol->probs[e->offset + k];
        s->scale = 1 / sum;
    }
    return 0;
}

typedef struct {
    game_ctx *g;
    const pf_policy *pol;
    int player, rc;
    char err[300];
} build_job;

static void *build_player(void *arg)
{
    build_job *j = arg;
    ptable *t = &j->g->tab[j->player];
    j->rc = table_build(t, j->pol, j->player, j->g->cells, j->err, sizeof j->err);
    t->lazy = j->rc == 0 && !t->view && j->g->report == HX_REPORT_NONE;
    return NULL;
}

/* Both players' tables from their files (either NULL: uniform), side by side when `threads` allows. */
static int tables_build(game_ctx *g, const pf_policy *pol[2], int threads, char *err, size_t errlen)
{
    build_job j[2] = { { g, pol[0], 0, 0, "" }, { g, pol[1], 1, 0, "" } };
    pthread_t tid;
    bool two = threads > 1 && pol[0] && pol[1] && pthread_create(&tid, NULL, build_player, &j[1]) == 0;
    for (int p = 0; p < 2; p++)
        if (pol[p] && !(p == 1 && two))
            build_player(&j[p]);
    if (two)
        pthread_join(tid, NULL);
    for (int p = 0; p < 2; p++)
        if (pol[p] && j[p].rc != 0) {
            snprintf(err, errlen, "%s", j[p].err);
            return -1;
        }
    return 0;
}

static int keyset_add(keyset64 *s, uint64_t key)
{
    if (key == 0) {
        s->n += !s->zero;
        s->zero = true;
        return 0;
    }
    if (2 * (s->n + 1) > s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 1024;
        uint64_t *k = calloc(cap, sizeof *k);
        if (!k)
            return -1;
        for (size_t i = 0; i < s->cap; i++)
            if (s->k[i]) {
                size_t j = s->k[i] & (cap - 1);
                while (k[j])
                    j = (j + 1) & (cap - 1);
                k[j] = s->k[i];
            }
        free(s->k);
        s->k = k;
        s->cap = cap;
    }
    size_t j = key & (s->cap - 1);
    while (s->k[j] && s->k[j] != key)
        j = (j + 1) & (s->cap - 1);
    if (!s->k[j]) {
        s->k[j] = key;
        s->n++;
    }
    return 0;
}

static void keyset_merge(keyset64 *into, const keyset64 *from, int *fail)
{
    if (from->zero && keyset_add(into, 0) != 0)
        *fail = 1;
    for (size_t i = 0; i < from->cap; i++)
        if (from->k[i] && keyset_add(into, from->k[i]) != 0)
            *fail = 1;
}

/* The key a player's policy is looked up by. */
static uint64_t key_of(const game_ctx *g, int player, uint64_t h, unsigned own, unsigned known, int rep)
{
    if (!g->tab[player].view)
        return hx_key_finish(h);
    uint8_t view[IW_MAX_CELLS];
    for (int c = 0; c < g->cells; c++)
        view[c] = (uint8_t)((own >> c & 1) ? HX_VIEW_OWN : (known >> c & 1) ? HX_VIEW_OPPONENT : HX_VIEW_UNKNOWN);
    return hx_view_key_of(view, g->cells, player, rep);
}

/* The policy of (player, key) at a state whose legal cells are `legal`; NULL means uniform. */
static const slot *find(walker *w, int player, uint64_t key, unsigned legal)
{
    const ptable *t = player == w->o ? w->otab : &w->g->tab[player];
    if (!t->slots)
        return NULL;
    const slot *s = table_find(t, key);
    if (!s) {
        uint64_t *r = w->recent ? &w->recent[(key ^ (uint64_t)player) & (RECENT - 1)] : NULL;
        if (r && *r == (key ^ (uint64_t)player) && key)
            return NULL;
        if (keyset_add(&w->missing[player], key) != 0)
            w->fail = 1;
        if (r)
            *r = key ^ (uint64_t)player;
        return NULL;
    }
    if (s->cells != legal && !w->fail) {
        w->fail = 2;
        snprintf(w->why, sizeof w->why,
                 "the %s entry %016llx lists other cells than its state's legal ones (a file for another game)",
                 player ? "White" : "Black", (unsigned long long)key);
    }
    return s;
}

/* What identifies an element for merging: its stones, learned stones and reports, and (-noisy, -flash) the
 * walker's key after the turn. The opponent's key-hash state is left out: elements are merged only when
 * the opponent's policy does not depend on it (uniform, or a file with view keys), or, in a closed file,
 * when the opponent plays uniformly from here on (off). */
static inline uint64_t merge_key(const el *e)
{
    return (uint64_t)e->W | (uint64_t)e->K << 16 | (uint64_t)e->rep << 32 | (uint64_t)e->wrep << 40 |
           (uint64_t)e->off << 48;
}

static inline bool mergeable(const buf *b, const el *e)
{
    return b->all || e->off;
}

static inline size_t merge_slot(uint64_t key, uint64_t obs)
{
    return (size_t)(((key ^ obs) * 0x9e3779b97f4a7c15ULL) >> 20);
}

static void map_fill(buf *b)
{
    size_t mask = 2 * (size_t)b->cap - 1;
    for (uint32_t j = 0; j < b->n; j++) {
        if (!mergeable(b, &b->v[j]))
            continue;
        size_t i = merge_slot(merge_key(&b->v[j]), b->obs ? b->obs[j] : 0) & mask;
        while ((uint32_t)(b->map[i] >> 32) == b->epoch)
            i = (i + 1) & mask;
        b->map[i] = (uint64_t)b->epoch << 32 | j;
    }
}

static void __attribute__((noinline)) grow(walker *w, buf *b, uint64_t need)
{
    uint32_t cap = grow_capacity(b->cap, need, 256);
    if (!cap || !grow_resize(&b->v, sizeof *b->v, cap) ||
        (w->g->report != HX_REPORT_NONE && !grow_resize(&b->obs, sizeof *b->obs, cap))) {
        w->fail = 1;
        return;
    }
    if (b->merge) {
        free(b->map);
        b->map = calloc(2 * (size_t)cap, sizeof *b->map);
        if (!b->map) {
            w->fail = 1;
            b->merge = false; /* the walk stops; pushes go on without merging */
        } else {
            if (!b->epoch)
                b->epoch = 1;
            b->cap = cap;
            map_fill(b);
            return;
        }
    }
    b->cap = cap;
}

/* Empties a buffer (and, when it merges, its map: a new epoch). */
static inline void reset(buf *b)
{
    b->n = 0;
    if (b->merge && ++b->epoch == 0) {
        if (b->map)
            memset(b->map, 0, 2 * (size_t)b->cap * sizeof *b->map);
        b->epoch = 1;
    }
}

static inline void push(walker *w, buf *b, const el *e, uint64_t obs)
{
    if (__builtin_expect(b->n == b->cap, 0)) {
        grow(w, b, (uint64_t)b->n + 1);
        if (b->n == b->cap)
            return;
    }
    if (b->merge && b->map && mergeable(b, e)) {
        uint64_t key = merge_key(e);
        if (!b->obs)
            obs = 0;
        size_t mask = 2 * (size_t)b->cap - 1, i = merge_slot(key, obs) & mask;
        for (uint64_t s; (uint32_t)((s = b->map[i]) >> 32) == b->epoch; i = (i + 1) & mask) {
            el *x = &b->v[(uint32_t)s];
            if (merge_key(x) == key && (!b->obs || b->obs[(uint32_t)s] == obs)) {
                x->r += e->r;
                return;
            }
        }
        b->map[i] = (uint64_t)b->epoch << 32 | b->n;
    }
    if (b->obs)
        b->obs[b->n] = obs;
    b->v[b->n++] = *e;
}

static inline unsigned legal_of(const game_ctx *g, unsigned own, unsigned known)
{
    return g->all & ~(own | known);
}

/* ---- uniform subtrees of a policy file ----
 *
 * A state whose file policy is uniform, and uniform at every later state of its player's, plays uniformly
 * from there on: like a CFR table's regret-free states, the opponent's walk merges the elements that reach
 * it as a closed file's missing states (same values, far fewer pairs where a policy is uniform over whole
 * subtrees, as the losing side's part of a trained policy often is). Without reports a state's successors
 * are the states after each legal cell placed (unless it wins) and after each that collided, their keys
 * following from its own. A successor missing from a closed file plays uniformly; one missing from an
 * open file might be followed by listed states, so its predecessors are not marked. The mark is found
 * when an element first reaches the state, depth first and stopping at the first state that is not
 * uniform, and kept in the slot (0 unknown, 1 uniform below, 2 not): a function of the file alone, so
 * threads racing on a slot store the same value. */

/* Whether a listed state plays uniformly: its probabilities are equal (normalised as read). */
static bool slot_uniform(const slot *s)
{
    float x = s->p[__builtin_ctz(s->cells)];
    for (unsigned m = s->cells; m; m &= m - 1)
        if (s->p[__builtin_ctz(m)] != x)
            return false;
    return true;
}

static bool uniform_below(const game_ctx *g, const ptable *t, int p, const slot *s, uint64_t h, unsigned W);

/* The state after s's key-hash state h stepped by event ev, W the player's stones there. */
static bool successor_uniform(const game_ctx *g, const ptable *t, int p, uint64_t h, unsigned ev, unsigned W)
{
    uint64_t hs = hx_key_step(h, ev);
    const slot *s = table_find(t, hx_key_finish(hs));
    return s ? uniform_below(g, t, p, s, hs, W) : t->closed;
}

static bool uniform_below(const game_ctx *g, const ptable *t, int p, const slot *s, uint64_t h, unsigned W)
{
    uint32_t *mark = (uint32_t *)(uintptr_t)&s->still;
    uint32_t known = __atomic_load_n(mark, __ATOMIC_RELAXED);
    if (known)
        return known == 1;
    bool still = slot_uniform(s);
    unsigned hit = (unsigned)(g->keeps_turn ? HX_EV_REJECTED : HX_EV_COLLIDED) << CELL_SHIFT;
    for (unsigned m = s->cells; m && still; m &= m - 1) {
        int c = __builtin_ctz(m);
        unsigned bit = 1u << c;
        still = (g->wins[p][W | bit] ||
                 successor_uniform(g, t, p, h, (unsigned)HX_EV_PLACED << CELL_SHIFT | (unsigned)c, W | bit)) &&
                successor_uniform(g, t, p, h, hit | (unsigned)c, W);
    }
    __atomic_store_n(mark, still ? 1u : 2u, __ATOMIC_RELAXED);
    return still;
}

/* Whether the opponent plays uniformly from its state pr on (key-hash state h, stones W). */
static inline bool opp_still(const walker *w, const slot *pr, uint64_t h, unsigned W)
{
    const ptable *t = w->otab;
    return t->lazy ? uniform_below(w->g, t, w->o, pr, h, W) : pr->still;
}

/* Without reports the opponent's next state is fixed when its turn ends: an element whose next state
 * plays uniformly from there on is marked off as it is pushed, so that it merges at once rather than
 * after the walker's next decision. */
static inline void settle(walker *w, el *f)
{
    const ptable *t = w->otab;
    if (f->off || !t->slots || t->view || w->g->report != HX_REPORT_NONE)
        return;
    const slot *s = table_find(t, hx_key_finish(f->ho));
    if (s && s->cells == legal_of(w->g, f->W, f->K) && opp_still(w, s, f->ho, f->W)) {
        f->off = 1;
        f->ho = 0;
    }
}

/* The opponent's turn from element e (its policy pr) against walker stones B, the walker's key-hash state
 * being obs: successors go to out, the walker's utility of games the opponent wins goes to *term. */
static void opp_turn(walker *w, const el *e, uint64_t obs, const slot *pr, unsigned B, buf *out, double *term)
{
    const game_ctx *g = w->g;
    unsigned legal = legal_of(g, e->W, e->K);
    int nl = g->bits[legal];
    if (!nl)
        return;
    double uq = g->recip[nl];
    /* Classical with a perfect-recall file: the states after the rejected moves are looked up below;
     * their slots are fetched together first. */
    const ptable *t = w->otab;
    /* A closed file: once a state of the opponent's is missing, all its later ones are played uniformly. */
    bool off = e->off || (!pr && t->closed) || (pr && opp_still(w, pr, e->ho, e->W));
    uint64_t rkey[IW_MAX_CELLS];
    unsigned rejected = g->keeps_turn && t->slots && !t->view && !off ? legal & B : 0;
    for (unsigned m = rejected; m; m &= m - 1) {
        int d = __builtin_ctz(m);
        rkey[d] = hx_key_finish(hx_key_step(e->ho, (unsigned)HX_EV_REJECTED << CELL_SHIFT | d));
        __builtin_prefetch(slot_at(t, home(t, rkey[d])));
    }
    for (unsigned m = legal; m; m &= m - 1) {
        int d = __builtin_ctz(m);
        double q = pr ? pr->p[d] * pr->scale : uq;
        if (!(q > 0))
            continue;
        double r = e->r * q;
        if (w->mode == IW_REGRET && r < TINY)
            continue;
        unsigned bit = 1u << d;
        el f = *e;
        f.r = r;
        f.off = off;
        if (B & bit) {
            f.K = (uint16_t)(f.K | bit);
            f.ho = off ? 0 : hx_key_step(e->ho, (unsigned)(g->keeps_turn ? HX_EV_REJECTED : HX_EV_COLLIDED) << CELL_SHIFT | d);
            uint64_t fo = obs;
            if (g->report != HX_REPORT_NONE) {
                fo = hx_key_step(obs, g->report == HX_REPORT_NOISY ? (unsigned)HX_EV_OPP_HIT << CELL_SHIFT
                                                                   : (unsigned)HX_EV_OPP_HIT_AT << CELL_SHIFT | d);
                f.wrep++;
            }
            if (g->keeps_turn)
                opp_turn(w, &f, fo,
                         !t->slots || off ? NULL
                         : rejected & bit ? find(w, w->o, rkey[d], legal & ~bit)
                                          : find(w, w->o, key_of(g, w->o, f.ho, f.W, f.K, f.rep), legal & ~bit),
                         B, out, term);
            else {
                settle(w, &f);
                push(w, out, &f, fo);
            }
        } else {
            f.W = (uint16_t)(f.W | bit);
            if (g->wins[w->o][f.W]) {
                *term -= r;
            } else {
                f.ho = off ? 0 : hx_key_step(e->ho, (unsigned)HX_EV_PLACED << CELL_SHIFT | d);
                settle(w, &f);
                push(w, out, &f, obs);
            }
        }
    }
}

static val decide(walker *w, int lv, unsigned B, unsigned K, uint64_t hw, int wrep, bool woff, const el *v,
                  uint32_t n);

static int by_obs(const void *a, const void *b)
{
    const obs_index *x = a, *y = b;
    return x->obs != y->obs ? (x->obs > y->obs) - (x->obs < y->obs) : (x->i > y->i) - (x->i < y->i);
}

/* The walker states after an opponent turn: one per group of equal obs (all of out when the walker is told
 * nothing, its state then being hw). */
static val groups(walker *w, int lv, unsigned B, unsigned K, int wrep, bool woff, buf *out, uint64_t hw)
{
    val a = { 0, 0 };
    if (!out->n)
        return a;
    if (w->g->report == HX_REPORT_NONE)
        return decide(w, lv + 1, B, K, hw, wrep, woff, out->v, out->n);
    buf *s = &w->sorted[lv];
    if (out->n > w->order_cap[lv]) {
        uint32_t cap = grow_capacity(w->order_cap[lv], out->n, 256);
        if (!cap || !grow_resize(&w->order[lv], sizeof *w->order[lv], cap)) {
            w->fail = 1;
            return a;
        }
        w->order_cap[lv] = cap;
    }
    if (out->n > s->cap) {
        grow(w, s, out->n);
        if (out->n > s->cap)
            return a;
    }
    obs_index *o = w->order[lv];
    for (uint32_t i = 0; i < out->n; i++)
        o[i] = (obs_index){ out->obs[i], i };
    qsort(o, out->n, sizeof *o, by_obs);
    for (uint32_t i = 0; i < out->n; i++)
        s->v[i] = out->v[o[i].i];
    for (uint32_t i = 0, j; i < out->n; i = j) {
        for (j = i + 1; j < out->n && o[j].obs == o[i].obs; j++)
            ;
        val c = decide(w, lv + 1, B, K, o[i].obs, wrep + s->v[i].wrep, woff, s->v + i, j - i);
        a.br += c.br;
        a.ev += c.ev;
    }
    return a;
}

/* Marks an element whose opponent policy has not been looked up yet. */
static const slot unresolved;

/* Prepares the opponent policies of the vector's elements: their keys are computed and their table slots
 * prefetched; the lookup itself waits until the opponent is to move (an element whose every continuation
 * ends the game is never looked up, so it is never counted as missing). */
static const slot **resolve(walker *w, int lv, const el *v, uint32_t n)
{
    if (n > w->ppcap[lv]) {
        uint32_t cap = grow_capacity(w->ppcap[lv], n, 256);
        if (!cap || !grow_resize(&w->pp[lv], sizeof *w->pp[lv], cap) ||
            !grow_resize(&w->keys[lv], sizeof *w->keys[lv], cap)) {
            w->fail = 1;
            return NULL;
        }
        w->ppcap[lv] = cap;
    }
    const game_ctx *g = w->g;
    const ptable *t = w->otab;
    const slot **pp = w->pp[lv];
    if (!t->slots) {
        memset(pp, 0, sizeof *pp * n);
        return pp;
    }
    uint64_t *keys = w->keys[lv];
    for (uint32_t i = 0; i < n; i++) {
        if (v[i].off) {
            pp[i] = NULL;
            continue;
        }
        keys[i] = key_of(g, w->o, v[i].ho, v[i].W, v[i].K, v[i].rep);
        __builtin_prefetch(slot_at(t, home(t, keys[i])));
        pp[i] = &unresolved;
    }
    return pp;
}

/* Fetches the table slots of the states that the opponent of element e reaches when its move to a cell of
 * `cells` is rejected. */
static inline void prefetch_rejections(const ptable *t, const el *e, unsigned cells)
{
    for (unsigned m = cells; m; m &= m - 1) {
        uint64_t key = hx_key_finish(hx_key_step(e->ho, (unsigned)HX_EV_REJECTED << CELL_SHIFT | __builtin_ctz(m)));
        __builtin_prefetch(slot_at(t, home(t, key)));
    }
}

/* The values of the walker's cells in `mask` at state (B, K, hw, wrep) with vector v (opponent policies
 * pp) into res[cell]. One pass over the vector sends each element to every cell's buffers, so the
 * element and its opponent policy are read once; then each cell's successors are walked. */
static void act(walker *w, int lv, unsigned B, unsigned K, uint64_t hw, int wrep, bool woff, const el *v, uint32_t n,
                const slot **pp, unsigned mask, val *res)
{
    const game_ctx *g = w->g;
    buf *hit = w->hit[lv], *out = w->out[lv];
    double term[IW_MAX_CELLS], hit_r[IW_MAX_CELLS], total = 0;
    uint64_t placed[IW_MAX_CELLS];
    unsigned winning = 0;
    for (unsigned m = mask; m; m &= m - 1) {
        int c = __builtin_ctz(m);
        hit[c].n = 0;
        reset(&out[c]);
        term[c] = hit_r[c] = 0;
        placed[c] = hx_key_step(hw, (unsigned)HX_EV_PLACED << CELL_SHIFT | c);
        if (g->wins[w->p][B | 1u << c])
            winning |= 1u << c;
    }
    /* Classical with a perfect-recall file: an opponent move onto a walker stone (old, or the cell tried)
     * is rejected and the opponent's next state looked up at once; those slots are fetched a few
     * elements ahead, so that the lookups do not wait for memory one after the other. */
    const ptable *t = w->otab;
    bool ahead = g->keeps_turn && t->slots && !t->view;
    for (uint32_t i = 0; i < n; i++) {
        const el *e = &v[i];
        if (ahead && i + PREFETCH_AHEAD < n && !v[i + PREFETCH_AHEAD].off)
            prefetch_rejections(t, &v[i + PREFETCH_AHEAD], (B | mask) & legal_of(g, v[i + PREFETCH_AHEAD].W,
                                                                                       v[i + PREFETCH_AHEAD].K));
        total += e->r;
        for (unsigned m = mask & e->W; m; m &= m - 1) {
            int c = __builtin_ctz(m);
            hit_r[c] += e->r;
            el f = *e;
            if (g->report != HX_REPORT_NONE) {
                if (!f.off)
                    f.ho = hx_key_step(f.ho, g->report == HX_REPORT_NOISY ? (unsigned)HX_EV_OPP_HIT << CELL_SHIFT
                                                                      : (unsigned)HX_EV_OPP_HIT_AT << CELL_SHIFT | c);
                f.rep++;
            }
            push(w, &hit[c], &f, 0);
        }
        unsigned miss = mask & ~(unsigned)e->W;
        if (!(miss & ~winning))
            continue;
        if (pp[i] == &unresolved)
            pp[i] = find(w, w->o, w->keys[lv][i], legal_of(g, e->W, e->K));
        for (unsigned m = miss & ~winning; m; m &= m - 1) {
            int c = __builtin_ctz(m);
            el f = *e;
            f.wrep = 0;
            opp_turn(w, &f, placed[c], pp[i], B | 1u << c, &out[c], &term[c]);
        }
    }
    for (unsigned m = mask; m; m &= m - 1) {
        int c = __builtin_ctz(m);
        unsigned bit = 1u << c;
        if (winning & bit) /* every element that does not hold c loses to it */
            term[c] = total - hit_r[c];
        if (w->mode == IW_AVERAGE)
            w->own[lv + 1] = w->own[lv] * w->mine_at[lv]->p[c];
        val a = groups(w, lv, B | bit, K, wrep, woff, &out[c], placed[c]);
        a.br += term[c];
        a.ev += term[c];
        if (hit[c].n) {
            uint64_t h = hx_key_step(hw, (unsigned)(g->keeps_turn ? HX_EV_REJECTED : HX_EV_COLLIDED) << CELL_SHIFT | c);
            val b;
            if (g->keeps_turn) {
                b = decide(w, lv + 1, B, K | bit, h, wrep, woff, hit[c].v, hit[c].n);
            } else {
                reset(&out[c]);
                double t2 = 0;
                for (uint32_t i = 0; i < hit[c].n; i++) {
                    el f = hit[c].v[i];
                    f.wrep = 0;
                    opp_turn(w, &f, h,
                             f.off ? NULL
                                   : find(w, w->o, key_of(g, w->o, f.ho, f.W, f.K, f.rep), legal_of(g, f.W, f.K)),
                             B, &out[c], &t2);
                }
                b = groups(w, lv, B, K | bit, wrep, woff, &out[c], h);
                b.br += t2;
                b.ev += t2;
            }
            a.br += b.br;
            a.ev += b.ev;
        }
        res[c] = a;
    }
}

/* IW_ENUM: the walker's state joins the table (its legal cells ascending). */
static void enumerate_state(walker *w, int lv, uint64_t key, unsigned legal)
{
    uint16_t cells[IW_MAX_CELLS];
    int n = 0;
    for (unsigned m = legal; m; m &= m - 1)
        cells[n++] = (uint16_t)__builtin_ctz(m);
    if (sv_tree_intern(w->table, w->p, key, lv, cells, n) < 0)
        w->fail = 1;
}

/* IW_AVERAGE at a walker state with the given own reach: its strategy joins the average (weight times
 * reach times strategy); returns the cells of positive probability, the only ones walked. */
static unsigned add_average(walker *w, const slot *mine, double own)
{
    unsigned played = 0;
    double *sum = w->sum + mine->off;
    int k = 0;
    for (unsigned m = mine->cells; m; m &= m - 1, k++) {
        int c = __builtin_ctz(m);
        if (mine->p[c] > 0) {
            played |= 1u << c;
            sum[k] += w->weight * own * mine->p[c];
        }
    }
    return played;
}

/* IW_REGRET: the walker state's counterfactual values a[cell] (opponent reach times value) and their
 * expected value ev under its current strategy update its regrets (CFR+: floored at 0) and its current
 * strategy (regret matching; uniform when no regret is positive). The state is not met again in this
 * pass, so its slot is rewritten in place. */
static void update_regrets(walker *w, const slot *mine, const val *a, double ev)
{
    slot *s = (slot *)(uintptr_t)mine;
    float *r = w->regret + s->off;
    double pos = 0;
    int k = 0, n = 0;
    for (unsigned m = s->cells; m; m &= m - 1, k++) {
        int c = __builtin_ctz(m);
        float x = r[k] + (float)(a[c].ev - ev);
        r[k] = x > (float)TINY ? x : 0; /* CFR+'s floor; and no subnormal floats */
        pos += r[k];
        n++;
    }
    k = 0;
    for (unsigned m = s->cells; m; m &= m - 1, k++)
        s->p[__builtin_ctz(m)] = (float)(pos > 0 ? r[k] / pos : 1.0 / n);
}

/* IW_REGRET, after a walker state's update: whether it is still (no regret at it or at any later state of
 * the walker's, so that it plays uniformly from here on, and the opponent's walk merges it as a closed
 * file's missing states). Without reports a state's successors are the states after each cell placed
 * and after each cell that collided, whose keys follow from its own: they are read from the table
 * whether or not this pass met them (a state not met keeps its mark, its whole subtree unchanged since).
 * With reports the successors are not listed that way: such states are never marked. */
static void mark_still(walker *w, const slot *mine, uint64_t hw)
{
    slot *s = (slot *)(uintptr_t)mine;
    const game_ctx *g = w->g;
    s->still = 0;
    if (g->report != HX_REPORT_NONE)
        return;
    const float *r = w->regret + s->off;
    int n = g->bits[s->cells];
    for (int k = 0; k < n; k++)
        if (r[k] != 0)
            return;
    const ptable *t = &g->tab[w->p];
    unsigned hit = (unsigned)(g->keeps_turn ? HX_EV_REJECTED : HX_EV_COLLIDED) << CELL_SHIFT;
    for (unsigned m = s->cells; m; m &= m - 1) {
        int c = __builtin_ctz(m);
        const slot *a = table_find(t, hx_key_finish(hx_key_step(hw, (unsigned)HX_EV_PLACED << CELL_SHIFT | c)));
        const slot *b = table_find(t, hx_key_finish(hx_key_step(hw, hit | c)));
        if ((a && !a->still) || (b && !b->still))
            return;
    }
    s->still = 1;
}

static val decide(walker *w, int lv, unsigned B, unsigned K, uint64_t hw, int wrep, bool woff, const el *v,
                  uint32_t n)
{
    val res = { 0, 0 };
    const game_ctx *g = w->g;
    unsigned legal = legal_of(g, B, K);
    if (w->fail || !legal || lv + 1 >= MAX_LEVELS) {
        if (lv + 1 >= MAX_LEVELS && !w->fail)
            w->fail = 1;
        return res;
    }
    w->infosets++;
    w->pairs += n;
    uint64_t key = key_of(g, w->p, hw, B, K, wrep);
    if (w->mode == IW_ENUM)
        enumerate_state(w, lv, key, legal);
    /* A closed file: after a missing state of the walker's, its own policy is uniform (the expected value). */
    const slot *mine = woff ? NULL : find(w, w->p, key, legal);
    woff = woff || (!mine && g->tab[w->p].closed);
    unsigned mask = legal;
    if (w->mode >= IW_AVERAGE && !mine) {
        if (!w->fail) {
            w->fail = 2;
            snprintf(w->why, sizeof w->why, "a state of %s's is missing from the training table",
                     w->p ? "White" : "Black");
        }
        return res;
    }
    if (w->mode == IW_AVERAGE) {
        if (!(w->own[lv] >= TINY))
            return res;
        mask = add_average(w, mine, w->own[lv]);
    }
    w->mine_at[lv] = mine;
    const slot **pp = resolve(w, lv, v, n);
    if (!pp)
        return res;
    double uq = g->recip[g->bits[legal]];
    val a[IW_MAX_CELLS];
    act(w, lv, B, K, hw, wrep, woff, v, n, pp, mask, a);
    res.br = -INFINITY;
    for (unsigned m = mask; m; m &= m - 1) {
        int c = __builtin_ctz(m);
        if (a[c].br > res.br)
            res.br = a[c].br;
        res.ev += (mine ? mine->p[c] * mine->scale : uq) * a[c].ev;
    }
    if (w->mode == IW_REGRET) {
        update_regrets(w, mine, a, res.ev);
        mark_still(w, mine, hw);
    }
    return res;
}

/* ---- the two walks as tasks over the threads ---- */

typedef struct {
    unsigned B, K;
    uint64_t hw;
    int wrep;
    el *v;
    uint32_t n;
    bool off; /* a closed file without the walker's first state */
    const slot *mine; /* the walker's first state in its table (NULL: uniform) */
    int n_cells, cell[IW_MAX_CELLS];
    val res[IW_MAX_CELLS]; /* by cell */
} root;

typedef struct {
    const game_ctx *g;
    root roots[2];
    walker *walkers; /* [threads][2] */
    int next, total, done;
    pthread_mutex_t lock;
    iw_progress progress;
    void *ctx;
} pool;

static void *worker(void *arg)
{
    void **a = arg;
    pool *pl = a[0];
    walker *mine = a[1]; /* this thread's two walkers */
    for (;;) {
        pthread_mutex_lock(&pl->lock);
        int t = pl->next < pl->total ? pl->next++ : -1;
        pthread_mutex_unlock(&pl->lock);
        if (t < 0)
            break;
        /* White's walk first: its parts are the larger ones (a vector of Black's first moves from the
         * start), so the last part to finish, which runs alone, is a small one. */
        int p = t < pl->roots[1].n_cells ? 1 : 0, i = p ? t : t - pl->roots[1].n_cells;
        root *r = &pl->roots[p];
        walker *w = &mine[p];
        w->own[0] = 1;
        w->mine_at[0] = r->mine;
        const slot **pp = resolve(w, 0, r->v, r->n);
        if (pp)
            act(w, 0, r->B, r->K, r->hw, r->wrep, r->off, r->v, r->n, pp, 1u << r->cell[i], r->res);
        pthread_mutex_lock(&pl->lock);
        pl->done++;
        if (pl->progress)
            pl->progress(pl->ctx, pl->done, pl->total);
        pthread_mutex_unlock(&pl->lock);
    }
    return NULL;
}

int iw_default_threads(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus > 0 ? (int)(cpus < 256 ? cpus : 256) : 1;
}

bool iw_supported(hx_variant v, int rows, int cols, bool swap, const char **why)
{
    if (!hx_variant_dark(v)) {
        *why = "the information-state walk covers the dark variants only";
        return false;
    }
    if (swap) {
        *why = "the information-state walk has no swap rule";
        return false;
    }
    if (rows * cols > IW_MAX_CELLS) {
        *why = "the information-state walk covers boards of at most 16 cells";
        return false;
    }
    return true;
}

static void walker_free(walker *w)
{
    for (int i = 0; i < MAX_LEVELS; i++) {
        for (int c = 0; c < IW_MAX_CELLS; c++) {
            free(w->hit[i][c].v);
            free(w->hit[i][c].obs);
            free(w->out[i][c].v);
            free(w->out[i][c].obs);
        }
        for (int c = 0; c < IW_MAX_CELLS; c++)
            free(w->out[i][c].map);
        free(w->sorted[i].v);
        free(w->sorted[i].obs);
        free(w->order[i]);
        free(w->pp[i]);
        free(w->keys[i]);
    }
    free(w->missing[0].k);
    free(w->missing[1].k);
    free(w->recent);
}

/* The game's tables of wins and set sizes. Returns 0, or -1 when out of memory (g is then freed). */
static int ctx_init(game_ctx *g, hx_variant v, int rows, int cols)
{
    *g = (game_ctx){ .rows = rows, .cols = cols, .cells = rows * cols, .keeps_turn = hx_variant_keeps_turn(v),
                     .report = hx_variant_report(v) };
    g->all = (1u << g->cells) - 1;
    g->wins[0] = malloc((size_t)1 << g->cells);
    g->wins[1] = malloc((size_t)1 << g->cells);
    g->bits = malloc((size_t)1 << g->cells);
    if (!g->wins[0] || !g->wins[1] || !g->bits) {
        free(g->wins[0]);
        free(g->wins[1]);
        free(g->bits);
        return -1;
    }
    for (int k = 1; k <= IW_MAX_CELLS; k++)
        g->recip[k] = 1.0 / k;
    for (unsigned st = 0; st <= g->all; st++) {
        g->bits[st] = (uint8_t)__builtin_popcount(st);
        for (int p = 0; p < 2; p++)
            g->wins[p][st] = hx_set_joins(rows, cols, p, st);
    }
    return 0;
}

static void ctx_free(game_ctx *g)
{
    free(g->wins[0]);
    free(g->wins[1]);
    free(g->bits);
    for (int p = 0; p < 2; p++)
        free(g->tab[p].slots);
    memset(g, 0, sizeof *g);
}

static const ptable no_table;

/* Sets how walker w works from now on: its mode and the opponent's table (NULL: uniform). Opponent states
 * are merged when that table ignores their history (uniform, view keys), or those that play uniformly
 * from their state on (left a closed file, a uniform subtree, a CFR table's still states). */
static void set_mode(walker *w, int mode, const ptable *opp)
{
    w->mode = mode;
    w->otab = opp && opp->slots ? opp : &no_table;
    bool all = !w->otab->slots || w->otab->view,
         merge = all || w->otab->closed || w->otab->lazy || mode == IW_REGRET;
    for (int l = 0; l < MAX_LEVELS; l++)
        for (int c = 0; c < IW_MAX_CELLS; c++) {
            buf *b = &w->out[l][c];
            if (merge && !b->merge && b->cap) { /* a fresh map (epoch 1) for a buffer that grew without one */
                free(b->map);
                b->map = calloc(2 * (size_t)b->cap, sizeof *b->map);
                if (!b->map) {
                    w->fail = 1;
                    merge = false;
                }
                b->epoch = 1;
            }
            b->merge = merge;
            b->all = all;
        }
}

static walker *walkers_new(const game_ctx *g, int threads, bool recent)
{
    walker *ws = calloc((size_t)threads * 2, sizeof *ws);
    if (!ws)
        return NULL;
    for (int t = 0; t < threads; t++)
        for (int p = 0; p < 2; p++) {
            walker *w = &ws[2 * t + p];
            w->g = g;
            w->p = p;
            w->o = 1 - p;
            w->recent = recent ? calloc(RECENT, sizeof *w->recent) : NULL; /* NULL: no cache */
            set_mode(w, IW_EVAL, &g->tab[w->o]);
        }
    return ws;
}

static void walkers_free(walker *ws, int threads)
{
    if (ws)
        for (int t = 0; t < 2 * threads; t++)
            walker_free(&ws[t]);
    free(ws);
}

/* The walks of the players in `players` (bit p: player p) over the threads, each walker in the mode set
 * on it; each root's results by first cell in roots[p].res. In IW_AVERAGE only the first cells of positive
 * probability are walked. Returns 0, or -1 when no thread could start or out of memory. */
static int run(const game_ctx *g, walker *ws, int threads, unsigned players, iw_progress progress, void *ctx,
               root roots[2])
{
    /* Black's walk starts at Black's first move; White's after Black's first turn (with Black's policy as
     * White's walker sees it). */
    static el start = { .ho = HX_KEY_SEED, .r = 1 };
    walker *w1 = &ws[1];
    buf first = { 0 };
    double t0 = 0;
    el b0 = start;
    if (players & 2)
        opp_turn(w1, &b0, HX_KEY_SEED, find(w1, 0, key_of(g, 0, HX_KEY_SEED, 0, 0, 0), g->all), 0, &first, &t0);
    pool pl = { .g = g, .progress = progress, .ctx = ctx };
    pl.roots[0] = (root){ .hw = HX_KEY_SEED, .v = &start, .n = 1 };
    pl.roots[1] = (root){ .hw = HX_KEY_SEED, .v = first.v, .n = first.n };
    for (int p = 0; p < 2; p++) {
        root *r = &pl.roots[p];
        if (!(players >> p & 1))
            continue;
        const ptable *own = &g->tab[p];
        uint64_t key = key_of(g, p, HX_KEY_SEED, 0, 0, 0);
        r->mine = own->slots ? table_find(own, key) : NULL;
        r->off = own->closed && !r->mine;
        for (int c = 0; c < g->cells; c++)
            if (ws[p].mode != IW_AVERAGE || r->mine->p[c] > 0)
                r->cell[r->n_cells++] = c;
        pl.total += r->n_cells;
    }
    pthread_mutex_init(&pl.lock, NULL);
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    void *(*args)[2] = calloc((size_t)threads, sizeof *args);
    int started = 0;
    if (tid && args)
        for (; started < threads; started++) {
            args[started][0] = &pl;
            args[started][1] = &ws[2 * started];
            if (started > 0 && pthread_create(&tid[started], NULL, worker, args[started]) != 0)
                break;
        }
    if (started > 0)
        worker(args[0]);
    for (int t = 1; t < started; t++)
        pthread_join(tid[t], NULL);
    pthread_mutex_destroy(&pl.lock);
    free(tid);
    free(args);
    free(first.v);
    free(first.obs);
    roots[0] = pl.roots[0];
    roots[1] = pl.roots[1];
    roots[0].v = roots[1].v = NULL;
    return started > 0 && !w1->fail ? 0 : -1;
}

/* The first failure of the walkers into err (0 when none). */
static int walkers_failed(walker *ws, int threads, char *err, size_t errlen)
{
    for (int t = 0; t < 2 * threads; t++)
        if (ws[t].fail) {
            snprintf(err, errlen, "%s", ws[t].fail == 2 ? ws[t].why : "out of memory");
            return ws[t].fail;
        }
    return 0;
}

int iw_evaluate(hx_variant v, int rows, int cols, const pf_policy *black, const pf_policy *white, int threads,
                iw_progress progress, void *ctx, iw_result *out, char *err, size_t errlen)
{
    const char *why;
    memset(out, 0, sizeof *out);
    if (!iw_supported(v, rows, cols, false, &why)) {
        snprintf(err, errlen, "%s", why);
        return -1;
    }
    if (threads < 1)
        threads = 1;
    game_ctx g;
    if (ctx_init(&g, v, rows, cols) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = -1;
    walker *ws = NULL;
    const pf_policy *pol[2] = { black, white };
    if (tables_build(&g, pol, threads, err, errlen) != 0)
        goto done;
    ws = walkers_new(&g, threads, pol[0] || pol[1]);
    root roots[2];
    if (!ws || run(&g, ws, threads, 3, progress, ctx, roots) != 0) {
        if (!ws || !walkers_failed(ws, threads, err, errlen))
            snprintf(err, errlen, "out of memory");
        goto done;
    }
    for (int p = 0; p < 2; p++) {
        root *r = &roots[p];
        /* The walker's first state: its policy weighs the first cells for the expected value. */
        walker *w = &ws[p];
        const slot *s = find(w, p, key_of(&g, p, HX_KEY_SEED, 0, 0, 0), g.all);
        out->infosets[p]++;
        out->pairs += r->n;
        double br = -INFINITY, ev = 0;
        for (int i = 0; i < r->n_cells; i++) {
            const val *x = &r->res[r->cell[i]];
            if (x->br > br)
                br = x->br;
            ev += (s ? s->p[r->cell[i]] * s->scale : 1.0 / r->n_cells) * x->ev;
        }
        out->br[p] = br;
        if (p == 0)
            out->ev_black = ev;
        else
            out->ev_white = ev;
    }
    int fail = walkers_failed(ws, threads, err, errlen);
    keyset64 miss[2] = { { 0 }, { 0 } };
    for (int t = 0; t < 2 * threads; t++) {
        walker *w = &ws[t];
        out->infosets[w->p] += w->infosets;
        out->pairs += w->pairs;
        for (int p = 0; p < 2; p++)
            keyset_merge(&miss[p], &w->missing[p], &fail);
    }
    for (int p = 0; p < 2; p++) {
        out->missing[p] = miss[p].n;
        free(miss[p].k);
    }
    if (fail) {
        if (!*err)
            snprintf(err, errlen, "out of memory");
        goto done;
    }
    out->nashconv = out->br[0] + out->br[1];
    out->exploitability = out->nashconv / 2;
    rc = 0;
done:
    walkers_free(ws, threads);
    ctx_free(&g);
    return rc;
}

/* ---- full-width CFR+ over the walk ---- */

int iw_enumerate(hx_variant v, int rows, int cols, sv_tree *t, char *err, size_t errlen)
{
    const char *why;
    memset(t, 0, sizeof *t);
    if (!iw_supported(v, rows, cols, false, &why)) {
        snprintf(err, errlen, "%s", why);
        return -1;
    }
    game_ctx g;
    if (ctx_init(&g, v, rows, cols) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = -1;
    walker *ws = walkers_new(&g, 1, false);
    if (!ws) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    /* Both first states, then every state each player's walk meets against the uniform opponent (which
     * reaches every consistent history). */
    uint16_t cells[IW_MAX_CELLS];
    for (int c = 0; c < g.cells; c++)
        cells[c] = (uint16_t)c;
    for (int p = 0; p < 2; p++) {
        ws[p].table = t;
        set_mode(&ws[p], IW_ENUM, NULL);
        if (sv_tree_intern(t, p, key_of(&g, p, HX_KEY_SEED, 0, 0, 0), 0, cells, g.cells) < 0)
            ws[p].fail = 1;
    }
    root roots[2];
    if (ws[0].fail || ws[1].fail || run(&g, ws, 1, 3, NULL, NULL, roots) != 0 ||
        walkers_failed(ws, 1, err, errlen)) {
        if (!*err)
            snprintf(err, errlen, "out of memory");
        sv_tree_free(t);
        goto done;
    }
    rc = 0;
done:
    walkers_free(ws, 1);
    ctx_free(&g);
    return rc;
}

struct iw_cfr {
    game_ctx g;
    walker *ws;
    int threads;
    const sv_tree *table;
    float *regret;
    double *sum;
    bool moved[2]; /* player p has a positive regret somewhere (else its strategy is uniform everywhere) */
};

/* Whether any state of `player` has a positive regret. */
static bool any_regret(const sv_tree *t, const float *regret, int player)
{
    for (uint32_t k = 0; k < t->n_infosets; k++)
        if (t->infosets[k].player == player)
            for (int a = 0; a < t->infosets[k].n; a++)
                if (regret[t->infosets[k].offset + a] > 0)
                    return true;
    return false;
}

/* One player's table of current strategies (regret matching on the regrets) over the training table. */
static int cfr_table(ptable *t, const sv_tree *tab, const float *regret, int player, int cells, bool fresh,
                     char *err, size_t errlen)
{
    if (table_alloc(t, tab->infosets_of[player], cells, err, errlen) != 0)
        return -1;
    for (uint32_t k = 0; k < tab->n_infosets; k++) {
        const sv_infoset *is = &tab->infosets[k];
        if (is->player != player)
            continue;
        double sigma[IW_MAX_CELLS];
        float p[IW_MAX_CELLS];
        sv_regret_match(regret + is->offset, is->n, sigma);
        for (int a = 0; a < is->n && a < IW_MAX_CELLS; a++)
            p[a] = (float)sigma[a];
        slot *s = is->n <= IW_MAX_CELLS
                      ? table_put(t, is->key, is->n, tab->actions + is->offset, p, cells, true, err, errlen)
                      : NULL;
        if (!s) {
            if (is->n > IW_MAX_CELLS)
                snprintf(err, errlen, "a state of the training table lists %d cells (a table for another game)",
                         is->n);
            return -1;
        }
        s->off = is->offset;
        s->scale = 1; /* regret matching's own rounding, as the tree's CFR+ has it */
        s->still = fresh; /* no regret anywhere yet; else unknown until the state is met */
    }
    return 0;
}

iw_cfr *iw_cfr_new(hx_variant v, int rows, int cols, const sv_tree *table, float *regret, double *sum, int threads,
                   char *err, size_t errlen)
{
    const char *why;
    if (!iw_supported(v, rows, cols, false, &why)) {
        snprintf(err, errlen, "%s", why);
        return NULL;
    }
    iw_cfr *c = calloc(1, sizeof *c);
    if (!c || ctx_init(&c->g, v, rows, cols) != 0) {
        free(c);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    c->threads = threads < 1 ? 1 : threads;
    c->table = table;
    c->regret = regret;
    c->sum = sum;
    for (int p = 0; p < 2; p++)
        if (cfr_table(&c->g.tab[p], table, regret, p, c->g.cells, !any_regret(table, regret, p), err, errlen) != 0) {
            iw_cfr_free(c);
            return NULL;
        }
    if (!(c->ws = walkers_new(&c->g, c->threads, false))) {
        snprintf(err, errlen, "out of memory");
        iw_cfr_free(c);
        return NULL;
    }
    for (int t = 0; t < 2 * c->threads; t++) {
        c->ws[t].regret = regret;
        c->ws[t].sum = sum;
    }
    return c;
}

void iw_cfr_free(iw_cfr *c)
{
    if (!c)
        return;
    walkers_free(c->ws, c->threads);
    ctx_free(&c->g);
    free(c);
}

int iw_cfr_iterate(iw_cfr *c, double weight, char *err, size_t errlen)
{
    game_ctx *g = &c->g;
    for (int p = 0; p < 2; p++) {
        const slot *first = table_find(&g->tab[p], key_of(g, p, HX_KEY_SEED, 0, 0, 0));
        if (!first) {
            snprintf(err, errlen, "the first state of %s is missing from the training table", p ? "White" : "Black");
            return -1;
        }
        /* The average first, with the strategy the regrets below are measured on. */
        root roots[2];
        if (weight > 0) {
            for (int t = 0; t < c->threads; t++) {
                walker *w = &c->ws[2 * t + p];
                set_mode(w, IW_AVERAGE, NULL);
                w->weight = weight;
            }
            add_average(&c->ws[p], first, 1.0);
            if (run(g, c->ws, c->threads, 1u << p, NULL, NULL, roots) != 0 ||
                walkers_failed(c->ws, c->threads, err, errlen))
                goto failed;
        }
        /* The regrets against the opponent's current strategy; the first state's from the roots. An
         * opponent without regrets (a fresh start) plays uniformly everywhere: its states are merged. */
        if (!c->moved[1 - p])
            c->moved[1 - p] = any_regret(c->table, c->regret, 1 - p);
        for (int t = 0; t < c->threads; t++)
            set_mode(&c->ws[2 * t + p], IW_REGRET, c->moved[1 - p] ? &g->tab[1 - p] : NULL);
        if (run(g, c->ws, c->threads, 1u << p, NULL, NULL, roots) != 0 || walkers_failed(c->ws, c->threads, err, errlen))
            goto failed;
        double ev = 0;
        for (int i = 0; i < roots[p].n_cells; i++)
            ev += first->p[roots[p].cell[i]] * roots[p].res[roots[p].cell[i]].ev;
        update_regrets(&c->ws[p], first, roots[p].res, ev);
        mark_still(&c->ws[p], first, HX_KEY_SEED);
    }
    return 0;
failed:
    if (!*err)
        snprintf(err, errlen, "out of memory");
    return -1;
}

uint64_t iw_cfr_pairs(const iw_cfr *c)
{
    uint64_t pairs = 0;
    for (int t = 0; t < 2 * c->threads; t++)
        pairs += c->ws[t].pairs;
    return pairs;
}
