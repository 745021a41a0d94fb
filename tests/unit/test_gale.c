/* tests/unit/test_gale.c — Gale's algorithm (arena/engine/gale.h) against independent winners: every full
 * board of at most 16 cells against the engine's hx_set_joins(), a million random full boards of 5x5 to
 * 11x11 (and some non-square and 19x19 ones) against a breadth-first search written here; both corners give
 * the same winner, and each path is a chain of adjacent cells of the winner's colour joining its two edges. */
#include "gale.h"
#include "test_util.h"

/* The independent reference: does `colour` join its two edges on the full board `b` (HX_BLACK/HX_WHITE)? */
static bool bfs_joins(const uint8_t *b, int rows, int cols, int colour)
{
    static const int dr[6] = { -1, -1, 0, 0, 1, 1 }, dc[6] = { 0, 1, -1, 1, -1, 0 };
    uint8_t seen[HX_MAX_CELLS] = { 0 };
    int queue[HX_MAX_CELLS], n = 0;
    int starts = colour == HX_BLACK ? cols : rows;
    for (int i = 0; i < starts; i++) {
        int c = colour == HX_BLACK ? i : i * cols;
        if (b[c] == colour)
            seen[c] = 1, queue[n++] = c;
    }
    for (int h = 0; h < n; h++) {
        int r = queue[h] / cols, c = queue[h] % cols;
        if (colour == HX_BLACK ? r == rows - 1 : c == cols - 1)
            return true;
        for (int k = 0; k < 6; k++) {
            int rr = r + dr[k], cc = c + dc[k];
            if (rr < 0 || rr >= rows || cc < 0 || cc >= cols)
                continue;
            int nb = rr * cols + cc;
            if (!seen[nb] && b[nb] == colour)
                seen[nb] = 1, queue[n++] = nb;
        }
    }
    return false;
}

static bool adjacent(int a, int b, int cols)
{
    int dr = b / cols - a / cols, dc = b % cols - a % cols;
    return (dr == 0 && (dc == 1 || dc == -1)) || (dr == -1 && (dc == 0 || dc == 1)) ||
           (dr == 1 && (dc == 0 || dc == -1));
}

/* The path from `corner` is a chain of the winner's cells from its first edge to its far edge (the edges
 * swap for the bottom-right corner). */
static void check_path(const uint8_t *b, int rows, int cols, int corner, int winner, const uint16_t *path, int len)
{
    assert_true(len >= (winner == HX_BLACK ? rows : cols));
    for (int i = 0; i < len; i++) {
        assert_true(path[i] < rows * cols);
        assert_int_equal(b[path[i]], winner);
        if (i > 0)
            assert_true(adjacent(path[i - 1], path[i], cols));
    }
    int first = path[0], last = path[len - 1];
    int first_pos = winner == HX_BLACK ? first / cols : first % cols;
    int last_pos = winner == HX_BLACK ? last / cols : last % cols;
    int far = (winner == HX_BLACK ? rows : cols) - 1;
    assert_int_equal(first_pos, corner == GALE_TOP_LEFT ? 0 : far);
    assert_int_equal(last_pos, corner == GALE_TOP_LEFT ? far : 0);
}

/* Gale's winner from both corners with their paths checked; returns it. */
static int gale_checked(gale_board *g, const uint8_t *b, int rows, int cols)
{
    uint16_t path[GALE_PATH_MAX];
    int len = -1;
    gale_fill(g, b);
    int w0 = gale_walk(g, GALE_TOP_LEFT, path, &len);
    assert_true(w0 == HX_BLACK || w0 == HX_WHITE);
    check_path(b, rows, cols, GALE_TOP_LEFT, w0, path, len);
    int w1 = gale_walk(g, GALE_BOTTOM_RIGHT, path, &len);
    assert_int_equal(w1, w0);
    check_path(b, rows, cols, GALE_BOTTOM_RIGHT, w1, path, len);
    assert_int_equal(gale_walk(g, GALE_TOP_LEFT, NULL, NULL), w0);
    return w0;
}

static void every_small_board_matches_the_engine(void **state)
{
    (void)state;
    static gale_board g;
    uint8_t b[HX_MAX_CELLS];
    long boards = 0;
    for (int rows = 2; rows <= 8; rows++)
        for (int cols = 2; cols <= 8 && rows * cols <= 16; cols++) {
            gale_init(&g, rows, cols);
            int n = rows * cols, wins[2] = { 0, 0 };
            for (uint32_t set = 0; set < (1u << n); set++) {
                for (int i = 0; i < n; i++)
                    b[i] = (set >> i & 1) ? HX_BLACK : HX_WHITE;
                bool black = hx_set_joins(rows, cols, HX_BLACK, set);
                uint64_t white_set = ~(uint64_t)set & ((1ull << n) - 1);
                assert_true(black != hx_set_joins(rows, cols, HX_WHITE, white_set));
                int w = gale_checked(&g, b, rows, cols);
                assert_int_equal(w, black ? HX_BLACK : HX_WHITE);
                wins[w]++, boards++;
            }
            assert_true(wins[0] > 0 && wins[1] > 0);
        }
    assert_int_equal(boards, (1 << 4) + (1 << 6) * 2 + (1 << 8) * 2 + (1 << 9) + (1 << 10) * 2 + (1 << 12) * 4 +
                                 (1 << 14) * 2 + (1 << 15) * 2 + (1 << 16) * 3);
}

static void random_boards_match_a_search(void **state)
{
    (void)state;
    static const int sizes[][2] = { { 5, 5 }, { 6, 6 }, { 7, 7 }, { 8, 8 }, { 9, 9 }, { 10, 10 }, { 11, 11 },
                                    { 5, 9 }, { 11, 7 }, { 2, 19 }, { 19, 3 }, { 19, 19 } };
    static gale_board g;
    uint8_t b[HX_MAX_CELLS];
    rng_state rng;
    rng_seed(&rng, 2024);
    long total = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int rows = sizes[s][0], cols = sizes[s][1], n = rows * cols;
        long count = s < 7 ? 130000 : 20000, wins[2] = { 0, 0 };
        gale_init(&g, rows, cols);
        for (long k = 0; k < count; k++) {
            uint64_t bits = 0;
            for (int i = 0; i < n; i++) {
                if (i % 64 == 0)
                    bits = rng_next(&rng);
                b[i] = (bits >> (i % 64) & 1) ? HX_BLACK : HX_WHITE;
            }
            bool black = bfs_joins(b, rows, cols, HX_BLACK);
            assert_true(black != bfs_joins(b, rows, cols, HX_WHITE));
            int w = gale_checked(&g, b, rows, cols);
            if (w != (black ? HX_BLACK : HX_WHITE))
                fail_msg("%dx%d board %ld: Gale says %d", rows, cols, k, w);
            if (n <= 64) {
                uint64_t set = 0;
                for (int i = 0; i < n; i++)
                    set |= (uint64_t)(b[i] == HX_BLACK) << i;
                assert_int_equal(hx_set_joins(rows, cols, HX_BLACK, set), black);
            }
            wins[w]++;
        }
        /* Square boards are fair under random colouring; each side must win a fair share. */
        if (rows == cols)
            assert_true(wins[0] > count / 3 && wins[1] > count / 3);
        total += count;
    }
    assert_true(total >= 1000000);
}

/* Hand-made boards with a known answer and path. */
static void known_boards(void **state)
{
    (void)state;
    static gale_board g;
    uint8_t b[HX_MAX_CELLS];
    uint16_t path[GALE_PATH_MAX];
    int len;
    /* 3x3 all White but column b: Black wins along b1 b2 b3 (and b3 b2 b1 from the other corner). */
    gale_init(&g, 3, 3);
    for (int i = 0; i < 9; i++)
        b[i] = i % 3 == 1 ? HX_BLACK : HX_WHITE;
    gale_fill(&g, b);
    assert_int_equal(gale_walk(&g, GALE_TOP_LEFT, path, &len), HX_BLACK);
    assert_int_equal(len, 3);
    assert_int_equal(path[0], 1);
    assert_int_equal(path[1], 4);
    assert_int_equal(path[2], 7);
    assert_int_equal(gale_walk(&g, GALE_BOTTOM_RIGHT, path, &len), HX_BLACK);
    assert_int_equal(len, 3);
    assert_int_equal(path[0], 7);
    assert_int_equal(path[2], 1);
    /* 4x5 all Black but row 3 (index 2): White wins along it. */
    gale_init(&g, 4, 5);
    for (int i = 0; i < 20; i++)
        gale_set(&g, i, i / 5 == 2 ? HX_WHITE : HX_BLACK);
    assert_int_equal(gale_walk(&g, GALE_TOP_LEFT, path, &len), HX_WHITE);
    assert_int_equal(len, 5);
    for (int i = 0; i < 5; i++)
        assert_int_equal(path[i], 10 + i);
    assert_int_equal(gale_walk(&g, GALE_BOTTOM_RIGHT, path, &len), HX_WHITE);
    assert_int_equal(len, 5);
    assert_int_equal(path[0], 14);
    /* gale_init makes every cell Black: Black wins with a path straight down column a. */
    gale_init(&g, 2, 7);
    assert_int_equal(gale_walk(&g, GALE_TOP_LEFT, path, &len), HX_BLACK);
    assert_int_equal(len, 2);
    assert_int_equal(path[0], 0);
    assert_int_equal(path[1], 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(known_boards),
        cmocka_unit_test(every_small_board_matches_the_engine),
        cmocka_unit_test(random_boards_match_a_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
