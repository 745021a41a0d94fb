/* tests/unit/test_doseq.c — the sequence-form double oracle (doseq.h) and `arena solve --method
 * sequence-oracle`. Its bounds, its restricted games solved by GLPK or CLP, meet at the whole tree's value (the
 * sequence-form LP's; on abrupt 3x2 and 2x3 the tree-based double oracle's, which test_doracle checks against
 * the LP) on 2x2 in the six dark variants, abrupt 3x2 and 2x3 and classical 3x2 and 2x3, bracketing that value
 * at every iteration; the mixtures it keeps give a value
 * certificate that the checker verifies at exactly that value (and, stopped early, at the interval it
 * reported); such a certificate seeds a later run (--seed-certificate) with every attempt it plays, so that
 * run's first restricted game already lies within the certificate's bounds, and scripts/tighten-certificates.sh
 * puts the verified exact certificate of such a run in an interval one's place; the exact step gives each value as a fraction whose certificate of exact strategies the rational
 * checker verifies, with CLP's warm basis and with GLPK (where the first exact equilibria can be exploitable
 * and the restricted game grows); the command prints strict JSON with the same value and refuses what it
 * cannot solve. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "darkhex.h"
#include "doracle.h"
#include "doseq.h"
#include "doseq_seed.h"
#include "dowalk_cert.h"
#include "seqform.h"
#include "mixcert_kit.h"
#include "test_sys.h"
#include "test_util.h"
#include "valcert.h"
#include "valcert_policy.h"
#include "variant.h"

static const hx_variant dark[] = { HX_CLASSICAL, HX_ABRUPT, HX_CLASSICAL_NOISY, HX_CLASSICAL_FLASH, HX_ABRUPT_NOISY,
                                   HX_ABRUPT_FLASH };

/* The whole tree's value: by the sequence-form LP (GLPK), or where that takes minutes (abrupt 3x2, 2x3) by
 * the tree-based double oracle, which test_doracle checks against the LP; with first >= 0 (the oracle only),
 * the value after Black's first cell (the oracle's root action fixed). */
static double tree_value_first(hx_variant v, int rows, int cols, bool oracle, int first)
{
    sv_darkhex p = { .variant = v, .rows = rows, .cols = cols };
    efg_game g;
    sv_darkhex_game(&g, &p);
    sv_tree t;
    assert_int_equal(sv_tree_build(&t, &g, 1u << 25, false), 0);
    char err[300] = "";
    double value;
    if (oracle) {
        do_options o;
        do_options_default(&o);
        o.fix_root = first >= 0;
        o.root_action = (uint16_t)(first >= 0 ? first : 0); /* the root's actions are the cells in ascending order */
        do_result r;
        if (do_solve(&t, &o, NULL, &r, err, sizeof err) != 0)
            fail_msg("do_solve: %s", err);
        assert_true(r.converged);
        value = r.lower;
    } else {
        sf_options o;
        sf_options_default(&o);
        double *policy = malloc(sizeof *policy * t.n_actions);
        sf_result r;
        if (sf_solve(&t, &o, policy, &r, err, sizeof err) != 0)
            fail_msg("sf_solve: %s", err);
        free(policy);
        value = r.value;
    }
    sv_tree_free(&t);
    return value;
}

static double tree_value(hx_variant v, int rows, int cols, bool oracle)
{
    return tree_value_first(v, rows, cols, oracle, -1);
}

typedef struct {
    double value;
    int calls, bad;
    double first_value; /* the first restricted game's value */
} bracket;

static void check_bracket(void *ctx, const do_progress_info *p)
{
    bracket *b = ctx;
    if (!b->calls++)
        b->first_value = p->value;
    if (p->lower > b->value + 1e-9 || p->upper < b->value - 1e-9 || p->lower > p->upper + 1e-12)
        b->bad++;
}

/* The sequence oracle on the R x C board of v against the game's known value. */
static void against_value(hx_variant v, int rows, int cols, sf_solver solver, bool spread, double value)
{
    bracket b = { .value = value };
    dw_options o;
    dw_options_default(&o);
    o.progress = check_bracket;
    o.ctx = &b;
    o.spread = spread;
    dw_mixture mix[2] = { { 0 }, { 0 } };
    o.keep = mix;
    sf_options lp;
    sf_options_default(&lp);
    lp.solver = solver;
    ds_result r;
    char err[300] = "";
    if (ds_solve(v, rows, cols, &o, &lp, 1u << 24, NULL, NULL, NULL, &r, err, sizeof err) != 0)
        fail_msg("ds_solve: %s", err);
    print_message("%-16s %dx%d tree %+.12f, sequence oracle [%+.12f, %+.12f] in %d iterations (%s%s), restricted %u "
                  "nodes\n",
                  hx_variant_name(v), rows, cols, value, r.lower, r.upper, r.iterations,
                  solver == SF_CLP ? "CLP" : "GLPK", spread ? ", spread defaults" : "", r.nodes);
    assert_true(r.converged);
    assert_true(fabs(r.lower - value) < 1e-9 && fabs(r.upper - value) < 1e-9);
    assert_int_equal(b.calls, r.iterations);
    assert_int_equal(b.bad, 0);
    assert_true(r.support[0] >= 1 && r.support[1] >= 1);
    mixcert_check(v, rows, cols, mix, value, r.lower, r.upper);
}

static void against_tree(hx_variant v, int rows, int cols, sf_solver solver, bool spread)
{
    bool slow = v == HX_ABRUPT && rows * cols == 6;
    against_value(v, rows, cols, solver, spread, tree_value(v, rows, cols, slow));
}

static void values_equal_the_tree(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof dark / sizeof dark[0]; i++) {
        against_tree(dark[i], 2, 2, i % 2 ? SF_CLP : SF_GLPK, false);
        against_tree(dark[i], 2, 2, SF_CLP, true);
    }
    against_tree(HX_ABRUPT, 3, 2, SF_CLP, false);
    against_tree(HX_ABRUPT, 2, 3, SF_CLP, false);
    against_tree(HX_CLASSICAL, 3, 2, SF_GLPK, false);
    against_tree(HX_CLASSICAL, 2, 3, SF_CLP, false);
    /* members with spread defaults (dw_options.spread): every bound still brackets the value, and the
     * certificate of the kept mixtures, salted defaults and all, is verified; the -flash and -noisy values are
     * the LP's (docs/solved.md: minutes of GLPK each, so not solved again here) */
    against_tree(HX_ABRUPT, 2, 3, SF_CLP, true);
    against_value(HX_ABRUPT_FLASH, 2, 3, SF_CLP, true, 25.0 / 31);
    against_value(HX_ABRUPT_NOISY, 3, 2, SF_CLP, true, -1347.0 / 15572);
}

/* Each restricted LP started from the last one's basis (CLP's default here) reaches the same bounds as when
 * each starts from scratch (sf_options.cold), with fewer simplex iterations in all. */
static void warm_and_cold_agree(void **state)
{
    (void)state;
    static const struct { hx_variant v; int r, c; double value; } cases[] = {
        { HX_ABRUPT, 3, 2, -0.125 }, { HX_ABRUPT_NOISY, 2, 2, NAN }, { HX_ABRUPT_FLASH, 2, 2, NAN } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ds_result r[2];
        for (int cold = 0; cold < 2; cold++) {
            dw_options o;
            dw_options_default(&o);
            sf_options lp;
            sf_options_default(&lp);
            lp.solver = SF_CLP;
            lp.cold = cold;
            char err[300] = "";
            if (ds_solve(cases[i].v, cases[i].r, cases[i].c, &o, &lp, 1u << 24, NULL, NULL, NULL, &r[cold], err,
                         sizeof err) != 0)
                fail_msg("ds_solve: %s", err);
            assert_true(r[cold].converged);
        }
        print_message("%-16s %dx%d warm %d games, %llu simplex iterations; cold %d games, %llu\n",
                      hx_variant_name(cases[i].v), cases[i].r, cases[i].c, r[0].iterations,
                      (unsigned long long)r[0].lp_iterations, r[1].iterations, (unsigned long long)r[1].lp_iterations);
        double value = isnan(cases[i].value) ? tree_value(cases[i].v, cases[i].r, cases[i].c, false) : cases[i].value;
        for (int cold = 0; cold < 2; cold++)
            assert_true(fabs(r[cold].lower - value) < 1e-9 && fabs(r[cold].upper - value) < 1e-9);
        assert_true(r[0].lp_iterations > 0);
        assert_true(r[0].lp_iterations < r[1].lp_iterations);
    }
}

static void limits_and_refusals(void **state)
{
    (void)state;
    dw_options o;
    dw_options_default(&o);
    sf_options lp;
    sf_options_default(&lp);
    ds_result r;
    char err[300] = "";
    assert_int_equal(ds_solve(HX_HEX, 2, 2, &o, &lp, 1u << 20, NULL, NULL, NULL, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "dark"));
    assert_int_equal(ds_solve(HX_ABRUPT, 4, 5, &o, &lp, 1u << 20, NULL, NULL, NULL, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "16 cells"));
    /* stopped early: the certificate proves the interval reported, which holds -1/8 */
    lp.solver = SF_CLP;
    for (int it = 5; it <= 20; it += 15) {
        dw_mixture mix[2] = { { 0 }, { 0 } };
        o.max_iterations = it;
        o.keep = mix;
        assert_int_equal(ds_solve(HX_ABRUPT, 3, 2, &o, &lp, 1u << 24, NULL, NULL, NULL, &r, err, sizeof err), 0);
        assert_int_equal(r.iterations, it);
        assert_false(r.converged);
        mixcert_check(HX_ABRUPT, 3, 2, mix, -0.125, r.lower, r.upper);
    }
    /* seeded by the pure-strategy walk's mixtures after 100 iterations: their attempts are in the first
     * restricted game, and it still converges at -1/8 */
    {
        dw_mixture seed[2] = { { 0 }, { 0 } };
        dw_options w;
        dw_options_default(&w);
        w.max_iterations = 100;
        w.keep = seed;
        dw_result wr;
        assert_int_equal(dw_solve(HX_ABRUPT, 3, 2, &w, &wr, err, sizeof err), 0);
        o.max_iterations = 0;
        o.keep = NULL;
        bracket b = { .value = -0.125 };
        o.progress = check_bracket;
        o.ctx = &b;
        double bounds[2] = { wr.lower, wr.upper };
        assert_int_equal(ds_solve(HX_ABRUPT, 3, 2, &o, &lp, 1u << 24, seed, bounds, NULL, &r, err, sizeof err), 0);
        assert_true(seed[0].k == 0 && seed[1].k == 0); /* taken over */
        assert_true(r.converged);
        assert_true(r.seeded[0] > 0 && r.seeded[1] > 0);
        assert_true(fabs(r.lower + 0.125) < 1e-9 && fabs(r.upper + 0.125) < 1e-9);
        assert_int_equal(b.bad, 0);
        /* the first restricted game holds both seed mixtures, so its value lies within the bounds they give */
        assert_true(b.first_value >= wr.lower - 1e-9 && b.first_value <= wr.upper + 1e-9);
        o.progress = NULL;
    }
    /* a restricted tree over the node limit is an error, not a wrong answer */
    o.max_iterations = 0;
    o.keep = NULL;
    assert_int_equal(ds_solve(HX_ABRUPT, 3, 2, &o, &lp, 100, NULL, NULL, NULL, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "100 nodes"));
}

E2E_FIXTURE(dir, "doseq")

static void arena_solve_sequence_oracle(void **state)
{
    (void)state;
    char cmd[1600];
    snprintf(cmd, sizeof cmd, "cd %s && %s/arena solve --variant abrupt --board 2x3 --method sequence-oracle --solver clp "
             "--certificate s.value --json 2>/dev/null", dir, bin);
    char *json = sh_output(cmd);
    strict_json("arena solve --method sequence-oracle --json", json);
    assert_true(fabs(json_number(json, "value") - 9.0 / 11) < 1e-9);
    assert_true(fabs(json_number(json, "lower") - 9.0 / 11) < 1e-9);
    assert_non_null(strstr(json, "\"converged\":true"));
    assert_non_null(strstr(json, "\"lower\":\"9/11\",\"upper\":\"9/11\",\"exact\":true"));
    free(json);
    snprintf(cmd, sizeof cmd, "cd %s && %s/arena classify --check s.value", dir, bin);
    char *text = sh_output(cmd);
    assert_non_null(strstr(text, "verified: value 9/11"));
    free(text);
    /* --certificate-denominator D: one rounding, with denominators up to D (100 recovers 9/11, 10 does not) */
    for (int den = 10; den <= 100; den *= 10) {
        snprintf(cmd, sizeof cmd, "cd %s && %s/arena solve --variant abrupt --board 2x3 --method sequence-oracle "
                 "--solver clp --certificate d.value --certificate-denominator %d --json 2>/dev/null; true", dir, bin,
                 den);
        json = sh_output(cmd);
        char want[80];
        snprintf(want, sizeof want, "\"denominators\":{\"black\":%d,\"white\":%d}", den, den);
        assert_non_null(strstr(json, want));
        assert_non_null(strstr(json, den == 100 ? "\"lower\":\"9/11\",\"upper\":\"9/11\",\"exact\":true"
                                                : "\"exact\":false"));
        free(json);
    }
    snprintf(cmd, sizeof cmd, "cd %s && %s/arena solve --variant abrupt --board 2x3 --method sequence-oracle "
             "--certificate-denominator 10 >/dev/null 2>&1", dir, bin);
    assert_int_equal(sh_run("%s", cmd), 2); /* no --certificate */
    /* the bounds reach standard error before the certificate step starts; with --verbose each denominator
     * bound the writer tries follows, the finest last */
    for (int verbose = 0; verbose < 2; verbose++) {
        snprintf(cmd, sizeof cmd, "cd %s && %s/arena solve --variant abrupt --board 2x3 --method sequence-oracle "
                 "--solver clp --max-iterations 5 --certificate e.value %s --json 2>&1 >/dev/null; true", dir, bin,
                 verbose ? "--verbose" : "");
        text = sh_output(cmd);
        assert_non_null(strstr(text, "arena solve: bounds ["));
        assert_non_null(strstr(text, "after 5 iterations"));
        assert_non_null(strstr(text, "writing the certificate e.value"));
        assert_true(!strstr(text, "sequence-oracle 5: ") == !verbose);
        assert_true(!strstr(text, "certificate: denominators up to 10: bounds [") == !verbose);
        assert_true(!strstr(text, "certificate: denominators up to 1000000000: bounds [") == !verbose);
        free(text);
    }
    snprintf(cmd, sizeof cmd, "%s/arena solve --variant abrupt --board 2x2 --method sequence-oracle --max-iterations 1 "
             "--format text; echo \"exit $?\"", bin);
    text = sh_output(cmd);
    assert_non_null(strstr(text, "not solved (a limit)"));
    assert_non_null(strstr(text, "exit 1"));
    free(text);
    static const char *bad[] = { "--variant hex --board 2x2", "--variant abrupt --board 4x5",
                                 "--variant abrupt --board 2x2 --out x.pol", "--variant abrupt --board 2x2 --walk" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(cmd, sizeof cmd, "cd %s && %s/arena solve --method sequence-oracle %s >/dev/null 2>&1", dir, bin, bad[i]);
        assert_int_equal(sh_run("%s", cmd), 2);
    }
    /* --exact: the value as a fraction, its certificate exact and verified by the checker */
    snprintf(cmd, sizeof cmd, "cd %s && %s/arena solve --variant abrupt --board 3x2 --method sequence-oracle --solver clp "
             "--exact --certificate x.value --json", dir, bin);
    json = sh_output(cmd);
    strict_json("arena solve --method sequence-oracle --exact --json", json);
    assert_non_null(strstr(json, "\"exact\":{\"value\":\"-1/8\""));
    assert_non_null(strstr(json, "\"lower\":\"-1/8\",\"upper\":\"-1/8\",\"exact\":true"));
    free(json);
    snprintf(cmd, sizeof cmd, "cd %s && %s/arena classify --check x.value", dir, bin);
    text = sh_output(cmd);
    assert_non_null(strstr(text, "verified: value -1/8"));
    free(text);
}

/* The certificate dir/name, loaded (the test fails when it does not load), and the bounds it states. */
static vc_cert *load_stated(const char *name, double *lower, double *upper)
{
    char path[600], err[300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    vc_cert *c = vc_load(path, err, sizeof err);
    if (!c)
        fail_msg("%s", err);
    vc_bounds(c, lower, upper);
    return c;
}

/* A seeded run's first restricted game holds both seed strategies, so its value (the first progress line of its
 * log dir/name) lies within their bounds. */
static void first_restricted_within(const char *name, double lower, double upper)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "cat %s/%s", dir, name);
    char *text = sh_output(cmd);
    const char *it1 = strstr(text, "sequence-oracle 1: restricted value ");
    assert_non_null(it1);
    double v1 = strtod(it1 + strlen("sequence-oracle 1: restricted value "), NULL);
    assert_true(v1 >= lower - 1e-9 && v1 <= upper + 1e-9);
    free(text);
}

/* A certificate as the seed: ds_seed_from_certificate's members store exactly the attempts of positive
 * probability, each at its state's key; `arena solve --seed-certificate` starts from them (the first
 * restricted game holds both certified strategies, so its value lies within their bounds), goes on to the
 * value, and refuses a certificate of another board, a missing file and two seeds. */
static void seeded_by_a_certificate(void **state)
{
    (void)state;
    char cmd[1600], err[300];
    snprintf(cmd, sizeof cmd, "cd %s && %s/arena solve --variant abrupt --board 3x2 --method sequence-oracle "
             "--solver clp --max-iterations 16 --certificate part.value --json 2>/dev/null; true", dir, bin);
    char *json = sh_output(cmd);
    assert_non_null(strstr(json, "\"converged\":false"));
    free(json);
    double lower, upper;
    vc_cert *c = load_stated("part.value", &lower, &upper);
    assert_true(lower < -0.125 - 1e-6 || upper > -0.125 + 1e-6); /* an interval, not yet the value */
    dw_mixture seed[2];
    assert_int_equal(ds_seed_from_certificate(c, seed, err, sizeof err), 0);
    uint64_t positive[2] = { 0, 0 };
    for (uint32_t i = 0; i < vc_state_count(c); i++) {
        vc_keyed_state s;
        assert_true(vc_state_keyed(c, i, &s) >= 0);
        for (int a = 0; a < s.n; a++) {
            bool stored = false;
            for (int j = 0; j < seed[s.player].k; j++)
                stored |= dw_pure_get(seed[s.player].member[j], s.key) == s.cells[a];
            assert_true(stored == (s.probs[a] > 0));
            positive[s.player] += s.probs[a] > 0;
        }
        for (int j = 0; j < seed[s.player].k; j++) { /* nothing else at this key */
            int cell = dw_pure_get(seed[s.player].member[j], s.key);
            bool listed = false;
            for (int a = 0; a < s.n; a++)
                listed |= s.cells[a] == cell && s.probs[a] > 0;
            assert_true(listed || cell < 0);
        }
    }
    assert_true(positive[0] > 0 && positive[1] > 0);
    dw_mixture_free(&seed[0]), dw_mixture_free(&seed[1]);
    vc_free(c);

    snprintf(cmd, sizeof cmd, "cd %s && %s/arena solve --variant abrupt --board 3x2 --method sequence-oracle "
             "--solver clp --seed-certificate part.value --verbose --json 2>seed.err", dir, bin);
    json = sh_output(cmd);
    strict_json("arena solve --seed-certificate --json", json);
    assert_non_null(strstr(json, "\"converged\":true"));
    assert_true(fabs(json_number(json, "lower") + 0.125) < 1e-9 && fabs(json_number(json, "upper") + 0.125) < 1e-9);
    assert_non_null(strstr(json, "\"certificate\":\"part.value\"}"));
    const char *att = strstr(json, "\"seed\":{");
    assert_non_null(att);
    /* the seed's bounds as reported are the seed certificate's stated ones, not [-1, 1] */
    assert_true(fabs(json_number(att, "lower") - lower) < 1e-9 && fabs(json_number(att, "upper") - upper) < 1e-9);
    att = strstr(att, "\"attempts\":{\"black\":");
    assert_non_null(att);
    assert_true(atoi(att + strlen("\"attempts\":{\"black\":")) > 0);
    free(json);
    first_restricted_within("seed.err", lower, upper);
    char *text;

    static const struct { const char *args, *says; int rc; } bad[] = {
        { "--variant abrupt --board 2x3 --seed-certificate part.value", "a certificate of 3x2 abrupt", 1 },
        { "--variant classical --board 3x2 --seed-certificate part.value", "a certificate of 3x2 abrupt", 1 },
        { "--variant abrupt --board 3x2 --seed-certificate none.value", "none.value", 1 },
        { "--variant abrupt --board 3x2 --seed-certificate part.value --seed-seconds 1", "give one seed", 2 },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(cmd, sizeof cmd, "cd %s && %s/arena solve --method sequence-oracle %s 2>&1; echo \"exit $?\"", dir, bin,
                 bad[i].args);
        text = sh_output(cmd);
        assert_non_null(strstr(text, bad[i].says));
        char want[20];
        snprintf(want, sizeof want, "exit %d", bad[i].rc);
        assert_non_null(strstr(text, want));
        free(text);
    }
    snprintf(cmd, sizeof cmd, "cd %s && %s/arena solve --variant abrupt --board 3x2 --method double-oracle "
             "--seed-certificate part.value >/dev/null 2>&1", dir, bin);
    assert_int_equal(sh_run("%s", cmd), 2);
}

/* scripts/tighten-certificates.sh: an interval certificate continued by a seeded run and replaced by the
 * verified exact one; an exact certificate left alone; a run better at one end merged with the old certificate's
 * other end, and one better at neither end left out; a file that is no certificate refused (exit 1), bad
 * arguments exit 2; each file that takes a place is checked in full once, the run's own only when it does. */
static void tightened_by_the_script(void **state)
{
    (void)state;
    char cmd[4096];
    sh_run("cd %s && %s/arena solve --variant abrupt --board 3x2 --method sequence-oracle --solver clp "
           "--max-iterations 12 --certificate tight.value >/dev/null 2>&1", dir, bin); /* exit 1: not converged */
    snprintf(cmd, sizeof cmd, "grep -c -e '^lower -1/8$' -e '^upper -1/8$' -e '^darkhex-value 1$' %s/tight.value; true", dir);
    char *text = sh_output(cmd);
    assert_int_equal(atoi(text), 1); /* a certificate, of an interval to begin with */
    free(text);
    snprintf(cmd, sizeof cmd, "WORK_DIR=%s/work scripts/tighten-certificates.sh %s 120 %s/tight.value 2>&1; echo \"exit $?\"",
             dir, bin, dir);
    text = sh_output(cmd);
    if (!strstr(text, ": replaced") || !strstr(text, "exit 0"))
        fail_msg("%s", text);
    free(text);
    snprintf(cmd, sizeof cmd, "grep -c -e '^lower -1/8$' -e '^upper -1/8$' %s/tight.value; ls %s/work", dir, dir);
    text = sh_output(cmd);
    assert_int_equal(atoi(text), 2);                  /* the value, exact */
    assert_non_null(strstr(text, "tight.json"));      /* the run's JSON and log kept */
    assert_null(strstr(text, "tight.value"));         /* moved into place */
    free(text);
    snprintf(cmd, sizeof cmd, "WORK_DIR=%s/work scripts/tighten-certificates.sh %s 120 %s/tight.value 2>&1; echo \"exit $?\"",
             dir, bin, dir);
    text = sh_output(cmd);
    assert_non_null(strstr(text, "exact (-0.125); left alone"));
    assert_non_null(strstr(text, "exit 0"));
    free(text);
    snprintf(cmd, sizeof cmd, "echo hello > %s/not.value && WORK_DIR=%s/work scripts/tighten-certificates.sh %s 120 "
             "%s/not.value 2>&1; echo \"exit $?\"", dir, dir, bin, dir);
    text = sh_output(cmd);
    assert_non_null(strstr(text, "not a value certificate"));
    assert_non_null(strstr(text, "exit 1"));
    free(text);
    assert_int_equal(sh_run("scripts/tighten-certificates.sh %s soon >/dev/null 2>&1", bin), 2);
    /* each end kept from the certificate that holds it better: the exact Black strategy (-1/8) beside a weak
     * White one (5/6), continued for two restricted games (MAX_ITERATIONS), whose Black end is weaker (-1) and
     * White end stronger: the run's White strategy merged with the old Black one, checked */
    sh_run("cd %s && %s/arena solve --variant abrupt --board 3x2 --method sequence-oracle --solver clp --exact "
           "--certificate ex.value >/dev/null 2>&1 && %s/arena solve --variant abrupt --board 3x2 --method "
           "sequence-oracle --solver clp --max-iterations 12 --certificate weak.value >/dev/null 2>&1; "
           "%s/arena solve --variant abrupt --board 3x2 --method merge --black-certificate ex.value "
           "--white-certificate weak.value --certificate ends.value >/dev/null", dir, bin, bin, bin);
    double lower, upper;
    vc_free(load_stated("ends.value", &lower, &upper));
    assert_true(lower == -0.125 && upper > 0.8);
    snprintf(cmd, sizeof cmd, "MAX_ITERATIONS=2 WORK_DIR=%s/work scripts/tighten-certificates.sh %s 120 %s/ends.value "
             "2>&1; echo \"exit $?\"", dir, bin, dir);
    text = sh_output(cmd);
    if (!strstr(text, ": merged (the run's White strategy, reaching [-1, ") || !strstr(text, "exit 0"))
        fail_msg("%s", text);
    free(text);
    double merged_upper;
    vc_free(load_stated("ends.value", &lower, &merged_upper));
    assert_true(lower == -0.125 && merged_upper < upper - 1e-9);
    snprintf(cmd, sizeof cmd, "cd %s && %s/arena classify --check ends.value", dir, bin);
    text = sh_output(cmd);
    assert_non_null(strstr(text, "verified: value in [-1/8, "));
    free(text);
    /* (the old rule, narrower or nothing, would have dropped that run: [-1, 5/9] is wider than [-1/8, 5/6]); six
     * more restricted games merge again (White's end 0), and then a run of one, better at neither end, leaves the
     * certificate as it was */
    /* an arena that logs each command it runs (its first and seventh arguments: "solve sequence-oracle",
     * "solve merge", "classify") and runs the real one: each file that takes a place is checked in full once,
     * and nothing is walked again for a run that changes nothing */
    snprintf(cmd, sizeof cmd, "%s/logged", dir);
    mkdir(cmd, 0755);
    snprintf(cmd, sizeof cmd, "%s/logged/arena", dir);
    FILE *w = fopen(cmd, "w");
    assert_non_null(w);
    fprintf(w, "#!/bin/sh\necho \"$1 $7\" >> %s/calls\nexec %s/arena \"$@\"\n", dir, bin);
    fclose(w);
    chmod(cmd, 0755);
    snprintf(cmd, sizeof cmd, "rm -f %s/calls; MAX_ITERATIONS=6 WORK_DIR=%s/work scripts/tighten-certificates.sh "
             "%s/logged 120 %s/ends.value 2>&1; echo \"runs $(grep -c '^solve sequence-oracle' %s/calls) merges "
             "$(grep -c '^solve merge' %s/calls) checks $(grep -c '^classify' %s/calls)\"", dir, dir, dir, dir, dir,
             dir, dir);
    text = sh_output(cmd);
    if (!strstr(text, ": merged (") || !strstr(text, "runs 1 merges 1 checks 1"))
        fail_msg("a merge checks the merged file once, the run's own not at all:\n%s", text);
    free(text);
    snprintf(cmd, sizeof cmd, "cp %s/ends.value %s/same.value && rm -f %s/calls && MAX_ITERATIONS=1 WORK_DIR=%s/work "
             "scripts/tighten-certificates.sh %s/logged 120 %s/ends.value 2>&1; cmp %s/ends.value %s/same.value && "
             "echo same; echo \"runs $(grep -c '^solve sequence-oracle' %s/calls) checks $(grep -c '^classify' %s/calls)\"",
             dir, dir, dir, dir, dir, dir, dir, dir, dir, dir);
    text = sh_output(cmd);
    if (!strstr(text, "better at neither end; left alone") || !strstr(text, "same") ||
        !strstr(text, "runs 1 checks 0"))
        fail_msg("%s", text);
    free(text);
}

/* ds_solve with an exact step on the board, its time limit in o spent by the first iteration: the bounds meet
 * there (seeded or not), no exact round is solved, and the reason contains why. */
static void met_without_an_exact_round(hx_variant v, int rows, int cols, const dw_options *o, const sf_options *lp,
                                       dw_mixture *seed, const double *bounds, const char *why)
{
    ds_exact x = { 0 };
    ds_result r;
    char err[300] = "";
    assert_int_equal(ds_solve(v, rows, cols, o, lp, 1u << 24, seed, bounds, &x, &r, err, sizeof err), 0);
    print_message("%s (%d rounds)\n", x.why, x.rounds);
    assert_true(r.converged);
    assert_int_equal(r.iterations, 1);
    assert_null(x.value);
    assert_int_equal(x.rounds, 0);
    assert_non_null(strstr(x.why, why));
    ds_exact_free(&x);
}

/* The last restricted game solved in rational arithmetic (ds_exact): the value as a fraction equal to the
 * whole tree's LP value, and the certificate of its exact equilibria proving exactly that value (the checker
 * loading the file again), also with the exact LPs in a child under a time limit; stopped before the bounds meet,
 * with the exact LPs past their time limit, with the limit spent when the bounds meet, or before the restricted
 * equilibrium's own bounds meet, no value and the reason. */
static void exact_values_are_certified(void **state)
{
    (void)state;
    /* the last two with GLPK (no warm basis): on abrupt 2x3 the exact restricted equilibria of the first
     * restricted game whose bounds meet are exploitable in the whole game (White's worth 10/11), so the restricted
     * game grows until they are not */
    static const struct { hx_variant v; int r, c; const char *value; bool glpk; } cases[] = {
        { HX_ABRUPT, 2, 3, "9/11", false }, { HX_ABRUPT, 3, 2, "-1/8", false }, { HX_ABRUPT_NOISY, 2, 2, "1/2", false },
        { HX_CLASSICAL, 2, 3, "1", false }, { HX_ABRUPT_FLASH, 2, 2, "1/2", false }, { HX_ABRUPT, 2, 3, "9/11", true },
        { HX_ABRUPT, 3, 2, "-1/8", true }, { HX_ABRUPT, 2, 3, "9/11", false }, { HX_ABRUPT, 3, 2, "-1/8", true } };
    /* abrupt-noisy 3x2 (-1347/15572) and abrupt-flash 2x3 (25/31) take minutes; the last two: the exact LPs in
     * a child process under a time limit (ds_exact.time_limit and, for the last, the oracle's own) */
    size_t n_cases = sizeof cases / sizeof cases[0];
    for (size_t i = 0; i < n_cases; i++) {
        char path[600];
        snprintf(path, sizeof path, "%s/exact-%zu.value", dir, i);
        dw_options o;
        dw_options_default(&o);
        sf_options lp;
        sf_options_default(&lp);
        lp.solver = cases[i].glpk ? SF_GLPK : SF_CLP;
        ds_exact x = { .certificate = path, .time_limit = i == n_cases - 2 ? 600 : 0 };
        if (i == n_cases - 1)
            o.time_limit = 600;
        vw_options_default(&x.vw);
        ds_result r;
        char err[300] = "";
        if (ds_solve(cases[i].v, cases[i].r, cases[i].c, &o, &lp, 1u << 24, NULL, NULL, &x, &r, err, sizeof err) != 0)
            fail_msg("ds_solve: %s", err);
        print_message("%-16s %dx%d %s exact %s (%.3f s, %d rounds), certificate [%s, %s] %s\n",
                      hx_variant_name(cases[i].v), cases[i].r, cases[i].c, cases[i].glpk ? "glpk" : "clp",
                      x.value ? x.value : "none", x.seconds, x.rounds, x.cert.lower ? x.cert.lower : "-",
                      x.cert.upper ? x.cert.upper : "-", x.why);
        assert_true(r.converged);
        assert_true(x.rounds >= 1);
        assert_non_null(x.value);
        assert_string_equal(x.value, cases[i].value);
        assert_true(x.certified && x.cert.exact);
        assert_string_equal(x.cert.lower, cases[i].value);
        vc_cert *c = vc_load(path, err, sizeof err);
        if (!c)
            fail_msg("%s", err);
        char *lower = NULL, *upper = NULL;
        vc_report rep;
        assert_int_equal(vc_check(c, 0, &lower, &upper, &rep), 1);
        assert_string_equal(lower, cases[i].value);
        assert_string_equal(upper, cases[i].value);
        free(lower), free(upper);
        vc_free(c);
        ds_exact_free(&x);
    }
    dw_options o;
    dw_options_default(&o);
    o.max_iterations = 3;
    sf_options lp;
    sf_options_default(&lp);
    lp.solver = SF_CLP;
    ds_exact x = { 0 };
    ds_result r;
    char err[300] = "";
    assert_int_equal(ds_solve(HX_ABRUPT, 3, 2, &o, &lp, 1u << 24, NULL, NULL, &x, &r, err, sizeof err), 0);
    assert_false(r.converged);
    assert_null(x.value);
    assert_non_null(strstr(x.why, "did not meet"));
    ds_exact_free(&x);
    /* the bounds meet, but the exact LPs are stopped at their limit (a microsecond) in their child: no value, the
     * limit named, the bounds still met; and with the oracle's own limit already spent, no exact step at all */
    o.max_iterations = 0;
    x = (ds_exact){ .time_limit = 1e-6 };
    assert_int_equal(ds_solve(HX_ABRUPT, 3, 2, &o, &lp, 1u << 24, NULL, NULL, &x, &r, err, sizeof err), 0);
    print_message("%s\n", x.why);
    assert_true(r.converged);
    assert_null(x.value);
    assert_false(x.certified);
    assert_non_null(strstr(x.why, "the exact LPs: stopped after"));
    assert_non_null(strstr(x.why, "over the time limit"));
    ds_exact_free(&x);
    /* classical 2x3 (Black's default wins surely) meets at its first iteration, its own bounds too: with the
     * limit already spent there, no exact round */
    o.time_limit = 1e-9;
    met_without_an_exact_round(HX_CLASSICAL, 2, 3, &o, &lp, NULL, NULL, "time limit was reached when the bounds met");
    /* seeded by an earlier run's mixtures, whose bounds meet, the best bounds meet at the first iteration, but
     * that restricted equilibrium's own do not: no exact round on it, and none by the limit */
    dw_mixture kept[2] = { { 0 }, { 0 } };
    o.keep = kept;
    o.time_limit = 0;
    assert_int_equal(ds_solve(HX_ABRUPT, 3, 2, &o, &lp, 1u << 24, NULL, NULL, NULL, &r, err, sizeof err), 0);
    assert_true(r.converged);
    double bounds[2] = { r.lower, r.upper };
    o.keep = NULL;
    o.time_limit = 1e-9;
    met_without_an_exact_round(HX_ABRUPT, 3, 2, &o, &lp, kept, bounds,
                               "no restricted equilibrium's own bounds did before the limit");
}

/* A copy of file `from` into `to` with its `first` line replaced by `line` ("" drops it). */
static void rewrite_first(const char *from, const char *to, const char *line)
{
    FILE *in = fopen(from, "r"), *out = fopen(to, "w");
    assert_non_null(in);
    assert_non_null(out);
    char buf[4096];
    bool seen = false;
    while (fgets(buf, sizeof buf, in)) {
        if (!strncmp(buf, "first ", 6)) {
            seen = true;
            fputs(line, out);
            continue;
        }
        fputs(buf, out);
    }
    assert_true(seen);
    fclose(in);
    fclose(out);
}

/* dw_options.first (`arena solve --first CELL`): the value after each of Black's first cells equals the tree's
 * (the double oracle with its root action fixed) as an exact fraction, and its certificate (with a `first`
 * line) is verified at that value; the same certificate with another first cell or without the line is
 * refuted (Black's strategy opens elsewhere; Black's free best response does better); cells off the board, the
 * walk's seeds and certificates of another game as seeds are refused; the command prints the cell and the
 * fraction; a certificate of the same opening seeds a run that goes on to the value. */
static void first_moves_equal_the_tree(void **state)
{
    (void)state;
    static const struct { hx_variant v; int r, c; } boards[] = { { HX_ABRUPT, 2, 3 }, { HX_ABRUPT, 3, 2 },
                                                                 { HX_ABRUPT_NOISY, 2, 2 }, { HX_ABRUPT_FLASH, 2, 2 } };
    for (size_t b = 0; b < sizeof boards / sizeof boards[0]; b++) {
        hx_variant v = boards[b].v;
        int rows = boards[b].r, cols = boards[b].c, cells = rows * cols;
        double whole = tree_value(v, rows, cols, true);
        for (int cell = 0; cell < cells; cell++) {
            double want = tree_value_first(v, rows, cols, true, cell);
            char path[600], other[600];
            snprintf(path, sizeof path, "%s/first-%zu-%d.value", dir, b, cell);
            snprintf(other, sizeof other, "%s/first-%zu-%d-other.value", dir, b, cell);
            dw_options o;
            dw_options_default(&o);
            o.first = cell;
            sf_options lp;
            sf_options_default(&lp);
            lp.solver = SF_CLP;
            ds_exact x = { .certificate = path };
            vw_options_default(&x.vw);
            ds_result r;
            char err[300] = "";
            if (ds_solve(v, rows, cols, &o, &lp, 1u << 24, NULL, NULL, &x, &r, err, sizeof err) != 0)
                fail_msg("ds_solve: %s", err);
            print_message("%-14s %dx%d first %d: tree %+.9f, sequence oracle %s (whole board %+.9f)\n",
                          hx_variant_name(v), rows, cols, cell, want, x.value ? x.value : "none", whole);
            assert_true(r.converged);
            assert_non_null(x.value);
            mpq_t q;
            mpq_init(q);
            assert_int_equal(mpq_set_str(q, x.value, 10), 0);
            assert_true(fabs(mpq_get_d(q) - want) < 1e-9);
            mpq_clear(q);
            assert_true(want <= whole + 1e-9);
            assert_true(x.certified && x.cert.exact);
            assert_string_equal(x.cert.lower, x.value);
            vc_cert *c = vc_load(path, err, sizeof err);
            if (!c)
                fail_msg("%s", err);
            assert_int_equal(vc_first(c), cell);
            char *lower = NULL, *upper = NULL;
            vc_report rep;
            assert_int_equal(vc_check(c, 0, &lower, &upper, &rep), 1);
            assert_string_equal(lower, x.value);
            assert_string_equal(upper, x.value);
            free(lower), free(upper);
            vc_free(c);
            /* another first cell: Black's stated strategy does not open there */
            char line[40], name[8];
            hx_cell_name((cell + 1) % cells, cols, name);
            snprintf(line, sizeof line, "first %s\n", name);
            rewrite_first(path, other, line);
            char msg[1200];
            assert_int_equal(vc_check_file(other, 0, msg, sizeof msg), 0);
            assert_non_null(strstr(msg, "REFUTED: Black's strategy opens at"));
            /* no first line: the whole game, where Black's free best response beats White's strategy unless
             * this opening is worth the board's value */
            rewrite_first(path, other, "");
            int res = vc_check_file(other, 0, msg, sizeof msg);
            assert_int_equal(res, want < whole - 1e-9 ? 0 : 1);
            if (res == 0)
                assert_non_null(strstr(msg, "not the stated upper"));
            ds_exact_free(&x);
        }
    }
    /* refusals: a cell off the board; the pure-strategy oracle */
    dw_options o;
    dw_options_default(&o);
    sf_options lp;
    sf_options_default(&lp);
    ds_result r;
    dw_result wr;
    char err[300] = "";
    o.first = 6;
    assert_int_equal(ds_solve(HX_ABRUPT, 2, 3, &o, &lp, 1u << 24, NULL, NULL, NULL, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "off the board"));
    assert_int_equal(dw_solve(HX_ABRUPT, 2, 3, &o, &wr, err, sizeof err), -1);
    /* the command */
    char cmd[1600];
    snprintf(cmd, sizeof cmd, "cd %s && %s/arena solve --variant abrupt --board 2x3 --method sequence-oracle --solver clp "
             "--exact --first b1 --certificate f.value --json 2>/dev/null", dir, bin);
    char *json = sh_output(cmd);
    strict_json("arena solve --first --json", json);
    assert_non_null(strstr(json, "\"first\":\"b1\""));
    assert_non_null(strstr(json, "\"exact\":{\"value\":\"5/11\""));
    free(json);
    snprintf(cmd, sizeof cmd, "cd %s && %s/arena classify --check f.value", dir, bin);
    char *text = sh_output(cmd);
    assert_non_null(strstr(text, "value after Black's first attempt at b1: verified: value 5/11"));
    free(text);
    static const char *bad[] = { "--first z9", "--first c3", "--first a1 --seed-seconds 1", "--first" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(cmd, sizeof cmd, "cd %s && %s/arena solve --variant abrupt --board 2x3 --method sequence-oracle %s "
                 ">/dev/null 2>&1", dir, bin, bad[i]);
        assert_int_equal(sh_run("%s", cmd), 2);
    }
    snprintf(cmd, sizeof cmd, "%s/arena solve --variant abrupt --board 2x3 --first a1 >/dev/null 2>&1", bin);
    assert_int_equal(sh_run("%s", cmd), 2); /* not the sequence oracle */
    /* a first-move certificate seeds only the game after the same opening */
    static const struct { const char *args, *says; } other[] = {
        { "", "a certificate of the game after Black's first attempt at b1, not of the whole game" },
        { "--first a1", "a certificate of the game after Black's first attempt at b1, not at a1 (--first a1)" },
    };
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        snprintf(cmd, sizeof cmd, "cd %s && %s/arena solve --variant abrupt --board 2x3 --method sequence-oracle %s "
                 "--seed-certificate f.value 2>&1 >/dev/null; echo \"exit $?\"", dir, bin, other[i].args);
        text = sh_output(cmd);
        assert_non_null(strstr(text, other[i].says));
        assert_non_null(strstr(text, "exit 1"));
        free(text);
    }
    /* a run after the opening c1 stopped at an interval seeds the next one, which goes on to the value 3/5: its
     * first restricted game holds both seed strategies, so its value lies within their bounds */
    sh_run("cd %s && %s/arena solve --variant abrupt --board 2x3 --method sequence-oracle --solver clp --first c1 "
           "--max-iterations 16 --certificate fpart.value >/dev/null 2>&1", dir, bin); /* exit 1: not converged */
    double lower, upper;
    vc_cert *c = load_stated("fpart.value", &lower, &upper);
    assert_int_equal(vc_first(c), 2);
    assert_true(lower < 0.6 - 1e-6 || upper > 0.6 + 1e-6); /* an interval, not yet the value */
    vc_free(c);
    snprintf(cmd, sizeof cmd, "cd %s && %s/arena solve --variant abrupt --board 2x3 --method sequence-oracle --solver clp "
             "--first c1 --seed-certificate fpart.value --exact --certificate fdone.value --verbose --json "
             "2>fseed.err", dir, bin);
    json = sh_output(cmd);
    strict_json("arena solve --first --seed-certificate --json", json);
    assert_non_null(strstr(json, "\"first\":\"c1\""));
    assert_non_null(strstr(json, "\"exact\":{\"value\":\"3/5\""));
    const char *att = strstr(json, "\"attempts\":{\"black\":");
    assert_non_null(att);
    assert_true(atoi(att + strlen("\"attempts\":{\"black\":")) > 0);
    free(json);
    first_restricted_within("fseed.err", lower, upper);
    snprintf(cmd, sizeof cmd, "cd %s && %s/arena classify --check fdone.value", dir, bin);
    text = sh_output(cmd);
    assert_non_null(strstr(text, "value after Black's first attempt at c1: verified: value 3/5"));
    free(text);
    /* scripts/tighten-certificates.sh continues a first-move certificate in the game after its opening */
    snprintf(cmd, sizeof cmd, "WORK_DIR=%s/work scripts/tighten-certificates.sh %s 120 %s/fpart.value 2>&1; "
             "echo \"exit $?\"; grep -c -e '^first c1$' -e '^lower 3/5$' -e '^upper 3/5$' %s/fpart.value", dir, bin, dir,
             dir);
    text = sh_output(cmd);
    if (!strstr(text, ": replaced") || !strstr(text, "exit 0\n3"))
        fail_msg("%s", text);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(values_equal_the_tree),
        cmocka_unit_test(warm_and_cold_agree),
        cmocka_unit_test(limits_and_refusals),
        cmocka_unit_test(arena_solve_sequence_oracle),
        cmocka_unit_test(exact_values_are_certified),
        cmocka_unit_test(first_moves_equal_the_tree),
        cmocka_unit_test(seeded_by_a_certificate),
        cmocka_unit_test(tightened_by_the_script),
    };
    return cmocka_run_group_tests(tests, e2e_setup, e2e_teardown);
}
