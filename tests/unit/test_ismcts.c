/* tests/unit/test_ismcts.c — the ismcts bot's library (agents/ismcts/): the belief, driven from random games
 * the engine refereed in every variant (each replayed attempt by attempt, the player to move's view and events
 * read at each turn), always holds the true hidden board, rejects boards that contradict an observation (a
 * stone on the player's own, a learned stone missing, one stone too many where the count is known, the
 * opponent already connected), and draws only boards it holds, with uniform cells and with the centre model,
 * which draws each cell as often as its weight says; the search plays only cells unknown in the
 * view over whole games against a random player in every variant (and beats it), replays exactly from its
 * seed with a budget of iterations, and plays an immediate connection; --mix draws its move by the root's visits;
 * policy files (ismpolicy.h) are sampled where
 * they list the state of a game from the empty board and left to the search everywhere else. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ismplay.h"
#include "ismpolicy.h"
#include "policy.h"
#include "search.h"
#include "test_util.h"

static const int sizes[][2] = { { 2, 2 }, { 3, 3 }, { 3, 4 }, { 4, 3 }, { 4, 4 }, { 5, 5 }, { 7, 7 }, { 5, 9 }, { 11, 11 } };
#define N_SIZES ((int)(sizeof sizes / sizeof sizes[0]))

static ism_belief belief;

/* The true opponent board of the player to move. */
static void truth_of(const hx_game *g, int player, uint8_t *opp)
{
    for (int i = 0; i < hx_cells(g); i++)
        opp[i] = hx_owner(g, i) == (player ^ 1) + 1;
}

static void belief_holds_the_truth_and_only_consistent_boards(void **state)
{
    (void)state;
    hx_game g;
    rng_state rng, draw;
    rng_seed(&rng, 21);
    rng_seed(&draw, 22);
    uint8_t opp[HX_MAX_CELLS], sample[HX_MAX_CELLS];
    long failed_by[3] = { 0 }; /* by draw: uniform, centre at 2.5, centre at 5 */
    long positions = 0, samples = 0, failed = 0, moved = 0, dropped = 0, extra = 0, ranged = 0;
    for (int v = 0; v < HX_VARIANT_COUNT; v++) {
        for (int game = 0; game < 120; game++) {
            int k = game % N_SIZES;
            hx_new(&g, (hx_variant)v, sizes[k][0], sizes[k][1], 0);
            while (!hx_over(&g)) {
                int p = hx_to_move(&g), cells = hx_cells(&g);
                ism_belief_of_game(&belief, &g, p);
                truth_of(&g, p, opp);
                positions++;
                if (!ism_consistent(&belief, opp))
                    fail_msg("%s %dx%d attempt %d: the true board is ruled out (hidden %d, bounds %d..%d)",
                             hx_variant_name((hx_variant)v), hx_rows(&g), hx_cols(&g), hx_num_attempts(&g),
                             hx_hidden(&g, p), belief.hidden_lo, belief.hidden_hi);
                ranged += belief.hidden_hi > belief.hidden_lo;
                /* Boards that contradict an observation are ruled out. */
                int own = -1, hidden = -1, known = -1, empty = -1;
                for (int i = 0; i < cells; i++) {
                    int view = hx_view(&g, p, i);
                    if (view == HX_VIEW_OWN)
                        own = i;
                    else if (view == HX_VIEW_OPPONENT)
                        known = i;
                    else if (opp[i])
                        hidden = i;
                    else
                        empty = i;
                }
                if (own >= 0 && hidden >= 0) { /* a hidden stone moved onto one of the player's */
                    opp[hidden] = 0, opp[own] = 1;
                    assert_false(ism_consistent(&belief, opp));
                    opp[hidden] = 1, opp[own] = 0;
                    moved++;
                }
                if (known >= 0) { /* a learned stone missing */
                    opp[known] = 0;
                    assert_false(ism_consistent(&belief, opp));
                    opp[known] = 1;
                    dropped++;
                }
                if (empty >= 0 && belief.hidden_lo == belief.hidden_hi) { /* one stone too many */
                    opp[empty] = 1;
                    assert_false(ism_consistent(&belief, opp));
                    opp[empty] = 0;
                    extra++;
                }
                /* The opponent connected on every unknown cell is never consistent. */
                for (int i = 0; i < cells; i++)
                    sample[i] = hx_view(&g, p, i) != HX_VIEW_OWN;
                if (ism_joins(hx_rows(&g), hx_cols(&g), p ^ 1, sample))
                    assert_false(ism_consistent(&belief, sample));
                for (int d = 0; d < 3; d++) { /* each cell model: the same boards are possible */
                    ism_belief_weigh(&belief, d == 0 ? ISM_CELLS_UNIFORM : ISM_CELLS_CENTRE, 2.5 * d, d == 2 ? 3 : 0);
                    int h = ism_sample(&belief, &draw, sample);
                    samples++;
                    if (h < 0) {
                        failed++, failed_by[d]++;
                        continue;
                    }
                    if (!ism_consistent(&belief, sample))
                        fail_msg("%s %dx%d: a sample contradicts the observations",
                                 hx_variant_name((hx_variant)v), hx_rows(&g), hx_cols(&g));
                    for (int i = 0; i < cells; i++) {
                        int view = hx_view(&g, p, i);
                        assert_false(view == HX_VIEW_OWN && sample[i]);
                        assert_false(view == HX_VIEW_OPPONENT && !sample[i]);
                    }
                }
                hx_attempt(&g, hx_random_legal(&g, &rng));
            }
        }
    }
    print_message("%ld positions, %ld samples (%ld found none), perturbed: %ld moved, %ld dropped, %ld extra; "
                  "%ld with an uncertain count; found none: %ld uniform, %ld centre 2.5, %ld centre 5\n", positions,
                  samples, failed, moved, dropped, extra, ranged, failed_by[0], failed_by[1], failed_by[2]);
    assert_true(moved > 1000 && dropped > 1000 && extra > 1000 && ranged > 100);
    assert_true(failed * 100 < samples);
}

/* The centre model draws each hidden stone by its weight: one hidden stone on an empty 5x5 view (White to
 * move after Black's first stone) lands on each cell as often as its weight's share says, the centre more
 * than three times as often as a corner. */
static void cell_models_draw_by_their_weights(void **state)
{
    (void)state;
    uint8_t view[HX_MAX_CELLS], opp[HX_MAX_CELLS];
    rng_state rng;
    rng_seed(&rng, 9);
    memset(view, HX_VIEW_UNKNOWN, sizeof view);
    enum { N = 200000 };
    for (int m = ISM_CELLS_CENTRE; m <= ISM_CELLS_CENTRE; m++) {
        hx_event none[1] = { { .kind = HX_EV_PLACED, .cell = 0 } };
        ism_belief_init(&belief, HX_CLASSICAL, 5, 5, HX_WHITE, view, none, 0);
        assert_int_equal(belief.hidden_lo, 1);
        assert_int_equal(belief.hidden_hi, 1);
        ism_belief_weigh(&belief, (ism_cell_model)m, 2.5, 0);
        assert_int_equal(belief.model, m);
        long count[HX_MAX_CELLS] = { 0 };
        for (int d = 0; d < N; d++) {
            assert_int_equal(ism_sample(&belief, &rng, opp), 1);
            for (int i = 0; i < 25; i++)
                count[i] += opp[i];
        }
        for (int k = 0; k < belief.n_unknown; k++) { /* unknown[] is every cell in order here */
            double sum = 0;
            for (int j = 0; j < belief.n_unknown; j++)
                sum += belief.weight[j];
            double p = belief.weight[k] / sum;
            double f = (double)count[belief.unknown[k]] / N, sd = sqrt(p * (1 - p) / N);
            if (fabs(f - p) > 5 * sd + 1e-4)
                fail_msg("%s: cell %d drawn %.5f of the time, its weight says %.5f", ism_cell_model_name(m),
                         belief.unknown[k], f, p);
        }
        if (m == ISM_CELLS_CENTRE)
            assert_true(count[12] > 3 * count[0] && count[12] > 3 * count[24]);
    }
    /* beta 0 and the uniform model draw uniformly; names round-trip. */
    ism_belief_weigh(&belief, ISM_CELLS_CENTRE, 0, 0);
    assert_int_equal(belief.model, ISM_CELLS_UNIFORM);
    for (int m = ISM_CELLS_UNIFORM; m <= ISM_CELLS_CENTRE; m++)
        assert_int_equal(ism_cell_model_of(ism_cell_model_name((ism_cell_model)m)), m);
    assert_int_equal(ism_cell_model_of("center"), -1);
}

/* The bot's default cell model: uniform in the classical family on boards of at most 12 cells (either
 * orientation), the centre model in the abrupt family, in hex and on larger boards. */
static void default_cell_model_by_variant_and_board(void **state)
{
    (void)state;
    static const struct {
        hx_variant v;
        int rows, cols;
        ism_cell_model want;
    } cases[] = {
        { HX_CLASSICAL, 3, 3, ISM_CELLS_UNIFORM },       { HX_CLASSICAL, 4, 3, ISM_CELLS_UNIFORM },
        { HX_CLASSICAL, 3, 4, ISM_CELLS_UNIFORM },       { HX_CLASSICAL, 2, 6, ISM_CELLS_UNIFORM },
        { HX_CLASSICAL_NOISY, 4, 3, ISM_CELLS_UNIFORM }, { HX_CLASSICAL_FLASH, 3, 3, ISM_CELLS_UNIFORM },
        { HX_CLASSICAL, 4, 4, ISM_CELLS_CENTRE },        { HX_CLASSICAL, 2, 7, ISM_CELLS_CENTRE },
        { HX_CLASSICAL, 5, 5, ISM_CELLS_CENTRE },        { HX_ABRUPT, 3, 3, ISM_CELLS_CENTRE },
        { HX_ABRUPT, 4, 3, ISM_CELLS_CENTRE },           { HX_ABRUPT_NOISY, 2, 2, ISM_CELLS_CENTRE },
        { HX_ABRUPT_FLASH, 3, 4, ISM_CELLS_CENTRE },     { HX_HEX, 3, 3, ISM_CELLS_CENTRE },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (ism_cells_default(cases[i].v, cases[i].rows, cases[i].cols) != cases[i].want)
            fail_msg("%s %dx%d: the default model should be %s", hx_variant_name(cases[i].v), cases[i].rows,
                     cases[i].cols, ism_cell_model_name(cases[i].want));
}

/* The hints: in classical-flash 5x5, Black learns White's stone at c3 (cell 12) and is told White attempted its
 * stone at a1 (cell 0); the hints are exactly the unknown cells next to those two, and with `near` 3 each is
 * drawn four times as often as any other cell (uniform model), and on top of the centre model's weight. */
static void hints_weigh_where_the_opponent_builds(void **state)
{
    (void)state;
    hx_game g;
    hx_new(&g, HX_CLASSICAL_FLASH, 5, 5, 0);
    static const int moves[] = { 0, 0, 12, 12, 24, 18 }; /* B a1; W a1 (hit), W c3; B c3 (rejected), B e5; W */
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++)
        assert_true(hx_attempt(&g, moves[i]) >= 0);
    assert_int_equal(hx_to_move(&g), HX_BLACK);
    ism_belief_of_game(&belief, &g, HX_BLACK);
    static const int expect[] = { 1, 5, 7, 8, 11, 13, 16, 17 };
    uint8_t want[HX_MAX_CELLS] = { 0 };
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++)
        want[expect[i]] = 1;
    for (int i = 0; i < 25; i++)
        if (belief.hint[i] != want[i])
            fail_msg("cell %d: hint %d, expected %d", i, belief.hint[i], want[i]);
    assert_int_equal(belief.hidden_lo, 1);
    rng_state rng;
    rng_seed(&rng, 11);
    uint8_t opp[HX_MAX_CELLS];
    enum { N = 200000 };
    for (int m = ISM_CELLS_UNIFORM; m <= ISM_CELLS_CENTRE; m++) {
        ism_belief_weigh(&belief, (ism_cell_model)m, 2.5, 3);
        assert_true(belief.weighted);
        double sum = 0;
        for (int k = 0; k < belief.n_unknown; k++) {
            int c = belief.unknown[k];
            double base = m == ISM_CELLS_UNIFORM ? 1 : ism_centre_weight(5, 5, c, 2.5);
            assert_true(fabs(belief.weight[k] - base * (want[c] ? 4 : 1)) < 1e-12 * base);
            sum += belief.weight[k];
        }
        long count[HX_MAX_CELLS] = { 0 };
        for (int d = 0; d < N; d++) {
            assert_int_equal(ism_sample(&belief, &rng, opp), 1);
            assert_true(opp[12] && !opp[0] && !opp[24]);
            for (int i = 0; i < 25; i++)
                count[i] += opp[i] && i != 12;
        }
        for (int k = 0; k < belief.n_unknown; k++) {
            double p = belief.weight[k] / sum, f = (double)count[belief.unknown[k]] / N;
            if (fabs(f - p) > 5 * sqrt(p * (1 - p) / N) + 1e-4)
                fail_msg("%s+near: cell %d drawn %.5f of the time, its weight says %.5f",
                         ism_cell_model_name((ism_cell_model)m), belief.unknown[k], f, p);
        }
    }
    ism_belief_weigh(&belief, ISM_CELLS_UNIFORM, 0, 0); /* no model and no hints: the uniform draw */
    assert_false(belief.weighted);
}

/* Plain abrupt: the count's weights sum to one and the true count has weight. */
static void abrupt_count_weights(void **state)
{
    (void)state;
    hx_game g;
    rng_state rng;
    rng_seed(&rng, 5);
    for (int game = 0; game < 200; game++) {
        hx_new(&g, HX_ABRUPT, 5, 5, 0);
        while (!hx_over(&g)) {
            int p = hx_to_move(&g);
            ism_belief_of_game(&belief, &g, p);
            double sum = 0;
            for (int h = 0; h <= hx_cells(&g); h++)
                sum += belief.hidden_weight[h];
            assert_true(sum > 0.999 && sum < 1.001);
            assert_true(belief.hidden_weight[hx_hidden(&g, p)] > 0);
            hx_attempt(&g, hx_random_legal(&g, &rng));
        }
    }
}

/* One game of the search (`iters` iterations a move, seed `seed`) against a random player; every move it makes
 * is checked legal and unknown in its view. Writes its moves to `moves` (when not NULL) and returns the winner. */
static int play_game(ism_search *s, hx_variant v, int rows, int cols, int color, long iters, uint64_t seed,
                     uint16_t *moves, int *n_moves)
{
    hx_game g;
    rng_state rng, opp;
    rng_seed(&rng, seed);
    rng_seed(&opp, seed * 7 + 1);
    hx_new(&g, v, rows, cols, 0);
    ism_options o = { .iterations = iters, .uct = 0.7, .rave = (v % 2) ? 300 : 0, .opp_centre = (v % 3) ? 2.5 : 0,
                      .resist = (v % 4 == 1) ? 4 : 0, .resist_boards = 4, .opp_grow = (v % 3 == 1) ? 0.5 : 1,
                      .opp_goal = (v % 2) ? 1 : 0 };
    int n = 0;
    while (!hx_over(&g)) {
        if (hx_to_move(&g) != color) {
            hx_attempt(&g, hx_random_legal(&g, &opp));
            continue;
        }
        ism_belief_of_game(&belief, &g, color);
        ism_belief_weigh(&belief, ISM_CELLS_CENTRE, (v % 2) ? 2.5 : 0, (v % 3) ? 0 : 2);
        int c = ism_choose(s, &belief, &o, &rng, NULL);
        if (c < 0 || c >= hx_cells(&g) || hx_view(&g, color, c) != HX_VIEW_UNKNOWN || hx_check(&g, c) != 0)
            fail_msg("%s %dx%d: ismcts chose %d, not an unknown cell", hx_variant_name(v), rows, cols, c);
        if (moves)
            moves[n] = (uint16_t)c;
        n++;
        hx_attempt(&g, c);
    }
    if (n_moves)
        *n_moves = n;
    return hx_winner(&g);
}

static void plays_legal_cells_and_beats_random(void **state)
{
    (void)state;
    ism_search *s = ism_search_new();
    assert_non_null(s);
    int games = 0, wins = 0;
    for (int v = 0; v < HX_VARIANT_COUNT; v++)
        for (int k = 0; k < 5; k++) {
            static const int b[5][2] = { { 2, 2 }, { 3, 3 }, { 4, 3 }, { 4, 4 }, { 5, 5 } };
            for (int color = 0; color < 2; color++) {
                wins += play_game(s, (hx_variant)v, b[k][0], b[k][1], color, 60, 100 + (uint64_t)(v * 10 + k),
                                  NULL, NULL) == color;
                games++;
            }
        }
    print_message("ismcts (60 iterations) beat random in %d of %d games\n", wins, games);
    assert_true(wins * 10 >= games * 7);
    ism_search_free(s);
}

static void replays_from_its_seed(void **state)
{
    (void)state;
    ism_search *s = ism_search_new();
    assert_non_null(s);
    static uint16_t a[HX_MAX_ATTEMPTS], b[HX_MAX_ATTEMPTS];
    int na = 0, nb = 0;
    for (int v = 0; v < HX_VARIANT_COUNT; v++) {
        play_game(s, (hx_variant)v, 5, 5, HX_BLACK, 80, 9, a, &na);
        play_game(s, (hx_variant)v, 5, 5, HX_BLACK, 80, 9, b, &nb);
        assert_int_equal(na, nb);
        assert_memory_equal(a, b, sizeof a[0] * (size_t)na);
    }
    ism_search_free(s);
}

/* Black on 4x4 with a1, a2, a3 placed (column a) plays a4 at once; so does the search, whatever its budget. */
static void plays_an_immediate_connection(void **state)
{
    (void)state;
    ism_search *s = ism_search_new();
    assert_non_null(s);
    hx_game g;
    rng_state rng;
    rng_seed(&rng, 3);
    for (int v = 0; v < HX_VARIANT_COUNT; v++) {
        hx_new(&g, (hx_variant)v, 4, 4, 0);
        static const int script[] = { 0, 3, 4, 7, 8, 11 }; /* a1 d1 a2 d2 a3 d3 */
        for (int i = 0; i < 6; i++)
            assert_true(hx_attempt(&g, script[i]) >= 0);
        ism_belief_of_game(&belief, &g, HX_BLACK);
        assert_int_equal(ism_connecting_cell(&belief), 12);
        ism_options o = { .iterations = 1, .uct = 0.7 };
        assert_int_equal(ism_choose(s, &belief, &o, &rng, NULL), 12);
    }
    ism_search_free(s);
}

/* --mix: the move drawn by the root's visit counts. From the empty abrupt 3x3 board, over 40 seeds with the
 * same budget of iterations, the drawn moves are unknown cells spread over more cells than the most visited
 * ones are; a very sharp mix (T = 0.001) plays the most visited cell of the same tree (the same seed), and in
 * `hex` the option changes nothing. */
static void mixes_its_move_by_visits(void **state)
{
    (void)state;
    ism_search *s = ism_search_new();
    assert_non_null(s);
    bool most[HX_MAX_CELLS] = { 0 }, mixed[HX_MAX_CELLS] = { 0 };
    int n_most = 0, n_mixed = 0;
    for (int v = 0; v < 2; v++) {
        hx_game g;
        hx_new(&g, v ? HX_HEX : HX_ABRUPT, 3, 3, 0);
        ism_belief_of_game(&belief, &g, HX_BLACK);
        for (int seed = 1; seed <= 40; seed++) {
            ism_options o = { .iterations = 2000, .uct = 0.7, .rave = 3000, .pivot = 8 };
            rng_state rng;
            rng_seed(&rng, (uint64_t)seed);
            int a = ism_choose(s, &belief, &o, &rng, NULL);
            o.mix = 0.001;
            rng_seed(&rng, (uint64_t)seed);
            assert_int_equal(ism_choose(s, &belief, &o, &rng, NULL), a);
            o.mix = 1;
            rng_seed(&rng, (uint64_t)seed);
            int m = ism_choose(s, &belief, &o, &rng, NULL);
            assert_true(m >= 0 && m < 9);
            if (v) {
                assert_int_equal(m, a);
                continue;
            }
            n_most += !most[a], most[a] = true;
            n_mixed += !mixed[m], mixed[m] = true;
        }
    }
    print_message("abrupt 3x3, 40 seeds: %d cells most visited, %d drawn with --mix 1\n", n_most, n_mixed);
    assert_true(n_mixed >= n_most + 2);
    ism_search_free(s);
}

/* ismpolicy.h: a file's state is sampled by its probabilities (a 30/70 state over 20,000 draws) in a game of its
 * variant and board from the empty board; from an opening, in another variant or board, at a state it does not
 * list, or when the listed cell is not legal, the search's turn (-1, the random stream untouched). A file with
 * view keys, a second file of one game and a missing file are refused. */
static void plays_policy_files_where_they_list_the_state(void **state)
{
    (void)state;
    char dir[] = "/tmp/ismpolicy-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128], path2[128], view[128], err[600];
    snprintf(path, sizeof path, "%s/a.pol", dir);
    snprintf(path2, sizeof path2, "%s/b.pol", dir);
    snprintf(view, sizeof view, "%s/v.pol", dir);
    hx_event after[1] = { { .kind = HX_EV_PLACED, .cell = 4 } };
    for (int k = 0; k < 3; k++) {
        pf_meta m = { .variant = HX_ABRUPT, .rows = 3, .cols = 3, .keys = k == 2 ? PF_KEYS_VIEW : PF_KEYS_PERFECT,
                      .exploitability = NAN };
        snprintf(m.algo, sizeof m.algo, "certificate");
        pf_writer *w = pf_writer_new(&m);
        assert_non_null(w);
        uint16_t root[2] = { 1, 7 }, next[1] = { 0 };
        assert_int_equal(pf_writer_add(w, 0, hx_events_hash(NULL, 0), 2, root, (double[]){ 0.3, 0.7 }), 0);
        assert_int_equal(pf_writer_add(w, 0, hx_events_hash(after, 1), 1, next, (double[]){ 1 }), 0);
        assert_int_equal(pf_writer_save(w, k == 0 ? path : k == 1 ? path2 : view, err, sizeof err), 0);
        pf_writer_free(w);
    }
    ism_policies *p = ism_policies_new();
    assert_non_null(p);
    assert_int_equal(ism_policies_load(p, path, false, err, sizeof err), 0);
    assert_int_equal(ism_policies_load(p, path2, false, err, sizeof err), -1);
    assert_non_null(strstr(err, "a second policy for 3x3 abrupt"));
    assert_int_equal(ism_policies_load(p, view, false, err, sizeof err), -1);
    assert_non_null(strstr(err, "view keys"));
    assert_int_equal(ism_policies_load(p, "/nonexistent/x.pol", false, err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/x.pol"));
    assert_int_equal(ism_policies_count(p), 1);
    uint16_t legal[9] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };
    rng_state rng;
    rng_seed(&rng, 5);
    int counts[9] = { 0 };
    for (int i = 0; i < 20000; i++) {
        int c = ism_policies_choose(p, HX_ABRUPT, 3, 3, false, 0, 0, NULL, 0, legal, 9, &rng);
        assert_true(c == 1 || c == 7);
        counts[c]++;
    }
    assert_true(fabs(counts[1] / 20000.0 - 0.3) < 0.015);
    assert_int_equal(ism_policies_choose(p, HX_ABRUPT, 3, 3, false, 0, 0, after, 1, legal + 1, 8, &rng), -1); /* a1 taken */
    assert_int_equal(ism_policies_choose(p, HX_ABRUPT, 3, 3, false, 0, 0, after, 1, legal, 9, &rng), 0);
    rng_state before = rng;
    assert_int_equal(ism_policies_choose(p, HX_ABRUPT, 3, 3, false, 2, 0, NULL, 0, legal, 9, &rng), -1); /* an opening */
    assert_int_equal(ism_policies_choose(p, HX_CLASSICAL, 3, 3, false, 0, 0, NULL, 0, legal, 9, &rng), -1);
    assert_int_equal(ism_policies_choose(p, HX_ABRUPT, 3, 4, false, 0, 0, NULL, 0, legal, 9, &rng), -1);
    assert_int_equal(ism_policies_choose(p, HX_ABRUPT, 3, 3, false, 0, 1, NULL, 0, legal, 9, &rng), -1); /* White's */
    assert_memory_equal(&before, &rng, sizeof rng);
    assert_int_equal(ism_policies_choose(NULL, HX_ABRUPT, 3, 3, false, 0, 0, NULL, 0, legal, 9, &rng), -1);
    ism_policies_free(p);
    p = ism_policies_new();
    assert_int_equal(ism_policies_load(p, dir, true, err, sizeof err), -1); /* a.pol then b.pol: one game twice */
    ism_policies_free(p);
    assert_int_equal(remove(path2), 0);
    assert_int_equal(remove(view), 0);
    p = ism_policies_new();
    assert_int_equal(ism_policies_load(p, dir, true, err, sizeof err), 0);
    assert_int_equal(ism_policies_count(p), 1);
    ism_policies_free(p);
    assert_int_equal(remove(path), 0);
    p = ism_policies_new();
    assert_int_equal(ism_policies_load(p, dir, true, err, sizeof err), -1);
    assert_non_null(strstr(err, "no .pol files"));
    ism_policies_free(p);
    assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(belief_holds_the_truth_and_only_consistent_boards),
        cmocka_unit_test(cell_models_draw_by_their_weights),
        cmocka_unit_test(default_cell_model_by_variant_and_board),
        cmocka_unit_test(hints_weigh_where_the_opponent_builds),
        cmocka_unit_test(abrupt_count_weights),
        cmocka_unit_test(plays_legal_cells_and_beats_random),
        cmocka_unit_test(replays_from_its_seed),
        cmocka_unit_test(plays_an_immediate_connection),
        cmocka_unit_test(mixes_its_move_by_visits),
        cmocka_unit_test(plays_policy_files_where_they_list_the_state),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
