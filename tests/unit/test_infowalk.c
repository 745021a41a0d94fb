/* tests/unit/test_infowalk.c — the information-state walk (arena/solver/infowalk.h) against the flat tree
 * (br.h) on every board whose tree is small: the same expected value, best responses and information-state
 * counts for the uniform policy in all six dark variants, for trained policies (perfect-recall and view
 * keys), whatever the thread count; a file whose entries list other cells is refused; states missing
 * from a file are played uniformly and counted. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bestresponse.h"
#include "cfr.h"
#include "darkhex.h"
#include "infowalk.h"
#include "policy.h"
#include "test_sys.h"
#include "test_util.h"

E2E_FIXTURE(dir, "dh-infowalk")

static void build(sv_tree *t, hx_variant v, int rows, int cols, bool view)
{
    static sv_darkhex p;
    static efg_game g;
    p = (sv_darkhex){ .variant = v, .rows = rows, .cols = cols };
    sv_darkhex_game(&g, &p);
    assert_int_equal(sv_tree_build(t, &g, 1u << 24, view), 0);
}

static void walk(hx_variant v, int rows, int cols, const pf_policy *b, const pf_policy *w, int threads,
                 iw_result *r)
{
    char err[300];
    if (iw_evaluate(v, rows, cols, b, w, threads, NULL, NULL, r, err, sizeof err) != 0)
        fail_msg("%s", err);
}

static void assert_same(const sv_eval *e, const iw_result *r, double tol)
{
    assert_true(fabs(e->ev0 - r->ev_black) <= tol);
    assert_true(fabs(e->ev0 + r->ev_white) <= tol);
    assert_true(fabs(e->br[0] - r->br[0]) <= tol);
    assert_true(fabs(e->br[1] - r->br[1]) <= tol);
    assert_true(fabs(e->exploitability - r->exploitability) <= tol);
}

static const hx_variant dark[] = { HX_CLASSICAL, HX_ABRUPT, HX_CLASSICAL_NOISY, HX_CLASSICAL_FLASH,
                                   HX_ABRUPT_NOISY, HX_ABRUPT_FLASH };
static const int boards[][2] = { { 2, 2 }, { 3, 2 }, { 2, 3 } };

static void uniform_policy_matches_the_tree(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof dark / sizeof *dark; i++)
        for (size_t b = 0; b < 3; b++) {
            sv_tree t;
            build(&t, dark[i], boards[b][0], boards[b][1], false);
            double *u = malloc(sizeof *u * t.n_actions);
            assert_non_null(u);
            sv_uniform(&t, u);
            sv_eval e;
            assert_int_equal(sv_evaluate(&t, u, &e), 0);
            iw_result r;
            walk(dark[i], boards[b][0], boards[b][1], NULL, NULL, 2, &r);
            assert_same(&e, &r, 1e-12);
            assert_int_equal(r.infosets[0], t.infosets_of[0]);
            assert_int_equal(r.infosets[1], t.infosets_of[1]);
            assert_int_equal(r.missing[0] + r.missing[1], 0);
            if (b == 1)
                print_message("%dx%d %s uniform: exploitability %.9f, %llu pairs\n", boards[b][0], boards[b][1],
                              hx_variant_name(dark[i]), r.exploitability, (unsigned long long)r.pairs);
            free(u);
            sv_tree_free(&t);
        }
}

/* CFR+ for `iterations` on the game, saved to a file and loaded back (view keys when `view`). */
static void trained_file(pf_policy *pol, sv_tree *t, double *probs_out, hx_variant v, int rows, int cols,
                         bool view, int iterations)
{
    build(t, v, rows, cols, view);
    sv_cfr c;
    assert_int_equal(sv_cfr_init(&c, t, SV_CFR_PLUS), 0);
    for (int i = 0; i < iterations; i++)
        sv_cfr_iterate(&c);
    sv_cfr_average(&c, probs_out);
    sv_cfr_free(&c);
    pf_meta m = { .variant = v, .rows = rows, .cols = cols, .keys = view ? PF_KEYS_VIEW : PF_KEYS_PERFECT,
                  .algo = "cfr+", .iterations = (uint64_t)iterations, .exploitability = NAN };
    char path[160], err[300];
    snprintf(path, sizeof path, "%s/%s-%dx%d-%d.pol", dir, hx_variant_name(v), rows, cols, view);
    assert_int_equal(pf_save_tree(t, probs_out, &m, path, err, sizeof err), 0);
    if (pf_load(pol, path, err, sizeof err) != 0)
        fail_msg("%s", err);
}

static void trained_policies_match_the_tree(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof dark / sizeof *dark; i++)
        for (int view = 0; view < 2; view++) {
            sv_tree t;
            double *probs = malloc(sizeof *probs * (1u << 20));
            assert_non_null(probs);
            pf_policy pol;
            int rows = i % 2 ? 2 : 3, cols = 5 - rows;
            trained_file(&pol, &t, probs, dark[i], rows, cols, view, 30);
            if (view) { /* evaluated on the perfect-recall tree, where best responses are not tied by views */
                sv_tree_free(&t);
                build(&t, dark[i], rows, cols, false);
            }
            /* The tree evaluates the policy as read back from the file (float probabilities). */
            uint32_t missing[2];
            char err[300];
            assert_int_equal(pf_on_tree(&pol, &pol, &t, probs, missing, err, sizeof err), 0);
            sv_eval e;
            assert_int_equal(sv_evaluate(&t, probs, &e), 0);
            iw_result r;
            walk(dark[i], rows, cols, &pol, &pol, 2, &r);
            assert_same(&e, &r, 1e-9);
            assert_int_equal(r.missing[0] + r.missing[1], 0);
            assert_true(e.exploitability > 1e-6); /* a policy a best response can still exploit */
            /* Only states reached with positive opponent probability are walked. */
            assert_true(r.infosets[0] <= t.infosets_of[0]);
            assert_true(r.infosets[1] <= t.infosets_of[1]);
            /* Black's part against White's part of another policy: only White's walk sees the change. */
            iw_result u;
            walk(dark[i], rows, cols, &pol, NULL, 1, &u);
            assert_true(fabs(u.br[1] - r.br[1]) <= 1e-12);
            if (dark[i] == HX_CLASSICAL) /* 3x2: White wins against Black's part, uniform White does not */
                assert_true(u.ev_black > r.ev_black + 1.0);
            assert_true(u.br[0] >= u.ev_black - 1e-12);
            pf_close(&pol);
            free(probs);
            sv_tree_free(&t);
        }
}

static void thread_count_does_not_change_the_result(void **state)
{
    (void)state;
    sv_tree t;
    double *probs = malloc(sizeof *probs * (1u << 20));
    assert_non_null(probs);
    pf_policy pol;
    trained_file(&pol, &t, probs, HX_ABRUPT, 3, 2, false, 20);
    iw_result a, b;
    walk(HX_ABRUPT, 3, 2, &pol, &pol, 1, &a);
    walk(HX_ABRUPT, 3, 2, &pol, &pol, 5, &b);
    assert_memory_equal(&a, &b, sizeof a);
    walk(HX_ABRUPT, 3, 2, NULL, NULL, 1, &a); /* the uniform walk merges opponent states */
    walk(HX_ABRUPT, 3, 2, NULL, NULL, 5, &b);
    assert_memory_equal(&a, &b, sizeof a);
    pf_close(&pol);
    free(probs);
    sv_tree_free(&t);
}

static void save(pf_writer *w, pf_policy *pol, const char *name)
{
    char path[160], err[300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    assert_int_equal(pf_writer_save(w, path, err, sizeof err), 0);
    pf_writer_free(w);
    if (pf_load(pol, path, err, sizeof err) != 0)
        fail_msg("%s", err);
}

static void foreign_entries_are_refused_and_missing_ones_counted(void **state)
{
    (void)state;
    pf_meta m = { .variant = HX_CLASSICAL, .rows = 2, .cols = 2, .algo = "hand", .exploitability = NAN };
    uint16_t cells[4] = { 0, 1, 2, 3 };
    double probs[4] = { 1, 1, 1, 1 };
    uint64_t root = hx_key_finish(HX_KEY_SEED);

    /* Black's first state lists two of its four cells. */
    pf_writer *w = pf_writer_new(&m);
    assert_int_equal(pf_writer_add(w, 0, root, 2, cells, probs), 0);
    pf_policy pol;
    save(w, &pol, "short.pol");
    iw_result r;
    char err[300] = "";
    assert_int_equal(iw_evaluate(HX_CLASSICAL, 2, 2, &pol, &pol, 2, NULL, NULL, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "another game"));
    pf_close(&pol);

    /* Only Black's first state is in the file: the rest is uniform, and counted. */
    w = pf_writer_new(&m);
    assert_int_equal(pf_writer_add(w, 0, root, 4, cells, probs), 0);
    save(w, &pol, "root.pol");
    iw_result u;
    walk(HX_CLASSICAL, 2, 2, &pol, &pol, 2, &r);
    walk(HX_CLASSICAL, 2, 2, NULL, NULL, 2, &u);
    assert_true(fabs(r.exploitability - u.exploitability) < 1e-12);
    assert_int_equal(r.missing[0], u.infosets[0] - 1);
    assert_int_equal(r.missing[1], u.infosets[1]);
    pf_close(&pol);

    const char *why;
    assert_false(iw_supported(HX_HEX, 3, 3, false, &why));
    assert_false(iw_supported(HX_CLASSICAL, 3, 3, true, &why));
    assert_false(iw_supported(HX_ABRUPT, 5, 5, false, &why));
    assert_true(iw_supported(HX_ABRUPT_FLASH, 3, 3, false, &why));
}

/* The uniform policy is walked with opponent states merged when they differ only in their history (their
 * reaches added); a file with perfect-recall keys is walked unmerged. A file whose only entries are never
 * met makes the walk play every state uniformly on the unmerged path: both must give the same values and
 * states, the merged one with fewer (information state, opponent state) pairs. */
static void merged_uniform_walk_matches_the_unmerged_one(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof dark / sizeof *dark; i++)
        for (size_t b = 0; b < 3; b++) {
            int rows = boards[b][0], cols = boards[b][1];
            pf_meta m = { .variant = dark[i], .rows = rows, .cols = cols, .algo = "hand", .exploitability = NAN };
            uint16_t cell = 0;
            double one = 1;
            pf_writer *w = pf_writer_new(&m);
            assert_int_equal(pf_writer_add(w, 0, 1, 1, &cell, &one), 0); /* keys no state has */
            assert_int_equal(pf_writer_add(w, 1, 1, 1, &cell, &one), 0);
            pf_policy pol;
            char name[64];
            snprintf(name, sizeof name, "never-%s-%dx%d.pol", hx_variant_name(dark[i]), rows, cols);
            save(w, &pol, name);
            iw_result u, f;
            walk(dark[i], rows, cols, NULL, NULL, 2, &u);
            walk(dark[i], rows, cols, &pol, &pol, 2, &f);
            assert_true(fabs(u.ev_black - f.ev_black) <= 1e-13);
            assert_true(fabs(u.ev_white - f.ev_white) <= 1e-13);
            assert_true(fabs(u.br[0] - f.br[0]) <= 1e-13);
            assert_true(fabs(u.br[1] - f.br[1]) <= 1e-13);
            assert_int_equal(u.infosets[0], f.infosets[0]);
            assert_int_equal(u.infosets[1], f.infosets[1]);
            assert_int_equal(f.missing[0], f.infosets[0]);
            assert_int_equal(f.missing[1], f.infosets[1]);
            assert_true(u.pairs <= f.pairs);
            if (b == 1) /* 3x2: the merged walk visits fewer pairs */
                assert_true(u.pairs < f.pairs);
            pf_close(&pol);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(uniform_policy_matches_the_tree),
        cmocka_unit_test(trained_policies_match_the_tree),
        cmocka_unit_test(thread_count_does_not_change_the_result),
        cmocka_unit_test(merged_uniform_walk_matches_the_unmerged_one),
        cmocka_unit_test(foreign_entries_are_refused_and_missing_ones_counted),
    };
    return cmocka_run_group_tests(tests, e2e_setup, e2e_teardown);
}
