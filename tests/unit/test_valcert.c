/* tests/unit/test_valcert.c — value certificates (valcert.h, valcert_write.h): the certificates written from
 * the sequence-form LP's strategies (every dark variant on 2x2, classical 2x3) and from the double oracle's
 * (abrupt 2x3 and 3x2) check as exact at the solver's value (to 1e-9); with denominators held to 10 the
 * bounds the checker finds are the ones bestresponse.c computes on the same rational strategies read back
 * from the file; a changed weight, a compensating change, a wrong stated value, a missing state, an illegal
 * attempt and a malformed line are each refused, naming the file and line or the history; past its cap the
 * checker is undecided; the commands (`arena solve --certificate`, `arena classify --check`, `--policy`) print
 * and exit as documented; a certificate written as a policy file (valcert_policy.h) holds every state under the
 * engine's own key with the certificate's probabilities, so that play from the empty board never meets a state
 * it lacks (in process and through bin/policy-bot); and each certificate in docs/certificates is of the board its name says and verifies at
 * the exact value docs/solved.md states, the first-move ones (docs/certificates/first) at the value after the
 * opening their name and `first` line say; a plain certificate played deaf to the reports (valcert_blind.h)
 * gives, in the -noisy and -flash forms, a certificate that verifies, lists each state with the plain state of
 * its report-free history, brackets the reporting game's value and states the bounds bestresponse.c finds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bestresponse.h"
#include "darkhex.h"
#include "doracle.h"
#include "seqform.h"
#include "test_sys.h"
#include "test_util.h"
#include "policy.h"
#include "valcert.h"
#include "valcert_blind.h"
#include "valcert_policy.h"
#include "valcert_write.h"
#include "variant.h"

E2E_FIXTURE(dir, "valcert")

static void board(hx_variant v, int rows, int cols, sv_tree *t)
{
    sv_darkhex p = { .variant = v, .rows = rows, .cols = cols };
    efg_game g;
    sv_darkhex_game(&g, &p);
    assert_int_equal(sv_tree_build(t, &g, 10000000, false), 0);
}

/* A rational "P/Q", "-P/Q" or "P" as a double (the test's own reading of the format). */
static double q_value(const char *s)
{
    const char *slash = strchr(s, '/');
    return strtod(s, NULL) / (slash ? strtod(slash + 1, NULL) : 1.0);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *text = read_all(f);
    fclose(f);
    assert_non_null(text);
    return text;
}

static void spit(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The value of header line `name` of a certificate's text, as a double. */
static double header_value(const char *text, const char *name)
{
    char key[32];
    snprintf(key, sizeof key, "\n%s ", name);
    const char *p = strstr(text, key);
    assert_non_null(p);
    char buf[200];
    sscanf(p + strlen(key), "%199s", buf);
    return q_value(buf);
}

/* ---- reading a certificate back onto a tree, by the test's own parser -------------------------------- */

typedef struct {
    char **line;   /* the state lines of the file */
    int n;
    const sv_tree *t;
    double *policy;
    int cols, rows;
} readback;

static const char *find_state(const readback *b, int player, const char *history)
{
    size_t hl = strlen(history);
    const char *who = player ? "white " : "black ";
    for (int i = 0; i < b->n; i++)
        if (!strncmp(b->line[i], who, 6) && !strncmp(b->line[i] + 6, history, hl) && b->line[i][6 + hl] == ' ')
            return b->line[i] + 6 + hl;
    return NULL;
}

/* Every history of the game: its state's probabilities from the file (uniform when not listed). */
static void fill(readback *b, const hx_game *g)
{
    if (hx_over(g))
        return;
    int q = hx_to_move(g);
    int64_t idx = sv_tree_find(b->t, q, hx_key_fingerprint(g, q));
    assert_true(idx >= 0);
    const sv_infoset *is = &b->t->infosets[idx];
    hx_event ev[HX_MAX_EVENTS];
    char h[VC_HISTORY_MAX];
    vc_history(ev, hx_events(g, q, ev), b->cols, h);
    const char *rest = find_state(b, q, h);
    for (int k = 0; k < is->n; k++) {
        double p = 1.0 / is->n;
        if (rest) {
            char name[HX_CELL_NAME_MAX], pat[16];
            hx_cell_name(b->t->actions[is->offset + k], b->cols, name);
            snprintf(pat, sizeof pat, " %s=", name);
            const char *at = strstr(rest, pat);
            p = at ? q_value(at + strlen(pat)) : 0;
        }
        b->policy[is->offset + k] = p;
    }
    for (int k = 0; k < is->n; k++) {
        hx_game c;
        hx_copy(&c, g);
        hx_attempt(&c, b->t->actions[is->offset + k]);
        fill(b, &c);
    }
}

/* bestresponse.c's evaluation of the strategies a certificate file states. */
static sv_eval evaluate_file(const char *path, const sv_tree *t, hx_variant v, int rows, int cols)
{
    char *text = slurp(path);
    readback b = { .t = t, .rows = rows, .cols = cols };
    b.policy = calloc(t->n_actions, sizeof *b.policy);
    b.line = calloc(strlen(text) / 8 + 1, sizeof *b.line);
    assert_non_null(b.policy);
    assert_non_null(b.line);
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        if (!strncmp(l, "black ", 6) || !strncmp(l, "white ", 6))
            b.line[b.n++] = l;
    hx_game g;
    start(&g, v, rows, cols, 0);
    fill(&b, &g);
    sv_eval e;
    assert_int_equal(sv_evaluate(t, b.policy, &e), 0);
    free(b.policy);
    free(b.line);
    free(text);
    return e;
}

/* ---- writing and checking ------------------------------------------------------------------------------- */

/* Writes the certificate of policy on t; checks it with vc_check_file; returns the checker's verdict and
 * fills lower/upper (the stated bounds, read from the file by the test). */
static int write_and_check(const sv_tree *t, const double *policy, hx_variant v, int rows, int cols,
                           const vw_options *o, const char *path, vw_result *r, char *msg, size_t msglen)
{
    char err[700] = "";
    if (vw_write(t, policy, v, rows, cols, o, path, r, err, sizeof err) != 0)
        fail_msg("vw_write %s: %s", path, err);
    return vc_check_file(path, 0, msg, msglen);
}

/* The LP's strategies: every dark variant on 2x2, and classical 2x3: certified exact at the LP's value. */
/* The tree of the R x C board of v and Black's sequence-form LP's policy on it (malloc'd), its result in *sr. */
static double *lp_policy(hx_variant v, int rows, int cols, sv_tree *t, sf_result *sr)
{
    board(v, rows, cols, t);
    double *policy = malloc(sizeof *policy * t->n_actions);
    assert_non_null(policy);
    sf_options so;
    sf_options_default(&so);
    char err[300] = "";
    if (sf_solve(t, &so, policy, sr, err, sizeof err) != 0)
        fail_msg("sf_solve: %s", err);
    return policy;
}

/* The same from the double oracle, its result in *dr. */
static double *oracle_policy(hx_variant v, int rows, int cols, sv_tree *t, do_result *dr)
{
    board(v, rows, cols, t);
    double *policy = malloc(sizeof *policy * t->n_actions);
    assert_non_null(policy);
    do_options dopt;
    do_options_default(&dopt);
    char err[300] = "";
    if (do_solve(t, &dopt, policy, dr, err, sizeof err) != 0)
        fail_msg("do_solve: %s", err);
    return policy;
}

static void lp_certificates_are_exact(void **state)
{
    (void)state;
    static const struct { hx_variant v; int rows, cols; } cases[] = {
        { HX_CLASSICAL, 2, 2 },       { HX_ABRUPT, 2, 2 },       { HX_CLASSICAL_NOISY, 2, 2 },
        { HX_CLASSICAL_FLASH, 2, 2 }, { HX_ABRUPT_NOISY, 2, 2 }, { HX_ABRUPT_FLASH, 2, 2 },
        { HX_CLASSICAL, 2, 3 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sv_tree t;
        sf_result sr;
        double *policy = lp_policy(cases[i].v, cases[i].rows, cases[i].cols, &t, &sr);
        char path[200], msg[2000];
        snprintf(path, sizeof path, "%s/lp-%dx%d-%s.cert", dir, cases[i].rows, cases[i].cols,
                 hx_variant_name(cases[i].v));
        vw_options o;
        vw_options_default(&o);
        vw_result r;
        int res = write_and_check(&t, policy, cases[i].v, cases[i].rows, cases[i].cols, &o, path, &r, msg, sizeof msg);
        print_message("%s\n", msg);
        assert_int_equal(res, 1);
        assert_true(r.exact);
        assert_non_null(strstr(msg, "verified: value "));
        assert_true(fabs(r.lower_d - sr.value) < 1e-9);
        char *text = slurp(path);
        assert_true(fabs(header_value(text, "lower") - sr.value) < 1e-9);
        assert_true(fabs(header_value(text, "upper") - sr.value) < 1e-9);
        free(text);
        vw_result_free(&r);
        free(policy);
        sv_tree_free(&t);
    }
}

/* The double oracle's strategies on abrupt 3x2 and 2x3 (where the LP takes minutes): certified exact at the
 * oracle's bounds; with denominators up to 10 only, the certified interval holds the value and its ends
 * are bestresponse.c's best-response values of the strategies the file states. */
static void oracle_certificates_are_exact(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        int rows = k ? 2 : 3, cols = k ? 3 : 2;
        sv_tree t;
        do_result dr;
        double *policy = oracle_policy(HX_ABRUPT, rows, cols, &t, &dr);
        char path[200], msg[2000];
        assert_true(dr.converged);
        snprintf(path, sizeof path, "%s/do-%dx%d.cert", dir, rows, cols);
        vw_options o;
        vw_options_default(&o);
        vw_result r;
        int res = write_and_check(&t, policy, HX_ABRUPT, rows, cols, &o, path, &r, msg, sizeof msg);
        print_message("%s\n", msg);
        assert_int_equal(res, 1);
        assert_true(r.exact);
        assert_true(fabs(r.lower_d - dr.lower) < 1e-9 && fabs(r.upper_d - dr.upper) < 1e-9);
        sv_eval e = evaluate_file(path, &t, HX_ABRUPT, rows, cols);
        assert_true(fabs(e.br[0] - r.upper_d) < 1e-9 && fabs(-e.br[1] - r.lower_d) < 1e-9);
        vw_result_free(&r);

        /* coarse denominators: an interval, whose ends bestresponse.c finds on the stated strategies */
        o.den_min = o.den_max = 10;
        snprintf(path, sizeof path, "%s/do-%dx%d-coarse.cert", dir, rows, cols);
        res = write_and_check(&t, policy, HX_ABRUPT, rows, cols, &o, path, &r, msg, sizeof msg);
        print_message("%s\n", msg);
        assert_int_equal(res, 1);
        assert_true(r.lower_d <= dr.lower + 1e-9 && dr.upper <= r.upper_d + 1e-9);
        e = evaluate_file(path, &t, HX_ABRUPT, rows, cols);
        assert_true(fabs(e.br[0] - r.upper_d) < 1e-9);
        assert_true(fabs(-e.br[1] - r.lower_d) < 1e-9);
        if (!r.exact)
            assert_non_null(strstr(msg, "verified: value in ["));
        vw_result_free(&r);
        free(policy);
        sv_tree_free(&t);
    }
}

/* ---- refusals ------------------------------------------------------------------------------------------- */

/* The text with the first occurrence of `from` replaced by `to` (which must be there). */
static char *replaced(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    if (!at)
        fail_msg("'%s' not in the certificate", from);
    size_t n = strlen(text) - strlen(from) + strlen(to) + 1;
    char *out = malloc(n);
    assert_non_null(out);
    snprintf(out, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    return out;
}

/* The 1-based number of the line of `text` that starts with `prefix`. */
static int line_of(const char *text, const char *prefix)
{
    int line = 1;
    for (const char *p = text; *p; line++) {
        if (!strncmp(p, prefix, strlen(prefix)))
            return line;
        const char *nl = strchr(p, '\n');
        if (!nl)
            break;
        p = nl + 1;
    }
    fail_msg("no line starts with '%s'", prefix);
    return 0;
}

/* Checks `text` as a certificate file; returns the verdict, msg filled. */
static int check_text(const char *name, const char *text, char *msg, size_t msglen)
{
    char path[200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    spit(path, text);
    int res = vc_check_file(path, 0, msg, msglen);
    print_message("%s\n", msg);
    return res;
}

/* The first state line of `player` listing two or more attempts (a mixed state) into out. */
static void mixed_line(const char *text, const char *player, char *out, size_t n)
{
    for (const char *p = text; (p = strstr(p, player)); p++) {
        if (p != text && p[-1] != '\n')
            continue;
        const char *nl = strchr(p, '\n');
        int eqs = 0;
        for (const char *c = p; c < nl; c++)
            eqs += *c == '=';
        if (eqs >= 2) {
            snprintf(out, n, "%.*s", (int)(nl - p), p);
            return;
        }
    }
    fail_msg("no mixed %s state", player);
}

static void refusals(void **state)
{
    (void)state;
    sv_tree t;
    sf_result sr;
    double *policy = lp_policy(HX_ABRUPT, 2, 2, &t, &sr);
    char path[200], msg[2000];
    snprintf(path, sizeof path, "%s/good.cert", dir);
    vw_options o;
    vw_options_default(&o);
    vw_result r;
    assert_int_equal(write_and_check(&t, policy, HX_ABRUPT, 2, 2, &o, path, &r, msg, sizeof msg), 1);
    assert_true(r.exact);
    char *good = slurp(path);
    char value[100], wrong[400];
    snprintf(value, sizeof value, "%s", r.lower);

    /* one weight changed: the state's probabilities no longer sum to 1 (a bad line, named) */
    char line[400], *eq, *bad;
    mixed_line(good, "black ", line, sizeof line);
    int at = line_of(good, line);
    snprintf(wrong, sizeof wrong, "%s", line);
    eq = strchr(wrong, '=');
    snprintf(eq + 1, sizeof wrong - (size_t)(eq + 1 - wrong), "1%s", strchr(strchr(line, '=') + 1, ' '));
    bad = replaced(good, line, wrong);
    assert_int_equal(check_text("sum.cert", bad, msg, sizeof msg), -1);
    char want[300];
    snprintf(want, sizeof want, "%s/sum.cert: undecided: line %d: ", dir, at);
    assert_non_null(strstr(msg, want));
    assert_non_null(strstr(msg, "not 1"));
    free(bad);

    /* a compensating change (all of the state's weight on its first attempt): still sums to 1, but the
     * bound it states no longer holds, by bestresponse.c's reckoning too */
    const char *sp = strchr(line + 6, ' ');
    const char *e1 = strchr(sp + 1, '=');
    snprintf(wrong, sizeof wrong, "%.*s=1", (int)(e1 - line), line);
    bad = replaced(good, line, wrong);
    char cpath[200];
    snprintf(cpath, sizeof cpath, "%s/moved.cert", dir);
    spit(cpath, bad);
    sv_eval ev = evaluate_file(cpath, &t, HX_ABRUPT, 2, 2);
    assert_true(-ev.br[1] < sr.value - 1e-9); /* Black's pure move is exploitable */
    assert_int_equal(check_text("moved.cert", bad, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "REFUTED: "));
    assert_non_null(strstr(msg, "stated lower"));
    free(bad);

    /* a wrong stated value */
    char from[120], to[120];
    snprintf(from, sizeof from, "\nupper %s\n", value);
    snprintf(to, sizeof to, "\nupper 1/3\n");
    bad = replaced(good, from, to);
    assert_int_equal(check_text("value.cert", bad, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "REFUTED: "));
    assert_non_null(strstr(msg, "stated upper 1/3"));
    free(bad);
    snprintf(from, sizeof from, "\nlower %s\n", value);
    snprintf(to, sizeof to, "\nlower -1\n");
    bad = replaced(good, from, to);
    assert_int_equal(check_text("lower.cert", bad, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "stated lower -1"));
    free(bad);

    /* a missing state that the opponent's play reaches: White's first state */
    const char *w = strstr(good, "\nwhite - ");
    assert_non_null(w);
    const char *wend = strchr(w + 1, '\n');
    char *cut = malloc(strlen(good) + 1);
    assert_non_null(cut);
    snprintf(cut, strlen(good) + 1, "%.*s%s", (int)(w - good), good, wend);
    char states[64];
    snprintf(states, sizeof states, "\nstates %llu\n", (unsigned long long)(r.states[0] + r.states[1]));
    snprintf(to, sizeof to, "\nstates %llu\n", (unsigned long long)(r.states[0] + r.states[1] - 1));
    bad = replaced(cut, states, to);
    assert_int_equal(check_text("missing.cert", bad, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "White's strategy has no state for its history -,"));
    free(bad);
    free(cut);

    /* an illegal attempt: Black attempting its own stone after +b1 */
    const char *bl = strstr(good, "\nblack +");
    assert_non_null(bl);
    char hist[40], cell[8];
    assert_int_equal(sscanf(bl + 7, "+%3[a-z0-9]", cell), 1);
    snprintf(hist, sizeof hist, "\nblack +%s ", cell);
    const char *hl = strstr(good, hist);
    assert_non_null(hl);
    const char *hend = strchr(hl + 1, '\n');
    snprintf(from, sizeof from, "%.*s", (int)(hend - hl), hl);
    snprintf(to, sizeof to, "%s%s=1", hist, cell);
    bad = replaced(good, from, to);
    assert_int_equal(check_text("illegal.cert", bad, msg, sizeof msg), 0);
    snprintf(want, sizeof want, "Black's strategy attempts %s at its history +%s", cell, cell);
    assert_non_null(strstr(msg, want));
    free(bad);

    /* a fixed opening the stated strategy does not keep: Black mixes b1 and a2 on 2x2 */
    bad = replaced(good, "\nboard 2x2\n", "\nboard 2x2\nfirst b1\n");
    assert_int_equal(check_text("first.cert", bad, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "value after Black's first attempt at b1: REFUTED: Black's strategy opens at a2, but the "
                                "certificate fixes Black's first attempt at b1"));
    free(bad);

    /* malformed lines, each named with its line number */
    static const struct { const char *from, *to; const char *why; } lines[] = {
        { "darkhex-value 1", "darkhex-value 2", "line 1: expected 'darkhex-value 1'" },
        { "\nvariant abrupt", "\nvariant hex", "line 2: expected 'variant V' with a dark variant" },
        { "\nboard 2x2", "\nboard 2x", "line 3: expected 'board RxC'" },
        { "\nlower ", "\nlower x", "line 4: lower" },
        { "\nstates ", "\nstates x", "line 6: expected 'states N'" },
        { "\nblack - ", "\nblack - z9=1 ", "line 7: history -: cell 'z9'" },
        { "\nblack - ", "\nblue - ", "line 7: expected 'black|white HISTORY" },
        { "\nblack - ", "\nblack +q1 ", "line 7: bad history '+q1'" },
        { "\nblack - ", "\nblack - a1=-1/2 ", "line 7: history -: a1:" },
        { "\nboard 2x2\n", "\nboard 2x2\nfirst z9\n", "line 4: expected 'first CELL': cell 'z9'" },
        { "\nboard 2x2\n", "\nboard 2x2\nfirst a1 b1\n", "line 4: expected 'first CELL'" },
        { "\nboard 2x2\n", "\nboard 2x2\nfirst a1\nfirst a1\n", "line 5: expected 'lower P/Q'" },
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        bad = replaced(good, lines[i].from, lines[i].to);
        assert_int_equal(check_text("line.cert", bad, msg, sizeof msg), -1);
        snprintf(want, sizeof want, "%s/line.cert: undecided: %s", dir, lines[i].why);
        if (!strstr(msg, want))
            fail_msg("'%s' does not say '%s'", msg, want);
        free(bad);
    }
    snprintf(from, sizeof from, "\nupper %s\n", value);
    bad = replaced(good, from, "\nupper 1/0\n"); /* a zero denominator */
    assert_int_equal(check_text("line.cert", bad, msg, sizeof msg), -1);
    snprintf(want, sizeof want, "%s/line.cert: undecided: line 5: upper '1/0' is not a rational P/Q", dir);
    assert_non_null(strstr(msg, want));
    free(bad);
    /* a truncated file */
    char *trunc = strdup(good);
    assert_non_null(trunc);
    *strrchr(trunc, 'b') = 0; /* inside the last line */
    *strrchr(trunc, '\n') = 0;
    strcat(trunc, "\n");
    assert_int_equal(check_text("short.cert", trunc, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "the file ends after"));
    free(trunc);

    /* past the cap: undecided, saying so */
    char err[300] = "";
    vc_cert *c = vc_load(path, err, sizeof err);
    assert_non_null(c);
    char *lo = NULL, *up = NULL;
    vc_report rep;
    assert_int_equal(vc_check(c, 10, &lo, &up, &rep), -1);
    assert_non_null(strstr(rep.why, "more than 10 histories"));
    free(lo), free(up);
    assert_int_equal(vc_check(c, 0, &lo, &up, &rep), 1);
    assert_string_equal(lo, value);
    assert_string_equal(up, value);
    free(lo), free(up);
    vc_free(c);

    vw_result_free(&r);
    free(good);
    free(policy);
    sv_tree_free(&t);
}

/* `arena solve --certificate` and `arena classify --check` on a value certificate. */
static void commands(void **state)
{
    (void)state;
    char cmd[1600];
    snprintf(cmd, sizeof cmd, "%s/arena solve --variant abrupt --board 2x2 --method double-oracle --json "
             "--certificate %s/cli.cert", bin, dir);
    char *json = sh_output(cmd);
    strict_json("arena solve --certificate --json", json);
    assert_non_null(strstr(json, "\"certificate\":{\"file\":"));
    assert_non_null(strstr(json, "\"exact\":true"));
    double value = json_number(json, "value");
    free(json);
    char *text = slurp(strcat(strcpy(cmd, dir), "/cli.cert"));
    assert_true(fabs(header_value(text, "lower") - value) < 1e-9);
    free(text);
    snprintf(cmd, sizeof cmd, "%s/arena solve --variant abrupt --board 2x2 --certificate %s/lp.cert", bin, dir);
    text = sh_output(cmd);
    assert_non_null(strstr(text, "certificate     "));
    assert_non_null(strstr(text, ", exact"));
    free(text);

    snprintf(cmd, sizeof cmd, "%s/arena classify --check %s/cli.cert %s/lp.cert", bin, dir, dir);
    text = sh_output(cmd);
    assert_non_null(strstr(text, "verified: value 1/2 (= +0.500000000000)"));
    assert_non_null(strstr(text, "2 certificates: 2 verified"));
    free(text);
    snprintf(cmd, sizeof cmd, "%s/arena classify --check %s/cli.cert >/dev/null", bin, dir);
    assert_int_equal(sh_run("%s", cmd), 0);
    snprintf(cmd, sizeof cmd, "sed 's/^upper .*/upper 1/' %s/cli.cert > %s/wrong.cert && "
             "%s/arena classify --check %s/cli.cert %s/wrong.cert >/dev/null", dir, dir, bin, dir, dir);
    assert_int_equal(sh_run("%s", cmd), 1);
    /* --policy: the verified certificate as a policy file bin/policy-bot plays without a missing state */
    snprintf(cmd, sizeof cmd, "%s/arena classify --check --policy %s/cli.pol %s/cli.cert", bin, dir, dir);
    text = sh_output(cmd);
    assert_non_null(strstr(text, "1 certificate: 1 verified"));
    assert_non_null(strstr(text, "information states (bin/policy-bot --policy "));
    free(text);
    assert_int_equal(sh_run("rm -rf %s/pl && %s/arena match --variant abrupt --board 2x2 --games 40 --openings none --quiet "
                            "--db %s/pl.db --logs %s/pl '%s/policy-bot --policy %s/cli.pol' '%s/random --seed 4'",
                            dir, bin, dir, dir, bin, dir, bin), 0);
    assert_int_equal(sh_run("cat %s/pl/*policy* | grep -q 'policy-bot: game'", dir), 1); /* nothing fell back */
    assert_int_equal(sh_run("ls %s/pl/*policy* >/dev/null", dir), 0);
    snprintf(cmd, sizeof cmd, "%s/arena classify --check --policy %s/no.pol %s/wrong.cert >/dev/null", bin, dir, dir);
    assert_int_equal(sh_run("%s", cmd), 1);
    assert_int_equal(sh_run("test -e %s/no.pol", dir), 1);
    snprintf(cmd, sizeof cmd, "%s/arena classify --policy %s/no.pol %s/cli.cert >/dev/null 2>&1", bin, dir, dir);
    assert_int_equal(sh_run("%s", cmd), 2);
    snprintf(cmd, sizeof cmd, "%s/arena classify --check --policy %s/no.pol %s/cli.cert %s/lp.cert >/dev/null 2>&1", bin,
             dir, dir, dir);
    assert_int_equal(sh_run("%s", cmd), 2);
    assert_int_equal(sh_run("test -e %s/no.pol", dir), 1);
    snprintf(cmd, sizeof cmd, "%s/arena solve --variant hex --board 2x2 --certificate %s/hex.cert >/dev/null 2>&1",
             bin, dir);
    assert_int_equal(sh_run("%s", cmd), 2);
}

/* ---- the plain strategies deaf to the reports ------------------------------------------------------------ */

/* The history text without its report tokens ("!" or "!cell"). */
static void without_reports(const char *history, char *out, size_t n)
{
    char buf[VC_HISTORY_MAX];
    snprintf(buf, sizeof buf, "%s", history);
    out[0] = 0;
    size_t len = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
        if (tok[0] != '!')
            len += (size_t)snprintf(out + len, n - len, "%s%s", len ? "," : "", tok);
    if (!len)
        snprintf(out, n, "-");
}

/* Runs cmd (its output and then "exit STATUS" captured) and expects want in its output and the exit status. */
static void expect_refusal(const char *cmd, const char *want, int status)
{
    char full[1600], line[16];
    snprintf(full, sizeof full, "%s 2>&1; echo exit $?", cmd);
    char *text = sh_output(full);
    print_message("%s", text);
    if (!strstr(text, want))
        fail_msg("expected \"%s\" in: %s", want, text);
    snprintf(line, sizeof line, "exit %d\n", status);
    if (!strstr(text, line))
        fail_msg("expected %s in: %s", line, text);
    free(text);
}

/* Every state of the blind certificate plays what the plain one plays at its report-free history (the test's
 * own reading of both files, by history text), and some state holds a report. */
static void same_as_plain(const vc_cert *blind, const vc_cert *plain)
{
    bool reported = false;
    for (uint32_t i = 0; i < vc_state_count(blind); i++) {
        int player, n;
        const char *history;
        const uint16_t *cells;
        double probs[HX_MAX_CELLS];
        assert_true((n = vc_state(blind, i, &player, &history, &cells, probs)) > 0);
        char want[VC_HISTORY_MAX];
        without_reports(history, want, sizeof want);
        reported |= strcmp(want, history) != 0;
        bool found = false;
        for (uint32_t j = 0; j < vc_state_count(plain) && !found; j++) {
            int pp, pn;
            const char *ph;
            const uint16_t *pc;
            double pq[HX_MAX_CELLS];
            pn = vc_state(plain, j, &pp, &ph, &pc, pq);
            if (pp != player || strcmp(ph, want))
                continue;
            found = true;
            for (int a = 0; a < n; a++) {
                double p = 0;
                for (int b = 0; b < pn; b++)
                    if (pc[b] == cells[a])
                        p = pq[b];
                assert_true(fabs(p - probs[a]) < 1e-9);
            }
        }
        if (!found)
            fail_msg("no plain %s state %s for %s", player ? "white" : "black", want, history);
    }
    assert_true(reported);
}

static void played_deaf_to_the_reports(void **state)
{
    (void)state;
    /* the plain certificates: abrupt 2x2 and 2x3 (the double oracle), classical 2x3 (the LP: Black wins surely) */
    static const struct { hx_variant v; int rows, cols; } plain[] = { { HX_ABRUPT, 2, 2 }, { HX_ABRUPT, 2, 3 },
                                                                       { HX_CLASSICAL, 2, 3 } };
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
        int rows = plain[i].rows, cols = plain[i].cols;
        sv_tree t;
        do_result dr;
        double *policy = oracle_policy(plain[i].v, rows, cols, &t, &dr);
        assert_true(dr.converged);
        char path[200], msg[2000], err[700] = "";
        snprintf(path, sizeof path, "%s/plain-%zu.cert", dir, i);
        vw_options o;
        vw_options_default(&o);
        vw_result r;
        assert_int_equal(write_and_check(&t, policy, plain[i].v, rows, cols, &o, path, &r, msg, sizeof msg), 1);
        assert_true(r.exact);
        vw_result_free(&r);
        free(policy);
        sv_tree_free(&t);
        vc_cert *base = vc_load(path, err, sizeof err);
        assert_non_null(base);
        for (int f = 0; f < 2; f++) {
            hx_variant v = plain[i].v == HX_ABRUPT ? (f ? HX_ABRUPT_FLASH : HX_ABRUPT_NOISY)
                                                   : (f ? HX_CLASSICAL_FLASH : HX_CLASSICAL_NOISY);
            assert_int_equal(vb_plain_variant(v), (int)plain[i].v);
            char out[200];
            snprintf(out, sizeof out, "%s/blind-%zu-%d.cert", dir, i, f);
            if (vb_write_blind(base, v, &o, out, &r, err, sizeof err) != 0)
                fail_msg("vb_write_blind: %s", err);
            assert_int_equal(vc_check_file(out, 0, msg, sizeof msg), 1);
            print_message("%s\n", msg);
            /* the bounds bestresponse.c finds on the reporting game's tree, and the value they bracket */
            sv_tree rt;
            board(v, rows, cols, &rt);
            sv_eval e = evaluate_file(out, &rt, v, rows, cols);
            assert_true(fabs(e.br[0] - r.upper_d) < 1e-9 && fabs(-e.br[1] - r.lower_d) < 1e-9);
            double value;
            if (rows * cols == 4) { /* the reporting game solved here */
                do_result vr;
                sv_tree vt;
                free(oracle_policy(v, rows, cols, &vt, &vr));
                assert_true(vr.converged);
                value = vr.lower;
                sv_tree_free(&vt);
            } else { /* docs/solved.md: +25/31 (the LP); the classical family's 2x3 Black wins surely */
                value = plain[i].v == HX_ABRUPT ? 25.0 / 31 : 1;
            }
            print_message("%dx%d %s deaf to the reports: [%s, %s], value %+.9f\n", rows, cols, hx_variant_name(v),
                          r.lower, r.upper, value);
            assert_true(r.lower_d <= value + 1e-9 && value <= r.upper_d + 1e-9);
            if (plain[i].v == HX_CLASSICAL) /* a sure win stays one */
                assert_true(r.exact && r.lower_d == 1);
            else /* on abrupt 2x3 the reports are worth something: an interval */
                assert_true(rows * cols == 4 || !r.exact);
            vc_cert *blind = vc_load(out, err, sizeof err);
            assert_non_null(blind);
            same_as_plain(blind, base);
            vc_free(blind);
            vw_result_free(&r);
            sv_tree_free(&rt);
        }
        /* refused: another family, a variant without reports */
        hx_variant other = plain[i].v == HX_ABRUPT ? HX_CLASSICAL_NOISY : HX_ABRUPT_FLASH;
        snprintf(path, sizeof path, "%s/never.cert", dir);
        assert_int_equal(vb_write_blind(base, other, &o, path, &r, err, sizeof err), -1);
        assert_non_null(strstr(err, "cannot be played in"));
        assert_int_equal(vb_write_blind(base, plain[i].v, &o, path, &r, err, sizeof err), -1);
        assert_non_null(strstr(err, "has no reports"));
        assert_int_equal(sh_run("test -e %s", path), 1);
        vc_free(base);
    }
    /* a plain certificate missing a state its own play reaches: refused, naming the history */
    char path[200], err[700] = "", cmd[1200];
    snprintf(path, sizeof path, "%s/plain-1.cert", dir);
    char *text = slurp(path), *cut = strstr(text, "\nblack +");
    assert_non_null(cut);
    char *eol = strchr(cut + 1, '\n');
    assert_non_null(eol);
    char history[100];
    sscanf(cut + 7, "%99s", history);
    memmove(cut, eol, strlen(eol) + 1);
    char *states = strstr(text, "\nstates "), *fixed;
    assert_non_null(states);
    char was[40], now[40];
    long count = strtol(states + 8, NULL, 10);
    snprintf(was, sizeof was, "\nstates %ld\n", count);
    snprintf(now, sizeof now, "\nstates %ld\n", count - 1);
    fixed = replaced(text, was, now);
    free(text);
    snprintf(path, sizeof path, "%s/plain-missing.cert", dir);
    spit(path, fixed);
    free(fixed);
    vc_cert *base = vc_load(path, err, sizeof err);
    if (!base)
        fail_msg("vc_load: %s", err);
    vw_options o;
    vw_options_default(&o);
    vw_result r;
    assert_int_equal(vb_write_blind(base, HX_ABRUPT_NOISY, &o, path, &r, err, sizeof err), -1);
    print_message("%s\n", err);
    assert_non_null(strstr(err, "has no Black state"));
    assert_non_null(strstr(err, history));
    vc_free(base);

    /* the command: JSON, its certificate checked; a certificate of another variant or board, usage errors */
    snprintf(cmd, sizeof cmd, "%s/arena solve --variant abrupt-noisy --board 2x3 --method report-blind --json "
             "--plain-certificate %s/plain-1.cert --certificate %s/cli-blind.cert", bin, dir, dir);
    char *json = sh_output(cmd);
    strict_json("arena solve --method report-blind --json", json);
    assert_non_null(strstr(json, "\"method\":\"report-blind\""));
    assert_true(json_number(json, "lower") <= 25.0 / 31 && 25.0 / 31 <= json_number(json, "upper"));
    free(json);
    snprintf(cmd, sizeof cmd, "%s/arena classify --check %s/cli-blind.cert >/dev/null", bin, dir);
    assert_int_equal(sh_run("%s", cmd), 0);
    static const struct { const char *variant, *board; bool plain; const char *want; int status; } refused[] = {
        { "classical-flash", "2x3", true, "a certificate of 2x3 abrupt, not of 2x3 classical", 1 },
        { "abrupt-noisy", "3x2", true, "not of 3x2 abrupt", 1 },
        { "abrupt", "2x3", true, "abrupt has no reports (give a -noisy", 2 },
        { "abrupt-noisy", "2x3", false, "give --plain-certificate FILE and --certificate FILE", 2 },
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        snprintf(cmd, sizeof cmd, "cd %s && %s/arena solve --variant %s --board %s --method report-blind %s "
                 "--certificate refused.cert", dir, bin, refused[i].variant, refused[i].board,
                 refused[i].plain ? "--plain-certificate plain-1.cert" : "");
        expect_refusal(cmd, refused[i].want, refused[i].status);
    }
    assert_int_equal(sh_run("test -e %s/refused.cert", dir), 1);
    snprintf(cmd, sizeof cmd, "%s/arena solve --variant abrupt-noisy --board 2x3 --method sequence-oracle "
             "--plain-certificate %s/plain-1.cert >/dev/null 2>&1", bin, dir);
    assert_int_equal(sh_run("%s", cmd), 2);
}

/* ---- merged certificates ------------------------------------------------------------------------------- */

/* The line "NAME VALUE" of a certificate's text, VALUE copied into out. */
static void header_text(const char *text, const char *name, char *out, size_t n)
{
    char key[40];
    snprintf(key, sizeof key, "\n%s ", name);
    const char *at = strstr(text, key);
    assert_non_null(at);
    at += strlen(key);
    size_t len = strcspn(at, "\n");
    assert_true(len < n);
    memcpy(out, at, len);
    out[len] = 0;
}

/* vc_merge and `arena solve --method merge` on abrupt 2x3: the double oracle's exact equilibrium (9/11) and
 * the uniform strategies' certificate, each player's strategy taken from one: the merged certificate states
 * and verifies Black's file's lower bound and White's file's upper, exactly (as text), bestresponse.c on the
 * tree agrees, and its states are the two files' own; another board is refused naming both, a stated bound
 * its strategy does not give is refused (the file not written), and the command's exit statuses. */
static void merged_certificates(void **state)
{
    (void)state;
    sv_tree t;
    do_result dr;
    double *eq = oracle_policy(HX_ABRUPT, 2, 3, &t, &dr), *uni = malloc(sizeof *uni * t.n_actions);
    assert_non_null(uni);
    for (uint32_t i = 0; i < t.n_infosets; i++)
        for (int a = 0; a < t.infosets[i].n; a++)
            uni[t.infosets[i].offset + a] = 1.0 / t.infosets[i].n;
    char pe[200], pu[200], pm[200], msg[2000], err[700] = "";
    snprintf(pe, sizeof pe, "%s/merge-eq.cert", dir);
    snprintf(pu, sizeof pu, "%s/merge-uniform.cert", dir);
    vw_options o;
    vw_options_default(&o);
    vw_result r;
    assert_int_equal(write_and_check(&t, eq, HX_ABRUPT, 2, 3, &o, pe, &r, msg, sizeof msg), 1);
    assert_true(r.exact);
    vw_result_free(&r);
    assert_int_equal(write_and_check(&t, uni, HX_ABRUPT, 2, 3, &o, pu, &r, msg, sizeof msg), 1);
    assert_false(r.exact);
    vw_result_free(&r);
    free(eq), free(uni);
    vc_cert *e = vc_load(pe, err, sizeof err), *u = vc_load(pu, err, sizeof err);
    assert_non_null(e);
    assert_non_null(u);
    char *te = slurp(pe), *tu = slurp(pu);
    for (int k = 0; k < 2; k++) {
        const vc_cert *b = k ? u : e, *w = k ? e : u;
        const char *tb = k ? tu : te, *tw = k ? te : tu;
        vc_cert *m = vc_merge(b, w, err, sizeof err);
        if (!m)
            fail_msg("vc_merge: %s", err);
        snprintf(pm, sizeof pm, "%s/merged-%d.cert", dir, k);
        assert_int_equal(vc_save(m, pm, err, sizeof err), 0);
        assert_int_equal(vc_check_file(pm, 0, msg, sizeof msg), 1);
        print_message("%s\n", msg);
        char *tm = slurp(pm), want[400], got[400];
        header_text(tb, "lower", want, sizeof want), header_text(tm, "lower", got, sizeof got);
        assert_string_equal(got, want);
        header_text(tw, "upper", want, sizeof want), header_text(tm, "upper", got, sizeof got);
        assert_string_equal(got, want);
        sv_eval ev = evaluate_file(pm, &t, HX_ABRUPT, 2, 3);
        assert_true(fabs(-ev.br[1] - header_value(tb, "lower")) < 1e-9);
        assert_true(fabs(ev.br[0] - header_value(tw, "upper")) < 1e-9);
        /* each state's line is its source file's, Black's from b and White's from w */
        uint64_t ms[2], bs[2], ws[2];
        hx_variant v;
        int rows, cols;
        vc_describe(m, &v, &rows, &cols, ms), vc_describe(b, &v, &rows, &cols, bs), vc_describe(w, &v, &rows, &cols, ws);
        assert_true(ms[0] == bs[0] && ms[1] == ws[1]);
        for (int p = 0; p < 2; p++) {
            const char *mark = p ? "\nwhite " : "\nblack ";
            for (const char *line = strstr(tm, mark); line; line = strstr(line + 1, mark)) {
                char one[600];
                size_t len = strcspn(line + 1, "\n");
                assert_true(len + 2 < sizeof one);
                memcpy(one, line, len + 2), one[len + 2] = 0;
                if (!strstr(p ? tw : tb, one) && line[len + 1] != 0)
                    fail_msg("the state %s is not from %s's file", one + 1, p ? "White" : "Black");
            }
        }
        free(tm);
        vc_free(m);
    }
    /* another board: refused, naming both */
    char p22[200];
    snprintf(p22, sizeof p22, "%s/merge-2x2.cert", dir);
    sv_tree t22;
    do_result d22;
    double *eq22 = oracle_policy(HX_ABRUPT, 2, 2, &t22, &d22);
    assert_int_equal(write_and_check(&t22, eq22, HX_ABRUPT, 2, 2, &o, p22, &r, msg, sizeof msg), 1);
    vw_result_free(&r);
    free(eq22);
    sv_tree_free(&t22);
    vc_cert *small = vc_load(p22, err, sizeof err);
    assert_non_null(small);
    assert_null(vc_merge(e, small, err, sizeof err));
    print_message("%s\n", err);
    assert_non_null(strstr(err, "Black's certificate is of 2x3 abrupt, White's of 2x2 abrupt"));
    vc_free(small);
    vc_free(e), vc_free(u);

    /* the command: JSON, the file checked; a stated bound the strategy does not give; usage */
    char cmd[1600];
    snprintf(cmd, sizeof cmd, "%s/arena solve --variant abrupt --board 2x3 --method merge --json "
             "--black-certificate %s --white-certificate %s --certificate %s/cli-merged.cert", bin, pu, pe, dir);
    char *json = sh_output(cmd);
    strict_json("arena solve --method merge --json", json);
    assert_non_null(strstr(json, "\"method\":\"merge\""));
    assert_true(fabs(json_number(json, "upper") - 9.0 / 11) < 1e-9);
    assert_true(fabs(json_number(json, "lower") - header_value(tu, "lower")) < 1e-9);
    free(json);
    assert_int_equal(sh_run("%s/arena classify --check %s/cli-merged.cert >/dev/null", bin, dir), 0);
    char lower[400], *bad;
    header_text(tu, "lower", lower, sizeof lower);
    char from[420], to[40];
    snprintf(from, sizeof from, "\nlower %s\n", lower);
    snprintf(to, sizeof to, "\nlower %s\n", header_value(tu, "lower") < 0 ? "0" : "-1");
    bad = replaced(tu, from, to);
    char pbad[200];
    snprintf(pbad, sizeof pbad, "%s/merge-bad-lower.cert", dir);
    spit(pbad, bad);
    free(bad);
    static const struct { const char *board, *args, *want; int status; } refused[] = {
        { "2x3", "--black-certificate merge-bad-lower.cert --white-certificate merge-eq.cert", "refuted", 1 },
        { "2x2", "--black-certificate merge-uniform.cert --white-certificate merge-eq.cert", "not of 2x2 abrupt", 1 },
        { "2x3", "--black-certificate merge-uniform.cert", "give --black-certificate FILE, --white-certificate FILE", 2 },
        { "2x3", "--black-certificate merge-uniform.cert --white-certificate merge-eq.cert --certificate-denominator 10",
          "no --out", 2 },
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        snprintf(cmd, sizeof cmd, "cd %s && %s/arena solve --variant abrupt --board %s --method merge %s "
                 "--certificate merge-refused.cert", dir, bin, refused[i].board, refused[i].args);
        expect_refusal(cmd, refused[i].want, refused[i].status);
    }
    assert_int_equal(sh_run("test -e %s/merge-refused.cert", dir), 1);
    assert_int_equal(sh_run("%s/arena solve --variant abrupt --board 2x3 --method sequence-oracle "
                            "--black-certificate %s >/dev/null 2>&1", bin, pu), 2);
    free(te), free(tu);
    sv_tree_free(&t);
}

/* ---- certificates as policy files ---------------------------------------------------------------------- */

/* Certificate c written as a policy file: every state under the key of its history's events (which read back
 * to the same history), with the certificate's probabilities; then games on the engine from the empty board,
 * the certified player(s) sampling the file by the engine's own key (hx_key_fingerprint, what policy-bot
 * computes), the other uniformly: the certified player never meets a state the file lacks, and each state met
 * is the one the certificate lists under the history of the engine's events. */
static void policy_of(const vc_cert *c, const char *path, int games)
{
    char err[600] = "";
    if (vc_policy_save(c, path, err, sizeof err) != 0)
        fail_msg("vc_policy_save: %s", err);
    pf_policy p;
    if (pf_load(&p, path, err, sizeof err) != 0)
        fail_msg("pf_load: %s", err);
    hx_variant v;
    int rows, cols;
    uint64_t states[2];
    vc_describe(c, &v, &rows, &cols, states);
    assert_int_equal(p.meta.variant, v);
    assert_int_equal(p.meta.rows, rows);
    assert_int_equal(p.meta.cols, cols);
    assert_int_equal(p.meta.keys, PF_KEYS_PERFECT);
    assert_string_equal(p.meta.algo, "certificate");
    uint32_t n = vc_state_count(c);
    assert_int_equal(p.n_entries, n);
    assert_int_equal(n, states[0] + states[1]);
    for (uint32_t i = 0; i < n; i++) {
        int player;
        const char *history;
        const uint16_t *cells;
        double probs[HX_MAX_CELLS];
        int k = vc_state(c, i, &player, &history, &cells, probs);
        assert_true(k >= 1);
        hx_event ev[HX_MAX_EVENTS];
        int ne = vc_history_events(history, v, rows, cols, ev, HX_MAX_EVENTS);
        assert_true(ne >= 0);
        char back[VC_HISTORY_MAX];
        vc_history(ev, ne, cols, back);
        assert_string_equal(back, history);
        int64_t e = pf_find(&p, player, hx_events_hash(ev, ne));
        assert_true(e >= 0);
        assert_int_equal(p.entries[e].n, k);
        for (int a = 0; a < k; a++) {
            assert_int_equal(p.cells[p.entries[e].offset + a], cells[a]);
            assert_true(fabs(p.probs[p.entries[e].offset + a] - probs[a]) < 1e-6);
        }
    }
    assert_int_equal(vc_state(c, n, &(int){ 0 }, &(const char *){ NULL }, &(const uint16_t *){ NULL },
                              (double[HX_MAX_CELLS]){ 0 }), -1);
    uint64_t seed = 0x2545f4914f6cdd1dull, met = 0;
    for (int game = 0; game < games; game++) {
        int certified = game % 3 == 2 ? -1 : game % 3; /* Black, White, or both */
        hx_game g;
        start(&g, v, rows, cols, 0);
        while (!hx_over(&g)) {
            int q = hx_to_move(&g);
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            double u = (double)(seed >> 11) / 9007199254740992.0;
            uint16_t legal[HX_MAX_CELLS];
            int nl = hx_legal(&g, legal);
            assert_true(nl > 0);
            int cell = legal[(int)(u * nl) % nl];
            if (certified < 0 || certified == q) {
                int64_t e = pf_find(&p, q, hx_key_fingerprint(&g, q));
                if (e < 0) {
                    hx_event ev[HX_MAX_EVENTS];
                    char h[VC_HISTORY_MAX];
                    vc_history(ev, hx_events(&g, q, ev), cols, h);
                    fail_msg("%s: %s's state %s, reached by its own play, is not in the file", path,
                             q ? "white" : "black", h);
                }
                met++;
                const pf_entry *pe = &p.entries[e];
                double acc = 0;
                cell = p.cells[pe->offset + pe->n - 1];
                for (int a = 0; a < pe->n; a++)
                    if (u < (acc += p.probs[pe->offset + a])) {
                        cell = p.cells[pe->offset + a];
                        break;
                    }
            }
            assert_int_equal(hx_check(&g, cell), 0);
            assert_true(hx_attempt(&g, cell) >= 0);
        }
    }
    print_message("%s: %u states, %llu met in %d games\n", path, n, (unsigned long long)met, games);
    assert_true(met > (uint64_t)games);
    pf_close(&p);
}

static void certificates_as_policies(void **state)
{
    (void)state;
    static const hx_variant dark[] = { HX_CLASSICAL, HX_ABRUPT, HX_CLASSICAL_NOISY, HX_CLASSICAL_FLASH,
                                       HX_ABRUPT_NOISY, HX_ABRUPT_FLASH };
    char path[300], pol[300], err[600] = "";
    for (size_t i = 0; i < sizeof dark / sizeof dark[0]; i++) {
        sv_tree t;
        sf_result sr;
        double *policy = lp_policy(dark[i], 2, 2, &t, &sr);
        snprintf(path, sizeof path, "%s/pol-2x2-%s.cert", dir, hx_variant_name(dark[i]));
        vw_options o;
        vw_options_default(&o);
        vw_result r;
        if (vw_write(&t, policy, dark[i], 2, 2, &o, path, &r, err, sizeof err) != 0)
            fail_msg("vw_write %s: %s", path, err);
        vw_result_free(&r);
        free(policy);
        sv_tree_free(&t);
        vc_cert *c = vc_load(path, err, sizeof err);
        if (!c)
            fail_msg("%s", err);
        snprintf(pol, sizeof pol, "%s/2x2-%s.pol", dir, hx_variant_name(dark[i]));
        policy_of(c, pol, 300);
        vc_free(c);
    }
    static const char *const docs[] = { "3x3-abrupt", "4x2-abrupt-noisy", "2x4-abrupt" };
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        snprintf(path, sizeof path, "docs/certificates/%s.value", docs[i]);
        vc_cert *c = vc_load(path, err, sizeof err);
        if (!c)
            fail_msg("%s", err);
        snprintf(pol, sizeof pol, "%s/%s.pol", dir, docs[i]);
        policy_of(c, pol, 3000);
        vc_free(c);
    }
    /* the history parser refuses what is not a history */
    hx_event ev[HX_MAX_EVENTS];
    assert_int_equal(vc_history_events("-", HX_ABRUPT, 3, 3, ev, HX_MAX_EVENTS), 0);
    assert_int_equal(vc_history_events("+b2,xa1", HX_CLASSICAL, 3, 3, ev, HX_MAX_EVENTS), 2);
    assert_int_equal(ev[1].kind, HX_EV_REJECTED);
    assert_int_equal(vc_history_events("+b2,xa1", HX_ABRUPT, 3, 3, ev, HX_MAX_EVENTS), 2);
    assert_int_equal(ev[1].kind, HX_EV_COLLIDED);
    assert_int_equal(vc_history_events("!,!c3", HX_ABRUPT_FLASH, 3, 3, ev, HX_MAX_EVENTS), 2);
    assert_int_equal(ev[0].kind, HX_EV_OPP_HIT);
    assert_int_equal(ev[1].kind, HX_EV_OPP_HIT_AT);
    assert_int_equal(ev[1].cell, 8);
    assert_int_equal(vc_history_events("+d1", HX_ABRUPT, 3, 3, ev, HX_MAX_EVENTS), -1);
    assert_int_equal(vc_history_events("?a1", HX_ABRUPT, 3, 3, ev, HX_MAX_EVENTS), -1);
    assert_int_equal(vc_history_events("", HX_ABRUPT, 3, 3, ev, HX_MAX_EVENTS), -1);
    assert_int_equal(vc_history_events("+a1,+b1,+c1", HX_ABRUPT, 3, 3, ev, 2), -1);
}

/* The certificate at path, loaded (every state's probabilities summing to exactly 1) and of the board and
 * variant given; states[] its states listed. */
static vc_cert *loaded(const char *path, hx_variant want, int want_rows, int want_cols, uint64_t states[2])
{
    char err[400] = "";
    vc_cert *c = vc_load(path, err, sizeof err);
    if (!c)
        fail_msg("%s", err);
    hx_variant v;
    int rows, cols;
    vc_describe(c, &v, &rows, &cols, states);
    assert_int_equal(v, want);
    assert_int_equal(rows, want_rows);
    assert_int_equal(cols, want_cols);
    return c;
}

/* docs/certificates/FILE.value, loaded(). */
static vc_cert *documented(const char *file, hx_variant want, int want_rows, int want_cols, uint64_t states[2])
{
    char path[200];
    snprintf(path, sizeof path, "docs/certificates/%s.value", file);
    return loaded(path, want, want_rows, want_cols, states);
}

/* The bounds c states are lower and upper (within 1e-11), printed with its states; c freed. */
static void states_bounds(vc_cert *c, const char *file, const uint64_t states[2], double lower, double upper)
{
    double lo, up;
    vc_bounds(c, &lo, &up);
    print_message("%s: [%+.12f, %+.12f] stated, %llu / %llu states\n", file, lo, up, (unsigned long long)states[0],
                  (unsigned long long)states[1]);
    assert_true(fabs(lo - lower) < 1e-11 && fabs(up - upper) < 1e-11);
    vc_free(c);
}

/* The certificates docs/solved.md cites (docs/certificates/): each is of the board and variant its name says, the
 * checker verifies it, and it proves exactly the value (or the interval) the docs state. */
static void the_documented_values(void **state)
{
    (void)state;
    static const struct { const char *file; hx_variant v; int rows, cols; const char *lower, *upper; } docs[] = {
        { "3x3-abrupt", HX_ABRUPT, 3, 3, "57641363828/149938100933", "57641363828/149938100933" },
        { "2x4-abrupt", HX_ABRUPT, 2, 4, "14895781/15954601", "14895781/15954601" },
        { "4x2-abrupt", HX_ABRUPT, 4, 2, "-32437396627/56195109795", "-32437396627/56195109795" },
        { "4x2-abrupt-noisy", HX_ABRUPT_NOISY, 4, 2, "-21603483845076553/43095255417623068",
          "-21603483845076553/43095255417623068" },
        { "2x4-abrupt-noisy", HX_ABRUPT_NOISY, 2, 4, "14396749/15637354", "14396749/15637354" },
        { "2x4-abrupt-flash", HX_ABRUPT_FLASH, 2, 4, "75148215691/81725868652", "75148215691/81725868652" },
        { "3x3-abrupt-noisy", HX_ABRUPT_NOISY, 3, 3,
          "276391760698454584819791215545695429236480869182144658568253303649176201806031045561405075"
          "116839543731940775670318587260282204852830420481404479932684485077671889694946796132607383"
          "0868615441132742413514963/7662554508475298209124189931380262662322566686328916822926664115"
          "373617566859273940974940343928758170999758639757618235613853313500296317694781894505511232"
          "075640875007579501199163596825041203100163917338880",
          "151803219988362372440212714475650112254106114705869442444591509181123018702481406058317348"
          "334567792548850385685382445117921482788161592410470032206672161778505513753/39197305883620"
          "825082827849156874490607285342664544868345698754476966212003327019783413274725989481151729"
          "0297934435468887754890508685940583411243661643443569742414400" },
    };
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        uint64_t states[2];
        vc_cert *c = documented(docs[i].file, docs[i].v, docs[i].rows, docs[i].cols, states);
        char *lower = NULL, *upper = NULL;
        vc_report r;
        assert_int_equal(vc_check(c, 0, &lower, &upper, &r), 1);
        print_message("%s: [%s, %s], %llu histories\n", docs[i].file, lower, upper, (unsigned long long)r.histories);
        assert_string_equal(lower, docs[i].lower);
        assert_string_equal(upper, docs[i].upper);
        free(lower), free(upper);
        vc_free(c);
    }
    /* The 12-cell certificates: each full check walks 0.16-1.5 billion histories (minutes), so here only their board,
     * that they load (every state's probabilities summing to exactly 1) and the bounds they state, against the
     * docs; `arena classify --check --max-histories 0 FILE` verifies them (docs/solved.md). */
    static const struct { const char *file; hx_variant v; int rows, cols; const char *lower, *upper; double lower_d, upper_d; } large[] = {
        { "4x3-classical", HX_CLASSICAL, 4, 3, "-19463/33742", "-19463/33742", -0.576818208761, -0.576818208761 },
        { "4x3-abrupt", HX_ABRUPT, 4, 3, NULL, NULL, -0.237283137962, -0.00104489635729 },
        { "3x4-abrupt", HX_ABRUPT, 3, 4, NULL, NULL, 0.492753952547969, 0.840932873219904 },
        { "2x6-abrupt", HX_ABRUPT, 2, 6, NULL, "1", 0.154099595021649, 1 },
    };
    for (size_t i = 0; i < sizeof large / sizeof large[0]; i++) {
        uint64_t states[2];
        states_bounds(documented(large[i].file, large[i].v, large[i].rows, large[i].cols, states), large[i].file, states,
                      large[i].lower_d, large[i].upper_d);
        for (int b = 0; b < 2; b++) { /* the bound as the file states it, where the docs give it as a fraction */
            const char *bound = b ? large[i].upper : large[i].lower;
            if (!bound)
                continue;
            char cmd[300];
            snprintf(cmd, sizeof cmd, "sed -n 's/^%s //p' docs/certificates/%s.value", b ? "upper" : "lower",
                     large[i].file);
            char *text = sh_output(cmd), want[80];
            snprintf(want, sizeof want, "%s\n", bound);
            assert_string_equal(text, want);
            free(text);
        }
    }
}

/* The first-move certificates docs/solved.md cites (docs/certificates/first/RxC-VARIANT-CELL.value, one per cell
 * not after its half-turn image): each is of the board, variant and opening its name says (its `first` line) and
 * states the value (or interval) the docs give; the checker verifies those of at most 8 cells at exactly that
 * (the 12-cell classical 4x3 ones walk 160-200 million histories each, over a minute: their stated bounds are
 * checked here, the full check is docs/solved.md's command); no opening is worth more than the board's value;
 * every file in the folder is listed here. */
static void the_first_move_certificates(void **state)
{
    (void)state;
    static const struct {
        const char *board, *variant;
        hx_variant v;
        const char *cell, *value; /* the exact value, or NULL: an interval */
        double lower, upper, board_value;
    } first[] = {
        { "3x3", "abrupt", HX_ABRUPT, "a1", "-276538599/1010507237", -0.273663155368, -0.273663155368, 0.384434 },
        { "3x3", "abrupt", HX_ABRUPT, "b1", "-88/645", -0.136434108527, -0.136434108527, 0.384434 },
        { "3x3", "abrupt", HX_ABRUPT, "c1", "4885/75127", 0.065023227335, 0.065023227335, 0.384434 },
        { "3x3", "abrupt", HX_ABRUPT, "a2", "-43293374349049/185097985321231", -0.233894357488, -0.233894357488, 0.384434 },
        { "3x3", "abrupt", HX_ABRUPT, "b2", "-9/94", -0.095744680851, -0.095744680851, 0.384434 },
        { "2x4", "abrupt", HX_ABRUPT, "a1", "577/911", 0.633369923161, 0.633369923161, 0.933635 },
        { "2x4", "abrupt", HX_ABRUPT, "b1", "47/65", 0.723076923077, 0.723076923077, 0.933635 },
        { "2x4", "abrupt", HX_ABRUPT, "c1", "2479401/3093863", 0.801393274363, 0.801393274363, 0.933635 },
        { "2x4", "abrupt", HX_ABRUPT, "d1", "313811641/381235969", 0.823142794798, 0.823142794798, 0.933635 },
        { "4x2", "abrupt", HX_ABRUPT, "a1", "-74/83", -0.891566265060, -0.891566265060, -0.577228 },
        { "4x2", "abrupt", HX_ABRUPT, "b1", "-9/11", -0.818181818182, -0.818181818182, -0.577228 },
        { "4x2", "abrupt", HX_ABRUPT, "a2", "-839/965", -0.869430051813, -0.869430051813, -0.577228 },
        { "4x2", "abrupt", HX_ABRUPT, "b2", "-19/22", -0.863636363636, -0.863636363636, -0.577228 },
        { "4x2", "abrupt-noisy", HX_ABRUPT_NOISY, "a1", "-64/73", -0.876712328767, -0.876712328767, -0.501296 },
        { "4x2", "abrupt-noisy", HX_ABRUPT_NOISY, "b1", "-25/31", -0.806451612903, -0.806451612903, -0.501296 },
        { "4x2", "abrupt-noisy", HX_ABRUPT_NOISY, "a2", "-1030/1201", -0.857618651124, -0.857618651124, -0.501296 },
        { "4x2", "abrupt-noisy", HX_ABRUPT_NOISY, "b2", "-49/58", -0.844827586207, -0.844827586207, -0.501296 },
        { "4x3", "classical", HX_CLASSICAL, "b1", "-1", -1, -1, -0.576818 },
        { "4x3", "classical", HX_CLASSICAL, "c1", "-1", -1, -1, -0.576818 },
        { "4x3", "classical", HX_CLASSICAL, "a2", NULL, -0.910514987873, -0.779616942279, -0.576818 },
        { "4x3", "classical", HX_CLASSICAL, "b2", "-5/7", -0.714285714286, -0.714285714286, -0.576818 },
        { "4x3", "classical", HX_CLASSICAL, "c2", "-1", -1, -1, -0.576818 },
        { "2x4", "abrupt-noisy", HX_ABRUPT_NOISY, "b1", "278/431", 0.645011600928, 0.645011600928, 0.920664 },
        { "4x3", "classical", HX_CLASSICAL, "a1", "-1", -1, -1, -0.576818 },
        { "2x4", "abrupt-noisy", HX_ABRUPT_NOISY, "a1", "561615105787/988406941512", 0.568202308381, 0.568202308381,
          0.920664 },
        { "2x4", "abrupt-noisy", HX_ABRUPT_NOISY, "c1", "15083458929/21092539649", 0.715108715214, 0.715108715214,
          0.920664 },
        { "2x4", "abrupt-noisy", HX_ABRUPT_NOISY, "d1", "125042100711961/162346569829910", 0.770217078457, 0.770217078457,
          0.920664 },
        { "3x2", "abrupt-flash", HX_ABRUPT_FLASH, "a2", "-2/3", -0.666666666667, -0.666666666667, -0.087838 },
    };
    size_t n = sizeof first / sizeof first[0];
    for (size_t i = 0; i < n; i++) {
        char name[100], path[200];
        snprintf(name, sizeof name, "first/%s-%s-%s", first[i].board, first[i].variant, first[i].cell);
        snprintf(path, sizeof path, "docs/certificates/%s.value", name);
        int rows = first[i].board[0] - '0', cols = first[i].board[2] - '0';
        uint64_t states[2];
        vc_cert *c = documented(name, first[i].v, rows, cols, states);
        const char *why;
        assert_int_equal(vc_first(c), hx_cell_parse(first[i].cell, rows, cols, &why));
        assert_true(first[i].upper <= first[i].board_value);
        if (rows * cols > 8) {
            states_bounds(c, name, states, first[i].lower, first[i].upper);
            continue;
        }
        vc_free(c);
        char msg[1200], want[200];
        assert_int_equal(vc_check_file(path, 0, msg, sizeof msg), 1);
        print_message("%s\n", msg);
        if (first[i].value)
            snprintf(want, sizeof want, "value after Black's first attempt at %s: verified: value %s (= %+.12f) ",
                     first[i].cell, first[i].value, first[i].lower);
        else
            snprintf(want, sizeof want, "(= [%+.12f, %+.12f])", first[i].lower, first[i].upper);
        if (!strstr(msg, want))
            fail_msg("expected \"%s\" in: %s", want, msg);
    }
    char *count = sh_output("ls docs/certificates/first | wc -l");
    assert_int_equal(atoi(count), (int)n);
    free(count);
}

/* The certificates kept compressed in docs/certificates (FILE.value.gz: spread mixtures, or a plain
 * equilibrium deaf to the reports, list many more states than a restricted game holds, 2-131 MB unpacked):
 * each unpacked with gzip loads (every state's probabilities summing to exactly 1), is of the board and
 * variant its name says, and states the interval docs/solved.md gives; the quick one is checked in full
 * here, and `arena classify --check --max-histories 0` on the unpacked file verifies any (1-40 s,
 * docs/solved.md). */
static void the_compressed_certificates(void **state)
{
    (void)state;
    /* full: checked here too (4x2's walks about five million histories) */
    static const struct { const char *file; hx_variant v; int rows, cols; double lower, upper; bool full; } gz[] = {
        { "3x3-abrupt-flash", HX_ABRUPT_FLASH, 3, 3, 0.303124690129, 0.465356073417, false },
        { "4x2-abrupt-flash", HX_ABRUPT_FLASH, 4, 2, -0.606349966772, -0.474183631928, true },
        { "4x3-abrupt-noisy", HX_ABRUPT_NOISY, 4, 3, -0.339593647194, 0.311725723035, false },
        { "3x4-abrupt-noisy", HX_ABRUPT_NOISY, 3, 4, 0.0585593301485, 0.902935495974, false },
        { "4x3-classical-noisy", HX_CLASSICAL_NOISY, 4, 3, -0.820016963812717, -0.319999426294, false },
        { "2x5-abrupt-noisy", HX_ABRUPT_NOISY, 2, 5, 0.716034554205, 1, false },
        { "2x5-abrupt-flash", HX_ABRUPT_FLASH, 2, 5, 0.720301942118, 1, false },
        { "2x6-abrupt-noisy", HX_ABRUPT_NOISY, 2, 6, 0, 1, false },
        { "5x2-abrupt-noisy", HX_ABRUPT_NOISY, 5, 2, -0.977640012322, -0.458764606227, false },
        { "5x2-abrupt-flash", HX_ABRUPT_FLASH, 5, 2, -0.985618787347, -0.417725466905, false },
        { "6x2-abrupt-noisy", HX_ABRUPT_NOISY, 6, 2, -1, 0.63718483697, false },
    };
    for (size_t i = 0; i < sizeof gz / sizeof gz[0]; i++) {
        char path[64], cmd[300];
        snprintf(path, sizeof path, "/tmp/valcert_gz_%d.value", (int)getpid());
        snprintf(cmd, sizeof cmd, "gzip -dc docs/certificates/%s.value.gz > %s", gz[i].file, path);
        assert_int_equal(system(cmd), 0);
        uint64_t states[2];
        vc_cert *c = loaded(path, gz[i].v, gz[i].rows, gz[i].cols, states);
        unlink(path);
        if (gz[i].full) {
            char *lower = NULL, *upper = NULL;
            vc_report r;
            assert_int_equal(vc_check(c, 0, &lower, &upper, &r), 1);
            print_message("%s: verified, %llu histories\n", gz[i].file, (unsigned long long)r.histories);
            free(lower), free(upper);
        }
        states_bounds(c, gz[i].file, states, gz[i].lower, gz[i].upper);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lp_certificates_are_exact),
        cmocka_unit_test(oracle_certificates_are_exact),
        cmocka_unit_test(refusals),
        cmocka_unit_test(commands),
        cmocka_unit_test(the_documented_values),
        cmocka_unit_test(the_compressed_certificates),
        cmocka_unit_test(the_first_move_certificates),
        cmocka_unit_test(certificates_as_policies),
        cmocka_unit_test(played_deaf_to_the_reports),
        cmocka_unit_test(merged_certificates),
    };
    return cmocka_run_group_tests(tests, e2e_setup, e2e_teardown);
}
