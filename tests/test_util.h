/* tests/test_util.h — helpers shared by the cmocka tests: play games written as attempt lists. */
#ifndef TESTS_TEST_UTIL_H
#define TESTS_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "game.h"

/* Parses one cell name on g's board, failing the test on a bad name. */
static inline int cell_of(const hx_game *g, const char *name)
{
    if (strcmp(name, "swap") == 0)
        return HX_SWAP;
    const char *why = NULL;
    int c = hx_cell_parse(name, hx_rows(g), hx_cols(g), &why);
    if (c < 0)
        fail_msg("bad cell '%s': %s", name, why);
    return c;
}

/* Plays space-separated attempts ("a1 a1 a2"); every one must be legal. Writes each outcome into
 * outcomes (when not NULL) and returns the number played. */
static inline int play(hx_game *g, const char *moves, int *outcomes)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", moves);
    int n = 0;
    for (char *save = NULL, *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        int r = hx_attempt(g, cell_of(g, t));
        if (r < 0)
            fail_msg("attempt %d '%s' illegal: %s", n + 1, t, hx_strerror(r));
        if (outcomes)
            outcomes[n] = r;
        n++;
    }
    return n;
}

/* Starts a game, failing the test on error. */
static inline void start(hx_game *g, hx_variant v, int rows, int cols, unsigned flags)
{
    assert_int_equal(hx_new(g, v, rows, cols, flags), 0);
}

/* Player p's view as rows joined by '/', e.g. "B./.." ('B' and 'W' are the true colours). */
static inline const char *view_str(const hx_game *g, int p)
{
    static char out[HX_MAX_CELLS + HX_MAX_SIDE + 1];
    static const char mark[2][3] = { { '.', 'B', 'W' }, { '.', 'W', 'B' } };
    int n = 0;
    for (int r = 0; r < hx_rows(g); r++) {
        if (r)
            out[n++] = '/';
        for (int c = 0; c < hx_cols(g); c++)
            out[n++] = mark[p][hx_view(g, p, r * hx_cols(g) + c)];
    }
    out[n] = '\0';
    return out;
}

#endif
