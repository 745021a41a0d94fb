/* tests/unit/test_dowalk.c — the tree-free double oracle (dowalk.h) and `arena solve --method double-oracle
 * --walk`. The best response to a mixture of pure strategies equals bestresponse.c's on the built tree
 * against the behaviour strategy realisation-equivalent to that mixture (computed here from the tree), and
 * the strategy it returns earns that value against the mixture when played out; the solver's bounds meet at
 * the tree-based double oracle's value (doracle.h) on every board where that one finishes in seconds (2x2 in
 * the six dark variants, abrupt 3x2 and 2x3, classical 3x2 and 2x3), bracketing it at every iteration; the
 * certificate of its mixtures (dowalk_cert.h) is verified by the checker with the solver's bounds (exactly the
 * value when they met, the reported interval when a limit stopped it); the command prints strict JSON with the
 * same value and writes a certificate that `arena classify --check` verifies; the default cell is a function
 * of the player's view, legal, and takes a winning cell; the certificate of mixtures of more members than cells
 * is verified with their bounds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bestresponse.h"
#include "darkhex.h"
#include "doracle.h"
#include "dowalk.h"
#include "dowalk_cert.h"
#include "dwdefault.h"
#include "mixcert_kit.h"
#include "test_sys.h"
#include "test_util.h"
#include "valcert.h"
#include "variant.h"

static const hx_variant dark[] = { HX_CLASSICAL, HX_ABRUPT, HX_CLASSICAL_NOISY, HX_CLASSICAL_FLASH, HX_ABRUPT_NOISY,
                                   HX_ABRUPT_FLASH };

static void build(hx_variant v, int rows, int cols, sv_tree *t)
{
    sv_darkhex p = { .variant = v, .rows = rows, .cols = cols };
    efg_game g;
    sv_darkhex_game(&g, &p);
    assert_int_equal(sv_tree_build(t, &g, 1u << 25, false), 0);
}

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Marks the information states of player o that choice[] (an action index per information state) reaches. */
static void reach(const sv_tree *t, uint32_t h, int o, const uint8_t *choice, uint8_t *mark)
{
    const sv_node *n = &t->nodes[h];
    if (n->player == EFG_TERMINAL)
        return;
    if (n->player == o) {
        mark[n->infoset] = 1;
        reach(t, n->first + choice[n->infoset], o, choice, mark);
        return;
    }
    for (uint32_t c = 0; c < n->n; c++)
        reach(t, n->first + c, o, choice, mark);
}

/* For each information state of player o, the index of its default cell (dwdefault.h), replaying the tree's
 * histories on the rules engine from g at node h. */
static void defaults(const sv_tree *t, uint32_t h, const hx_game *g, int o, uint8_t *def)
{
    const sv_node *n = &t->nodes[h];
    if (n->player == EFG_TERMINAL)
        return;
    const sv_infoset *is = &t->infosets[n->infoset];
    int cell = n->player == o ? dw_default(g) : -1;
    for (uint32_t c = 0; c < n->n; c++) {
        if (t->actions[is->offset + c] == cell)
            def[n->infoset] = (uint8_t)c;
        hx_game next = *g;
        assert_int_equal(hx_attempt(&next, t->actions[is->offset + c]) >= 0, 1);
        defaults(t, n->first + c, &next, o, def);
    }
}

enum { K = 4 };

/* Player p's best response to a random mixture of K random pure strategies of the other. */
static void br_against_mixture(hx_variant v, int rows, int cols, int p, uint64_t seed)
{
    sv_tree t;
    build(v, rows, cols, &t);
    int o = 1 - p;
    uint32_t ni = t.n_infosets;
    uint8_t *choice[K], *mark[K], *def = calloc(ni, 1);
    hx_game g;
    assert_true(def && hx_new(&g, v, rows, cols, 0) == 0);
    defaults(&t, 0, &g, o, def);
    dw_pure *opp[K];
    double w[K], total = 0;
    for (int j = 0; j < K; j++) {
        choice[j] = calloc(ni, 1);
        mark[j] = calloc(ni, 1);
        opp[j] = dw_pure_new();
        assert_true(choice[j] && mark[j] && opp[j]);
        for (uint32_t k = 0; k < ni; k++) {
            const sv_infoset *is = &t.infosets[k];
            if (is->player != o)
                continue;
            choice[j][k] = (uint8_t)(rnd(&seed) % is->n);
            /* the default cell need not be stored: store only some states, as a best response does */
            if (choice[j][k] != def[k] || rnd(&seed) % 2)
                assert_int_equal(dw_pure_set(opp[j], is->key, t.actions[is->offset + choice[j][k]]), 0);
        }
        reach(&t, 0, o, choice[j], mark[j]);
        w[j] = j == 2 ? 0.0 : (double)(1 + rnd(&seed) % 100); /* one member of weight 0 */
        total += w[j];
    }
    double *policy = malloc(sizeof *policy * t.n_actions);
    assert_non_null(policy);
    for (uint32_t k = 0; k < ni; k++) {
        const sv_infoset *is = &t.infosets[k];
        double sum = 0;
        if (is->player == o)
            for (int j = 0; j < K; j++)
                sum += mark[j][k] ? w[j] : 0;
        for (int a = 0; a < is->n; a++) {
            double q = 0;
            if (sum > 0)
                for (int j = 0; j < K; j++)
                    q += mark[j][k] && choice[j][k] == a ? w[j] : 0;
            policy[is->offset + a] = sum > 0 ? q / sum : 1.0 / is->n;
        }
    }
    sv_eval e;
    assert_int_equal(sv_evaluate(&t, policy, &e), 0);
    double value;
    dw_pure *br = NULL;
    uint64_t states = 0;
    char err[300] = "";
    if (dw_best_response(v, rows, cols, p, (const dw_pure *const *)opp, w, K, &value, &br, &states, err,
                         sizeof err) != 0)
        fail_msg("dw_best_response: %s", err);
    assert_true(fabs(value - e.br[p]) < 1e-9);
    assert_true(states >= 1 && states <= t.infosets_of[p]);
    /* the strategy returned earns the value against the mixture */
    double earned = 0;
    for (int j = 0; j < K; j++) {
        double u = p == 0 ? dw_payoff(v, rows, cols, br, opp[j], NULL) : -dw_payoff(v, rows, cols, opp[j], br, NULL);
        earned += w[j] / total * u;
    }
    assert_true(fabs(earned - value) < 1e-9);
    assert_true(dw_pure_size(br) >= 1 && dw_pure_size(br) <= states);
    dw_pure_free(br);
    for (int j = 0; j < K; j++) {
        free(choice[j]);
        free(mark[j]);
        dw_pure_free(opp[j]);
    }
    free(policy);
    free(def);
    sv_tree_free(&t);
}

static void best_response_equals_the_tree(void **state)
{
    (void)state;
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    for (size_t i = 0; i < sizeof dark / sizeof dark[0]; i++)
        for (int p = 0; p < 2; p++)
            for (int rep = 0; rep < 3; rep++)
                br_against_mixture(dark[i], 2, 2, p, rnd(&seed));
    for (int p = 0; p < 2; p++) {
        br_against_mixture(HX_CLASSICAL, 3, 2, p, rnd(&seed));
        br_against_mixture(HX_ABRUPT, 2, 3, p, rnd(&seed));
        br_against_mixture(HX_ABRUPT_FLASH, 3, 2, p, rnd(&seed));
    }
}

typedef struct {
    double value;
    int calls, bad;
} bracket;

static void check_bracket(void *ctx, const do_progress_info *p)
{
    bracket *b = ctx;
    b->calls++;
    if (p->lower > b->value + 1e-9 || p->upper < b->value - 1e-9 || p->lower > p->upper + 1e-12)
        b->bad++;
}

static void against_tree(hx_variant v, int rows, int cols)
{
    sv_tree t;
    build(v, rows, cols, &t);
    do_options o;
    do_options_default(&o);
    do_result tr;
    char err[300] = "";
    if (do_solve(&t, &o, NULL, &tr, err, sizeof err) != 0)
        fail_msg("do_solve: %s", err);
    assert_true(tr.converged);
    sv_tree_free(&t);
    bracket b = { .value = tr.lower };
    dw_options wo;
    dw_options_default(&wo);
    wo.progress = check_bracket;
    wo.ctx = &b;
    dw_mixture mix[2] = { { 0 }, { 0 } };
    wo.keep = mix;
    dw_result r;
    if (dw_solve(v, rows, cols, &wo, &r, err, sizeof err) != 0)
        fail_msg("dw_solve: %s", err);
    mixcert_check(v, rows, cols, mix, tr.lower, r.lower, r.upper);
    print_message("%-16s %dx%d tree %+.12f, walk [%+.12f, %+.12f] in %d iterations, sets %u / %u, %llu states\n",
                  hx_variant_name(v), rows, cols, tr.lower, r.lower, r.upper, r.iterations, r.strategies[0],
                  r.strategies[1], (unsigned long long)r.states);
    assert_true(r.converged);
    assert_true(fabs(r.lower - tr.lower) < 1e-9 && fabs(r.upper - tr.upper) < 1e-9);
    assert_true(fabs(r.value - tr.value) < 1e-9);
    assert_int_equal(b.calls, r.iterations);
    assert_int_equal(b.bad, 0);
    assert_true(r.support[0] >= 1 && r.support[0] <= r.strategies[0]);
    assert_true(r.support[1] >= 1 && r.support[1] <= r.strategies[1]);
}

static void values_equal_the_tree(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof dark / sizeof dark[0]; i++)
        against_tree(dark[i], 2, 2);
    against_tree(HX_ABRUPT, 3, 2);
    against_tree(HX_ABRUPT, 2, 3);
    against_tree(HX_CLASSICAL, 3, 2);
    against_tree(HX_CLASSICAL, 2, 3);
}

static void refuses_and_limits(void **state)
{
    (void)state;
    dw_options o;
    dw_options_default(&o);
    dw_result r;
    char err[300] = "";
    assert_int_equal(dw_solve(HX_HEX, 2, 2, &o, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "dark"));
    assert_int_equal(dw_solve(HX_ABRUPT, 4, 5, &o, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "16 cells"));
    o.max_iterations = 1;
    assert_int_equal(dw_solve(HX_ABRUPT, 2, 2, &o, &r, err, sizeof err), 0);
    assert_int_equal(r.iterations, 1);
    assert_false(r.converged);
    assert_true(r.lower <= 0.5 + 1e-12 && r.upper >= 0.5 - 1e-12); /* abrupt 2x2: test_doracle's LP value */
    /* stopped early, the certificate proves the interval the solver reported, not more */
    for (int it = 5; it <= 40; it += 35) {
        dw_mixture mix[2] = { { 0 }, { 0 } };
        o.max_iterations = it;
        o.keep = mix;
        assert_int_equal(dw_solve(HX_ABRUPT, 3, 2, &o, &r, err, sizeof err), 0);
        assert_false(r.converged);
        assert_true(mix[0].k >= 1 && mix[1].k >= 1);
        mixcert_check(HX_ABRUPT, 3, 2, mix, -0.125, r.lower, r.upper);
    }
}

E2E_FIXTURE(dir, "dowalk")

static void arena_solve_walk(void **state)
{
    (void)state;
    char cmd[1600];
    snprintf(cmd, sizeof cmd, "%s/arena solve --variant abrupt --board 3x2 --method double-oracle --walk --json", bin);
    char *json = sh_output(cmd), *text;
    strict_json("arena solve --method double-oracle --walk --json", json);
    sv_tree t;
    build(HX_ABRUPT, 3, 2, &t);
    do_options o;
    do_options_default(&o);
    do_result tr;
    char err[300] = "";
    assert_int_equal(do_solve(&t, &o, NULL, &tr, err, sizeof err), 0);
    sv_tree_free(&t);
    assert_true(fabs(json_number(json, "value") - tr.value) < 1e-9);
    assert_true(fabs(json_number(json, "lower") - tr.lower) < 1e-9);
    assert_true(fabs(json_number(json, "upper") - tr.upper) < 1e-9);
    assert_non_null(strstr(json, "\"converged\":true"));
    assert_non_null(strstr(json, "\"walk\":true"));
    assert_non_null(strstr(json, "\"certificate\":null"));
    free(json);
    snprintf(cmd, sizeof cmd, "cd %s && %s/arena solve --variant abrupt --board 3x2 --method double-oracle --walk "
             "--certificate w.value --json", dir, bin);
    json = sh_output(cmd);
    strict_json("arena solve --walk --certificate --json", json);
    assert_non_null(strstr(json, "\"lower\":\"-1/8\",\"upper\":\"-1/8\",\"exact\":true"));
    free(json);
    snprintf(cmd, sizeof cmd, "cd %s && %s/arena classify --check w.value", dir, bin);
    text = sh_output(cmd);
    assert_non_null(strstr(text, "verified: value -1/8"));
    free(text);
    snprintf(cmd, sizeof cmd, "%s/arena solve --variant abrupt --board 2x2 --method double-oracle --walk "
             "--max-iterations 1 --format text || true", bin);
    text = sh_output(cmd);
    assert_non_null(strstr(text, "not solved (a limit)"));
    free(text);
    static const char *bad[] = { "--variant hex --board 2x2", "--variant abrupt --board 4x5",
                                 "--variant abrupt --board 2x2 --out x.pol", "--variant abrupt --board 2x2 --method dual" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(cmd, sizeof cmd, "cd %s && %s/arena solve --method double-oracle %s --walk >/dev/null 2>&1", dir, bin,
                 bad[i]);
        assert_int_equal(sh_run("%s", cmd), 2);
    }
}

typedef struct {
    uint64_t view;
    int cell;
} seen_default;

static int by_view(const void *x, const void *y)
{
    const seen_default *a = x, *b = y;
    return a->view < b->view ? -1 : a->view > b->view ? 1 : a->cell - b->cell;
}

/* The default cell (dwdefault.h): the centre of an empty board; a winning cell when the player's view has one;
 * the same cell for the same view whatever the opponent hides; always legal. */
static void default_cell(void **state)
{
    (void)state;
    hx_game g;
    assert_int_equal(hx_new(&g, HX_CLASSICAL, 3, 3, 0), 0);
    assert_int_equal(dw_default(&g), 4);
    hx_game a = g, b = g;
    hx_attempt(&a, 0), hx_attempt(&a, 2), hx_attempt(&a, 3), hx_attempt(&a, 5); /* Black a1, a2; White c1, c2 */
    assert_int_equal(dw_default(&a), 6); /* a3 joins Black's sides */
    hx_attempt(&b, 0), hx_attempt(&b, 8), hx_attempt(&b, 3), hx_attempt(&b, 7); /* White's stones elsewhere */
    assert_int_equal(dw_default(&b), 6);
    for (int vi = 0; vi < 6; vi++) {
        enum { N = 20000 };
        seen_default *seen = malloc(sizeof *seen * N);
        assert_non_null(seen);
        rng_state r;
        rng_seed(&r, 7 + (uint64_t)vi);
        int n = 0;
        while (n < N) {
            hx_game h;
            assert_int_equal(hx_new(&h, dark[vi], 3, 4, 0), 0);
            while (!hx_over(&h) && n < N) {
                int c = dw_default(&h);
                assert_int_equal(hx_check(&h, c), 0);
                seen[n++] = (seen_default){ hx_view_key(&h, hx_to_move(&h)), c };
                hx_attempt(&h, hx_random_legal(&h, &r));
            }
        }
        qsort(seen, N, sizeof *seen, by_view);
        int repeated = 0;
        for (int i = 1; i < N; i++)
            if (seen[i].view == seen[i - 1].view) {
                assert_int_equal(seen[i].cell, seen[i - 1].cell);
                repeated++;
            }
        assert_true(repeated > N / 10); /* the same views came back often enough to compare */
        free(seen);
    }
}

/* The spread default (dwdefault.h): always a legal cell and never the swap; the same for the same key and salt;
 * different salts spread over several cells; a strategy with a salt plays it where it stores nothing, and its
 * stored cells where it does. */
static void spread_default(void **state)
{
    (void)state;
    for (int vi = 0; vi < 6; vi++) {
        rng_state r;
        rng_seed(&r, 11 + (uint64_t)vi);
        int states = 0, spread = 0;
        while (states < 2000) {
            hx_game h;
            assert_int_equal(hx_new(&h, dark[vi], 3, 3, 0), 0);
            while (!hx_over(&h)) {
                uint64_t key = hx_key_fingerprint(&h, hx_to_move(&h));
                uint32_t seen = 0;
                for (uint32_t salt = 1; salt <= 8; salt++) {
                    int c = dw_default_spread(&h, key, salt);
                    assert_int_equal(hx_check(&h, c), 0);
                    assert_true(c < 9);
                    assert_int_equal(dw_default_spread(&h, key, salt), c);
                    seen |= 1u << c;
                }
                uint16_t legal[HX_MAX_CELLS + 1];
                spread += hx_legal(&h, legal) > 1 && __builtin_popcount(seen) > 1;
                states++;
                hx_attempt(&h, hx_random_legal(&h, &r));
            }
        }
        assert_true(spread > states / 2); /* most states with a choice get more than one cell from 8 salts */
    }
    hx_game g;
    assert_int_equal(hx_new(&g, HX_ABRUPT, 3, 3, 0), 0);
    uint64_t key = hx_key_fingerprint(&g, 0);
    dw_pure *s = dw_pure_new();
    assert_non_null(s);
    assert_int_equal(dw_pure_play(s, &g, NULL), dw_default(&g));
    dw_pure_set_salt(s, 5);
    assert_int_equal(dw_pure_play(s, &g, NULL), dw_default_spread(&g, key, 5));
    assert_int_equal(dw_pure_set(s, key, 7), 0);
    assert_int_equal(dw_pure_play(s, &g, NULL), 7);
    dw_pure_free(s);
}

/* Mixtures of more members than the board has cells (the sequence oracle's kept mixtures grow to hundreds):
 * their certificate is verified with the bounds their exact best responses give, and holds the value of
 * abrupt 2x2, +1/2. */
static void certificate_of_a_large_mixture(void **state)
{
    (void)state;
    enum { MEMBERS = 2 * HX_MAX_CELLS + 50 };
    const hx_variant v = HX_ABRUPT;
    sv_tree t;
    build(v, 2, 2, &t);
    uint64_t seed = 7;
    dw_mixture mix[2];
    for (int p = 0; p < 2; p++) {
        mix[p].k = MEMBERS;
        mix[p].member = malloc(sizeof *mix[p].member * MEMBERS);
        mix[p].weight = malloc(sizeof *mix[p].weight * MEMBERS);
        assert_true(mix[p].member && mix[p].weight);
        double total = 0;
        for (int j = 0; j < MEMBERS; j++) {
            assert_non_null(mix[p].member[j] = dw_pure_new());
            for (uint32_t k = 0; k < t.n_infosets; k++) {
                const sv_infoset *is = &t.infosets[k];
                if (is->player == p)
                    assert_int_equal(dw_pure_set(mix[p].member[j], is->key,
                                                 t.actions[is->offset + rnd(&seed) % (uint64_t)is->n]), 0);
            }
            total += mix[p].weight[j] = (double)(1 + rnd(&seed) % 1000);
        }
        for (int j = 0; j < MEMBERS; j++)
            mix[p].weight[j] /= total;
    }
    double br[2];
    char err[300] = "";
    for (int p = 0; p < 2; p++) {
        dw_pure *s = NULL;
        uint64_t states = 0;
        const dw_mixture *o = &mix[1 - p];
        if (dw_best_response(v, 2, 2, p, (const dw_pure *const *)o->member, o->weight, o->k, &br[p], &s, &states,
                             err, sizeof err) != 0)
            fail_msg("dw_best_response: %s", err);
        dw_pure_free(s);
    }
    /* random mixtures are far from optimal: the bounds are wide but not trivial */
    assert_true(-br[1] < 0.5 && br[0] > 0.5 && -br[1] > -1 && br[0] < 1);
    mixcert_check(v, 2, 2, mix, 0.5, -br[1], br[0]);
    sv_tree_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(best_response_equals_the_tree),
        cmocka_unit_test(values_equal_the_tree),
        cmocka_unit_test(refuses_and_limits),
        cmocka_unit_test(default_cell),
        cmocka_unit_test(spread_default),
        cmocka_unit_test(arena_solve_walk),
        cmocka_unit_test(certificate_of_a_large_mixture),
    };
    return cmocka_run_group_tests(tests, e2e_setup, e2e_teardown);
}
