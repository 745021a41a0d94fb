/* tests/bench/bench_solver.c — the solver core on Dark Hex 3x2 and 2x3 (classical and abrupt): time to build
 * the flat tree, CFR+ milliseconds per iteration (both players' passes), bytes per information state, and
 * one exact exploitability computation (also classical-noisy 3x2: the tree of OpenSpiel's cdh); the baseline
 * is one plain pass over the same tree (every node visited once), measured in the same run. The same policy
 * evaluated by the information-state walk (infowalk.h), against the tree's evaluation, and with White uniform
 * after its first state (merged) against a hair off uniform (not merged). Then
 * external-sampling MCCFR on 3x3 classical and abrupt (iterations per second, information states met),
 * loading a policy file; the uniform policy by the walk on 2x4 with opponent states merged against the same
 * walk unmerged (the baseline, in the same run), and one exact exploitability computation on 3x3 classical
 * by the walk on every processor; a policy file of 30 million information states (size, write, load against
 * reading its bytes, random lookups). The sequence-form LP (seqform.h, GLPK's dual simplex) against CFR+ on
 * the boards it solves in seconds: the LP's time to the exact value, CFR+'s time until its own certificate
 * says it is within 1e-6 of it (NashConv < 1e-6, checked every 256 iterations). Last, each player's LP of
 * abrupt 3x2 and 2x3 solved by GLPK (arena solve's dual simplex) and by COIN-OR CLP (its dual simplex and its
 * barrier, through Clp_C_Interface.h, on the same LP written as MPS, each in a child process), each
 * stopped after BENCH_LP_SECONDS (default 120) seconds: times and values side by side. And the double oracle
 * (doracle.h) beside CLP's LP, CFR+, the tree-free double oracle (dowalk.h) and the sequence-form double
 * oracle (doseq.h) on the same boards (2x2 abrupt, -noisy, -flash; abrupt 2x3 and 3x2; abrupt-noisy 2x3):
 * each in a child process (so that its peak memory is its own: the tree's and the solver's), stopped after
 * BENCH_DO_SECONDS (default 120) seconds, CFR+ run until NashConv < 1e-6 (checked every 256 iterations);
 * BENCH_SOLVER_DO_ONLY runs only that part (and the default cell's rates: computed, from the memo, against the
 * lowest legal cell). The value-certificate checker on the certificates in docs/certificates, against the rules
 * engine alone (BENCH_SOLVER_CHECK_ONLY: only that). Report-blind certificates (valcert_blind.h) written and
 * checked from the plain ones there, against the plain certificate's own check, and their merge (vc_merge) with
 * the kept -noisy certificate, against checking the two sources; abrupt-flash 3x3's again under the memory guard
 * (memguard.h) as arena classify runs it, against the direct step (BENCH_SOLVER_BLIND_ONLY: only that). The
 * sequence oracle's exact step in a child process under a time limit (ds_exact.time_limit) against the same step in
 * this process, the baseline (BENCH_SOLVER_EXACT_ONLY: only that). */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>

#include "bestresponse.h"
#include "cfr.h"
#include "darkhex.h"
#include "doracle.h"
#include "doseq.h"
#include "dowalk.h"
#include "dwdefault.h"
#include "rng.h"
#include "infowalk.h"
#include "memguard.h"
#include "mccfr.h"
#include "policy.h"
#include "seqform.h"
#include "valcert.h"
#include "valcert_blind.h"
#include "valcert_write.h"
#include "clock.h"
#include "mix.h" /* mix64: a bijection, so distinct keys */

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes" /* Clp_C_Interface.h declares a function with () */
#include "ClpConfig.h"
#include "Clp_C_Interface.h"
#pragma GCC diagnostic pop

static double plain(const sv_tree *t, uint32_t h)
{
    const sv_node *n = &t->nodes[h];
    double v = n->value;
    for (uint32_t k = 0; k < n->n; k++)
        v += plain(t, n->first + k);
    return v;
}

/* The LP's time against CFR+'s time to the same value on one game. */
static int lp_against_cfr(hx_variant v, int rows, int cols)
{
    sv_darkhex p = { .variant = v, .rows = rows, .cols = cols };
    efg_game g;
    sv_darkhex_game(&g, &p);
    sv_tree t;
    if (sv_tree_build(&t, &g, 1u << 26, false) != 0)
        return 1;
    double *pol = malloc(sizeof *pol * t.n_actions);
    sf_result r;
    char err[300];
    double t0 = clk_now();
    if (!pol || sf_solve(&t, NULL, pol, &r, err, sizeof err) != 0)
        return 1;
    double lp = clk_now() - t0;
    sv_cfr c;
    if (sv_cfr_init(&c, &t, SV_CFR_PLUS) != 0)
        return 1;
    sv_eval e = { .nashconv = 1 };
    double cfr = 0;
    while (e.nashconv >= 1e-6 && c.iteration < 100000) {
        t0 = clk_now();
        for (int k = 0; k < 256; k++)
            sv_cfr_iterate(&c);
        sv_cfr_average(&c, pol);
        sv_evaluate(&t, pol, &e);
        cfr += clk_now() - t0;
    }
    printf("  %-15s %dx%d: LP %8.3f s (value %+.9f, %u + %u sequences, %llu + %llu nonzeros, %d + %d simplex "
           "iterations); CFR+ %7.3f s (%ld iterations, value %+.9f, |difference| %.1e): LP/CFR+ time %.2fx\n",
           hx_variant_name(v), rows, cols, lp, r.value, r.lp[0].sequences, r.lp[1].sequences,
           (unsigned long long)r.lp[0].nonzeros, (unsigned long long)r.lp[1].nonzeros, r.lp[0].iterations,
           r.lp[1].iterations, cfr, c.iteration, e.ev0, e.ev0 - r.value < 0 ? r.value - e.ev0 : e.ev0 - r.value,
           lp / cfr);
    fflush(stdout);
    sv_cfr_free(&c);
    free(pol);
    sv_tree_free(&t);
    return 0;
}

static int temp_file(char *path);

/* CLP on the LP in the MPS file `path` (maximising), by its dual simplex or its barrier, in a child process
 * killed after `limit` seconds (CLP's own limit is not checked often in the barrier): seconds, value,
 * status (0 optimal; -1 stopped). */
static double clp_run(const char *path, bool barrier, double limit, double *value, int *status)
{
    int fd[2];
    double t0 = clk_now(), got[2] = { NAN, -1 };
    if (pipe(fd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        Clp_Simplex *m = Clp_newModel();
        Clp_setLogLevel(m, 0);
        if (Clp_readMps(m, path, 1, 0) == 0) {
            Clp_setOptimizationDirection(m, -1);
            Clp_setMaximumSeconds(m, limit);
            if (barrier)
                Clp_initialBarrierSolve(m);
            else
                Clp_initialDualSolve(m);
            got[0] = Clp_objectiveValue(m);
            got[1] = Clp_status(m);
        }
        if (write(fd[1], got, sizeof got) != (ssize_t)sizeof got)
            _exit(1);
        _exit(0);
    }
    close(fd[1]);
    struct pollfd p = { .fd = fd[0], .events = POLLIN };
    if (pid > 0 && poll(&p, 1, (int)(limit * 1000) + 2000) == 1 && read(fd[0], got, sizeof got) == (ssize_t)sizeof got) {
        waitpid(pid, NULL, 0);
    } else if (pid > 0) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        got[1] = -1;
    }
    close(fd[0]);
    *value = got[0];
    *status = got[1] == 0 ? 0 : -1;
    return clk_now() - t0;
}

/* Player p's LP of (v, rows, cols) by GLPK and by CLP's dual simplex and barrier. */
static int lp_solvers(hx_variant v, int rows, int cols, int p, double limit)
{
    sv_darkhex params = { .variant = v, .rows = rows, .cols = cols };
    efg_game g;
    sv_darkhex_game(&g, &params);
    sv_tree t;
    if (sv_tree_build(&t, &g, 1u << 26, false) != 0)
        return 1;
    double *pol = malloc(sizeof *pol * t.n_actions);
    char path[] = "/tmp/bench-lp-XXXXXX", err[300];
    if (!pol || temp_file(path) != 0)
        return 1;
    sf_options o;
    sf_options_default(&o);
    o.only = p;
    o.write_mps = path;
    sf_result r;
    if (sf_solve(&t, &o, pol, &r, err, sizeof err) != 0)
        return 1;
    o.write_mps = NULL;
    o.time_limit = limit;
    double t0 = clk_now();
    int glpk = sf_solve(&t, &o, pol, &r, err, sizeof err);
    double glpk_s = clk_now() - t0, dual_v, bar_v;
    int dual_st, bar_st;
    double dual_s = clp_run(path, false, limit, &dual_v, &dual_st);
    double bar_s = clp_run(path, true, limit, &bar_v, &bar_st);
    printf("  %s %dx%d %s's LP (%u sequences, %llu nonzeros): GLPK dual simplex %7.2f s %s %+.9f; CLP dual "
           "simplex %7.2f s %s %+.9f; CLP barrier %7.2f s %s %+.9f\n", hx_variant_name(v), rows, cols,
           p ? "White" : "Black", r.lp[p].sequences, (unsigned long long)r.lp[p].nonzeros, glpk_s,
           glpk ? "(stopped)" : "value", glpk ? NAN : r.lp[p].value, dual_s, dual_st ? "(stopped)" : "value", dual_v,
           bar_s, bar_st ? "(stopped)" : "value", bar_v);
    fflush(stdout);
    unlink(path);
    free(pol);
    sv_tree_free(&t);
    return 0;
}

/* A policy file of n information states (5 actions each, the 3x3 average is about that): writing it,
 * its size, loading it (mmap and the full validation) against reading the same bytes (the baseline), and
 * lookups by binary search. */
static int policy_at_scale(uint32_t n)
{
    printf("solver: a policy file of %u information states (3x3 classical, 5 actions each)\n", n);
    pf_meta m = { .variant = HX_CLASSICAL, .rows = 3, .cols = 3, .algo = "mccfr", .exploitability = NAN };
    pf_writer *w = pf_writer_new(&m);
    if (!w)
        return 1;
    uint16_t cells[5] = { 0, 2, 4, 6, 8 };
    double probs[5] = { 0.1, 0.2, 0.3, 0.25, 0.15 };
    double t0 = clk_now();
    for (uint32_t i = 0; i < n; i++)
        if (pf_writer_add(w, (int)(i & 1), mix64(i), 5, cells, probs) != 0)
            return 1;
    char path[] = "/tmp/bench-scale-XXXXXX", err[300];
    int fd = mkstemp(path);
    if (fd < 0)
        return 1;
    close(fd);
    if (pf_writer_save(w, path, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        unlink(path);
        return 1;
    }
    double written = clk_now() - t0;
    pf_writer_free(w);
    /* the baseline: reading the file's bytes once, as any loader must at least do (page cache warm) */
    FILE *f = fopen(path, "rb");
    static char buf[1 << 20];
    size_t bytes = 0, got;
    t0 = clk_now();
    while (f && (got = fread(buf, 1, sizeof buf, f)) > 0)
        bytes += got;
    double readt = clk_now() - t0;
    if (f)
        fclose(f);
    pf_policy pol;
    t0 = clk_now();
    if (pf_load(&pol, path, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        unlink(path);
        return 1;
    }
    double loaded = clk_now() - t0;
    uint64_t x = 12345, found = 0;
    int lookups = 2000000;
    t0 = clk_now();
    for (int k = 0; k < lookups; k++) {
        x = mix64(x + (uint64_t)k);
        uint32_t i = (uint32_t)(x % n);
        found += pf_find(&pol, (int)(i & 1), mix64(i)) >= 0;
    }
    double looked = clk_now() - t0;
    printf("  %.2f GB (%.1f bytes per state), built and written in %.1f s; loaded and validated in %.2f s "
           "(reading the bytes: %.2f s, %.1fx); %.2f M random lookups per second (%llu of %d found)\n",
           bytes / 1e9, (double)bytes / n, written, loaded, readt, loaded / readt, lookups / looked / 1e6,
           (unsigned long long)found, lookups);
    pf_close(&pol);
    unlink(path);
    return 0;
}

/* Creates the file of the mkstemp template path (rewritten in place); 0, or -1. */
static int temp_file(char *path)
{
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

/* The trained policy with White uniform after its first state, in a closed file: the walk merges the
 * White states that reach a uniform subtree. The baseline, in the same run: the same file a hair (1e-5)
 * off uniform there, which nothing merges. */
static int uniform_subtrees(const sv_tree *t, const double *avg, const pf_meta *m)
{
    double *p[2] = { malloc(sizeof(double) * t->n_actions), malloc(sizeof(double) * t->n_actions) };
    if (!p[0] || !p[1])
        return 1;
    for (uint32_t k = 0; k < t->n_infosets; k++) {
        const sv_infoset *is = &t->infosets[k];
        bool flat = is->player == 1 && is->depth > 0;
        for (int a = 0; a < is->n; a++) {
            p[0][is->offset + a] = flat ? 1.0 / is->n : avg[is->offset + a];
            p[1][is->offset + a] = flat && is->n > 1 ? (1.0 + (a ? -1e-5 / (is->n - 1) : 1e-5)) / is->n
                                                     : p[0][is->offset + a];
        }
    }
    pf_meta closed = *m;
    closed.closed = true;
    double secs[2];
    iw_result r[2];
    for (int i = 0; i < 2; i++) {
        char path[] = "/tmp/bench-flat-XXXXXX", err[300];
        if (temp_file(path) != 0)
            return 1;
        pf_policy pol;
        if (pf_save_tree(t, p[i], &closed, path, err, sizeof err) != 0 || pf_load(&pol, path, err, sizeof err) != 0)
            return 1;
        double t0 = clk_now();
        if (iw_evaluate(m->variant, m->rows, m->cols, &pol, &pol, 2, NULL, NULL, &r[i], err, sizeof err) != 0)
            return 1;
        secs[i] = clk_now() - t0;
        pf_close(&pol);
        unlink(path);
    }
    printf("      White uniform after its first state: %.2f ms, %.3g pairs (a hair off uniform: %.2f ms, %.3g "
           "pairs; %.1fx)\n", 1e3 * secs[0], (double)r[0].pairs, 1e3 * secs[1], (double)r[1].pairs,
           secs[1] / secs[0]);
    free(p[0]);
    free(p[1]);
    return 0;
}

/* CFR+ over the information-state walk on abrupt 3x3, whose tree does not fit: the states listed, then
 * the first iterations one by one (the first walks against a uniform opponent, the later ones are pruned
 * where the opponent's strategy is zero). About 10 GB. */
static int cfr_over_the_walk_3x3(int threads)
{
    printf("solver: CFR+ over the information-state walk on abrupt 3x3 (%d threads)\n", threads);
    fflush(stdout);
    sv_tree tab;
    char err[300];
    double t0 = clk_now();
    if (iw_enumerate(HX_ABRUPT, 3, 3, &tab, err, sizeof err) != 0)
        return 1;
    printf("  %u + %u information states, %u actions, listed in %.1f s\n", tab.infosets_of[0], tab.infosets_of[1],
           tab.n_actions, clk_now() - t0);
    float *reg = calloc(tab.n_actions, sizeof *reg);
    double *sum = calloc(tab.n_actions, sizeof *sum);
    iw_cfr *wc = reg && sum ? iw_cfr_new(HX_ABRUPT, 3, 3, &tab, reg, sum, threads, err, sizeof err) : NULL;
    if (!wc)
        return 1;
    uint64_t pairs = 0;
    for (int k = 1; k <= 8; k++) {
        t0 = clk_now();
        if (iw_cfr_iterate(wc, k, err, sizeof err) != 0)
            return 1;
        uint64_t now = iw_cfr_pairs(wc);
        printf("  iteration %d: %.1f s, %.3g pairs\n", k, clk_now() - t0, (double)(now - pairs));
        fflush(stdout);
        pairs = now;
    }
    iw_cfr_free(wc);
    free(reg);
    free(sum);
    sv_tree_free(&tab);
    return 0;
}

/* GLPK against CLP on each player's LP of abrupt 3x2 and 2x3. */
static int lp_comparison(void)
{
    const char *env = getenv("BENCH_LP_SECONDS");
    double limit = env && atof(env) > 0 ? atof(env) : 120;
    printf("solver: GLPK against COIN-OR CLP %s on the abrupt LPs (each stopped after %.0f s)\n", CLP_VERSION, limit);
    for (int b = 0; b < 2; b++)
        for (int p = 0; p < 2; p++)
            if (lp_solvers(HX_ABRUPT, b ? 2 : 3, b ? 3 : 2, p, limit) != 0)
                return 1;
    return 0;
}

/* This process's resident memory now (VmRSS) or at its peak (VmHWM), in kB; -1 when unknown. */
static double status_kb(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    double kb = -1;
    size_t n = strlen(field);
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, field, n) && line[n] == ':') {
            kb = atof(line + n + 1);
            break;
        }
    if (f)
        fclose(f);
    return kb;
}

enum { BY_DO, BY_CLP, BY_CFR, BY_WALK, BY_SEQ_COLD, BY_SEQ }; /* the last three need no tree */

/* One solver on one board in a child process: out[0] seconds (the tree not counted), out[1] lower, out[2]
 * upper, out[3] the peak memory it added in MB (tree included), out[4] 1 when it finished (exact, or for
 * CFR+ NashConv < 1e-6), out[5] the warm sequence oracle's exact step (its restricted LPs in rational
 * arithmetic; included in out[0]), else NAN. The child is killed after three times the limit and a minute of wall time (CLP's
 * limit counts CPU seconds): then out[0] is that time and the rest unknown. 0, or -1 when it failed. */
static int solve_in_child(int by, hx_variant v, int rows, int cols, double limit, double out[6])
{
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        double got[6] = { NAN, NAN, NAN, NAN, 0, NAN };
        FILE *f = fopen("/proc/self/clear_refs", "w"); /* the peak restarts from here */
        if (f) {
            fputs("5", f);
            fclose(f);
        }
        double rss0 = status_kb("VmRSS");
        sv_darkhex p = { .variant = v, .rows = rows, .cols = cols };
        efg_game g;
        sv_darkhex_game(&g, &p);
        sv_tree t;
        char err[300];
        if (by >= BY_WALK) {
            dw_options o;
            dw_options_default(&o);
            o.time_limit = limit;
            double t0 = clk_now();
            if (by == BY_WALK) {
                dw_result r;
                if (dw_solve(v, rows, cols, &o, &r, err, sizeof err) == 0)
                    got[1] = r.lower, got[2] = r.upper, got[4] = r.converged;
            } else {
                sf_options lp;
                sf_options_default(&lp);
                lp.solver = SF_CLP;
                lp.cold = by == BY_SEQ_COLD; /* each restricted LP from scratch: the baseline */
                ds_result r;
                ds_exact x = { 0 };
                if (ds_solve(v, rows, cols, &o, &lp, 1u << 26, NULL, NULL, by == BY_SEQ ? &x : NULL, &r, err,
                             sizeof err) == 0)
                    got[1] = r.lower, got[2] = r.upper, got[4] = r.converged, got[5] = x.value ? x.seconds : NAN;
                ds_exact_free(&x);
            }
            got[0] = clk_now() - t0;
        } else if (sv_tree_build(&t, &g, 1u << 26, false) == 0) {
            double *pol = malloc(sizeof *pol * t.n_actions);
            double t0 = clk_now();
            if (by == BY_DO) {
                do_options o;
                do_options_default(&o);
                o.time_limit = limit;
                do_result r;
                if (pol && do_solve(&t, &o, pol, &r, err, sizeof err) == 0)
                    got[1] = r.lower, got[2] = r.upper, got[4] = r.converged;
            } else if (by == BY_CLP) {
                sf_options o;
                sf_options_default(&o);
                o.solver = SF_CLP;
                o.only = 0;
                o.time_limit = limit;
                sf_result r;
                if (pol && sf_solve(&t, &o, pol, &r, err, sizeof err) == 0)
                    got[1] = got[2] = r.value, got[4] = 1;
            } else {
                sv_cfr c;
                sv_eval e = { .nashconv = 1 };
                if (pol && sv_cfr_init(&c, &t, SV_CFR_PLUS) == 0) {
                    while (e.nashconv >= 1e-6 && clk_now() - t0 < limit) {
                        for (int k = 0; k < 256; k++)
                            sv_cfr_iterate(&c);
                        sv_cfr_average(&c, pol);
                        sv_evaluate(&t, pol, &e);
                    }
                    got[1] = -e.br[1], got[2] = e.br[0], got[4] = e.nashconv < 1e-6;
                    sv_cfr_free(&c);
                }
            }
            got[0] = clk_now() - t0;
            free(pol);
            sv_tree_free(&t);
        }
        got[3] = (status_kb("VmHWM") - rss0) / 1024;
        if (write(fd[1], got, sizeof got) != (ssize_t)sizeof got)
            _exit(1);
        _exit(0);
    }
    close(fd[1]);
    int rc = -1;
    double t0 = clk_now();
    struct pollfd pf = { .fd = fd[0], .events = POLLIN };
    int ready = pid > 0 ? poll(&pf, 1, (int)(limit * 3000) + 60000) : -1;
    if (ready == 1 && read(fd[0], out, sizeof(double) * 6) == sizeof(double) * 6) {
        rc = 0;
    } else if (ready == 0) { /* killed: the time it had */
        out[0] = clk_now() - t0;
        out[1] = out[2] = out[3] = out[5] = NAN;
        out[4] = 0;
        rc = 0;
    }
    if (pid > 0) {
        if (rc != 0 || ready == 0)
            kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
    }
    close(fd[0]);
    return rc;
}

/* The double oracles beside CLP's LP and CFR+ on the boards the LP solves. */
/* The tree-free oracles' default cell (dwdefault.h) at the states of random abrupt 4x3 games: computed each
 * time, and from the memo the best-response walk keeps, against the lowest legal cell (the baseline: what a
 * strategy played where it stored nothing before the default cell). */
static int default_cell_rates(void)
{
    enum { N = 4000, REPS = 50 };
    hx_game *states = malloc(sizeof *states * N);
    dw_memo *memo = dw_memo_new();
    if (!states || !memo) {
        free(states), dw_memo_free(memo);
        return 1;
    }
    rng_state r;
    rng_seed(&r, 12);
    for (int n = 0; n < N;) {
        hx_game g;
        hx_new(&g, HX_ABRUPT, 4, 3, 0);
        while (!hx_over(&g) && n < N) {
            states[n++] = g;
            hx_attempt(&g, hx_random_legal(&g, &r));
        }
    }
    volatile int sink = 0;
    double t0 = clk_now();
    for (int k = 0; k < REPS; k++)
        for (int i = 0; i < N; i++) {
            uint16_t legal[HX_MAX_CELLS + 1];
            hx_legal(&states[i], legal);
            sink += legal[0];
        }
    double lowest = clk_now() - t0;
    t0 = clk_now();
    for (int k = 0; k < REPS; k++)
        for (int i = 0; i < N; i++)
            sink += dw_default(&states[i]);
    double computed = clk_now() - t0;
    for (int i = 0; i < N; i++) /* fills the memo */
        sink += dw_default_memo(memo, &states[i]);
    t0 = clk_now();
    for (int k = 0; k < REPS; k++)
        for (int i = 0; i < N; i++)
            sink += dw_default_memo(memo, &states[i]);
    double memoised = clk_now() - t0;
    (void)sink;
    double n = (double)N * REPS;
    printf("solver: the default cell at %d states of random abrupt 4x3 games, %d times each: the lowest legal cell "
           "(baseline) %.1f M/s; the default cell computed %.2f M/s (%.1fx the baseline's time), from the memo "
           "%.1f M/s (%.1fx faster than computed)\n", N, REPS, n / lowest / 1e6, n / computed / 1e6,
           computed / lowest, n / memoised / 1e6, computed / memoised);
    free(states);
    dw_memo_free(memo);
    return 0;
}

static int double_oracle_comparison(void)
{
    const char *env = getenv("BENCH_DO_SECONDS");
    double limit = env && atof(env) > 0 ? atof(env) : 120;
    printf("solver: the double oracle beside CLP's sequence-form LP (Black's), CFR+ (to NashConv < 1e-6), the "
           "double oracle without the tree (walk) and the sequence-form double oracle (its LPs by CLP, each from "
           "scratch (cold) and each from the last one's basis, then its last restricted game in rational arithmetic), "
           "each stopped after %.0f s; seconds without the tree, peak memory added (tree included); the warm "
           "start's speed-up and the exact step's seconds\n", limit);
    static const struct { hx_variant v; int r, c; } cases[] = {
        { HX_ABRUPT, 2, 2 }, { HX_ABRUPT_NOISY, 2, 2 }, { HX_ABRUPT_FLASH, 2, 2 }, { HX_ABRUPT, 2, 3 },
        { HX_ABRUPT, 3, 2 }, { HX_ABRUPT_NOISY, 2, 3 } };
    static const char *const names[] = { "double oracle", "CLP", "CFR+", "walk", "sequence oracle cold",
                                         "sequence oracle" };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        printf("  %-13s %dx%d:", hx_variant_name(cases[i].v), cases[i].r, cases[i].c);
        double cold = NAN;
        for (int by = BY_DO; by <= BY_SEQ; by++) {
            double got[6];
            if (solve_in_child(by, cases[i].v, cases[i].r, cases[i].c, limit, got) != 0)
                return 1;
            if (got[4] && fabs(got[2] - got[1]) < 1e-9)
                printf(" %s %.3f s, %.0f MB, value %+.9f;", names[by], got[0], got[3], (got[1] + got[2]) / 2);
            else
                printf(" %s %.3f s, %.0f MB, [%+.9f, %+.9f]%s;", names[by], got[0], got[3], got[1], got[2],
                       got[4] ? "" : " (stopped)");
            if (by == BY_SEQ_COLD)
                cold = got[4] ? got[0] : NAN;
            if (by == BY_SEQ)
                printf(" warm start %.1fx%s; its exact step %.3f s\n", cold / got[0], got[4] ? "" : " (stopped)",
                       got[5]);
            fflush(stdout);
        }
    }
    return 0;
}

/* The exact step (the last restricted game's two LPs in rational arithmetic) in this process, the baseline, and in
 * a child process stopped at a time limit (ds_exact.time_limit, as --time-limit runs it, its rationals sent back as
 * text): the exact step's seconds each way, best of three, and their ratio. */
static int exact_step_in_child(void)
{
    printf("solver: the sequence oracle's exact step in a child process under a time limit against the same step in "
           "this process (the baseline); seconds of the exact step, best of 3\n");
    static const struct { hx_variant v; int r, c; } cases[] = {
        { HX_ABRUPT, 2, 3 }, { HX_ABRUPT, 3, 2 }, { HX_ABRUPT_NOISY, 2, 3 } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double best[2] = { INFINITY, INFINITY };
        char value[2][64] = { "", "" };
        for (int rep = 0; rep < 3; rep++)
            for (int child = 0; child < 2; child++) {
                dw_options o;
                dw_options_default(&o);
                sf_options lp;
                sf_options_default(&lp);
                lp.solver = SF_CLP;
                ds_exact x = { .time_limit = child ? 600 : 0 };
                ds_result r;
                char err[300];
                if (ds_solve(cases[i].v, cases[i].r, cases[i].c, &o, &lp, 1u << 26, NULL, NULL, &x, &r, err,
                             sizeof err) != 0 || !x.value) {
                    fprintf(stderr, "bench_solver: %s\n", x.value ? err : x.why);
                    ds_exact_free(&x);
                    return 1;
                }
                best[child] = fmin(best[child], x.seconds);
                snprintf(value[child], sizeof value[child], "%s", x.value);
                ds_exact_free(&x);
            }
        printf("  %-13s %dx%d: value %s (both ways: %s); in this process %.4f s, in a child %.4f s: %.2fx\n",
               hx_variant_name(cases[i].v), cases[i].r, cases[i].c, value[1],
               strcmp(value[0], value[1]) ? "DIFFERENT" : "equal", best[0], best[1], best[1] / best[0]);
        fflush(stdout);
    }
    return 0;
}

/* The sequence oracle with spread defaults (dw_options.spread) against the one default cell (the baseline) on
 * the boards it solves in seconds: restricted games and seconds to the value; and on abrupt-flash 3x3, where the
 * baseline's restricted equilibria are beaten outright, the bounds each reaches in BENCH_SPREAD_SECONDS (90). */
static int spread_defaults(void)
{
    const char *env = getenv("BENCH_SPREAD_SECONDS");
    double limit = env && atof(env) > 0 ? atof(env) : 90;
    printf("solver: the sequence oracle (CLP) with spread defaults against the one default cell\n");
    static const struct { hx_variant v; int r, c; } cases[] = {
        { HX_ABRUPT, 3, 2 }, { HX_ABRUPT_NOISY, 3, 2 }, { HX_ABRUPT_FLASH, 2, 3 }, { HX_ABRUPT_FLASH, 3, 2 },
        { HX_ABRUPT_FLASH, 3, 3 } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ds_result r[2];
        double secs[2];
        for (int spread = 0; spread < 2; spread++) {
            dw_options o;
            dw_options_default(&o);
            o.spread = spread;
            o.time_limit = limit;
            sf_options lp;
            sf_options_default(&lp);
            lp.solver = SF_CLP;
            char err[300];
            double t0 = clk_now();
            if (ds_solve(cases[i].v, cases[i].r, cases[i].c, &o, &lp, 1u << 26, NULL, NULL, NULL, &r[spread], err,
                         sizeof err) != 0) {
                fprintf(stderr, "bench_solver: %s\n", err);
                return 1;
            }
            secs[spread] = clk_now() - t0;
        }
        printf("  %-13s %dx%d: one default cell %d restricted games, %.2f s, [%+.6f, %+.6f]%s; spread %d, %.2f s, "
               "[%+.6f, %+.6f]%s; %.2fx the time\n", hx_variant_name(cases[i].v), cases[i].r, cases[i].c,
               r[0].iterations, secs[0], r[0].lower, r[0].upper, r[0].converged ? "" : " (stopped)", r[1].iterations,
               secs[1], r[1].lower, r[1].upper, r[1].converged ? "" : " (stopped)", secs[1] / secs[0]);
        fflush(stdout);
    }
    return 0;
}

/* The first-move table without the tree (dw_options.first): each cell before its half-turn image solved exactly
 * by the sequence oracle with Black's first attempt fixed, against the whole board's exact solve by the same
 * oracle (the baseline, measured in the same run): seconds and restricted games. */
static int first_moves(void)
{
    printf("solver: the sequence oracle (CLP, exact) with Black's first attempt fixed, each cell before its "
           "image, against the whole board\n");
    static const struct { hx_variant v; int r, c; } cases[] = { { HX_ABRUPT, 2, 3 }, { HX_ABRUPT, 3, 2 },
                                                               { HX_ABRUPT, 4, 2 } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int cells = cases[i].r * cases[i].c, games = 0, whole_games = 0;
        double secs = 0, whole = 0;
        char line[600] = "";
        size_t len = 0;
        for (int cell = -1; cell < cells; cell++) {
            if (cell >= 0 && cells - 1 - cell < cell)
                continue;
            dw_options o;
            dw_options_default(&o);
            o.first = cell;
            sf_options lp;
            sf_options_default(&lp);
            lp.solver = SF_CLP;
            ds_exact x = { 0 };
            vw_options_default(&x.vw);
            ds_result r;
            char err[300];
            double t0 = clk_now();
            if (ds_solve(cases[i].v, cases[i].r, cases[i].c, &o, &lp, 1u << 26, NULL, NULL, &x, &r, err,
                         sizeof err) != 0) {
                fprintf(stderr, "bench_solver: %s\n", err);
                return 1;
            }
            double t = clk_now() - t0;
            if (cell < 0) {
                whole = t, whole_games = r.iterations;
            } else {
                char name[8];
                hx_cell_name(cell, cases[i].c, name);
                secs += t, games += r.iterations;
                len += (size_t)snprintf(line + len, sizeof line - len, "%s%s %s (%.2f s)", len ? ", " : "", name,
                                        x.value ? x.value : "not exact", t);
            }
            ds_exact_free(&x);
        }
        printf("  %-7s %dx%d: whole board %d restricted games, %.2f s; the cells %d games, %.2f s (%.2fx): %s\n",
               hx_variant_name(cases[i].v), cases[i].r, cases[i].c, whole_games, whole, games, secs, secs / whole,
               line);
        fflush(stdout);
    }
    return 0;
}

/* The value-certificate checker (valcert.h) on the certificates kept in docs/certificates: histories walked per
 * second by both exact best responses; the baseline, measured in the same run, is the rules engine alone
 * (copying a game and making one attempt, along random games of the same board) as often. */
static int certificate_checker(void)
{
    static const char *const files[] = { "docs/certificates/2x4-abrupt.value", "docs/certificates/4x2-abrupt.value",
                                          "docs/certificates/3x3-abrupt.value" };
    printf("solver: the value-certificate checker (both exact best responses, rational arithmetic) against the "
           "rules engine alone (a game copied and one attempt made, as many times as histories walked)\n");
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char err[400];
        vc_cert *c = vc_load(files[i], err, sizeof err);
        if (!c) {
            fprintf(stderr, "bench_solver: %s\n", err);
            return 1;
        }
        char *lower = NULL, *upper = NULL;
        vc_report rep;
        double t0 = clk_now();
        int ok = vc_check(c, 0, &lower, &upper, &rep);
        double checked = clk_now() - t0;
        hx_variant v;
        int rows, cols;
        uint64_t states[2];
        vc_describe(c, &v, &rows, &cols, states);
        rng_state r;
        rng_seed(&r, 5);
        hx_game g, t;
        hx_new(&g, v, rows, cols, 0);
        volatile int sink = 0;
        t0 = clk_now();
        for (uint64_t k = 0; k < rep.histories; k++) {
            if (hx_over(&g))
                hx_new(&g, v, rows, cols, 0);
            hx_copy(&t, &g);
            hx_attempt(&t, hx_random_legal(&g, &r));
            sink += hx_to_move(&t);
            g = t;
        }
        double engine = clk_now() - t0;
        (void)sink;
        printf("  %-40s %s, %llu histories in %.2f s: %.2f M/s (the engine alone %.1f M/s; the checker %.1fx its "
               "time)\n", files[i], ok == 1 ? "verified" : "NOT VERIFIED", (unsigned long long)rep.histories,
               checked, rep.histories / checked / 1e6, rep.histories / engine / 1e6, checked / engine);
        free(lower), free(upper);
        vc_free(c);
        if (ok != 1)
            return 1;
    }
    return 0;
}

/* Seconds of one full check (both exact best responses) of c, or a negative number when it does not verify. */
static double check_seconds(const vc_cert *c, uint64_t *histories)
{
    char *lower = NULL, *upper = NULL;
    vc_report rep;
    double t0 = clk_now();
    int ok = vc_check(c, 0, &lower, &upper, &rep);
    double t = clk_now() - t0;
    free(lower), free(upper);
    if (histories)
        *histories = rep.histories;
    return ok == 1 ? t : -1;
}

/* The peak resident memory added since peak_restart(), in MB (/proc/self/clear_refs 5 restarts VmHWM). */
static double peak_restart(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (f) {
        fputs("5", f);
        fclose(f);
    }
    return status_kb("VmRSS");
}

typedef struct {
    const vc_cert *base;
    hx_variant v;
    const char *path;
} blind_step_ctx;

/* vb_write_blind in the guarded child: the bounds back in out (two doubles); 0, or 1 when it failed. */
static int blind_step(void *ctx, void *out, size_t outlen)
{
    (void)outlen;
    const blind_step_ctx *b = ctx;
    vw_options o;
    vw_options_default(&o);
    vw_result r;
    char err[300];
    if (vb_write_blind(b->base, b->v, &o, b->path, &r, err, sizeof err) != 0)
        return 1;
    double *bounds = out;
    bounds[0] = r.lower_d, bounds[1] = r.upper_d;
    vw_result_free(&r);
    return 0;
}

/* Report-blind certificates (valcert_blind.h: a plain board's certified strategies played in its -noisy or
 * -flash form) written and checked from the plain certificates in docs/certificates, against the plain
 * certificate's own full check (the baseline, in the same run); then the merge (vc_merge) of the blind
 * certificate's Black with the kept -noisy certificate's White, checked, against checking the two sources. */
static int report_blind_and_merge(void)
{
    printf("solver: report-blind certificates from the plain ones (written and checked) against checking the plain "
           "certificate; merged with the kept -noisy certificate against checking both sources\n");
    static const struct { const char *plain; hx_variant v; const char *kept; } cases[] = {
        { "docs/certificates/2x4-abrupt.value", HX_ABRUPT_NOISY, "docs/certificates/2x4-abrupt-noisy.value" },
        { "docs/certificates/2x4-abrupt.value", HX_ABRUPT_FLASH, NULL },
        { "docs/certificates/4x2-abrupt.value", HX_ABRUPT_NOISY, "docs/certificates/4x2-abrupt-noisy.value" },
        { "docs/certificates/4x2-abrupt.value", HX_ABRUPT_FLASH, NULL },
        { "docs/certificates/3x3-abrupt.value", HX_ABRUPT_NOISY, "docs/certificates/3x3-abrupt-noisy.value" },
        { "docs/certificates/3x3-abrupt.value", HX_ABRUPT_FLASH, NULL } };
    char path[] = "/tmp/bench-blind-XXXXXX";
    if (temp_file(path) != 0)
        return 1;
    int rc = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0] && rc == 0; i++) {
        char err[700];
        vc_cert *plain = vc_load(cases[i].plain, err, sizeof err), *blind = NULL, *kept = NULL, *merged = NULL;
        if (!plain) {
            fprintf(stderr, "bench_solver: %s\n", err);
            rc = 1;
            break;
        }
        hx_variant pv;
        int rows, cols;
        uint64_t states[2], plain_histories;
        vc_describe(plain, &pv, &rows, &cols, states);
        double plain_check = check_seconds(plain, &plain_histories);
        vw_options o;
        vw_options_default(&o);
        vw_result r = { 0 };
        double rss0 = peak_restart(), t0 = clk_now();
        int w = vb_write_blind(plain, cases[i].v, &o, path, &r, err, sizeof err);
        double blind_secs = clk_now() - t0, blind_mb = (status_kb("VmHWM") - rss0) / 1024;
        if (w != 0 || plain_check < 0) {
            fprintf(stderr, "bench_solver: %s -> %s: %s\n", cases[i].plain, hx_variant_name(cases[i].v),
                    w != 0 ? err : "the plain certificate does not verify");
            vc_free(plain);
            rc = 1;
            break;
        }
        printf("  %dx%d %-12s report-blind: %.2f s (%d denominator bounds, %.3g histories, %.1f M/s), %.0f MB added, "
               "[%+.6f, %+.6f]; the plain check %.2f s (%.3g histories): %.1fx its time\n", rows, cols,
               hx_variant_name(cases[i].v), blind_secs, r.trials, (double)r.histories, r.histories / blind_secs / 1e6,
               blind_mb, r.lower_d, r.upper_d, plain_check, (double)plain_histories, blind_secs / plain_check);
        vw_result_free(&r);
        if (cases[i].v == HX_ABRUPT_FLASH && rows * cols == 9) { /* as arena classify runs it: under the guard */
            blind_step_ctx b = { .base = plain, .v = cases[i].v, .path = path };
            double lo[2] = { 0, 0 };
            mg_result m;
            int g = mg_run(blind_step, &b, 1e6, lo, sizeof lo, &m);
            printf("  %dx%d %-12s the same under the memory guard (memguard.h, a child watched through smaps_rollup): "
                   "%.2f s, %.0f MB private at most, [%+.6f, %+.6f]: %.2fx the direct step\n", rows, cols,
                   hx_variant_name(cases[i].v), m.seconds, m.peak_mb, lo[0], lo[1], m.seconds / blind_secs);
            if (g != 0 || m.status != MG_DONE) {
                fprintf(stderr, "bench_solver: the guarded step: %s\n", m.why);
                rc = 1;
            }
        }
        if (cases[i].kept) {
            blind = vc_load(path, err, sizeof err);
            kept = blind ? vc_load(cases[i].kept, err, sizeof err) : NULL;
            double sources = blind && kept ? check_seconds(blind, NULL) + check_seconds(kept, NULL) : -1;
            t0 = clk_now();
            merged = sources >= 0 ? vc_merge(blind, kept, err, sizeof err) : NULL;
            double merge_secs = merged ? check_seconds(merged, NULL) : -1;
            merge_secs = merge_secs < 0 ? -1 : clk_now() - t0;
            if (merge_secs < 0) {
                fprintf(stderr, "bench_solver: merging %s: %s\n", cases[i].kept, merged ? "not verified" : err);
                rc = 1;
            } else {
                double lo, hi;
                vc_bounds(merged, &lo, &hi);
                printf("  %dx%d %-12s merged (report-blind Black, %s White): [%+.6f, %+.6f], merged and checked in "
                       "%.2f s; checking the two sources %.2f s: %.2fx\n", rows, cols, hx_variant_name(cases[i].v),
                       cases[i].kept + strlen("docs/certificates/"), lo, hi, merge_secs, sources, merge_secs / sources);
            }
        }
        vc_free(merged), vc_free(kept), vc_free(blind), vc_free(plain);
        fflush(stdout);
    }
    unlink(path);
    return rc;
}

int main(void)
{
    if (getenv("BENCH_SOLVER_LP_ONLY")) /* only the LP solvers' comparison */
        return lp_comparison();
    if (getenv("BENCH_SOLVER_CHECK_ONLY")) /* only the certificate checker */
        return certificate_checker();
    if (getenv("BENCH_SOLVER_SPREAD_ONLY")) /* only the spread defaults */
        return spread_defaults();
    if (getenv("BENCH_SOLVER_FIRST_ONLY")) /* only the first-move table without the tree */
        return first_moves();
    if (getenv("BENCH_SOLVER_BLIND_ONLY")) /* only the report-blind certificates and the merge */
        return report_blind_and_merge();
    if (getenv("BENCH_SOLVER_EXACT_ONLY")) /* only the exact step in a child */
        return exact_step_in_child();
    if (getenv("BENCH_SOLVER_DO_ONLY")) /* only the double oracle's comparison */
        return default_cell_rates() || double_oracle_comparison() || spread_defaults();
    if (default_cell_rates() != 0 || certificate_checker() != 0 || report_blind_and_merge() != 0 ||
        exact_step_in_child() != 0)
        return 1;
    if (double_oracle_comparison() != 0 || spread_defaults() != 0 || first_moves() != 0) /* first: the children
                                                                                           * then start small */
        return 1;
    static const struct { hx_variant v; int r, c; } cases[] = {
        { HX_CLASSICAL, 3, 2 }, { HX_ABRUPT, 3, 2 }, { HX_CLASSICAL, 2, 3 }, { HX_ABRUPT, 2, 3 },
        { HX_CLASSICAL_NOISY, 3, 2 } }; /* classical-noisy is OpenSpiel's cdh (docs/solver.md) */
    printf("solver: flat trees and CFR+ (alternating updates) on small Dark Hex boards\n");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sv_darkhex p = { .variant = cases[i].v, .rows = cases[i].r, .cols = cases[i].c };
        efg_game g;
        sv_darkhex_game(&g, &p);
        sv_tree t;
        double t0 = clk_now();
        if (sv_tree_build(&t, &g, 1u << 26, false) != 0)
            return 1;
        double built = clk_now() - t0;
        volatile double sink = 0;
        t0 = clk_now();
        for (int k = 0; k < 20; k++)
            sink += plain(&t, 0);
        double pass = (clk_now() - t0) / 20;
        (void)sink; /* only there so the passes are not optimised away */
        sv_cfr c;
        if (sv_cfr_init(&c, &t, SV_CFR_PLUS) != 0)
            return 1;
        int iters = 500;
        t0 = clk_now();
        for (int k = 0; k < iters; k++)
            sv_cfr_iterate(&c);
        double per = (clk_now() - t0) / iters;
        double *avg = malloc(sizeof *avg * t.n_actions);
        sv_cfr_average(&c, avg);
        sv_eval e;
        t0 = clk_now();
        sv_evaluate(&t, avg, &e);
        double ev = clk_now() - t0;
        /* per information state: its record, its actions (cell byte pairs), a float regret and a double sum
         * per action, and its table slots */
        double bytes = (double)(sizeof(sv_infoset) * t.n_infosets + t.n_actions * (sizeof(uint16_t) + 4 + 8) +
                                t.cap * sizeof(uint32_t)) / t.n_infosets;
        printf("  %-9s %dx%d: %u nodes, %u information states; tree built in %.0f ms\n", hx_variant_name(cases[i].v),
               cases[i].r, cases[i].c, t.n_nodes, t.n_infosets, 1e3 * built);
        printf("      CFR+ %.3f ms per iteration (a plain pass over the tree: %.3f ms; %.1fx), %.0f bytes per "
               "information state (+%.0f per tree node), exploitability after %d: %.2e, exact evaluation %.1f ms\n",
               1e3 * per, 1e3 * pass, per / pass, bytes, (double)(sizeof(sv_node) + sizeof(double)), iters,
               e.exploitability, 1e3 * ev);
        {
            pf_meta m = { .variant = cases[i].v, .rows = cases[i].r, .cols = cases[i].c, .algo = "cfr+",
                          .iterations = (uint64_t)iters, .exploitability = e.exploitability };
            char path[] = "/tmp/bench-policy-XXXXXX", err[300];
            if (temp_file(path) != 0)
                return 1;
            t0 = clk_now();
            if (pf_save_tree(&t, avg, &m, path, err, sizeof err) != 0)
                return 1;
            double saved = clk_now() - t0;
            pf_policy pol;
            t0 = clk_now();
            if (pf_load(&pol, path, err, sizeof err) != 0)
                return 1;
            double loaded = clk_now() - t0;
            if (i == 1) /* writing and loading (mmap + full validation) the policy of abrupt 3x2 */
                printf("      policy file: %u information states, written in %.1f ms, loaded and validated in %.2f ms\n",
                       pol.n_entries, 1e3 * saved, 1e3 * loaded);
            iw_result r;
            double wt[2];
            for (int th = 1; th <= 2; th++) {
                t0 = clk_now();
                if (iw_evaluate(cases[i].v, cases[i].r, cases[i].c, &pol, &pol, th, NULL, NULL, &r, err, sizeof err))
                    return 1;
                wt[th - 1] = clk_now() - t0;
            }
            printf("      information-state walk: %.2f ms on 1 thread, %.2f ms on 2 (%.1fx faster than the tree's "
                   "evaluation; exploitability differs by %.1e)\n", 1e3 * wt[0], 1e3 * wt[1], ev / wt[0],
                   r.exploitability - e.exploitability);
            pf_close(&pol);
            unlink(path);
            if (uniform_subtrees(&t, avg, &m) != 0)
                return 1;
        }
        {
            /* the same CFR+ over the information-state walk (one thread: these trees are small) */
            sv_tree tab;
            char err[300];
            t0 = clk_now();
            if (iw_enumerate(cases[i].v, cases[i].r, cases[i].c, &tab, err, sizeof err) != 0)
                return 1;
            double listed = clk_now() - t0;
            float *reg = calloc(tab.n_actions, sizeof *reg);
            double *sum = calloc(tab.n_actions, sizeof *sum);
            iw_cfr *wc = iw_cfr_new(cases[i].v, cases[i].r, cases[i].c, &tab, reg, sum, 1, err, sizeof err);
            if (!reg || !sum || !wc)
                return 1;
            t0 = clk_now();
            for (int k = 1; k <= iters; k++)
                if (iw_cfr_iterate(wc, k, err, sizeof err) != 0)
                    return 1;
            double wper = (clk_now() - t0) / iters;
            printf("      CFR+ over the information-state walk: states listed in %.1f ms, %.3f ms per iteration (%.2fx "
                   "the tree's), %.3g pairs per iteration\n", 1e3 * listed, 1e3 * wper, wper / per,
                   (double)iw_cfr_pairs(wc) / iters);
            iw_cfr_free(wc);
            free(reg);
            free(sum);
            sv_tree_free(&tab);
        }
        free(avg);
        sv_cfr_free(&c);
        sv_tree_free(&t);
    }
    printf("solver: the sequence-form LP (%s, dual simplex) against CFR+ reaching NashConv < 1e-6\n",
           sf_glpk_version());
    static const struct { hx_variant v; int r, c; } lp_cases[] = {
        { HX_ABRUPT, 2, 2 }, { HX_ABRUPT_FLASH, 2, 2 }, { HX_HEX, 3, 2 }, { HX_CLASSICAL, 3, 2 },
        { HX_CLASSICAL, 2, 3 }, { HX_CLASSICAL_NOISY, 2, 3 } };
    for (size_t i = 0; i < sizeof lp_cases / sizeof lp_cases[0]; i++)
        if (lp_against_cfr(lp_cases[i].v, lp_cases[i].r, lp_cases[i].c) != 0)
            return 1;
    printf("solver: external-sampling MCCFR on 3x3 (the full tree does not fit), 3 s each\n");
    for (hx_variant v = HX_CLASSICAL; v <= HX_ABRUPT; v++) {
        sv_darkhex p = { .variant = v, .rows = 3, .cols = 3 };
        efg_game g;
        sv_darkhex_game(&g, &p);
        sv_mccfr m;
        if (sv_mccfr_init(&m, &g, false, 1) != 0)
            return 1;
        double t0 = clk_now();
        while (clk_now() - t0 < 3)
            for (int k = 0; k < 10; k++)
                if (sv_mccfr_iterate(&m) != 0)
                    return 1;
        double secs = clk_now() - t0;
        printf("  %-9s 3x3: %.0f iterations per second, %u information states met after %ld iterations\n",
               hx_variant_name(v), (double)m.iteration / secs, m.table.n_infosets, m.iteration);
        double plain_rate = (double)m.iteration / secs;
        sv_mccfr_free(&m);
        /* the same with history baselines (--baseline history, a 256 MiB cache): the price per iteration */
        if (sv_mccfr_init(&m, &g, false, 1) != 0)
            return 1;
        m.baseline_bits = sv_mccfr_baseline_bits(256);
        t0 = clk_now();
        while (clk_now() - t0 < 3)
            for (int k = 0; k < 10; k++)
                if (sv_mccfr_iterate(&m) != 0)
                    return 1;
        secs = clk_now() - t0;
        printf("  %-9s 3x3 with history baselines: %.0f iterations per second (%.2fx the plain rate)\n",
               hx_variant_name(v), (double)m.iteration / secs, (double)m.iteration / secs / plain_rate);
        sv_mccfr_free(&m);
    }
    /* The uniform walk merges opponent states that differ only in their history; a perfect-recall file
     * holding none of the states makes the walk play them all uniformly without merging: the baseline. */
    printf("solver: the uniform policy by the information-state walk, merged against unmerged (2 threads)\n");
    static const struct { hx_variant v; int r, c; } wcases[] = { { HX_CLASSICAL, 2, 4 }, { HX_ABRUPT, 2, 4 } };
    for (size_t i = 0; i < sizeof wcases / sizeof wcases[0]; i++) {
        pf_meta m = { .variant = wcases[i].v, .rows = wcases[i].r, .cols = wcases[i].c, .algo = "none",
                      .exploitability = NAN };
        uint16_t cell = 0;
        double one = 1;
        pf_writer *pw = pf_writer_new(&m);
        if (!pw || pf_writer_add(pw, 0, 1, 1, &cell, &one) != 0 || pf_writer_add(pw, 1, 1, 1, &cell, &one) != 0)
            return 1;
        char path[] = "/tmp/bench-never-XXXXXX", err[300];
        if (temp_file(path) != 0)
            return 1;
        pf_policy pol;
        if (pf_writer_save(pw, path, err, sizeof err) != 0 || pf_load(&pol, path, err, sizeof err) != 0)
            return 1;
        pf_writer_free(pw);
        iw_result a, b;
        double t0 = clk_now();
        if (iw_evaluate(wcases[i].v, wcases[i].r, wcases[i].c, NULL, NULL, 2, NULL, NULL, &a, err, sizeof err) != 0)
            return 1;
        double merged = clk_now() - t0;
        t0 = clk_now();
        if (iw_evaluate(wcases[i].v, wcases[i].r, wcases[i].c, &pol, &pol, 2, NULL, NULL, &b, err, sizeof err) != 0)
            return 1;
        double unmerged = clk_now() - t0;
        printf("  %-9s %dx%d: merged %.0f ms (%.3g pairs), unmerged %.0f ms (%.3g pairs): %.1fx; exploitability "
               "differs by %.1e\n", hx_variant_name(wcases[i].v), wcases[i].r, wcases[i].c, 1e3 * merged,
               (double)a.pairs, 1e3 * unmerged, (double)b.pairs, unmerged / merged, a.exploitability - b.exploitability);
        pf_close(&pol);
        unlink(path);
    }
    if (policy_at_scale(30000000) != 0)
        return 1;
    int threads = iw_default_threads();
    printf("solver: exact exploitability of the uniform policy on 3x3 classical (information-state walk, merged, "
           "%d threads)\n", threads);
    fflush(stdout);
    iw_result r;
    char err[300];
    double t0 = clk_now();
    if (iw_evaluate(HX_CLASSICAL, 3, 3, NULL, NULL, threads, NULL, NULL, &r, err, sizeof err) != 0)
        return 1;
    double secs = clk_now() - t0;
    printf("  classical 3x3: %.1f s; %.3g (information state, opponent state) pairs, %.0f million per second; "
           "%llu Black and %llu White information states; exploitability %.6f\n", secs, (double)r.pairs,
           r.pairs / secs / 1e6, (unsigned long long)r.infosets[0], (unsigned long long)r.infosets[1],
           r.exploitability);
    if (cfr_over_the_walk_3x3(threads) != 0)
        return 1;
    return lp_comparison();
}
