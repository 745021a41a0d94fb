/* agents/ismcts/search.c — single-observer ISMCTS over sampled hidden boards, with bridge-saving playouts
 * (search.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "deadcell.h"
#include "gale.h"
#include "resist.h"
#include "search.h"

#define EMPTY 2

typedef struct {
    int first_child, next_sibling;
    int visits, avail;
    float wins;        /* for the player who moved into this node */
    uint16_t cell;
} ism_node;

struct ism_search {
    ism_node nodes[ISM_MAX_NODES];
    int n_nodes;
    uint8_t boards[ISM_MAX_SAMPLES][HX_MAX_CELLS];
    gale_board gale;
    int amaf_n[HX_MAX_CELLS];    /* dark variants, root only: iterations that ended with the cell ours */
    float amaf_w[HX_MAX_CELLS];  /* ... and those of them won */
    int amaf_tn[HX_MAX_CELLS];   /* iterations that ended with the cell the opponent's (empty on the board) */
    float amaf_tw[HX_MAX_CELLS]; /* ... and those of them won */
    double rave;                 /* the RAVE constant k (0: none) */
    double pivot;                /* the weight of the root's pivotal-cell prior (0: the AMAF value instead) */
    int piv[HX_MAX_CELLS];       /* root only: iterations whose full board had the cell on both of the winner's
                                  * Gale paths (a cell unknown to the player, not a hidden stone of the board) */
    long piv_total;              /* iterations counted */
    const uint8_t *avoid;        /* cells the player does not attempt (NULL: none) */
    int n_avoid;                 /* unknown cells avoided */
    bool opp_weighted;           /* the simulated opponent's free attempts by opp_cum (else uniform) */
    double opp_grow;             /* the share of its attempts next to its stones (the rest drawn anywhere) */
    double opp_goal;             /* the share of its growing attempts toward its own edges (0: any of the 12) */
    double opp_cum[HX_MAX_CELLS]; /* the centre model's weights of cells 0..i summed */
    double resist;               /* the weight of the root's resistance prior (0: none) */
    double rv[HX_MAX_CELLS];     /* root only: the resistance value of each unknown cell, the largest 1 */
};

ism_search *ism_search_new(void)
{
    return calloc(1, sizeof(ism_search));
}

size_t ism_search_size(void)
{
    return sizeof(ism_search);
}

void ism_search_free(ism_search *s)
{
    free(s);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int ism_connecting_cell(const ism_belief *b)
{
    uint8_t own[HX_MAX_CELLS];
    for (int i = 0; i < b->cells; i++)
        own[i] = b->view[i] == HX_VIEW_OWN;
    for (int k = 0; k < b->n_unknown; k++) {
        int u = b->unknown[k];
        own[u] = 1;
        bool joins = ism_joins(b->rows, b->cols, b->color, own);
        own[u] = 0;
        if (joins)
            return u;
    }
    return -1;
}

/* The position of one iteration: colours per cell (HX_BLACK, HX_WHITE or EMPTY) and the empty cells. */
typedef struct {
    int rows, cols, cells;
    uint8_t col[HX_MAX_CELLS];
    uint16_t empty[HX_MAX_CELLS], pos[HX_MAX_CELLS];
    int n_empty;
} position;

static void place(position *p, int cell, int colour)
{
    p->col[cell] = (uint8_t)colour;
    int k = p->pos[cell], last = p->empty[--p->n_empty];
    p->empty[k] = (uint16_t)last, p->pos[last] = (uint16_t)k;
}

/* Who owns a cell for the bridge pattern: its colour on the board; off the board, the edge's player
 * (ism_edge_owner; a corner: nobody). */
static int owner_at(const position *p, int r, int c)
{
    int edge = ism_edge_owner(p->rows, p->cols, r, c);
    return edge != ISM_ON_BOARD ? edge : p->col[r * p->cols + c];
}

/* The cell that saves `mover`'s bridge the opponent's stone at `x` intruded into, or -1. */
static int bridge_save(const position *p, int x, int mover, rng_state *rng)
{
    /* x's neighbours in cyclic order: each is adjacent to the next. */
    static const int dr[6] = { -1, -1, 0, 1, 1, 0 }, dc[6] = { 0, 1, 1, 0, -1, -1 };
    int r = x / p->cols, c = x % p->cols, own[6], found[6], n = 0;
    for (int d = 0; d < 6; d++)
        own[d] = owner_at(p, r + dr[d], c + dc[d]);
    for (int d = 0; d < 6; d++) {
        int rr = r + dr[d], cc = c + dc[d];
        if (rr < 0 || rr >= p->rows || cc < 0 || cc >= p->cols || p->col[rr * p->cols + cc] != EMPTY)
            continue;
        int a = (d + 5) % 6, b = (d + 1) % 6;
        if (own[a] == mover && own[b] == mover) {
            /* Both ends off the board is the edge itself, not a bridge. */
            int ar = r + dr[a], ac = c + dc[a], br = r + dr[b], bc = c + dc[b];
            bool a_off = ar < 0 || ar >= p->rows || ac < 0 || ac >= p->cols;
            bool b_off = br < 0 || br >= p->rows || bc < 0 || bc >= p->cols;
            if (!(a_off && b_off))
                found[n++] = rr * p->cols + cc;
        }
    }
    return n == 0 ? -1 : found[n == 1 ? 0 : rng_below(rng, (uint32_t)n)];
}

/* Plays the position out from `mover` (the opponent's last stone at `last`, or -1) and returns the winner. */
static int playout(ism_search *s, position *p, int mover, int last, rng_state *rng)
{
    while (p->n_empty > 0) {
        int cell = last >= 0 ? bridge_save(p, last, mover, rng) : -1;
        if (cell < 0)
            cell = p->empty[rng_below(rng, (uint32_t)p->n_empty)];
        place(p, cell, mover);
        last = cell, mover ^= 1;
    }
    for (int i = 0; i < p->cells; i++)
        gale_set(&s->gale, i, p->col[i]);
    return gale_walk(&s->gale, GALE_TOP_LEFT, NULL, NULL);
}

static int new_node(ism_search *s, int parent, int cell)
{
    if (s->n_nodes >= ISM_MAX_NODES)
        return -1;
    int k = s->n_nodes++;
    ism_node *n = &s->nodes[k];
    n->first_child = -1, n->visits = n->avail = 0, n->wins = 0, n->cell = (uint16_t)cell;
    n->next_sibling = s->nodes[parent].first_child;
    s->nodes[parent].first_child = k;
    return k;
}

/* Fills the empty cells alternately at random from `mover` and returns the winner (the dark variants: nobody sees
 * the other's stones, so nobody answers an intrusion). */
static int random_fill(ism_search *s, position *p, int mover, rng_state *rng)
{
    while (p->n_empty > 0) {
        place(p, p->empty[rng_below(rng, (uint32_t)p->n_empty)], mover);
        mover ^= 1;
    }
    for (int i = 0; i < p->cells; i++)
        gale_set(&s->gale, i, p->col[i]);
    return gale_walk(&s->gale, GALE_TOP_LEFT, NULL, NULL);
}

/* One opponent turn of the dark game on the board: attempts on uniformly random cells it does not know (it
 * knows its stones and ours it hit: `hit`) until one places (the classical family) or one places or collides
 * (the abrupt family). */
static int grow_cell(const position *p, int opp, double goal, rng_state *rng)
{
    static const int dr[12] = { -1, -1, 0, 1, 1, 0, -2, -1, 1, 2, 1, -1 },
                     dc[12] = { 0, 1, 1, 0, -1, -1, 1, 2, 1, -1, -2, -1 };
    /* toward its edges: Black (top to bottom) the four neighbours off its row and the two bridges two rows
     * away; White (left to right) the same turned */
    static const int toward[2][6] = { { 0, 1, 3, 4, 6, 9 }, { 1, 2, 4, 5, 7, 10 } };
    for (int tries = 0; tries < 8; tries++) {
        int c = (int)rng_below(rng, (uint32_t)p->cells);
        if (p->col[c] != opp)
            continue;
        int d = goal > 0 && rng_double(rng) < goal ? toward[opp][rng_below(rng, 6)] : (int)rng_below(rng, 12);
        int r = c / p->cols + dr[d], k = c % p->cols + dc[d];
        if (r >= 0 && r < p->rows && k >= 0 && k < p->cols)
            return r * p->cols + k;
    }
    return (int)rng_below(rng, (uint32_t)p->cells);
}

/* A cell drawn by the summed weights cum[0..cells). */
static int weighted_cell(const double *cum, int cells, rng_state *rng)
{
    double u = rng_double(rng) * cum[cells - 1];
    int lo = 0, hi = cells - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (cum[mid] > u)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

static void opponent_turn(const ism_search *s, position *p, int opp, bool keeps, uint8_t *hit, rng_state *rng)
{
    for (int tries = 0; tries < 4 * p->cells && p->n_empty > 0; tries++) {
        int c = rng_double(rng) < s->opp_grow ? grow_cell(p, opp, s->opp_goal, rng)
                : s->opp_weighted ? weighted_cell(s->opp_cum, p->cells, rng)
                                  : (int)rng_below(rng, (uint32_t)p->cells);
        if (p->col[c] == opp || hit[c])
            continue;
        if (p->col[c] == EMPTY) {
            place(p, c, opp);
            return;
        }
        hit[c] = 1; /* one of our stones */
        if (!keeps)
            return;
    }
    if (p->n_empty > 0) /* a board nearly all known to it: any empty cell */
        place(p, p->empty[rng_below(rng, (uint32_t)p->n_empty)], opp);
}

/* The root's pivotal-cell counts from the full board on s->gale (random_fill() set it): a cell unknown to the
 * player and free on the hidden board `opp` that lies on both of the winner's Gale paths (from the two corners)
 * counts once. In random-turn Hex the chance that a cell is pivotal is what owning it is worth (mc's score). */
static void count_pivots(ism_search *s, const ism_belief *b, const uint8_t *opp)
{
    static uint16_t first[GALE_PATH_MAX], second[GALE_PATH_MAX];
    static uint32_t mark[HX_MAX_CELLS], stamp;
    int n1, n2;
    gale_walk(&s->gale, GALE_TOP_LEFT, first, &n1);
    gale_walk(&s->gale, GALE_BOTTOM_RIGHT, second, &n2);
    if (++stamp == 0)
        memset(mark, 0, sizeof mark), stamp = 1;
    for (int i = 0; i < n1; i++)
        mark[first[i]] = stamp;
    for (int i = 0; i < n2; i++) {
        int c = second[i];
        if (mark[c] == stamp && b->view[c] == HX_VIEW_UNKNOWN && !opp[c]) {
            s->piv[c]++;
            mark[c] = 0; /* counted once */
        }
    }
    s->piv_total++;
}

/* One iteration of the dark variants on the hidden board `opp`: a tree of the player's own attempts alone. An
 * attempt is available while its cell is unknown to the player in the simulated game; on an empty cell it
 * places and the opponent takes a turn of uniformly random attempts (it sees none of our stones); on a hidden
 * stone the player learns it and moves again (classical family) or loses the turn (abrupt family). Leaving
 * the tree, the rest of the board is filled alternately at random. */
static void iterate_dark(ism_search *s, const ism_belief *b, const uint8_t *opp, double uct, rng_state *rng)
{
    static position p;
    static uint8_t known[HX_MAX_CELLS], hit[HX_MAX_CELLS];
    static int path[HX_MAX_ATTEMPTS + 2];
    static uint32_t mark[HX_MAX_CELLS], stamp;
    static uint16_t cand[HX_MAX_CELLS];
    int me = b->color, them = me ^ 1;
    bool keeps = hx_variant_keeps_turn(b->variant);
    p.rows = b->rows, p.cols = b->cols, p.cells = b->cells, p.n_empty = 0;
    for (int i = 0; i < b->cells; i++) {
        p.col[i] = b->view[i] == HX_VIEW_OWN ? (uint8_t)me : opp[i] ? (uint8_t)them : EMPTY;
        known[i] = b->view[i] != HX_VIEW_UNKNOWN || (s->avoid && s->avoid[i]);
        hit[i] = 0;
        if (p.col[i] == EMPTY)
            p.pos[i] = (uint16_t)p.n_empty, p.empty[p.n_empty++] = (uint16_t)i;
    }
    int node = 0, depth = 0, unknown = b->n_unknown - s->n_avoid;
    path[depth++] = 0;
    bool expanded = false;
    while (p.n_empty > 0 && !expanded && unknown > 0) {
        if (++stamp == 0)
            memset(mark, 0, sizeof mark), stamp = 1;
        int best = -1, tried = 0;
        double best_score = -1;
        for (int ch = s->nodes[node].first_child; ch >= 0; ch = s->nodes[ch].next_sibling) {
            ism_node *n = &s->nodes[ch];
            if (known[n->cell])
                continue;
            mark[n->cell] = stamp, tried++;
            n->avail++;
            double score;
            if (node == 0 && s->rave > 0) {
                int an = s->amaf_n[n->cell];
                int tn = s->amaf_tn[n->cell];
                double qa = an > 0 ? s->amaf_w[n->cell] / an : 0.5;
                double qt = tn > 0 ? s->amaf_tw[n->cell] / tn : qa;
                qa = 0.5 + 0.5 * (qa - qt) + 0.5 * (qa - 0.5);
                if (s->pivot > 0)
                    qa = 0.5 + s->pivot * (s->piv_total > 0 ? s->piv[n->cell] / (double)s->piv_total : 0);
                qa += s->resist * s->rv[n->cell];
                if (n->visits == 0) {
                    score = 2 + qa; /* every root cell once first */
                } else {
                    double beta = sqrt(s->rave / (3.0 * n->visits + s->rave));
                    score = (1 - beta) * n->wins / n->visits + beta * qa +
                            uct * sqrt(log((double)n->avail) / n->visits);
                }
            } else {
                score = n->wins / n->visits + uct * sqrt(log((double)n->avail) / n->visits);
            }
            if (score > best_score)
                best_score = score, best = ch;
        }
        int cell;
        if (tried < unknown && s->n_nodes < ISM_MAX_NODES) {
            int nc = 0;
            for (int i = 0; i < p.cells; i++)
                if (!known[i] && mark[i] != stamp)
                    cand[nc++] = (uint16_t)i;
            cell = cand[rng_below(rng, (uint32_t)nc)];
            int ch = new_node(s, node, cell);
            s->nodes[ch].avail = 1;
            node = ch, expanded = true;
        } else if (best >= 0) {
            node = best, cell = s->nodes[best].cell;
        } else {
            break;
        }
        path[depth++] = node;
        known[cell] = 1, unknown--;
        if (p.col[cell] == EMPTY) {
            place(&p, cell, me);
            opponent_turn(s, &p, them, keeps, hit, rng);
        } else if (!keeps) {
            opponent_turn(s, &p, them, keeps, hit, rng);
        }
    }
    int winner = random_fill(s, &p, me, rng);
    if (s->rave > 0 && s->pivot > 0)
        count_pivots(s, b, opp);
    else if (s->rave > 0)
        for (int k = 0; k < b->n_unknown; k++) {
            int c = b->unknown[k];
            if (p.col[c] == me)
                s->amaf_n[c]++, s->amaf_w[c] += winner == me ? 1.0f : 0.0f;
            else if (!opp[c])
                s->amaf_tn[c]++, s->amaf_tw[c] += winner == me ? 1.0f : 0.0f;
        }
    for (int d = 1; d < depth; d++) {
        ism_node *n = &s->nodes[path[d]];
        n->visits++;
        n->wins += winner == me ? 1.0f : 0.0f;
    }
}

/* One iteration of hex (every stone visible) on the board `opp`: a tree of both players' moves. */
static void iterate(ism_search *s, const ism_belief *b, const uint8_t *opp, double uct, rng_state *rng)
{
    static position p;
    static int path[HX_MAX_CELLS + 2];
    static uint32_t mark[HX_MAX_CELLS], stamp;
    p.rows = b->rows, p.cols = b->cols, p.cells = b->cells, p.n_empty = 0;
    for (int i = 0; i < b->cells; i++) {
        p.col[i] = b->view[i] == HX_VIEW_OWN ? (uint8_t)b->color : opp[i] ? (uint8_t)(b->color ^ 1) : EMPTY;
        if (p.col[i] == EMPTY)
            p.pos[i] = (uint16_t)p.n_empty, p.empty[p.n_empty++] = (uint16_t)i;
    }
    int node = 0, depth = 0, mover = b->color, last = -1;
    path[depth++] = 0;
    while (p.n_empty > 0) {
        if (++stamp == 0)
            memset(mark, 0, sizeof mark), stamp = 1;
        int best = -1, tried = 0;
        double best_score = -1;
        for (int ch = s->nodes[node].first_child; ch >= 0; ch = s->nodes[ch].next_sibling) {
            ism_node *n = &s->nodes[ch];
            if (p.col[n->cell] != EMPTY)
                continue;
            mark[n->cell] = stamp, tried++;
            n->avail++;
            double score = n->wins / n->visits + uct * sqrt(log((double)n->avail) / n->visits);
            if (score > best_score)
                best_score = score, best = ch;
        }
        /* At the root the avoided cells are never children: they count as tried. */
        bool root = node == 0 && s->avoid;
        if (root)
            for (int e = 0; e < p.n_empty; e++)
                if (s->avoid[p.empty[e]])
                    mark[p.empty[e]] = stamp, tried++;
        if (tried < p.n_empty && s->n_nodes < ISM_MAX_NODES) {
            int k = (int)rng_below(rng, (uint32_t)(p.n_empty - tried)), cell = -1;
            for (int e = 0; e < p.n_empty; e++)
                if (mark[p.empty[e]] != stamp && k-- == 0) {
                    cell = p.empty[e];
                    break;
                }
            int ch = new_node(s, node, cell);
            s->nodes[ch].avail = 1;
            place(&p, cell, mover);
            path[depth++] = ch, last = cell, mover ^= 1;
            break;
        }
        if (best < 0)
            break;
        place(&p, s->nodes[best].cell, mover);
        node = best, path[depth++] = best, last = s->nodes[best].cell, mover ^= 1;
    }
    int winner = playout(s, &p, mover, last, rng);
    /* path[d] for d >= 1 was moved into by the player to move at depth d - 1: ours at odd d. */
    for (int d = 1; d < depth; d++) {
        ism_node *n = &s->nodes[path[d]];
        int by = (d % 2 == 1) ? b->color : b->color ^ 1;
        n->visits++;
        n->wins += winner == by ? 1.0f : 0.0f;
    }
}

/* The root's resistance prior: over `n` drawn boards, the mean share of both players' currents through each
 * unknown cell free on the board (resist.h), scaled so that the largest is 1. */
static void resist_prior(ism_search *s, const ism_belief *b, int n, rng_state *rng, ism_stats *st)
{
    static uint8_t opp[HX_MAX_CELLS], col[HX_MAX_CELLS];
    static double mine[HX_MAX_CELLS], theirs[HX_MAX_CELLS];
    int me = b->color;
    for (int k = 0; k < b->n_unknown; k++)
        s->rv[b->unknown[k]] = 0;
    for (int j = 0; j < n; j++) {
        st->samples++;
        if (ism_sample(b, rng, opp) < 0) {
            st->failed++;
            continue;
        }
        for (int i = 0; i < b->cells; i++)
            col[i] = b->view[i] == HX_VIEW_OWN ? (uint8_t)me : opp[i] ? (uint8_t)(me ^ 1) : ISM_RESIST_EMPTY;
        ism_resist_flow(b->rows, b->cols, col, me, mine);
        ism_resist_flow(b->rows, b->cols, col, me ^ 1, theirs);
        for (int k = 0; k < b->n_unknown; k++) {
            int c = b->unknown[k];
            s->rv[c] += mine[c] + theirs[c];
        }
    }
    double top = 0;
    for (int k = 0; k < b->n_unknown; k++)
        top = fmax(top, s->rv[b->unknown[k]]);
    for (int k = 0; k < b->n_unknown; k++)
        s->rv[b->unknown[k]] = top > 0 ? s->rv[b->unknown[k]] / top : 0;
}

int ism_choose(ism_search *s, const ism_belief *b, const ism_options *o, rng_state *rng, ism_stats *st)
{
    ism_stats local;
    if (!st)
        st = &local;
    memset(st, 0, sizeof *st);
    double t0 = now();
    int win = ism_connecting_cell(b);
    if (win >= 0 || b->n_unknown == 1) {
        st->move = win >= 0 ? win : b->unknown[0];
        st->value = win >= 0 ? 1 : 0;
        st->seconds = now() - t0;
        return st->move;
    }
    gale_init(&s->gale, b->rows, b->cols);
    s->n_nodes = 1;
    s->nodes[0] = (ism_node){ .first_child = -1, .next_sibling = -1 };
    s->rave = hx_variant_dark(b->variant) ? o->rave : 0;
    s->pivot = o->pivot, s->piv_total = 0;
    s->avoid = NULL, s->n_avoid = 0;
    s->opp_weighted = o->opp_centre > 0;
    s->opp_goal = o->opp_goal;
    s->opp_grow = o->opp_grow;
    if (s->opp_weighted) {
        double acc = 0;
        for (int i = 0; i < b->cells; i++)
            s->opp_cum[i] = acc += ism_centre_weight(b->rows, b->cols, i, o->opp_centre);
    }
    if (o->avoid) {
        for (int k = 0; k < b->n_unknown; k++)
            s->n_avoid += o->avoid[b->unknown[k]] != 0;
        if (s->n_avoid < b->n_unknown)
            s->avoid = o->avoid;
        else
            s->n_avoid = 0;
    }
    for (int k = 0; k < b->n_unknown; k++)
        s->piv[b->unknown[k]] = 0;
    if (s->rave > 0) { /* every root cell a child from the start, scored by its AMAF mean until visited */
        for (int k = b->n_unknown - 1; k >= 0; k--) {
            int c = b->unknown[k];
            if (s->avoid && s->avoid[c])
                continue;
            new_node(s, 0, c);
            s->amaf_n[c] = 0, s->amaf_w[c] = 0, s->amaf_tn[c] = 0, s->amaf_tw[c] = 0;
        }
    }
    int n_boards = o->samples > ISM_MAX_SAMPLES ? ISM_MAX_SAMPLES : o->samples;
    int usable = 0;
    for (int k = 0; k < n_boards; k++) {
        st->samples++;
        if (ism_sample(b, rng, s->boards[usable]) < 0)
            st->failed++;
        else
            usable++;
    }
    static uint8_t fresh[HX_MAX_CELLS];
    s->resist = s->rave > 0 ? o->resist : 0;
    if (s->resist > 0)
        resist_prior(s, b, o->resist_boards > 0 ? o->resist_boards : 16, rng, st);
    double deadline = o->seconds > 0 ? t0 + o->seconds : 0;
    for (long it = 0; o->iterations <= 0 || it < o->iterations; it++) {
        if (deadline > 0 && (it & 15) == 0 && now() >= deadline)
            break;
        st->iterations++;
        const uint8_t *opp;
        if (n_boards > 0) {
            if (usable == 0)
                continue;
            opp = s->boards[it % usable];
        } else {
            st->samples++;
            if (ism_sample(b, rng, fresh) < 0) {
                st->failed++;
                continue;
            }
            opp = fresh;
        }
        if (hx_variant_dark(b->variant))
            iterate_dark(s, b, opp, o->uct, rng);
        else
            iterate(s, b, opp, o->uct, rng);
    }
    int best = -1;
    for (int ch = s->nodes[0].first_child; ch >= 0; ch = s->nodes[ch].next_sibling) {
        const ism_node *n = &s->nodes[ch];
        if (best < 0 || n->visits > s->nodes[best].visits ||
            (n->visits == s->nodes[best].visits && n->cell < s->nodes[best].cell))
            best = ch;
    }
    if (best >= 0 && o->mix > 0 && hx_variant_dark(b->variant) && s->nodes[best].visits > 0) {
        /* visits^(1/mix), relative to the most visited child's (so that no power overflows) */
        double total = 0, top = s->nodes[best].visits;
        for (int ch = s->nodes[0].first_child; ch >= 0; ch = s->nodes[ch].next_sibling)
            total += pow(s->nodes[ch].visits / top, 1.0 / o->mix);
        double u = (double)(rng_next(rng) >> 11) * 0x1.0p-53 * total;
        for (int ch = s->nodes[0].first_child; ch >= 0; ch = s->nodes[ch].next_sibling)
            if (s->nodes[ch].visits > 0 && (u -= pow(s->nodes[ch].visits / top, 1.0 / o->mix)) < 0) {
                best = ch;
                break;
            }
    }
    if (best >= 0) {
        st->move = s->nodes[best].cell;
        st->value = s->nodes[best].visits > 0 ? s->nodes[best].wins / s->nodes[best].visits : 0;
    } else {
        int k = (int)rng_below(rng, (uint32_t)(b->n_unknown - s->n_avoid));
        for (int j = 0; j < b->n_unknown; j++)
            if (!(s->avoid && s->avoid[b->unknown[j]]) && k-- == 0) {
                st->move = b->unknown[j];
                break;
            }
    }
    st->nodes = s->n_nodes;
    st->tree_bytes = (long)(s->n_nodes * sizeof(ism_node));
    st->seconds = now() - t0;
    return st->move;
}
