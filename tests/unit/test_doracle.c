/* tests/unit/test_doracle.c — the double-oracle solver (doracle.h) and `arena solve --method double-oracle`:
 * on every board and variant the sequence-form LP solves in seconds (2x2 in every variant, hex with the swap
 * rule too; hex and classical on 3x2 and 2x3) and on Kuhn poker (chance nodes) and a biased matching pennies,
 * its bounds meet (gap below 1e-9) at the LP's value, at every iteration they bracket the LP's value, and the
 * strategies it returns are scored by the independent best response of bestresponse.c at the same bounds.
 * On abrupt 3x2 and 2x3, where the LP takes minutes, the bounds meet and bestresponse.c confirms them. A
 * limit stops it with valid bounds and converged false; the command prints strict JSON and exits 1 then. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bestresponse.h"
#include "darkhex.h"
#include "doracle.h"
#include "kuhn.h"
#include "seqform.h"
#include "test_sys.h"
#include "test_util.h"
#include "variant.h"

typedef struct {
    double value; /* the LP's */
    int calls;
    int bad;      /* iterations whose bounds did not bracket the value */
} bracket;

static void check_bracket(void *ctx, const do_progress_info *p)
{
    bracket *b = ctx;
    b->calls++;
    if (p->lower > b->value + 1e-9 || p->upper < b->value - 1e-9 || p->lower > p->upper + 1e-12)
        b->bad++;
}

static double lp_value(const sv_tree *t)
{
    double *policy = malloc(sizeof *policy * t->n_actions);
    assert_non_null(policy);
    sf_options o;
    sf_options_default(&o);
    sf_result r;
    char err[300] = "";
    if (sf_solve(t, &o, policy, &r, err, sizeof err) != 0)
        fail_msg("sf_solve: %s", err);
    assert_true(r.gap < 1e-9);
    free(policy);
    return r.value;
}

/* Runs the double oracle on t; checks its result against bestresponse.c on the strategies it returns. */
static void oracle(const sv_tree *t, const do_options *o, do_result *r)
{
    double *policy = malloc(sizeof *policy * t->n_actions);
    assert_non_null(policy);
    char err[300] = "";
    if (do_solve(t, o, policy, r, err, sizeof err) != 0)
        fail_msg("do_solve: %s", err);
    assert_true(r->lower <= r->upper + 1e-12);
    assert_true(r->iterations >= 1);
    assert_true(r->support[0] >= 1 && r->support[0] <= r->strategies[0]);
    assert_true(r->support[1] >= 1 && r->support[1] <= r->strategies[1]);
    for (uint32_t k = 0; k < t->n_infosets; k++) { /* a legal distribution everywhere */
        double sum = 0;
        for (int a = 0; a < t->infosets[k].n; a++) {
            double p = policy[t->infosets[k].offset + a];
            assert_true(p >= 0 && p <= 1);
            sum += p;
        }
        assert_true(fabs(sum - 1) < 1e-12);
    }
    sv_eval e;
    assert_int_equal(sv_evaluate(t, policy, &e), 0);
    assert_true(fabs(e.br[0] - r->upper) < 1e-12);  /* Black's best response to White's mixture */
    assert_true(fabs(-e.br[1] - r->lower) < 1e-12); /* minus White's to Black's */
    free(policy);
}

static void against_lp(const sv_tree *t, const char *name)
{
    double v = lp_value(t);
    bracket b = { .value = v };
    do_options o;
    do_options_default(&o);
    o.progress = check_bracket;
    o.ctx = &b;
    do_result r;
    oracle(t, &o, &r);
    print_message("%-24s LP %+.12f, double oracle [%+.12f, %+.12f] in %d iterations, sets %u / %u, support %u / %u\n",
                  name, v, r.lower, r.upper, r.iterations, r.strategies[0], r.strategies[1], r.support[0],
                  r.support[1]);
    assert_true(r.converged);
    assert_true(r.gap < 1e-9);
    assert_true(fabs(r.lower - v) < 1e-9 && fabs(r.upper - v) < 1e-9);
    assert_true(fabs(r.value - v) < 1e-9);
    assert_int_equal(b.calls, r.iterations);
    assert_int_equal(b.bad, 0);
}

static void board(hx_variant v, int rows, int cols, unsigned flags, sv_tree *t)
{
    sv_darkhex p = { .variant = v, .rows = rows, .cols = cols, .flags = flags };
    efg_game g;
    sv_darkhex_game(&g, &p);
    assert_int_equal(sv_tree_build(t, &g, 1u << 24, false), 0);
}

/* Matching pennies where (H, H) pays 2, (T, T) 1 and a mismatch -1; player 1 does not see the coin. */
typedef struct {
    int8_t moves, coin[2];
} mp_state;
static void mp_root(const efg_game *g, void *s) { (void)g; *(mp_state *)s = (mp_state){ 0 }; }
static int mp_player(const efg_game *g, const void *s)
{
    (void)g;
    return ((const mp_state *)s)->moves == 2 ? EFG_TERMINAL : ((const mp_state *)s)->moves;
}
static double mp_utility(const efg_game *g, const void *state)
{
    (void)g;
    const mp_state *s = state;
    return s->coin[0] != s->coin[1] ? -1 : s->coin[0] == 0 ? 2 : 1;
}
static int mp_actions(const efg_game *g, const void *s, uint16_t *out, double *probs)
{
    (void)g, (void)s, (void)probs;
    out[0] = 0;
    out[1] = 1;
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
    return 1 + (uint64_t)((const mp_state *)s)->moves;
}

static void small_games_equal_the_lp(void **state)
{
    (void)state;
    efg_game mp = { .state_size = sizeof(mp_state), .root = mp_root, .player = mp_player, .utility = mp_utility,
                    .actions = mp_actions, .apply = mp_apply, .infoset = mp_infoset };
    sv_tree t;
    assert_int_equal(sv_tree_build(&t, &mp, 100, false), 0);
    against_lp(&t, "matching pennies");
    sv_tree_free(&t);
    efg_game kuhn = kuhn_game();
    assert_int_equal(sv_tree_build(&t, &kuhn, 1000, false), 0);
    against_lp(&t, "Kuhn poker");
    sv_tree_free(&t);

    /* view keys merge information states: not perfect recall, refused */
    sv_darkhex dh = { .variant = HX_CLASSICAL, .rows = 2, .cols = 2 };
    efg_game g;
    sv_darkhex_game(&g, &dh);
    assert_int_equal(sv_tree_build(&t, &g, 1u << 20, true), 0);
    do_options o;
    do_options_default(&o);
    do_result r;
    char err[300] = "";
    assert_int_equal(do_solve(&t, &o, NULL, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "perfect recall"));
    sv_tree_free(&t);
}

static void boards_equal_the_lp(void **state)
{
    (void)state;
    static const struct {
        hx_variant v;
        int r, c;
        unsigned flags;
    } cases[] = { { HX_HEX, 2, 2, 0 },          { HX_HEX, 2, 2, HX_SWAP_RULE }, { HX_CLASSICAL, 2, 2, 0 },
                  { HX_ABRUPT, 2, 2, 0 },       { HX_CLASSICAL_NOISY, 2, 2, 0 }, { HX_CLASSICAL_FLASH, 2, 2, 0 },
                  { HX_ABRUPT_NOISY, 2, 2, 0 }, { HX_ABRUPT_FLASH, 2, 2, 0 },    { HX_HEX, 3, 2, 0 },
                  { HX_HEX, 2, 3, 0 },          { HX_CLASSICAL, 3, 2, 0 },       { HX_CLASSICAL, 2, 3, 0 } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sv_tree t;
        board(cases[i].v, cases[i].r, cases[i].c, cases[i].flags, &t);
        char name[64];
        snprintf(name, sizeof name, "%s %dx%d%s", hx_variant_name(cases[i].v), cases[i].r, cases[i].c,
                 cases[i].flags ? " swap" : "");
        against_lp(&t, name);
        sv_tree_free(&t);
    }
}

/* Abrupt 3x2 and 2x3: the LP takes minutes, so no LP here; the bounds must meet, and bestresponse.c, scoring
 * the returned strategies independently, must find the same bounds (oracle() checks it). */
static void abrupt_six_cells_close(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        sv_tree t;
        board(HX_ABRUPT, k ? 2 : 3, k ? 3 : 2, 0, &t);
        do_options o;
        do_options_default(&o);
        do_result r;
        oracle(&t, &o, &r);
        print_message("abrupt %s: [%+.12f, %+.12f] in %d iterations, support %u / %u\n", k ? "2x3" : "3x2", r.lower,
                      r.upper, r.iterations, r.support[0], r.support[1]);
        assert_true(r.converged);
        assert_true(r.gap < 1e-9);
        assert_true(r.lower > -1 && r.upper < 1); /* neither player wins surely on these boards */
        sv_tree_free(&t);
    }
}

/* Stopped by a limit: converged false, bounds still around the LP's value. */
static void a_limit_leaves_valid_bounds(void **state)
{
    (void)state;
    sv_tree t;
    board(HX_ABRUPT, 2, 2, 0, &t);
    double v = lp_value(&t);
    do_options o;
    do_options_default(&o);
    o.max_iterations = 1;
    do_result r;
    oracle(&t, &o, &r);
    assert_int_equal(r.iterations, 1);
    assert_false(r.converged);
    assert_true(r.gap > 1e-9);
    assert_true(r.lower <= v + 1e-12 && v <= r.upper + 1e-12);
    sv_tree_free(&t);
}

E2E_FIXTURE(dir, "doracle")

static void arena_solve_double_oracle(void **state)
{
    (void)state;
    char cmd[1600];
    snprintf(cmd, sizeof cmd, "%s/arena solve --variant abrupt --board 2x2 --method double-oracle --json --out %s/do.pol",
             bin, dir);
    char *json = sh_output(cmd);
    strict_json("arena solve --method double-oracle --json", json);
    assert_true(fabs(json_number(json, "value") - 0.5) < 1e-9);
    assert_true(fabs(json_number(json, "lower") - 0.5) < 1e-9);
    assert_true(fabs(json_number(json, "upper") - 0.5) < 1e-9);
    assert_true(json_number(json, "exploitability") < 1e-9);
    assert_true(json_number(json, "iterations") >= 1);
    assert_non_null(strstr(json, "\"converged\":true"));
    free(json);
    snprintf(cmd, sizeof cmd, "%s/arena exploit %s/do.pol --json", bin, dir);
    json = sh_output(cmd);
    strict_json("arena exploit --json", json);
    assert_true(fabs(json_number(json, "ev_black") - 0.5) < 1e-6);
    assert_true(json_number(json, "exploitability") < 1e-6);
    free(json);

    snprintf(cmd, sizeof cmd, "%s/arena solve --variant abrupt --board 2x2 --method double-oracle --max-iterations 1 "
             "--format text || true", bin); /* exit status 1, checked below */
    char *text = sh_output(cmd);
    assert_non_null(strstr(text, "not solved (a limit)"));
    free(text);
    snprintf(cmd, sizeof cmd, "%s/arena solve --variant abrupt --board 2x2 --method double-oracle --max-iterations 1 "
             ">/dev/null 2>&1", bin);
    assert_int_equal(sh_run("%s", cmd), 1);
    static const char *bad[] = { "--time-limit 0", "--time-limit x", "--time-limit -3", "--max-iterations 0",
                                 "--method oracle" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(cmd, sizeof cmd, "%s/arena solve --variant abrupt --board 2x2 --method double-oracle %s >/dev/null 2>&1",
                 bin, bad[i]);
        assert_int_equal(sh_run("%s", cmd), 2);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(small_games_equal_the_lp),
        cmocka_unit_test(boards_equal_the_lp),
        cmocka_unit_test(abrupt_six_cells_close),
        cmocka_unit_test(a_limit_leaves_valid_bounds),
        cmocka_unit_test(arena_solve_double_oracle),
    };
    return cmocka_run_group_tests(tests, e2e_setup, e2e_teardown);
}
