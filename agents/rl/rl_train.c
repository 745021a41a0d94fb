/* agents/rl/rl_train.c — bin/rl-train: tabular Q-learning or SARSA (learn.h) for one variant and board, by
 * self-play or against the random player or the bridge builder. Progress with episodes per second and ETA
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
#include "lcurve.h"
#include "learn.h"
#include "policy.h"
#include "trainer_cli.h"
#include "variant.h"
#include "clock.h"
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
    "  --opponent O             self (default: both colours learn), random, or bridge (the bridge builder);\n"
    "                           against a fixed opponent the learner alternates colours\n"
    "  --epsilon-schedule S     exploration: constant:E, linear:E0:E1:N (E0 to E1 over N episodes) or\n"
    "                           exponential:E0:E1:H (half-life H episodes); default linear:1:0.05:N with N\n"
    "                           half of --episodes (100000 without --episodes)\n"
    "  --alpha A                step size (default 0.1)\n"
    "  --gamma G                discount (default 1: rewards only at the end)\n"
    "  --keys perfect|view      information-state keys: perfect recall (default) or the view, which merges\n"
    "                           states and so generalises on large boards (also spelled --key)\n"
    "  --memory-mb M            largest table in MiB (default 2048); past it, new states are played\n"
    "                           uniformly and not learned (counted in the summary)\n"
    "  --eval-every K           win rates of the greedy policy every K episodes (default: a twentieth of\n"
    "                           --episodes, else 10000; 0 = only at the end)\n"
    "  --eval-games G           games per opponent in each evaluation, half as Black (default 200)\n"
    "  --curve FILE             append episode,seconds,epsilon,states,win_random,win_bridge rows\n"
    "  --softmax T              write a softmax policy of temperature T (default 0: greedy)\n"
    "  --checkpoint FILE        checkpoint file (default OUT.ckpt); an existing one is resumed\n"
    "  --checkpoint-every S     seconds between checkpoints (default 60; 0 = only at the end)\n"
    "  --fresh                  ignore (and replace) an existing checkpoint\n"
    "  --seed S                 random seed (default 1)\n"
    "  --quiet                  no progress lines\n"
    "  --json                   print the summary as one JSON object (keys variant, board, algo, keys,\n"
    "                           opponent, episodes, seconds, episodes_per_second, states, refused,\n"
    "                           win_random, win_bridge, out)\n\n"
    "SIGINT or SIGTERM stops after the current episode, writes the checkpoint and the policy.\n"
    "Exit status: 0 done, 1 failed (memory, I/O), 2 bad input, 128+N stopped by signal N.\n";

static const char *algo_name(rl_algo a) { return a == RL_SARSA ? "sarsa" : "qlearning"; }

static void save_checkpoint(const rl_learner *l, const char *path, double seconds)
{
    sv_ckpt_meta m = { .variant = (int)l->cfg.variant, .rows = l->cfg.rows, .cols = l->cfg.cols,
                       .keys = l->cfg.view_keys ? PF_KEYS_VIEW : PF_KEYS_PERFECT,
                       .iteration = (long)l->episode, .rng = l->cfg.seed, .seconds = seconds };
    snprintf(m.algo, sizeof m.algo, "%s", algo_name(l->cfg.algo));
    char err[512];
    if (sv_ckpt_save(path, &m, &l->table, l->q, l->visits, err, sizeof err) != 0)
        tc_die(1, "checkpoint: %s", err);
}

/* Resumes from an existing checkpoint; returns its training seconds (0 when there is none). */
static double resume(rl_learner *l, const char *path)
{
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

int main(int argc, char **argv)
{
    tc_init("rl-train");
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
        { "seed", required_argument, 0, 'r' }, { "quiet", no_argument, 0, 'q' }, { "json", no_argument, 0, 'j' },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 },
    };
    rl_config cfg = { .variant = HX_VARIANT_COUNT, .algo = (rl_algo)-1, .alpha = 0.1, .gamma = 1,
                      .budget = (size_t)2048 << 20, .seed = 1 };
    long episodes = -1, eval_every = -1, eval_games = 200, ckpt_every = 60;
    double seconds = -1, temperature = 0;
    const char *out = NULL, *curve_path = NULL, *ckpt_path = NULL, *schedule = NULL;
    bool fresh = false, quiet = false, json = false;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", options, NULL)) != -1) {
        switch (c) {
        case 'v': cfg.variant = tc_variant(optarg); break;
        case 'b': tc_board(optarg, &cfg.rows, &cfg.cols); break;
        case 'a':
            if (strcmp(optarg, "qlearning") && strcmp(optarg, "sarsa"))
                tc_die(2, "--algo: expected qlearning or sarsa, got '%s'", optarg);
            cfg.algo = strcmp(optarg, "sarsa") ? RL_QLEARNING : RL_SARSA;
            break;
        case 'n': episodes = tc_long("episodes", optarg, 1); break;
        case 's': seconds = tc_real("seconds", optarg, 1e-3, 1e9); break;
        case 'o': out = optarg; break;
        case 'O':
            if (!strcmp(optarg, "self"))
                cfg.opponent = RL_SELF;
            else if (!strcmp(optarg, "random"))
                cfg.opponent = RL_RANDOM;
            else if (!strcmp(optarg, "bridge"))
                cfg.opponent = RL_BRIDGE;
            else
                tc_die(2, "--opponent: expected self, random or bridge, got '%s'", optarg);
            break;
        case 'e': schedule = optarg; break;
        case 'A': cfg.alpha = tc_real("alpha", optarg, 1e-9, 1); break;
        case 'G': cfg.gamma = tc_real("gamma", optarg, 0, 1); break;
        case 'k':
            if (strcmp(optarg, "perfect") && strcmp(optarg, "view"))
                tc_die(2, "--keys: expected perfect or view, got '%s'", optarg);
            cfg.view_keys = !strcmp(optarg, "view");
            break;
        case 'M': cfg.budget = (size_t)tc_long("memory-mb", optarg, 1) << 20; break;
        case 'E': eval_every = tc_long("eval-every", optarg, 0); break;
        case 'g': eval_games = tc_long("eval-games", optarg, 2); break;
        case 'c': curve_path = optarg; break;
        case 'T': temperature = tc_real("softmax", optarg, 0, 1e6); break;
        case 'C': ckpt_path = optarg; break;
        case 'K': ckpt_every = tc_long("checkpoint-every", optarg, 0); break;
        case 'F': fresh = true; break;
        case 'r': cfg.seed = (uint64_t)tc_long("seed", optarg, 0); break;
        case 'q': quiet = true; break;
        case 'j': json = true; break;
        case 'h': fputs(help, stdout); return 0;
        default: tc_options_done(c, optind, argc, argv);
        }
    }
    tc_options_done(-1, optind, argc, argv);
    tc_required(cfg.variant != HX_VARIANT_COUNT && cfg.rows && (int)cfg.algo >= 0 && out,
                "--variant, --board, --algo and --out");
    if (episodes < 0 && seconds < 0)
        tc_die(2, "give --episodes N or --seconds S");
    tc_playable(cfg.variant, cfg.rows, cfg.cols, 0);
    const char *why;
    if (schedule) {
        if (rl_schedule_parse(schedule, &cfg.epsilon, &why) != 0)
            tc_die(2, "--epsilon-schedule '%s': %s", schedule, why);
    } else {
        cfg.epsilon = (rl_schedule){ .kind = RL_LINEAR, .e0 = 1, .e1 = 0.05,
                                     .n = episodes > 0 ? (double)episodes / 2 : 100000 };
    }
    if (eval_every < 0)
        eval_every = episodes > 0 ? (episodes + 19) / 20 : 10000;
    char ckpt_default[4096];
    ckpt_path = tc_checkpoint_path(ckpt_path, out, ckpt_default, sizeof ckpt_default);

    rl_learner l;
    rl_init(&l, &cfg);
    double spent = fresh ? 0 : resume(&l, ckpt_path);
    static const char header[] = "episode,seconds,epsilon,states,win_random,win_bridge\n";
    FILE *curve = curve_path ? tc_curve(curve_path, (long)l.episode, header) : NULL;
    tc_catch_stop();

    tc_run run;
    tc_run_start(&run, "episode", "episodes/s", (double)l.episode, spent, (double)episodes, seconds, quiet);
    if (!quiet && l.episode)
        fprintf(stderr, "rl-train: resumed from %s at episode %llu (%.1f s)\n", ckpt_path,
                (unsigned long long)l.episode, spent);
    rl_eval ev = { NAN, NAN };
    uint64_t ev_at = UINT64_MAX;
    while (tc_run_more(&run, (double)l.episode)) {
        if (rl_episode(&l) < 0)
            tc_die(1, "out of memory after %u information states", l.table.n_infosets);
        bool eval_now = eval_every > 0 && l.episode % (uint64_t)eval_every == 0;
        if (eval_now) {
            double te = clk_now();
            rl_evaluate(&l, (int)eval_games, 1, &ev);
            ev_at = l.episode;
            tc_run_exclude(&run, te); /* evaluation is not training time */
            if (curve) {
                fprintf(curve, "%llu,%.3f,%.4f,%u,%.4f,%.4f\n", (unsigned long long)l.episode, tc_run_seconds(&run),
                        rl_epsilon(&cfg.epsilon, l.episode), l.table.n_infosets, ev.vs_random, ev.vs_bridge);
                fflush(curve);
            }
        }
        if (tc_run_progress(&run, (double)l.episode, eval_now)) {
            fprintf(stderr, "  epsilon %.3f  states %u", rl_epsilon(&cfg.epsilon, l.episode), l.table.n_infosets);
            if (eval_now)
                fprintf(stderr, "  wins vs random %.1f%%, vs bridge %.1f%%", 100 * ev.vs_random, 100 * ev.vs_bridge);
            fputc('\n', stderr);
        }
        if (tc_run_checkpoint_due(&run, ckpt_every)) {
            save_checkpoint(&l, ckpt_path, tc_run_seconds(&run));
            tc_run_checkpointed(&run);
        }
    }
    double total = tc_run_seconds(&run);
    save_checkpoint(&l, ckpt_path, total);
    if (ev_at != l.episode) {
        rl_evaluate(&l, (int)eval_games, 1, &ev);
        if (curve)
            fprintf(curve, "%llu,%.3f,%.4f,%u,%.4f,%.4f\n", (unsigned long long)l.episode, total,
                    rl_epsilon(&cfg.epsilon, l.episode), l.table.n_infosets, ev.vs_random, ev.vs_bridge);
    }
    if (curve)
        fclose(curve);

    pf_meta m = { .variant = cfg.variant, .rows = cfg.rows, .cols = cfg.cols,
                  .keys = cfg.view_keys ? PF_KEYS_VIEW : PF_KEYS_PERFECT, .iterations = l.episode,
                  .exploitability = NAN };
    snprintf(m.algo, sizeof m.algo, "%s", algo_name(cfg.algo));
    double *probs = malloc(sizeof *probs * (l.table.n_actions ? l.table.n_actions : 1));
    if (!probs)
        tc_die(1, "out of memory");
    rl_policy(&l, temperature, probs);
    char err[512];
    if (pf_save_tree(&l.table, probs, &m, out, err, sizeof err) != 0)
        tc_die(1, "%s", err);
    free(probs);
    double rate = ((double)l.episode - run.start) / (total - spent > 0 ? total - spent : 1e-9);
    static const char *opp_names[] = { "self", "random", "bridge" };
    if (json) {
        printf("{\"variant\":\"%s\",\"board\":\"%dx%d\",\"algo\":\"%s\",\"keys\":\"%s\",\"opponent\":\"%s\","
               "\"episodes\":%llu,\"seconds\":%.3f,\"episodes_per_second\":%.1f,\"states\":%u,\"refused\":%llu,"
               "\"win_random\":%.4f,\"win_bridge\":%.4f,\"out\":",
               hx_variant_name(cfg.variant), cfg.rows, cfg.cols, algo_name(cfg.algo),
               cfg.view_keys ? "view" : "perfect", opp_names[cfg.opponent], (unsigned long long)l.episode, total,
               rate, l.table.n_infosets, (unsigned long long)l.refused, ev.vs_random, ev.vs_bridge);
        json_string(stdout, out);
        puts("}");
    } else {
        printf("%s: %dx%d %s, %s against %s, %llu episodes in %.1f s (%.0f per second), %u information states, "
               "greedy wins %.1f%% vs random and %.1f%% vs bridge",
               out, cfg.rows, cfg.cols, hx_variant_name(cfg.variant), algo_name(cfg.algo), opp_names[cfg.opponent],
               (unsigned long long)l.episode, total, rate, l.table.n_infosets, 100 * ev.vs_random,
               100 * ev.vs_bridge);
        if (l.refused)
            printf(" (%llu decisions at states past the memory budget)", (unsigned long long)l.refused);
        putchar('\n');
    }
    rl_free(&l);
    return tc_stopped() ? 128 + tc_stopped() : 0;
}
