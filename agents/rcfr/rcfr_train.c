/* agents/rcfr/rcfr_train.c — bin/rcfr-train: trains a policy by regression CFR (RCFR, RCFR+, f-RCFR with a
 * polynomial or exponential link) for one dark variant and board and writes a policy file
 * (docs/policy-format.md) that bin/policy-bot plays. Walks the built perfect-recall tree like cfr-train's
 * full-pass algorithms, with the regrets in a regressor over features of (information state, action).
 * Progress on stderr, exact exploitability every K iterations, a CSV curve with the time split between
 * traversal and regression, and checkpoints (predicted regrets and strategy sums) a killed run resumes. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bestresponse.h"
#include "checkpoint.h"
#include "darkhex.h"
#include "policy.h"
#include "rcfr.h"
#include "trainer_cli.h"
#include "clock.h"
#include "json.h"

static const char help[] =
    "usage: rcfr-train --variant V --board RxC --algo rcfr|rcfr+|frcfr [--link poly --p P | --link exp --tau T]\n"
    "                  (--iterations N | --seconds S) --out FILE [options]\n\n"
    "Trains a policy by regression CFR: the cumulative regrets are a regressor's predictions from features of\n"
    "(information state, action), the current policy comes from them through a link function, and the average\n"
    "policy is written as a policy file (docs/policy-format.md) that bin/policy-bot plays.\n\n"
    "  --variant V            classical, abrupt, classical-noisy, classical-flash, abrupt-noisy, abrupt-flash, hex\n"
    "  --board RxC            rows x columns (the whole game tree must fit in --max-nodes)\n"
    "  --swap                 hex with the swap rule\n"
    "  --algo A               rcfr (regret matching on the predictions), rcfr+ (targets floored at 0, linear\n"
    "                         averaging), frcfr (a link function, --link)\n"
    "  --link poly|exp        frcfr's link: poly f(x) = (x+)^(p-1), exp f(x) = exp(x/tau) (default exp)\n"
    "  --p P                  the polynomial link's exponent p >= 1 (default 2: the same policy as rcfr)\n"
    "  --tau T                the exponential link's temperature (default 0.1, see docs/bots.md)\n"
    "  --iterations N         stop after N iterations (in all, counting a resumed checkpoint's)\n"
    "  --seconds S            stop after S seconds of training (in all); with --iterations, whichever first\n"
    "  --out FILE             the policy file to write\n"
    "  --features F           coarse, rich (default) or onehot (exact, for checks); see docs/bots.md\n"
    "  --regressor R          xgboost (regression trees, default), fann (an MLP) or table (exact fit)\n"
    "  --targets T            bootstrap (previous prediction + new regret, default) or reservoir\n"
    "  --reservoir N          reservoir samples per player (default 1000000)\n"
    "  --rounds N --depth N --eta X      xgboost: rounds per fit (30), tree depth (8), learning rate (0.3)\n"
    "  --hidden N --epochs N             fann: hidden units (64), RPROP epochs per fit (30)\n"
    "  --threads N            xgboost threads (default 1: reproducible bit for bit)\n"
    "  --eval-every K         exact exploitability every K iterations (default 10; 0 = only at the end)\n"
    "  --no-eval              no exact exploitability at all\n"
    "  --curve FILE           append iteration,seconds,exploitability,nashconv,ev_black,br_black,br_white,\n"
    "                         walk_seconds,fit_seconds rows\n"
    "  --checkpoint FILE      checkpoint file (default OUT.ckpt); an existing one is resumed (a reservoir\n"
    "                         restarts empty)\n"
    "  --checkpoint-every S   seconds between checkpoints (default 60; 0 = only at the end)\n"
    "  --fresh                ignore (and replace) an existing checkpoint\n"
    "  --max-nodes N          largest tree to build (default 40000000 nodes)\n"
    "  --seed S               seed of the regressor and the reservoir (default 1)\n"
    "  --quiet                no progress lines\n"
    "  --json                 print the summary as one JSON object (keys variant, board, algo, features,\n"
    "                         regressor, iterations, seconds, walk_seconds, fit_seconds, infosets,\n"
    "                         exploitability (null if not computed), out)\n\n"
    "SIGINT or SIGTERM stops at the end of the current iteration, writes the checkpoint and the policy.\n"
    "Exit status: 0 done, 1 failed (out of memory, I/O, tree too large, regressor error), 2 bad input,\n"
    "128+N stopped by signal N.\n";

enum { ALGO_RCFR, ALGO_RCFR_PLUS, ALGO_FRCFR };

typedef struct {
    sv_darkhex params;
    sv_tree tree;
    rc_features feat;
    rc_rcfr r;
    char algo[16];
    double *avg;
} trainer;

static bool evaluate(trainer *t, sv_eval *e)
{
    rc_average(&t->r, t->avg);
    if (sv_evaluate(&t->tree, t->avg, e) != 0)
        tc_die(1, "out of memory");
    return true;
}

static sv_ckpt_meta ckpt_meta(const trainer *t)
{
    sv_ckpt_meta m = { .variant = (int)t->params.variant, .rows = t->params.rows, .cols = t->params.cols,
                       .flags = t->params.flags, .keys = PF_KEYS_PERFECT };
    snprintf(m.algo, sizeof m.algo, "%s", t->algo);
    return m;
}

/* Resumes from path if it exists. Returns the training seconds already spent. */
static double resume(trainer *t, const char *path)
{
    sv_ckpt_meta want = ckpt_meta(t), m;
    sv_tree tab;
    float *pred;
    double *sum;
    char err[4600];
    int rc = sv_ckpt_resume(path, &want, &m, &tab, &pred, &sum, err, sizeof err);
    if (rc > 0)
        return 0;
    if (rc < 0)
        tc_die(2, "%s (use --fresh to start over)", err);
    if (sv_ckpt_onto_tree(&tab, pred, sum, &t->tree, t->r.pred, t->r.strategy_sum) != 0)
        tc_die(2, "%s: the checkpoint's %u information states do not match the game's %u", path, tab.n_infosets,
            t->tree.n_infosets);
    rc_resume(&t->r, m.iteration);
    sv_tree_free(&tab);
    free(pred);
    free(sum);
    return m.seconds;
}

static void save_checkpoint(trainer *t, const char *path, double seconds)
{
    sv_ckpt_meta m = ckpt_meta(t);
    m.iteration = t->r.iteration;
    m.seconds = seconds;
    char err[512];
    if (sv_ckpt_save(path, &m, &t->tree, t->r.pred, t->r.strategy_sum, err, sizeof err) != 0)
        tc_die(1, "checkpoint: %s", err);
}

static void curve_row(FILE *curve, const trainer *t, double seconds, const sv_eval *e)
{
    fprintf(curve, "%ld,%.3f,%.9g,%.9g,%.9g,%.9g,%.9g,%.3f,%.3f\n", t->r.iteration, seconds, e->exploitability,
            e->nashconv, e->ev0, e->br[0], e->br[1], t->r.walk_seconds, t->r.fit_seconds);
    fflush(curve);
}

int main(int argc, char **argv)
{
    tc_init("rcfr-train");
    static const struct option options[] = {
        { "variant", required_argument, 0, 'v' },   { "board", required_argument, 0, 'b' },
        { "algo", required_argument, 0, 'a' },      { "link", required_argument, 0, 'l' },
        { "p", required_argument, 0, 'p' },         { "tau", required_argument, 0, 't' },
        { "iterations", required_argument, 0, 'n' }, { "seconds", required_argument, 0, 's' },
        { "out", required_argument, 0, 'o' },       { "features", required_argument, 0, 'f' },
        { "regressor", required_argument, 0, 'R' }, { "targets", required_argument, 0, 'T' },
        { "reservoir", required_argument, 0, 'V' }, { "rounds", required_argument, 0, 'u' },
        { "depth", required_argument, 0, 'd' },     { "eta", required_argument, 0, 'x' },
        { "hidden", required_argument, 0, 'H' },    { "epochs", required_argument, 0, 'y' },
        { "threads", required_argument, 0, 'P' },   { "eval-every", required_argument, 0, 'e' },
        { "no-eval", no_argument, 0, 'N' },         { "curve", required_argument, 0, 'c' },
        { "checkpoint", required_argument, 0, 'C' }, { "checkpoint-every", required_argument, 0, 'E' },
        { "fresh", no_argument, 0, 'F' },           { "max-nodes", required_argument, 0, 'm' },
        { "seed", required_argument, 0, 'r' },      { "quiet", no_argument, 0, 'q' },
        { "json", no_argument, 0, 'j' },            { "help", no_argument, 0, 'h' },
        { "swap", no_argument, 0, 'S' },            { 0, 0, 0, 0 },
    };
    trainer t = { .params = { .variant = HX_VARIANT_COUNT } };
    rc_config cfg = rc_config_defaults();
    int algo = -1, link = -1, set = RC_RICH, reg = RG_XGBOOST;
    bool have_p = false, have_tau = false;
    rg_params rp = rg_defaults(RG_XGBOOST);
    long iterations = -1, eval_every = 10, ckpt_every = 60, max_nodes = 40000000;
    double seconds = -1;
    const char *out = NULL, *curve_path = NULL, *ckpt_path = NULL;
    bool fresh = false, quiet = false, json = false, no_eval = false;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", options, NULL)) != -1) {
        switch (c) {
        case 'v': t.params.variant = tc_variant(optarg); break;
        case 'b': tc_board(optarg, &t.params.rows, &t.params.cols); break;
        case 'S': t.params.flags |= HX_SWAP_RULE; break;
        case 'a':
            algo = strcmp(optarg, "rcfr") == 0 ? ALGO_RCFR : strcmp(optarg, "rcfr+") == 0 ? ALGO_RCFR_PLUS
                 : strcmp(optarg, "frcfr") == 0 ? ALGO_FRCFR : -1;
            if (algo < 0)
                tc_die(2, "--algo: unknown algorithm '%s' (rcfr, rcfr+ or frcfr)", optarg);
            break;
        case 'l':
            link = strcmp(optarg, "poly") == 0 ? RC_LINK_POLY : strcmp(optarg, "exp") == 0 ? RC_LINK_EXP : -1;
            if (link < 0)
                tc_die(2, "--link: expected poly or exp, got '%s'", optarg);
            break;
        case 'p': cfg.link.p = tc_real("p", optarg, 1, 100); have_p = true; break;
        case 't':
            cfg.link.tau = tc_real("tau", optarg, 1e-9, 1e9);
            have_tau = true;
            break;
        case 'n': iterations = tc_long("iterations", optarg, 1); break;
        case 's': seconds = tc_real("seconds", optarg, 1e-3, 1e9); break;
        case 'o': out = optarg; break;
        case 'f':
            if ((set = rc_set_parse(optarg)) < 0)
                tc_die(2, "--features: expected coarse, rich or onehot, got '%s'", optarg);
            break;
        case 'R':
            if ((reg = rg_kind_parse(optarg)) < 0)
                tc_die(2, "--regressor: expected xgboost, fann or table, got '%s'", optarg);
            break;
        case 'T':
            if (strcmp(optarg, "bootstrap") && strcmp(optarg, "reservoir"))
                tc_die(2, "--targets: expected bootstrap or reservoir, got '%s'", optarg);
            cfg.targets = strcmp(optarg, "reservoir") == 0 ? RC_RESERVOIR : RC_BOOTSTRAP;
            break;
        case 'V': cfg.reservoir = (uint32_t)tc_real("reservoir", optarg, 1, 4e9); break;
        case 'u': rp.rounds = (int)tc_real("rounds", optarg, 1, 10000); break;
        case 'd': rp.depth = (int)tc_real("depth", optarg, 1, 30); break;
        case 'x': rp.eta = tc_real("eta", optarg, 1e-6, 1); break;
        case 'H': rp.hidden = (int)tc_real("hidden", optarg, 1, 100000); break;
        case 'y': rp.epochs = (int)tc_real("epochs", optarg, 1, 1000000); break;
        case 'P': rp.threads = (int)tc_real("threads", optarg, 1, 1024); break;
        case 'e': eval_every = tc_long("eval-every", optarg, 0); break;
        case 'N': no_eval = true; break;
        case 'c': curve_path = optarg; break;
        case 'C': ckpt_path = optarg; break;
        case 'E': ckpt_every = tc_long("checkpoint-every", optarg, 0); break;
        case 'F': fresh = true; break;
        case 'm': max_nodes = tc_long("max-nodes", optarg, 1); break;
        case 'r': rp.seed = cfg.seed = (uint64_t)tc_long("seed", optarg, 0); break;
        case 'q': quiet = true; break;
        case 'j': json = true; break;
        case 'h': fputs(help, stdout); return 0;
        default: tc_options_done(c, optind, argc, argv);
        }
    }
    tc_options_done(-1, optind, argc, argv);
    tc_required(t.params.variant != HX_VARIANT_COUNT && t.params.rows && algo >= 0 && out,
                "--variant, --board, --algo and --out");
    if (iterations < 0 && seconds < 0)
        tc_die(2, "give --iterations N or --seconds S");
    if (algo != ALGO_FRCFR && (link >= 0 || have_p || have_tau))
        tc_die(2, "--link, --p and --tau are for --algo frcfr (rcfr and rcfr+ use regret matching)");
    if (algo == ALGO_FRCFR && link < 0)
        link = have_p ? RC_LINK_POLY : RC_LINK_EXP;
    if (link == RC_LINK_POLY && have_tau)
        tc_die(2, "--tau is for --link exp");
    if (link == RC_LINK_EXP && have_p)
        tc_die(2, "--p is for --link poly");
    if (algo == ALGO_RCFR_PLUS && cfg.targets == RC_RESERVOIR)
        tc_die(2, "rcfr+ floors cumulative regrets, which a reservoir of instantaneous regrets does not hold: "
                  "use --targets bootstrap");
    tc_playable(t.params.variant, t.params.rows, t.params.cols, t.params.flags);
    if (max_nodes > UINT32_MAX)
        max_nodes = UINT32_MAX;
    cfg.plus = algo == ALGO_RCFR_PLUS;
    cfg.link.kind = algo == ALGO_FRCFR ? (rc_link_kind)link : RC_LINK_MATCH;
    rp.kind = (rg_kind)reg;
    cfg.regressor = rp;
    if (algo == ALGO_FRCFR) {
        char name[10];
        rc_link_name(&cfg.link, name, sizeof name);
        snprintf(t.algo, sizeof t.algo, "frcfr-%s", name);
    } else {
        snprintf(t.algo, sizeof t.algo, "%s", algo == ALGO_RCFR ? "rcfr" : "rcfr+");
    }
    char ckpt_default[4096];
    ckpt_path = tc_checkpoint_path(ckpt_path, out, ckpt_default, sizeof ckpt_default);

    efg_game game;
    sv_darkhex_game(&game, &t.params);
    double tb = clk_now();
    if (sv_tree_build(&t.tree, &game, (uint32_t)max_nodes, false) != 0)
        tc_die(1, "the game tree of %dx%d %s does not fit in %ld nodes (try --max-nodes)", t.params.rows,
            t.params.cols, hx_variant_name(t.params.variant), max_nodes);
    if (rc_features_build(&t.feat, &t.tree, &t.params, (rc_set)set) != 0)
        tc_die(1, "out of memory building the %s features", rc_set_name((rc_set)set));
    char err[4600];
    if (rc_init(&t.r, &t.tree, &t.feat, &cfg, err, sizeof err) != 0)
        tc_die(reg == RG_FANN && set == RC_ONEHOT ? 2 : 1, "%s", err);
    t.avg = malloc(sizeof *t.avg * (t.tree.n_actions ? t.tree.n_actions : 1));
    if (!t.avg)
        tc_die(1, "out of memory");
    if (!quiet)
        fprintf(stderr, "rcfr-train: %u information states, %u + %u feature rows of %u columns (%s), built in "
                        "%.2f s\n", t.tree.n_infosets, t.feat.rows[0].n, t.feat.rows[1].n, t.feat.rows[0].dim,
                rc_set_name((rc_set)set), clk_now() - tb);
    if (no_eval)
        eval_every = 0;

    double spent = fresh ? 0 : resume(&t, ckpt_path);
    static const char header[] =
        "iteration,seconds,exploitability,nashconv,ev_black,br_black,br_white,walk_seconds,fit_seconds\n";
    FILE *curve = curve_path ? tc_curve(curve_path, t.r.iteration, header) : NULL;
    tc_catch_stop();

    tc_run run;
    tc_run_start(&run, "iteration", "it/s", (double)t.r.iteration, spent, (double)iterations, seconds, quiet);
    if (!quiet && t.r.iteration)
        fprintf(stderr, "rcfr-train: resumed from %s at iteration %ld (%.1f s)\n", ckpt_path, t.r.iteration, spent);
    sv_eval e = { .exploitability = NAN };
    bool have_e = false;
    long e_it = -1;
    while (tc_run_more(&run, (double)t.r.iteration)) {
        if (rc_iterate(&t.r, err, sizeof err) != 0)
            tc_die(1, "iteration %ld: %s", t.r.iteration + 1, err);
        long it = t.r.iteration;
        bool eval_now = eval_every > 0 && it % eval_every == 0 && evaluate(&t, &e);
        if (eval_now) {
            have_e = true;
            e_it = it;
            if (curve)
                curve_row(curve, &t, tc_run_seconds(&run), &e);
        }
        if (tc_run_progress(&run, (double)it, eval_now)) {
            fprintf(stderr, "  traversal %.1f s  regression %.1f s", t.r.walk_seconds, t.r.fit_seconds);
            if (eval_now)
                fprintf(stderr, "  exploitability %.3e", e.exploitability);
            fputc('\n', stderr);
        }
        if (tc_run_checkpoint_due(&run, ckpt_every)) {
            save_checkpoint(&t, ckpt_path, tc_run_seconds(&run));
            tc_run_checkpointed(&run);
        }
    }
    double total = tc_run_seconds(&run);
    save_checkpoint(&t, ckpt_path, total);
    if (!no_eval && e_it != t.r.iteration) {
        have_e = evaluate(&t, &e);
        if (curve)
            curve_row(curve, &t, total, &e);
    }
    if (curve)
        fclose(curve);

    pf_meta m = { .variant = t.params.variant, .rows = t.params.rows, .cols = t.params.cols,
                  .flags = t.params.flags, .keys = PF_KEYS_PERFECT, .iterations = (uint64_t)t.r.iteration,
                  .exploitability = have_e ? e.exploitability : NAN };
    snprintf(m.algo, sizeof m.algo, "%s", t.algo);
    rc_average(&t.r, t.avg);
    if (pf_save_tree(&t.tree, t.avg, &m, out, err, sizeof err) != 0)
        tc_die(1, "%s", err);
    if (json) {
        printf("{\"variant\":\"%s\",\"board\":\"%dx%d\",\"algo\":\"%s\",\"features\":\"%s\",\"regressor\":\"%s\","
               "\"iterations\":%ld,\"seconds\":%.3f,\"walk_seconds\":%.3f,\"fit_seconds\":%.3f,\"infosets\":%u,"
               "\"exploitability\":",
               hx_variant_name(t.params.variant), t.params.rows, t.params.cols, t.algo, rc_set_name((rc_set)set),
               rg_kind_name((rg_kind)reg), t.r.iteration, total, t.r.walk_seconds, t.r.fit_seconds,
               t.tree.n_infosets);
        if (have_e)
            printf("%.9g", e.exploitability);
        else
            fputs("null", stdout);
        fputs(",\"out\":", stdout);
        json_string(stdout, out);
        puts("}");
    } else {
        printf("%s: %dx%d %s, %s (%s features, %s), %ld iterations in %.1f s (traversal %.1f s, regression %.1f s), "
               "%u information states",
               out, t.params.rows, t.params.cols, hx_variant_name(t.params.variant), t.algo, rc_set_name((rc_set)set),
               rg_kind_name((rg_kind)reg), t.r.iteration, total, t.r.walk_seconds, t.r.fit_seconds,
               t.tree.n_infosets);
        if (have_e)
            printf(", exploitability %.3e", e.exploitability);
        putchar('\n');
    }
    free(t.avg);
    rc_free(&t.r);
    rc_features_free(&t.feat);
    sv_tree_free(&t.tree);
    return tc_stopped() ? 128 + tc_stopped() : 0;
}
