/* tests/unit/test_bridge.c — the bridge builder: bridge offsets and carriers against a brute-force definition,
 * shortest bridge paths on empty boards of every shape and on hand-made positions (a detour, a plain path
 * when no bridge is possible), answers to intrusions into bridges and edge templates, a classical Dark Hex
 * game series against an omniscient bot that intrudes into one carrier of every bridge, win rates against
 * random (>= 95% in hex 7x7 and 11x11, >= 90% in classical 7x7, as Black and as White), and bin/bridge
 * through `arena match`. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bridge_play.h"
#include "test_util.h"

static const int nb6[6][2] = { { -1, 0 }, { -1, 1 }, { 0, -1 }, { 0, 1 }, { 1, -1 }, { 1, 0 } }; /* rules.md */

static bool adjacent(int cols, int a, int b)
{
    int ar = a / cols, ac = a % cols, br = b / cols, bc = b % cols;
    for (int k = 0; k < 6; k++)
        if (ar + nb6[k][0] == br && ac + nb6[k][1] == bc)
            return true;
    return false;
}

/* A bridge is a pair of non-adjacent cells with exactly two common neighbours (its carriers). */
static void bridges_match_the_definition(void **state)
{
    (void)state;
    static const int sizes[][2] = { { 2, 2 }, { 3, 3 }, { 3, 5 }, { 5, 3 }, { 7, 7 }, { 11, 11 }, { 2, 6 } };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int R = sizes[s][0], C = sizes[s][1], N = R * C, total = 0;
        for (int x = 0; x < N; x++) {
            bb_bridge b[6];
            int n = bb_bridges(R, C, x, b);
            int expect = 0;
            for (int y = 0; y < N; y++) {
                if (y == x || adjacent(C, x, y))
                    continue;
                int common[6], m = 0;
                for (int z = 0; z < N; z++)
                    if (adjacent(C, x, z) && adjacent(C, y, z))
                        common[m++] = z;
                if (m != 2)
                    continue;
                expect++;
                bool found = false;
                for (int k = 0; k < n; k++)
                    if (b[k].partner == y) {
                        found = true;
                        assert_true((b[k].carrier[0] == common[0] && b[k].carrier[1] == common[1]) ||
                                    (b[k].carrier[0] == common[1] && b[k].carrier[1] == common[0]));
                    }
                if (!found)
                    fail_msg("%dx%d: bridge %d-%d missing", R, C, x, y);
            }
            assert_int_equal(n, expect);
            total += n;
        }
        assert_true(total > 0 || N < 4);
    }
    /* centre of 5x5 (c3): six bridges */
    bb_bridge b[6];
    assert_int_equal(bb_bridges(5, 5, 12, b), 6);
    assert_int_equal(bb_bridges(5, 5, 0, b), 1); /* a1: only towards b2, through b1 and a2 */
    assert_int_equal(b[0].partner, 6);
}

/* Checks that a path is a chain of valid links from the player's first edge to its second. */
static void check_path(const bb_position *p, const bb_path *path)
{
    int R = p->rows, C = p->cols;
    assert_true(path->found);
    int unknown = 0;
    for (int k = 0; k < path->n; k++) {
        assert_int_not_equal(p->view[path->cells[k]], HX_VIEW_OPPONENT);
        unknown += p->view[path->cells[k]] == HX_VIEW_UNKNOWN;
    }
    assert_int_equal(unknown, path->new_stones);
    for (int k = 0; k <= path->n; k++) {
        const bb_link *l = &path->links[k];
        int from = k ? path->cells[k - 1] : -1, to = k < path->n ? path->cells[k] : -1;
        if (l->kind == BB_BRIDGE) {
            assert_true(from >= 0 && to >= 0);
            assert_false(adjacent(C, from, to));
            for (int j = 0; j < 2; j++) {
                assert_true(adjacent(C, from, l->carrier[j]) && adjacent(C, to, l->carrier[j]));
                assert_int_not_equal(p->view[l->carrier[j]], HX_VIEW_OPPONENT);
            }
        } else if (from >= 0 && to >= 0) {
            assert_int_equal(l->kind, BB_ADJACENT);
            assert_true(adjacent(C, from, to));
        } else {
            /* an edge link: the cell touches the edge, or is one row/column in with a template */
            int cell = from >= 0 ? from : to, line = p->color == HX_BLACK ? cell / C : cell % C;
            int last = (p->color == HX_BLACK ? R : C) - 1, edge = from < 0 ? 0 : last;
            if (l->kind == BB_ADJACENT) {
                assert_int_equal(line, edge);
            } else {
                assert_int_equal(l->kind, BB_TEMPLATE);
                assert_int_equal(line, edge == 0 ? 1 : last - 1);
                for (int j = 0; j < 2; j++) {
                    int cl = p->color == HX_BLACK ? l->carrier[j] / C : l->carrier[j] % C;
                    assert_int_equal(cl, edge);
                    assert_true(adjacent(C, cell, l->carrier[j]));
                }
            }
        }
    }
}

static void empty_boards_need_half_their_span(void **state)
{
    (void)state;
    uint8_t view[HX_MAX_CELLS] = { 0 };
    bb_options o = bb_defaults();
    bb_path path;
    for (int R = 2; R <= 11; R++)
        for (int C = 2; C <= 11; C++)
            for (int color = 0; color < 2; color++) {
                bb_position p = { .rows = R, .cols = C, .color = color, .view = view };
                assert_true(bb_shortest_path(&p, &o, &path));
                check_path(&p, &path);
                int span = color == HX_BLACK ? R : C, other = color == HX_BLACK ? C : R;
                /* stones on lines 1, 3, 5, ... of the span (edge templates at both ends, a bridge between
                 * consecutive ones): span / 2 stones when the board is wide enough for the bridges' drift of
                 * one column per two lines; narrower boards need at least as many */
                if (other >= span / 2 + 2 || span == 2) {
                    if (path.new_stones != span / 2)
                        fail_msg("%dx%d %s: %d stones, expected %d", R, C, color ? "White" : "Black",
                                 path.new_stones, span / 2);
                } else {
                    assert_true(path.new_stones >= span / 2);
                }
            }
}

static uint8_t *position(int R, int C, const char *own, const char *opp, uint8_t *view)
{
    memset(view, HX_VIEW_UNKNOWN, (size_t)(R * C));
    char buf[256];
    for (int pass = 0; pass < 2; pass++) {
        snprintf(buf, sizeof buf, "%s", pass ? opp : own);
        for (char *save, *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
            int c = hx_cell_parse(t, R, C, &(const char *){ 0 });
            assert_true(c >= 0);
            view[c] = pass ? HX_VIEW_OPPONENT : HX_VIEW_OWN;
        }
    }
    return view;
}

static int cell(const char *name, int R, int C)
{
    return hx_cell_parse(name, R, C, &(const char *){ 0 });
}

static void hand_made_paths_and_intrusions(void **state)
{
    (void)state;
    uint8_t view[HX_MAX_CELLS];
    bb_options o = bb_defaults();
    bb_path path;
    bb_why why;

    /* Black c2 and b4 on 5x5: templates to both edges and a bridge between them: virtually connected */
    bb_position p = { .rows = 5, .cols = 5, .color = HX_BLACK, .view = position(5, 5, "c2 b4", "", view) };
    assert_true(bb_shortest_path(&p, &o, &path));
    check_path(&p, &path);
    assert_int_equal(path.new_stones, 0);
    assert_int_equal(path.n, 2);
    assert_int_equal(path.links[0].kind, BB_TEMPLATE);
    assert_int_equal(path.links[1].kind, BB_BRIDGE);
    assert_int_equal(path.links[2].kind, BB_TEMPLATE);
    assert_int_equal(bb_intrusion(&p, &path), -1);
    int c = bb_choose(&p, &o, NULL, &why); /* nothing to build: fill a carrier */
    assert_int_equal(why, BB_WHY_FILL);
    assert_true(c == cell("c1", 5, 5) || c == cell("d1", 5, 5) || c == cell("b3", 5, 5) || c == cell("c3", 5, 5) ||
                c == cell("a5", 5, 5) || c == cell("b5", 5, 5));

    /* White intrudes into the bridge's carrier b3: take c3 at once */
    p.view = position(5, 5, "c2 b4", "b3", view);
    assert_int_equal(bb_choose(&p, &o, NULL, &why), cell("c3", 5, 5));
    assert_int_equal(why, BB_WHY_INTRUSION);
    /* ... into the top template's carrier c1: take d1; into the bottom one's b5: take a5 */
    p.view = position(5, 5, "c2 b4", "c1", view);
    assert_int_equal(bb_choose(&p, &o, NULL, &why), cell("d1", 5, 5));
    assert_int_equal(why, BB_WHY_INTRUSION);
    p.view = position(5, 5, "c2 b4", "b5", view);
    assert_int_equal(bb_choose(&p, &o, NULL, &why), cell("a5", 5, 5));
    /* both carriers taken: nothing to answer, the path goes around */
    p.view = position(5, 5, "c2 b4", "b3 c3", view);
    assert_int_equal(bb_intrusion(&p, NULL), -1);
    /* the same for White on the transposed position (White joins left and right) */
    bb_position w = { .rows = 5, .cols = 5, .color = HX_WHITE, .view = position(5, 5, "b3 d2", "c2", view) };
    assert_int_equal(bb_choose(&w, &o, NULL, &why), cell("c3", 5, 5));
    assert_int_equal(why, BB_WHY_INTRUSION);

    /* a wall on row 3 with one gap at e3: the path goes through it, four stones in all */
    p.view = position(5, 5, "", "a3 b3 c3 d3", view);
    assert_true(bb_shortest_path(&p, &o, &path));
    check_path(&p, &path);
    assert_int_equal(path.new_stones, 4);
    bool through = false;
    for (int k = 0; k < path.n; k++)
        through |= path.cells[k] == cell("e3", 5, 5);
    assert_true(through);

    /* no bridge is possible on 3x3 with White on b1 and b3: the shortest plain path, three stones, all links
     * adjacent (never a random move) */
    p = (bb_position){ .rows = 3, .cols = 3, .color = HX_BLACK, .view = position(3, 3, "", "b1 b3", view) };
    assert_true(bb_shortest_path(&p, &o, &path));
    check_path(&p, &path);
    assert_int_equal(path.new_stones, 3);
    for (int k = 0; k <= path.n; k++)
        assert_int_equal(path.links[k].kind, BB_ADJACENT);
    c = bb_choose(&p, &o, NULL, &why);
    assert_int_equal(why, BB_WHY_BUILD);

    /* blocked for good: White already joins left and right; any unknown cell, not a crash */
    p.view = position(3, 3, "", "a2 b2 c2", view);
    assert_false(bb_shortest_path(&p, &o, &path));
    c = bb_choose(&p, &o, NULL, &why);
    assert_int_equal(why, BB_WHY_FALLBACK);
    assert_int_equal(view[c], HX_VIEW_UNKNOWN);

    /* the swap rule: White swaps a central first stone, not one on the border */
    bb_position s = { .rows = 5, .cols = 5, .color = HX_WHITE, .can_swap = true,
                      .view = position(5, 5, "", "c3", view) };
    assert_int_equal(bb_choose(&s, &o, NULL, &why), HX_SWAP);
    s.view = position(5, 5, "", "a1", view);
    assert_int_not_equal(bb_choose(&s, &o, NULL, &why), HX_SWAP);
}

static void hidden_estimates_follow_the_events(void **state)
{
    (void)state;
    hx_game g;
    hx_event ev[HX_MAX_EVENTS];
    /* classical: B a1, W b2: Black has one hidden stone to find; B b2 is rejected: none */
    assert_int_equal(hx_new(&g, HX_CLASSICAL, 3, 3, 0), 0);
    hx_attempt(&g, cell("a1", 3, 3));
    hx_attempt(&g, cell("b2", 3, 3));
    int n = hx_events(&g, HX_BLACK, ev);
    assert_int_equal(bb_hidden_estimate(HX_CLASSICAL, HX_BLACK, ev, n, 0), 1);
    assert_int_equal(hx_attempt(&g, cell("b2", 3, 3)), HX_REJECTED);
    n = hx_events(&g, HX_BLACK, ev);
    assert_int_equal(bb_hidden_estimate(HX_CLASSICAL, HX_BLACK, ev, n, 1), 0);
    /* random games, for the player to move: exact in classical and abrupt-noisy (every lost turn is told),
     * never below the truth in abrupt (an untold collision also ends a turn) */
    rng_state rng;
    rng_seed(&rng, 5);
    static const hx_variant vars[3] = { HX_CLASSICAL, HX_ABRUPT_NOISY, HX_ABRUPT };
    for (int v = 0; v < 3; v++)
        for (int k = 0; k < 200; k++) {
            hx_variant var = vars[v];
            assert_int_equal(hx_new(&g, var, 4, 4, 0), 0);
            while (!hx_over(&g)) {
                int player = hx_to_move(&g), known = 0;
                for (int i = 0; i < 16; i++)
                    known += hx_view(&g, player, i) == HX_VIEW_OPPONENT;
                int m = hx_events(&g, player, ev), est = bb_hidden_estimate(var, player, ev, m, known);
                if (v < 2)
                    assert_int_equal(est, hx_hidden(&g, player));
                else
                    assert_true(est >= hx_hidden(&g, player));
                hx_attempt(&g, hx_random_legal(&g, &rng));
            }
        }
}

static void connects_against_an_intruder_in_classical(void **state)
{
    (void)state;
    bb_options o = bb_defaults();
    for (int sz = 0; sz < 2; sz++) {
        int side = sz ? 9 : 7;
        bp_stats st = { 0 };
        for (uint64_t seed = 1; seed <= 20; seed++) {
            int builder = (int)(seed % 2);
            int before = st.intrusions;
            int w = bp_game(HX_CLASSICAL, side, side, builder, seed, &o, BP_INTRUDER, NULL, &st);
            assert_true(st.intrusions > before); /* it did intrude */
            if (w != builder)
                fail_msg("%dx%d seed %llu: the builder (%s) lost to the intruder", side, side,
                         (unsigned long long)seed, builder ? "White" : "Black");
        }
    }
}

static double win_rate(hx_variant v, int side, int games)
{
    bb_options o = bb_defaults();
    bp_stats st = { 0 };
    int wins = 0;
    for (int k = 0; k < games; k++) {
        int builder = k % 2, w = bp_game(v, side, side, builder, 1000 + (uint64_t)k, &o, BP_RANDOM, NULL, &st);
        assert_true(w >= 0);
        wins += w == builder;
    }
    return (double)wins / games;
}

static void beats_random(void **state)
{
    (void)state;
    double hex7 = win_rate(HX_HEX, 7, 200), hex11 = win_rate(HX_HEX, 11, 200), cl7 = win_rate(HX_CLASSICAL, 7, 200);
    print_message("win rate against random, 200 games, half as Black: hex 7x7 %.1f%%, hex 11x11 %.1f%%, "
                  "classical 7x7 %.1f%%\n",
                  100 * hex7, 100 * hex11, 100 * cl7);
    assert_true(hex7 >= 0.95);
    assert_true(hex11 >= 0.95);
    assert_true(cl7 >= 0.90);
}

static void plays_through_the_arena(void **state)
{
    (void)state;
    const char *bin = getenv("ARENA_BIN_DIR");
    char cmd[1024], out[4096];
    snprintf(cmd, sizeof cmd,
             "'%1$s/arena' match --variant abrupt-flash --board 5x5 --games 10 --openings none --db /tmp/arena-bridge-test.db --json "
             "'%1$s/bridge --seed 3' '%1$s/random' 2>/dev/null",
             bin ? bin : "bin");
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    assert_int_equal(pclose(p), 0);
    unlink("/tmp/arena-bridge-test.db");
    unlink("/tmp/arena-bridge-test.db-wal");
    unlink("/tmp/arena-bridge-test.db-shm");
    assert_non_null(strstr(out, "\"forfeits\":{\"timeout\":0,\"crash\":0,\"illegal\":0,\"protocol_error\":0,"
                                "\"disconnected\":0}"));
    const char *a = strstr(out, "\"wins\":");
    assert_non_null(a);
    assert_true(atoi(a + 7) >= 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bridges_match_the_definition),
        cmocka_unit_test(empty_boards_need_half_their_span),
        cmocka_unit_test(hand_made_paths_and_intrusions),
        cmocka_unit_test(hidden_estimates_follow_the_events),
        cmocka_unit_test(connects_against_an_intruder_in_classical),
        cmocka_unit_test(beats_random),
        cmocka_unit_test(plays_through_the_arena),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
