/* agents/rl/rl_train.c — bin/rl-train: tabular Q-learning or SARSA (learn.h) for one variant and board,
 * against a pool of opponents (self-play, the random player, the bridge builder). Progress with episodes per second and ETA
 * on stderr, a CSV learning curve (win rates of the greedy policy against random and the bridge builder
 * with fixed seeds), checkpoints a killed run resumes from, and a policy file (docs/policy-format.md:
 * greedy or softmax) that bin/policy-bot plays. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "checkpoint.h"
#include "learn.h"
#include "loop.h"
#include "policy.h"
#include "trainer_cli.h"
#include "variant.h"
#include "json.h"

static const char help[] =
    "usage: rl-train --variant V --board RxC --algo qlearning|sarsa (--episodes N | --seconds S) --out FILE\n"
    "                [options]\n\n"
    "Learns action values per information state by playing (tabular Q-learning or SARSA) and writes the\n"
    "policy as a policy file (docs/policy-format.md) that bin/policy-bot plays and 'arena exploit' measures.\n\n"
    "  --variant V              hex, classical, abrupt, classical-noisy, classical-flash, abrupt-noisy,\n"
    "                           abrupt-flash (no swap rule)\n"
    "  --board RxC              rows x columns\n"
    "  --algo A                 qlearning (backs up the best next value) or sarsa (the next action taken)\n"
    "  --episodes N             stop after N episodes (in all, counting a resumed checkpoint's)\n"
    "  --seconds S              stop after S seconds of training (in all); with --episodes, whichever first\n"
    "  --out FILE               the policy file to write\n"
    "  --opponent O             the opponent pool: self (both colours learn), random, bridge (the bridge\n"
    "                           builder), or weights NAME:W,... drawn per episode (default\n"
    "                           self:1,random:4,bridge:1); against a fixed opponent the learner alternates\n"
    "                           colours\n"
    "  --symmetry on|off        also learn the 180-degree rotation of every step (default on)\n"
    "  --epsilon-schedule S     exploration: constant:E, linear:E0:E1:N (E0 to E1 over N episodes) or\n"
    "                           exponential:E0:E1:H (half-life H episodes); default linear:1:0.05:N with N\n"
    "                           half of --episodes (100000 without --episodes)\n"
    "  --step count|constant    count (default): max(1/n, alpha) at an action's n-th update (the mean of\n"
    "                           its targets until 1/n reaches alpha); constant: alpha\n"
    "  --alpha A                the step's floor, or the constant step (default 0.01)\n"
    "  --init V                 value of an action never updated (default 0; > 0 is optimistic)\n"
    "  --gamma G                discount (default 1: rewards only at the end)\n"
    "  --keys perfect|view      information-state keys: perfect recall (default) or the view, which merges\n"
    "                           states and so generalises on large boards (also spelled --key)\n"
    "  --memory-mb M            largest table in MiB (default 2048); past it, new states are played\n"
    "                           uniformly and not learned (counted in the summary)\n"
    "  --eval-every K           win rates of the greedy policy every K episodes (default: a twentieth of\n"
    "                           --episodes, else 1000000; 0 = only at the end)\n"
    "  --eval-games G           games per opponent in each evaluation, half as Black (default 400)\n"
    "  --curve FILE             append episode,seconds,epsilon,states,win_random,win_bridge,\n"
    "                           random_black,random_white,bridge_black,bridge_white rows (the last four:\n"
    "                           win rates of the learner's games as that colour)\n"
    "  --softmax T              write a softmax policy of temperature T (default 0: greedy)\n"
    "  --checkpoint FILE        checkpoint file (default OUT.ckpt); an existing one is resumed\n"
    "  --checkpoint-every S     seconds between checkpoints (default 60; 0 = only at the end)\n"
    "  --fresh                  ignore (and replace) an existing checkpoint\n"
    "  --seed S                 random seed (default 1)\n"
    "  --quiet                  no progress lines\n"
    "  --json                   print the summary as one JSON object (keys variant, board, algo, keys,\n"
    "                           opponent, symmetry, episodes, seconds, episodes_per_second, states,\n"
    "                           refused, win_random, win_bridge, random_black, random_white,\n"
    "                           bridge_black, bridge_white, eval_games, out)\n\n"
    "SIGINT or SIGTERM stops after the current episode, writes the checkpoint and the policy.\n"
    "Exit status: 0 done, 1 failed (memory, I/O), 2 bad input, 128+N stopped by signal N.\n";

typedef struct {
    rl_config cfg;          /* as parsed (the learner keeps a copy) */
    const char *schedule;   /* --epsilon-schedule as given, or NULL */
    rl_learner l;
    long eval_games;
    double temperature;     /* of the softmax policy written (0: greedy) */
    const char *out;
    bool json;
    rl_eval ev;             /* the last evaluation */
} trainer;

static const char *algo_name(rl_algo a) { return a == RL_SARSA ? "sarsa" : "qlearning"; }

static void save_checkpoint(const void *ctx, const char *path, double seconds)
{
    const rl_learner *l = &((const trainer *)ctx)->l;
    sv_ckpt_meta m = { .variant = (int)l->cfg.variant, .rows = l->cfg.rows, .cols = l->cfg.cols,
                       .keys = l->cfg.view_keys ? PF_KEYS_VIEW : PF_KEYS_PERFECT,
                       .iteration = (long)l->episode, .rng = l->cfg.seed, .seconds = seconds };
    snprintf(m.algo, sizeof m.algo, "%s", algo_name(l->cfg.algo));
    char err[512];
    if (sv_ckpt_save(path, &m, &l->table, l->q, l->visits, err, sizeof err) != 0)
        tc_die(1, "checkpoint: %s", err);
}

/* Resumes from an existing checkpoint; returns its training seconds (0 when there is none). */
static double resume(void *ctx, const char *path)
{
    rl_learner *l = &((trainer *)ctx)->l;
    sv_ckpt_meta want = { .variant = (int)l->cfg.variant, .rows = l->cfg.rows, .cols = l->cfg.cols,
                          .keys = l->cfg.view_keys ? PF_KEYS_VIEW : PF_KEYS_PERFECT }, m;
    snprintf(want.algo, sizeof want.algo, "%s", algo_name(l->cfg.algo));
    sv_tree tab;
    float *q;
    double *visits;
    char err[4600];
    int rc = sv_ckpt_resume(path, &want, &m, &tab, &q, &visits, err, sizeof err);
    if (rc > 0)
        return 0;
    if (rc < 0)
        tc_die(2, "%s (use --fresh to start over)", err);
    sv_tree_free(&l->table);
    free(l->q);
    free(l->visits);
    tab.view_keys = l->cfg.view_keys;
    l->table = tab;
    l->q = q;
    l->visits = visits;
    l->cap = tab.n_actions;
    l->episode = (uint64_t)m.iteration;
    l->cfg.seed = m.rng;
    return m.seconds;
}

static long count(const void *ctx) { return (long)((const trainer *)ctx)->l.episode; }

static void step(void *ctx)
{
    rl_learner *l = &((trainer *)ctx)->l;
    if (rl_episode(l) < 0)
        tc_die(1, "out of memory after %u information states", l->table.n_infosets);
}

/* The greedy policy's win rates against random and the bridge builder, with fixed seeds. */
static bool evaluate(void *ctx)
{
    trainer *t = ctx;
    rl_evaluate(&t->l, (int)t->eval_games, 1, &t->ev);
    return true;
}

static double epsilon_of(const rl_learner *l) { return rl_epsilon(&l->cfg.epsilon, l->episode); }

static void curve_row(const void *ctx, FILE *curve, double seconds)
{
    const trainer *t = ctx;
    const rl_eval *e = &t->ev;
    fprintf(curve, "%llu,%.3f,%.4f,%u,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f\n", (unsigned long long)t->l.episode, seconds,
            epsilon_of(&t->l), t->l.table.n_infosets, e->vs_random, e->vs_bridge, e->random_as[0], e->random_as[1],
            e->bridge_as[0], e->bridge_as[1]);
}

static void progress(const void *ctx, bool evaluated)
{
    const trainer *t = ctx;
    fprintf(stderr, "  epsilon %.3f  states %u", epsilon_of(&t->l), t->l.table.n_infosets);
    if (evaluated)
        fprintf(stderr, "  wins vs random %.1f%%, vs bridge %.1f%%", 100 * t->ev.vs_random, 100 * t->ev.vs_bridge);
}

static void print_summary(const trainer *t, double seconds, double rate)
{
    const rl_learner *l = &t->l;
    const rl_config *cfg = &l->cfg;
    const rl_eval *e = &t->ev;
    char pool[96];
    rl_pool_format(cfg->pool, pool, sizeof pool);
    if (t->json) {
        printf("{\"variant\":\"%s\",\"board\":\"%dx%d\",\"algo\":\"%s\",\"keys\":\"%s\",\"opponent\":\"%s\","
               "\"symmetry\":%s,\"episodes\":%llu,\"seconds\":%.3f,\"episodes_per_second\":%.1f,\"states\":%u,"
               "\"refused\":%llu,\"win_random\":%.4f,\"win_bridge\":%.4f,\"random_black\":%.4f,"
               "\"random_white\":%.4f,\"bridge_black\":%.4f,\"bridge_white\":%.4f,\"eval_games\":%ld,\"out\":",
               hx_variant_name(cfg->variant), cfg->rows, cfg->cols, algo_name(cfg->algo),
               cfg->view_keys ? "view" : "perfect", pool, cfg->symmetry ? "true" : "false",
               (unsigned long long)l->episode, seconds, rate, l->table.n_infosets, (unsigned long long)l->refused,
               e->vs_random, e->vs_bridge, e->random_as[0], e->random_as[1], e->bridge_as[0], e->bridge_as[1],
               t->eval_games);
        json_string(stdout, t->out);
        puts("}");
        return;
    }
    printf("%s: %dx%d %s, %s against %s%s, %llu episodes in %.1f s (%.0f per second), %u information states, "
           "greedy wins %.1f%% vs random (%.1f%% as Black, %.1f%% as White) and %.1f%% vs bridge (%.1f%%, %.1f%%) "
           "in %ld games each",
           t->out, cfg->rows, cfg->cols, hx_variant_name(cfg->variant), algo_name(cfg->algo), pool,
           cfg->symmetry ? " with symmetry" : "", (unsigned long long)l->episode, seconds, rate, l->table.n_infosets,
           100 * e->vs_random, 100 * e->random_as[0], 100 * e->random_as[1], 100 * e->vs_bridge,
           100 * e->bridge_as[0], 100 * e->bridge_as[1], t->eval_games);
    if (l->refused)
        printf(" (%llu decisions at states past the memory budget)", (unsigned long long)l->refused);
    putchar('\n');
}

/* The greedy (or softmax) policy to the policy file, and the summary. */
static void write_policy(void *ctx, const tc_loop_end *end)
{
    const trainer *t = ctx;
    const rl_learner *l = &t->l;
    pf_meta m = { .variant = l->cfg.variant, .rows = l->cfg.rows, .cols = l->cfg.cols,
                  .keys = l->cfg.view_keys ? PF_KEYS_VIEW : PF_KEYS_PERFECT, .iterations = l->episode,
                  .exploitability = NAN };
    snprintf(m.algo, sizeof m.algo, "%s", algo_name(l->cfg.algo));
    double *probs = malloc(sizeof *probs * (l->table.n_actions ? l->table.n_actions : 1));
    if (!probs)
        tc_die(1, "out of memory");
    rl_policy(l, t->temperature, probs);
    char err[512];
    if (pf_save_tree(&l->table, probs, &m, t->out, err, sizeof err) != 0)
        tc_die(1, "%s", err);
    free(probs);
    print_summary(t, end->seconds, end->rate);
}

static const tc_trainer rl_trainer = {
    .unit = "episode", .rate_unit = "episodes/s",
    .curve_header = "episode,seconds,epsilon,states,win_random,win_bridge,random_black,random_white,bridge_black,"
                    "bridge_white\n",
    .count = count, .resume = resume, .step = step, .evaluate = evaluate, .curve_row = curve_row,
    .progress = progress, .save = save_checkpoint, .write = write_policy,
};

static const struct option options[] = {
    { "variant", required_argument, 0, 'v' }, { "board", required_argument, 0, 'b' },
    { "algo", required_argument, 0, 'a' }, { "episodes", required_argument, 0, 'n' },
    { "seconds", required_argument, 0, 's' }, { "out", required_argument, 0, 'o' },
    { "opponent", required_argument, 0, 'O' }, { "epsilon-schedule", required_argument, 0, 'e' },
    { "alpha", required_argument, 0, 'A' }, { "gamma", required_argument, 0, 'G' },
    { "keys", required_argument, 0, 'k' }, { "key", required_argument, 0, 'k' },
    { "memory-mb", required_argument, 0, 'M' }, { "eval-every", required_argument, 0, 'E' },
    { "eval-games", required_argument, 0, 'g' }, { "curve", required_argument, 0, 'c' },
    { "softmax", required_argument, 0, 'T' }, { "checkpoint", required_argument, 0, 'C' },
    { "checkpoint-every", required_argument, 0, 'K' }, { "fresh", no_argument, 0, 'F' },
    { "symmetry", required_argument, 0, 'S' }, { "step", required_argument, 0, 'P' },
    { "init", required_argument, 0, 'I' }, { "seed", required_argument, 0, 'r' }, { "quiet", no_argument, 0, 'q' }, { "json", no_argument, 0, 'j' },
    { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 },
};

static rl_algo algo_of(const char *arg)
{
    if (strcmp(arg, "qlearning") && strcmp(arg, "sarsa"))
        tc_die(2, "--algo: expected qlearning or sarsa, got '%s'", arg);
    return strcmp(arg, "sarsa") ? RL_QLEARNING : RL_SARSA;
}

/* The value of an option that takes one of two words: 0 for `no`, 1 for `yes`. */
static int word_of(const char *opt, const char *arg, const char *no, const char *yes)
{
    if (strcmp(arg, no) && strcmp(arg, yes))
        tc_die(2, "--%s: expected %s or %s, got '%s'", opt, no, yes, arg);
    return !strcmp(arg, yes);
}

/* One option (getopt_long's code c, its value arg). */
static void option(trainer *t, tc_loop_options *o, int c, const char *arg, int argc, char **argv)
{
    rl_config *cfg = &t->cfg;
    switch (c) {
    case 'v': cfg->variant = tc_variant(arg); break;
    case 'b': tc_board(arg, &cfg->rows, &cfg->cols); break;
    case 'a': cfg->algo = algo_of(arg); break;
    case 'n': o->count = tc_long("episodes", arg, 1); break;
    case 's': o->seconds = tc_real("seconds", arg, 1e-3, 1e9); break;
    case 'o': o->out = t->out = arg; break;
    case 'O': {
        const char *why;
        if (rl_pool_parse(arg, cfg->pool, &why) != 0)
            tc_die(2, "--opponent '%s': %s", arg, why);
        break;
    }
    case 'S': cfg->symmetry = word_of("symmetry", arg, "off", "on"); break;
    case 'P': cfg->step = word_of("step", arg, "constant", "count") ? RL_STEP_COUNT : RL_STEP_CONSTANT; break;
    case 'I': cfg->init = tc_real("init", arg, -1, 1); break;
    case 'e': t->schedule = arg; break;
    case 'A': cfg->alpha = tc_real("alpha", arg, 1e-9, 1); break;
    case 'G': cfg->gamma = tc_real("gamma", arg, 0, 1); break;
    case 'k': cfg->view_keys = word_of("keys", arg, "perfect", "view"); break;
    case 'M': cfg->budget = (size_t)tc_long("memory-mb", arg, 1) << 20; break;
    case 'E': o->eval_every = tc_long("eval-every", arg, 0); break;
    case 'g': t->eval_games = tc_long("eval-games", arg, 2); break;
    case 'c': o->curve = arg; break;
    case 'T': t->temperature = tc_real("softmax", arg, 0, 1e6); break;
    case 'C': o->checkpoint = arg; break;
    case 'K': o->checkpoint_every = tc_long("checkpoint-every", arg, 0); break;
    case 'F': o->fresh = true; break;
    case 'r': cfg->seed = (uint64_t)tc_long("seed", arg, 0); break;
    case 'q': o->quiet = true; break;
    case 'j': t->json = true; break;
    case 'h': fputs(help, stdout); exit(0);
    default: tc_options_done(c, optind, argc, argv);
    }
}

/* The command line into t and o, refused with exit 2 when wrong; the defaults that depend on --episodes. */
static void parse_options(int argc, char **argv, trainer *t, tc_loop_options *o)
{
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", options, NULL)) != -1)
        option(t, o, c, optarg, argc, argv);
    tc_options_done(-1, optind, argc, argv);
    rl_config *cfg = &t->cfg;
    tc_required(cfg->variant != HX_VARIANT_COUNT && cfg->rows && (int)cfg->algo >= 0 && t->out,
                "--variant, --board, --algo and --out");
    if (o->count < 0 && o->seconds < 0)
        tc_die(2, "give --episodes N or --seconds S");
    tc_playable(cfg->variant, cfg->rows, cfg->cols, 0);
    const char *why;
    if (t->schedule) {
        if (rl_schedule_parse(t->schedule, &cfg->epsilon, &why) != 0)
            tc_die(2, "--epsilon-schedule '%s': %s", t->schedule, why);
    } else {
        cfg->epsilon = (rl_schedule){ .kind = RL_LINEAR, .e0 = 1, .e1 = 0.05,
                                      .n = o->count > 0 ? (double)o->count / 2 : 100000 };
    }
    if (o->eval_every < 0)
        o->eval_every = o->count > 0 ? (o->count + 19) / 20 : 1000000;
}

int main(int argc, char **argv)
{
    tc_init("rl-train");
    trainer t = { .cfg = { .variant = HX_VARIANT_COUNT, .algo = (rl_algo)-1, .alpha = 0.01, .gamma = 1,
                           .budget = (size_t)2048 << 20, .seed = 1, .pool = { 1, 4, 1 }, .symmetry = true,
                           .step = RL_STEP_COUNT },
                  .eval_games = 400, .ev = { NAN, NAN, { NAN, NAN }, { NAN, NAN } } };
    tc_loop_options o = { .count = -1, .seconds = -1, .eval_every = -1, .checkpoint_every = 60,
                          .eval_off_clock = true };
    parse_options(argc, argv, &t, &o);
    rl_init(&t.l, &t.cfg);
    tc_loop_run(&rl_trainer, &o, &t);
    rl_free(&t.l);
    return tc_exit_status();
}
