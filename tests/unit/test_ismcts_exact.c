/* tests/unit/test_ismcts_exact.c — the ismcts bot's exact play and its moves in whole games (agents/ismcts/
 * surekey.c, deadcell.c, ismplay.c), in-process on the engine, through ism_play() as the bot calls it:
 * - the sure-win key it follows from its events agrees with the true game (its stones, the stones it learned,
 *   the opponent's true number of collisions among the counts the key allows) in every dark variant;
 * - the dead cells it finds are dead by the test's own enumeration of every completion (exactly so with few
 *   unknown cells; never a live cell from the local pattern);
 * - legality: 10,080 games in all seven variants on 3x3, 4x4 and 5x5 against random and mc opponents, both
 *   colours, a small budget; every attempt is unknown in its own view (never a cell it knows), legal for the
 *   engine, and never a cell the test proves dead while a live one is left (for a move of the solver: while a
 *   live one keeps the sure win, by a separate solver);
 * - sure wins: on classical 3x3 as Black (a sure win from the empty board) and in positions of random 3x3 and
 *   4x3 games in every dark variant where a separate solver finds a sure win for the player to move, it plays
 *   a cell after which every outcome is still a sure win (that solver again), and wins every continuation
 *   against random opponents; as Black on classical 3x3 it loses none of 300 games against random and mc. */
#include "ismplay.h"
#include "scorer.h"
#include "test_util.h"

static ism_player *player;

static int setup(void **state)
{
    (void)state;
    player = ism_player_new();
    return player ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    ism_player_free(player);
    return 0;
}

static ism_play_options small_budget(long iterations)
{
    ism_play_options o = { .search = { .iterations = iterations, .uct = 0.7, .rave = 300 },
                           .surewin = true, .sure_unknown = SW_MAX_CELLS, .sure_seconds = 0,
                           .sure_bytes = 64ull << 20, .dead = true, .dead_exact = ISM_DEAD_EXACT_DEFAULT,
                           .cells = ISM_CELLS_DEFAULT, .cells_beta = ISM_CELLS_BETA_DEFAULT, .cells_near = ISM_CELLS_NEAR_DEFAULT };
    o.search.opp_centre = ISM_OPP_CENTRE_DEFAULT;
    o.search.opp_grow = ISM_OPP_GROW_DEFAULT, o.search.opp_goal = ISM_OPP_GOAL_DEFAULT;
    o.search.resist = ISM_RESIST_DEFAULT, o.search.resist_boards = 4;
    return o;
}

/* --- the test's own Hex: the winner of a full colouring, by a flood fill from the top row --- */

/* True when Black's cells (black[i] nonzero) join the top and bottom rows of a rows x cols board. */
static bool black_joins(int rows, int cols, const uint8_t *black)
{
    uint8_t seen[HX_MAX_CELLS] = { 0 };
    int stack[HX_MAX_CELLS], n = 0;
    for (int c = 0; c < cols; c++)
        if (black[c])
            seen[c] = 1, stack[n++] = c;
    while (n > 0) {
        int i = stack[--n], r = i / cols, c = i % cols;
        if (r == rows - 1)
            return true;
        const int nb[6][2] = { { r - 1, c }, { r - 1, c + 1 }, { r, c - 1 }, { r, c + 1 }, { r + 1, c - 1 },
                               { r + 1, c } };
        for (int d = 0; d < 6; d++) {
            int rr = nb[d][0], cc = nb[d][1];
            if (rr >= 0 && rr < rows && cc >= 0 && cc < cols && black[rr * cols + cc] && !seen[rr * cols + cc])
                seen[rr * cols + cc] = 1, stack[n++] = rr * cols + cc;
        }
    }
    return false;
}

/* Whether unknown cell u of `player`'s view is dead: over every colouring of the other unknown cells, Black
 * wins (a full board: exactly one player joins) with u Black exactly when with u White. */
static bool truly_dead(const hx_game *g, int player_, int u)
{
    int rows = hx_rows(g), cols = hx_cols(g), cells = rows * cols, free_[HX_MAX_CELLS], n = 0;
    uint8_t black[HX_MAX_CELLS];
    for (int i = 0; i < cells; i++) {
        int v = hx_view(g, player_, i);
        int colour = v == HX_VIEW_OWN ? player_ : v == HX_VIEW_OPPONENT ? player_ ^ 1 : -1;
        black[i] = colour == HX_BLACK;
        if (colour < 0 && i != u)
            free_[n++] = i;
    }
    for (uint32_t m = 0; m < 1u << n; m++) {
        for (int j = 0; j < n; j++)
            black[free_[j]] = (uint8_t)(m >> j & 1);
        black[u] = 1;
        bool a = black_joins(rows, cols, black);
        black[u] = 0;
        if (a != black_joins(rows, cols, black))
            return false;
    }
    return true;
}

/* --- the sure-win key against the truth --- */

static void sure_key_agrees_with_the_game(void **state)
{
    (void)state;
    static const int boards[][2] = { { 2, 2 }, { 3, 3 }, { 4, 3 }, { 3, 4 }, { 4, 4 }, { 2, 5 } };
    rng_state rng;
    rng_seed(&rng, 41);
    static hx_event ev[HX_MAX_EVENTS], opp_ev[HX_MAX_EVENTS];
    long keys = 0, several = 0, reports = 0;
    for (int v = 0; v < HX_VARIANT_COUNT; v++)
        for (int game = 0; game < 120; game++) {
            int k = game % 6, rows = boards[k][0], cols = boards[k][1];
            hx_game g;
            hx_new(&g, (hx_variant)v, rows, cols, 0);
            sw *s[2] = { NULL, NULL };
            int rules = sw_rules_of((hx_variant)v);
            for (int p = 0; p < 2 && rules >= 0; p++)
                assert_non_null(s[p] = sw_new(rows, cols, (sw_rules)rules, p));
            while (!hx_over(&g)) {
                int p = hx_to_move(&g), n = hx_events(&g, p, ev);
                sw_key key = { 0, 0, false, 0 };
                if (rules < 0) { /* hex: no sure-win rules, no key */
                    sw *any = sw_new(rows, cols, SW_CLASSICAL, p);
                    assert_int_equal(ism_sure_key(any, (hx_variant)v, p, ev, n, &key), -1);
                    sw_free(any);
                    hx_attempt(&g, hx_random_legal(&g, &rng));
                    continue;
                }
                if (ism_sure_key(s[p], (hx_variant)v, p, ev, n, &key) != 0)
                    fail_msg("%s %dx%d attempt %d: the key of a real history was not followed",
                             hx_variant_name((hx_variant)v), rows, cols, hx_num_attempts(&g));
                assert_false(key.q_to_move);
                for (int i = 0; i < rows * cols; i++) {
                    assert_int_equal((int)(key.own >> i & 1), hx_view(&g, p, i) == HX_VIEW_OWN);
                    assert_int_equal((int)(key.seen >> i & 1), hx_view(&g, p, i) == HX_VIEW_OPPONENT);
                }
                /* The opponent's collisions so far: its own COLLIDED events (classical: no collision counts). */
                int m = hx_events(&g, p ^ 1, opp_ev), c = 0;
                for (int i = 0; i < m; i++)
                    c += opp_ev[i].kind == HX_EV_COLLIDED;
                for (int i = 0; i < n; i++)
                    reports += ev[i].kind == HX_EV_OPP_HIT || ev[i].kind == HX_EV_OPP_HIT_AT;
                if (rules == SW_CLASSICAL)
                    c = 0;
                if (!(key.counts >> c & 1))
                    fail_msg("%s %dx%d: %d opponent collisions, not among the key's counts 0x%x",
                             hx_variant_name((hx_variant)v), rows, cols, c, key.counts);
                several += __builtin_popcount(key.counts) > 1;
                keys++;
                hx_attempt(&g, hx_random_legal(&g, &rng));
            }
            sw_free(s[0]);
            sw_free(s[1]);
        }
    print_message("%ld keys followed (%ld with several collision counts), %ld reports read\n", keys, several,
                  reports);
    assert_true(keys > 5000 && several > 100 && reports > 100);
}

/* --- dead cells against the test's own enumeration --- */

static void dead_cells_are_dead(void **state)
{
    (void)state;
    static const int boards[][2] = { { 3, 3 }, { 4, 4 }, { 3, 5 }, { 5, 5 }, { 6, 6 } };
    rng_state rng;
    rng_seed(&rng, 43);
    ism_belief b;
    uint8_t dead[HX_MAX_CELLS];
    long exact = 0, exact_dead = 0, pattern = 0, checked = 0;
    for (int game = 0; game < 600; game++) {
        hx_game g;
        int k = game % 5;
        hx_new(&g, (hx_variant)(game % HX_VARIANT_COUNT), boards[k][0], boards[k][1], 0);
        while (!hx_over(&g)) {
            int p = hx_to_move(&g);
            ism_belief_of_game(&b, &g, p);
            if (b.n_unknown <= 10) { /* exact: exactly the dead cells */
                ism_dead_cells(&b, 10, dead);
                for (int j = 0; j < b.n_unknown; j++) {
                    int u = b.unknown[j];
                    if (dead[u] != truly_dead(&g, p, u))
                        fail_msg("%dx%d: cell %d marked %s by the exact test", boards[k][0], boards[k][1], u,
                                 dead[u] ? "dead, live" : "live, dead");
                    exact++, exact_dead += dead[u];
                }
            }
            if (b.n_unknown <= 14) { /* the pattern: sound */
                ism_dead_cells(&b, 0, dead);
                for (int j = 0; j < b.n_unknown; j++) {
                    int u = b.unknown[j];
                    if (dead[u]) {
                        pattern++;
                        if (!truly_dead(&g, p, u))
                            fail_msg("%dx%d: cell %d marked dead by the pattern, live", boards[k][0],
                                     boards[k][1], u);
                    }
                    checked++;
                }
            }
            hx_attempt(&g, hx_random_legal(&g, &rng));
        }
    }
    print_message("exact: %ld cells, %ld dead; pattern: %ld of %ld cells marked, all dead\n", exact, exact_dead,
                  pattern, checked);
    assert_true(exact_dead > 100 && pattern > 50);
}

/* Whether attempting `cell` keeps the sure win of `key` (P to move): every outcome that can happen is a sure
 * win for the separate solver s. */
static bool keeps_the_win(sw *s, const sw_key *key, int cell)
{
    sw_key placed, collided;
    bool can_place, won, can_collide;
    if (sw_after_attempt(s, key, cell, &placed, &can_place, &won, &collided, &can_collide) != 0)
        return false;
    if (can_place && !won && sw_solve(s, &placed, NULL) != 1)
        return false;
    return !can_collide || sw_solve(s, &collided, NULL) == 1;
}

/* --- legality over whole games --- */

typedef enum { OPP_RANDOM, OPP_MC } opponent;

/* One game of ism_play() as `color` against `opp`; every attempt of the bot is checked against its own
 * information. Returns the winner. */
static int play_checked(hx_variant v, int rows, int cols, int color, opponent opp, const ism_play_options *o,
                        uint64_t seed, long *attempts, long *dead_checked)
{
    static mc_sampler mc;
    hx_game g;
    rng_state rng, orng;
    rng_seed(&rng, seed);
    rng_seed(&orng, seed * 31 + 7);
    hx_new(&g, v, rows, cols, 0);
    mc_options mo = { .samples = 20, .fill = MC_FILL_ALTERNATE };
    while (!hx_over(&g)) {
        int p = hx_to_move(&g);
        if (p != color) {
            int c;
            if (opp == OPP_RANDOM) {
                c = hx_random_legal(&g, &orng);
            } else {
                mc_sampler_of_game(&mc, &g, p);
                c = mc_choose(&mc, &mo, &orng, NULL);
            }
            assert_true(hx_attempt(&g, c) >= 0);
            continue;
        }
        ism_play_stats st;
        int c = ism_play_game(player, o, &g, &rng, &st);
        if (c < 0 || c >= rows * cols || hx_view(&g, color, c) != HX_VIEW_UNKNOWN || hx_check(&g, c) != 0)
            fail_msg("%s %dx%d as %s: attempt %d at %d, a cell it knows or an illegal one", hx_variant_name(v),
                     rows, cols, color ? "White" : "Black", hx_num_attempts(&g), c);
        /* Never a dead cell while a live one is left (checked where the enumeration is cheap), unless the
         * solver played it and no live cell keeps the sure win (a separate solver says). */
        const ism_belief *b = ism_player_belief(player);
        if (b->n_unknown <= 7 && truly_dead(&g, color, c)) {
            bool live = false, live_win = false;
            for (int j = 0; j < b->n_unknown; j++) {
                int u = b->unknown[j];
                if (truly_dead(&g, color, u))
                    continue;
                live = true;
                if (st.by == ISM_BY_SUREWIN) {
                    static hx_event ev[HX_MAX_EVENTS];
                    sw *s = sw_new(rows, cols, (sw_rules)sw_rules_of(v), color);
                    sw_key key;
                    assert_non_null(s);
                    assert_int_equal(ism_sure_key(s, v, color, ev, hx_events(&g, color, ev), &key), 0);
                    live_win = live_win || keeps_the_win(s, &key, u);
                    sw_free(s);
                }
            }
            if (live && (st.by == ISM_BY_SEARCH || live_win))
                fail_msg("%s %dx%d: attempt at the dead cell %d with a live one left%s", hx_variant_name(v), rows,
                         cols, c, live_win ? " that keeps the sure win" : "");
        }
        *dead_checked += b->n_unknown <= 7;
        ++*attempts;
        assert_true(hx_attempt(&g, c) >= 0);
    }
    return hx_winner(&g);
}

static void legal_in_every_variant(void **state)
{
    (void)state;
    static const int boards[][2] = { { 3, 3 }, { 4, 4 }, { 5, 5 } };
    ism_play_options o = small_budget(4);
    o.sure_seconds = 0.002; /* 4x4 keys far from the end can take long: the search takes over */
    long games = 0, attempts = 0, dead_checked = 0, wins = 0;
    for (int v = 0; v < HX_VARIANT_COUNT; v++)
        for (int k = 0; k < 3; k++)
            for (int opp = 0; opp < 2; opp++)
                for (int color = 0; color < 2; color++)
                    for (int i = 0; i < 120; i++) {
                        uint64_t seed = 1000u + (uint64_t)games;
                        /* every other game the other cell model of the belief and of the simulated opponent */
                        o.cells = i % 2 ? ISM_CELLS_DEFAULT : (ism_cell_model)(ISM_CELLS_CENTRE - ISM_CELLS_DEFAULT);
                        o.search.opp_centre = i % 2 ? ISM_OPP_CENTRE_DEFAULT : 2.5 - ISM_OPP_CENTRE_DEFAULT;
                        o.search.pivot = (i / 2) % 2 ? 8 : 0; /* and the root's pivotal prior (the bot's) */
                        o.search.resist = (i / 4) % 2 ? ISM_RESIST_DEFAULT : 0; /* and its resistance prior */
                        wins += play_checked((hx_variant)v, boards[k][0], boards[k][1], color, (opponent)opp, &o,
                                             seed, &attempts, &dead_checked) == color;
                        games++;
                    }
    print_message("%ld games, %ld attempts (%ld checked against dead cells), won %ld\n", games, attempts,
                  dead_checked, wins);
    assert_true(games >= 10000 && dead_checked > 1000);
}

/* --- sure wins --- */

/* Plays the game on from g with the bot as the player to move against a uniformly random opponent; returns
 * the winner. */
static int play_out(hx_game g, const ism_play_options *o, rng_state *rng)
{
    int me = hx_to_move(&g);
    while (!hx_over(&g)) {
        int c = hx_to_move(&g) == me ? ism_play_game(player, o, &g, rng, NULL) : hx_random_legal(&g, rng);
        assert_true(hx_attempt(&g, c) >= 0);
    }
    return hx_winner(&g);
}

static void plays_sure_wins(void **state)
{
    (void)state;
    ism_play_options o = small_budget(8);
    rng_state rng;
    rng_seed(&rng, 47);
    static hx_event ev[HX_MAX_EVENTS];
    /* Classical 3x3, empty board: Black's sure win. */
    {
        sw *s = sw_new(3, 3, SW_CLASSICAL, HX_BLACK);
        assert_non_null(s);
        sw_key root = sw_root(s);
        assert_int_equal(sw_solve(s, &root, NULL), 1);
        hx_game g;
        hx_new(&g, HX_CLASSICAL, 3, 3, 0);
        ism_play_stats st;
        int c = ism_play_game(player, &o, &g, &rng, &st);
        assert_int_equal(st.by, ISM_BY_SUREWIN);
        assert_true(keeps_the_win(s, &root, c));
        sw_free(s);
    }
    /* Positions of random games where a separate solver finds a sure win for the player to move. */
    static const int boards[][2] = { { 3, 3 }, { 4, 3 } };
    long positions = 0, continuations = 0;
    long per_variant[HX_VARIANT_COUNT] = { 0 };
    for (int v = 0; v < HX_VARIANT_COUNT; v++) {
        int rules = sw_rules_of((hx_variant)v);
        if (rules < 0)
            continue;
        for (int game = 0; game < 160; game++) {
            int rows = boards[game % 2][0], cols = boards[game % 2][1];
            sw *s[2];
            for (int p = 0; p < 2; p++)
                assert_non_null(s[p] = sw_new(rows, cols, (sw_rules)rules, p));
            hx_game g;
            hx_new(&g, (hx_variant)v, rows, cols, 0);
            while (!hx_over(&g)) {
                int p = hx_to_move(&g), n = hx_events(&g, p, ev);
                sw_key key;
                assert_int_equal(ism_sure_key(s[p], (hx_variant)v, p, ev, n, &key), 0);
                if (sw_solve(s[p], &key, NULL) == 1) {
                    ism_play_stats st;
                    int c = ism_play_game(player, &o, &g, &rng, &st);
                    if (st.by != ISM_BY_SUREWIN || !keeps_the_win(s[p], &key, c))
                        fail_msg("%s %dx%d attempt %d: a sure win, and the bot played %d (%s)",
                                 hx_variant_name((hx_variant)v), rows, cols, hx_num_attempts(&g), c,
                                 st.by == ISM_BY_SUREWIN ? "losing it" : "not from the solver");
                    positions++, per_variant[v]++;
                    for (int k = 0; k < 3; k++, continuations++)
                        if (play_out(g, &o, &rng) != p)
                            fail_msg("%s %dx%d: a sure win lost against a random opponent",
                                     hx_variant_name((hx_variant)v), rows, cols);
                }
                hx_attempt(&g, hx_random_legal(&g, &rng));
            }
            sw_free(s[0]);
            sw_free(s[1]);
        }
    }
    print_message("%ld sure-win positions (classical %ld, abrupt %ld, abrupt-noisy %ld), %ld continuations won\n",
                  positions, per_variant[HX_CLASSICAL], per_variant[HX_ABRUPT], per_variant[HX_ABRUPT_NOISY],
                  continuations);
    assert_true(per_variant[HX_CLASSICAL] > 50 && per_variant[HX_ABRUPT] > 10);
    /* Black on classical 3x3 never loses, against random and mc. */
    long black = 0;
    for (int opp = 0; opp < 2; opp++)
        for (int i = 0; i < 150; i++, black++) {
            long a = 0, d = 0;
            if (play_checked(HX_CLASSICAL, 3, 3, HX_BLACK, (opponent)opp, &o, 5000u + (uint64_t)black, &a, &d) !=
                HX_BLACK)
                fail_msg("classical 3x3: Black lost game %ld against %s", black, opp ? "mc" : "random");
        }
    print_message("classical 3x3 as Black: %ld of %ld games won\n", black, black);
}

/* --no-surewin: the same position is searched instead. */
static void surewin_can_be_turned_off(void **state)
{
    (void)state;
    ism_play_options o = small_budget(8);
    o.surewin = false;
    rng_state rng;
    rng_seed(&rng, 3);
    hx_game g;
    hx_new(&g, HX_CLASSICAL, 3, 3, 0);
    ism_play_stats st;
    ism_play_game(player, &o, &g, &rng, &st);
    assert_int_equal(st.by, ISM_BY_SEARCH);
    assert_int_equal(st.sure, ISM_SURE_SKIPPED);
    o.surewin = true, o.sure_unknown = 8; /* 9 unknown cells: over the threshold */
    ism_play_game(player, &o, &g, &rng, &st);
    assert_int_equal(st.by, ISM_BY_SEARCH);
    assert_int_equal(st.sure, ISM_SURE_SKIPPED);
    hx_new(&g, HX_HEX, 3, 3, 0); /* hex: no sure-win rules */
    o.sure_unknown = SW_MAX_CELLS;
    ism_play_game(player, &o, &g, &rng, &st);
    assert_int_equal(st.sure, ISM_SURE_SKIPPED);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sure_key_agrees_with_the_game),
        cmocka_unit_test(dead_cells_are_dead),
        cmocka_unit_test(legal_in_every_variant),
        cmocka_unit_test(plays_sure_wins),
        cmocka_unit_test(surewin_can_be_turned_off),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
