/* tests/unit/test_tree.c — exhaustive tree counts: the 2x2 figures, the longest games, and the walker
 * against an independent count of information states. */
#include "test_util.h"
#include "infocount.h"
#include "tree.h"

static hx_tree_counts count(hx_variant v, int rows, int cols, unsigned flags, const char *prefix)
{
    hx_game g;
    hx_tree_counts n;
    start(&g, v, rows, cols, flags);
    if (prefix)
        play(&g, prefix, NULL);
    assert_int_equal(hx_tree_count(&g, &n), 0);
    return n;
}

static void classical_2x2_counts(void **state)
{
    (void)state;
    hx_tree_counts n = count(HX_CLASSICAL, 2, 2, 0, NULL);
    assert_int_equal(n.histories, 441);
    assert_int_equal(n.terminals, 216);
    assert_int_equal(n.black_wins, 48);
    /* Black decides at the root, after its first stone (4 keys), and after its first stone and one
     * rejection (4 x 3 keys); Black's third turn never comes on 2x2: 1 + 4 + 12. */
    assert_int_equal(n.infosets[HX_BLACK], 17);
    /* Until full: 4 first stones x 6 White turns x 4 Black turns x White's last turn (5 or 2 ways,
     * depending on whether White was rejected in its first turn) = 4 x 3 x 4 x (5 + 2) = 336. */
    n = count(HX_CLASSICAL, 2, 2, HX_PLAY_TO_FULL, NULL);
    assert_int_equal(n.terminals, 336);
}

/* The per-opening terminals behind docs/rules.md's comparison with the thesis's 236. */
static void classical_2x2_by_opening(void **state)
{
    (void)state;
    assert_int_equal(count(HX_CLASSICAL, 2, 2, 0, "a1").terminals, 64); /* acute corner; b2 alike */
    assert_int_equal(count(HX_CLASSICAL, 2, 2, 0, "b1").terminals, 44); /* obtuse corner; a2 alike */
    assert_int_equal(count(HX_CLASSICAL, 2, 2, 0, "b1 a1").terminals, 4);  /* White beside b1: any Black stone wins */
    assert_int_equal(count(HX_CLASSICAL, 2, 2, 0, "b1 a2").terminals, 12); /* White in the bridge: 2 Black wins, 2 x 5 losses */
}

static void histories_add_up_over_children(void **state)
{
    (void)state;
    for (int v = 0; v < HX_VARIANT_COUNT; v++) {
        hx_game g;
        start(&g, (hx_variant)v, 2, 3, 0);
        hx_tree_counts all;
        assert_int_equal(hx_tree_count(&g, &all), 0);
        uint64_t histories = 1, terminals = 0, wins = 0;
        uint16_t moves[HX_MAX_CELLS + 1];
        int n = hx_legal(&g, moves);
        for (int i = 0; i < n; i++) {
            hx_game c = g;
            hx_tree_counts k;
            hx_attempt(&c, moves[i]);
            assert_int_equal(hx_tree_count(&c, &k), 0);
            histories += k.histories;
            terminals += k.terminals;
            wins += k.black_wins;
        }
        assert_int_equal(histories, all.histories);
        assert_int_equal(terminals, all.terminals);
        assert_int_equal(wins, all.black_wins);
    }
}

static void longest_possible_games(void **state)
{
    (void)state;
    static const int shapes[][2] = { { 2, 2 }, { 3, 2 }, { 2, 3 } };
    for (int v = 0; v < HX_VARIANT_COUNT; v++)
        for (int s = 0; s < 3; s++) {
            int rc = shapes[s][0] * shapes[s][1];
            hx_tree_counts n = count((hx_variant)v, shapes[s][0], shapes[s][1], 0, NULL);
            assert_int_equal(n.longest, v == HX_HEX ? rc : 2 * rc - 1);
        }
}

/* Hex is perfect information: every decision node is its own information state. */
static void hex_infosets_are_histories(void **state)
{
    (void)state;
    hx_tree_counts n = count(HX_HEX, 3, 2, 0, NULL);
    assert_int_equal(n.infosets[0] + n.infosets[1], n.histories - n.terminals);
    n = count(HX_HEX, 2, 2, HX_SWAP_RULE, NULL);
    assert_int_equal(n.infosets[0] + n.infosets[1], n.histories - n.terminals);
}

/* An independent count: every decision node's event list as text, sorted, duplicates dropped. */
typedef struct {
    char **keys[2];
    size_t n[2], cap[2];
} textkeys;

static void collect(const hx_game *g, textkeys *t)
{
    if (hx_over(g))
        return;
    int p = hx_to_move(g);
    hx_event ev[HX_MAX_EVENTS];
    int n = hx_events(g, p, ev);
    char buf[4096];
    int len = 0;
    for (int i = 0; i < n; i++)
        len += snprintf(buf + len, sizeof buf - (size_t)len, "%d:%d;", (int)ev[i].kind, ev[i].cell);
    if (t->n[p] == t->cap[p]) {
        t->cap[p] = t->cap[p] ? 2 * t->cap[p] : 1024;
        t->keys[p] = realloc(t->keys[p], t->cap[p] * sizeof *t->keys[p]);
    }
    t->keys[p][t->n[p]++] = strdup(buf);
    uint16_t moves[HX_MAX_CELLS + 1];
    int m = hx_legal(g, moves);
    for (int i = 0; i < m; i++) {
        hx_game c = *g;
        hx_attempt(&c, moves[i]);
        collect(&c, t);
    }
}

static int cmpstr(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static size_t distinct(char **keys, size_t n)
{
    qsort(keys, n, sizeof *keys, cmpstr);
    size_t d = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || strcmp(keys[i], keys[i - 1]) != 0)
            d++;
    for (size_t i = 0; i < n; i++)
        free(keys[i]);
    free(keys);
    return d;
}

static void infosets_match_an_independent_count(void **state)
{
    (void)state;
    for (int v = 0; v < HX_VARIANT_COUNT; v++) {
        hx_game g;
        start(&g, (hx_variant)v, 2, 3, 0);
        textkeys t = { 0 };
        collect(&g, &t);
        hx_tree_counts n;
        assert_int_equal(hx_tree_count(&g, &n), 0);
        assert_int_equal(n.infosets[0], distinct(t.keys[0], t.n[0]));
        assert_int_equal(n.infosets[1], distinct(t.keys[1], t.n[1]));
    }
}

/* Counting each player's own information states gives the full walk's counts on the boards the walk can
 * do, and the published 3x3 classical figures (3,720,850 Black, 2,352,067 White). */
static void infoset_counts_without_histories(void **state)
{
    (void)state;
    static const int boards[][2] = { { 2, 2 }, { 3, 2 }, { 2, 3 } };
    for (int i = 0; i < 3; i++) {
        hx_game g;
        start(&g, HX_CLASSICAL, boards[i][0], boards[i][1], 0);
        hx_tree_counts n;
        assert_int_equal(hx_tree_count(&g, &n), 0);
        uint64_t k[2];
        assert_int_equal(hx_count_infosets(HX_CLASSICAL, boards[i][0], boards[i][1], k), 0);
        assert_int_equal(k[0], n.infosets[0]);
        assert_int_equal(k[1], n.infosets[1]);
    }
    uint64_t k[2];
    assert_int_equal(hx_count_infosets(HX_CLASSICAL, 3, 3, k), 0);
    assert_int_equal(k[0], 3720850);
    assert_int_equal(k[1], 2352067);
    assert_int_equal(hx_count_infosets(HX_ABRUPT, 3, 3, k), -1);
    assert_int_equal(hx_count_infosets(HX_CLASSICAL, 4, 3, k), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(infoset_counts_without_histories),
        cmocka_unit_test(classical_2x2_counts),
        cmocka_unit_test(classical_2x2_by_opening),
        cmocka_unit_test(histories_add_up_over_children),
        cmocka_unit_test(longest_possible_games),
        cmocka_unit_test(hex_infosets_are_histories),
        cmocka_unit_test(infosets_match_an_independent_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
