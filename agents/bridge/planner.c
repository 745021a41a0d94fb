/* agents/bridge/planner.c — the bridge builder's strategy (see planner.h): Dijkstra over cells and two
 * virtual edge nodes on the player's oriented board (it joins row 0 to the last row), own groups by
 * union-find for intrusions, and the move choice. */
#include "planner.h"

#include <string.h>

#define STONE 65536u                   /* cost of one stone to place; jitter and weights stay below it */
#define INF 0xffffffffu

/* Oriented board: the player joins row 0 and row R-1. real[i] maps an oriented cell to the real one. */
typedef struct {
    int R, C, n;
    uint8_t v[HX_MAX_CELLS];           /* view, oriented */
    uint16_t real[HX_MAX_CELLS];
} oriented;

static const int nb[6][2] = { { -1, 0 }, { -1, 1 }, { 0, 1 }, { 1, 0 }, { 1, -1 }, { 0, -1 } };

static void orient(const bb_position *p, oriented *o)
{
    bool t = p->color == HX_WHITE;
    o->R = t ? p->cols : p->rows;
    o->C = t ? p->rows : p->cols;
    o->n = o->R * o->C;
    for (int r = 0; r < o->R; r++)
        for (int c = 0; c < o->C; c++) {
            int real = t ? c * p->cols + r : r * p->cols + c;
            o->real[r * o->C + c] = (uint16_t)real;
            o->v[r * o->C + c] = p->view[real];
        }
}

static bool on(const oriented *o, int r, int c)
{
    return r >= 0 && r < o->R && c >= 0 && c < o->C;
}

/* Bridges in oriented coordinates: partner offset = nb[k] + nb[k+1], carriers at nb[k] and nb[k+1]. */
static int bridges_at(int R, int C, int cell, bb_bridge out[6])
{
    int r = cell / C, c = cell % C, n = 0;
    for (int k = 0; k < 6; k++) {
        const int *a = nb[k], *b = nb[(k + 1) % 6];
        int pr = r + a[0] + b[0], pc = c + a[1] + b[1];
        int ar = r + a[0], ac = c + a[1], br = r + b[0], bc = c + b[1];
        if (pr < 0 || pr >= R || pc < 0 || pc >= C || ar < 0 || ar >= R || ac < 0 || ac >= C || br < 0 ||
            br >= R || bc < 0 || bc >= C)
            continue;
        out[n++] = (bb_bridge){ .partner = pr * C + pc, .carrier = { ar * C + ac, br * C + bc } };
    }
    return n;
}

int bb_bridges(int rows, int cols, int cell, bb_bridge out[6])
{
    return bridges_at(rows, cols, cell, out);
}

bb_options bb_defaults(void)
{
    return (bb_options){ .hidden_weight = 1.0, .fill_every = 0 };
}

/* ---- shortest path ---- */

typedef struct {
    uint32_t key;
    uint16_t node;
} heap_item;

typedef struct {
    heap_item a[16 * (HX_MAX_CELLS + 2)];
    int n;
} heap;

static void heap_push(heap *h, uint32_t key, int node)
{
    int i = h->n++;
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (h->a[parent].key <= key)
            break;
        h->a[i] = h->a[parent];
        i = parent;
    }
    h->a[i] = (heap_item){ key, (uint16_t)node };
}

static heap_item heap_pop(heap *h)
{
    heap_item top = h->a[0], last = h->a[--h->n];
    int i = 0;
    for (;;) {
        int l = 2 * i + 1, m = i;
        if (l < h->n && h->a[l].key < last.key)
            m = l;
        if (l + 1 < h->n && h->a[l + 1].key < (m == i ? last.key : h->a[l].key))
            m = l + 1;
        if (m == i)
            break;
        h->a[i] = h->a[m];
        i = m;
    }
    h->a[i] = last;
    return top;
}

typedef struct {
    uint32_t dist[HX_MAX_CELLS + 2];
    int16_t prev[HX_MAX_CELLS + 2];
    uint8_t kind[HX_MAX_CELLS + 2];
    int16_t carrier[HX_MAX_CELLS + 2][2];
    heap h;
} search;

/* The extra cost of a link through carriers c0 and c1 that may hold unseen stones. */
static uint32_t carrier_risk(const oriented *o, uint32_t risk, int c0, int c1)
{
    return risk * (uint32_t)((o->v[c0] == HX_VIEW_UNKNOWN) + (o->v[c1] == HX_VIEW_UNKNOWN));
}

static void relax(search *s, int from, int to, uint32_t step, bb_link_kind kind, int c0, int c1)
{
    if (step == INF)
        return;
    uint32_t d = s->dist[from] + step;
    if (d < s->dist[to]) {
        s->dist[to] = d;
        s->prev[to] = (int16_t)from;
        s->kind[to] = (uint8_t)kind;
        s->carrier[to][0] = (int16_t)c0;
        s->carrier[to][1] = (int16_t)c1;
        heap_push(&s->h, d, to);
    }
}

bool bb_shortest_path(const bb_position *p, const bb_options *opt, bb_path *path)
{
    static _Thread_local oriented o;
    static _Thread_local search s;
    orient(p, &o);
    int R = o.R, C = o.C, N = o.n, S = N, T = N + 1;
    /* entering costs */
    int unknown = 0;
    for (int i = 0; i < N; i++)
        unknown += o.v[i] == HX_VIEW_UNKNOWN;
    /* risk: an unknown carrier may hold an unseen opponent stone (probability hidden / unknown): a bridge
     * or template costs hidden_weight * that probability stones per unknown carrier */
    uint32_t risk = 0;
    if (p->hidden > 0 && unknown > 0 && opt->hidden_weight > 0)
        risk = (uint32_t)(opt->hidden_weight * (double)p->hidden / (double)unknown * STONE);
    uint32_t enter[HX_MAX_CELLS + 2];
    for (int i = 0; i < N; i++)
        enter[i] = o.v[i] == HX_VIEW_OWN ? 0
                 : o.v[i] == HX_VIEW_OPPONENT
                     ? INF
                     : STONE + (p->jitter ? p->jitter[o.real[i]] % (BB_JITTER_MAX + 1) : 0);
    enter[T] = 0;
    for (int i = 0; i < N + 2; i++)
        s.dist[i] = INF;
    s.h.n = 0;
    s.dist[S] = 0;
    s.prev[S] = -1;
    heap_push(&s.h, 0, S);
    while (s.h.n) {
        heap_item it = heap_pop(&s.h);
        int u = it.node;
        if (it.key != s.dist[u])
            continue;
        if (u == T)
            break;
        if (u == S) {
            for (int c = 0; c < C; c++)
                relax(&s, S, c, enter[c], BB_ADJACENT, -1, -1);
            for (int c = 0; R > 1 && c + 1 < C; c++) { /* template onto row 1 through (0,c) and (0,c+1) */
                if (o.v[c] != HX_VIEW_OPPONENT && o.v[c + 1] != HX_VIEW_OPPONENT)
                    relax(&s, S, C + c, enter[C + c] == INF ? INF : enter[C + c] + carrier_risk(&o, risk, c, c + 1),
                          BB_TEMPLATE, c, c + 1);
            }
            continue;
        }
        int r = u / C, c = u % C;
        for (int k = 0; k < 6; k++) {
            int vr = r + nb[k][0], vc = c + nb[k][1];
            if (on(&o, vr, vc))
                relax(&s, u, vr * C + vc, enter[vr * C + vc], BB_ADJACENT, -1, -1);
        }
        bb_bridge b[6];
        int nbr = bridges_at(R, C, u, b);
        for (int k = 0; k < nbr; k++)
            if (o.v[b[k].carrier[0]] != HX_VIEW_OPPONENT && o.v[b[k].carrier[1]] != HX_VIEW_OPPONENT)
                relax(&s, u, b[k].partner,
                      enter[b[k].partner] == INF ? INF
                                                 : enter[b[k].partner] + carrier_risk(&o, risk, b[k].carrier[0],
                                                                                      b[k].carrier[1]),
                      BB_BRIDGE, b[k].carrier[0], b[k].carrier[1]);
        if (r == R - 1)
            relax(&s, u, T, 0, BB_ADJACENT, -1, -1);
        if (r == R - 2 && c >= 1) { /* template onto the last row through (R-1,c-1) and (R-1,c) */
            int a = (R - 1) * C + c - 1, bb = (R - 1) * C + c;
            if (o.v[a] != HX_VIEW_OPPONENT && o.v[bb] != HX_VIEW_OPPONENT)
                relax(&s, u, T, carrier_risk(&o, risk, a, bb), BB_TEMPLATE, a, bb);
        }
    }
    path->n = path->new_stones = 0;
    path->found = s.dist[T] != INF;
    if (!path->found)
        return false;
    /* walk back from T: nodes, then reverse */
    int nodes[HX_MAX_CELLS + 2], n = 0;
    for (int x = T; x != S; x = s.prev[x])
        nodes[n++] = x;
    /* nodes[n-1] is the first cell, nodes[0] is T */
    path->n = n - 1;
    for (int k = 0; k < n; k++) {
        int x = nodes[n - 1 - k]; /* k-th node after S; link k joins the previous node to x */
        bb_link *l = &path->links[k];
        l->kind = (bb_link_kind)s.kind[x];
        l->carrier[0] = s.carrier[x][0] >= 0 ? o.real[s.carrier[x][0]] : -1;
        l->carrier[1] = s.carrier[x][1] >= 0 ? o.real[s.carrier[x][1]] : -1;
        if (x != T) {
            path->cells[k] = o.real[x];
            path->new_stones += o.v[x] == HX_VIEW_UNKNOWN;
        }
    }
    return true;
}

/* ---- intrusions ---- */

static int find(uint16_t *parent, int x)
{
    while (parent[x] != x)
        x = parent[x] = parent[parent[x]];
    return x;
}

int bb_intrusion(const bb_position *p, const bb_path *path)
{
    static _Thread_local oriented o;
    orient(p, &o);
    int R = o.R, C = o.C, N = o.n, TOP = N, BOTTOM = N + 1;
    uint16_t parent[HX_MAX_CELLS + 2];
    for (int i = 0; i < N + 2; i++)
        parent[i] = (uint16_t)i;
    for (int i = 0; i < N; i++) {
        if (o.v[i] != HX_VIEW_OWN)
            continue;
        int r = i / C, c = i % C;
        if (r == 0)
            parent[find(parent, i)] = (uint16_t)find(parent, TOP);
        if (r == R - 1)
            parent[find(parent, i)] = (uint16_t)find(parent, BOTTOM);
        for (int k = 0; k < 6; k++) {
            int vr = r + nb[k][0], vc = c + nb[k][1];
            if (on(&o, vr, vc) && o.v[vr * C + vc] == HX_VIEW_OWN)
                parent[find(parent, i)] = (uint16_t)find(parent, vr * C + vc);
        }
    }
    bool on_path[HX_MAX_CELLS] = { false };
    for (int k = 0; path && path->found && k < path->n; k++)
        on_path[path->cells[k]] = true;
    int best = -1;
    bool best_on_path = false;
#define CANDIDATE(a, b, x, y)                                                                                 \
    do {                                                                                                      \
        int free_ = -1;                                                                                       \
        if (o.v[a] == HX_VIEW_OPPONENT && o.v[b] == HX_VIEW_UNKNOWN)                                          \
            free_ = b;                                                                                        \
        else if (o.v[b] == HX_VIEW_OPPONENT && o.v[a] == HX_VIEW_UNKNOWN)                                     \
            free_ = a;                                                                                        \
        if (free_ >= 0 && find(parent, x) != find(parent, y)) {                                               \
            bool op = on_path[o.real[free_]];                                                                 \
            if (best < 0 || (op && !best_on_path)) {                                                          \
                best = o.real[free_];                                                                         \
                best_on_path = op;                                                                            \
            }                                                                                                 \
        }                                                                                                     \
    } while (0)
    for (int i = 0; i < N; i++) {
        if (o.v[i] != HX_VIEW_OWN)
            continue;
        int r = i / C, c = i % C;
        bb_bridge b[6];
        int n = bridges_at(R, C, i, b);
        for (int k = 0; k < n; k++)
            if (b[k].partner > i && o.v[b[k].partner] == HX_VIEW_OWN)
                CANDIDATE(b[k].carrier[0], b[k].carrier[1], i, b[k].partner);
        if (r == 1 && c + 1 < C)
            CANDIDATE(c, c + 1, i, TOP);
        if (r == R - 2 && c >= 1)
            CANDIDATE((R - 1) * C + c - 1, (R - 1) * C + c, i, BOTTOM);
    }
#undef CANDIDATE
    return best;
}

int bb_hidden_estimate(hx_variant v, int color, const hx_event *events, int n_events, int known_opponent_stones)
{
    if (!hx_variant_dark(v))
        return 0;
    int my_turns = 0, opp_lost = 0;
    for (int i = 0; i < n_events; i++) {
        hx_event_kind k = events[i].kind;
        my_turns += k == HX_EV_PLACED || k == HX_EV_COLLIDED;
        opp_lost += (k == HX_EV_OPP_HIT || k == HX_EV_OPP_HIT_AT) && !hx_variant_keeps_turn(v);
    }
    int hidden = my_turns + (color == HX_WHITE) - opp_lost - known_opponent_stones;
    return hidden > 0 ? hidden : 0;
}

/* ---- the move ---- */

static int pick(const int *cells, int n, rng_state *rng)
{
    return n ? cells[rng ? rng_below(rng, (uint32_t)n) : 0] : -1;
}

/* A link of the path whose carriers are both unknown: one of its carriers. */
static int fill_carrier(const bb_position *p, const bb_path *path, rng_state *rng)
{
    int cand[2 * (HX_MAX_CELLS + 1)], n = 0;
    for (int k = 0; k <= path->n; k++) {
        const bb_link *l = &path->links[k];
        if (l->kind == BB_ADJACENT)
            continue;
        if (p->view[l->carrier[0]] == HX_VIEW_UNKNOWN && p->view[l->carrier[1]] == HX_VIEW_UNKNOWN) {
            cand[n++] = l->carrier[0];
            cand[n++] = l->carrier[1];
        }
    }
    return pick(cand, n, rng);
}

static int any_unknown(const bb_position *p, rng_state *rng)
{
    int cand[HX_MAX_CELLS], n = 0;
    for (int i = 0; i < p->rows * p->cols; i++)
        if (p->view[i] == HX_VIEW_UNKNOWN)
            cand[n++] = i;
    return pick(cand, n, rng);
}

int bb_choose(const bb_position *p, const bb_options *o, rng_state *rng, bb_why *why)
{
    static _Thread_local bb_path path;
    bb_why dummy;
    if (!why)
        why = &dummy;
    if (p->can_swap) {
        /* swap a first stone away from the border: it is worth more than any answer to it */
        for (int i = 0; i < p->rows * p->cols; i++)
            if (p->view[i] == HX_VIEW_OPPONENT) {
                int r = i / p->cols, c = i % p->cols;
                if (r > 0 && c > 0 && r < p->rows - 1 && c < p->cols - 1) {
                    *why = BB_WHY_SWAP;
                    return HX_SWAP;
                }
            }
    }
    if (!bb_shortest_path(p, o, &path)) {
        *why = BB_WHY_FALLBACK;
        return any_unknown(p, rng);
    }
    int cell = bb_intrusion(p, &path);
    if (cell >= 0) {
        *why = BB_WHY_INTRUSION;
        return cell;
    }
    if (path.new_stones > 0 && p->dark && o->fill_every > 0 && p->own_stones > 0 &&
        p->own_stones % o->fill_every == 0) {
        cell = fill_carrier(p, &path, rng);
        if (cell >= 0) {
            *why = BB_WHY_EAGER_FILL;
            return cell;
        }
    }
    if (path.new_stones > 0) {
        /* the path's stone to place nearest its middle: bridges grow outwards from the centre */
        int cand[HX_MAX_CELLS], n = 0, best = HX_MAX_CELLS;
        for (int k = 0; k < path.n; k++) {
            if (p->view[path.cells[k]] != HX_VIEW_UNKNOWN)
                continue;
            int d = 2 * k + 1 - path.n;
            d = d < 0 ? -d : d;
            if (d < best)
                best = d, n = 0;
            if (d == best)
                cand[n++] = path.cells[k];
        }
        *why = BB_WHY_BUILD;
        return pick(cand, n, rng);
    }
    cell = fill_carrier(p, &path, rng);
    if (cell >= 0) {
        *why = BB_WHY_FILL;
        return cell;
    }
    *why = BB_WHY_FALLBACK;
    return any_unknown(p, rng);
}

int bb_move(const hx_game *g, int color, const bb_options *o, const uint16_t *jitter, rng_state *rng)
{
    uint8_t view[HX_MAX_CELLS];
    hx_event ev[HX_MAX_EVENTS];
    int n = hx_cells(g), known = 0;
    for (int i = 0; i < n; i++) {
        view[i] = (uint8_t)hx_view(g, color, i);
        known += view[i] == HX_VIEW_OPPONENT;
    }
    int ne = hx_events(g, color, ev);
    hx_variant v = hx_variant_of(g);
    bb_position p = { .rows = hx_rows(g), .cols = hx_cols(g), .color = color, .view = view,
                      .hidden = bb_hidden_estimate(v, color, ev, ne, known), .own_stones = hx_stones(g, color),
                      .dark = hx_variant_dark(v), .can_swap = hx_can_swap(g), .jitter = jitter };
    return bb_choose(&p, o, rng, NULL);
}
