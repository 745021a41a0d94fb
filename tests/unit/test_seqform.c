/* tests/unit/test_seqform.c — the sequence-form LP (seqform.h) and `arena solve`: games with known values
 * (a biased matching pennies, value 1/5 with both players mixing 2/5 : 3/5; Kuhn poker, value -1/18);
 * every variant on 2x2 (with the hex swap rule too) and hex and classical on 3x2 and 2x3: the LP value
 * equals CFR+'s to 1e-6 once CFR+ has converged (NashConv < 1e-6, so its value is known to 1e-6 without
 * the LP) and lies between CFR+'s two best responses, the LP strategies' exact exploitability is below
 * 1e-6 (also when one player's LP is solved and the other's plan read from its duals), and the known results (2x2 classical and hex are sure wins for Black, 2x2 abrupt is not).
 * `arena solve` prints strict JSON, its policy file loads in `arena exploit` and policy-bot. COIN-OR CLP
 * (--solver clp) gives GLPK's values and strategies as unexploitable, each LP alone too, on 2x2 in every
 * variant and on 3x2 and 2x3 classical. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bestresponse.h"
#include "cfr.h"
#include "darkhex.h"
#include "kuhn.h"
#include "seqform.h"
#include "test_sys.h"
#include "test_util.h"
#include "variant.h"

/* Matching pennies where (H, H) pays 2, (T, T) 1 and a mismatch -1 to player 0; player 1 does not see
 * player 0's coin. Equilibrium: both play H with 2/5, value 1/5. */
typedef struct {
    int8_t moves, coin[2];
} mp_state;

static void mp_root(const efg_game *g, void *s)
{
    (void)g;
    *(mp_state *)s = (mp_state){ 0 };
}

static int mp_player(const efg_game *g, const void *s)
{
    (void)g;
    int m = ((const mp_state *)s)->moves;
    return m == 2 ? EFG_TERMINAL : m;
}

static double mp_utility(const efg_game *g, const void *state)
{
    (void)g;
    const mp_state *s = state;
    if (s->coin[0] != s->coin[1])
        return -1;
    return s->coin[0] == 0 ? 2 : 1;
}

static int mp_actions(const efg_game *g, const void *s, uint16_t *out, double *probs)
{
    (void)g;
    (void)s;
    (void)probs;
    out[0] = 0; /* heads */
    out[1] = 1; /* tails */
    return 2;
}

static void mp_apply(const efg_game *g, void *dst, const void *src, int action)
{
    (void)g;
    mp_state *d = dst;
    *d = *(const mp_state *)src;
    d->coin[d->moves++] = (int8_t)action;
}

static uint64_t mp_infoset(const efg_game *g, const void *s)
{
    (void)g;
    return 1 + (uint64_t)((const mp_state *)s)->moves; /* player 1 knows only that it is its turn */
}

/* Solves t with both LPs (only < 0) or only player `only`'s, the other's plan from the duals. */
static double *solve_lp(const sv_tree *t, int only, sf_result *r)
{
    double *policy = malloc(sizeof *policy * t->n_actions);
    assert_non_null(policy);
    char err[300] = "";
    sf_options o;
    sf_options_default(&o);
    o.only = only;
    if (sf_solve(t, &o, policy, r, err, sizeof err) != 0)
        fail_msg("sf_solve: %s", err);
    assert_true(r->gap < 1e-9);
    for (uint32_t k = 0; k < t->n_infosets; k++) { /* a legal distribution everywhere */
        double sum = 0;
        for (int a = 0; a < t->infosets[k].n; a++) {
            double p = policy[t->infosets[k].offset + a];
            assert_true(p >= 0 && p <= 1);
            sum += p;
        }
        assert_true(fabs(sum - 1) < 1e-12);
    }
    return policy;
}

static double *solve(const sv_tree *t, sf_result *r) { return solve_lp(t, -1, r); }

/* The whole tree of variant v on a rows x cols board (perfect-recall keys). */
static void dark_tree(sv_tree *t, hx_variant v, int rows, int cols)
{
    sv_darkhex p = { .variant = v, .rows = rows, .cols = cols };
    efg_game g;
    sv_darkhex_game(&g, &p);
    assert_int_equal(sv_tree_build(t, &g, 1u << 24, false), 0);
}

static double exploitability(const sv_tree *t, const double *policy, double *ev0)
{
    sv_eval e;
    assert_int_equal(sv_evaluate(t, policy, &e), 0);
    if (ev0)
        *ev0 = e.ev0;
    return e.exploitability;
}

static void known_small_games(void **state)
{
    (void)state;
    efg_game mp = { .state_size = sizeof(mp_state), .root = mp_root, .player = mp_player, .utility = mp_utility,
                    .actions = mp_actions, .apply = mp_apply, .infoset = mp_infoset };
    sv_tree t;
    assert_int_equal(sv_tree_build(&t, &mp, 100, false), 0);
    sf_result r;
    double *p = solve(&t, &r), ev;
    assert_true(fabs(r.value - 0.2) < 1e-9);
    assert_int_equal(r.lp[0].sequences, 3);
    assert_int_equal(r.lp[1].sequences, 3);
    assert_int_equal(r.payoff_nonzeros, 4);
    for (uint32_t k = 0; k < t.n_infosets; k++)
        assert_true(fabs(p[t.infosets[k].offset] - 0.4) < 1e-9); /* heads with 2/5, both players */
    assert_true(exploitability(&t, p, &ev) < 1e-9);
    assert_true(fabs(ev - 0.2) < 1e-9);
    free(p);
    sv_tree_free(&t);

    efg_game kuhn = kuhn_game();
    assert_int_equal(sv_tree_build(&t, &kuhn, 1000, false), 0);
    p = solve(&t, &r);
    print_message("Kuhn poker: LP value %.12f (-1/18 = %.12f), %u + %u sequences, %llu payoff nonzeros\n", r.value,
                  -1.0 / 18, r.lp[0].sequences, r.lp[1].sequences, (unsigned long long)r.payoff_nonzeros);
    assert_true(fabs(r.value + 1.0 / 18) < 1e-9);
    assert_int_equal(r.lp[0].sequences, 13); /* the empty sequence and 6 information states x 2 actions */
    assert_true(exploitability(&t, p, &ev) < 1e-9);
    assert_true(fabs(ev + 1.0 / 18) < 1e-9);
    free(p);
    for (int only = 0; only < 2; only++) { /* one LP, the other plan from its duals (chance in the payoffs) */
        p = solve_lp(&t, only, &r);
        assert_int_equal(r.lp[1 - only].iterations, 0);
        assert_true(fabs(r.value + 1.0 / 18) < 1e-9);
        assert_true(exploitability(&t, p, NULL) < 1e-9);
        free(p);
    }
    sv_tree_free(&t);

    /* view keys merge information states: not perfect recall, refused */
    sv_darkhex dh = { .variant = HX_CLASSICAL, .rows = 2, .cols = 2 };
    efg_game g;
    sv_darkhex_game(&g, &dh);
    assert_int_equal(sv_tree_build(&t, &g, 1u << 20, true), 0);
    double *q = malloc(sizeof *q * t.n_actions);
    char err[300] = "";
    assert_int_equal(sf_solve(&t, NULL, q, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "perfect recall"));
    free(q);
    sv_tree_free(&t);
}

/* CFR+ until its own certificate says converged (NashConv < 1e-6): the LP value must lie between CFR+'s
 * best responses at every check, and equal CFR+'s value to 1e-6 at the end. Returns the iterations. */
static long cfr_agrees(const sv_tree *t, double value, const char *name)
{
    sv_cfr c;
    assert_int_equal(sv_cfr_init(&c, t, SV_CFR_PLUS), 0);
    double *avg = malloc(sizeof *avg * t->n_actions);
    assert_non_null(avg);
    sv_eval e = { .nashconv = 1 };
    long i = 0;
    while (e.nashconv >= 1e-6 && i < 16384) {
        for (int k = 0; k < 256; k++)
            sv_cfr_iterate(&c);
        i += 256;
        sv_cfr_average(&c, avg);
        assert_int_equal(sv_evaluate(t, avg, &e), 0);
        if (value < -e.br[1] - 1e-9 || value > e.br[0] + 1e-9)
            fail_msg("%s: LP value %.12f outside CFR+'s bounds [%.12f, %.12f] after %ld iterations", name, value,
                     -e.br[1], e.br[0], i);
    }
    if (e.nashconv >= 1e-6 || fabs(e.ev0 - value) >= 1e-6)
        fail_msg("%s: CFR+ after %ld iterations: value %.12f, NashConv %.3g; LP value %.12f", name, i, e.ev0,
                 e.nashconv, value);
    free(avg);
    sv_cfr_free(&c);
    return i;
}

static void solve_against_cfr(hx_variant v, int rows, int cols, unsigned flags, double *value)
{
    sv_darkhex p = { .variant = v, .rows = rows, .cols = cols, .flags = flags };
    efg_game g;
    sv_darkhex_game(&g, &p);
    sv_tree t;
    assert_int_equal(sv_tree_build(&t, &g, 1u << 24, false), 0);
    sf_result r;
    double *policy = solve(&t, &r), ev;
    double x = exploitability(&t, policy, &ev);
    char name[64];
    snprintf(name, sizeof name, "%dx%d %s%s", rows, cols, hx_variant_name(v), flags ? " swap" : "");
    if (x >= 1e-6 || fabs(ev - r.value) >= 1e-6)
        fail_msg("%s: LP strategies exploitability %.3g, value %.12f, their ev %.12f", name, x, r.value, ev);
    for (int only = 0; only < 2; only++) { /* one LP and its duals give an equilibrium too */
        sf_result r1;
        double *p1 = solve_lp(&t, only, &r1);
        double x1 = exploitability(&t, p1, NULL);
        if (x1 >= 1e-6 || fabs(r1.value - r.value) >= 1e-9)
            fail_msg("%s: %s's LP alone: value %.12f, exploitability %.3g", name, only ? "White" : "Black", r1.value, x1);
        free(p1);
    }
    long iters = cfr_agrees(&t, r.value, name);
    print_message("%-22s LP value %+.9f (%u + %u sequences, %llu nonzeros, %.2f s), exploitability %.1e; CFR+ "
                  "agrees after %ld iterations\n", name, r.value, r.lp[0].sequences, r.lp[1].sequences,
                  (unsigned long long)r.lp[0].nonzeros, r.lp[0].seconds + r.lp[1].seconds, x, iters);
    *value = r.value;
    free(policy);
    sv_tree_free(&t);
}

static void every_variant_on_2x2(void **state)
{
    (void)state;
    for (hx_variant v = HX_HEX; v <= HX_ABRUPT_FLASH; v++) {
        double value;
        solve_against_cfr(v, 2, 2, 0, &value);
        if (v == HX_HEX || v == HX_CLASSICAL)
            assert_true(fabs(value - 1) < 1e-9); /* rules.md: a sure win for Black */
        if (v == HX_ABRUPT)
            assert_true(value < 1 - 1e-3); /* rules.md: not a sure win */
    }
    double swap;
    solve_against_cfr(HX_HEX, 2, 2, HX_SWAP_RULE, &swap);
    assert_true(fabs(swap + 1) < 1e-9); /* White swaps Black's winning first stone */
}

/* The variants whose LP GLPK solves in seconds on 3x2 and 2x3 (the others take minutes: docs/solver.md). */
static void hex_and_classical_on_six_cells(void **state)
{
    (void)state;
    double value;
    for (hx_variant v = HX_HEX; v <= HX_CLASSICAL; v++) {
        solve_against_cfr(v, 3, 2, 0, &value);
        assert_true(fabs(value + 1) < 1e-9); /* three rows to cross in two columns: White wins */
        solve_against_cfr(v, 2, 3, 0, &value);
        assert_true(fabs(value - 1) < 1e-9);
    }
}

E2E_FIXTURE(dir, "seqform")

static void arena_solve_writes_a_policy(void **state)
{
    (void)state;
    char cmd[1600];
    snprintf(cmd, sizeof cmd, "%s/arena solve --variant classical --board 2x2 --json --out %s/lp.pol", bin, dir);
    char *json = sh_output(cmd);
    strict_json("arena solve --json", json);
    assert_true(fabs(json_number(json, "value") - 1) < 1e-9);
    assert_true(json_number(json, "exploitability") < 1e-6);
    assert_true(json_number(json, "exploitability_file") < 1e-6);
    assert_true(json_number(json, "sequences") > 1);
    free(json);
    snprintf(cmd, sizeof cmd, "%s/arena exploit %s/lp.pol --json", bin, dir);
    json = sh_output(cmd);
    strict_json("arena exploit --json", json);
    assert_true(json_number(json, "exploitability") < 1e-6);
    assert_true(json_number(json, "missing_black") == 0 && json_number(json, "missing_white") == 0);
    free(json);
    char pol[100];
    snprintf(pol, sizeof pol, "%s/lp.pol", dir);
    assert_int_equal(policy_bot_black_wins_2x2(bin, dir, pol), 20); /* the equilibrium wins every game */

    snprintf(cmd, sizeof cmd, "%s/arena solve --variant abrupt --board 2x2 --format text --out %s/ab.pol", bin, dir);
    char *text = sh_output(cmd);
    assert_non_null(strstr(text, "value           +0.500000000000"));
    assert_non_null(strstr(text, "exploitability"));
    free(text);
    snprintf(cmd, sizeof cmd, "%s/arena exploit %s/ab.pol --json", bin, dir);
    json = sh_output(cmd);
    assert_true(fabs(json_number(json, "ev_black") - 0.5) < 1e-6);
    assert_true(json_number(json, "exploitability") < 1e-6);
    free(json);

    static const char *bad[] = { "--variant classical", "--board 2x2", "--variant nope --board 2x2",
                                 "--variant classical --board 2x2 --method simplex",
                                 "--variant classical --board 2x2 --max-nodes 0" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(cmd, sizeof cmd, "%s/arena solve %s >/dev/null 2>&1", bin, bad[i]);
        assert_int_equal(sh_run("%s", cmd), 2);
    }
    snprintf(cmd, sizeof cmd, "%s/arena solve --variant classical --board 3x2 --max-nodes 1000 >/dev/null 2>&1", bin);
    assert_int_equal(sh_run("%s", cmd), 1); /* the tree does not fit */
}

/* CLP against GLPK: the same values, strategies of exploitability below 1e-9 (both LPs, or one with the
 * other plan from its duals). */
static void clp_matches_glpk(void **state)
{
    (void)state;
    static const struct { hx_variant v; int r, c; } cases[] = {
        { HX_HEX, 2, 2 }, { HX_CLASSICAL, 2, 2 }, { HX_ABRUPT, 2, 2 }, { HX_CLASSICAL_NOISY, 2, 2 },
        { HX_CLASSICAL_FLASH, 2, 2 }, { HX_ABRUPT_NOISY, 2, 2 }, { HX_ABRUPT_FLASH, 2, 2 },
        { HX_CLASSICAL, 3, 2 }, { HX_CLASSICAL, 2, 3 } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sv_tree t;
        dark_tree(&t, cases[i].v, cases[i].r, cases[i].c);
        sf_result glpk, clp;
        double *pol = solve(&t, &glpk);
        free(pol);
        for (int only = -1; only < 2; only++) {
            sf_options o;
            sf_options_default(&o);
            o.solver = SF_CLP;
            o.only = only;
            double *q = malloc(sizeof *q * t.n_actions);
            char err[300];
            assert_non_null(q);
            if (sf_solve(&t, &o, q, &clp, err, sizeof err) != 0)
                fail_msg("%s", err);
            assert_true(fabs(clp.value - glpk.value) < 1e-9);
            assert_true(exploitability(&t, q, NULL) < 1e-9);
            free(q);
        }
        sv_tree_free(&t);
    }
}

/* A basis carried over (sf_options.warm): the same LP again starts at its optimum (no simplex iteration) with
 * the same value; a basis left by other games (another variant and board, whose keys partly coincide and
 * whose basis has the wrong size here) still gives the exact value. */
static void a_warm_basis_carries_over(void **state)
{
    (void)state;
    static const struct { hx_variant v; int r, c; } cases[] = {
        { HX_CLASSICAL, 2, 2 }, { HX_ABRUPT, 2, 2 }, { HX_ABRUPT_NOISY, 2, 2 }, { HX_CLASSICAL_FLASH, 2, 2 },
        { HX_CLASSICAL, 3, 2 }, { HX_CLASSICAL, 2, 3 } };
    sf_basis *shared = sf_basis_new(); /* one basis across all the cases, in turn */
    assert_non_null(shared);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sv_tree t;
        dark_tree(&t, cases[i].v, cases[i].r, cases[i].c);
        sf_result glpk;
        free(solve(&t, &glpk));
        sf_basis *own = sf_basis_new();
        assert_non_null(own);
        for (int run = 0; run < 3; run++) {
            sf_options o;
            sf_options_default(&o);
            o.solver = SF_CLP;
            o.only = 0;
            o.warm = run == 2 ? shared : own;
            double *q = malloc(sizeof *q * t.n_actions);
            assert_non_null(q);
            sf_result r;
            char err[300];
            if (sf_solve(&t, &o, q, &r, err, sizeof err) != 0)
                fail_msg("%s", err);
            double tol = run == 2 ? 1e-8 : 1e-9; /* from a foreign basis, the simplex ends within its tolerance */
            if (fabs(r.value - glpk.value) >= tol || exploitability(&t, q, NULL) >= tol)
                fail_msg("%s %dx%d, %s basis: value %.12f (GLPK %.12f), exploitability %.3g after %d iterations",
                         hx_variant_name(cases[i].v), cases[i].r, cases[i].c, run == 2 ? "a foreign" : "its own",
                         r.value, glpk.value, exploitability(&t, q, NULL), r.lp[0].iterations);
            if (run == 0)
                assert_true(r.lp[0].iterations > 0);
            if (run == 1) /* its own optimal basis */
                assert_int_equal(r.lp[0].iterations, 0);
            free(q);
        }
        sf_basis_free(own);
        sv_tree_free(&t);
    }
    sf_basis_free(shared);
    sf_basis_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(known_small_games),
        cmocka_unit_test(every_variant_on_2x2),
        cmocka_unit_test(hex_and_classical_on_six_cells),
        cmocka_unit_test(arena_solve_writes_a_policy),
        cmocka_unit_test(clp_matches_glpk),
        cmocka_unit_test(a_warm_basis_carries_over),
    };
    return cmocka_run_group_tests(tests, e2e_setup, e2e_teardown);
}
