/* agents/ismcts/resist.c — the electrical-resistance evaluation of a full Hex position: how much of each
 * player's current between its edges runs through each empty cell (resist.h). */
#include <math.h>

#include "resist.h"

#define R_EMPTY 1.0
#define R_OWN 0.01

static const int dr[6] = { -1, -1, 0, 1, 1, 0 }, dc[6] = { 0, 1, 1, 0, -1, -1 };

/* Marks in `on` the cells of the player's network (not the opponent's) reachable from the cells where
 * `start` holds; returns how many. */
static int reach(int rows, int cols, const uint8_t *col, int player, const bool *start, bool *on)
{
    int cells = rows * cols, stack[ISM_RESIST_MAX], top = 0, n = 0;
    for (int i = 0; i < cells; i++) {
        on[i] = start[i] && col[i] != (uint8_t)(player ^ 1);
        if (on[i])
            stack[top++] = i, n++;
    }
    while (top > 0) {
        int i = stack[--top], r = i / cols, c = i % cols;
        for (int d = 0; d < 6; d++) {
            int rr = r + dr[d], cc = c + dc[d], j = rr * cols + cc;
            if (rr >= 0 && rr < rows && cc >= 0 && cc < cols && !on[j] && col[j] != (uint8_t)(player ^ 1))
                on[j] = true, stack[top++] = j, n++;
        }
    }
    return n;
}

/* One player's network (the contract is resist.h's): the voltages by successive over-relaxation over the cells joined to both edges (the
 * others carry no current), then the current through each cell. */
void ism_resist_flow(int rows, int cols, const uint8_t *col, int player, double *flow)
{
    int cells = rows * cols;
    double v[ISM_RESIST_MAX], g[ISM_RESIST_MAX][6], gsrc[ISM_RESIST_MAX], gsnk[ISM_RESIST_MAX],
        gsum[ISM_RESIST_MAX];
    int nb[ISM_RESIST_MAX][6];
    bool first[ISM_RESIST_MAX] = { 0 }, second[ISM_RESIST_MAX] = { 0 }, from_first[ISM_RESIST_MAX],
        from_second[ISM_RESIST_MAX];
    for (int i = 0; i < cells; i++) {
        int r = i / cols, c = i % cols;
        /* Black joins row 0 (source) to the last row; White column 0 to the last column. */
        first[i] = player == 0 ? r == 0 : c == 0, second[i] = player == 0 ? r == rows - 1 : c == cols - 1;
        flow[i] = 0;
    }
    reach(rows, cols, col, player, first, from_first);
    if (reach(rows, cols, col, player, second, from_second) == 0)
        return;
    bool joined = false;
    for (int i = 0; i < cells && !joined; i++)
        joined = from_first[i] && second[i];
    if (!joined) /* cut off: no current */
        return;
    for (int i = 0; i < cells; i++) {
        int r = i / cols, c = i % cols;
        bool open = from_first[i] && from_second[i];
        double ri = col[i] == (uint8_t)player ? R_OWN : R_EMPTY;
        gsum[i] = 0;
        for (int d = 0; d < 6; d++) {
            int rr = r + dr[d], cc = c + dc[d];
            nb[i][d] = -1, g[i][d] = 0;
            if (!open || rr < 0 || rr >= rows || cc < 0 || cc >= cols)
                continue;
            int j = rr * cols + cc;
            if (col[j] == (uint8_t)(player ^ 1))
                continue;
            double rj = col[j] == (uint8_t)player ? R_OWN : R_EMPTY;
            nb[i][d] = j, g[i][d] = 1.0 / (ri + rj), gsum[i] += g[i][d];
        }
        gsrc[i] = open && first[i] ? 1.0 / ri : 0, gsnk[i] = open && second[i] ? 1.0 / ri : 0;
        gsum[i] += gsrc[i] + gsnk[i];
        v[i] = player == 0 ? 1.0 - (double)r / (rows - 1 > 0 ? rows - 1 : 1)
                           : 1.0 - (double)c / (cols - 1 > 0 ? cols - 1 : 1);
    }
    for (int sweep = 0; sweep < 2000; sweep++) {
        double change = 0;
        for (int i = 0; i < cells; i++) {
            if (gsum[i] == 0)
                continue;
            double acc = gsrc[i];
            for (int d = 0; d < 6; d++)
                if (nb[i][d] >= 0)
                    acc += g[i][d] * v[nb[i][d]];
            double nv = v[i] + 1.8 * (acc / gsum[i] - v[i]);
            change = fmax(change, fabs(nv - v[i]));
            v[i] = nv;
        }
        if (change < 1e-6)
            break;
    }
    double total = 0;
    for (int i = 0; i < cells; i++)
        total += gsrc[i] * (1.0 - v[i]);
    for (int i = 0; i < cells; i++) {
        if (col[i] != ISM_RESIST_EMPTY || total <= 0 || gsum[i] == 0)
            continue;
        double f = gsrc[i] * fabs(1.0 - v[i]) + gsnk[i] * fabs(v[i]);
        for (int d = 0; d < 6; d++)
            if (nb[i][d] >= 0)
                f += g[i][d] * fabs(v[i] - v[nb[i][d]]);
        flow[i] = 0.5 * f / total;
    }
}
