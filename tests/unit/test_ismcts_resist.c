/* tests/unit/test_ismcts_resist.c — the ismcts bot's resistance evaluation (agents/ismcts/resist.h): its flows
 * equal those of a direct solve of the same network (the node voltages by Gaussian elimination on the
 * conductance matrix, built here from the header's contract alone) on random positions of every board shape
 * from 1x1 to 7x7 and on 11x11, for both players; the flows mirror between the players on a transposed board;
 * a cell every route passes carries the whole current; a player cut off by a wall carries none; stones carry
 * none. */
#include <math.h>
#include <string.h>

#include "resist.h"
#include "rng.h"
#include "test_util.h"

#define MAXN 122 /* 11x11 cells + the source; the sink is the reference at 0 V */

static bool adjacent(int cols, int i, int j)
{
    int dr = j / cols - i / cols, dc = j % cols - i % cols;
    return (dr == 0 && (dc == 1 || dc == -1)) || (dr == -1 && (dc == 0 || dc == 1)) ||
           (dr == 1 && (dc == 0 || dc == -1));
}

/* Whether cell i's group of the player's network (the cells not the opponent's, joined by adjacency) touches
 * both of its edges: by repeated passes until nothing changes. */
static void live_cells(int rows, int cols, const uint8_t *col, int player, bool *live)
{
    int cells = rows * cols, label[MAXN];
    for (int i = 0; i < cells; i++)
        label[i] = i;
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < cells; i++)
            for (int j = 0; j < cells; j++)
                if (col[i] != (player ^ 1) && col[j] != (player ^ 1) && adjacent(cols, i, j) &&
                    label[j] < label[i])
                    label[i] = label[j], changed = true;
    }
    for (int i = 0; i < cells; i++) {
        bool top = false, bottom = false;
        for (int j = 0; j < cells; j++)
            if (label[j] == label[i] && col[j] != (player ^ 1)) {
                int e = player == 0 ? j / cols : j % cols, last = player == 0 ? rows - 1 : cols - 1;
                top |= e == 0, bottom |= e == last;
            }
        live[i] = col[i] != (player ^ 1) && top && bottom;
    }
}

/* The reference: voltages by solving G v = b over the live cells of the player's network (the source a fixed
 * 1 V, the sink 0 V), then each empty cell's share of the current as half the current through its links. */
static void direct_flow(int rows, int cols, const uint8_t *col, int player, double *flow)
{
    static double a[MAXN][MAXN + 1];
    int cells = rows * cols;
    bool live[MAXN];
    live_cells(rows, cols, col, player, live);
    double r[MAXN];
    for (int i = 0; i < cells; i++)
        r[i] = col[i] == player ? 0.01 : 1.0;
    memset(a, 0, sizeof a);
    double gsrc[MAXN], gsnk[MAXN];
    for (int i = 0; i < cells; i++) {
        int ri = i / cols, ci = i % cols;
        bool cut = !live[i];
        bool src = player == 0 ? ri == 0 : ci == 0, snk = player == 0 ? ri == rows - 1 : ci == cols - 1;
        gsrc[i] = !cut && src ? 1 / r[i] : 0, gsnk[i] = !cut && snk ? 1 / r[i] : 0;
        if (cut) {
            a[i][i] = 1; /* v = 0, no links */
            continue;
        }
        a[i][i] += gsrc[i] + gsnk[i];
        a[i][cells] += gsrc[i];
        for (int j = 0; j < cells; j++) {
            if (!adjacent(cols, i, j) || !live[j])
                continue;
            double g = 1 / (r[i] + r[j]);
            a[i][i] += g, a[i][j] -= g;
        }
    }
    for (int k = 0; k < cells; k++) { /* Gaussian elimination with partial pivoting */
        int p = k;
        for (int i = k + 1; i < cells; i++)
            if (fabs(a[i][k]) > fabs(a[p][k]))
                p = i;
        for (int j = 0; j <= cells; j++) {
            double t = a[k][j];
            a[k][j] = a[p][j], a[p][j] = t;
        }
        for (int i = k + 1; i < cells; i++) {
            double m = a[i][k] / a[k][k];
            for (int j = k; j <= cells; j++)
                a[i][j] -= m * a[k][j];
        }
    }
    double v[MAXN];
    for (int i = cells - 1; i >= 0; i--) {
        double s = a[i][cells];
        for (int j = i + 1; j < cells; j++)
            s -= a[i][j] * v[j];
        v[i] = s / a[i][i];
    }
    double total = 0;
    for (int i = 0; i < cells; i++)
        total += gsrc[i] * (1 - v[i]);
    for (int i = 0; i < cells; i++) {
        flow[i] = 0;
        if (col[i] != ISM_RESIST_EMPTY || !live[i] || total <= 1e-12)
            continue;
        double f = gsrc[i] * fabs(1 - v[i]) + gsnk[i] * fabs(v[i]);
        for (int j = 0; j < cells; j++)
            if (adjacent(cols, i, j) && live[j])
                f += fabs(v[i] - v[j]) / (r[i] + r[j]);
        flow[i] = 0.5 * f / total;
    }
}

static void random_position(int cells, uint8_t *col, rng_state *rng)
{
    int density = (int)rng_below(rng, 70); /* percent of the cells holding a stone */
    for (int i = 0; i < cells; i++)
        col[i] = (int)rng_below(rng, 100) < density ? (uint8_t)rng_below(rng, 2) : ISM_RESIST_EMPTY;
}

static void flows_equal_a_direct_solve(void **state)
{
    (void)state;
    rng_state rng;
    rng_seed(&rng, 17);
    uint8_t col[MAXN];
    double got[ISM_RESIST_MAX], want[MAXN];
    int positions = 0;
    double worst = 0;
    for (int rows = 1; rows <= 11; rows++)
        for (int cols = 1; cols <= 11; cols++) {
            if ((rows > 7 || cols > 7) && !(rows == 11 && cols == 11))
                continue;
            for (int k = 0; k < 12; k++, positions++) {
                random_position(rows * cols, col, &rng);
                for (int player = 0; player < 2; player++) {
                    ism_resist_flow(rows, cols, col, player, got);
                    direct_flow(rows, cols, col, player, want);
                    for (int i = 0; i < rows * cols; i++) {
                        worst = fmax(worst, fabs(got[i] - want[i]));
                        if (fabs(got[i] - want[i]) > 1e-3)
                            fail_msg("%dx%d, player %d, cell %d: flow %.6f, the direct solve %.6f", rows, cols,
                                     player, i, got[i], want[i]);
                        if (col[i] != ISM_RESIST_EMPTY && got[i] != 0)
                            fail_msg("%dx%d: a stone at %d carries %.6f", rows, cols, i, got[i]);
                    }
                }
            }
        }
    print_message("%d positions, both players: the largest difference from the direct solve %.2e\n", positions,
                  worst);
}

static void flows_mirror_between_the_players(void **state)
{
    (void)state;
    rng_state rng;
    rng_seed(&rng, 23);
    for (int n = 2; n <= 9; n++)
        for (int k = 0; k < 10; k++) {
            uint8_t col[81], mirror[81];
            double black[ISM_RESIST_MAX], white[ISM_RESIST_MAX];
            random_position(n * n, col, &rng);
            for (int r = 0; r < n; r++)
                for (int c = 0; c < n; c++) { /* transposed, the colours swapped */
                    uint8_t x = col[r * n + c];
                    mirror[c * n + r] = x == ISM_RESIST_EMPTY ? x : (uint8_t)(x ^ 1);
                }
            ism_resist_flow(n, n, col, 0, black);
            ism_resist_flow(n, n, mirror, 1, white);
            for (int r = 0; r < n; r++)
                for (int c = 0; c < n; c++)
                    assert_true(fabs(black[r * n + c] - white[c * n + r]) < 1e-3);
        }
}

static void a_cell_every_route_passes_carries_it_all(void **state)
{
    (void)state;
    /* 5x5, Black (top to bottom): a White wall across row 2 but for column 3, which stays empty. */
    uint8_t col[25];
    double f[ISM_RESIST_MAX];
    for (int i = 0; i < 25; i++)
        col[i] = i / 5 == 2 && i % 5 != 3 ? 1 : ISM_RESIST_EMPTY;
    ism_resist_flow(5, 5, col, 0, f);
    assert_true(fabs(f[2 * 5 + 3] - 1.0) < 1e-3);
    for (int i = 0; i < 25; i++)
        assert_true(f[i] <= 1.0 + 1e-3);
    /* The gap closed: Black is cut off and nothing flows; White's row is whole but for one cell. */
    col[2 * 5 + 3] = 1;
    ism_resist_flow(5, 5, col, 0, f);
    for (int i = 0; i < 25; i++)
        assert_true(f[i] == 0);
    col[2 * 5 + 3] = ISM_RESIST_EMPTY;
    ism_resist_flow(5, 5, col, 1, f);
    for (int i = 0; i < 25; i++) /* more of White's current takes its row's gap than any other cell */
        assert_true(i == 2 * 5 + 3 || f[i] < f[2 * 5 + 3]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(flows_equal_a_direct_solve),
        cmocka_unit_test(flows_mirror_between_the_players),
        cmocka_unit_test(a_cell_every_route_passes_carries_it_all),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
