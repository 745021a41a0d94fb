/* tests/unit/test_infowalk.c — the information-state walk (arena/solver/infowalk.h) against the flat tree
 * (br.h) on every board whose tree is small: the same expected value, best responses and information-state
 * counts for the uniform policy in all six dark variants, for trained policies (perfect-recall and view
 * keys), whatever the thread count; a file whose entries list other cells is refused; states missing
 * from a file are played uniformly and counted, and in a closed file so are the states after them; a
 * policy uniform over whole subtrees is merged with the tree's values; probabilities are normalised. */
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

/* The file's states of player `pl` that come after one of its states missing from keep[] (the test's own
 * pass over the tree, parents before children): after[k] = 1. */
static void after_missing(const sv_tree *t, const uint8_t *keep, int pl, uint8_t *after)
{
    uint8_t *below = calloc(t->n_nodes, 1);
    assert_non_null(below);
    for (uint32_t i = 0; i < t->n_nodes; i++) {
        const sv_node *nd = &t->nodes[i];
        uint8_t b = below[i];
        if (nd->player == pl) {
            after[nd->infoset] |= b;
            b = b || !keep[nd->infoset] || after[nd->infoset];
        }
        for (uint32_t c = 0; c < nd->n; c++)
            below[nd->first + c] = b;
    }
    free(below);
}

/* A game trained for 20 CFR+ iterations: its tree, the trained policy (probs; on: as large, scratch), about
 * one state in 2^bits unmarked by key (keep[k] = 0; never a first state) and after[k] = 1 for the states
 * that come after an unmarked one of the same player. */
typedef struct {
    sv_tree t;
    double *probs, *on;
    uint8_t *keep, *after;
} marked;

static void marked_game(marked *m, hx_variant v, int rows, int cols, int bits)
{
    m->probs = malloc(sizeof *m->probs * (1u << 20));
    m->on = malloc(sizeof *m->on * (1u << 20));
    assert_non_null(m->probs);
    assert_non_null(m->on);
    pf_policy full;
    trained_file(&full, &m->t, m->probs, v, rows, cols, false, 20);
    pf_close(&full);
    const sv_tree *t = &m->t;
    m->keep = malloc(t->n_infosets);
    m->after = calloc(t->n_infosets, 1);
    assert_non_null(m->keep);
    assert_non_null(m->after);
    for (uint32_t k = 0; k < t->n_infosets; k++)
        m->keep[k] = (t->infosets[k].key * 0x9e3779b97f4a7c15ULL) >> (64 - bits) != 0 || t->infosets[k].depth == 0;
    after_missing(t, m->keep, 0, m->after);
    after_missing(t, m->keep, 1, m->after);
}

static void marked_free(marked *m)
{
    free(m->keep);
    free(m->after);
    free(m->probs);
    free(m->on);
    sv_tree_free(&m->t);
}

/* Writes the states of t with keep[k] set (probabilities probs), closed or not, and loads the file. */
static void holey_file(pf_policy *pol, const sv_tree *t, const double *probs, const uint8_t *keep, hx_variant v,
                       int rows, int cols, bool closed, const char *name)
{
    pf_meta m = { .variant = v, .rows = rows, .cols = cols, .keys = PF_KEYS_PERFECT, .closed = closed,
                  .algo = "hand", .exploitability = NAN };
    pf_writer *w = pf_writer_new(&m);
    assert_non_null(w);
    for (uint32_t k = 0; k < t->n_infosets; k++)
        if (keep[k]) {
            const sv_infoset *is = &t->infosets[k];
            assert_int_equal(pf_writer_add(w, is->player, is->key, is->n, t->actions + is->offset,
                                           probs + is->offset), 0);
        }
    save(w, pol, name);
}

/* What the checks below count over the games. */
typedef struct {
    int differ, fewer, games;
} tally;

/* Runs check on every dark variant of the small boards, trained and marked (marked_game, with bits). */
typedef void game_check(marked *m, hx_variant v, int rows, int cols, tally *n);

static void each_marked_game(int bits, game_check *check, tally *n)
{
    for (size_t i = 0; i < sizeof dark / sizeof *dark; i++)
        for (size_t b = 0; b < 3; b++) {
            marked m;
            marked_game(&m, dark[i], boards[b][0], boards[b][1], bits);
            check(&m, dark[i], boards[b][0], boards[b][1], n);
            marked_free(&m);
        }
}

static void check_closed(marked *m, hx_variant v, int rows, int cols, tally *n)
{
    /* Holes: about one state in eight, by key, never both players' first states. */
    sv_tree *t = &m->t;
    double *probs = m->probs, *on = m->on;
    uint8_t *keep = m->keep, *after = m->after;
    char name[96];
    iw_result r[2];
    sv_eval e[2];
    for (int closed = 0; closed < 2; closed++) {
        pf_policy pol;
        snprintf(name, sizeof name, "holes-%d-%s-%dx%d.pol", closed, hx_variant_name(v), rows, cols);
        holey_file(&pol, t, probs, keep, v, rows, cols, closed, name);
        assert_int_equal(pol.meta.closed, closed);
        uint32_t missing[2];
        char err[300];
        assert_int_equal(pf_on_tree(&pol, &pol, t, on, missing, err, sizeof err), 0);
        /* pf_on_tree against the test's own reading of the rule */
        for (uint32_t k = 0; k < t->n_infosets; k++) {
            const sv_infoset *is = &t->infosets[k];
            bool uniform = !keep[k] || (closed && after[k]);
            for (int a = 0; a < is->n; a++)
                assert_true(fabs(on[is->offset + a] - (uniform ? 1.0 / is->n : (float)probs[is->offset + a])) <
                            1e-6);
        }
        assert_int_equal(sv_evaluate(t, on, &e[closed]), 0);
        walk(v, rows, cols, &pol, &pol, 2, &r[closed]);
        assert_same(&e[closed], &r[closed], 1e-9);
        pf_close(&pol);
    }
    n->differ += fabs(r[0].ev_black - r[1].ev_black) > 1e-6 || fabs(r[0].br[0] - r[1].br[0]) > 1e-6 ||
              fabs(r[0].br[1] - r[1].br[1]) > 1e-6;

    /* Closed in fact: every state after a hole removed too. Closed or not, the same values. */
    for (uint32_t k = 0; k < t->n_infosets; k++)
        keep[k] = keep[k] && !after[k];
    for (int closed = 0; closed < 2; closed++) {
        pf_policy pol;
        snprintf(name, sizeof name, "closed-%d-%s-%dx%d.pol", closed, hx_variant_name(v), rows, cols);
        holey_file(&pol, t, probs, keep, v, rows, cols, closed, name);
        walk(v, rows, cols, &pol, &pol, 2, &r[closed]);
        pf_close(&pol);
    }
    assert_true(fabs(r[0].ev_black - r[1].ev_black) <= 1e-12);
    assert_true(fabs(r[0].ev_white - r[1].ev_white) <= 1e-12);
    assert_true(fabs(r[0].br[0] - r[1].br[0]) <= 1e-12);
    assert_true(fabs(r[0].br[1] - r[1].br[1]) <= 1e-12);
    assert_int_equal(r[0].infosets[0], r[1].infosets[0]);
    assert_int_equal(r[0].infosets[1], r[1].infosets[1]);
    assert_true(r[1].pairs <= r[0].pairs);
    assert_true(r[1].missing[0] <= r[0].missing[0] && r[1].missing[1] <= r[0].missing[1]);
    n->fewer += r[1].pairs < r[0].pairs;
    if (rows == 3 && cols == 2)
        print_message("3x2 %s closed file: %llu pairs, %llu open\n", hx_variant_name(v),
                      (unsigned long long)r[1].pairs, (unsigned long long)r[0].pairs);
}

/* A closed file (as sampling trainers write): a state after one missing from the file is played uniformly
 * even when the file lists it, by the walk (which then merges such opponent states), by the tree's
 * evaluation and by policy-bot alike. A file with holes below which states are listed gives other values
 * closed than open, each equal to the tree's; a file that is closed in fact gives the same values either
 * way, the closed walk with fewer pairs. */
static void closed_files_play_uniformly_after_a_missing_state(void **state)
{
    (void)state;
    tally n = { 0, 0, 0 };
    each_marked_game(3, check_closed, &n);
    print_message("holes listed below: %d of 18 games evaluate differently closed; closed in fact: %d of 18 walk "
                  "fewer pairs closed\n", n.differ, n.fewer);
    assert_true(n.differ >= 12);
    assert_true(n.fewer >= 12);
}

/* Writes every state of t with probabilities probs (closed or not) and loads the file. */
static void full_file(pf_policy *pol, const sv_tree *t, const double *probs, hx_variant v, int rows, int cols,
                      bool closed, const char *name)
{
    uint8_t *all = malloc(t->n_infosets);
    assert_non_null(all);
    memset(all, 1, t->n_infosets);
    holey_file(pol, t, probs, all, v, rows, cols, closed, name);
    free(all);
}

static void check_subtrees(marked *m, hx_variant v, int rows, int cols, tally *n)
{
    /* Subtree roots: about one state in four, by key, never a first state; every state below
     * one is uniform too. Some other states alone (one in eight) are uniform above states that
     * are not. */
    sv_tree *t = &m->t;
    double *probs = m->probs, *on = m->on;
    const uint8_t *keep = m->keep, *below = m->after;
    double *flat = malloc(sizeof *flat * t->n_actions), *hair = malloc(sizeof *hair * t->n_actions);
    assert_non_null(flat);
    assert_non_null(hair);
    for (uint32_t k = 0; k < t->n_infosets; k++) {
        const sv_infoset *is = &t->infosets[k];
        bool uniform = !keep[k] || below[k] || (t->infosets[k].key >> 61) == 0;
        for (int a = 0; a < is->n; a++) {
            flat[is->offset + a] = uniform ? 1.0 / is->n : probs[is->offset + a];
            hair[is->offset + a] = uniform ? (1.0 + (a == 0 ? 1e-5 : -1e-5 / (is->n - 1))) / is->n
                                           : probs[is->offset + a];
        }
    }
    iw_result r[2], h;
    sv_eval e;
    char name[96], err[300];
    for (int closed = 0; closed < 2; closed++) {
        pf_policy pol;
        snprintf(name, sizeof name, "flat-%d-%s-%dx%d.pol", closed, hx_variant_name(v), rows, cols);
        full_file(&pol, t, flat, v, rows, cols, closed, name);
        uint32_t missing[2];
        assert_int_equal(pf_on_tree(&pol, &pol, t, on, missing, err, sizeof err), 0);
        assert_int_equal(sv_evaluate(t, on, &e), 0);
        walk(v, rows, cols, &pol, &pol, 2, &r[closed]);
        assert_same(&e, &r[closed], 1e-9);
        pf_close(&pol);
    }
    /* Holes inside the uniform subtrees with states that are not uniform below them: open, the
     * states above a hole are not uniform below (the listed states after it count); closed, they
     * are. Either way the tree's values. */
    uint8_t *listed = malloc(t->n_infosets), *after = calloc(t->n_infosets, 1);
    assert_non_null(listed);
    assert_non_null(after);
    for (uint32_t k = 0; k < t->n_infosets; k++)
        listed[k] = !below[k] || (t->infosets[k].key * 0xd6e8feb86659fd93ULL) >> 62 != 0;
    after_missing(t, listed, 0, after);
    after_missing(t, listed, 1, after);
    for (uint32_t k = 0; k < t->n_infosets; k++)
        if (after[k])
            for (int a = 0; a < t->infosets[k].n; a++)
                hair[t->infosets[k].offset + a] = probs[t->infosets[k].offset + a];
        else
            for (int a = 0; a < t->infosets[k].n; a++)
                hair[t->infosets[k].offset + a] = flat[t->infosets[k].offset + a];
    for (int closed = 0; closed < 2; closed++) {
        pf_policy pol;
        snprintf(name, sizeof name, "flat-holes-%d-%s-%dx%d.pol", closed, hx_variant_name(v), rows,
                 cols);
        holey_file(&pol, t, hair, listed, v, rows, cols, closed, name);
        uint32_t missing[2];
        assert_int_equal(pf_on_tree(&pol, &pol, t, on, missing, err, sizeof err), 0);
        assert_int_equal(sv_evaluate(t, on, &e), 0);
        iw_result x;
        walk(v, rows, cols, &pol, &pol, 2, &x);
        assert_same(&e, &x, 1e-9);
        pf_close(&pol);
    }
    free(listed);
    free(after);
    for (uint32_t k = 0; k < t->n_infosets; k++) {
        const sv_infoset *is = &t->infosets[k];
        bool uniform = !keep[k] || below[k] || (t->infosets[k].key >> 61) == 0;
        for (int a = 0; a < is->n; a++)
            hair[is->offset + a] = uniform ? (1.0 + (a == 0 ? 1e-5 : -1e-5 / (is->n - 1))) / is->n
                                           : probs[is->offset + a];
    }
    pf_policy pol;
    snprintf(name, sizeof name, "hair-%s-%dx%d.pol", hx_variant_name(v), rows, cols);
    full_file(&pol, t, hair, v, rows, cols, true, name);
    walk(v, rows, cols, &pol, &pol, 2, &h);
    pf_close(&pol);
    assert_true(fabs(h.ev_black - r[1].ev_black) < 1e-4);
    assert_true(fabs(h.br[0] - r[1].br[0]) < 1e-4 && fabs(h.br[1] - r[1].br[1]) < 1e-4);
    /* A complete file lists no state a player could miss: open, the walk cannot know that. */
    assert_true(r[1].pairs <= r[0].pairs);
    if (hx_variant_report(v) == HX_REPORT_NONE) {
        n->games++;
        n->fewer += r[1].pairs < h.pairs;
        if (rows == 3 && cols == 2)
            print_message("3x2 %s, uniform subtrees: %llu pairs closed, %llu open, %llu a hair off\n",
                          hx_variant_name(v), (unsigned long long)r[1].pairs,
                          (unsigned long long)r[0].pairs, (unsigned long long)h.pairs);
    } else {
        assert_int_equal(r[1].pairs, h.pairs); /* reports: never merged */
    }
    free(flat);
    free(hair);
}

/* A policy uniform over whole subtrees (as the losing side's part of a trained policy often is) plays
 * uniformly from their first state on: the walk merges the opponent states that reach one (without
 * reports, where a state's successors follow from its key), closed file or not, with the tree's values.
 * The same file with those subtrees a hair off uniform is walked unmerged (more pairs, values within the
 * hair); states uniform above a state that is not are not merged (the values say so). */
static void uniform_subtrees_are_merged(void **state)
{
    (void)state;
    tally n = { 0, 0, 0 };
    each_marked_game(2, check_subtrees, &n);
    print_message("uniform subtrees merged in %d of %d games without reports\n", n.fewer, n.games);
    assert_int_equal(n.fewer, n.games);
}

/* A state's probabilities are normalised as read (a file may sum to 1 within 1e-3): the walk, the tree's
 * reading of the file and the unnormalised probabilities differ measurably, the first two not at all. */
static void probabilities_are_normalised_as_read(void **state)
{
    (void)state;
    marked m;
    marked_game(&m, HX_ABRUPT, 3, 2, 2);
    const sv_tree *t = &m.t;
    for (uint32_t k = 0; k < t->n_infosets; k++) {
        const sv_infoset *is = &t->infosets[k];
        double f = 1 + ((is->key >> 17) & 1 ? 4e-4 : -4e-4);
        for (int a = 0; a < is->n; a++)
            m.probs[is->offset + a] *= f;
    }
    pf_policy pol;
    full_file(&pol, t, m.probs, HX_ABRUPT, 3, 2, false, "off-by-4e-4.pol");
    uint32_t missing[2];
    char err[300];
    assert_int_equal(pf_on_tree(&pol, &pol, t, m.on, missing, err, sizeof err), 0);
    for (uint32_t k = 0; k < t->n_infosets; k++) {
        const sv_infoset *is = &t->infosets[k];
        double sum = 0;
        for (int a = 0; a < is->n; a++)
            sum += m.on[is->offset + a];
        assert_true(fabs(sum - 1) < 1e-12);
    }
    sv_eval e, raw;
    assert_int_equal(sv_evaluate(t, m.on, &e), 0);
    assert_int_equal(sv_evaluate(t, m.probs, &raw), 0);
    iw_result r;
    walk(HX_ABRUPT, 3, 2, &pol, &pol, 2, &r);
    assert_same(&e, &r, 1e-9);
    assert_true(fabs(raw.ev0 - r.ev_black) > 1e-5 || fabs(raw.br[0] - r.br[0]) > 1e-5);
    pf_close(&pol);
    marked_free(&m);
}

/* One player's CFR+ step on the built tree as the oracle of the walk's: from the walk's regrets before
 * the step (both players' current strategies are regret matching on them, `cur`), the tree's pass of
 * `player` (cfr.h) gives the regrets the walk must have after it, and the average strategy's increments,
 * which the tree counts once per history of a state: the walk's must be proportional to them, state by
 * state. Arrays in the tree's layout. */
static void check_step(const sv_tree *t, int player, long it, const float *before, const double *cur,
                       const float *after, const double *sum_before, const double *sum_after, const char *what)
{
    float *r = malloc(sizeof *r * t->n_actions);
    double *s = calloc(t->n_actions, sizeof *s);
    assert_non_null(r);
    assert_non_null(s);
    memcpy(r, before, sizeof *r * t->n_actions);
    sv_cfr_pass(t, player, cur, r, s, (double)it);
    for (uint32_t k = 0; k < t->n_infosets; k++) {
        const sv_infoset *is = &t->infosets[k];
        if (is->player != player)
            continue;
        double tree_total = 0, walk_total = 0;
        for (int a = 0; a < is->n; a++) {
            uint32_t x = is->offset + (uint32_t)a;
            float want = r[x] > 1e-30f ? r[x] : 0; /* CFR+'s floor */
            if (!(fabs(after[x] - want) <= 1e-5 * (1 + fabs(want))))
                fail_msg("%s iteration %ld: %s state %016llx action %d: regret %.9g, the tree's %.9g", what, it,
                         player ? "White" : "Black", (unsigned long long)is->key, a, after[x], want);
            tree_total += s[x];
            walk_total += sum_after[x] - sum_before[x];
        }
        if (tree_total < 1e-12 * (double)it && walk_total < 1e-12 * (double)it)
            continue; /* own reaches of 1e-20 and below: float and double strategies part there */
        if ((tree_total > 0) != (walk_total > 0))
            fail_msg("%s iteration %ld: %s state %016llx (depth %d): average increments %.9g, the tree's %.9g", what,
                     it, player ? "White" : "Black", (unsigned long long)is->key, is->depth, walk_total, tree_total);
        for (int a = 0; a < is->n && tree_total > 0; a++) {
            uint32_t x = is->offset + (uint32_t)a;
            assert_true(fabs((sum_after[x] - sum_before[x]) / walk_total - s[x] / tree_total) < 1e-6); /* float strategies */
        }
    }
    free(r);
    free(s);
}

/* Walk-layout arrays into the tree's layout (idx[k]: the tree's index of the walk table's state k). */
static void to_tree_f(const sv_tree *tab, const sv_tree *t, const int64_t *idx, const float *in, float *out)
{
    for (uint32_t k = 0; k < tab->n_infosets; k++)
        memcpy(out + t->infosets[idx[k]].offset, in + tab->infosets[k].offset, sizeof *out * tab->infosets[k].n);
}

static void to_tree_d(const sv_tree *tab, const sv_tree *t, const int64_t *idx, const double *in, double *out)
{
    for (uint32_t k = 0; k < tab->n_infosets; k++)
        memcpy(out + t->infosets[idx[k]].offset, in + tab->infosets[k].offset, sizeof *out * tab->infosets[k].n);
}

/* Full-width CFR+ over the walk against CFR+ on the built tree: the same information states (enumerated
 * by the walk), every step of either player equal to the tree's step from the same regrets (the two runs
 * are not compared over many iterations: where actions tie, rounding noise of 1e-10 in a regret decides
 * regret matching, and each run follows its own noise), the same bytes whatever the thread count, and
 * convergence. */
static void cfr_plus_over_the_walk_matches_the_tree(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof dark / sizeof *dark; i++)
        for (size_t b = 0; b < 3; b++) {
            int rows = boards[b][0], cols = boards[b][1];
            sv_tree t, tab;
            build(&t, dark[i], rows, cols, false);
            char err[300], what[64];
            snprintf(what, sizeof what, "%dx%d %s", rows, cols, hx_variant_name(dark[i]));
            assert_int_equal(iw_enumerate(dark[i], rows, cols, &tab, err, sizeof err), 0);
            assert_int_equal(tab.infosets_of[0], t.infosets_of[0]);
            assert_int_equal(tab.infosets_of[1], t.infosets_of[1]);
            assert_int_equal(tab.n_actions, t.n_actions);
            int64_t *idx = malloc(sizeof *idx * tab.n_infosets);
            assert_non_null(idx);
            for (uint32_t k = 0; k < tab.n_infosets; k++) {
                idx[k] = sv_tree_find(&t, tab.infosets[k].player, tab.infosets[k].key);
                assert_true(idx[k] >= 0);
                assert_int_equal(t.infosets[idx[k]].n, tab.infosets[k].n);
                assert_memory_equal(t.actions + t.infosets[idx[k]].offset, tab.actions + tab.infosets[k].offset,
                                    sizeof *t.actions * tab.infosets[k].n);
            }
            float *reg[2];
            double *sum[2];
            iw_cfr *c[2];
            for (int x = 0; x < 2; x++) {
                reg[x] = calloc(tab.n_actions, sizeof *reg[x]);
                sum[x] = calloc(tab.n_actions, sizeof *sum[x]);
                assert_non_null(reg[x]);
                assert_non_null(sum[x]);
                c[x] = iw_cfr_new(dark[i], rows, cols, &tab, reg[x], sum[x], x ? 3 : 1, err, sizeof err);
                assert_non_null(c[x]);
            }
            size_t na = t.n_actions;
            float *r0 = malloc(sizeof *r0 * na), *r1 = malloc(sizeof *r1 * na), *rm = malloc(sizeof *rm * na);
            double *s0 = malloc(sizeof *s0 * na), *s1 = malloc(sizeof *s1 * na), *sm = malloc(sizeof *sm * na);
            double *cur = malloc(sizeof *cur * na), *avg = malloc(sizeof *avg * na), *on = malloc(sizeof *on * na);
            assert_true(r0 && r1 && rm && s0 && s1 && sm && cur && avg && on);
            double first = 0, last = 0;
            for (int it = 1; it <= 30; it++) {
                to_tree_f(&tab, &t, idx, reg[0], r0);
                to_tree_d(&tab, &t, idx, sum[0], s0);
                for (int x = 0; x < 2; x++)
                    assert_int_equal(iw_cfr_iterate(c[x], (double)it, err, sizeof err), 0);
                assert_memory_equal(reg[0], reg[1], sizeof *reg[0] * tab.n_actions);
                assert_memory_equal(sum[0], sum[1], sizeof *sum[0] * tab.n_actions);
                to_tree_f(&tab, &t, idx, reg[0], r1);
                to_tree_d(&tab, &t, idx, sum[0], s1);
                if (it <= 10) {
                    /* Black's step from the regrets before; White's from Black's after and its own before */
                    for (uint32_t k = 0; k < t.n_infosets; k++)
                        sv_regret_match(r0 + t.infosets[k].offset, t.infosets[k].n, cur + t.infosets[k].offset);
                    check_step(&t, 0, it, r0, cur, r1, s0, s1, what);
                    memcpy(rm, r0, sizeof *rm * na);
                    memcpy(sm, s0, sizeof *sm * na);
                    for (uint32_t k = 0; k < t.n_infosets; k++)
                        if (t.infosets[k].player == 0) {
                            memcpy(rm + t.infosets[k].offset, r1 + t.infosets[k].offset, sizeof *rm * t.infosets[k].n);
                            memcpy(sm + t.infosets[k].offset, s1 + t.infosets[k].offset, sizeof *sm * t.infosets[k].n);
                        }
                    for (uint32_t k = 0; k < t.n_infosets; k++)
                        sv_regret_match(rm + t.infosets[k].offset, t.infosets[k].n, cur + t.infosets[k].offset);
                    check_step(&t, 1, it, rm, cur, r1, sm, s1, what);
                }
                if (it == 1 || it == 30) {
                    sv_normalise(&t, s1, avg);
                    sv_eval e;
                    assert_int_equal(sv_evaluate(&t, avg, &e), 0);
                    *(it == 1 ? &first : &last) = e.exploitability;
                }
            }
            print_message("%s: CFR+ over the walk, exploitability %.6f after 1 iteration, %.6f after 30, %llu "
                          "pairs\n", what, first, last, (unsigned long long)iw_cfr_pairs(c[0]));
            assert_true(last < first / 5);
            for (int x = 0; x < 2; x++) {
                iw_cfr_free(c[x]);
                free(reg[x]);
                free(sum[x]);
            }
            free(r0), free(r1), free(rm), free(s0), free(s1), free(sm), free(cur), free(avg), free(on), free(idx);
            sv_tree_free(&tab);
            sv_tree_free(&t);
        }
    /* boards the walk does not cover */
    sv_tree none;
    char err[300];
    assert_int_equal(iw_enumerate(HX_HEX, 2, 2, &none, err, sizeof err), -1);
    assert_non_null(strstr(err, "dark variants"));
    assert_null(iw_cfr_new(HX_ABRUPT, 5, 5, &none, NULL, NULL, 1, err, sizeof err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(uniform_policy_matches_the_tree),
        cmocka_unit_test(trained_policies_match_the_tree),
        cmocka_unit_test(thread_count_does_not_change_the_result),
        cmocka_unit_test(merged_uniform_walk_matches_the_unmerged_one),
        cmocka_unit_test(foreign_entries_are_refused_and_missing_ones_counted),
        cmocka_unit_test(closed_files_play_uniformly_after_a_missing_state),
        cmocka_unit_test(uniform_subtrees_are_merged),
        cmocka_unit_test(probabilities_are_normalised_as_read),
        cmocka_unit_test(cfr_plus_over_the_walk_matches_the_tree),
    };
    return cmocka_run_group_tests(tests, e2e_setup, e2e_teardown);
}
