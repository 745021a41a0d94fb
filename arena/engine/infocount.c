/* arena/engine/infocount.c — information-state counts of `classical` by walking one player's information states
 * (see infocount.h).
 *
 * What a player knows at its turn in `classical`: its own stones B, the opponent stones L it learned from
 * rejections, and the opponent's stone count m (its own placements, plus one for White). The opponent's
 * moves are unrestricted, so the positions consistent with that are exactly the opponent stone sets W with
 * |W| = m, L in W, W disjoint from B and W not a win for the opponent (a win is monotone, so no earlier
 * subset won either); the order constraints of the rejections (a stone learned when the opponent had m'
 * stones is among its first m') can be met exactly when each rejection happened with |L| <= m'. An
 * attempt's result "rejected" or "placed" is possible when such a set exists after it; "placed" then
 * passes the turn unless it wins, and the opponent adds one stone. Existence checks are memoised on
 * (opponent, m, free cells, L). */
#include "infocount.h"

#include "board.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    int cells;
    uint8_t *wins[2];  /* wins[p][set]: the stone set joins p's two sides */
    int8_t *memo;      /* -1 unknown, else 0/1 */
    uint64_t count;
} counter;

/* Some opponent set of m stones holds L, avoids B and does not win. */
static int possible(counter *k, int opp, unsigned L, unsigned B, int m)
{
    int learned = __builtin_popcount(L);
    if (learned > m)
        return 0;
    unsigned all = (1u << k->cells) - 1, avail = all & ~B & ~L;
    size_t n = (size_t)k->cells;
    size_t idx = ((size_t)opp << (2 * n + 5)) | ((size_t)m << (2 * n)) | ((size_t)avail << n) | L;
    if (k->memo[idx] >= 0)
        return k->memo[idx];
    int need = m - learned, ok = 0;
    for (unsigned s = avail;; s = (s - 1) & avail) {
        if (__builtin_popcount(s) == need && !k->wins[opp][L | s]) {
            ok = 1;
            break;
        }
        if (s == 0)
            break;
    }
    k->memo[idx] = (int8_t)ok;
    return ok;
}

static void walk(counter *k, int p, unsigned B, unsigned L, int m)
{
    k->count++;
    for (int c = 0; c < k->cells; c++) {
        unsigned bit = 1u << c;
        if ((B | L) & bit)
            continue;
        if (possible(k, 1 - p, L | bit, B, m))
            walk(k, p, B, L | bit, m);
        if (!k->wins[p][B | bit] && possible(k, 1 - p, L, B | bit, m + 1))
            walk(k, p, B | bit, L, m + 1);
    }
}

int hx_count_infosets(hx_variant v, int rows, int cols, uint64_t out[2])
{
    int cells = rows * cols;
    if (v != HX_CLASSICAL || rows < 2 || cols < 2 || cells > HX_INFOCOUNT_MAX_CELLS)
        return -1;
    counter k = { .cells = cells };
    size_t sets = (size_t)1 << cells, memo = (size_t)2 << (2 * cells + 5);
    k.wins[0] = malloc(sets);
    k.wins[1] = malloc(sets);
    k.memo = malloc(memo);
    int rc = -1;
    if (k.wins[0] && k.wins[1] && k.memo) {
        memset(k.memo, -1, memo);
        for (unsigned s = 0; s < sets; s++)
            for (int p = 0; p < 2; p++)
                k.wins[p][s] = (uint8_t)hx_set_joins(rows, cols, p, s);
        walk(&k, 0, 0, 0, 0);
        out[0] = k.count;
        k.count = 0;
        walk(&k, 1, 0, 0, 1);
        out[1] = k.count;
        rc = 0;
    }
    free(k.wins[0]);
    free(k.wins[1]);
    free(k.memo);
    return rc;
}
