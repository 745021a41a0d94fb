/* tests/e2e/test_trainer.c — the CFR programs end to end: cfr-train resumes a checkpoint to the same bytes as
 * an uninterrupted run (plain and linear-weighted MCCFR too) and keeps a clean curve, survives SIGKILL, refuses bad input (exit 2) and trees
 * that do not fit (exit 1); `arena exploit` agrees with the trainer, reads two files, and refuses corrupt
 * ones; policy-bot plays a solved policy in `arena match` and wins every game it must win. rcfr-train
 * resumes its checkpoint to the same bytes as an uninterrupted run, keeps its curve, and its policy file
 * measures in `arena exploit` as the trainer reported. MCCFR's files are closed (a state after a missing
 * one is played uniformly): policy-bot, the walk and the tree's evaluation follow that rule alike. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cfr.h"
#include "checkpoint.h"
#include "policy.h"
#include "test_sys.h"
#include "test_util.h"

E2E_FIXTURE(tmp, "dh-trainer")

static void resume_gives_the_same_policy(void **state)
{
    (void)state;
    const char *game = "--variant abrupt --board 3x2 --algo cfr+ --quiet --eval-every 20";
    assert_int_equal(sh_run("%s/cfr-train %s --iterations 60 --out %s/a.pol --curve %s/a.csv >/dev/null", bin, game, tmp, tmp), 0);
    /* A row past the checkpoint, as a killed run may leave: dropped on resume. */
    assert_int_equal(sh_run("echo '80,9,9,9,9,9,9' >> %s/a.csv", tmp), 0);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s/cfr-train %s --iterations 120 --out %s/a.pol --curve %s/a.csv 2>&1", bin, game, tmp,
             tmp);
    free(sh_output(cmd));
    assert_int_equal(sh_run("%s/cfr-train %s --iterations 120 --out %s/b.pol >/dev/null", bin, game, tmp), 0);
    assert_int_equal(sh_run("cmp -s %s/a.pol %s/b.pol", tmp, tmp), 0);
    snprintf(cmd, sizeof cmd, "cut -d, -f1 %s/a.csv | tr '\\n' ' '", tmp);
    char *its = sh_output(cmd);
    assert_string_equal(its, "iteration 20 40 60 80 100 120 ");
    free(its);
    /* More iterations of the same run continue it; --fresh starts over. */
    assert_int_equal(sh_run("%s/cfr-train %s --iterations 120 --out %s/a.pol --fresh >/dev/null", bin, game, tmp), 0);
    assert_int_equal(sh_run("cmp -s %s/a.pol %s/b.pol", tmp, tmp), 0);
}

/* Linear-weighted MCCFR's schedule depends on the iteration count alone: a run resumed from its checkpoint
 * (across schedule points) writes the same bytes as one uninterrupted run; a checkpoint of plain MCCFR is
 * refused for it. */
static void linear_mccfr_resumes_to_the_same_policy(void **state)
{
    (void)state;
    const char *game = "--variant classical --board 2x3 --algo mccfr --weighting linear --no-eval --quiet";
    assert_int_equal(sh_run("%s/cfr-train %s --iterations 777 --out %s/l.pol >/dev/null", bin, game, tmp), 0);
    assert_int_equal(sh_run("%s/cfr-train %s --iterations 2000 --out %s/l.pol >/dev/null", bin, game, tmp), 0);
    assert_int_equal(sh_run("%s/cfr-train %s --iterations 2000 --out %s/m.pol --checkpoint-every 0 >/dev/null", bin,
                            game, tmp), 0);
    assert_int_equal(sh_run("cmp -s %s/l.pol %s/m.pol", tmp, tmp), 0);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s/arena exploit --json %s/l.pol", bin, tmp);
    char *json = sh_output(cmd);
    assert_non_null(strstr(json, "\"exploitability\":"));
    free(json);
    snprintf(cmd, sizeof cmd, "head -c 40 %s/l.pol | tail -c 16", tmp);
    char *algo = sh_output(cmd);
    assert_non_null(strstr(algo, "mccfr-linear"));
    free(algo);
    /* the plain run's checkpoint is another algorithm's: refused with exit 2, naming both */
    assert_int_equal(sh_run("%s/cfr-train --variant classical --board 2x3 --algo mccfr --no-eval --quiet "
                            "--iterations 100 --out %s/u.pol >/dev/null", bin, tmp), 0);
    snprintf(cmd, sizeof cmd, "%s/cfr-train %s --iterations 200 --out %s/u.pol 2>&1; echo \"exit $?\"", bin, game, tmp);
    char *out = sh_output(cmd);
    print_message("%s", out);
    assert_non_null(strstr(out, "exit 2"));
    assert_non_null(strstr(out, "mccfr"));
    free(out);
    assert_int_equal(sh_run("%s/cfr-train --variant classical --board 2x3 --algo cfr+ --weighting linear "
                            "--iterations 5 --out %s/c.pol >/dev/null 2>&1; test $? -eq 2", bin, tmp), 0);
}

/* --baseline history: the policy's algorithm says so, a checkpoint resumes (the cache starts empty, so
 * only the iteration count is compared), the exploitability is computed, and misuse exits 2. */
static void mccfr_baseline_option(void **state)
{
    (void)state;
    const char *game = "--variant abrupt --board 2x3 --algo mccfr --baseline history --baseline-mb 1 --quiet";
    assert_int_equal(sh_run("%s/cfr-train %s --iterations 300 --out %s/vr.pol >/dev/null", bin, game, tmp), 0);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s/cfr-train %s --iterations 3000 --out %s/vr.pol --json", bin, game, tmp);
    char *json = sh_output(cmd);
    print_message("%s", json);
    assert_non_null(strstr(json, "\"algo\":\"mccfr-vr\""));
    assert_non_null(strstr(json, "\"iterations\":3000"));
    const char *x = strstr(json, "\"exploitability\":");
    assert_non_null(x);
    double e = strtod(x + strlen("\"exploitability\":"), NULL);
    assert_true(e > 0 && e < 0.2); /* uniform play: 0.55 */
    free(json);
    snprintf(cmd, sizeof cmd, "head -c 40 %s/vr.pol | tail -c 16", tmp);
    char *algo = sh_output(cmd);
    assert_non_null(strstr(algo, "mccfr-vr"));
    free(algo);
    snprintf(cmd, sizeof cmd, "%s/cfr-train %s --weighting linear --iterations 50 --fresh --out %s/vl.pol --json", bin,
             game, tmp);
    json = sh_output(cmd);
    assert_non_null(strstr(json, "\"algo\":\"mccfr-linear-vr\""));
    free(json);
    static const char *bad[] = { "--algo cfr+ --baseline history", "--algo mccfr --baseline hist",
                                 "--algo mccfr --baseline-mb 64", "--algo mccfr --baseline history --baseline-mb 0" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(sh_run("%s/cfr-train --variant abrupt --board 2x3 %s --iterations 5 --out %s/b.pol "
                                ">/dev/null 2>&1; test $? -eq 2", bin, bad[i], tmp), 0);
}

static void rcfr_train_resumes_to_the_same_policy(void **state)
{
    (void)state;
    const char *game = "--variant abrupt --board 2x3 --algo frcfr --link poly --p 1.5 --features coarse --quiet "
                       "--eval-every 10";
    assert_int_equal(sh_run("%s/rcfr-train %s --iterations 20 --out %s/rc.pol --curve %s/rc.csv >/dev/null", bin, game,
                            tmp, tmp), 0);
    assert_int_equal(sh_run("%s/rcfr-train %s --iterations 40 --out %s/rc.pol --curve %s/rc.csv >/dev/null", bin, game,
                            tmp, tmp), 0);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s/rcfr-train %s --iterations 40 --out %s/rs.pol --json", bin, game, tmp);
    char *json = sh_output(cmd);
    assert_non_null(strstr(json, "\"algo\":\"frcfr-poly1.5\""));
    assert_non_null(strstr(json, "\"features\":\"coarse\""));
    assert_non_null(strstr(json, "\"iterations\":40"));
    const char *x = strstr(json, "\"exploitability\":");
    assert_non_null(x);
    double trained = strtod(x + strlen("\"exploitability\":"), NULL);
    free(json);
    assert_int_equal(sh_run("cmp -s %s/rc.pol %s/rs.pol", tmp, tmp), 0);
    snprintf(cmd, sizeof cmd, "cut -d, -f1 %s/rc.csv | tr '\\n' ' '", tmp);
    char *its = sh_output(cmd);
    assert_string_equal(its, "iteration 10 20 30 40 ");
    free(its);
    snprintf(cmd, sizeof cmd, "head -1 %s/rc.csv", tmp);
    char *header = sh_output(cmd);
    assert_non_null(strstr(header, "walk_seconds,fit_seconds"));
    free(header);
    snprintf(cmd, sizeof cmd, "%s/arena exploit --json %s/rs.pol", bin, tmp);
    json = sh_output(cmd);
    x = strstr(json, "\"exploitability\":");
    assert_non_null(x);
    double measured = strtod(x + strlen("\"exploitability\":"), NULL);
    free(json);
    print_message("rcfr-train: exploitability %.6g, arena exploit %.6g\n", trained, measured);
    assert_true(trained > 0 && fabs(trained - measured) < 1e-6);
}

static void killed_run_resumes(void **state)
{
    (void)state;
    char out[256];
    snprintf(out, sizeof out, "%s/k.pol", tmp);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char exe[600];
        snprintf(exe, sizeof exe, "%s/cfr-train", bin);
        if (!freopen("/dev/null", "w", stderr))
            _exit(126);
        execl(exe, exe, "--variant", "classical", "--board", "3x2", "--algo", "dcfr", "--seconds", "60",
              "--checkpoint-every", "1", "--eval-every", "0", "--quiet", "--out", out, (char *)NULL);
        _exit(127);
    }
    char ckpt[300];
    snprintf(ckpt, sizeof ckpt, "%s.ckpt", out);
    for (int i = 0; i < 200 && access(ckpt, F_OK) != 0; i++)
        usleep(50000);
    assert_int_equal(access(ckpt, F_OK), 0);
    usleep(300000);
    kill(pid, SIGKILL);
    int st;
    waitpid(pid, &st, 0);
    assert_true(WIFSIGNALED(st));
    assert_int_equal(access(out, F_OK), -1); /* the policy comes at the end */
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s/cfr-train --variant classical --board 3x2 --algo dcfr --iterations 1 --out %s 2>&1",
             bin, out);
    char *log = sh_output(cmd);
    long at = 0;
    const char *p = strstr(log, "at iteration ");
    assert_non_null(p);
    at = strtol(p + 13, NULL, 10);
    print_message("killed after %ld checkpointed iterations; resumed: %s", at, log);
    assert_true(at >= 1);
    free(log);
    snprintf(cmd, sizeof cmd, "%s/arena exploit --json %s", bin, out);
    char *json = sh_output(cmd);
    assert_true(json_number(json, "exploitability") < 0.1);
    free(json);
    /* The curve and the policy are the only files left besides the checkpoint: no temporaries. */
    snprintf(cmd, sizeof cmd, "ls %s | grep -c tmp || true", tmp);
    char *n = sh_output(cmd);
    assert_string_equal(n, "0\n");
    free(n);
}

static void bad_input_is_refused(void **state)
{
    (void)state;
    assert_int_equal(sh_run("%s/cfr-train --variant dark --board 2x2 --algo cfr --iterations 1 --out %s/x.pol 2>/dev/null",
                         bin, tmp), 2);
    assert_int_equal(sh_run("%s/cfr-train --variant classical --board 2x2 --algo cfr++ --iterations 1 --out %s/x.pol "
                         "2>/dev/null", bin, tmp), 2);
    assert_int_equal(sh_run("%s/cfr-train --variant classical --board 2x2 --algo cfr --out %s/x.pol 2>/dev/null", bin, tmp), 2);
    /* a tree too large for --max-nodes: vanilla CFR stops (cfr+ would train over the walk) */
    assert_int_equal(sh_run("%s/cfr-train --variant classical --board 3x3 --algo cfr --iterations 1 --max-nodes 1000 "
                         "--out %s/x.pol 2>/dev/null", bin, tmp), 1);
    assert_int_equal(access("x.pol", F_OK), -1);
    /* The bots' shared --seed parsing (bot_seed_option) refuses a bad value with status 2. */
    assert_int_equal(sh_run("%s/policy-bot --seed x --policy %s/x.pol 2>/dev/null", bin, tmp), 2);
    assert_int_equal(sh_run("%s/random --seed -3 2>/dev/null", bin), 2);
    assert_int_equal(sh_run("%s/bridge --seed 2>/dev/null", bin), 2);
    /* A checkpoint of another algorithm, and a damaged one. */
    assert_int_equal(sh_run("%s/cfr-train --variant classical --board 2x2 --algo cfr --iterations 5 --quiet "
                         "--out %s/y.pol >/dev/null", bin, tmp), 0);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s/cfr-train --variant classical --board 2x2 --algo dcfr --iterations 5 --out %s/y.pol "
             "2>&1 >/dev/null; echo status $?", bin, tmp);
    char *o = sh_output(cmd);
    assert_non_null(strstr(o, "algo cfr"));
    assert_non_null(strstr(o, "status 2"));
    free(o);
    assert_int_equal(sh_run("printf garbage > %s/y.pol.ckpt", tmp), 0);
    snprintf(cmd, sizeof cmd, "%s/cfr-train --variant classical --board 2x2 --algo cfr --iterations 5 --out %s/y.pol "
             "2>&1 >/dev/null; echo status $?", bin, tmp);
    o = sh_output(cmd);
    assert_non_null(strstr(o, "not a checkpoint"));
    assert_non_null(strstr(o, "status 2"));
    free(o);
}

static void exploit_agrees_with_the_trainer(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s/cfr-train --variant classical --board 2x3 --algo cfr+ --iterations 300 --quiet --json "
             "--out %s/e.pol", bin, tmp);
    char *train = sh_output(cmd);
    snprintf(cmd, sizeof cmd, "%s/arena exploit --json %s/e.pol", bin, tmp);
    char *one = sh_output(cmd);
    snprintf(cmd, sizeof cmd, "%s/arena exploit --json %s/e.pol %s/e.pol", bin, tmp, tmp);
    char *two = sh_output(cmd);
    double xt = json_number(train, "exploitability"), x1 = json_number(one, "exploitability");
    print_message("2x3 classical CFR+ 300: trainer %.3e, arena exploit %.3e\n", xt, x1);
    assert_true(xt < 1e-3);
    assert_true(x1 < xt + 1e-5 && x1 > xt - 1e-5);
    assert_true(json_number(two, "exploitability") == x1);
    double nc = json_number(one, "nashconv");
    assert_true(nc - (json_number(one, "br_black") + json_number(one, "br_white")) < 1e-9);
    assert_true(json_number(one, "missing_black") == 0 && json_number(one, "missing_white") == 0);
    assert_non_null(strstr(one, "\"method\":\"walk\""));
    /* The information-state walk (the default here) and the whole tree agree. */
    snprintf(cmd, sizeof cmd, "%s/arena exploit --json --method tree --quiet %s/e.pol", bin, tmp);
    char *tree = sh_output(cmd);
    assert_non_null(strstr(tree, "\"method\":\"tree\""));
    static const char *keys[] = { "ev_black", "br_black", "br_white", "exploitability" };
    for (int i = 0; i < 4; i++)
        assert_true(fabs(json_number(tree, keys[i]) - json_number(one, keys[i])) < 1e-9);
    assert_true(json_number(tree, "infosets_black") >= json_number(one, "infosets_black"));
    free(tree);
    free(train);
    free(one);
    free(two);
    /* arena tree --infosets-only walks abrupt the same way, and counts what the history walk counts. */
    snprintf(cmd, sizeof cmd, "%s/arena tree --variant abrupt --board 3x2 --infosets-only --json", bin);
    char *fast = sh_output(cmd);
    snprintf(cmd, sizeof cmd, "%s/arena tree --variant abrupt --board 3x2 --json", bin);
    char *slow = sh_output(cmd);
    assert_true(json_number(fast, "infosets_black") == json_number(slow, "infosets_black"));
    assert_true(json_number(fast, "infosets_white") == json_number(slow, "infosets_white"));
    assert_true(json_number(fast, "infosets_white") > 1000);
    free(fast);
    free(slow);
    /* The uniform policy is far from equilibrium; exploitability is NashConv / 2. */
    snprintf(cmd, sizeof cmd, "%s/arena exploit --uniform --variant classical --board 2x3 --json", bin);
    char *u = sh_output(cmd);
    assert_true(json_number(u, "exploitability") > 0.1);
    assert_true(json_number(u, "exploitability") == json_number(u, "nashconv") / 2);
    free(u);
    /* Corrupt or mismatched files: status 2. */
    assert_int_equal(sh_run("head -c 500 %s/e.pol > %s/cut.pol", tmp, tmp), 0);
    assert_int_equal(sh_run("%s/arena exploit %s/cut.pol 2>/dev/null", bin, tmp), 2);
    assert_int_equal(sh_run("%s/arena exploit %s/e.pol %s/y.pol 2>/dev/null", bin, tmp, tmp), 2);
    assert_int_equal(sh_run("%s/arena exploit %s/e.pol --variant hex 2>/dev/null", bin, tmp), 2);
    assert_int_equal(sh_run("%s/arena exploit --uniform --variant hex --board 2x2 --method walk 2>/dev/null", bin), 2);
    assert_int_equal(sh_run("%s/arena exploit %s/e.pol --threads 0 2>/dev/null", bin, tmp), 2);
    assert_int_equal(sh_run("%s/arena exploit %s/e.pol --method fast 2>/dev/null", bin, tmp), 2);
}

static void trainer_evaluates_by_the_walk_when_the_tree_does_not_fit(void **state)
{
    (void)state;
    char cmd[1024];
    const char *base = "--variant abrupt --board 2x3 --algo mccfr --iterations 2000 --eval-every 1000 --quiet --json";
    snprintf(cmd, sizeof cmd, "%s/cfr-train %s --out %s/t.pol --curve %s/t.csv", bin, base, tmp, tmp);
    char *tree = sh_output(cmd);
    snprintf(cmd, sizeof cmd, "%s/cfr-train %s --max-nodes 1000 --out %s/w.pol --curve %s/w.csv", bin, base, tmp, tmp);
    char *walk = sh_output(cmd);
    double xt = json_number(tree, "exploitability"), xw = json_number(walk, "exploitability");
    print_message("2x3 abrupt MCCFR 2000: exploitability %.9f on the tree, %.9f by the walk\n", xt, xw);
    assert_true(xt > 1e-3 && fabs(xt - xw) < 1e-6);
    /* both curves have the rows of iterations 1000 and 2000 */
    assert_int_equal(sh_run("test $(grep -c '^[12]000,' %s/w.csv) -eq 2", tmp), 0);
    assert_int_equal(sh_run("test ! -e %s/w.pol.eval", tmp), 0); /* the scratch file is gone */
    snprintf(cmd, sizeof cmd, "%s/cfr-train %s --no-eval --out %s/n.pol", bin, base, tmp);
    char *none = sh_output(cmd);
    assert_non_null(strstr(none, "\"exploitability\":null"));
    free(tree);
    free(walk);
    free(none);
}

static void policy_bot_plays_a_solved_policy(void **state)
{
    (void)state;
    /* 2x2 classical is a sure win for Black: the solved policy wins every game it plays as Black. */
    assert_int_equal(sh_run("%s/cfr-train --variant classical --board 2x2 --algo cfr+ --iterations 500 --quiet "
                         "--out %s/s.pol >/dev/null", bin, tmp), 0);
    char policy[128];
    snprintf(policy, sizeof policy, "%s/s.pol", tmp);
    assert_int_equal(policy_bot_black_wins_2x2(bin, tmp, policy), 20);
    /* a directory of policies named on its command line is shown to it in its sandbox too */
    char dir[160], args[200];
    snprintf(dir, sizeof dir, "%s/pols", tmp);
    assert_int_equal(sh_run("mkdir -p %s && cp %s %s/", dir, policy, dir), 0);
    snprintf(args, sizeof args, "--policy-dir %s", dir);
    assert_int_equal(policy_bot_args_black_wins_2x2(bin, tmp, args), 20);
    /* It never needed the uniform fallback; a bad policy file stops it with status 2. */
    assert_int_equal(sh_run("grep -l 'fell back' %s/logs/* 2>/dev/null", tmp), 1);
    assert_int_equal(sh_run("%s/policy-bot --policy %s/cut.pol 2>/dev/null", bin, tmp), 2);
}

/* Copies `src` without Black's first state, closed or not. */
static void without_black_root(const char *src, const char *dst, bool closed)
{
    pf_policy p;
    char err[600];
    if (pf_load(&p, src, err, sizeof err) != 0)
        fail_msg("%s", err);
    pf_meta m = p.meta;
    m.closed = closed;
    pf_writer *w = pf_writer_new(&m);
    assert_non_null(w);
    uint64_t root = hx_key_finish(HX_KEY_SEED);
    for (uint32_t i = 0; i < p.n_entries; i++) {
        const pf_entry *e = &p.entries[i];
        if (e->player == 0 && e->key == root)
            continue;
        double probs[HX_MAX_CELLS + 1];
        for (int a = 0; a < e->n; a++)
            probs[a] = p.probs[e->offset + a];
        assert_int_equal(pf_writer_add(w, e->player, e->key, e->n, p.cells + e->offset, probs), 0);
    }
    assert_int_equal(pf_writer_save(w, dst, err, sizeof err), 0);
    pf_writer_free(w);
    pf_close(&p);
}

/* Games in which policy-bot's log says every one of its (more than one) moves fell back to uniform. */
static long games_all_uniform(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "cat %s/logs/* | grep -o 'game [0-9]*: [0-9]* of [0-9]* moves' | "
             "awk '$3 == $5 && $5 > 1 { n++ } END { print n + 0 }'", tmp);
    char *out = sh_output(cmd);
    long n = strtol(out, NULL, 10);
    free(out);
    return n;
}

static void closed_files_play_uniformly_after_a_missing_state(void **state)
{
    (void)state;
    char cmd[1024], path[160], err[600];
    /* MCCFR writes closed files; full-tree CFR+ does not say so. */
    assert_int_equal(sh_run("%s/cfr-train --variant classical --board 2x2 --algo mccfr --iterations 50 --quiet "
                            "--out %s/mc.pol >/dev/null", bin, tmp), 0);
    assert_int_equal(sh_run("%s/cfr-train --variant classical --board 2x2 --algo cfr+ --iterations 500 --quiet "
                            "--out %s/full.pol >/dev/null", bin, tmp), 0);
    pf_policy p;
    snprintf(path, sizeof path, "%s/mc.pol", tmp);
    assert_int_equal(pf_load(&p, path, err, sizeof err), 0);
    assert_true(p.meta.closed);
    pf_close(&p);
    snprintf(path, sizeof path, "%s/full.pol", tmp);
    assert_int_equal(pf_load(&p, path, err, sizeof err), 0);
    assert_false(p.meta.closed);
    pf_close(&p);
    snprintf(cmd, sizeof cmd, "%s/arena exploit %s/mc.pol --quiet", bin, tmp);
    char *text = sh_output(cmd);
    assert_non_null(strstr(text, "(closed)"));
    free(text);

    /* The solved policy without Black's first state: open, Black's later states are played from the
     * file; closed, every move of Black's is uniform. */
    char open_pol[160], closed_pol[160];
    snprintf(open_pol, sizeof open_pol, "%s/open.pol", tmp);
    snprintf(closed_pol, sizeof closed_pol, "%s/closed.pol", tmp);
    without_black_root(path, open_pol, false);
    without_black_root(path, closed_pol, true);
    assert_int_equal(sh_run("rm -rf %s/logs", tmp), 0);
    long wins_open = policy_bot_black_wins_2x2(bin, tmp, open_pol);
    assert_int_equal(games_all_uniform(), 0);
    assert_int_equal(sh_run("rm -rf %s/logs", tmp), 0);
    long wins_closed = policy_bot_black_wins_2x2(bin, tmp, closed_pol);
    long uniform = games_all_uniform();
    print_message("2x2 classical without Black's first state: %ld/20 wins open, %ld/20 closed (%ld games all "
                  "uniform)\n", wins_open, wins_closed, uniform);
    assert_int_equal(uniform, 20); /* all 20 of its games as Black; as White nothing is missing */

    /* arena exploit: the walk and the tree agree on each, and the two differ. */
    static const char *keys[] = { "ev_black", "br_black", "br_white", "exploitability" };
    double x[2];
    for (int closed = 0; closed < 2; closed++) {
        const char *f = closed ? closed_pol : open_pol;
        snprintf(cmd, sizeof cmd, "%s/arena exploit --json --quiet %s", bin, f);
        char *w = sh_output(cmd);
        snprintf(cmd, sizeof cmd, "%s/arena exploit --json --quiet --method tree %s", bin, f);
        char *t = sh_output(cmd);
        for (int i = 0; i < 4; i++)
            assert_true(fabs(json_number(w, keys[i]) - json_number(t, keys[i])) < 1e-9);
        x[closed] = json_number(w, "ev_black");
        free(w);
        free(t);
    }
    print_message("ev_black %.6f open, %.6f closed\n", x[0], x[1]);
    assert_true(x[0] > x[1] + 0.05);
}

/* cfr+ over the information-state walk (--walk, or by itself when the tree does not fit): about the tree's
 * exploitability, a resumed run writes the same bytes as an uninterrupted one, the tree's checkpoints are
 * not taken for its own, and what it cannot train is refused. */
static void cfr_plus_over_the_walk(void **state)
{
    (void)state;
    char cmd[1024];
    const char *game = "--variant classical --board 2x3 --algo cfr+ --quiet --json";
    snprintf(cmd, sizeof cmd, "%s/cfr-train %s --walk --iterations 200 --out %s/w1.pol", bin, game, tmp);
    char *walk = sh_output(cmd);
    snprintf(cmd, sizeof cmd, "%s/cfr-train %s --iterations 200 --out %s/t1.pol", bin, game, tmp);
    char *tree = sh_output(cmd);
    double xw = json_number(walk, "exploitability"), xt = json_number(tree, "exploitability");
    print_message("2x3 classical CFR+ 200 iterations: over the walk %.3e, on the tree %.3e\n", xw, xt);
    assert_true(xw < 1e-3 && xt < 1e-3);
    assert_true(json_number(walk, "infosets") == json_number(tree, "infosets"));
    assert_non_null(strstr(walk, "\"algo\":\"cfr+\""));
    free(walk);
    free(tree);
    snprintf(cmd, sizeof cmd, "%s/arena exploit --json --quiet %s/w1.pol", bin, tmp);
    char *x = sh_output(cmd);
    assert_true(fabs(json_number(x, "exploitability") - xw) < 1e-6);
    free(x);
    /* 120 iterations at once, and 60 + 60 resumed: the same bytes */
    const char *abrupt = "--variant abrupt --board 3x2 --algo cfr+ --walk --quiet --no-eval";
    assert_int_equal(sh_run("%s/cfr-train %s --iterations 120 --out %s/w2.pol >/dev/null", bin, abrupt, tmp), 0);
    assert_int_equal(sh_run("%s/cfr-train %s --iterations 60 --out %s/w3.pol >/dev/null", bin, abrupt, tmp), 0);
    assert_int_equal(sh_run("%s/cfr-train %s --iterations 120 --out %s/w3.pol >/dev/null", bin, abrupt, tmp), 0);
    assert_int_equal(sh_run("cmp -s %s/w2.pol %s/w3.pol", tmp, tmp), 0);
    /* a checkpoint of the tree's cfr+ is not resumed over the walk */
    assert_int_equal(sh_run("%s/cfr-train --variant abrupt --board 3x2 --algo cfr+ --quiet --no-eval --iterations 5 "
                            "--out %s/w4.pol >/dev/null", bin, tmp), 0);
    assert_int_equal(sh_run("%s/cfr-train %s --iterations 10 --out %s/w4.pol 2>/dev/null", bin, abrupt, tmp), 2);
    /* refused: another algorithm, view keys, a board or variant the walk does not cover */
    assert_int_equal(sh_run("%s/cfr-train --variant abrupt --board 3x2 --algo dcfr --walk --iterations 5 --out "
                            "%s/r.pol 2>/dev/null", bin, tmp), 2);
    assert_int_equal(sh_run("%s/cfr-train --variant abrupt --board 3x2 --algo cfr+ --keys view --walk --iterations 5 "
                            "--out %s/r.pol 2>/dev/null", bin, tmp), 2);
    assert_int_equal(sh_run("%s/cfr-train --variant hex --board 3x2 --algo cfr+ --walk --iterations 5 --out "
                            "%s/r.pol 2>/dev/null", bin, tmp), 2);
    assert_int_equal(sh_run("%s/cfr-train --variant abrupt --board 5x4 --algo cfr+ --walk --iterations 5 --out "
                            "%s/r.pol 2>/dev/null", bin, tmp), 2);
}

/* A state the average strategy never reaches (no iteration weighed in its sums) is written with the
 * current strategy (regret matching on the checkpoint's regrets), not left uniform; the exploitability
 * is the same as with those states uniform, since a best response never meets them. CFR+ over the walk,
 * whose --delay leaves the early iterations (where every state is reached) out of the sums. */
static void unreached_states_get_the_current_strategy(void **state)
{
    (void)state;
    const char *runs[] = { "--variant classical --board 2x3 --algo cfr+ --walk --delay 20 --iterations 60",
                           "--variant abrupt --board 3x2 --algo cfr+ --walk --delay 20 --iterations 60" };
    for (int r = 0; r < 2; r++) {
        assert_int_equal(sh_run("%s/cfr-train %s --quiet --no-eval --fresh --out %s/u%d.pol >/dev/null", bin, runs[r],
                                tmp, r), 0);
        char path[600], err[300];
        pf_policy pol;
        snprintf(path, sizeof path, "%s/u%d.pol", tmp, r);
        if (pf_load(&pol, path, err, sizeof err) != 0)
            fail_msg("%s", err);
        sv_ckpt_meta m;
        sv_tree tab = { 0 };
        float *regret;
        double *sum;
        snprintf(path, sizeof path, "%s/u%d.pol.ckpt", tmp, r);
        if (sv_ckpt_load(path, &m, &tab, &regret, &sum, err, sizeof err) != 0)
            fail_msg("%s", err);
        /* The same file with the unreached states uniform. */
        pf_writer *w = pf_writer_new(&pol.meta);
        assert_non_null(w);
        int unreached = 0, not_uniform = 0;
        for (uint32_t k = 0; k < tab.n_infosets; k++) {
            const sv_infoset *is = &tab.infosets[k];
            int64_t e = pf_find(&pol, is->player, is->key);
            assert_true(e >= 0);
            const pf_entry *en = &pol.entries[e];
            double total = 0, sigma[32], u[32], q[32];
            for (int a = 0; a < is->n; a++)
                total += sum[is->offset + a];
            sv_regret_match(regret + is->offset, is->n, sigma);
            for (int a = 0; a < is->n; a++) {
                assert_int_equal(pol.cells[en->offset + a], tab.actions[is->offset + a]);
                q[a] = pol.probs[en->offset + a];
                u[a] = 1.0 / is->n;
                if (total == 0) {
                    assert_true(fabs(q[a] - sigma[a]) < 1e-6);
                    not_uniform += a == 0 && fabs(sigma[0] - u[0]) > 1e-3;
                }
            }
            unreached += total == 0;
            assert_int_equal(pf_writer_add(w, is->player, is->key, is->n, tab.actions + is->offset,
                                           total == 0 ? u : q), 0);
        }
        snprintf(path, sizeof path, "%s/u%d-uniform.pol", tmp, r);
        assert_int_equal(pf_writer_save(w, path, err, sizeof err), 0);
        pf_writer_free(w);
        char cmd[1400];
        snprintf(cmd, sizeof cmd, "%s/arena exploit --json --quiet %s/u%d.pol", bin, tmp, r);
        char *a = sh_output(cmd);
        snprintf(cmd, sizeof cmd, "%s/arena exploit --json --quiet %s", bin, path);
        char *b = sh_output(cmd);
        print_message("%s: %d states unreached (%d not uniform now), exploitability %.6e, unreached uniform %.6e\n",
                      runs[r], unreached, not_uniform, json_number(a, "exploitability"), json_number(b, "exploitability"));
        assert_true(unreached > 0 && not_uniform > 0);
        assert_true(fabs(json_number(a, "exploitability") - json_number(b, "exploitability")) < 1e-12);
        assert_true(fabs(json_number(a, "ev_black") - json_number(b, "ev_black")) < 1e-12);
        free(a);
        free(b);
        free(regret);
        free(sum);
        sv_tree_free(&tab);
        pf_close(&pol);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(resume_gives_the_same_policy),
        cmocka_unit_test(linear_mccfr_resumes_to_the_same_policy),
        cmocka_unit_test(mccfr_baseline_option),
        cmocka_unit_test(rcfr_train_resumes_to_the_same_policy),
        cmocka_unit_test(killed_run_resumes),
        cmocka_unit_test(bad_input_is_refused),
        cmocka_unit_test(exploit_agrees_with_the_trainer),
        cmocka_unit_test(trainer_evaluates_by_the_walk_when_the_tree_does_not_fit),
        cmocka_unit_test(policy_bot_plays_a_solved_policy),
        cmocka_unit_test(closed_files_play_uniformly_after_a_missing_state),
        cmocka_unit_test(cfr_plus_over_the_walk),
        cmocka_unit_test(unreached_states_get_the_current_strategy),
    };
    return cmocka_run_group_tests(tests, e2e_setup, e2e_teardown);
}
