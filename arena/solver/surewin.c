/* arena/solver/surewin.c — the sure-win search of every dark variant (surewin.h, docs/surewin.md): the
 * count-mask beliefs, their transitions, the memoised recursion and its one-word-per-key memo. */
#include "surewin.h"

#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "hexbits.h"
#include "mix.h"

/* A memo word: own (bits 0-15), seen (16-31), the count mask (32-48), the result (49-50: 1 win, 2 loss),
 * the winning cell + 1 (51-55) and bit 63 set in every used slot (0 is a free slot). */
#define SW_KEY_BITS ((1ull << 49) - 1)
#define SW_USED (1ull << 63)
#define SW_VISITED (1ull << 56) /* sw_enumerate has walked from the key */
#define SW_RESULT_SHIFT 49
#define SW_CELL_SHIFT 51
#define SW_CHECK_EVERY 4096

struct sw {
    hb_geom g;
    sw_rules rules;
    int player;
    int order[SW_MAX_CELLS]; /* cells tried in this order: nearest the centre first */
    uint64_t *table;
    uint64_t cap, used, nodes;
    double deadline;
    uint64_t max_bytes;
    bool out_of_memory, late;
};

int sw_rules_of(hx_variant v)
{
    switch (v) {
    case HX_CLASSICAL:
    case HX_CLASSICAL_NOISY:
    case HX_CLASSICAL_FLASH:
        return SW_CLASSICAL;
    case HX_ABRUPT_NOISY:
    case HX_ABRUPT_FLASH:
        return SW_ABRUPT_TOLD;
    case HX_ABRUPT:
        return SW_ABRUPT;
    default:
        return -1;
    }
}

static int sw_pop(uint64_t x) { return __builtin_popcountll(x); }

/* Hidden Q stones at a key when Q has collided c times (negative: impossible). Q's turns follow from P's:
 * one per P turn, Black first; a P turn is one placement (classical) or one attempt (abrupt). */
static int sw_hidden(const sw *s, uint64_t own, uint64_t seen, bool q_to_move, int c)
{
    int turns = sw_pop(own) + (s->rules == SW_CLASSICAL ? 0 : sw_pop(seen));
    int q_turns = turns + s->player - (q_to_move ? 1 : 0);
    return q_turns - sw_pop(seen) - c;
}

/* Some placement of h hidden stones on the unknown cells leaves Q unjoined (pone.c's argument). */
static bool sw_feasible(const sw *s, uint64_t own, uint64_t seen, int h)
{
    uint64_t u = s->g.all & ~own & ~seen;
    if (h < 0)
        return false;
    int d = hb_distance(&s->g, s->player, own, u);
    return d != HB_FAR && h <= sw_pop(u) - d;
}

/* The counts of `m` for which the key has a consistent board. */
static uint32_t sw_keep(const sw *s, uint64_t own, uint64_t seen, bool q_to_move, uint32_t m)
{
    uint32_t out = 0;
    for (uint32_t left = m; left; left &= left - 1) {
        int c = __builtin_ctz(left);
        if (sw_feasible(s, own, seen, sw_hidden(s, own, seen, q_to_move, c)))
            out |= 1u << c;
    }
    return out;
}

static uint64_t sw_pack(uint64_t own, uint64_t seen, uint32_t m) { return own | seen << 16 | (uint64_t)m << 32; }

static bool sw_grow(sw *s)
{
    uint64_t cap = s->cap ? s->cap * 2 : 1u << 12;
    if (s->max_bytes && cap * sizeof *s->table > s->max_bytes)
        return false;
    uint64_t *t = calloc(cap, sizeof *t);
    if (!t)
        return false;
    for (uint64_t i = 0; i < s->cap; i++) {
        uint64_t w = s->table[i];
        if (!w)
            continue;
        uint64_t j = mix64(w & SW_KEY_BITS) & (cap - 1);
        while (t[j])
            j = (j + 1) & (cap - 1);
        t[j] = w;
    }
    free(s->table);
    s->table = t;
    s->cap = cap;
    return true;
}

/* The slot of key (found or free); NULL when the table cannot grow. */
static uint64_t *sw_slot(sw *s, uint64_t key, bool insert)
{
    if (insert && (s->used + 1) * 4 > s->cap * 3 && !sw_grow(s)) {
        s->out_of_memory = true;
        return NULL;
    }
    if (!s->cap)
        return NULL;
    for (uint64_t j = mix64(key) & (s->cap - 1);; j = (j + 1) & (s->cap - 1)) {
        uint64_t w = s->table[j];
        if (!w || (w & SW_KEY_BITS) == key)
            return insert || w ? &s->table[j] : NULL;
    }
}

/* After Q's turn from (own, seen, m): the counts when Q placed a stone and when it collided (each narrowed to
 * the consistent ones; no collisions in classical, where a Q collision changes nothing P can use). */
static void sw_replies(const sw *s, uint64_t own, uint64_t seen, uint32_t m, uint32_t *placed, uint32_t *passed)
{
    uint32_t p = 0;
    if (s->rules != SW_CLASSICAL)
        for (uint32_t left = m; left; left &= left - 1) {
            int c = __builtin_ctz(left);
            if (c < sw_pop(own))
                p |= 1u << (c + 1);
        }
    *placed = sw_keep(s, own, seen, false, m);
    *passed = sw_keep(s, own, seen, false, p);
}

static int sw_move(sw *s, uint64_t own, uint64_t seen, uint32_t m, int *cell);

/* Q to move at a key with counts m (consistent, P not joined): 1 / 0 / -1 / -2 as sw_solve. */
static int sw_reply(sw *s, uint64_t own, uint64_t seen, uint32_t m)
{
    int h = sw_hidden(s, own, seen, true, __builtin_ctz(m)); /* the most hidden stones of any count */
    if (hb_distance(&s->g, 1 - s->player, seen, s->g.all & ~own & ~seen) <= h + 1)
        return 0; /* some consistent board lets Q join now */
    uint32_t placed, passed;
    sw_replies(s, own, seen, m, &placed, &passed);
    int ignored, r;
    if (s->rules != SW_ABRUPT_TOLD)
        return placed | passed ? sw_move(s, own, seen, placed | passed, &ignored) : 1;
    if (placed && (r = sw_move(s, own, seen, placed, &ignored)) <= 0)
        return r;
    return passed ? sw_move(s, own, seen, passed, &ignored) : 1;
}

/* P's attempt at x from (own, seen, m), P to move: 1 both outcomes that can happen win, else as sw_solve. */
static int sw_try(sw *s, uint64_t own, uint64_t seen, uint32_t m, int x)
{
    uint64_t bit = 1ull << x;
    int ignored, r;
    uint32_t mp = sw_keep(s, own | bit, seen, true, m);
    if (mp && !hb_joined(&s->g, s->player, own | bit) && (r = sw_reply(s, own | bit, seen, mp)) <= 0)
        return r;
    bool abrupt = s->rules != SW_CLASSICAL;
    uint32_t mc = sw_keep(s, own, seen | bit, abrupt, m);
    if (!mc)
        return 1;
    return abrupt ? sw_reply(s, own, seen | bit, mc) : sw_move(s, own, seen | bit, mc, &ignored);
}

/* P to move at a consistent key, P not joined: 1 / 0 / -1 / -2, the winning cell in *cell. */
static int sw_move(sw *s, uint64_t own, uint64_t seen, uint32_t m, int *cell)
{
    uint64_t key = sw_pack(own, seen, m);
    uint64_t *w = sw_slot(s, key, false);
    if (w && (*w >> SW_RESULT_SHIFT & 3)) {
        *cell = (int)(*w >> SW_CELL_SHIFT & 31) - 1;
        return (*w >> SW_RESULT_SHIFT & 3) == 1;
    }
    if (s->late || (s->deadline > 0 && ++s->nodes % SW_CHECK_EVERY == 0 && clk_now() >= s->deadline)) {
        s->late = true;
        return -2;
    }
    if (s->deadline <= 0)
        s->nodes++;
    int found = -1;
    uint64_t u = s->g.all & ~own & ~seen;
    for (int i = 0; i < s->g.cells && found < 0; i++) {
        int x = s->order[i];
        if (!(u >> x & 1))
            continue;
        int r = sw_try(s, own, seen, m, x);
        if (r < 0)
            return r;
        if (r)
            found = x;
    }
    if (!(w = sw_slot(s, key, true)))
        return -1;
    if (!*w)
        s->used++;
    *w = SW_USED | key | (uint64_t)(found >= 0 ? 1 : 2) << SW_RESULT_SHIFT | (uint64_t)(found + 1) << SW_CELL_SHIFT;
    *cell = found;
    return found >= 0;
}

sw *sw_new(int rows, int cols, sw_rules rules, int player)
{
    if (rows * cols > SW_MAX_CELLS || (player != 0 && player != 1) || rules < SW_CLASSICAL || rules > SW_ABRUPT)
        return NULL;
    sw *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (!hb_init(&s->g, rows, cols)) {
        free(s);
        return NULL;
    }
    s->rules = rules, s->player = player;
    int score[SW_MAX_CELLS];
    for (int i = 0; i < s->g.cells; i++) { /* twice the distance to the centre, Manhattan */
        int dr = 2 * (i / cols) - (rows - 1), dc = 2 * (i % cols) - (cols - 1);
        score[i] = abs(dr) + abs(dc);
        s->order[i] = i;
    }
    for (int i = 1; i < s->g.cells; i++) /* insertion sort: stable, so ties keep board order */
        for (int j = i; j > 0 && score[s->order[j]] < score[s->order[j - 1]]; j--) {
            int t = s->order[j];
            s->order[j] = s->order[j - 1], s->order[j - 1] = t;
        }
    return s;
}

void sw_free(sw *s)
{
    if (!s)
        return;
    free(s->table);
    free(s);
}

void sw_set_limits(sw *s, double deadline, uint64_t max_bytes)
{
    s->deadline = deadline;
    s->max_bytes = max_bytes;
}

sw_key sw_root(const sw *s) { return (sw_key){ 0, 0, s->player == 1, 1 }; }

/* Whether k is a key of a live or just-won game; its counts narrowed to the consistent ones in *m. */
static bool sw_consistent(const sw *s, const sw_key *k, uint32_t *m)
{
    if ((k->own & k->seen) || ((k->own | k->seen) & ~s->g.all) || !k->counts || k->counts >> (s->g.cells + 1))
        return false;
    if (hb_joined(&s->g, s->player, k->own)) { /* just won: Q is to move */
        *m = k->counts;
        return k->q_to_move;
    }
    *m = sw_keep(s, k->own, k->seen, k->q_to_move, k->counts);
    return *m != 0;
}

int sw_solve(sw *s, const sw_key *k, int *cell)
{
    int dummy;
    uint32_t m;
    if (!cell)
        cell = &dummy;
    *cell = -1;
    if (!sw_consistent(s, k, &m))
        return -1;
    s->late = false;
    s->out_of_memory = false;
    if (hb_joined(&s->g, s->player, k->own))
        return 1;
    int r = k->q_to_move ? sw_reply(s, k->own, k->seen, m) : sw_move(s, k->own, k->seen, m, cell);
    if (r != 1)
        *cell = -1;
    return s->out_of_memory ? -1 : r;
}

int sw_after_attempt(const sw *s, const sw_key *k, int x, sw_key *placed, bool *can_place, bool *placed_won,
                     sw_key *collided, bool *can_collide)
{
    uint64_t bit = 1ull << x;
    if (k->q_to_move || x < 0 || x >= s->g.cells || ((k->own | k->seen) & bit))
        return -1;
    bool abrupt = s->rules != SW_CLASSICAL;
    *placed = (sw_key){ k->own | bit, k->seen, true, sw_keep(s, k->own | bit, k->seen, true, k->counts) };
    *can_place = placed->counts != 0;
    *placed_won = *can_place && hb_joined(&s->g, s->player, placed->own);
    *collided = (sw_key){ k->own, k->seen | bit, abrupt, sw_keep(s, k->own, k->seen | bit, abrupt, k->counts) };
    *can_collide = collided->counts != 0;
    return 0;
}

int sw_after_opponent(const sw *s, const sw_key *k, sw_key out[2], bool ok[2])
{
    if (!k->q_to_move)
        return -1;
    uint32_t placed, passed;
    sw_replies(s, k->own, k->seen, k->counts, &placed, &passed);
    if (s->rules != SW_ABRUPT_TOLD)
        placed |= passed, passed = 0;
    out[0] = (sw_key){ k->own, k->seen, false, placed };
    out[1] = (sw_key){ k->own, k->seen, false, passed };
    ok[0] = placed != 0, ok[1] = passed != 0;
    return 0;
}

void sw_get_stats(const sw *s, sw_stats *out)
{
    out->nodes = s->nodes;
    out->keys = s->used;
    out->bytes = s->cap * sizeof *s->table;
}

typedef struct {
    sw *s;
    uint64_t max_moves, moves;
    sw_visit visit;
    void *user;
    hx_event ev[2 * SW_MAX_CELLS * 2 + 2];
} sw_walk;

/* Walks the histories from k, whose events so far are w->ev[0..n). Returns 0 or a negative sw_walk_strategy
 * code. */
static int sw_walk_from(sw_walk *w, const sw_key *k, int n)
{
    sw *s = w->s;
    if (k->q_to_move) {
        sw_key next[2];
        bool ok[2];
        sw_after_opponent(s, k, next, ok);
        int r = ok[0] ? sw_walk_from(w, &next[0], n) : 0;
        if (r < 0 || !ok[1])
            return r;
        w->ev[n] = (hx_event){ HX_EV_OPP_HIT, 0 };
        return sw_walk_from(w, &next[1], n + 1);
    }
    int cell, r = sw_solve(s, k, &cell);
    if (r != 1)
        return r == -2 ? -2 : -1;
    if (w->max_moves && w->moves >= w->max_moves)
        return -3;
    w->moves++;
    w->visit(w->ev, n, cell, w->user);
    sw_key placed, collided;
    bool can_place, won, can_collide;
    sw_after_attempt(s, k, cell, &placed, &can_place, &won, &collided, &can_collide);
    if (can_place && !won) {
        w->ev[n] = (hx_event){ HX_EV_PLACED, cell };
        if ((r = sw_walk_from(w, &placed, n + 1)) < 0)
            return r;
    }
    if (!can_collide)
        return 0;
    w->ev[n] = (hx_event){ s->rules == SW_CLASSICAL ? HX_EV_REJECTED : HX_EV_COLLIDED, cell };
    return sw_walk_from(w, &collided, n + 1);
}

int64_t sw_walk_strategy(sw *s, const sw_key *k, uint64_t max_moves, sw_visit visit, void *user)
{
    sw_walk *w = calloc(1, sizeof *w);
    if (!w)
        return -1;
    *w = (sw_walk){ .s = s, .max_moves = max_moves, .visit = visit, .user = user };
    uint32_t m;
    int r = sw_consistent(s, k, &m) ? sw_walk_from(w, &(sw_key){ k->own, k->seen, k->q_to_move, m }, 0) : -1;
    int64_t moves = (int64_t)w->moves;
    free(w);
    return r < 0 ? r : moves;
}

typedef struct {
    uint64_t keys, wins;
} sw_count;

/* Walks the keys reachable from (own, seen, q_to_move, m): 0 or a negative sw_solve code. */
static int sw_reach(sw *s, sw_count *n, uint64_t own, uint64_t seen, bool q_to_move, uint32_t m)
{
    sw_key k = { own, seen, q_to_move, m };
    if (hb_joined(&s->g, s->player, own))
        return 0;
    if (q_to_move) {
        sw_key next[2];
        bool ok[2];
        sw_after_opponent(s, &k, next, ok);
        for (int i = 0; i < 2; i++) {
            int r = ok[i] ? sw_reach(s, n, own, seen, false, next[i].counts) : 0;
            if (r < 0)
                return r;
        }
        return 0;
    }
    int cell, r = sw_move(s, own, seen, m, &cell);
    if (r < 0)
        return r;
    uint64_t *w = sw_slot(s, sw_pack(own, seen, m), false);
    if (!w || (*w & SW_VISITED))
        return 0;
    *w |= SW_VISITED;
    n->keys++;
    n->wins += r;
    for (uint64_t left = s->g.all & ~own & ~seen; left; left &= left - 1) {
        sw_key placed, collided;
        bool can_place, won, can_collide;
        if (sw_after_attempt(s, &k, __builtin_ctzll(left), &placed, &can_place, &won, &collided, &can_collide) != 0)
            continue; /* never: the cell is neither its nor seen */
        if (can_place && (r = sw_reach(s, n, placed.own, placed.seen, true, placed.counts)) < 0)
            return r;
        if (can_collide &&
            (r = sw_reach(s, n, collided.own, collided.seen, collided.q_to_move, collided.counts)) < 0)
            return r;
    }
    return 0;
}

int sw_enumerate(sw *s, uint64_t *keys, uint64_t *wins)
{
    sw_count n = { 0, 0 };
    sw_key root = sw_root(s);
    s->late = false;
    s->out_of_memory = false;
    int r = sw_reach(s, &n, root.own, root.seen, root.q_to_move, root.counts);
    *keys = n.keys, *wins = n.wins;
    return s->out_of_memory ? -1 : r;
}
