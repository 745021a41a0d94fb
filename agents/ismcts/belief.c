/* agents/ismcts/belief.c — the belief over the opponent's hidden stones (belief.h). */
#include <math.h>
#include <string.h>

#include "belief.h"

/* Plain abrupt: the weight of each number of unreported collisions, by a walk over the opponent's turns (see
 * belief.h). turn_own[t]: our stones at opponent turn t; learned_after[t]: stones we had learned by our last
 * collision before opponent turn t+1 (a bound on the opponent's placements in turns 0..t). */
static void abrupt_collisions(ism_belief *b, const uint16_t *turn_own, const uint16_t *learned_after,
                              double *coll)
{
    static double cur[HX_MAX_ATTEMPTS + 1], next[HX_MAX_ATTEMPTS + 1];
    int T = b->opp_turns;
    for (int c = 0; c <= T; c++)
        cur[c] = 0;
    cur[0] = 1;
    for (int t = 0; t < T; t++) {
        for (int c = 0; c <= T; c++)
            next[c] = 0;
        int unknown = b->cells - t; /* cells the opponent did not know: its stones t - c, ours it hit c */
        for (int c = 0; c <= t; c++) {
            if (cur[c] == 0)
                continue;
            int targets = turn_own[t] - c;
            double p = targets > 0 && unknown > 0 ? (double)targets / unknown : 0;
            if (p > 1)
                p = 1;
            next[c + 1] += cur[c] * p;
            next[c] += cur[c] * (1 - p);
        }
        double sum = 0;
        for (int c = 0; c <= t + 1; c++) {
            if ((t + 1) - c < learned_after[t]) /* placed fewer stones than we had found */
                next[c] = 0;
            sum += next[c];
        }
        for (int c = 0; c <= T; c++)
            cur[c] = sum > 0 ? next[c] / sum : 0;
    }
    for (int c = 0; c <= T; c++)
        coll[c] = cur[c];
}

/* hint[] (belief.h): the unknown cells next to `cell`. */
static void hint_around(ism_belief *b, int cell)
{
    static const int dr[6] = { -1, -1, 0, 0, 1, 1 }, dc[6] = { 0, 1, -1, 1, -1, 0 };
    int r = cell / b->cols, c = cell % b->cols;
    for (int d = 0; d < 6; d++) {
        int rr = r + dr[d], cc = c + dc[d];
        if (rr >= 0 && rr < b->rows && cc >= 0 && cc < b->cols && b->view[rr * b->cols + cc] == HX_VIEW_UNKNOWN)
            b->hint[rr * b->cols + cc] = 1;
    }
}

void ism_belief_init(ism_belief *b, hx_variant variant, int rows, int cols, int color, const uint8_t *view,
                     const hx_event *events, int n_events)
{
    static uint16_t turn_own[HX_MAX_ATTEMPTS + 1], learned_after[HX_MAX_ATTEMPTS + 1];
    static double coll[HX_MAX_ATTEMPTS + 2];
    b->rows = rows, b->cols = cols, b->cells = rows * cols, b->color = color, b->variant = variant;
    b->own = b->known = b->n_unknown = 0;
    b->model = ISM_CELLS_UNIFORM;
    b->weighted = false;
    for (int i = 0; i < b->cells; i++) {
        b->view[i] = view[i];
        b->own += view[i] == HX_VIEW_OWN;
        b->known += view[i] == HX_VIEW_OPPONENT;
        if (view[i] == HX_VIEW_UNKNOWN)
            b->unknown[b->n_unknown++] = (uint16_t)i;
    }
    memset(b->hint, 0, sizeof b->hint);
    for (int i = 0; i < b->cells; i++)
        if (view[i] == HX_VIEW_OPPONENT)
            hint_around(b, i);
    for (int i = 0; i < n_events; i++)
        if (events[i].kind == HX_EV_OPP_HIT_AT && events[i].cell < b->cells)
            hint_around(b, events[i].cell);
    for (int h = 0; h <= b->cells; h++)
        b->hidden_weight[h] = 0;
    if (!hx_variant_dark(variant)) {
        b->opp_turns = b->known;
        b->hidden_lo = b->hidden_hi = 0;
        b->hidden_weight[0] = 1;
        return;
    }
    /* Opponent turns: one before our first when we are White, one after each of our turns (all done: it is
     * our turn now). Our turn ends on a placement, or on a collision in the abrupt family. */
    bool keeps = hx_variant_keeps_turn(variant);
    int lost = 0, stones = 0, learned = 0, T = 0;
    if (color == HX_WHITE)
        turn_own[T] = 0, learned_after[T] = 0, T++;
    for (int i = 0; i < n_events; i++) {
        hx_event_kind k = events[i].kind;
        stones += k == HX_EV_PLACED;
        learned += k == HX_EV_REJECTED || k == HX_EV_COLLIDED;
        /* A stone we learned was placed before we found it: in opponent turns before this point. */
        if (T > 0 && learned > learned_after[T - 1])
            learned_after[T - 1] = (uint16_t)learned;
        if (k == HX_EV_PLACED || (k == HX_EV_COLLIDED && !keeps))
            turn_own[T] = (uint16_t)stones, learned_after[T] = (uint16_t)learned, T++;
        lost += (k == HX_EV_OPP_HIT || k == HX_EV_OPP_HIT_AT) && !keeps;
    }
    b->opp_turns = T;
    if (variant != HX_ABRUPT) {
        int h = T - lost - b->known;
        h = h < 0 ? 0 : h > b->n_unknown ? b->n_unknown : h;
        b->hidden_lo = b->hidden_hi = h;
        b->hidden_weight[h] = 1;
        return;
    }
    abrupt_collisions(b, turn_own, learned_after, coll);
    double sum = 0;
    b->hidden_lo = b->cells + 1, b->hidden_hi = -1;
    for (int c = 0; c <= T; c++) {
        int h = T - c - b->known;
        if (coll[c] <= 0 || h < 0 || h > b->n_unknown)
            continue;
        b->hidden_weight[h] += coll[c];
        sum += coll[c];
        b->hidden_lo = h < b->hidden_lo ? h : b->hidden_lo;
        b->hidden_hi = h > b->hidden_hi ? h : b->hidden_hi;
    }
    if (sum <= 0) { /* cannot happen for a real game's events; keep the sampler defined */
        b->hidden_lo = b->hidden_hi = 0;
        b->hidden_weight[0] = 1;
        return;
    }
    for (int h = b->hidden_lo; h <= b->hidden_hi; h++)
        b->hidden_weight[h] /= sum;
}

const char *ism_cell_model_name(ism_cell_model m)
{
    return m == ISM_CELLS_CENTRE ? "centre" : "uniform";
}

int ism_cell_model_of(const char *name)
{
    for (int m = ISM_CELLS_UNIFORM; m <= ISM_CELLS_CENTRE; m++)
        if (strcmp(name, ism_cell_model_name((ism_cell_model)m)) == 0)
            return m;
    return -1;
}

double ism_centre_weight(int rows, int cols, int cell, double beta)
{
    double cr = (rows - 1) / 2.0, cc = (cols - 1) / 2.0, radius = (rows + cols - 2) / 4.0;
    double dr = cell / cols - cr, dc = cell % cols - cc;
    return exp(-beta * (fabs(dr) + fabs(dc) + fabs(dr + dc)) / 2 / (radius < 1 ? 1 : radius));
}

void ism_belief_weigh(ism_belief *b, ism_cell_model model, double beta, double near)
{
    bool centre = model == ISM_CELLS_CENTRE && beta > 0;
    b->weighted = b->n_unknown > 0 && (centre || near > 0);
    b->model = centre ? model : ISM_CELLS_UNIFORM;
    if (!b->weighted)
        return;
    int n = b->n_unknown;
    b->weight_total = 0;
    for (int k = 0; k < n; k++) {
        double w = centre ? ism_centre_weight(b->rows, b->cols, b->unknown[k], beta) : 1;
        if (near > 0 && b->hint[b->unknown[k]])
            w *= 1 + near;
        b->weight_total += b->weight[k] = w > 1e-300 ? w : 1e-300;
    }
    /* The Fenwick tree: fen[i] (1-based) sums weight[i - lowbit(i) .. i - 1]. */
    for (int i = 1; i <= n; i++)
        b->fen[i] = 0;
    for (int i = 1; i <= n; i++) {
        b->fen[i] += b->weight[i - 1];
        int j = i + (i & -i);
        if (j <= n)
            b->fen[j] += b->fen[i];
    }
    int top = 1;
    while (top * 2 <= n)
        top *= 2;
    b->fen_top = top;
}

void ism_belief_of_game(ism_belief *b, const hx_game *g, int color)
{
    uint8_t view[HX_MAX_CELLS];
    static hx_event ev[HX_MAX_EVENTS];
    for (int i = 0; i < hx_cells(g); i++)
        view[i] = (uint8_t)hx_view(g, color, i);
    int n = hx_events(g, color, ev);
    ism_belief_init(b, hx_variant_of(g), hx_rows(g), hx_cols(g), color, view, ev, n);
}

bool ism_joins(int rows, int cols, int player, const uint8_t *stones)
{
    static const int dr[6] = { -1, -1, 0, 0, 1, 1 }, dc[6] = { 0, 1, -1, 1, -1, 0 };
    uint8_t seen[HX_MAX_CELLS];
    uint16_t stack[HX_MAX_CELLS];
    int n = 0, cells = rows * cols;
    memset(seen, 0, (size_t)cells);
    int starts = player == HX_BLACK ? cols : rows;
    for (int k = 0; k < starts; k++) {
        int i = player == HX_BLACK ? k : k * cols;
        if (stones[i] && !seen[i])
            seen[i] = 1, stack[n++] = (uint16_t)i;
    }
    while (n > 0) {
        int i = stack[--n], r = i / cols, c = i % cols;
        if ((player == HX_BLACK && r == rows - 1) || (player == HX_WHITE && c == cols - 1))
            return true;
        for (int d = 0; d < 6; d++) {
            int rr = r + dr[d], cc = c + dc[d];
            if (rr < 0 || rr >= rows || cc < 0 || cc >= cols)
                continue;
            int j = rr * cols + cc;
            if (stones[j] && !seen[j])
                seen[j] = 1, stack[n++] = (uint16_t)j;
        }
    }
    return false;
}

bool ism_consistent(const ism_belief *b, const uint8_t *opp)
{
    int count = 0;
    for (int i = 0; i < b->cells; i++) {
        if (opp[i] && b->view[i] == HX_VIEW_OWN)
            return false;
        if (!opp[i] && b->view[i] == HX_VIEW_OPPONENT)
            return false;
        count += opp[i] != 0;
    }
    int h = count - b->known;
    if (h < b->hidden_lo || h > b->hidden_hi || b->hidden_weight[h] <= 0)
        return false;
    return !ism_joins(b->rows, b->cols, b->color ^ 1, opp);
}

/* h cells of unknown[] drawn in turn without replacement, each with probability proportional to its weight
 * among those not yet drawn: a descent of a copy of the Fenwick tree finds the cell, and its weight leaves
 * the copy. O(n + h log n). */
static void draw_weighted(const ism_belief *b, rng_state *rng, int h, uint8_t *opp)
{
    double fen[HX_MAX_CELLS + 1], total = b->weight_total;
    int n = b->n_unknown;
    memcpy(fen, b->fen, sizeof fen[0] * (size_t)(n + 1));
    for (int i = 0; i < h; i++) {
        double u = rng_double(rng) * total;
        int pos = 0; /* the last index whose prefix sum is <= u */
        for (int step = b->fen_top; step > 0; step >>= 1)
            if (pos + step <= n && fen[pos + step] <= u)
                pos += step, u -= fen[pos];
        int k = pos < n ? pos : n - 1; /* rounding at the top end */
        while (opp[b->unknown[k]]) /* a drawn cell left a weight of about 0 behind: rounding */
            k = k > 0 ? k - 1 : n - 1;
        opp[b->unknown[k]] = 1;
        total -= b->weight[k];
        for (int j = k + 1; j <= n; j += j & -j)
            fen[j] -= b->weight[k];
    }
}

int ism_sample(const ism_belief *b, rng_state *rng, uint8_t *opp)
{
    uint16_t cells[HX_MAX_CELLS];
    memcpy(cells, b->unknown, sizeof cells[0] * (size_t)b->n_unknown);
    int needed = (b->color ^ 1) == HX_BLACK ? b->rows : b->cols;
    for (int tries = 0; tries < ISM_SAMPLE_TRIES; tries++) {
        for (int i = 0; i < b->cells; i++)
            opp[i] = b->view[i] == HX_VIEW_OPPONENT;
        int h = b->hidden_lo;
        if (b->hidden_hi > b->hidden_lo) {
            double u = rng_double(rng), acc = 0;
            for (h = b->hidden_lo; h < b->hidden_hi; h++) {
                acc += b->hidden_weight[h];
                if (u < acc && b->hidden_weight[h] > 0)
                    break;
            }
            while (b->hidden_weight[h] <= 0) /* rounding at the top end */
                h--;
        }
        if (!b->weighted)
            for (int i = 0; i < h; i++) {
                int j = i + (int)rng_below(rng, (uint32_t)(b->n_unknown - i));
                uint16_t c = cells[j];
                cells[j] = cells[i], cells[i] = c;
                opp[c] = 1;
            }
        else
            draw_weighted(b, rng, h, opp);
        if (h + b->known < needed || !ism_joins(b->rows, b->cols, b->color ^ 1, opp))
            return h;
    }
    for (int i = 0; i < b->cells; i++)
        opp[i] = b->view[i] == HX_VIEW_OPPONENT;
    return -1;
}
