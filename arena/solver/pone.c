/* arena/solver/pone.c — the pONE search of classical Dark Hex (pone.h, docs/pone.md): shortest-connection
 * distances (hexbits.h) that decide which hidden-stone placements are consistent, the memoised recursion
 * over one player's keys, and the walk over the keys real games reach. */
#include "pone.h"

#include <stdlib.h>
#include <string.h>

#include "hexbits.h"
#include "mix.h"

#define PONE_FAR HB_FAR

/* Entry flags. */
enum { PONE_EMPTY = 0xff, PONE_WIN = 1, PONE_LOSS = 2, PONE_VISITED = 4, PONE_THESIS_WIN = 8, PONE_THESIS_LOSS = 16 };

typedef struct {
    uint64_t own, seen;
    uint8_t hidden; /* PONE_EMPTY marks a free slot */
    uint8_t flags;
    int8_t cell;
} pone_entry;

struct sv_pone {
    hb_geom g; /* the board */
    int cells, player;
    uint64_t all;
    pone_entry *table;
    uint64_t cap, used;
    uint64_t budget, spent, nodes;
    bool out_of_memory;
};

static uint64_t pone_unknown(const sv_pone *s, uint64_t own, uint64_t seen) { return s->all & ~own & ~seen; }

static bool pone_joined(const sv_pone *s, int p, uint64_t stones) { return hb_joined(&s->g, p, stones); }

/* Some placement of `hidden` stones on the unknown cells leaves Q unjoined: the most Q stones that leave it
 * unjoined is the unknown count less what P needs to join (on a full board exactly one side is joined). */
static bool pone_feasible(const sv_pone *s, uint64_t own, uint64_t seen, int hidden)
{
    uint64_t u = pone_unknown(s, own, seen);
    int d = hb_distance(&s->g, s->player, own, u);
    return d != PONE_FAR && hidden <= __builtin_popcountll(u) - d;
}

/* Q, to move with `hidden` unseen stones, can join its sides from some consistent board: some set of
 * hidden + 1 unknown cells joins it with the seen stones (an exchange argument shows one of them then
 * follows a consistent board of `hidden` stones; docs/pone.md). */
static bool pone_threat(const sv_pone *s, uint64_t own, uint64_t seen, int hidden)
{
    return hb_distance(&s->g, 1 - s->player, seen, pone_unknown(s, own, seen)) <= hidden + 1;
}

static uint64_t pone_hash(uint64_t own, uint64_t seen, int hidden)
{
    return mix64(own ^ mix64(seen ^ ((uint64_t)hidden << 58)));
}

static pone_entry *pone_find(sv_pone *s, uint64_t own, uint64_t seen, int hidden, bool insert)
{
    if (insert && (s->used + 1) * 4 > s->cap * 3) {
        uint64_t cap = s->cap ? s->cap * 2 : 1u << 12;
        pone_entry *t = malloc(cap * sizeof *t);
        if (!t) {
            s->out_of_memory = true;
            return NULL;
        }
        memset(t, 0xff, cap * sizeof *t);
        for (uint64_t i = 0; i < s->cap; i++) {
            pone_entry *e = &s->table[i];
            if (e->hidden == PONE_EMPTY)
                continue;
            uint64_t j = pone_hash(e->own, e->seen, e->hidden) & (cap - 1);
            while (t[j].hidden != PONE_EMPTY)
                j = (j + 1) & (cap - 1);
            t[j] = *e;
        }
        free(s->table);
        s->table = t;
        s->cap = cap;
    }
    if (!s->cap)
        return NULL;
    uint64_t j = pone_hash(own, seen, hidden) & (s->cap - 1);
    for (;; j = (j + 1) & (s->cap - 1)) {
        pone_entry *e = &s->table[j];
        if (e->hidden == PONE_EMPTY) {
            if (!insert)
                return NULL;
            *e = (pone_entry){ .own = own, .seen = seen, .hidden = (uint8_t)hidden, .flags = 0, .cell = -1 };
            s->used++;
            return e;
        }
        if (e->own == own && e->seen == seen && e->hidden == hidden)
            return e;
    }
}

/* P to move at a consistent key where neither side has joined: 1 pONE (cell in *cell), 0 not, -1 out of
 * memory, -2 out of budget. */
static int pone_move(sv_pone *s, uint64_t own, uint64_t seen, int hidden, int *cell)
{
    pone_entry *e = pone_find(s, own, seen, hidden, false);
    if (e && (e->flags & (PONE_WIN | PONE_LOSS))) {
        *cell = e->cell;
        return (e->flags & PONE_WIN) != 0;
    }
    if (s->budget && s->spent >= s->budget)
        return -2;
    s->spent++;
    s->nodes++;
    uint64_t u = pone_unknown(s, own, seen);
    int found = -1;
    for (uint64_t left = u; left && found < 0; left &= left - 1) {
        int x = __builtin_ctzll(left);
        uint64_t bit = 1ull << x;
        int ignored, r;
        /* x empty on some consistent board: P places there. */
        uint64_t mine = own | bit;
        if (pone_feasible(s, mine, seen, hidden) && !pone_joined(s, s->player, mine)) {
            if (pone_threat(s, mine, seen, hidden))
                continue;
            if ((r = pone_move(s, mine, seen, hidden + 1, &ignored)) < 0)
                return r;
            if (!r)
                continue;
        }
        /* x hidden on some consistent board: the attempt is rejected, P learns it and moves again. */
        if (hidden > 0 && pone_feasible(s, own, seen | bit, hidden - 1)) {
            if ((r = pone_move(s, own, seen | bit, hidden - 1, &ignored)) < 0)
                return r;
            if (!r)
                continue;
        }
        found = x;
    }
    e = pone_find(s, own, seen, hidden, true);
    if (!e)
        return -1;
    e->flags |= found >= 0 ? PONE_WIN : PONE_LOSS;
    e->cell = (int8_t)found;
    *cell = found;
    return found >= 0;
}

sv_pone *sv_pone_new(int rows, int cols, int player)
{
    if (rows < 2 || cols < 2 || rows * cols > SV_PONE_MAX_CELLS || (player != 0 && player != 1))
        return NULL;
    sv_pone *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    hb_init(&s->g, rows, cols);
    s->cells = rows * cols, s->player = player, s->all = s->g.all;
    return s;
}

void sv_pone_free(sv_pone *s)
{
    if (!s)
        return;
    free(s->table);
    free(s);
}

void sv_pone_set_budget(sv_pone *s, uint64_t nodes) { s->budget = nodes; }

void sv_pone_memo(const sv_pone *s, uint64_t *keys, uint64_t *bytes)
{
    *keys = s->used;
    *bytes = s->cap * sizeof *s->table;
}

bool sv_pone_to_move(const sv_pone *s, const sv_pone_key *k)
{
    int mine = __builtin_popcountll(k->own), theirs = __builtin_popcountll(k->seen) + k->hidden;
    return s->player == 0 ? mine == theirs : mine == theirs - 1;
}

bool sv_pone_consistent(const sv_pone *s, const sv_pone_key *k)
{
    if ((k->own & k->seen) || ((k->own | k->seen) & ~s->all) || k->hidden < 0 ||
        k->hidden > __builtin_popcountll(pone_unknown(s, k->own, k->seen)))
        return false;
    int mine = __builtin_popcountll(k->own), theirs = __builtin_popcountll(k->seen) + k->hidden;
    int lead = s->player == 0 ? mine - theirs : theirs - mine; /* Black's stones less White's */
    if (lead != 0 && lead != 1)
        return false;
    if (pone_joined(s, s->player, k->own)) /* just won: Q is never to move with P joined before */
        return s->player == 0 ? lead == 1 : lead == 0;
    return pone_feasible(s, k->own, k->seen, k->hidden);
}

/* A consistent key: 1 / 0 / -1 / -2 as sv_pone_solve(). */
static int pone_value(sv_pone *s, uint64_t own, uint64_t seen, int hidden, bool to_move, int *cell)
{
    *cell = -1;
    if (pone_joined(s, s->player, own))
        return 1;
    if (to_move)
        return pone_move(s, own, seen, hidden, cell);
    if (pone_threat(s, own, seen, hidden))
        return 0;
    int ignored;
    return pone_move(s, own, seen, hidden + 1, &ignored);
}

int sv_pone_solve(sv_pone *s, const sv_pone_key *k, int *cell)
{
    int dummy;
    if (!cell)
        cell = &dummy;
    *cell = -1;
    if (!sv_pone_consistent(s, k))
        return -1;
    s->spent = 0;
    int r = pone_value(s, k->own, k->seen, k->hidden, sv_pone_to_move(s, k), cell);
    if (r == 1 && !sv_pone_to_move(s, k))
        *cell = -1;
    return s->out_of_memory ? -1 : r;
}

typedef struct {
    sv_pone_counts *out;
    sv_pone_visit visit;
    void *user;
} pone_walk;

/* Visits the reachable key (own, seen, hidden) and everything reachable from it; -1 out of memory. */
static int pone_reach(sv_pone *s, pone_walk *w, uint64_t own, uint64_t seen, int hidden)
{
    pone_entry *e = pone_find(s, own, seen, hidden, true);
    if (!e)
        return -1;
    if (e->flags & PONE_VISITED)
        return 0;
    e->flags |= PONE_VISITED;
    sv_pone_key k = { own, seen, hidden };
    bool to_move = sv_pone_to_move(s, &k), won = pone_joined(s, s->player, own);
    int cell, r = pone_value(s, own, seen, hidden, to_move, &cell);
    if (r < 0)
        return -1;
    int stones = __builtin_popcountll(own) + __builtin_popcountll(seen);
    w->out->keys++;
    w->out->keys_by[stones][hidden]++;
    if (r) {
        w->out->pone++;
        w->out->pone_by[stones][hidden]++;
        w->out->pone_to_move += to_move && !won;
        w->out->pone_won += won;
    }
    if (w->visit)
        w->visit(&k, r, to_move && !won ? cell : -1, w->user);
    if (won)
        return 0;
    if (!to_move)
        return pone_feasible(s, own, seen, hidden + 1) ? pone_reach(s, w, own, seen, hidden + 1) : 0;
    for (uint64_t left = pone_unknown(s, own, seen); left; left &= left - 1) {
        uint64_t bit = left & -left;
        if (pone_feasible(s, own | bit, seen, hidden) && pone_reach(s, w, own | bit, seen, hidden) < 0)
            return -1;
        if (hidden > 0 && pone_feasible(s, own, seen | bit, hidden - 1) &&
            pone_reach(s, w, own, seen | bit, hidden - 1) < 0)
            return -1;
    }
    return 0;
}

int sv_pone_enumerate(sv_pone *s, sv_pone_counts *out, sv_pone_visit visit, void *user)
{
    memset(out, 0, sizeof *out);
    uint64_t budget = s->budget, before = s->nodes;
    s->budget = 0;
    pone_walk w = { out, visit, user };
    int r = pone_reach(s, &w, 0, 0, 0);
    s->budget = budget;
    out->nodes = s->nodes - before;
    return r < 0 || s->out_of_memory ? -1 : 0;
}

/* The thesis's recursion (docs/pone.md "The literature"): P to move with h = 0 needs some x with the key
 * after placing x pONE; with h > 0 some x with both "x hidden" (rejected, h - 1) and "x empty" pONE, each
 * branch taken only when legal (the counts fit: the hidden stones fit on the unknown cells); Q to move
 * adds a hidden stone (False when no cell is left for it). Only visible stones decide a loss: Q's hidden
 * stones never join. 1 / 0, -1 out of memory. */
static int pone_thesis(sv_pone *s, uint64_t own, uint64_t seen, int hidden)
{
    sv_pone_key k = { own, seen, hidden };
    if (!sv_pone_to_move(s, &k)) {
        if (__builtin_popcountll(pone_unknown(s, own, seen)) <= hidden)
            return 0;
        hidden++;
    }
    if (pone_joined(s, s->player, own))
        return 1;
    if (pone_joined(s, 1 - s->player, seen))
        return 0;
    pone_entry *e = pone_find(s, own, seen, hidden, false);
    if (e && (e->flags & (PONE_THESIS_WIN | PONE_THESIS_LOSS)))
        return (e->flags & PONE_THESIS_WIN) != 0;
    s->nodes++;
    uint64_t u = pone_unknown(s, own, seen);
    int room = __builtin_popcountll(u), found = 0, r;
    for (uint64_t left = u; left && !found; left &= left - 1) {
        uint64_t bit = left & -left;
        if (hidden == 0) {
            if ((r = pone_thesis(s, own | bit, seen, 0)) < 0)
                return r;
            found = r;
        } else if (room - 1 >= hidden) {
            if ((r = pone_thesis(s, own, seen | bit, hidden - 1)) < 0)
                return r;
            if (r && (r = pone_thesis(s, own | bit, seen, hidden)) < 0)
                return r;
            found = r;
        }
    }
    e = pone_find(s, own, seen, hidden, true);
    if (!e)
        return -1;
    e->flags |= found ? PONE_THESIS_WIN : PONE_THESIS_LOSS;
    return found;
}

/* The next (own, seen) split of the board in base-3 order (each cell empty, own, seen); false after the last. */
static bool pone_next_split(const sv_pone *s, uint64_t *own, uint64_t *seen)
{
    for (int i = 0; i < s->cells; i++) {
        uint64_t bit = 1ull << i;
        if (!(*own & bit) && !(*seen & bit)) {
            *own |= bit;
            return true;
        }
        if (*own & bit) {
            *own &= ~bit;
            *seen |= bit;
            return true;
        }
        *seen &= ~bit;
    }
    return false;
}

int sv_pone_count_convention(sv_pone *s, sv_pone_convention c, sv_pone_counts *out)
{
    memset(out, 0, sizeof *out);
    if (s->cells > SV_PONE_CONVENTION_MAX_CELLS)
        return -1;
    uint64_t budget = s->budget, before = s->nodes, own = 0, seen = 0;
    s->budget = 0;
    int n = s->cells;
    do {
        int stones = __builtin_popcountll(own | seen), room = n - stones;
        for (int h = 0; h <= room; h++) {
            sv_pone_key k = { own, seen, h };
            int mine = __builtin_popcountll(own), theirs = __builtin_popcountll(seen) + h;
            int lead = s->player == 0 ? mine - theirs : theirs - mine;
            int r, cell;
            if (c == SV_PONE_ALL_CONSISTENT) {
                if (!sv_pone_consistent(s, &k))
                    continue;
                r = pone_value(s, own, seen, h, sv_pone_to_move(s, &k), &cell);
            } else {
                if (stones >= n || 2 * h >= n || (lead != 0 && lead != 1))
                    continue;
                r = c == SV_PONE_THESIS ? pone_thesis(s, own, seen, h)
                    : sv_pone_consistent(s, &k) ? pone_value(s, own, seen, h, sv_pone_to_move(s, &k), &cell) : 0;
            }
            if (r < 0) {
                s->budget = budget;
                return -1;
            }
            out->keys++;
            out->keys_by[stones][h]++;
            if (r) {
                bool won = pone_joined(s, s->player, own), to_move = sv_pone_to_move(s, &k);
                out->pone++;
                out->pone_by[stones][h]++;
                out->pone_to_move += to_move && !won;
                out->pone_won += won;
            }
        }
    } while (pone_next_split(s, &own, &seen));
    s->budget = budget;
    out->nodes = s->nodes - before;
    return s->out_of_memory ? -1 : 0;
}
