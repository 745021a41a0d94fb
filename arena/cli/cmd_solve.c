/* arena/cli/cmd_solve.c — `arena solve`: the exact Nash equilibrium of a small board by the sequence-form
 * LP (seqform.h, GLPK) or by the double-oracle method (doracle.h, --method double-oracle): the game value for
 * Black, the LP sizes (or the oracle's bounds, iterations and supports) and solve time, both players'
 * equilibrium strategies as one policy file, and their exploitability by the exact best response
 * (bestresponse.h); with --certificate, a value certificate of the strategies (valcert_write.h). With --walk
 * the double oracle runs without the tree (dowalk.h): bounds, iterations, sets, times and memory, and with
 * --certificate the certificate of its mixtures (dowalk_cert.h); --method sequence-oracle runs the
 * sequence-form double oracle (doseq.h), optionally seeded by the walk's (--seed-seconds); --method report-blind
 * writes the certificate of a plain board's certified strategies played in its -noisy/-flash form
 * (valcert_blind.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bestresponse.h"
#include "board.h"
#include "cli.h"
#include "clock.h"
#include "commands.h"
#include "darkhex.h"
#include "doracle.h"
#include "dowalk.h"
#include "dowalk_cert.h"
#include "doseq.h"
#include "doseq_seed.h"
#include "lpclp.h"
#include "policy.h"
#include "seqform.h"
#include "valcert_blind.h"
#include "valcert_write.h"
#include "variant.h"

static const char help[] =
    "usage: arena solve --variant V --board RxC [--swap] [--out FILE] [--solver glpk|clp]\n"
    "                   [--method dual|primal|double-oracle] [--exact] [--lp both|black|white] [--max-nodes N]\n"
    "                   [--walk] [--time-limit S] [--max-iterations N] [--certificate FILE] [--verbose]\n"
    "                   [--method sequence-oracle [--seed-seconds S | --seed-certificate FILE]\n"
    "                   [--spread-defaults] [--first CELL]]\n"
    "                   [--method report-blind --plain-certificate FILE --certificate FILE]\n"
    "                   [--method merge --black-certificate FILE --white-certificate FILE --certificate FILE]\n"
    "                   [--json | --format text|json]\n\n"
    "Solves the game exactly: builds its whole tree, then each player's sequence-form linear program\n"
    "(Koller, Megiddo and von Stengel) with GLPK's simplex, and prints the game value for Black (+1 a\n"
    "sure win, -1 a sure loss), the sizes of both LPs (sequences, constraints, variables, nonzeros), the\n"
    "simplex iterations and times, and the exploitability of the equilibrium strategies by the exact best\n"
    "response (0 up to the LP tolerance). Trees of 3x2 and 2x3 fit; 3x3 does not.\n\n"
    "  --variant V      hex, classical, abrupt, classical-noisy, classical-flash, abrupt-noisy, abrupt-flash\n"
    "  --board RxC      rows x columns\n"
    "  --swap           hex with the swap rule (square boards)\n"
    "  --out FILE       write both players' strategies as one policy file (docs/policy-format.md, algorithm\n"
    "                   'seqform-lp'; what policy-bot plays and 'arena exploit' scores); the file is read\n"
    "                   back and its own exploitability (float probabilities) reported too\n"
    "  --solver S       glpk (default) or clp: COIN-OR CLP's dual simplex on the same LP (faster on the\n"
    "                   abrupt LPs: docs/solver.md; --method, --exact and --verbose are GLPK's, but\n"
    "                   sequence-oracle's --exact is QSopt_ex's)\n"
    "  --method M       dual (default: the dual simplex with the long-step ratio test) or primal; or\n"
    "                   double-oracle: no sequence-form LP, but a matrix game over growing sets of pure\n"
    "                   strategies, each iteration adding each player's exact best response (on the whole\n"
    "                   tree) to the other's restricted equilibrium mixture, until Black's best-response\n"
    "                   value against White's mixture (an upper bound on the value) meets minus White's\n"
    "                   against Black's (a lower bound); prints the value, both bounds, the gap, the\n"
    "                   iterations, the sets' and the supports' sizes, the times and the peak memory\n"
    "                   (docs/solver.md). Exit status 1 when a limit stops it before the bounds meet;\n"
    "                   --exact runs GLPK's exact simplex after each restricted game's simplex\n"
    "  --walk           double-oracle without the game tree (dark variants, at most 16 cells, no --out\n"
    "                   or --exact): pure strategies as maps from information states to\n"
    "                   cells, payoffs played out on the rules engine, each best response a walk over the\n"
    "                   responder's information states against the other's support only (abrupt 3x3,\n"
    "                   4x3: docs/solver.md); prints the bounds, iterations, sets, information states\n"
    "                   walked, times and peak memory; JSON as double-oracle's with \"walk\":true and\n"
    "                   states, stored instead of nodes, infosets and exploitability keys. With\n"
    "                   --certificate, the certificate of the mixtures of its best bounds (the value\n"
    "                   when they met, else the interval reached)\n"
    "  --method sequence-oracle  the sequence-form double oracle without the whole tree (dark variants, at\n"
    "                   most 16 cells, no --out or --walk): the restricted game is the game with\n"
    "                   each player limited, state by state, to the attempts its best responses made there\n"
    "                   (and a default cell: docs/solver.md); its tree's sequence-form LP (--solver glpk\n"
    "                   or clp) gives both restricted equilibria (with clp, each LP from the last one's\n"
    "                   basis), whose exact best responses give the bounds and add their attempts; prints the\n"
    "                   bounds, iterations, simplex iterations, the last restricted game's size,\n"
    "                   the times and the peak memory; --certificate as with --walk (docs/solver.md)\n"
    "  --seed-seconds S  sequence-oracle: first run the --walk double oracle for S seconds and start the\n"
    "                   restricted game with the attempts of its best mixtures (default 0: none); the\n"
    "                   seconds count against --time-limit\n"
    "  --seed-certificate FILE  sequence-oracle: start the restricted game with every attempt that the value\n"
    "                   certificate FILE (of this variant and board) plays with positive probability, e.g. the\n"
    "                   one a run stopped by --time-limit wrote, so the run goes on from there\n"
    "  --spread-defaults  sequence-oracle: each restricted mixture's pure strategies after the first play,\n"
    "                   where they store no cell, one chosen by a hash of the state and the strategy's number\n"
    "                   instead of the one default cell, so that outside the restricted game the mixture is\n"
    "                   not one known strategy (on the -flash boards a best response otherwise steers\n"
    "                   there and beats every mixture outright: docs/solver.md)\n"
    "  --first CELL     sequence-oracle: the game where Black's first attempt is fixed at CELL (e.g. b2)\n"
    "                   and White knows it: the value after that opening (the first-move table,\n"
    "                   docs/solved.md); its certificate says so (a 'first CELL' line); seeded only by\n"
    "                   --seed-certificate of a certificate of the same opening\n"
    "  --method report-blind  -noisy and -flash variants: the strategies of the plain variant's value\n"
    "                   certificate --plain-certificate FILE (classical for classical-noisy and -flash,\n"
    "                   abrupt for abrupt-noisy and -flash; same board) played here deaf to the reports,\n"
    "                   written to --certificate FILE and checked: the bounds they certify for this\n"
    "                   variant (docs/solver.md). The file also seeds --method sequence-oracle\n"
    "                   (--seed-certificate)\n"
    "  --plain-certificate FILE  report-blind: the plain variant's certificate\n"
    "  --method merge   Black's strategy from --black-certificate FILE and White's from\n"
    "                   --white-certificate FILE (value certificates of this variant and board) in one\n"
    "                   certificate, checked by both exact best responses and written to --certificate\n"
    "                   FILE only when verified: one file for an interval whose two ends came from\n"
    "                   different runs\n"
    "  --time-limit S   double-oracle: stop after S seconds (checked between iterations; default none)\n"
    "  --max-iterations N  double-oracle: stop after N restricted games (default none)\n"
    "  --exact          after the simplex, GLPK's exact rational simplex from its basis (slow); with\n"
    "                   --method sequence-oracle: once the bounds meet, the last restricted game's two\n"
    "                   LPs solved in rational arithmetic (QSopt_ex, from CLP's last basis): the value as\n"
    "                   a fraction (\"exact\" in JSON), and with --certificate the certificate of those\n"
    "                   exact strategies (the value itself when they are equilibria of the game);\n"
    "                   its rounds count against --time-limit (their exact LPs stopped when it runs out)\n"
    "  --lp P           both (default): each player's LP, their values compared (gap); black or white:\n"
    "                   only that player's LP, the other's strategy read from its dual solution (the\n"
    "                   two LPs are each other's duals; gap is then 0). One LP of a pair can take many\n"
    "                   times as long as the other (3x2 and 2x3 abrupt: docs/solver.md)\n"
    "  --certificate FILE  dark variants: write a value certificate of both strategies (docs/surewin.md):\n"
    "                   each probability rounded to a rational (denominators 10, 100, ... up to 1e9 until\n"
    "                   the bounds meet), the exact bounds they give computed by the certificate's checker;\n"
    "                   'arena classify --check FILE' verifies it. Prints the certified value or interval\n"
    "  --certificate-denominator D  round only to denominators up to D, one try (default: 10, 100, ...,\n"
    "                   1e9, each tried; on a large board each try is a long exact check)\n"
    "  --max-nodes N    largest tree to build (default 100000000)\n"
    "  --verbose        GLPK's progress lines on stderr\n"
    "  --json           one JSON object with keys variant, board, swap, value, value_black_lp,\n"
    "                   value_white_lp, gap, nodes, leaves, payoff_nonzeros, lp (black and white: sequences,\n"
    "                   infosets, reached, rows, cols, nonzeros, iterations, seconds), lp_solved, solver,\n"
    "                   method, ev_black, br_black, br_white, exploitability, out, exploitability_file,\n"
    "                   seconds; with --method double-oracle: variant, board, swap, method, value, lower,\n"
    "                   upper, gap, converged, stalled, iterations, strategies and support (black, white),\n"
    "                   lp_iterations, nodes, infosets (black, white), exploitability, seconds (tree, lp,\n"
    "                   oracle, total), bytes (the solver's arrays), max_rss_kb; both: certificate (null, or\n"
    "                   file, lower, upper as \"P/Q\" text, exact, denominators black and white, states black\n"
    "                   and white, histories, seconds)\n"
    "  --format F       text (default) or json; --json is --format json\n\n"
    "Exit status: 0 solved, 1 the tree too large or the LP not solved, 2 bad input.\n";

enum { O_OUT = 'o', O_METHOD = 'M', O_EXACT = 'e', O_MAX_NODES = 'm', O_VERBOSE = 'V', O_LP = 'l', O_SOLVER = 's',
       O_TIME_LIMIT = 'T', O_MAX_ITER = 'I', O_CERT = 'C', O_WALK = 'W', O_SEED = 'D',
       O_CERT_DEN = 'N', O_SEED_CERT = 'F', O_SPREAD = 'P', O_FIRST = 'R', O_PLAIN_CERT = 'B',
       O_BLACK_CERT = 'K', O_WHITE_CERT = 'H' };

/* The value certificate, when asked for. */
typedef struct {
    const char *path; /* NULL: none */
    uint64_t den;     /* --certificate-denominator (0: the writer's default search) */
    int first;        /* --first: Black's first attempt fixed at this cell (-1: free) */
    vw_result r;
} cert_figures;

/* The writer's options: its defaults, or the one denominator bound asked for. */
static void cert_options(const cert_figures *c, vw_options *vo)
{
    vw_options_default(vo);
    vo->first = c->first;
    if (c->den)
        vo->den_min = vo->den_max = c->den;
}

/* Writes the certificate of the solved strategies (exits on failure). */
static void write_certificate(const cli_game_opts *o, const sv_tree *t, const double *probs, cert_figures *c)
{
    vw_options vo;
    cert_options(c, &vo);
    char err[700];
    if (vw_write(t, probs, o->variant, o->rows, o->cols, &vo, c->path, &c->r, err, sizeof err) != 0)
        cli_fail("solve", "--certificate %s: %s", c->path, err);
}

/* --verbose: each denominator bound the certificate writer tries, on stderr. */
static void certificate_progress(void *ctx, uint64_t den, double lower, double upper, uint64_t histories,
                                 double seconds)
{
    (void)ctx;
    fprintf(stderr, "certificate: denominators up to %llu: bounds [%+.12f, %+.12f], %llu histories checked, %.1f s\n",
            (unsigned long long)den, lower, upper, (unsigned long long)histories, seconds);
}

/* Writes the certificate of the mixtures a tree-free oracle kept, when asked for (exits on failure); frees them.
 * The oracle's bounds go to standard error first: on a large board the certificate can take longer than the
 * oracle, and a run stopped during it still leaves them. */
static void write_mixture_certificate(const cli_game_opts *o, dw_mixture mix[2], double lower, double upper,
                                      int iterations, double seconds, bool verbose, cert_figures *c)
{
    if (!c->path)
        return;
    fprintf(stderr, "arena solve: bounds [%+.12f, %+.12f] after %d iterations, %.1f s; writing the certificate %s\n",
            lower, upper, iterations, seconds, c->path);
    fflush(stderr);
    vw_options vo;
    cert_options(c, &vo);
    if (verbose)
        vo.progress = certificate_progress;
    char err[700];
    if (dw_write_certificate(o->variant, o->rows, o->cols, mix, &vo, c->path, &c->r, err, sizeof err) != 0)
        cli_fail("solve", "--certificate %s: %s", c->path, err);
    dw_mixture_free(&mix[0]);
    dw_mixture_free(&mix[1]);
}

static void print_json_text(const char *s)
{
    putchar('"');
    for (const char *c = s; *c; c++) /* a path: escape what JSON needs */
        if (*c == '"' || *c == '\\')
            printf("\\%c", *c);
        else if ((unsigned char)*c < 0x20)
            printf("\\u%04x", *c);
        else
            putchar(*c);
    putchar('"');
}

/* `"certificate":{...},` or `"certificate":null,`. */
static void print_certificate_json(const cert_figures *c)
{
    if (!c->path) {
        printf("\"certificate\":null,");
        return;
    }
    printf("\"certificate\":{\"file\":");
    print_json_text(c->path);
    printf(",\"lower\":\"%s\",\"upper\":\"%s\",\"exact\":%s,\"denominators\":{\"black\":%llu,\"white\":%llu},"
           "\"states\":{\"black\":%llu,\"white\":%llu},\"histories\":%llu,\"seconds\":%.6f},",
           c->r.lower, c->r.upper, c->r.exact ? "true" : "false", (unsigned long long)c->r.den[0],
           (unsigned long long)c->r.den[1], (unsigned long long)c->r.states[0], (unsigned long long)c->r.states[1],
           (unsigned long long)c->r.histories, c->r.seconds);
}

static void print_certificate_text(const cert_figures *c)
{
    if (!c->path)
        return;
    if (c->r.exact)
        printf("certificate     %s: value %s (= %+.12f), exact", c->path, c->r.lower, c->r.lower_d);
    else
        printf("certificate     %s: bounds [%s, %s] (= [%+.12f, %+.12f])", c->path, c->r.lower, c->r.upper,
               c->r.lower_d, c->r.upper_d);
    if (c->r.den[0] || c->r.den[1]) /* (none for a merge: the two files' numbers as they are) */
        printf(" (denominators up to %llu / %llu; ", (unsigned long long)c->r.den[0], (unsigned long long)c->r.den[1]);
    else
        printf(" (");
    printf("%llu Black and %llu White states; %llu histories checked; %.2f s)\n", (unsigned long long)c->r.states[0],
           (unsigned long long)c->r.states[1], (unsigned long long)c->r.histories, c->r.seconds);
}

typedef struct {
    sv_eval lp, file;      /* the LP's strategies (double) and the file's (float), exactly evaluated */
    bool have_file;
    double t_tree, t_lp, t_eval, total;
} solve_figures;

static void print_lp_json(const char *name, const sf_lp *lp, uint32_t infosets, bool comma)
{
    printf("\"%s\":{\"sequences\":%u,\"infosets\":%u,\"reached\":%u,\"rows\":%u,\"cols\":%u,\"nonzeros\":%llu,"
           "\"iterations\":%d,\"value\":%.12g,\"seconds\":%.6f}%s",
           name, lp->sequences, infosets, lp->reached, lp->rows, lp->cols, (unsigned long long)lp->nonzeros,
           lp->iterations, lp->value, lp->seconds, comma ? "," : "");
}

static void print_json(const cli_game_opts *o, const sv_tree *t, const sf_result *r, const solve_figures *f,
                       const char *solver, const char *method, const char *out, int only, const cert_figures *cert)
{
    printf("{\"variant\":\"%s\",\"board\":\"%dx%d\",\"swap\":%s,\"value\":%.12g,\"value_black_lp\":%.12g,"
           "\"value_white_lp\":%.12g,\"gap\":%.3g,\"nodes\":%u,\"leaves\":%llu,\"payoff_nonzeros\":%llu,\"lp\":{",
           hx_variant_name(o->variant), o->rows, o->cols, o->flags & HX_SWAP_RULE ? "true" : "false", r->value,
           r->lp[0].value, -r->lp[1].value, r->gap, t->n_nodes, (unsigned long long)r->leaves,
           (unsigned long long)r->payoff_nonzeros);
    print_lp_json("black", &r->lp[0], t->infosets_of[0], true);
    print_lp_json("white", &r->lp[1], t->infosets_of[1], false);
    printf("},\"lp_solved\":\"%s\",\"solver\":\"%s\",\"method\":\"%s\",\"ev_black\":%.12g,\"br_black\":%.12g,\"br_white\":%.12g,"
           "\"exploitability\":%.6g,", only < 0 ? "both" : only ? "white" : "black", solver, method, f->lp.ev0, f->lp.br[0], f->lp.br[1],
           f->lp.exploitability);
    if (f->have_file) {
        printf("\"out\":");
        print_json_text(out);
        printf(",\"exploitability_file\":%.6g,", f->file.exploitability);
    } else {
        printf("\"out\":null,\"exploitability_file\":null,");
    }
    print_certificate_json(cert);
    printf("\"seconds\":{\"tree\":%.6f,\"lp\":%.6f,\"evaluation\":%.6f,\"total\":%.6f}}\n", f->t_tree, f->t_lp,
           f->t_eval, f->total);
}

static void print_lp_text(const char *name, const sf_lp *lp, uint32_t infosets, bool from_dual)
{
    printf("lp %-12s %u sequences (%u information states, %u reached), %u constraints, %u variables, %llu "
           "nonzeros; ", name, lp->sequences, infosets, lp->reached, lp->rows, lp->cols,
           (unsigned long long)lp->nonzeros);
    if (from_dual)
        printf("not solved: the strategy is the other LP's dual solution\n");
    else
        printf("%d simplex iterations, %.3f s; value %+.12f\n", lp->iterations, lp->seconds, lp->value);
}

static void print_text(const cli_game_opts *o, const sv_tree *t, const sf_result *r, const solve_figures *f,
                       const char *solver, const char *method, const char *out, int only, const cert_figures *cert)
{
    printf("game            %dx%d %s%s\n", o->rows, o->cols, hx_variant_name(o->variant),
           o->flags & HX_SWAP_RULE ? " (swap rule)" : "");
    printf("value           %+.12f (Black; +1 a sure win, -1 a sure loss)\n", r->value);
    printf("tree            %u nodes, %llu leaves; payoff matrix %llu nonzeros (leaf sequence pairs)\n", t->n_nodes,
           (unsigned long long)r->leaves, (unsigned long long)r->payoff_nonzeros);
    print_lp_text("black", &r->lp[0], t->infosets_of[0], only == 1);
    print_lp_text("white", &r->lp[1], t->infosets_of[1], only == 0);
    printf("gap             %.3g (|Black's LP value + White's|)\n", r->gap);
    printf("solver          %s, %s simplex\n", solver, method);
    printf("exploitability  %.3g (ev_black %+.12f, br_black %+.12f, br_white %+.12f)\n", f->lp.exploitability,
           f->lp.ev0, f->lp.br[0], f->lp.br[1]);
    if (f->have_file)
        printf("policy          %s (exploitability as stored: %.3g)\n", out, f->file.exploitability);
    print_certificate_text(cert);
    printf("seconds         %.3f (tree %.3f, LPs %.3f, evaluation %.3f)\n", f->total, f->t_tree, f->t_lp, f->t_eval);
}

/* Writes the strategies to `out`, reads the file back and evaluates what it holds. */
static void write_policy(const cli_game_opts *o, const sv_tree *t, const double *probs, const sf_result *r,
                         double exploitability, const char *out, sv_eval *e)
{
    pf_meta m = { .variant = o->variant, .rows = o->rows, .cols = o->cols, .flags = o->flags & HX_SWAP_RULE,
                  .keys = PF_KEYS_PERFECT, .algo = "seqform-lp",
                  .iterations = (uint64_t)r->lp[0].iterations + (uint64_t)r->lp[1].iterations,
                  .exploitability = exploitability };
    char err[600];
    if (pf_save_tree(t, probs, &m, out, err, sizeof err) != 0)
        cli_fail("solve", "%s", err);
    pf_policy pol;
    if (pf_load(&pol, out, err, sizeof err) != 0)
        cli_fail("solve", "%s", err);
    double *stored = malloc(sizeof *stored * (t->n_actions ? t->n_actions : 1));
    uint32_t missing[2];
    if (!stored)
        cli_fail("solve", "out of memory");
    if (pf_on_tree(&pol, &pol, t, stored, missing, err, sizeof err) != 0)
        cli_fail("solve", "%s: %s", out, err);
    if (missing[0] || missing[1])
        cli_fail("solve", "%s: %u Black and %u White information states missing", out, missing[0], missing[1]);
    if (sv_evaluate(t, stored, e) != 0)
        cli_fail("solve", "out of memory");
    free(stored);
    pf_close(&pol);
}

static void do_progress_line(void *ctx, const do_progress_info *p)
{
    (void)ctx;
    fprintf(stderr, "double-oracle %d: restricted value %+.12f, bounds [%+.12f, %+.12f], sets %u / %u, support %u / %u, %.1f s\n",
            p->iteration, p->value, p->lower, p->upper, p->strategies[0], p->strategies[1], p->support[0],
            p->support[1], p->seconds);
}

static long max_rss_kb(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;
}

/* `arena solve --method double-oracle`: the tree built, the double oracle run on it, its strategies scored. */
static int solve_double_oracle(const cli_game_opts *o, uint64_t max_nodes, const do_options *dopt, const char *out,
                               cert_figures *cert)
{
    double t0 = clk_now();
    sv_darkhex params = { .variant = o->variant, .rows = o->rows, .cols = o->cols, .flags = o->flags & HX_SWAP_RULE };
    efg_game g;
    sv_darkhex_game(&g, &params);
    sv_tree t;
    if (sv_tree_build(&t, &g, (uint32_t)max_nodes, false) != 0)
        cli_fail("solve", "the game tree of %dx%d %s does not fit in %llu nodes (or memory)", o->rows, o->cols,
                 hx_variant_name(o->variant), (unsigned long long)max_nodes);
    double t_tree = clk_now() - t0;
    double *probs = malloc(sizeof *probs * (t.n_actions ? t.n_actions : 1));
    if (!probs)
        cli_fail("solve", "out of memory");
    do_result r;
    char err[400];
    if (do_solve(&t, dopt, probs, &r, err, sizeof err) != 0)
        cli_fail("solve", "%s", err);
    sv_eval e;
    if (sv_evaluate(&t, probs, &e) != 0)
        cli_fail("solve", "out of memory");
    if (out) {
        pf_meta m = { .variant = o->variant, .rows = o->rows, .cols = o->cols, .flags = o->flags & HX_SWAP_RULE,
                      .keys = PF_KEYS_PERFECT, .algo = "double-oracle", .iterations = (uint64_t)r.iterations,
                      .exploitability = e.exploitability };
        if (pf_save_tree(&t, probs, &m, out, err, sizeof err) != 0)
            cli_fail("solve", "%s", err);
    }
    if (cert->path)
        write_certificate(o, &t, probs, cert);
    double total = clk_now() - t0;
    long rss = max_rss_kb();
    if (o->format == CLI_JSON) {
        printf("{\"variant\":\"%s\",\"board\":\"%dx%d\",\"swap\":%s,\"method\":\"double-oracle\",\"value\":%.12g,"
               "\"lower\":%.12g,\"upper\":%.12g,\"gap\":%.3g,\"converged\":%s,\"stalled\":%s,\"iterations\":%d,"
               "\"strategies\":{\"black\":%u,\"white\":%u},\"support\":{\"black\":%u,\"white\":%u},"
               "\"lp_iterations\":%llu,\"nodes\":%u,\"infosets\":{\"black\":%u,\"white\":%u},\"exploitability\":%.6g,",
               hx_variant_name(o->variant), o->rows, o->cols, o->flags & HX_SWAP_RULE ? "true" : "false", r.value,
               r.lower, r.upper, r.gap, r.converged ? "true" : "false", r.stalled ? "true" : "false", r.iterations,
               r.strategies[0], r.strategies[1], r.support[0], r.support[1], (unsigned long long)r.lp_iterations,
               t.n_nodes, t.infosets_of[0], t.infosets_of[1], e.exploitability);
        print_certificate_json(cert);
        printf("\"seconds\":{\"tree\":%.6f,\"lp\":%.6f,\"oracle\":%.6f,\"total\":%.6f},\"bytes\":%zu,\"max_rss_kb\":%ld}\n",
               t_tree, r.seconds_lp, r.seconds_oracle, total, r.bytes, rss);
    } else {
        printf("game            %dx%d %s%s\n", o->rows, o->cols, hx_variant_name(o->variant),
               o->flags & HX_SWAP_RULE ? " (swap rule)" : "");
        printf("value           %+.12f (Black; the last restricted game's)\n", r.value);
        printf("bounds          [%+.12f, %+.12f], gap %.3g: %s\n", r.lower, r.upper, r.gap,
               r.converged ? "solved" : r.stalled ? "not solved (no new best response)" : "not solved (a limit)");
        printf("iterations      %d restricted games (%llu simplex iterations)\n", r.iterations,
               (unsigned long long)r.lp_iterations);
        printf("strategies      Black %u pure (support %u), White %u pure (support %u)\n", r.strategies[0],
               r.support[0], r.strategies[1], r.support[1]);
        printf("tree            %u nodes; information states Black %u, White %u\n", t.n_nodes, t.infosets_of[0],
               t.infosets_of[1]);
        printf("exploitability  %.3g (ev_black %+.12f, br_black %+.12f, br_white %+.12f)\n", e.exploitability,
               e.ev0, e.br[0], e.br[1]);
        if (out)
            printf("policy          %s\n", out);
        print_certificate_text(cert);
        printf("seconds         %.3f (tree %.3f, restricted LPs %.3f, best responses %.3f)\n", total, t_tree,
               r.seconds_lp, r.seconds_oracle);
        printf("memory          %zu bytes of solver arrays; peak resident %ld kB\n", r.bytes, rss);
    }
    free(probs);
    sv_tree_free(&t);
    vw_result_free(&cert->r);
    return r.converged ? CLI_OK : CLI_FAILED;
}

/* `arena solve --method double-oracle --walk`: the double oracle without the tree (dowalk.h). */
static int solve_walk(const cli_game_opts *o, dw_options *wopt, cert_figures *cert)
{
    dw_result r;
    char err[700];
    dw_mixture mix[2] = { { 0 }, { 0 } };
    if (cert->path)
        wopt->keep = mix;
    if (dw_solve(o->variant, o->rows, o->cols, wopt, &r, err, sizeof err) != 0)
        cli_fail("solve", "%s", err);
    write_mixture_certificate(o, mix, r.lower, r.upper, r.iterations, r.seconds, wopt->progress != NULL, cert);
    long rss = max_rss_kb();
    if (o->format == CLI_JSON) {
        printf("{\"variant\":\"%s\",\"board\":\"%dx%d\",\"swap\":false,\"method\":\"double-oracle\",\"walk\":true,"
               "\"value\":%.12g,\"lower\":%.12g,\"upper\":%.12g,\"gap\":%.3g,\"converged\":%s,\"stalled\":%s,"
               "\"iterations\":%d,\"strategies\":{\"black\":%u,\"white\":%u},\"support\":{\"black\":%u,\"white\":%u},"
               "\"lp_iterations\":%llu,\"states\":%llu,\"stored\":%llu,",
               hx_variant_name(o->variant), o->rows, o->cols, r.value, r.lower, r.upper, r.gap,
               r.converged ? "true" : "false", r.stalled ? "true" : "false", r.iterations, r.strategies[0],
               r.strategies[1], r.support[0], r.support[1], (unsigned long long)r.lp_iterations,
               (unsigned long long)r.states, (unsigned long long)r.stored);
        print_certificate_json(cert);
        printf("\"seconds\":{\"lp\":%.6f,\"oracle\":%.6f,\"total\":%.6f},\"bytes\":%zu,\"max_rss_kb\":%ld}\n",
               r.seconds_lp, r.seconds_oracle, r.seconds, r.bytes, rss);
    } else {
        printf("game            %dx%d %s (double oracle, walk: no tree)\n", o->rows, o->cols,
               hx_variant_name(o->variant));
        printf("value           %+.12f (Black; the last restricted game's)\n", r.value);
        printf("bounds          [%+.12f, %+.12f], gap %.3g: %s\n", r.lower, r.upper, r.gap,
               r.converged ? "solved" : r.stalled ? "not solved (no new best response)" : "not solved (a limit)");
        printf("iterations      %d restricted games (%llu simplex iterations)\n", r.iterations,
               (unsigned long long)r.lp_iterations);
        printf("strategies      Black %u pure (support %u), White %u pure (support %u); %llu states stored\n",
               r.strategies[0], r.support[0], r.strategies[1], r.support[1], (unsigned long long)r.stored);
        printf("walk            %llu information states walked by the best responses\n", (unsigned long long)r.states);
        printf("seconds         %.3f (restricted LPs %.3f, best responses %.3f)\n", r.seconds, r.seconds_lp,
               r.seconds_oracle);
        printf("memory          %zu bytes of strategies and matrix; peak resident %ld kB\n", r.bytes, rss);
        print_certificate_text(cert);
    }
    bool solved = r.converged || (cert->path && cert->r.exact);
    vw_result_free(&cert->r);
    return solved ? CLI_OK : CLI_FAILED;
}

static void ds_progress_line(void *ctx, const do_progress_info *p)
{
    (void)ctx;
    fprintf(stderr, "sequence-oracle %d: restricted value %+.12f, bounds [%+.12f, %+.12f], restricted game %u / %u "
            "information states, mixtures of %u / %u, %.1f s\n", p->iteration, p->value, p->lower, p->upper,
            p->strategies[0], p->strategies[1], p->support[0], p->support[1], p->seconds);
}

/* The value certificate named by `flag` at path, required to be of variant v on a rows x cols board (exits
 * otherwise); its states per player in states[]. */
static vc_cert *load_certificate_of(const char *flag, const char *path, hx_variant v, int rows, int cols,
                                    uint64_t states[2])
{
    char err[700];
    vc_cert *c = vc_load(path, err, sizeof err);
    if (!c)
        cli_fail("solve", "%s %s", flag, err);
    hx_variant cv;
    int cr, cc;
    vc_describe(c, &cv, &cr, &cc, states);
    if (cv != v || cr != rows || cc != cols)
        cli_fail("solve", "%s %s: a certificate of %dx%d %s, not of %dx%d %s", flag, path, cr, cc,
                 hx_variant_name(cv), rows, cols, hx_variant_name(v));
    return c;
}

/* `arena solve --method report-blind`: the plain certificate's strategies played deaf to the reports
 * (valcert_blind.h), written and checked. */
static int solve_blind(const cli_game_opts *o, const char *plain, bool verbose, cert_figures *cert)
{
    char err[700];
    hx_variant bv = (hx_variant)vb_plain_variant(o->variant);
    uint64_t bstates[2];
    vc_cert *base = load_certificate_of("--plain-certificate", plain, bv, o->rows, o->cols, bstates);
    vw_options vo;
    cert_options(cert, &vo);
    if (verbose)
        vo.progress = certificate_progress;
    int rc = vb_write_blind(base, o->variant, &vo, cert->path, &cert->r, err, sizeof err);
    vc_free(base);
    if (rc != 0)
        cli_fail("solve", "--certificate %s: %s", cert->path, err);
    long rss = max_rss_kb();
    if (o->format == CLI_JSON) {
        printf("{\"variant\":\"%s\",\"board\":\"%dx%d\",\"swap\":false,\"method\":\"report-blind\",\"plain\":",
               hx_variant_name(o->variant), o->rows, o->cols);
        print_json_text(plain);
        printf(",\"lower\":%.12g,\"upper\":%.12g,\"exact\":%s,", cert->r.lower_d, cert->r.upper_d,
               cert->r.exact ? "true" : "false");
        print_certificate_json(cert);
        printf("\"seconds\":%.6f,\"max_rss_kb\":%ld}\n", cert->r.seconds, rss);
    } else {
        printf("game            %dx%d %s (the %s certificate's strategies, deaf to the reports)\n", o->rows, o->cols,
               hx_variant_name(o->variant), hx_variant_name(bv));
        printf("plain           %s (%llu Black and %llu White states)\n", plain, (unsigned long long)bstates[0],
               (unsigned long long)bstates[1]);
        printf("bounds          [%+.12f, %+.12f]%s\n", cert->r.lower_d, cert->r.upper_d,
               cert->r.exact ? ": the value (the reports are worth nothing here)" : "");
        print_certificate_text(cert);
        printf("memory          peak resident %ld kB\n", rss);
    }
    vw_result_free(&cert->r);
    return CLI_OK;
}

/* `arena solve --method merge`: Black's states of one certificate and White's of another in one file, checked
 * (valcert.h's vc_merge and vc_check) and written only when verified. */
static int solve_merge(const cli_game_opts *o, const char *black, const char *white, cert_figures *cert)
{
    char err[700];
    double t0 = clk_now();
    uint64_t bs[2], ws[2];
    vc_cert *b = load_certificate_of("--black-certificate", black, o->variant, o->rows, o->cols, bs);
    vc_cert *w = load_certificate_of("--white-certificate", white, o->variant, o->rows, o->cols, ws);
    vc_cert *c = vc_merge(b, w, err, sizeof err);
    vc_free(b), vc_free(w);
    if (!c)
        cli_fail("solve", "--method merge: %s", err);
    vc_report rep;
    char *lower, *upper;
    int v = vc_check(c, 0, &lower, &upper, &rep);
    if (v != 1) {
        vc_free(c);
        free(lower), free(upper);
        cli_fail("solve", "--method merge: %s (%s, %s): %s", v == 0 ? "refuted" : "undecided", black, white, rep.why);
    }
    if (vc_save(c, cert->path, err, sizeof err) != 0) {
        vc_free(c);
        free(lower), free(upper);
        cli_fail("solve", "--certificate %s: %s", cert->path, err);
    }
    vw_result *r = &cert->r;
    *r = (vw_result){ .lower = lower, .upper = upper, .exact = !strcmp(lower, upper), .histories = rep.histories };
    vc_bounds(c, &r->lower_d, &r->upper_d);
    vc_describe(c, &(hx_variant){ 0 }, &(int){ 0 }, &(int){ 0 }, r->states);
    vc_free(c);
    r->seconds = clk_now() - t0;
    long rss = max_rss_kb();
    if (o->format == CLI_JSON) {
        printf("{\"variant\":\"%s\",\"board\":\"%dx%d\",\"swap\":false,\"method\":\"merge\",\"black\":",
               hx_variant_name(o->variant), o->rows, o->cols);
        print_json_text(black);
        printf(",\"white\":");
        print_json_text(white);
        printf(",\"lower\":%.12g,\"upper\":%.12g,\"exact\":%s,", r->lower_d, r->upper_d, r->exact ? "true" : "false");
        print_certificate_json(cert);
        printf("\"seconds\":%.6f,\"max_rss_kb\":%ld}\n", r->seconds, rss);
    } else {
        printf("game            %dx%d %s\n", o->rows, o->cols, hx_variant_name(o->variant));
        printf("black           %s (%llu Black states)\n", black, (unsigned long long)bs[0]);
        printf("white           %s (%llu White states)\n", white, (unsigned long long)ws[1]);
        printf("bounds          [%+.12f, %+.12f]%s\n", r->lower_d, r->upper_d, r->exact ? ": the value" : "");
        print_certificate_text(cert);
        printf("memory          peak resident %ld kB\n", rss);
    }
    vw_result_free(r);
    return CLI_OK;
}

/* `arena solve --method sequence-oracle`: the sequence-form double oracle (doseq.h). */
static int solve_sequence(const cli_game_opts *o, dw_options *wopt, const sf_options *so, uint32_t max_nodes,
                          double seed_seconds, const char *seed_cert, bool exact, cert_figures *cert)
{
    ds_exact x = { .certificate = cert->path };
    vw_options_default(&x.vw);
    ds_result r;
    char err[700];
    dw_mixture mix[2] = { { 0 }, { 0 } }, seed[2] = { { 0 }, { 0 } };
    dw_result sr = { 0 };
    double shown[2] = { -1, 1 }; /* the seed's bounds as reported: the walk's, or the seed certificate's stated */
    if (seed_seconds > 0) { /* the pure-strategy walk first: its best mixtures seed the restricted game */
        dw_options w = *wopt;
        w.time_limit = seed_seconds;
        w.max_iterations = 0;
        w.keep = seed;
        w.progress = wopt->progress ? do_progress_line : NULL;
        if (dw_solve(o->variant, o->rows, o->cols, &w, &sr, err, sizeof err) != 0)
            cli_fail("solve", "%s", err);
        if (wopt->time_limit > 0)
            wopt->time_limit = fmax(wopt->time_limit - sr.seconds, 1e-3);
    }
    if (seed_cert) { /* a certificate's attempts: its own bounds are not the seed mixtures' */
        uint64_t states[2];
        vc_cert *c = load_certificate_of("--seed-certificate", seed_cert, o->variant, o->rows, o->cols, states);
        if (vc_first(c) != wopt->first) { /* a seed of the same game: the whole one or the same opening's */
            char name[HX_CELL_NAME_MAX], want[HX_CELL_NAME_MAX];
            if (vc_first(c) >= 0)
                hx_cell_name(vc_first(c), o->cols, name);
            if (wopt->first >= 0)
                hx_cell_name(wopt->first, o->cols, want);
            if (wopt->first < 0)
                cli_fail("solve", "--seed-certificate %s: a certificate of the game after Black's first attempt at "
                         "%s, not of the whole game", seed_cert, name);
            else if (vc_first(c) < 0)
                cli_fail("solve", "--seed-certificate %s: a certificate of the whole game, not of the game after "
                         "Black's first attempt at %s (--first %s)", seed_cert, want, want);
            else
                cli_fail("solve", "--seed-certificate %s: a certificate of the game after Black's first attempt at "
                         "%s, not at %s (--first %s)", seed_cert, name, want, want);
        }
        int rc = ds_seed_from_certificate(c, seed, err, sizeof err);
        vc_bounds(c, &shown[0], &shown[1]);
        vc_free(c);
        if (rc != 0)
            cli_fail("solve", "--seed-certificate %s: %s", seed_cert, err);
        sr.lower = -1, sr.upper = 1;
    } else if (seed_seconds > 0) {
        shown[0] = sr.lower, shown[1] = sr.upper;
    }
    if (cert->path)
        wopt->keep = mix;
    double seed_bounds[2] = { sr.lower, sr.upper };
    bool seeded = seed_seconds > 0 || seed_cert;
    if (ds_solve(o->variant, o->rows, o->cols, wopt, so, max_nodes, seeded ? seed : NULL, seed_bounds,
                 exact ? &x : NULL, &r, err, sizeof err) != 0)
        cli_fail("solve", "%s", err);
    if (x.certified) { /* the exact equilibrium's certificate stands instead of the mixtures' */
        cert->r = x.cert;
        memset(&x.cert, 0, sizeof x.cert);
        dw_mixture_free(&mix[0]), dw_mixture_free(&mix[1]);
    } else {
        write_mixture_certificate(o, mix, r.lower, r.upper, r.iterations, r.seconds, wopt->progress != NULL, cert);
    }
    long rss = max_rss_kb();
    if (o->format == CLI_JSON) {
        printf("{\"variant\":\"%s\",\"board\":\"%dx%d\",\"swap\":false,\"method\":\"sequence-oracle\","
               "\"value\":%.12g,\"lower\":%.12g,\"upper\":%.12g,\"gap\":%.3g,\"converged\":%s,\"stalled\":%s,"
               "\"iterations\":%d,\"lp_iterations\":%llu,\"attempts\":{\"black\":%llu,\"white\":%llu},\"nodes\":%u,"
               "\"infosets\":{\"black\":%u,\"white\":%u},\"support\":{\"black\":%u,\"white\":%u},\"states\":%llu,"
               "\"seed\":{\"seconds\":%.6f,\"iterations\":%d,\"lower\":%.12g,\"upper\":%.12g,"
               "\"attempts\":{\"black\":%llu,\"white\":%llu},\"certificate\":",
               hx_variant_name(o->variant), o->rows, o->cols, r.value, r.lower, r.upper, r.gap,
               r.converged ? "true" : "false", r.stalled ? "true" : "false", r.iterations,
               (unsigned long long)r.lp_iterations, (unsigned long long)r.attempts[0],
               (unsigned long long)r.attempts[1], r.nodes, r.infosets[0], r.infosets[1], r.support[0], r.support[1],
               (unsigned long long)r.states, sr.seconds, sr.iterations,
               shown[0], shown[1],
               (unsigned long long)r.seeded[0], (unsigned long long)r.seeded[1]);
        if (seed_cert)
            print_json_text(seed_cert);
        else
            printf("null");
        printf("},\"spread_defaults\":%s,\"first\":", wopt->spread ? "true" : "false");
        if (wopt->first >= 0) {
            char name[HX_CELL_NAME_MAX];
            hx_cell_name(wopt->first, o->cols, name);
            printf("\"%s\",", name);
        } else {
            printf("null,");
        }
        if (!exact) {
            printf("\"exact\":null,");
        } else {
            printf("\"exact\":{\"value\":");
            if (x.value)
                printf("\"%s\"", x.value);
            else
                printf("null");
            printf(",\"seconds\":%.6f,\"rounds\":%d,\"why\":", x.seconds, x.rounds);
            print_json_text(x.why);
            printf("},");
        }
        print_certificate_json(cert);
        printf("\"seconds\":{\"tree\":%.6f,\"lp\":%.6f,\"oracle\":%.6f,\"total\":%.6f},\"max_rss_kb\":%ld}\n",
               r.seconds_tree, r.seconds_lp, r.seconds_oracle, r.seconds, rss);
    } else {
        printf("game            %dx%d %s (sequence-form double oracle)\n", o->rows, o->cols, hx_variant_name(o->variant));
        printf("value           %+.12f (Black; the last restricted game's)\n", r.value);
        printf("bounds          [%+.12f, %+.12f], gap %.3g: %s\n", r.lower, r.upper, r.gap,
               r.converged ? "solved" : r.stalled ? "not solved (no new attempt)" : "not solved (a limit)");
        if (seed_seconds > 0)
            printf("seed            the walk's double oracle: %d iterations in %.3f s, bounds [%+.12f, %+.12f]; "
                   "%llu / %llu attempts\n", sr.iterations, sr.seconds, sr.lower, sr.upper,
                   (unsigned long long)r.seeded[0], (unsigned long long)r.seeded[1]);
        if (seed_cert)
            printf("seed            the certificate %s (stated bounds [%+.12f, %+.12f]): %llu / %llu attempts\n",
                   seed_cert, shown[0], shown[1], (unsigned long long)r.seeded[0], (unsigned long long)r.seeded[1]);
        if (wopt->first >= 0) {
            char name[HX_CELL_NAME_MAX];
            hx_cell_name(wopt->first, o->cols, name);
            printf("opening         Black's first attempt fixed at %s (the value after it)\n", name);
        }
        if (wopt->spread)
            printf("defaults        spread: the mixtures' members after the first play a hashed cell where they store "
                   "none\n");
        printf("iterations      %d restricted games (%llu simplex iterations)\n", r.iterations,
               (unsigned long long)r.lp_iterations);
        printf("restricted game %u nodes, %u Black and %u White information states (the last); %llu / %llu attempts "
               "added\n", r.nodes, r.infosets[0], r.infosets[1], (unsigned long long)r.attempts[0],
               (unsigned long long)r.attempts[1]);
        printf("mixtures        Black %u pure strategies, White %u (the last equilibria decomposed)\n", r.support[0],
               r.support[1]);
        printf("walk            %llu information states walked by the best responses\n", (unsigned long long)r.states);
        printf("seconds         %.3f (restricted trees %.3f, LPs %.3f, best responses %.3f)\n", r.seconds,
               r.seconds_tree, r.seconds_lp, r.seconds_oracle);
        printf("memory          peak resident %ld kB\n", rss);
        if (exact && x.value)
            printf("exact           %s, the last restricted game's value in rational arithmetic (%.3f s; %d restricted "
                   "game%s solved exactly)\n", x.value, x.seconds, x.rounds, x.rounds == 1 ? "" : "s");
        else if (exact)
            printf("exact           none: %s\n", x.why);
        print_certificate_text(cert);
    }
    bool solved = r.converged || (cert->path && cert->r.exact);
    vw_result_free(&cert->r);
    ds_exact_free(&x);
    return solved ? CLI_OK : CLI_FAILED;
}

int cmd_solve(int argc, char **argv)
{
    static const struct option options[] = {
        CLI_GAME_OPTIONS,
        { "out", required_argument, 0, O_OUT },
        { "method", required_argument, 0, O_METHOD },
        { "exact", no_argument, 0, O_EXACT },
        { "max-nodes", required_argument, 0, O_MAX_NODES },
        { "verbose", no_argument, 0, O_VERBOSE },
        { "lp", required_argument, 0, O_LP },
        { "solver", required_argument, 0, O_SOLVER },
        { "time-limit", required_argument, 0, O_TIME_LIMIT },
        { "max-iterations", required_argument, 0, O_MAX_ITER },
        { "certificate", required_argument, 0, O_CERT },
        { "certificate-denominator", required_argument, 0, O_CERT_DEN },
        { "walk", no_argument, 0, O_WALK },
        { "seed-seconds", required_argument, 0, O_SEED },
        { "seed-certificate", required_argument, 0, O_SEED_CERT },
        { "spread-defaults", no_argument, 0, O_SPREAD },
        { "first", required_argument, 0, O_FIRST },
        { "plain-certificate", required_argument, 0, O_PLAIN_CERT },
        { "black-certificate", required_argument, 0, O_BLACK_CERT },
        { "white-certificate", required_argument, 0, O_WHITE_CERT },
        { 0, 0, 0, 0 },
    };
    cli_game_opts o = { 0 };
    sf_options so;
    sf_options_default(&so);
    const char *out = NULL, *method = "dual";
    uint64_t max_nodes = 100000000;
    bool double_oracle = false, walk = false, seq_oracle = false, spread = false, blind = false, merge = false;
    const char *plain_cert = NULL, *black_cert = NULL, *white_cert = NULL;
    double seed_seconds = 0;
    const char *seed_cert = NULL;
    do_options dopt;
    do_options_default(&dopt);
    cert_figures cert = { .first = -1 };
    const char *first = NULL;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", options, NULL)) != -1) {
        if (cli_game_option("solve", c, optarg, argv, help, &o))
            continue;
        if (c == O_OUT) {
            if (!*optarg)
                cli_usage_error("solve", "--out: give a file name");
            out = optarg;
        } else if (c == O_METHOD) {
            blind = !strcmp(optarg, "report-blind");
            merge = !strcmp(optarg, "merge");
            if (!strcmp(optarg, "double-oracle") || !strcmp(optarg, "sequence-oracle") || blind || merge) {
                double_oracle = optarg[0] == 'd';
                seq_oracle = optarg[0] == 's';
                continue;
            }
            if (strcmp(optarg, "dual") && strcmp(optarg, "primal"))
                cli_usage_error("solve", "--method '%s': give dual, primal, double-oracle, sequence-oracle, "
                                "report-blind or merge", optarg);
            double_oracle = seq_oracle = false;
            method = optarg;
            so.method = strcmp(optarg, "primal") ? SF_DUAL : SF_PRIMAL;
        } else if (c == O_EXACT) {
            so.exact = true;
            dopt.exact = true;
        } else if (c == O_MAX_NODES) {
            max_nodes = cli_count("solve", "--max-nodes", optarg, 1, UINT32_MAX);
        } else if (c == O_VERBOSE) {
            so.verbose = true;
        } else if (c == O_SOLVER) {
            if (strcmp(optarg, "glpk") && strcmp(optarg, "clp"))
                cli_usage_error("solve", "--solver '%s': give glpk or clp", optarg);
            so.solver = strcmp(optarg, "clp") ? SF_GLPK : SF_CLP;
        } else if (c == O_TIME_LIMIT) {
            char *end;
            double sec = strtod(optarg, &end);
            if (end == optarg || *end || !(sec > 0) || !isfinite(sec))
                cli_usage_error("solve", "--time-limit '%s': give a positive number of seconds", optarg);
            dopt.time_limit = sec;
        } else if (c == O_CERT) {
            if (!*optarg)
                cli_usage_error("solve", "--certificate: give a file name");
            cert.path = optarg;
        } else if (c == O_CERT_DEN) {
            cert.den = cli_count("solve", "--certificate-denominator", optarg, 1, 1000000000000000ull);
        } else if (c == O_WALK) {
            walk = true;
        } else if (c == O_SEED) {
            char *end;
            double sec = strtod(optarg, &end);
            if (end == optarg || *end || !(sec >= 0) || !isfinite(sec))
                cli_usage_error("solve", "--seed-seconds '%s': give a number of seconds (0: no seed)", optarg);
            seed_seconds = sec;
        } else if (c == O_SEED_CERT) {
            if (!*optarg)
                cli_usage_error("solve", "--seed-certificate: give a file name");
            seed_cert = optarg;
        } else if (c == O_SPREAD) {
            spread = true;
        } else if (c == O_FIRST) {
            first = optarg;
        } else if (c == O_PLAIN_CERT) {
            if (!*optarg)
                cli_usage_error("solve", "--plain-certificate: give a file name");
            plain_cert = optarg;
        } else if (c == O_BLACK_CERT || c == O_WHITE_CERT) {
            if (!*optarg)
                cli_usage_error("solve", "--%s-certificate: give a file name", c == O_BLACK_CERT ? "black" : "white");
            *(c == O_BLACK_CERT ? &black_cert : &white_cert) = optarg;
        } else if (c == O_MAX_ITER) {
            dopt.max_iterations = (int)cli_count("solve", "--max-iterations", optarg, 1, 1000000000);
        } else if (c == O_LP) {
            if (strcmp(optarg, "both") && strcmp(optarg, "black") && strcmp(optarg, "white"))
                cli_usage_error("solve", "--lp '%s': give both, black or white", optarg);
            so.only = !strcmp(optarg, "both") ? -1 : !strcmp(optarg, "white");
        }
    }
    if (optind < argc)
        cli_usage_error("solve", "unexpected argument '%s' (see 'arena solve --help')", argv[optind]);
    cli_game_require("solve", &o);
    hx_game probe;
    cli_new_game("solve", &probe, o.variant, o.rows, o.cols, o.flags & HX_SWAP_RULE);
    if (cert.den && !cert.path)
        cli_usage_error("solve", "--certificate-denominator: give it with --certificate FILE");
    if (cert.path && !hx_variant_dark(o.variant))
        cli_usage_error("solve", "--certificate: value certificates are for the dark variants, not %s",
                        hx_variant_name(o.variant));

    if (plain_cert && !blind)
        cli_usage_error("solve", "--plain-certificate: give it with --method report-blind");
    if ((black_cert || white_cert) && !merge)
        cli_usage_error("solve", "--%s-certificate: give it with --method merge", black_cert ? "black" : "white");
    if (merge) {
        if (!black_cert || !white_cert || !cert.path)
            cli_usage_error("solve", "--method merge: give --black-certificate FILE, --white-certificate FILE and "
                            "--certificate FILE");
        if (out || walk || first || seed_cert || seed_seconds > 0 || spread || cert.den || o.flags & HX_SWAP_RULE)
            cli_usage_error("solve", "--method merge: no --out, --walk, --first, seed, --spread-defaults, "
                            "--certificate-denominator or --swap (the two certificates fix the strategies)");
        return solve_merge(&o, black_cert, white_cert, &cert);
    }
    if (blind) {
        if (vb_plain_variant(o.variant) < 0)
            cli_usage_error("solve", "--method report-blind: %s has no reports (give a -noisy or -flash variant)",
                            hx_variant_name(o.variant));
        if (!plain_cert || !cert.path)
            cli_usage_error("solve", "--method report-blind: give --plain-certificate FILE and --certificate FILE");
        if (out || walk || first || seed_cert || seed_seconds > 0 || spread || o.flags & HX_SWAP_RULE)
            cli_usage_error("solve", "--method report-blind: no --out, --walk, --first, seed, --spread-defaults or "
                            "--swap (the plain certificate fixes the strategies)");
        return solve_blind(&o, plain_cert, so.verbose, &cert);
    }
    if (seed_seconds > 0 && !seq_oracle)
        cli_usage_error("solve", "--seed-seconds: give it with --method sequence-oracle");
    if (seed_cert && !seq_oracle)
        cli_usage_error("solve", "--seed-certificate: give it with --method sequence-oracle");
    if (spread && !seq_oracle)
        cli_usage_error("solve", "--spread-defaults: give it with --method sequence-oracle");
    if (first && !seq_oracle)
        cli_usage_error("solve", "--first: give it with --method sequence-oracle");
    if (first && seed_seconds > 0)
        cli_usage_error("solve", "--first: no --seed-seconds (the walk's seeds are the whole game's; "
                        "--seed-certificate takes a certificate of the same opening)");
    if (first) {
        const char *cwhy;
        cert.first = hx_cell_parse(first, o.rows, o.cols, &cwhy);
        if (cert.first < 0)
            cli_usage_error("solve", "--first '%s': %s", first, cwhy);
    }
    if (seed_cert && seed_seconds > 0)
        cli_usage_error("solve", "--seed-certificate and --seed-seconds: give one seed");
    if (seq_oracle) {
        const char *why;
        if (out || walk)
            cli_usage_error("solve", "--method sequence-oracle: no --out or --walk");
        if (o.flags & HX_SWAP_RULE || !dw_supported(o.variant, o.rows, o.cols, &why))
            cli_usage_error("solve", "--method sequence-oracle on %dx%d %s: %s", o.rows, o.cols,
                            hx_variant_name(o.variant), o.flags & HX_SWAP_RULE ? "no swap rule" : why);
        dw_options wopt;
        dw_options_default(&wopt);
        wopt.time_limit = dopt.time_limit;
        wopt.max_iterations = dopt.max_iterations;
        wopt.spread = spread;
        wopt.first = cert.first;
        if (so.verbose) {
            wopt.progress = ds_progress_line;
            so.verbose = false;
            fflush(stdout);
        }
        so.exact = false; /* --exact here: the last restricted game in rational arithmetic, not GLPK's */
        return solve_sequence(&o, &wopt, &so, (uint32_t)max_nodes, seed_seconds, seed_cert, dopt.exact, &cert);
    }
    if (walk) {
        const char *why;
        if (!double_oracle)
            cli_usage_error("solve", "--walk: give it with --method double-oracle");
        if (out || dopt.exact)
            cli_usage_error("solve", "--walk: no --out or --exact (it keeps no behaviour strategy file)");
        if (o.flags & HX_SWAP_RULE || !dw_supported(o.variant, o.rows, o.cols, &why))
            cli_usage_error("solve", "--walk on %dx%d %s: %s", o.rows, o.cols, hx_variant_name(o.variant),
                            o.flags & HX_SWAP_RULE ? "no swap rule" : why);
        dw_options wopt;
        dw_options_default(&wopt);
        wopt.time_limit = dopt.time_limit;
        wopt.max_iterations = dopt.max_iterations;
        if (so.verbose) {
            wopt.progress = do_progress_line;
            fflush(stdout);
        }
        return solve_walk(&o, &wopt, &cert);
    }
    if (double_oracle) {
        if (so.verbose) {
            dopt.progress = do_progress_line;
            fflush(stdout);
        }
        return solve_double_oracle(&o, max_nodes, &dopt, out, &cert);
    }

    const char *solver = so.solver == SF_CLP ? lc_version() : sf_glpk_version();
    if (so.solver == SF_CLP)
        method = "dual";
    solve_figures f = { 0 };
    double t0 = clk_now();
    sv_darkhex params = { .variant = o.variant, .rows = o.rows, .cols = o.cols, .flags = o.flags & HX_SWAP_RULE };
    efg_game g;
    sv_darkhex_game(&g, &params);
    sv_tree t;
    if (sv_tree_build(&t, &g, (uint32_t)max_nodes, false) != 0)
        cli_fail("solve", "the game tree of %dx%d %s does not fit in %llu nodes (or memory)", o.rows, o.cols,
                 hx_variant_name(o.variant), (unsigned long long)max_nodes);
    f.t_tree = clk_now() - t0;
    double *probs = malloc(sizeof *probs * (t.n_actions ? t.n_actions : 1));
    if (!probs)
        cli_fail("solve", "out of memory");
    sf_result r;
    char err[400];
    double t1 = clk_now();
    if (so.verbose)
        fflush(stdout);
    if (sf_solve(&t, &so, probs, &r, err, sizeof err) != 0)
        cli_fail("solve", "%s", err);
    f.t_lp = clk_now() - t1;
    t1 = clk_now();
    if (sv_evaluate(&t, probs, &f.lp) != 0)
        cli_fail("solve", "out of memory");
    if (out) {
        write_policy(&o, &t, probs, &r, f.lp.exploitability, out, &f.file);
        f.have_file = true;
    }
    if (cert.path)
        write_certificate(&o, &t, probs, &cert);
    f.t_eval = clk_now() - t1;
    f.total = clk_now() - t0;
    if (o.format == CLI_JSON)
        print_json(&o, &t, &r, &f, solver, method, out, so.only, &cert);
    else
        print_text(&o, &t, &r, &f, solver, method, out, so.only, &cert);
    vw_result_free(&cert.r);
    free(probs);
    sv_tree_free(&t);
    return CLI_OK;
}
