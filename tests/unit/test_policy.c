/* tests/unit/test_policy.c — policy files, checkpoints, MCCFR and the keys bots compute: a trained policy
 * survives the file (every state found, probabilities to float precision, the same exploitability); a
 * truncated, edited, foreign or future-version file is refused with the reason; a checkpoint restores the
 * exact arrays; external-sampling MCCFR converges on Kuhn poker and small Dark Hex; the key a bot computes
 * from its event log and view equals the engine's; pf_sample() draws each action with its probability. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bestresponse.h"
#include "cfr.h"
#include "checkpoint.h"
#include "darkhex.h"
#include "kuhn.h"
#include "mccfr.h"
#include "policy.h"
#include "rng.h"
#include "test_sys.h"
#include "test_util.h"

E2E_FIXTURE(dir, "dh-policy")

static void build(sv_tree *t, efg_game *g, sv_darkhex *p, hx_variant v, int rows, int cols, bool view)
{
    *p = (sv_darkhex){ .variant = v, .rows = rows, .cols = cols };
    sv_darkhex_game(g, p);
    assert_int_equal(sv_tree_build(t, g, 1u << 24, view), 0);
}

static double exploitability(const sv_tree *t, const double *probs)
{
    sv_eval e;
    assert_int_equal(sv_evaluate(t, probs, &e), 0);
    return e.exploitability;
}

/* A tree of the game and its uniform policy (malloc'd). */
static double *uniform_on(sv_tree *t, hx_variant v, int rows, int cols)
{
    efg_game g;
    sv_darkhex p;
    build(t, &g, &p, v, rows, cols, false);
    double *u = malloc(sizeof *u * t->n_actions);
    assert_non_null(u);
    sv_uniform(t, u);
    return u;
}

/* A tree of the game and `iterations` of `algo` on it. */
static void trained(sv_tree *t, sv_cfr *c, hx_variant v, int rows, int cols, sv_algo algo, int iterations)
{
    efg_game g;
    sv_darkhex p;
    build(t, &g, &p, v, rows, cols, false);
    assert_int_equal(sv_cfr_init(c, t, algo), 0);
    for (int i = 0; i < iterations; i++)
        sv_cfr_iterate(c);
}

static void trained_policy_survives_the_file(void **state)
{
    (void)state;
    sv_tree t;
    sv_cfr c;
    trained(&t, &c, HX_ABRUPT, 3, 2, SV_CFR_PLUS, 100);
    double *avg = malloc(sizeof *avg * t.n_actions), *back = malloc(sizeof *back * t.n_actions);
    sv_cfr_average(&c, avg);
    double x = exploitability(&t, avg);
    pf_meta m = { .variant = HX_ABRUPT, .rows = 3, .cols = 2, .algo = "cfr+", .iterations = 100, .exploitability = x };
    char path[128], err[300];
    snprintf(path, sizeof path, "%s/a.pol", dir);
    assert_int_equal(pf_save_tree(&t, avg, &m, path, err, sizeof err), 0);
    pf_policy pol;
    if (pf_load(&pol, path, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(pol.n_entries, t.n_infosets);
    assert_int_equal(pol.meta.variant, HX_ABRUPT);
    assert_string_equal(pol.meta.algo, "cfr+");
    assert_true(pol.meta.exploitability == x);
    for (uint32_t k = 0; k < t.n_infosets; k++)
        assert_true(pf_find(&pol, t.infosets[k].player, t.infosets[k].key) >= 0);
    assert_true(pf_find(&pol, 0, 12345) < 0);
    uint32_t missing[2];
    assert_int_equal(pf_on_tree(&pol, &pol, &t, back, missing, err, sizeof err), 0);
    assert_int_equal(missing[0] + missing[1], 0);
    for (uint32_t a = 0; a < t.n_actions; a++)
        assert_true(fabs(back[a] - avg[a]) < 1e-6);
    double y = exploitability(&t, back);
    print_message("3x2 abrupt CFR+ 100: exploitability %.6e in memory, %.6e from the file\n", x, y);
    assert_true(fabs(x - y) < 1e-5);

    pf_close(&pol);
    free(avg);
    free(back);
    sv_cfr_free(&c);
    sv_tree_free(&t);
}

/* Writes a copy of src with `edit` applied and returns pf_load's error. */
static const char *load_edited(const char *src, void (*edit)(unsigned char *buf, size_t *len))
{
    static char err[300];
    FILE *f = fopen(src, "rb");
    assert_non_null(f);
    static unsigned char buf[1 << 20];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    edit(buf, &len);
    char path[128];
    snprintf(path, sizeof path, "%s/edited.pol", dir);
    f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, len, f), len);
    fclose(f);
    pf_policy p;
    if (pf_load(&p, path, err, sizeof err) == 0) {
        pf_close(&p);
        return NULL;
    }
    assert_non_null(strstr(err, "edited.pol: ")); /* the message names the file */
    return err;
}

static void truncate_it(unsigned char *b, size_t *len) { (void)b; *len -= 7; }
static void flip_a_probability(unsigned char *b, size_t *len) { b[*len - 3] ^= 0x10; }
static void bad_magic(unsigned char *b, size_t *len) { (void)len; b[0] = 'X'; }
static void future_version(unsigned char *b, size_t *len) { (void)len; b[8] = 2; }
static void short_header(unsigned char *b, size_t *len) { (void)b; *len = 40; }
static void twenty_rows(unsigned char *b, size_t *len) { (void)len; b[17] = 20; } /* 40 cells, a side over 19 */
static void no_change(unsigned char *b, size_t *len) { (void)b; (void)len; }
static void closed_two(unsigned char *b, size_t *len) { (void)len; b[22] = 2; } /* the closed byte: 0 or 1 */

static void corrupt_files_are_refused(void **state)
{
    (void)state;
    sv_tree t;
    double *u = uniform_on(&t, HX_CLASSICAL, 2, 2);
    pf_meta m = { .variant = HX_CLASSICAL, .rows = 2, .cols = 2, .algo = "uniform", .exploitability = NAN };
    char path[128], err[300];
    snprintf(path, sizeof path, "%s/u.pol", dir);
    assert_int_equal(pf_save_tree(&t, u, &m, path, err, sizeof err), 0);
    assert_null(load_edited(path, no_change));
    assert_non_null(strstr(load_edited(path, truncate_it), "size"));
    assert_non_null(strstr(load_edited(path, flip_a_probability), "checksum"));
    assert_non_null(strstr(load_edited(path, bad_magic), "not a policy file"));
    assert_non_null(strstr(load_edited(path, future_version), "version 2"));
    assert_non_null(strstr(load_edited(path, short_header), "too short"));
    assert_non_null(strstr(load_edited(path, twenty_rows), "board 20x2"));
    assert_non_null(strstr(load_edited(path, closed_two), "closed 2"));
    pf_policy pol;
    /* The closed flag (header byte 22) is written and read back. */
    assert_int_equal(pf_load(&pol, path, err, sizeof err), 0);
    assert_false(pol.meta.closed);
    pf_close(&pol);
    m.closed = true;
    assert_int_equal(pf_save_tree(&t, u, &m, path, err, sizeof err), 0);
    assert_int_equal(pf_load(&pol, path, err, sizeof err), 0);
    assert_true(pol.meta.closed);
    char desc[300];
    pf_describe(&pol, desc, sizeof desc);
    assert_non_null(strstr(desc, "perfect-recall keys (closed)"));
    pf_close(&pol);
    m.closed = false;
    assert_int_equal(pf_load(&pol, "/nonexistent/x.pol", err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/x.pol"));
    /* The writer refuses the same information state twice, and leaves no file behind. */
    pf_writer *w = pf_writer_new(&m);
    uint16_t cells[2] = { 0, 1 };
    double probs[2] = { 0.5, 0.5 };
    assert_int_equal(pf_writer_add(w, 0, 7, 2, cells, probs), 0);
    assert_int_equal(pf_writer_add(w, 0, 7, 2, cells, probs), 0);
    snprintf(path, sizeof path, "%s/dup.pol", dir);
    assert_int_equal(pf_writer_save(w, path, err, sizeof err), -1);
    assert_non_null(strstr(err, "twice"));
    assert_int_equal(access(path, F_OK), -1);
    pf_writer_free(w);
    free(u);
    sv_tree_free(&t);
}

/* pf_sample(): u in [0, 1) maps onto the running sums (probabilities divided by their sum); a zero action is
 * never drawn, not even by u rounding past the last sum; 100,000 draws match the probabilities. */
static void sampling_follows_the_probabilities(void **state)
{
    (void)state;
    pf_meta m = { .variant = HX_ABRUPT, .rows = 2, .cols = 2, .algo = "test", .exploitability = NAN };
    pf_writer *w = pf_writer_new(&m);
    uint16_t cells[4] = { 0, 1, 2, 3 };
    double probs[4] = { 0.25, 0, 0.75, 0 };
    assert_int_equal(pf_writer_add(w, 1, 42, 4, cells, probs), 0);
    char path[128], err[300];
    snprintf(path, sizeof path, "%s/s.pol", dir);
    assert_int_equal(pf_writer_save(w, path, err, sizeof err), 0);
    pf_writer_free(w);
    pf_policy pol;
    assert_int_equal(pf_load(&pol, path, err, sizeof err), 0);
    int64_t e = pf_find(&pol, 1, 42);
    assert_true(e >= 0);
    assert_int_equal(pf_find(&pol, 0, 42), -1);
    assert_int_equal(pf_sample(&pol, e, 0.0), 0);
    assert_int_equal(pf_sample(&pol, e, 0.2499), 0);
    assert_int_equal(pf_sample(&pol, e, 0.2501), 2);
    assert_int_equal(pf_sample(&pol, e, 0.9999999999), 2);
    assert_int_equal(pf_sample(&pol, e, 1.0), 2); /* past the last sum: the last positive action */
    rng_state r;
    rng_seed(&r, 9);
    int count[4] = { 0 };
    for (int i = 0; i < 100000; i++)
        count[pf_sample(&pol, e, (double)(rng_next(&r) >> 11) * 0x1.0p-53)]++;
    assert_int_equal(count[1] + count[3], 0);
    assert_in_range(count[0], 24000, 26000);
    pf_close(&pol);
}

static void checkpoint_restores_the_arrays(void **state)
{
    (void)state;
    sv_tree t;
    sv_cfr c;
    trained(&t, &c, HX_CLASSICAL, 3, 2, SV_DCFR, 20);
    sv_ckpt_meta m = { .variant = HX_CLASSICAL, .rows = 3, .cols = 2, .algo = "dcfr", .iteration = 20, .rng = 99,
                       .seconds = 1.5 };
    char path[128], err[300];
    snprintf(path, sizeof path, "%s/c.ckpt", dir);
    assert_int_equal(sv_ckpt_save(path, &m, &t, c.regret, c.strategy_sum, err, sizeof err), 0);
    sv_ckpt_meta back;
    sv_tree tab;
    float *r;
    double *s;
    if (sv_ckpt_load(path, &back, &tab, &r, &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(back.iteration, 20);
    assert_int_equal(back.rng, 99);
    assert_string_equal(back.algo, "dcfr");
    assert_int_equal(tab.n_infosets, t.n_infosets);
    assert_int_equal(tab.n_actions, t.n_actions);
    assert_memory_equal(r, c.regret, sizeof *r * t.n_actions);
    assert_memory_equal(s, c.strategy_sum, sizeof *s * t.n_actions);
    for (uint32_t k = 0; k < t.n_infosets; k++)
        assert_int_equal(sv_tree_find(&tab, t.infosets[k].player, t.infosets[k].key), (int64_t)k);
    free(r);
    free(s);
    sv_tree_free(&tab);
    /* A damaged checkpoint is refused. */
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, -5, SEEK_END);
    fputc('!', f);
    fclose(f);
    assert_int_equal(sv_ckpt_load(path, &back, &tab, &r, &s, err, sizeof err), -1);
    assert_non_null(strstr(err, "checksum"));
    sv_cfr_free(&c);
    sv_tree_free(&t);
}

/* The MCCFR table's average projected on a built tree. */
static double mccfr_exploitability(const sv_tree *t, const sv_mccfr *m)
{
    double *avg = malloc(sizeof *avg * (m->table.n_actions + 1)), *on = malloc(sizeof *on * t->n_actions);
    sv_mccfr_average(m, avg);
    for (uint32_t k = 0; k < t->n_infosets; k++) {
        const sv_infoset *is = &t->infosets[k];
        int64_t j = sv_tree_find(&m->table, is->player, m->table.view_keys ? is->view : is->key);
        for (int a = 0; a < is->n; a++)
            on[is->offset + a] = j >= 0 ? avg[m->table.infosets[j].offset + a] : 1.0 / is->n;
    }
    double x = exploitability(t, on);
    free(avg);
    free(on);
    return x;
}

/* ES-MCCFR (with 2^bits baseline lines, 0 = none) on a 2x2 dark variant for 20,000 iterations (seed 3):
 * the exact exploitability of its average policy. */
static double dark_2x2_after_20k(hx_variant v, int bits)
{
    sv_tree t;
    double *u = uniform_on(&t, v, 2, 2);
    double xu = exploitability(&t, u);
    free(u);
    efg_game g;
    sv_darkhex p = { .variant = v, .rows = 2, .cols = 2 };
    sv_darkhex_game(&g, &p);
    sv_mccfr m;
    assert_int_equal(sv_mccfr_init(&m, &g, false, 3), 0);
    m.baseline_bits = bits;
    for (int i = 0; i < 20000; i++)
        assert_int_equal(sv_mccfr_iterate(&m), 0);
    double x = mccfr_exploitability(&t, &m);
    print_message("2x2 %s ES-MCCFR 20k, %d baseline bits: exploitability %.3e (uniform %.3f)\n", hx_variant_name(v),
                  bits, x, xu);
    sv_mccfr_free(&m);
    sv_tree_free(&t);
    return x;
}

static void mccfr_converges(void **state)
{
    (void)state;
    efg_game kg = kuhn_game();
    sv_tree kt;
    assert_int_equal(sv_tree_build(&kt, &kg, 1000, false), 0);
    sv_mccfr m;
    assert_int_equal(sv_mccfr_init(&m, &kg, false, 7), 0);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(sv_mccfr_iterate(&m), 0);
    double x1k = mccfr_exploitability(&kt, &m);
    for (int i = 0; i < 99000; i++)
        assert_int_equal(sv_mccfr_iterate(&m), 0);
    double x100k = mccfr_exploitability(&kt, &m);
    print_message("Kuhn ES-MCCFR: exploitability %.3e after 1k, %.3e after 100k iterations\n", x1k, x100k);
    assert_true(x100k < 5e-3);
    assert_true(x100k < x1k);
    sv_mccfr_free(&m);
    sv_tree_free(&kt);

    assert_true(dark_2x2_after_20k(HX_CLASSICAL, 0) < 0.02);
}

/* The strategy sums of player 0's first decision (one of three Kuhn states, one sampled visit per
 * iteration in player 1's walk) total the weight of all iterations: T with uniform weighting; with linear
 * weighting iteration t counts t / T within the schedule's 2% (normalised so the latest counts 1), so
 * the total is (T + 1) / 2 within 2%. Linear MCCFR converges on Kuhn poker too. */
static double first_decision_weight(const sv_mccfr *m)
{
    double w = 0;
    for (uint32_t k = 0; k < m->table.n_infosets; k++) {
        const sv_infoset *is = &m->table.infosets[k];
        if (is->player == 0 && is->depth == 0)
            for (int a = 0; a < is->n; a++)
                w += m->strategy_sum[is->offset + a];
    }
    return w;
}

static void mccfr_linear_weights(void **state)
{
    (void)state;
    efg_game kg = kuhn_game();
    sv_tree kt;
    assert_int_equal(sv_tree_build(&kt, &kg, 1000, false), 0);
    static const long lengths[] = { 1, 2, 10, 49, 50, 51, 333, 5000, 77777 };
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        long T = lengths[i];
        sv_mccfr u, l;
        assert_int_equal(sv_mccfr_init(&u, &kg, false, 11), 0);
        assert_int_equal(sv_mccfr_init(&l, &kg, false, 11), 0);
        l.linear = true;
        for (long t = 0; t < T; t++) {
            assert_int_equal(sv_mccfr_iterate(&u), 0);
            assert_int_equal(sv_mccfr_iterate(&l), 0);
        }
        double wu = first_decision_weight(&u), wl = first_decision_weight(&l), want = (T + 1) / 2.0;
        print_message("T %ld: uniform weight %.6g, linear %.6g (T+1)/2 = %.6g\n", T, wu, wl, want);
        assert_true(fabs(wu - (double)T) < 1e-9 * T);
        if (T <= 50) /* every iteration is a schedule point: exactly linear CFR's weights t / (T + 1) */
            assert_true(fabs(wl - T / 2.0) < 1e-9 * T);
        else
            assert_true(wl > 0.975 * want && wl < 1.025 * want);
        if (T == 77777) {
            double x = mccfr_exploitability(&kt, &l);
            print_message("Kuhn linear ES-MCCFR: exploitability %.3e after %ld iterations\n", x, T);
            assert_true(x < 5e-3);
        }
        sv_mccfr_free(&u);
        sv_mccfr_free(&l);
    }
    sv_tree_free(&kt);
}

/* History baselines change the sampled values, never their expectation: with a cache large enough for
 * every Kuhn history, and with one of two lines (every history evicting the others, so baselines are
 * mostly another history's values), ES-MCCFR still converges to Kuhn's equilibrium, and on 2x2 abrupt
 * (a mixed equilibrium) as well as the plain sampler. The cache is allocated by the first iteration. */
static void mccfr_baseline_converges(void **state)
{
    (void)state;
    efg_game kg = kuhn_game();
    sv_tree kt;
    assert_int_equal(sv_tree_build(&kt, &kg, 1000, false), 0);
    assert_int_equal(sv_mccfr_baseline_bits(1), 14);
    assert_int_equal(sv_mccfr_baseline_bits(1024), 24);
    static const int bits[] = { 12, 1 };
    for (size_t i = 0; i < 2; i++) {
        sv_mccfr m;
        assert_int_equal(sv_mccfr_init(&m, &kg, false, 7), 0);
        m.baseline_bits = bits[i];
        for (int t = 0; t < 100000; t++)
            assert_int_equal(sv_mccfr_iterate(&m), 0);
        assert_non_null(m.baseline);
        double x = mccfr_exploitability(&kt, &m);
        print_message("Kuhn VR ES-MCCFR, 2^%d cache lines: exploitability %.3e after 100k iterations\n", bits[i], x);
        assert_true(x < 5e-3);
        sv_mccfr_free(&m);
    }
    sv_tree_free(&kt);

    assert_true(dark_2x2_after_20k(HX_ABRUPT, 16) < 0.01);
}

static void keys_bots_compute_match_the_engine(void **state)
{
    (void)state;
    rng_state rng;
    rng_seed(&rng, 5);
    for (int v = HX_CLASSICAL; v < HX_VARIANT_COUNT; v++) {
        for (int game = 0; game < 200; game++) {
            hx_game g;
            start(&g, (hx_variant)v, 3, 4, 0);
            while (!hx_over(&g)) {
                int p = hx_to_move(&g);
                hx_event ev[HX_MAX_EVENTS];
                int n = hx_events(&g, p, ev), reports = 0;
                assert_true(hx_events_hash(ev, n) == hx_key_fingerprint(&g, p));
                uint8_t view[HX_MAX_CELLS];
                for (int c = 0; c < 12; c++)
                    view[c] = (uint8_t)hx_view(&g, p, c);
                for (int i = 0; i < n; i++)
                    reports += ev[i].kind == HX_EV_OPP_HIT || ev[i].kind == HX_EV_OPP_HIT_AT;
                assert_true(hx_view_key_of(view, 12, p, reports) == hx_view_key(&g, p));
                assert_true(hx_view_key(&g, p) != hx_view_key(&g, 1 - p));
                uint16_t legal[HX_MAX_CELLS + 1];
                int k = hx_legal(&g, legal);
                hx_attempt(&g, legal[rng_below(&rng, (uint32_t)k)]);
            }
        }
    }
    /* View keys merge information states: fewer of them, and CFR still runs on the abstraction. */
    sv_tree perfect, view;
    efg_game g;
    sv_darkhex p;
    build(&perfect, &g, &p, HX_ABRUPT, 3, 2, false);
    build(&view, &g, &p, HX_ABRUPT, 3, 2, true);
    print_message("3x2 abrupt: %u perfect-recall information states, %u view keys\n", perfect.n_infosets,
                  view.n_infosets);
    assert_true(view.n_infosets < perfect.n_infosets / 2);
    for (uint32_t k = 0; k < perfect.n_infosets; k++)
        assert_true(sv_tree_find(&view, perfect.infosets[k].player, perfect.infosets[k].view) >= 0);
    sv_tree_free(&perfect);
    sv_tree_free(&view);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(trained_policy_survives_the_file),
        cmocka_unit_test(corrupt_files_are_refused),
        cmocka_unit_test(sampling_follows_the_probabilities),
        cmocka_unit_test(checkpoint_restores_the_arrays),
        cmocka_unit_test(mccfr_converges),
        cmocka_unit_test(mccfr_linear_weights),
        cmocka_unit_test(mccfr_baseline_converges),
        cmocka_unit_test(keys_bots_compute_match_the_engine),
    };
    return cmocka_run_group_tests(tests, e2e_setup, e2e_teardown);
}
