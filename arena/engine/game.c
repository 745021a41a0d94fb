/* arena/engine/game.c — the rules engine: attempts, views, win detection by union-find, event logs and keys.
 *
 * Internally the board is padded by one cell on each side (stride = cols + 2). The top and bottom border
 * rows belong to Black and the left and right border columns to White, and each border is pre-joined in
 * the union-find to one representative cell, so a placement only unions with its six neighbours and a win
 * is "the two representatives of the mover's edges share a root". */
#include "game.h"

#include <stddef.h>
#include <string.h>

#define NONE 0xffffu
#define KEY_SEED HX_KEY_SEED

enum { CELL_BITS = 9, PLAYER_SHIFT = 9, OUTCOME_SHIFT = 10 };


uint64_t hx_key_hash(const uint16_t *key, int len)
{
    uint64_t h = KEY_SEED;
    for (int i = 0; i < len; i++)
        h = hx_key_step(h, key[i]);
    return hx_key_finish(h);
}


/* The four edges are extra union-find nodes after the padded board, numbered above every cell. Unions link
 * the smaller root under the larger, so an edge node stays a root until it joins the opposite edge of its
 * colour (top < bottom, left < right): a player has won exactly when its first edge node has a parent. */
static inline unsigned edge_top(const hx_game *g) { return g->npad; }
static inline unsigned edge_bottom(const hx_game *g) { return g->npad + 1u; }
static inline unsigned edge_left(const hx_game *g) { return g->npad + 2u; }
static inline unsigned edge_right(const hx_game *g) { return g->npad + 3u; }

static inline unsigned pad_of(const hx_game *g, unsigned cell)
{
    unsigned row = (cell * g->row_magic) >> 16;
    return cell + 2 * row + g->stride + 1;
}

static inline unsigned uf_find(uint16_t *parent, unsigned x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/* Puts a stone of `color` (1 or 2) on padded cell pc and unions it with its like neighbours. */
static inline void put_stone(hx_game *g, unsigned pc, unsigned color)
{
    const unsigned w = g->stride;
    const uint8_t *own = g->owner;
    uint16_t *parent = g->parent;
    unsigned like = (unsigned)(own[pc - w] == color) | (unsigned)(own[pc - w + 1] == color) << 1 |
                    (unsigned)(own[pc - 1] == color) << 2 | (unsigned)(own[pc + 1] == color) << 3 |
                    (unsigned)(own[pc + w - 1] == color) << 4 | (unsigned)(own[pc + w] == color) << 5;
    g->owner[pc] = (uint8_t)color;
    parent[pc] = (uint16_t)pc;
    unsigned root = pc;
    while (like) {
        unsigned r = uf_find(parent, pc + (unsigned)g->neighbour[__builtin_ctz(like)]);
        like &= like - 1;
        if (r > root) {
            parent[root] = (uint16_t)r;
            root = r;
        } else if (r < root) {
            parent[r] = (uint16_t)root;
        }
    }
}

static inline bool connected(const hx_game *g, int player)
{
    unsigned first = player == HX_BLACK ? edge_top(g) : edge_left(g);
    return g->parent[first] != first;
}

static inline void forget(hx_game *g, int p, unsigned cell)
{
    unsigned s = g->slot[p][cell];
    unsigned last = g->unknown[p][--g->n_unknown[p]];
    g->unknown[p][s] = (uint16_t)last;
    g->slot[p][last] = (uint16_t)s;
    g->slot[p][cell] = NONE;
}

static inline void unforget(hx_game *g, int p, unsigned cell)
{
    g->slot[p][cell] = g->n_unknown[p];
    g->unknown[p][g->n_unknown[p]++] = (uint16_t)cell;
}

int hx_new(hx_game *g, hx_variant variant, int rows, int cols, unsigned flags)
{
    if ((unsigned)variant >= HX_VARIANT_COUNT)
        return HX_ERR_VARIANT;
    if (rows < HX_MIN_SIDE || rows > HX_MAX_SIDE || cols < HX_MIN_SIDE || cols > HX_MAX_SIDE)
        return HX_ERR_SIZE;
    if ((flags & HX_SWAP_RULE) && (variant != HX_HEX || rows != cols))
        return HX_ERR_SWAP_RULE;
    memset(g, 0, offsetof(hx_game, owner));
    g->rows = (uint8_t)rows;
    g->cols = (uint8_t)cols;
    g->stride = (uint8_t)(cols + 2);
    g->variant = (uint8_t)variant;
    g->to_move = HX_BLACK;
    g->winner = HX_NOBODY;
    g->flags = (uint8_t)flags;
    g->report = (uint8_t)hx_variant_report(variant);
    g->keeps_turn = hx_variant_keeps_turn(variant);
    g->dark = hx_variant_dark(variant);
    g->cells = (uint16_t)(rows * cols);
    g->npad = (uint16_t)((rows + 2) * (cols + 2));
    g->row_magic = (65536u + (unsigned)cols - 1) / (unsigned)cols;
    const int16_t w16 = (int16_t)(cols + 2), nb[6] = { (int16_t)-w16, (int16_t)(1 - w16), -1, 1, (int16_t)(w16 - 1), w16 };
    memcpy(g->neighbour, nb, sizeof nb);

    const unsigned w = g->stride, npad = g->npad, bottom_row = (unsigned)(rows + 1) * w;
    memset(g->owner, 0, npad);
    for (unsigned i = 0; i < npad + 4; i++)
        g->parent[i] = (uint16_t)i;
    for (unsigned c = 0; c < w; c++) {
        g->owner[c] = 1;
        g->parent[c] = (uint16_t)edge_top(g);
        g->owner[bottom_row + c] = 1;
        g->parent[bottom_row + c] = (uint16_t)edge_bottom(g);
    }
    for (unsigned r = 1; r <= (unsigned)rows; r++) {
        g->owner[r * w] = 2;
        g->parent[r * w] = (uint16_t)edge_left(g);
        g->owner[r * w + w - 1] = 2;
        g->parent[r * w + w - 1] = (uint16_t)edge_right(g);
    }
    for (int p = 0; p < 2; p++) {
        for (unsigned i = 0; i < g->cells; i++) {
            g->unknown[p][i] = (uint16_t)i;
            g->slot[p][i] = (uint16_t)i;
        }
        g->n_unknown[p] = g->cells;
    }
    return 0;
}

void hx_copy(hx_game *dst, const hx_game *src)
{
    memcpy(dst, src, offsetof(hx_game, owner));
    memcpy(dst->owner, src->owner, src->npad);
    memcpy(dst->parent, src->parent, (src->npad + 4u) * sizeof src->parent[0]);
    for (int p = 0; p < 2; p++) {
        memcpy(dst->unknown[p], src->unknown[p], src->n_unknown[p] * sizeof src->unknown[p][0]);
        memcpy(dst->slot[p], src->slot[p], src->cells * sizeof src->slot[p][0]);
    }
    memcpy(dst->history, src->history, src->n_attempts * sizeof src->history[0]);
}

int hx_check(const hx_game *g, int cell)
{
    if (g->winner != HX_NOBODY)
        return HX_ERR_OVER;
    if (cell == HX_SWAP)
        return hx_can_swap(g) ? 0 : HX_ERR_SWAP;
    if (cell < 0 || cell >= g->cells)
        return HX_ERR_RANGE;
    if (g->slot[g->to_move][cell] != NONE)
        return 0;
    return g->owner[pad_of(g, (unsigned)cell)] == g->to_move + 1 ? HX_ERR_OWN : HX_ERR_KNOWN;
}

static void record(hx_game *g, int player, unsigned cell, hx_outcome outcome)
{
    g->history[g->n_attempts++] =
        (uint16_t)(cell | (unsigned)player << PLAYER_SHIFT | (unsigned)outcome << OUTCOME_SHIFT);
}

static int do_swap(hx_game *g)
{
    unsigned old = g->history[0] & ((1u << CELL_BITS) - 1);
    unsigned r = old / g->cols, c = old % g->cols;
    unsigned mirrored = c * g->cols + r;
    unsigned opc = pad_of(g, old);
    g->owner[opc] = 0;
    g->parent[opc] = (uint16_t)opc;
    g->n_stones[HX_BLACK]--;
    for (int p = 0; p < 2; p++)
        unforget(g, p, old);
    for (int p = 0; p < 2; p++)
        forget(g, p, mirrored);
    put_stone(g, pad_of(g, mirrored), 2);
    g->n_stones[HX_WHITE]++;
    record(g, HX_WHITE, mirrored, HX_SWAPPED);
    g->to_move = HX_BLACK;
    return HX_SWAPPED;
}

/* Everything but an ordinary legal attempt: errors and the swap. */
static __attribute__((noinline)) int attempt_unusual(hx_game *g, int cell)
{
    if (cell == HX_SWAP && hx_can_swap(g))
        return do_swap(g);
    return hx_check(g, cell);
}

/* A legal attempt on a real cell by the player to move: the one hot path, shared by hx_attempt() and
 * hx_playout(). */
static inline int attempt_legal(hx_game *g, const int p, const unsigned cell)
{
    const int o = p ^ 1;
    const unsigned pc = pad_of(g, cell);
    forget(g, p, cell);
    if (g->owner[pc] == 0) {
        put_stone(g, pc, (unsigned)p + 1);
        g->n_stones[p]++;
        record(g, p, cell, HX_PLACED);
        if (!g->dark) {
            forget(g, o, cell);
        }
        if (!(g->flags & HX_PLAY_TO_FULL)) {
            if (connected(g, p)) {
                g->winner = (uint8_t)p;
                g->to_move = HX_NOBODY;
                return HX_PLACED;
            }
        } else if (g->n_stones[0] + g->n_stones[1] == g->cells) {
            g->winner = connected(g, HX_BLACK) ? HX_BLACK : HX_WHITE;
            g->to_move = HX_NOBODY;
            return HX_PLACED;
        }
        g->to_move = (uint8_t)o;
        return HX_PLACED;
    }

    /* A hidden opponent stone (own stones are never unknown to their owner). */
    g->n_learned[p]++;
    hx_outcome out = g->keeps_turn ? HX_REJECTED : HX_COLLISION;
    record(g, p, cell, out);
    if (!g->keeps_turn)
        g->to_move = (uint8_t)o;
    return out;
}

int hx_attempt(hx_game *g, int cell)
{
    const int p = g->to_move;
    if (g->winner != HX_NOBODY || (unsigned)cell >= g->cells || g->slot[p][cell] == NONE)
        return attempt_unusual(g, cell);
    return attempt_legal(g, p, (unsigned)cell);
}

int hx_playout(hx_game *g, rng_state *rng)
{
    int n = 0;
    while (g->winner == HX_NOBODY) {
        if (hx_can_swap(g)) {
            hx_attempt(g, hx_random_legal(g, rng));
        } else {
            const int p = g->to_move;
            attempt_legal(g, p, g->unknown[p][rng_below(rng, g->n_unknown[p])]);
        }
        n++;
    }
    return n;
}

const char *hx_strerror(int err)
{
    switch (err) {
    case 0: return "legal";
    case HX_ERR_OVER: return "the game is over";
    case HX_ERR_RANGE: return "not a cell of this board";
    case HX_ERR_OWN: return "the mover's own stone is there";
    case HX_ERR_KNOWN: return "the mover already knows the opponent stone there";
    case HX_ERR_SWAP: return "swap is allowed only as White's first move in hex with the swap rule";
    case HX_ERR_SIZE: return "each board side must be between 2 and 19";
    case HX_ERR_VARIANT: return "unknown variant";
    case HX_ERR_SWAP_RULE: return "the swap rule needs variant hex on a square board";
    default: return "unknown error";
    }
}

const char *hx_outcome_name(int outcome)
{
    switch (outcome) {
    case HX_PLACED: return "placed";
    case HX_REJECTED: return "rejected";
    case HX_COLLISION: return "collision";
    case HX_SWAPPED: return "swap";
    default: return "?";
    }
}

int hx_owner(const hx_game *g, int cell)
{
    return g->owner[pad_of(g, (unsigned)cell)];
}

int hx_view(const hx_game *g, int player, int cell)
{
    if (hx_owner(g, cell) == player + 1)
        return HX_VIEW_OWN;
    return g->slot[player][cell] == NONE ? HX_VIEW_OPPONENT : HX_VIEW_UNKNOWN;
}

int hx_legal(const hx_game *g, uint16_t *out)
{
    if (g->winner != HX_NOBODY)
        return 0;
    const uint16_t *slot = g->slot[g->to_move];
    int n = 0;
    for (unsigned i = 0; i < g->cells; i++)
        if (slot[i] != NONE)
            out[n++] = (uint16_t)i;
    if (hx_can_swap(g))
        out[n++] = HX_SWAP;
    return n;
}

int hx_num_legal(const hx_game *g)
{
    if (g->winner != HX_NOBODY)
        return 0;
    return g->n_unknown[g->to_move] + (hx_can_swap(g) ? 1 : 0);
}

hx_move hx_move_at(const hx_game *g, int i)
{
    unsigned h = g->history[i];
    hx_move m = {
        .player = (int)(h >> PLAYER_SHIFT & 1u),
        .cell = (int)(h & ((1u << CELL_BITS) - 1)),
        .outcome = (hx_outcome)(h >> OUTCOME_SHIFT & 3u),
    };
    return m;
}

/* The single definition of who is told what: the event attempt m tells `player`, if any. */
static bool event_of(const hx_game *g, hx_move m, int player, hx_event *e)
{
    *e = (hx_event){ .kind = HX_EV_PLACED, .cell = m.cell };
    if (m.outcome == HX_SWAPPED) {
        e->kind = HX_EV_SWAP;
    } else if (m.player == player) {
        e->kind = m.outcome == HX_PLACED ? HX_EV_PLACED
                : m.outcome == HX_REJECTED ? HX_EV_REJECTED : HX_EV_COLLIDED;
    } else if (!g->dark) {
        e->kind = HX_EV_OPP_PLACED;
    } else if (m.outcome == HX_PLACED || g->report == HX_REPORT_NONE) {
        return false;
    } else if (g->report == HX_REPORT_NOISY) {
        e->kind = HX_EV_OPP_HIT;
        e->cell = 0;
    } else {
        e->kind = HX_EV_OPP_HIT_AT;
    }
    return true;
}

int hx_events(const hx_game *g, int player, hx_event *out)
{
    int n = 0;
    for (int i = 0; i < g->n_attempts; i++)
        n += event_of(g, hx_move_at(g, i), player, &out[n]);
    return n;
}

uint64_t hx_key_extend(const hx_game *g, int player, uint64_t h)
{
    hx_event e;
    if (g->n_attempts == 0 || !event_of(g, hx_move_at(g, g->n_attempts - 1), player, &e))
        return h;
    return hx_key_step(h, (unsigned)e.kind << CELL_BITS | (unsigned)e.cell);
}

uint64_t hx_key_fingerprint(const hx_game *g, int player)
{
    uint16_t key[HX_MAX_EVENTS];
    return hx_key_hash(key, hx_key(g, player, key));
}

int hx_key_length(const hx_game *g, int player)
{
    hx_event ev[HX_MAX_EVENTS];
    return hx_events(g, player, ev);
}

uint64_t hx_events_hash(const hx_event *ev, int n)
{
    uint64_t h = KEY_SEED;
    for (int i = 0; i < n; i++)
        h = hx_key_step(h, (unsigned)ev[i].kind << CELL_BITS | (unsigned)ev[i].cell);
    return hx_key_finish(h);
}

uint64_t hx_view_key_of(const uint8_t *view, int cells, int player, int reports)
{
    uint64_t h = KEY_SEED ^ ((uint64_t)player << 32 | (uint64_t)reports);
    for (int c = 0; c < cells; c++)
        h = hx_key_step(h, (unsigned)view[c] << CELL_BITS | (unsigned)c);
    return hx_key_finish(h ^ (uint64_t)cells << 48);
}

uint64_t hx_view_key(const hx_game *g, int player)
{
    hx_event ev[HX_MAX_EVENTS];
    int n = hx_events(g, player, ev), reports = 0;
    for (int i = 0; i < n; i++)
        reports += ev[i].kind == HX_EV_OPP_HIT || ev[i].kind == HX_EV_OPP_HIT_AT;
    uint8_t view[HX_MAX_CELLS];
    int cells = g->rows * g->cols;
    for (int c = 0; c < cells; c++)
        view[c] = (uint8_t)hx_view(g, player, c);
    return hx_view_key_of(view, cells, player, reports);
}

int hx_key(const hx_game *g, int player, uint16_t *out)
{
    hx_event ev[HX_MAX_EVENTS];
    int n = hx_events(g, player, ev);
    for (int i = 0; i < n; i++)
        out[i] = (uint16_t)((unsigned)ev[i].kind << CELL_BITS | (unsigned)ev[i].cell);
    return n;
}
