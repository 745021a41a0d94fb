/* agents/cfr/cfr_train.c — bin/cfr-train: trains a CFR-family policy for one variant and board and writes a
 * policy file (docs/policy-format.md). Vanilla CFR, CFR+ and DCFR walk the built game tree; external-
 * sampling MCCFR samples it, for boards whose tree does not fit. Progress on stderr, exact exploitability
 * every K iterations (on the built tree, or by the information-state walk of infowalk.h where the tree does
 * not fit), a CSV curve, and checkpoints a killed run resumes from. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "bestresponse.h"
#include "cfr.h"
#include "checkpoint.h"
#include "darkhex.h"
#include "infowalk.h"
#include "loop.h"
#include "mccfr.h"
#include "policy.h"
#include "trainer_cli.h"
#include "variant.h"
#include "walkeval.h"
#include "json.h"

enum { ALGO_MCCFR = 3 };

static const char help[] =
    "usage: cfr-train --variant V --board RxC --algo cfr|cfr+|dcfr|mccfr (--iterations N | --seconds S)\n"
    "                 --out FILE [options]\n\n"
    "Trains a policy by counterfactual regret minimisation and writes it as a policy file\n"
    "(docs/policy-format.md) that bin/policy-bot plays and 'arena exploit' measures.\n\n"
    "  --variant V            hex, classical, abrupt, classical-noisy, classical-flash, abrupt-noisy, abrupt-flash\n"
    "  --board RxC            rows x columns\n"
    "  --swap                 hex with the swap rule\n"
    "  --algo A               cfr (vanilla), cfr+ (linear averaging), dcfr (1.5, 0, 2): full passes over the\n"
    "                         built tree; mccfr: external-sampling Monte Carlo CFR, for trees that do not fit\n"
    "  --walk                 cfr+: full passes over the information-state walk instead of a built tree (the\n"
    "                         dark variants up to 16 cells, perfect-recall keys; chosen by itself when the\n"
    "                         tree does not fit in --max-nodes; 3x3 in minutes per iteration, on every\n"
    "                         processor)\n"
    "  --delay D              cfr+ over the walk: iteration t weighs t - D in the average (none before D+1;\n"
    "                         default 0): the first, dense strategies leave the average, which is then\n"
    "                         sparser and far quicker to score exactly\n"
    "  --iterations N         stop after N iterations (in all, counting a resumed checkpoint's)\n"
    "  --seconds S            stop after S seconds of training (in all); with --iterations, whichever first\n"
    "  --out FILE             the policy file to write\n"
    "  --keys perfect|view    information-state keys: perfect recall (default) or the view (an abstraction:\n"
    "                         smaller, but without CFR's guarantees)\n"
    "  --eval-every K         exact exploitability every K iterations (default: 10 for tree algorithms,\n"
    "                         0 = only at the end): on the tree when it fits in --max-nodes, else by the\n"
    "                         information-state walk of 'arena exploit' (dark variants up to 16 cells;\n"
    "                         minutes on 3x3, on every processor, not counted in --seconds)\n"
    "  --no-eval              no exact exploitability at all (not even at the end)\n"
    "  --curve FILE           append iteration,seconds,exploitability,nashconv,ev_black,br_black,br_white rows\n"
    "  --checkpoint FILE      checkpoint file (default OUT.ckpt); an existing one is resumed\n"
    "  --checkpoint-every S   seconds between checkpoints (default 60; 0 = only at the end)\n"
    "  --fresh                ignore (and replace) an existing checkpoint\n"
    "  --max-nodes N          largest tree to build (default 40000000 nodes, about 1.3 GB)\n"
    "  --seed S               random seed of mccfr (default 1)\n"
    "  --weighting W          mccfr: uniform (default: every iteration counts once) or linear (iteration t\n"
    "                         counts about t times in the regrets and the average, as linear CFR; the\n"
    "                         policy's algorithm is then mccfr-linear)\n"
    "  --baseline B           mccfr: none (default) or history: variance reduction, the opponent's sampled\n"
    "                         values corrected by a cache of each history's latest action values (VR-MCCFR;\n"
    "                         algorithm mccfr-vr or mccfr-linear-vr; the cache is not checkpointed, so a\n"
    "                         resumed run is unbiased but not byte for byte an uninterrupted one)\n"
    "  --baseline-mb M        the cache's memory in MiB (default 256; 64 bytes per history)\n"
    "  --quiet                no progress lines\n"
    "  --json                 print the summary as one JSON object (keys variant, board, algo, keys,\n"
    "                         iterations, seconds, infosets, exploitability (null if not computed), out)\n\n"
    "SIGINT or SIGTERM stops at the end of the current iteration, writes the checkpoint and the policy.\n"
    "Exit status: 0 done, 1 failed (out of memory, I/O, tree too large), 2 bad input, 128+N stopped by signal N.\n";

typedef struct {
    sv_darkhex params;
    efg_game game;
    int algo;
    pf_keys keys;
    sv_tree tree;       /* tree algorithms: the training tree (keyed as --keys) */
    sv_cfr cfr;
    sv_mccfr mc;
    sv_tree eval;       /* the perfect-recall tree for exact evaluation (may be the training tree) */
    bool have_eval, eval_is_tree;
    bool walk_eval;     /* no tree: evaluate by the information-state walk */
    const char *out;    /* the policy file (the walk's scratch file is OUT.eval) */
    double *probs;      /* scratch: the policy on the evaluation tree */
    sv_eval e;          /* the last evaluation */
    long max_nodes;
    uint64_t seed;
    bool no_eval, json;
    bool linear;        /* --weighting linear (mccfr) */
    bool baseline;      /* --baseline history (mccfr) */
    long baseline_mb;   /* --baseline-mb */
    bool walk;          /* cfr+ over the information-state walk (--walk, or the tree does not fit) */
    bool walk_forced;   /* --walk */
    bool eval_default;  /* --eval-every not given */
    sv_tree wtab;       /* walk: every information state, the regrets and sums laid out like its actions */
    float *wregret;
    double *wsum;
    long witer;
    long delay;         /* --delay: iteration t weighs max(t - delay, 0) in the average */
    iw_cfr *wc;
} trainer;

static const sv_tree *table_of(const trainer *t)
{
    return t->walk ? &t->wtab : t->algo == ALGO_MCCFR ? &t->mc.table : &t->tree;
}
static const float *regret_of(const trainer *t)
{
    return t->walk ? t->wregret : t->algo == ALGO_MCCFR ? t->mc.regret : t->cfr.regret;
}
static const double *sums_of(const trainer *t)
{
    return t->walk ? t->wsum : t->algo == ALGO_MCCFR ? t->mc.strategy_sum : t->cfr.strategy_sum;
}
static long iteration_of(const trainer *t)
{
    return t->walk ? t->witer : t->algo == ALGO_MCCFR ? t->mc.iteration : t->cfr.iteration;
}
static const char *algo_name(const trainer *t)
{
    if (t->algo != ALGO_MCCFR)
        return sv_algo_name((sv_algo)t->algo);
    if (t->mc.baseline_bits > 0)
        return t->mc.linear ? "mccfr-linear-vr" : "mccfr-vr";
    return t->mc.linear ? "mccfr-linear" : "mccfr";
}

/* The full-width algorithms' average strategy leaves a state its own player never reaches (no iteration
 * weighed in its sums: the player's own earlier choices avoid it) at uniform. Such a state does not touch
 * the exploitability (a best response never meets it with positive probability), but a league that starts
 * from openings does: it is given the current strategy instead, regret matching on regrets measured
 * against the opponent's play there, which is what the trainer would play if it got there. */
static void fill_unreached(const sv_tree *tab, const double *sum, const float *regret, double *avg)
{
    for (uint32_t k = 0; k < tab->n_infosets; k++) {
        const sv_infoset *is = &tab->infosets[k];
        double total = 0;
        for (int a = 0; a < is->n; a++)
            total += sum[is->offset + a];
        if (total == 0)
            sv_regret_match(regret + is->offset, is->n, avg + is->offset);
    }
}

/* The average strategy of the training table, per action of the table. */
static double *average(const trainer *t)
{
    const sv_tree *tab = table_of(t);
    double *avg = malloc(sizeof *avg * (tab->n_actions ? tab->n_actions : 1));
    if (!avg)
        tc_die(1, "out of memory");
    if (t->walk)
        sv_normalise(&t->wtab, t->wsum, avg);
    else if (t->algo == ALGO_MCCFR)
        sv_mccfr_average(&t->mc, avg);
    else
        sv_cfr_average(&t->cfr, avg);
    if (t->algo != ALGO_MCCFR)
        fill_unreached(tab, sums_of(t), regret_of(t), avg);
    return avg;
}

/* The table's policy on the evaluation tree (uniform where the table lacks a state). */
static void project(const sv_tree *src, const double *p, const sv_tree *dst, double *out)
{
    for (uint32_t k = 0; k < dst->n_infosets; k++) {
        const sv_infoset *is = &dst->infosets[k];
        int64_t j = sv_tree_find(src, is->player, src->view_keys ? is->view : is->key);
        for (int a = 0; a < is->n; a++)
            out[is->offset + a] = j >= 0 && src->infosets[j].n == is->n ? p[src->infosets[j].offset + a]
                                                                         : 1.0 / is->n;
    }
}

static pf_meta meta_of(const trainer *t, double exploitability)
{
    pf_meta m = { .variant = t->params.variant, .rows = t->params.rows, .cols = t->params.cols,
                  .flags = t->params.flags, .keys = t->keys, .iterations = (uint64_t)iteration_of(t),
                  .exploitability = exploitability,
                  /* sampling meets a state only after all earlier ones of its player: the table is closed */
                  .closed = t->algo == ALGO_MCCFR || t->walk };
    snprintf(m.algo, sizeof m.algo, "%s", algo_name(t));
    return m;
}

/* The current average policy through a scratch policy file and the information-state walk. */
static void walk_evaluate(trainer *t, sv_eval *e)
{
    char path[4200], err[600];
    snprintf(path, sizeof path, "%s.eval", t->out);
    pf_meta m = meta_of(t, NAN);
    double *avg = average(t);
    int rc = tc_walk_evaluate(table_of(t), avg, &m, path, e, err, sizeof err);
    free(avg);
    if (rc != 0)
        tc_die(1, "exact evaluation: %s", err);
}

static bool evaluate(void *ctx)
{
    trainer *t = ctx;
    if (t->walk_eval) {
        walk_evaluate(t, &t->e);
        return true;
    }
    if (!t->have_eval)
        return false;
    double *avg = average(t);
    if (t->eval_is_tree) {
        if (sv_evaluate(&t->eval, avg, &t->e) != 0)
            tc_die(1, "out of memory");
    } else {
        project(table_of(t), avg, &t->eval, t->probs);
        if (sv_evaluate(&t->eval, t->probs, &t->e) != 0)
            tc_die(1, "out of memory");
    }
    free(avg);
    return true;
}

/* The checkpoint's algorithm: the walk's sums weigh each information state once per iteration, the
 * tree's once per history, so their checkpoints do not mix. */
static const char *ckpt_name(const trainer *t)
{
    static char name[16];
    if (!t->walk)
        return algo_name(t);
    if (t->delay)
        snprintf(name, sizeof name, "cfr+walk-d%ld", t->delay);
    else
        snprintf(name, sizeof name, "cfr+walk");
    return name;
}

static void save_checkpoint(const void *ctx, const char *path, double seconds)
{
    const trainer *t = ctx;
    sv_ckpt_meta m = { .variant = (int)t->params.variant, .rows = t->params.rows, .cols = t->params.cols,
                       .flags = t->params.flags, .keys = (int)t->keys, .iteration = iteration_of(t),
                       .rng = t->mc.rng, .seconds = seconds };
    snprintf(m.algo, sizeof m.algo, "%s", ckpt_name(t));
    char err[512];
    if (sv_ckpt_save(path, &m, table_of(t), regret_of(t), sums_of(t), err, sizeof err) != 0)
        tc_die(1, "checkpoint: %s", err);
}

/* MCCFR takes the checkpoint's table as it is. */
static void resume_mccfr(trainer *t, const sv_ckpt_meta *m, sv_tree *tab, float *regret, double *sum)
{
    sv_tree_free(&t->mc.table);
    free(t->mc.regret);
    free(t->mc.strategy_sum);
    tab->view_keys = t->keys == PF_KEYS_VIEW;
    t->mc.table = *tab;
    t->mc.regret = regret;
    t->mc.strategy_sum = sum;
    t->mc.cap = tab->n_actions;
    t->mc.rng = m->rng;
    t->mc.iteration = m->iteration;
    if (sv_mccfr_reserve(&t->mc) != 0)
        tc_die(1, "out of memory");
}

/* The walk's trainer over its table (the current strategies from the regrets). */
static void start_walk(trainer *t)
{
    char err[600];
    iw_cfr_free(t->wc);
    t->wc = iw_cfr_new(t->params.variant, t->params.rows, t->params.cols, &t->wtab, t->wregret, t->wsum,
                       iw_default_threads(), err, sizeof err);
    if (!t->wc)
        tc_die(1, "%s", err);
}

/* CFR+ over the walk takes the checkpoint's table as it is (the same states as its own enumeration). */
static void resume_walk(trainer *t, const sv_ckpt_meta *m, sv_tree *tab, float *regret, double *sum)
{
    sv_tree_free(&t->wtab);
    free(t->wregret);
    free(t->wsum);
    t->wtab = *tab;
    t->wregret = regret;
    t->wsum = sum;
    t->witer = m->iteration;
    start_walk(t);
}

/* Resumes from path if it exists. Returns the training seconds already spent. */
static double resume(void *ctx, const char *path)
{
    trainer *t = ctx;
    sv_ckpt_meta want = { .variant = (int)t->params.variant, .rows = t->params.rows, .cols = t->params.cols,
                          .flags = t->params.flags, .keys = (int)t->keys }, m;
    snprintf(want.algo, sizeof want.algo, "%s", ckpt_name(t));
    sv_tree tab;
    float *regret;
    double *sum;
    char err[4600];
    int rc = sv_ckpt_resume(path, &want, &m, &tab, &regret, &sum, err, sizeof err);
    if (rc > 0)
        return 0;
    if (rc < 0)
        tc_die(2, "%s (use --fresh to start over)", err);
    if (t->algo == ALGO_MCCFR) {
        resume_mccfr(t, &m, &tab, regret, sum);
        return m.seconds;
    }
    if (t->walk) {
        if (tab.n_infosets != t->wtab.n_infosets || tab.n_actions != t->wtab.n_actions)
            tc_die(2, "%s: the checkpoint's %u information states do not match the game's %u", path, tab.n_infosets,
                   t->wtab.n_infosets);
        resume_walk(t, &m, &tab, regret, sum);
        return m.seconds;
    }
    if (sv_ckpt_onto_tree(&tab, regret, sum, &t->tree, t->cfr.regret, t->cfr.strategy_sum) != 0)
        tc_die(2, "%s: the checkpoint's %u information states do not match the game's %u", path, tab.n_infosets,
            t->tree.n_infosets);
    sv_cfr_resume(&t->cfr, m.iteration);
    sv_tree_free(&tab);
    free(regret);
    free(sum);
    return m.seconds;
}

static long count(const void *ctx) { return iteration_of(ctx); }

static void step(void *ctx)
{
    trainer *t = ctx;
    char err[600];
    if (t->walk) {
        long it = t->witer + 1;
        if (iw_cfr_iterate(t->wc, it > t->delay ? (double)(it - t->delay) : 0, err, sizeof err) != 0)
            tc_die(1, "%s", err);
        t->witer++;
    } else if (t->algo != ALGO_MCCFR)
        sv_cfr_iterate(&t->cfr);
    else if (sv_mccfr_iterate(&t->mc) != 0)
        tc_die(1, "out of memory after %u information states", t->mc.table.n_infosets);
}

static void curve_row(const void *ctx, FILE *curve, double seconds)
{
    const trainer *t = ctx;
    const sv_eval *e = &t->e;
    fprintf(curve, "%ld,%.3f,%.9g,%.9g,%.9g,%.9g,%.9g\n", iteration_of(t), seconds, e->exploitability, e->nashconv,
            e->ev0, e->br[0], e->br[1]);
}

static void progress(const void *ctx, bool evaluated)
{
    const trainer *t = ctx;
    fprintf(stderr, "  infosets %u", table_of(t)->n_infosets);
    if (evaluated)
        fprintf(stderr, "  exploitability %.3e", t->e.exploitability);
}

static void print_summary(const trainer *t, double seconds, bool evaluated)
{
    if (t->json) {
        printf("{\"variant\":\"%s\",\"board\":\"%dx%d\",\"algo\":\"%s\",\"keys\":\"%s\",\"iterations\":%ld,"
               "\"seconds\":%.3f,\"infosets\":%u,\"exploitability\":",
               hx_variant_name(t->params.variant), t->params.rows, t->params.cols, algo_name(t),
               t->keys == PF_KEYS_VIEW ? "view" : "perfect", iteration_of(t), seconds, table_of(t)->n_infosets);
        if (evaluated)
            printf("%.9g", t->e.exploitability);
        else
            fputs("null", stdout);
        fputs(",\"out\":", stdout);
        json_string(stdout, t->out);
        puts("}");
        return;
    }
    printf("%s: %dx%d %s, %s, %ld iterations in %.1f s, %u information states", t->out, t->params.rows,
           t->params.cols, hx_variant_name(t->params.variant), algo_name(t), iteration_of(t), seconds,
           table_of(t)->n_infosets);
    if (evaluated)
        printf(", exploitability %.3e", t->e.exploitability);
    putchar('\n');
}

/* The average policy to the policy file, and the summary. */
static void write_policy(void *ctx, const tc_loop_end *end)
{
    const trainer *t = ctx;
    pf_meta m = meta_of(t, end->evaluated ? t->e.exploitability : NAN);
    double *avg = average(t);
    char err[512];
    if (pf_save_tree(table_of(t), avg, &m, t->out, err, sizeof err) != 0)
        tc_die(1, "%s", err);
    free(avg);
    print_summary(t, end->seconds, end->evaluated);
}

static const tc_trainer cfr_trainer = {
    .unit = "iteration", .rate_unit = "it/s",
    .curve_header = "iteration,seconds,exploitability,nashconv,ev_black,br_black,br_white\n",
    .count = count, .resume = resume, .step = step, .evaluate = evaluate, .curve_row = curve_row,
    .progress = progress, .save = save_checkpoint, .write = write_policy,
};

static const struct option options[] = {
    { "variant", required_argument, 0, 'v' },  { "board", required_argument, 0, 'b' },
    { "swap", no_argument, 0, 'S' },           { "algo", required_argument, 0, 'a' },
    { "iterations", required_argument, 0, 'n' }, { "seconds", required_argument, 0, 's' },
    { "out", required_argument, 0, 'o' },      { "keys", required_argument, 0, 'k' },
    { "eval-every", required_argument, 0, 'e' }, { "no-eval", no_argument, 0, 'N' },
    { "curve", required_argument, 0, 'c' },
    { "checkpoint", required_argument, 0, 'C' }, { "checkpoint-every", required_argument, 0, 'E' },
    { "fresh", no_argument, 0, 'F' },          { "max-nodes", required_argument, 0, 'm' },
    { "seed", required_argument, 0, 'r' },     { "quiet", no_argument, 0, 'q' },
    { "json", no_argument, 0, 'j' },           { "help", no_argument, 0, 'h' },
    { "weighting", required_argument, 0, 'w' }, { "baseline", required_argument, 0, 'B' },
    { "baseline-mb", required_argument, 0, 'M' }, { "walk", no_argument, 0, 'W' },
    { "delay", required_argument, 0, 'D' },
    { 0, 0, 0, 0 },
};

/* One option (getopt_long's code c, its value arg). */
static void option(trainer *t, tc_loop_options *o, int c, const char *arg, int argc, char **argv)
{
    switch (c) {
    case 'v': t->params.variant = tc_variant(arg); break;
    case 'b': tc_board(arg, &t->params.rows, &t->params.cols); break;
    case 'S': t->params.flags |= HX_SWAP_RULE; break;
    case 'a':
        t->algo = strcmp(arg, "mccfr") == 0 ? ALGO_MCCFR : sv_algo_parse(arg);
        if (t->algo < 0)
            tc_die(2, "--algo: unknown algorithm '%s' (cfr, cfr+, dcfr or mccfr)", arg);
        break;
    case 'n': o->count = tc_long("iterations", arg, 1); break;
    case 's': o->seconds = tc_real("seconds", arg, 1e-3, 1e9); break;
    case 'o': o->out = t->out = arg; break;
    case 'k':
        if (strcmp(arg, "perfect") && strcmp(arg, "view"))
            tc_die(2, "--keys: expected perfect or view, got '%s'", arg);
        t->keys = strcmp(arg, "view") == 0 ? PF_KEYS_VIEW : PF_KEYS_PERFECT;
        break;
    case 'e': o->eval_every = tc_long("eval-every", arg, 0); break;
    case 'c': o->curve = arg; break;
    case 'C': o->checkpoint = arg; break;
    case 'E': o->checkpoint_every = tc_long("checkpoint-every", arg, 0); break;
    case 'F': o->fresh = true; break;
    case 'm': t->max_nodes = tc_long("max-nodes", arg, 1); break;
    case 'r': t->seed = (uint64_t)tc_long("seed", arg, 0); break;
    case 'q': o->quiet = true; break;
    case 'j': t->json = true; break;
    case 'N': t->no_eval = true; break;
    case 'w':
        if (strcmp(arg, "uniform") && strcmp(arg, "linear"))
            tc_die(2, "--weighting: expected uniform or linear, got '%s'", arg);
        t->linear = strcmp(arg, "linear") == 0;
        break;
    case 'B':
        if (strcmp(arg, "none") && strcmp(arg, "history"))
            tc_die(2, "--baseline: expected none or history, got '%s'", arg);
        t->baseline = strcmp(arg, "history") == 0;
        break;
    case 'M': t->baseline_mb = tc_long("baseline-mb", arg, 1); break;
    case 'W': t->walk_forced = true; break;
    case 'D': t->delay = tc_long("delay", arg, 0); break;
    case 'h': fputs(help, stdout); exit(0);
    default: tc_options_done(c, optind, argc, argv);
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
    tc_required(t->params.variant != HX_VARIANT_COUNT && t->params.rows && t->algo >= 0 && t->out,
                "--variant, --board, --algo and --out");
    if (o->count < 0 && o->seconds < 0)
        tc_die(2, "give --iterations N or --seconds S");
    tc_playable(t->params.variant, t->params.rows, t->params.cols, t->params.flags);
    if (t->max_nodes > UINT32_MAX)
        t->max_nodes = UINT32_MAX;
    if (o->eval_every < 0) {
        o->eval_every = t->algo == ALGO_MCCFR ? 0 : 10;
        t->eval_default = true;
    }
    if (t->linear && t->algo != ALGO_MCCFR)
        tc_die(2, "--weighting linear is for --algo mccfr (cfr+ and dcfr weight their iterations themselves)");
    if (t->baseline && t->algo != ALGO_MCCFR)
        tc_die(2, "--baseline history is for --algo mccfr (the full-pass algorithms sample nothing)");
    if (t->baseline_mb && !t->baseline)
        tc_die(2, "--baseline-mb goes with --baseline history");
    const char *why;
    if (t->walk_forced && (t->algo != SV_CFR_PLUS || t->keys != PF_KEYS_PERFECT))
        tc_die(2, "--walk trains cfr+ with perfect-recall keys");
    if (t->delay > 99999)
        tc_die(2, "--delay: at most 99999");
    if (t->walk_forced && !iw_supported(t->params.variant, t->params.rows, t->params.cols, t->params.flags, &why))
        tc_die(2, "--walk: %s", why);
}

/* CFR+ over the walk: every information state listed once, zero regrets and sums. */
static void build_walk(trainer *t)
{
    sv_tree_free(&t->tree);
    char err[600];
    if (!t->walk_forced)
        fprintf(stderr, "cfr-train: the tree does not fit in %ld nodes: cfr+ over the information-state walk\n",
                t->max_nodes);
    if (iw_enumerate(t->params.variant, t->params.rows, t->params.cols, &t->wtab, err, sizeof err) != 0)
        tc_die(1, "%s", err);
    t->wregret = calloc(t->wtab.n_actions ? t->wtab.n_actions : 1, sizeof *t->wregret);
    t->wsum = calloc(t->wtab.n_actions ? t->wtab.n_actions : 1, sizeof *t->wsum);
    if (!t->wregret || !t->wsum)
        tc_die(1, "out of memory");
    t->walk = true;
    start_walk(t);
}

/* Options that only the walk's cfr+ takes, refused once the training method is known. */
static void check_walk_options(const trainer *t)
{
    if (t->delay && !t->walk)
        tc_die(2, "--delay is for cfr+ over the information-state walk (--walk, or a tree that does not fit)");
}

/* The training tree for the full-pass algorithms (also the evaluation tree with perfect recall), or
 * MCCFR's table. */
static void build(trainer *t)
{
    sv_darkhex_game(&t->game, &t->params);
    if (t->algo == ALGO_MCCFR) {
        if (sv_mccfr_init(&t->mc, &t->game, t->keys == PF_KEYS_VIEW, t->seed) != 0)
            tc_die(1, "out of memory");
        t->mc.linear = t->linear;
        if (t->baseline)
            t->mc.baseline_bits = sv_mccfr_baseline_bits(t->baseline_mb ? t->baseline_mb : 256);
        return;
    }
    const char *why;
    bool walkable = t->algo == SV_CFR_PLUS && t->keys == PF_KEYS_PERFECT &&
                    iw_supported(t->params.variant, t->params.rows, t->params.cols, t->params.flags, &why);
    if (t->walk_forced || (walkable && sv_tree_build(&t->tree, &t->game, (uint32_t)t->max_nodes, false) != 0)) {
        build_walk(t);
        return;
    }
    if (!walkable && sv_tree_build(&t->tree, &t->game, (uint32_t)t->max_nodes, t->keys == PF_KEYS_VIEW) != 0)
        tc_die(1, "the game tree of %dx%d %s does not fit in %ld nodes (try --algo mccfr, --max-nodes, or --algo "
               "cfr+, which then trains over the information-state walk on dark boards up to 16 cells)",
            t->params.rows, t->params.cols, hx_variant_name(t->params.variant), t->max_nodes);
    if (sv_cfr_init(&t->cfr, &t->tree, (sv_algo)t->algo) != 0)
        tc_die(1, "out of memory");
    if (t->keys == PF_KEYS_PERFECT) {
        t->have_eval = t->eval_is_tree = true;
        t->eval = t->tree;
    }
}

/* How exact exploitability is computed: on the training tree, on a perfect-recall tree, by the
 * information-state walk, or not at all (--no-eval, or nothing fits). */
static void choose_evaluation(trainer *t, tc_loop_options *o)
{
    const char *why = NULL;
    if (t->no_eval) {
        t->have_eval = false; /* (an eval tree that is the training tree is still freed once) */
        o->eval_every = 0;
    } else if (!t->have_eval && sv_tree_build(&t->eval, &t->game, (uint32_t)t->max_nodes, false) == 0) {
        t->have_eval = true;
        t->probs = malloc(sizeof *t->probs * (t->eval.n_actions ? t->eval.n_actions : 1));
        if (!t->probs)
            tc_die(1, "out of memory");
    } else if (!t->have_eval && iw_supported(t->params.variant, t->params.rows, t->params.cols, t->params.flags,
                                             &why)) {
        t->walk_eval = true;
        if (!o->quiet)
            fprintf(stderr, "cfr-train: the tree does not fit in %ld nodes: exact exploitability by the "
                            "information-state walk%s\n", t->max_nodes, o->eval_every ? "" : " at the end");
    }
    if (!t->have_eval && !t->walk_eval && !o->quiet && !t->no_eval)
        fprintf(stderr, "cfr-train: the tree does not fit in %ld nodes: no exact exploitability (%s)\n",
                t->max_nodes, why);
    o->eval_off_clock = t->walk_eval; /* minutes of the walk are not training time; the tree's are */
}

static void release(trainer *t)
{
    free(t->probs);
    if (!t->eval_is_tree)
        sv_tree_free(&t->eval);
    sv_cfr_free(&t->cfr);
    sv_tree_free(&t->tree);
    sv_mccfr_free(&t->mc);
    iw_cfr_free(t->wc);
    sv_tree_free(&t->wtab);
    free(t->wregret);
    free(t->wsum);
}

int main(int argc, char **argv)
{
    tc_init("cfr-train");
    trainer t = { .params = { .variant = HX_VARIANT_COUNT }, .algo = -1, .e = { .exploitability = NAN },
                  .max_nodes = 40000000, .seed = 1 };
    tc_loop_options o = { .count = -1, .seconds = -1, .eval_every = -1, .checkpoint_every = 60 };
    parse_options(argc, argv, &t, &o);
    build(&t);
    check_walk_options(&t);
    if (t.walk && t.eval_default)
        o.eval_every = 0; /* an exact evaluation on 3x3 takes minutes: at the end, unless asked */
    choose_evaluation(&t, &o);
    tc_loop_run(&cfr_trainer, &o, &t);
    release(&t);
    return tc_exit_status();
}
