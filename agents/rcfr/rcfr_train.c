/* agents/rcfr/rcfr_train.c — bin/rcfr-train: trains a policy by regression CFR (RCFR, RCFR+, f-RCFR with a
 * polynomial or exponential link) for one dark variant and board and writes a policy file
 * (docs/policy-format.md) that bin/policy-bot plays. Walks the built perfect-recall tree like cfr-train's
 * full-pass algorithms, with the regrets in a regressor over features of (information state, action).
 * Progress on stderr, exact exploitability every K iterations, a CSV curve with the time split between
 * traversal and regression, and checkpoints (predicted regrets and strategy sums) a killed run resumes.
 * --sampling external trains without the tree (srcfr.h: batches of external-sampling traversals, the
 * states met as they come), scored exactly by the information-state walk where it applies (3x3). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bestresponse.h"
#include "infowalk.h"
#include "checkpoint.h"
#include "darkhex.h"
#include "loop.h"
#include "policy.h"
#include "rcfr.h"
#include "srcfr.h"
#include "trainer_cli.h"
#include "walkeval.h"
#include "clock.h"
#include "json.h"

static const char help[] =
    "usage: rcfr-train --variant V --board RxC --algo rcfr|rcfr+|frcfr [--link poly --p P | --link exp --tau T]\n"
    "                  (--iterations N | --seconds S) --out FILE [options]\n\n"
    "Trains a policy by regression CFR: the cumulative regrets are a regressor's predictions from features of\n"
    "(information state, action), the current policy comes from them through a link function, and the average\n"
    "policy is written as a policy file (docs/policy-format.md) that bin/policy-bot plays.\n\n"
    "  --variant V            classical, abrupt, classical-noisy, classical-flash, abrupt-noisy, abrupt-flash, hex\n"
    "  --board RxC            rows x columns (the whole game tree must fit in --max-nodes, unless sampled)\n"
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
    "  --sampling full|external|outcome   full: passes over the built tree (default); external: each iteration runs\n"
    "                         --batch external-sampling traversals per player (as MCCFR) on states met as they\n"
    "                         come, for boards whose tree does not fit (3x3, 4x3); exact exploitability by the\n"
    "                         information-state walk on boards of at most 9 cells, only at the end\n"
    "                         unless --eval-every; no checkpoints (a sampled run neither writes nor resumes one)\n"
    "                         outcome: one sampled history per traversal (outcome-sampling MCCFR, the\n"
    "                         traverser exploring with --epsilon), a few states each: for 4x3\n"
    "  --batch N              traversals per player per iteration (default 100)\n"
    "  --epsilon X            outcome: the traverser's exploration (default 0.6)\n"
    "  --rounds N --depth N --eta X      xgboost: rounds per fit (30), tree depth (8), learning rate (0.3)\n"
    "  --hidden N --epochs N             fann: hidden units (64), RPROP epochs per fit (30)\n"
    "  --threads N            xgboost threads (default 1: reproducible bit for bit)\n"
    "  --eval-every K         exact exploitability every K iterations (default 10, external 0; 0 = at the end)\n"
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
    sv_eval e;              /* the last evaluation */
    /* --sampling external: the game, the sampled trainer, whether the walk evaluates. */
    bool sampled, walk_eval, have_batch, outcome, have_epsilon;
    double epsilon;
    uint32_t batch;
    efg_game game;
    rc_sampled s;
    /* The command line's choices. */
    rc_config cfg;
    rg_params rp;
    int algo_kind, link, set, reg;
    bool have_p, have_tau, no_eval, json;
    long max_nodes;
    const char *out;
} trainer;

static long iteration_of(const trainer *t) { return t->sampled ? t->s.iteration : t->r.iteration; }
static double walk_seconds(const trainer *t) { return t->sampled ? t->s.walk_seconds : t->r.walk_seconds; }
static double fit_seconds(const trainer *t) { return t->sampled ? t->s.fit_seconds : t->r.fit_seconds; }
static uint32_t states_of(const trainer *t) { return t->sampled ? t->s.table.n_infosets : t->tree.n_infosets; }

static pf_meta policy_meta(const trainer *t, double exploitability)
{
    pf_meta m = { .variant = t->params.variant, .rows = t->params.rows, .cols = t->params.cols,
                  .flags = t->params.flags, .keys = PF_KEYS_PERFECT, .iterations = (uint64_t)iteration_of(t),
                  .exploitability = exploitability,
                  /* sampling meets a state only after all earlier ones of its player: the table is closed */
                  .closed = t->sampled };
    snprintf(m.algo, sizeof m.algo, "%s", t->algo);
    return m;
}

/* The sampled trainer's average policy per table action (the table grows: reallocated each time). */
static double *sampled_average(trainer *t)
{
    double *avg = realloc(t->avg, sizeof *avg * (t->s.table.n_actions ? t->s.table.n_actions : 1));
    if (!avg)
        tc_die(1, "out of memory");
    t->avg = avg;
    rc_sampled_average(&t->s, avg);
    return avg;
}

static bool sampled_evaluate(trainer *t)
{
    if (!t->walk_eval)
        return false;
    char path[4200], err[600];
    snprintf(path, sizeof path, "%s.eval", t->out);
    pf_meta m = policy_meta(t, NAN);
    if (tc_walk_evaluate(&t->s.table, sampled_average(t), &m, path, &t->e, err, sizeof err) != 0)
        tc_die(1, "exact evaluation: %s", err);
    return true;
}

static bool evaluate(void *ctx)
{
    trainer *t = ctx;
    if (t->no_eval)
        return false;
    if (t->sampled)
        return sampled_evaluate(t);
    rc_average(&t->r, t->avg);
    if (sv_evaluate(&t->tree, t->avg, &t->e) != 0)
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
static double resume(void *ctx, const char *path)
{
    trainer *t = ctx;
    if (t->sampled)
        return 0; /* a sampled run has no checkpoint */
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

static void save_checkpoint(const void *ctx, const char *path, double seconds)
{
    const trainer *t = ctx;
    if (t->sampled)
        return;
    sv_ckpt_meta m = ckpt_meta(t);
    m.iteration = t->r.iteration;
    m.seconds = seconds;
    char err[512];
    if (sv_ckpt_save(path, &m, &t->tree, t->r.pred, t->r.strategy_sum, err, sizeof err) != 0)
        tc_die(1, "checkpoint: %s", err);
}

static long count(const void *ctx) { return iteration_of(ctx); }

static void step(void *ctx)
{
    trainer *t = ctx;
    char err[4600];
    if ((t->sampled ? rc_sampled_iterate(&t->s, err, sizeof err) : rc_iterate(&t->r, err, sizeof err)) != 0)
        tc_die(1, "iteration %ld: %s", iteration_of(t) + 1, err);
}

static void curve_row(const void *ctx, FILE *curve, double seconds)
{
    const trainer *t = ctx;
    const sv_eval *e = &t->e;
    fprintf(curve, "%ld,%.3f,%.9g,%.9g,%.9g,%.9g,%.9g,%.3f,%.3f\n", iteration_of(t), seconds, e->exploitability,
            e->nashconv, e->ev0, e->br[0], e->br[1], walk_seconds(t), fit_seconds(t));
}

static void progress(const void *ctx, bool evaluated)
{
    const trainer *t = ctx;
    fprintf(stderr, "  traversal %.1f s  regression %.1f s", walk_seconds(t), fit_seconds(t));
    if (t->sampled)
        fprintf(stderr, "  states %u", t->s.table.n_infosets);
    if (evaluated)
        fprintf(stderr, "  exploitability %.3e", t->e.exploitability);
}

static void print_summary(const trainer *t, double seconds, bool evaluated)
{
    const char *set = rc_set_name((rc_set)t->set), *reg = rg_kind_name((rg_kind)t->reg);
    if (t->json) {
        printf("{\"variant\":\"%s\",\"board\":\"%dx%d\",\"algo\":\"%s\",\"features\":\"%s\",\"regressor\":\"%s\","
               "\"iterations\":%ld,\"seconds\":%.3f,\"walk_seconds\":%.3f,\"fit_seconds\":%.3f,\"infosets\":%u,"
               "\"exploitability\":",
               hx_variant_name(t->params.variant), t->params.rows, t->params.cols, t->algo, set, reg, iteration_of(t),
               seconds, walk_seconds(t), fit_seconds(t), states_of(t));
        if (evaluated)
            printf("%.9g", t->e.exploitability);
        else
            fputs("null", stdout);
        fputs(",\"out\":", stdout);
        json_string(stdout, t->out);
        puts("}");
        return;
    }
    printf("%s: %dx%d %s, %s (%s features, %s), %ld iterations in %.1f s (traversal %.1f s, regression %.1f s), "
           "%u information states",
           t->out, t->params.rows, t->params.cols, hx_variant_name(t->params.variant), t->algo, set, reg,
           iteration_of(t), seconds, walk_seconds(t), fit_seconds(t), states_of(t));
    if (evaluated)
        printf(", exploitability %.3e", t->e.exploitability);
    putchar('\n');
}

/* The average policy to the policy file, and the summary. */
static void write_policy(void *ctx, const tc_loop_end *end)
{
    trainer *t = ctx;
    pf_meta m = policy_meta(t, end->evaluated ? t->e.exploitability : NAN);
    const sv_tree *table = t->sampled ? &t->s.table : &t->tree;
    if (t->sampled)
        sampled_average(t);
    else
        rc_average(&t->r, t->avg);
    char err[4600];
    if (pf_save_tree(table, t->avg, &m, t->out, err, sizeof err) != 0)
        tc_die(1, "%s", err);
    print_summary(t, end->seconds, end->evaluated);
}

static const tc_trainer rcfr_trainer = {
    .unit = "iteration", .rate_unit = "it/s",
    .curve_header = "iteration,seconds,exploitability,nashconv,ev_black,br_black,br_white,walk_seconds,fit_seconds\n",
    .count = count, .resume = resume, .step = step, .evaluate = evaluate, .curve_row = curve_row,
    .progress = progress, .save = save_checkpoint, .write = write_policy,
};

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
    { "swap", no_argument, 0, 'S' },            { "sampling", required_argument, 0, 'G' },
    { "batch", required_argument, 0, 'B' },     { "epsilon", required_argument, 0, 'X' },
    { 0, 0, 0, 0 },
};

/* The options that choose the algorithm, its link and its targets; false when c is not one of them. */
static bool algorithm_option(trainer *t, int c, const char *arg)
{
    switch (c) {
    case 'a':
        t->algo_kind = strcmp(arg, "rcfr") == 0 ? ALGO_RCFR : strcmp(arg, "rcfr+") == 0 ? ALGO_RCFR_PLUS
                     : strcmp(arg, "frcfr") == 0 ? ALGO_FRCFR : -1;
        if (t->algo_kind < 0)
            tc_die(2, "--algo: unknown algorithm '%s' (rcfr, rcfr+ or frcfr)", arg);
        break;
    case 'l':
        t->link = strcmp(arg, "poly") == 0 ? RC_LINK_POLY : strcmp(arg, "exp") == 0 ? RC_LINK_EXP : -1;
        if (t->link < 0)
            tc_die(2, "--link: expected poly or exp, got '%s'", arg);
        break;
    case 'p':
        t->cfg.link.p = tc_real("p", arg, 1, 100);
        t->have_p = true;
        break;
    case 't':
        t->cfg.link.tau = tc_real("tau", arg, 1e-9, 1e9);
        t->have_tau = true;
        break;
    case 'T':
        if (strcmp(arg, "bootstrap") && strcmp(arg, "reservoir"))
            tc_die(2, "--targets: expected bootstrap or reservoir, got '%s'", arg);
        t->cfg.targets = strcmp(arg, "reservoir") == 0 ? RC_RESERVOIR : RC_BOOTSTRAP;
        break;
    case 'V': t->cfg.reservoir = (uint32_t)tc_real("reservoir", arg, 1, 4e9); break;
    case 'G':
        if (strcmp(arg, "full") && strcmp(arg, "external") && strcmp(arg, "outcome"))
            tc_die(2, "--sampling: expected full, external or outcome, got '%s'", arg);
        t->sampled = strcmp(arg, "full") != 0;
        t->outcome = strcmp(arg, "outcome") == 0;
        break;
    case 'X':
        t->epsilon = tc_real("epsilon", arg, 1e-6, 1);
        t->have_epsilon = true;
        break;
    case 'B':
        t->batch = (uint32_t)tc_real("batch", arg, 1, 1e9);
        t->have_batch = true;
        break;
    default: return false;
    }
    return true;
}

/* The options that choose the features and the regressor; false when c is not one of them. */
static bool regressor_option(trainer *t, int c, const char *arg)
{
    switch (c) {
    case 'f':
        if ((t->set = rc_set_parse(arg)) < 0)
            tc_die(2, "--features: expected coarse, rich or onehot, got '%s'", arg);
        break;
    case 'R':
        if ((t->reg = rg_kind_parse(arg)) < 0)
            tc_die(2, "--regressor: expected xgboost, fann or table, got '%s'", arg);
        break;
    case 'u': t->rp.rounds = (int)tc_real("rounds", arg, 1, 10000); break;
    case 'd': t->rp.depth = (int)tc_real("depth", arg, 1, 30); break;
    case 'x': t->rp.eta = tc_real("eta", arg, 1e-6, 1); break;
    case 'H': t->rp.hidden = (int)tc_real("hidden", arg, 1, 100000); break;
    case 'y': t->rp.epochs = (int)tc_real("epochs", arg, 1, 1000000); break;
    case 'P': t->rp.threads = (int)tc_real("threads", arg, 1, 1024); break;
    case 'r': t->rp.seed = t->cfg.seed = (uint64_t)tc_long("seed", arg, 0); break;
    default: return false;
    }
    return true;
}

/* One option (getopt_long's code c, its value arg). */
static void option(trainer *t, tc_loop_options *o, int c, const char *arg, int argc, char **argv)
{
    if (algorithm_option(t, c, arg) || regressor_option(t, c, arg))
        return;
    switch (c) {
    case 'v': t->params.variant = tc_variant(arg); break;
    case 'b': tc_board(arg, &t->params.rows, &t->params.cols); break;
    case 'S': t->params.flags |= HX_SWAP_RULE; break;
    case 'n': o->count = tc_long("iterations", arg, 1); break;
    case 's': o->seconds = tc_real("seconds", arg, 1e-3, 1e9); break;
    case 'o': o->out = t->out = arg; break;
    case 'e': o->eval_every = tc_long("eval-every", arg, 0); break;
    case 'N': t->no_eval = true; break;
    case 'c': o->curve = arg; break;
    case 'C': o->checkpoint = arg; break;
    case 'E': o->checkpoint_every = tc_long("checkpoint-every", arg, 0); break;
    case 'F': o->fresh = true; break;
    case 'm': t->max_nodes = tc_long("max-nodes", arg, 1); break;
    case 'q': o->quiet = true; break;
    case 'j': t->json = true; break;
    case 'h': fputs(help, stdout); exit(0);
    default: tc_options_done(c, optind, argc, argv);
    }
}

/* The choices that do not go together, refused with exit 2; frcfr's default link. */
static void check_algorithm(trainer *t)
{
    if (t->have_batch && !t->sampled)
        tc_die(2, "--batch is for --sampling external or outcome");
    if (t->have_epsilon && !t->outcome)
        tc_die(2, "--epsilon is for --sampling outcome");
    if (t->algo_kind != ALGO_FRCFR && (t->link >= 0 || t->have_p || t->have_tau))
        tc_die(2, "--link, --p and --tau are for --algo frcfr (rcfr and rcfr+ use regret matching)");
    if (t->algo_kind == ALGO_FRCFR && t->link < 0)
        t->link = t->have_p ? RC_LINK_POLY : RC_LINK_EXP;
    if (t->link == RC_LINK_POLY && t->have_tau)
        tc_die(2, "--tau is for --link exp");
    if (t->link == RC_LINK_EXP && t->have_p)
        tc_die(2, "--p is for --link poly");
    if (t->algo_kind == ALGO_RCFR_PLUS && t->cfg.targets == RC_RESERVOIR)
        tc_die(2, "rcfr+ floors cumulative regrets, which a reservoir of instantaneous regrets does not hold: "
                  "use --targets bootstrap");
}

/* The algorithm's configuration and its name in policy files and checkpoints ("frcfr-exp0.1"). */
static void configure(trainer *t)
{
    t->cfg.plus = t->algo_kind == ALGO_RCFR_PLUS;
    t->cfg.link.kind = t->algo_kind == ALGO_FRCFR ? (rc_link_kind)t->link : RC_LINK_MATCH;
    t->rp.kind = (rg_kind)t->reg;
    t->cfg.regressor = t->rp;
    if (t->algo_kind == ALGO_FRCFR) {
        char name[10];
        rc_link_name(&t->cfg.link, name, sizeof name);
        snprintf(t->algo, sizeof t->algo, "frcfr-%s", name);
    } else {
        snprintf(t->algo, sizeof t->algo, "%s", t->algo_kind == ALGO_RCFR ? "rcfr" : "rcfr+");
    }
}

/* The command line into t and o, refused with exit 2 when wrong. */
static void parse_options(int argc, char **argv, trainer *t, tc_loop_options *o)
{
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", options, NULL)) != -1)
        option(t, o, c, optarg, argc, argv);
    tc_options_done(-1, optind, argc, argv);
    tc_required(t->params.variant != HX_VARIANT_COUNT && t->params.rows && t->algo_kind >= 0 && t->out,
                "--variant, --board, --algo and --out");
    if (o->count < 0 && o->seconds < 0)
        tc_die(2, "give --iterations N or --seconds S");
    check_algorithm(t);
    tc_playable(t->params.variant, t->params.rows, t->params.cols, t->params.flags);
    if (t->max_nodes > UINT32_MAX)
        t->max_nodes = UINT32_MAX;
    configure(t);
    if (o->eval_every < 0)
        o->eval_every = t->sampled ? 0 : 10;
}

/* The perfect-recall tree, the features and the regressor. */
/* --sampling external: the game and the sampled trainer; the walk evaluates when it handles the game. */
static void build_sampled(trainer *t, tc_loop_options *o)
{
    sv_darkhex_game(&t->game, &t->params);
    char err[4600];
    if (rc_sampled_init(&t->s, &t->game, (rc_set)t->set, &t->cfg, t->batch, err, sizeof err) != 0)
        tc_die(1, "%s", err);
    t->s.outcome = t->outcome;
    t->s.epsilon = t->epsilon;
    const char *why = NULL;
    t->walk_eval = !t->no_eval && iw_supported(t->params.variant, t->params.rows, t->params.cols,
                                               t->params.flags & HX_SWAP_RULE, &why);
    if (t->walk_eval && t->params.rows * t->params.cols > 9) { /* minutes on 9 cells; far longer beyond */
        t->walk_eval = false;
        why = "the information-state walk is for boards of at most 9 cells here";
    }
    if (!t->no_eval && !t->walk_eval) {
        o->eval_every = 0;
        if (!o->quiet)
            fprintf(stderr, "rcfr-train: no exact exploitability on this board (%s)\n", why);
    }
    o->eval_off_clock = true; /* minutes of the walk are not training time */
    if (!o->quiet)
        fprintf(stderr, "rcfr-train: %s sampling (%u traversals per player per iteration), %s features, exact "
                        "exploitability %s\n", t->outcome ? "outcome" : "external", t->s.batch,
                rc_set_name((rc_set)t->set),
                t->walk_eval ? "by the information-state walk" : "off");
}

static void build(trainer *t, bool quiet)
{
    efg_game game;
    sv_darkhex_game(&game, &t->params);
    double tb = clk_now();
    if (sv_tree_build(&t->tree, &game, (uint32_t)t->max_nodes, false) != 0)
        tc_die(1, "the game tree of %dx%d %s does not fit in %ld nodes (try --max-nodes)", t->params.rows,
            t->params.cols, hx_variant_name(t->params.variant), t->max_nodes);
    if (rc_features_build(&t->feat, &t->tree, &t->params, (rc_set)t->set) != 0)
        tc_die(1, "out of memory building the %s features", rc_set_name((rc_set)t->set));
    char err[4600];
    if (rc_init(&t->r, &t->tree, &t->feat, &t->cfg, err, sizeof err) != 0)
        tc_die(t->reg == RG_FANN && t->set == RC_ONEHOT ? 2 : 1, "%s", err);
    t->avg = malloc(sizeof *t->avg * (t->tree.n_actions ? t->tree.n_actions : 1));
    if (!t->avg)
        tc_die(1, "out of memory");
    if (!quiet)
        fprintf(stderr, "rcfr-train: %u information states, %u + %u feature rows of %u columns (%s), built in "
                        "%.2f s\n", t->tree.n_infosets, t->feat.rows[0].n, t->feat.rows[1].n, t->feat.rows[0].dim,
                rc_set_name((rc_set)t->set), clk_now() - tb);
}

int main(int argc, char **argv)
{
    tc_init("rcfr-train");
    trainer t = { .params = { .variant = HX_VARIANT_COUNT }, .cfg = rc_config_defaults(),
                  .rp = rg_defaults(RG_XGBOOST), .algo_kind = -1, .link = -1, .set = RC_RICH, .reg = RG_XGBOOST,
                  .max_nodes = 40000000, .batch = 100, .epsilon = 0.6, .e = { .exploitability = NAN } };
    tc_loop_options o = { .count = -1, .seconds = -1, .eval_every = -1, .checkpoint_every = 60 };
    parse_options(argc, argv, &t, &o);
    if (t.sampled)
        build_sampled(&t, &o);
    else
        build(&t, o.quiet);
    if (t.no_eval)
        o.eval_every = 0;
    tc_loop_run(&rcfr_trainer, &o, &t);
    free(t.avg);
    rc_free(&t.r);
    rc_sampled_free(&t.s);
    rc_features_free(&t.feat);
    sv_tree_free(&t.tree);
    return tc_exit_status();
}
