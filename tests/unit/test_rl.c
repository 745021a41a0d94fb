/* tests/unit/test_rl.c — the tabular RL player (agents/rl/learn.h and bin/rl-train): the Q-learning and SARSA
 * updates on a hand-made two-step example, with the count-based step and the initial value; epsilon
 * schedules and opponent pools; the 180-degree rotation (an involution that maps legal histories to legal
 * histories with the same outcomes, and keys to the keys of the rotated game); perfect-recall and view
 * keys; a short run on 2x2 abrupt that beats the random player clearly more often than an untrained table;
 * a short run on 3x2 with the default pool and symmetry that beats random clearly and keeps every state's
 * rotation at the same values; the memory budget; resuming a checkpoint gives the same policy file byte for
 * byte; bad options exit 2; policy-bot plays a learned (view-key) policy and wins 2x2 classical as Black
 * every time. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game.h"
#include "learn.h"
#include "policy.h"
#include "test_sys.h"
#include "test_util.h"

E2E_FIXTURE(dir, "dh-rl")

static rl_config config(rl_algo algo)
{
    return (rl_config){ .variant = HX_ABRUPT, .rows = 2, .cols = 2, .algo = algo, .alpha = 0.5, .gamma = 1,
                        .epsilon = { .kind = RL_CONSTANT, .e0 = 0.1, .e1 = 0.1, .n = 1 },
                        .budget = 64u << 20, .seed = 7 };
}

/* Two decisions A (cells 0, 1) then B (cells 2, 3), then the game ends with reward +1. */
static void two_step_updates(void **state)
{
    (void)state;
    static const uint16_t ab[2] = { 0, 1 }, cd[2] = { 2, 3 };
    for (int algo = 0; algo < 2; algo++) {
        rl_learner l;
        rl_config c = config((rl_algo)algo);
        rl_init(&l, &c);
        int64_t A = rl_state(&l, 0, 111, ab, 2), B = rl_state(&l, 0, 222, cd, 2);
        assert_true(A >= 0 && B > A);
        assert_int_equal(rl_state(&l, 0, 111, ab, 2), A); /* found again, not added */
        float *qa = l.q + l.table.infosets[A].offset, *qb = l.q + l.table.infosets[B].offset;
        /* Episode 1: A -a0-> B -b1-> +1. Q(A,a0) backs up 0 (B unknown yet); Q(B,b1) = 0.5. */
        rl_backup(&l, A, 0, 0, B, 1);
        rl_backup(&l, B, 1, 1, -1, -1);
        assert_true(qa[0] == 0.0f && qb[1] == 0.5f);
        /* Episode 2: A -a0-> B, where b0 is taken this time (exploration), then -1. */
        rl_backup(&l, A, 0, 0, B, 0);
        if (algo == RL_QLEARNING)
            assert_true(fabsf(qa[0] - 0.25f) < 1e-7f); /* 0 + 0.5 (max(0, 0.5) - 0) */
        else
            assert_true(qa[0] == 0.0f);                /* 0 + 0.5 (Q(B,b0) = 0 - 0) */
        rl_backup(&l, B, 0, -1, -1, -1);
        assert_true(qb[0] == -0.5f && qb[1] == 0.5f);
        /* A discount scales the backed-up value. */
        l.cfg.gamma = 0.5;
        float before = qa[1];
        rl_backup(&l, A, 1, 0, B, 1);
        assert_true(fabsf(qa[1] - (before + 0.5f * (0.5f * 0.5f - before))) < 1e-7f);
        assert_true(l.visits[l.table.infosets[A].offset] == 2);
        /* The greedy policy puts everything on the best cell; softmax keeps some on the others. */
        double *p = malloc(sizeof *p * l.table.n_actions);
        rl_policy(&l, 0, p);
        assert_true(p[l.table.infosets[B].offset + 1] == 1.0 && p[l.table.infosets[B].offset] == 0.0);
        rl_policy(&l, 1, p);
        double expect = 1 / (1 + exp(-1.0)); /* values 0.5 and -0.5 at temperature 1 */
        assert_true(fabs(p[l.table.infosets[B].offset + 1] - expect) < 1e-6);
        free(p);
        rl_free(&l);
    }
}

/* The count-based step averages the targets (1/n, then the floor); new actions start at cfg.init. */
static void count_step_and_initial_value(void **state)
{
    (void)state;
    static const uint16_t ab[2] = { 0, 1 };
    rl_learner l;
    rl_config c = config(RL_QLEARNING);
    c.step = RL_STEP_COUNT;
    c.alpha = 0.2;
    c.init = 0.75;
    rl_init(&l, &c);
    int64_t A = rl_state(&l, 1, 5, ab, 2);
    float *q = l.q + l.table.infosets[A].offset;
    assert_true(q[0] == 0.75f && q[1] == 0.75f);
    rl_backup(&l, A, 0, 1, -1, -1); /* step 1: the target itself */
    assert_true(q[0] == 1.0f);
    rl_backup(&l, A, 0, -1, -1, -1); /* step 1/2: the mean of 1 and -1 */
    assert_true(q[0] == 0.0f);
    rl_backup(&l, A, 0, 1, -1, -1); /* step 1/3 */
    assert_true(fabsf(q[0] - 1.0f / 3) < 1e-6f);
    for (int k = 0; k < 3; k++)
        rl_backup(&l, A, 0, 1, -1, -1);
    /* steps 1/4, 1/5 (0.2 = the floor), 0.2: 1/3 -> 1/2 -> 3/5 -> 17/25 */
    assert_true(fabsf(q[0] - 0.68f) < 1e-6f);
    assert_true(q[1] == 0.75f && l.visits[l.table.infosets[A].offset] == 6);
    rl_free(&l);
}

static void opponent_pools(void **state)
{
    (void)state;
    double pool[RL_OPPONENTS];
    const char *why;
    char text[96];
    assert_int_equal(rl_pool_parse("bridge", pool, &why), 0);
    assert_true(pool[RL_SELF] == 0 && pool[RL_RANDOM] == 0 && pool[RL_BRIDGE] == 1);
    assert_int_equal(rl_pool_parse("random:3,self:0.5", pool, &why), 0);
    assert_true(pool[RL_SELF] == 0.5 && pool[RL_RANDOM] == 3 && pool[RL_BRIDGE] == 0);
    rl_pool_format(pool, text, sizeof text);
    assert_string_equal(text, "self:0.5,random:3");
    static const char *bad[] = { "", "human", "self:", "self:-1", "random:1,", "random:0", "bridge:1,human:2",
                                 "random:1x", ":1", "random:1,,bridge:1" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(rl_pool_parse(bad[i], pool, &why), -1);
    /* The pool decides who the learner meets: against random only, 2x2 abrupt episodes never refuse and
     * both colours alternate; the table holds states of both players. */
    rl_config c = config(RL_SARSA);
    assert_int_equal(rl_pool_parse("random:1,bridge:1", c.pool, &why), 0);
    rl_learner l;
    rl_init(&l, &c);
    for (int e = 0; e < 200; e++)
        assert_true(rl_episode(&l) >= 0);
    assert_true(l.table.infosets_of[0] > 0 && l.table.infosets_of[1] > 0);
    rl_free(&l);
}

/* Random games of every variant family on 3x3 and 3x2 replayed rotated by 180 degrees, attempt by attempt:
 * the rotation is an involution, the rotated attempts are legal with the same outcomes and winner, the
 * legal cells of the rotated game are the rotated legal cells (reversed order), and rl_keys() of the
 * original gives as its mirror key the key of the rotated game (and the other way round). */
static void rotation_maps_games_to_games(void **state)
{
    (void)state;
    static const hx_variant variants[] = { HX_HEX, HX_CLASSICAL, HX_ABRUPT, HX_CLASSICAL_NOISY, HX_ABRUPT_FLASH };
    rng_state rng;
    rng_seed(&rng, 11);
    long checked = 0;
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++)
        for (int shape = 0; shape < 2; shape++)
            for (int game = 0; game < 60; game++) {
                int rows = 3, cols = shape ? 2 : 3, cells = rows * cols;
                hx_game g, r;
                assert_int_equal(hx_new(&g, variants[v], rows, cols, 0), 0);
                assert_int_equal(hx_new(&r, variants[v], rows, cols, 0), 0);
                while (!hx_over(&g)) {
                    int p = hx_to_move(&g);
                    assert_int_equal(hx_to_move(&r), p);
                    uint16_t lg[HX_MAX_CELLS + 1], lr[HX_MAX_CELLS + 1];
                    int n = hx_legal(&g, lg);
                    assert_int_equal(hx_legal(&r, lr), n);
                    for (int k = 0; k < n; k++)
                        assert_int_equal(lr[k], rl_mirror_cell(cells, lg[n - 1 - k]));
                    for (int view = 0; view < 2; view++)
                        for (int who = 0; who < 2; who++) {
                            uint64_t k1, m1, k2, m2;
                            rl_keys(view, &g, who, &k1, &m1);
                            rl_keys(view, &r, who, &k2, &m2);
                            assert_true(k1 == (view ? hx_view_key(&g, who) : hx_key_fingerprint(&g, who)));
                            assert_true(k2 == m1 && m2 == k1);
                            checked++;
                        }
                    int cell = hx_random_legal(&g, &rng);
                    assert_int_equal(rl_mirror_cell(cells, rl_mirror_cell(cells, cell)), cell);
                    int o = hx_attempt(&g, cell);
                    assert_true(o >= 0);
                    assert_int_equal(hx_attempt(&r, rl_mirror_cell(cells, cell)), o);
                }
                assert_true(hx_over(&r));
                assert_int_equal(hx_winner(&r), hx_winner(&g));
            }
    print_message("rotation: %ld key pairs checked\n", checked);
    /* Not every key is its own mirror: the rotation tells states apart. */
    hx_game g;
    hx_new(&g, HX_CLASSICAL, 3, 3, 0);
    hx_attempt(&g, 0);
    uint64_t k, m;
    rl_keys(false, &g, 0, &k, &m);
    assert_true(k != m);
    hx_new(&g, HX_CLASSICAL, 3, 3, 0);
    hx_attempt(&g, 4); /* the centre is its own rotation */
    rl_keys(false, &g, 0, &k, &m);
    assert_true(k == m);
}

static void epsilon_schedules(void **state)
{
    (void)state;
    rl_schedule s;
    const char *why;
    assert_int_equal(rl_schedule_parse("constant:0.2", &s, &why), 0);
    assert_true(rl_epsilon(&s, 0) == 0.2 && rl_epsilon(&s, 1000000) == 0.2);
    assert_int_equal(rl_schedule_parse("linear:1:0.1:100", &s, &why), 0);
    assert_true(rl_epsilon(&s, 0) == 1.0);
    assert_true(fabs(rl_epsilon(&s, 50) - 0.55) < 1e-12);
    assert_true(rl_epsilon(&s, 100) == 0.1 && rl_epsilon(&s, 5000) == 0.1);
    assert_int_equal(rl_schedule_parse("exponential:0.9:0.1:10", &s, &why), 0);
    assert_true(fabs(rl_epsilon(&s, 10) - 0.5) < 1e-12); /* half-way to 0.1 after one half-life */
    assert_true(fabs(rl_epsilon(&s, 1000) - 0.1) < 1e-9);
    static const char *bad[] = { "", "constant", "constant:", "constant:1.5", "linear:1:0.1", "linear:1:0.1:0",
                                 "exponential:0.9:0.1:10:3", "cosine:1:0:5", "linear:a:b:c" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(rl_schedule_parse(bad[i], &s, &why), -1);
}

static void learning_beats_random(void **state)
{
    (void)state;
    rl_config c = config(RL_QLEARNING);
    c.pool[RL_RANDOM] = 1;
    c.alpha = 0.1;
    rl_learner l;
    rl_init(&l, &c);
    rl_eval before, after;
    rl_evaluate(&l, 2000, 3, &before);
    for (int e = 0; e < 20000; e++)
        assert_true(rl_episode(&l) >= 0);
    rl_evaluate(&l, 2000, 3, &after);
    print_message("2x2 abrupt, 20k episodes against random: greedy wins %.1f%% vs random (untrained %.1f%%)\n",
                  100 * after.vs_random, 100 * before.vs_random);
    assert_true(before.vs_random < 0.6);
    assert_true(after.vs_random > 0.65);
    assert_true(l.table.n_infosets > 10 && l.refused == 0);
    rl_free(&l);
}

/* The defaults of rl-train (pool self:1,random:4,bridge:1, symmetry, count-based step) on 3x2 classical, which White wins
 * surely: a short run beats the random player clearly, and every state met holds its rotation with the same
 * values (the mirrored updates keep the two in step). */
static void symmetric_pool_training_beats_random(void **state)
{
    (void)state;
    for (int algo = 0; algo < 2; algo++) {
        rl_config c = { .variant = HX_CLASSICAL, .rows = 3, .cols = 2, .algo = (rl_algo)algo, .alpha = 0.01,
                        .step = RL_STEP_COUNT, .gamma = 1,
                        .epsilon = { .kind = RL_LINEAR, .e0 = 1, .e1 = 0.05, .n = 20000 },
                        .pool = { 1, 4, 1 }, .symmetry = true, .budget = 64u << 20, .seed = 5 };
        rl_learner l;
        rl_init(&l, &c);
        rl_eval before, after;
        rl_evaluate(&l, 2000, 9, &before);
        for (int e = 0; e < 60000; e++)
            assert_true(rl_episode(&l) >= 0);
        rl_evaluate(&l, 2000, 9, &after);
        print_message("3x2 classical, %s, 60k episodes: greedy wins %.1f%% vs random (%.1f%% as White; untrained "
                      "%.1f%%), %.1f%% vs bridge\n", algo ? "SARSA" : "Q-learning", 100 * after.vs_random,
                      100 * after.random_as[1], 100 * before.vs_random, 100 * after.vs_bridge);
        assert_true(before.vs_random < 0.65);
        assert_true(after.vs_random > 0.8 && after.random_as[1] > 0.9);
        /* Every state's rotation: replay random games and compare the values of both keys. */
        rng_state rng;
        rng_seed(&rng, 3);
        int pairs = 0;
        for (int game = 0; game < 300; game++) {
            hx_game g;
            hx_new(&g, c.variant, c.rows, c.cols, 0);
            while (!hx_over(&g)) {
                int p = hx_to_move(&g);
                uint64_t k, m;
                rl_keys(false, &g, p, &k, &m);
                int64_t s = sv_tree_find(&l.table, p, k), ms = sv_tree_find(&l.table, p, m);
                assert_true((s >= 0) == (ms >= 0));
                if (s >= 0) {
                    int n = l.table.infosets[s].n;
                    assert_int_equal(l.table.infosets[ms].n, n);
                    for (int a = 0; a < n; a++)
                        assert_true(l.q[l.table.infosets[s].offset + a] == l.q[l.table.infosets[ms].offset + n - 1 - a]);
                    pairs++;
                }
                hx_attempt(&g, hx_random_legal(&g, &rng));
            }
        }
        assert_true(pairs > 300);
        rl_free(&l);
    }
}

static void keys_follow_the_choice(void **state)
{
    (void)state;
    uint32_t states[2];
    for (int view = 0; view < 2; view++) {
        rl_config c = config(RL_QLEARNING);
        c.variant = HX_CLASSICAL;
        c.rows = c.cols = 3;
        c.view_keys = view;
        rl_learner l;
        rl_init(&l, &c);
        for (int e = 0; e < 3000; e++)
            rl_episode(&l);
        states[view] = l.table.n_infosets;
        /* The first state of each player is keyed as the engine keys it. */
        hx_game g;
        hx_new(&g, HX_CLASSICAL, 3, 3, 0);
        uint64_t root = view ? hx_view_key(&g, 0) : hx_key_fingerprint(&g, 0);
        assert_true(sv_tree_find(&l.table, 0, root) >= 0);
        hx_attempt(&g, 4);
        uint64_t white = view ? hx_view_key(&g, 1) : hx_key_fingerprint(&g, 1);
        assert_true(sv_tree_find(&l.table, 1, white) >= 0);
        rl_free(&l);
    }
    print_message("3x3 classical, 3000 self-play episodes: %u perfect-recall states, %u view states\n", states[0],
                  states[1]);
    assert_true(states[1] < states[0] * 3 / 4); /* the view merges many perfect-recall states */
}

static void trainer_resumes_and_respects_its_budget(void **state)
{
    (void)state;
    /* (an explicit schedule and evaluation interval: their defaults depend on --episodes) */
    const char *game = "--variant classical --board 3x3 --algo sarsa --opponent bridge --eval-games 20 --quiet "
                       "--epsilon-schedule linear:1:0.1:2000 --eval-every 600";
    assert_int_equal(sh_run("%s/rl-train %s --episodes 3000 --out %s/a.pol --curve %s/a.csv", bin, game, dir, dir), 0);
    assert_int_equal(sh_run("%s/rl-train %s --episodes 1200 --out %s/b.pol --curve %s/b.csv", bin, game, dir, dir), 0);
    /* Rerunning with more episodes resumes from b.pol.ckpt: the same file as the uninterrupted run. */
    assert_int_equal(sh_run("%s/rl-train %s --episodes 3000 --out %s/b.pol --curve %s/b.csv", bin, game, dir, dir), 0);
    assert_int_equal(sh_run("cmp -s %s/a.pol %s/b.pol", dir, dir), 0);
    /* and the same curve (but for the seconds column) */
    assert_int_equal(sh_run("cd %s && cut -d, -f1,3- a.csv > a.cut && cut -d, -f1,3- b.csv > b.cut && cmp -s a.cut b.cut",
                            dir), 0);
    assert_int_equal(sh_run("test $(wc -l < %s/b.csv) -eq 6", dir), 0);
    char path[128], err[300];
    snprintf(path, sizeof path, "%s/a.pol", dir);
    pf_policy pol;
    if (pf_load(&pol, path, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_string_equal(pol.meta.algo, "sarsa");
    assert_int_equal(pol.meta.iterations, 3000);
    assert_true(pol.n_entries > 100);
    pf_close(&pol);

    /* A tiny budget: the table stops growing, the run still finishes and says so. */
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s/rl-train --variant classical --board 4x4 --algo qlearning --episodes 3000 "
             "--memory-mb 1 --eval-games 10 --quiet --json --out %s/small.pol", bin, dir);
    char *o = sh_output(cmd);
    assert_true(json_number(o, "refused") > 0);
    assert_true(json_number(o, "states") < 20000);
    free(o);

    /* Bad input: status 2, nothing written. */
    static const char *bad[] = { "--algo td", "--epsilon-schedule linear:1", "--opponent human", "--alpha 0",
                                 "--keys full", "--episodes 0", "--memory-mb x", "--opponent random:x",
                                 "--symmetry yes", "--step linear", "--init 2" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(sh_run("%s/rl-train --variant classical --board 3x3 --algo qlearning --episodes 10 "
                                "--out %s/bad.pol %s 2>/dev/null", bin, dir, bad[i]), 2);
    assert_int_equal(sh_run("test ! -e %s/bad.pol", dir), 0);
    assert_int_equal(sh_run("%s/rl-train --variant abrupt --board 3x3 --algo qlearning --episodes 10 --out "
                            "%s/a.pol 2>/dev/null", bin, dir), 2); /* a.pol.ckpt is for classical */
}

static void policy_bot_plays_a_learned_policy(void **state)
{
    (void)state;
    /* View keys, so the bot's view-key lookups are exercised; 2x2 classical is a sure win for Black. */
    assert_int_equal(sh_run("%s/rl-train --variant classical --board 2x2 --algo qlearning --opponent random "
                            "--keys view --episodes 20000 --eval-games 10 --quiet --out %s/p.pol >/dev/null", bin, dir), 0);
    char policy[128];
    snprintf(policy, sizeof policy, "%s/p.pol", dir);
    assert_int_equal(policy_bot_black_wins_2x2(bin, dir, policy), 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(two_step_updates),
        cmocka_unit_test(count_step_and_initial_value),
        cmocka_unit_test(epsilon_schedules),
        cmocka_unit_test(opponent_pools),
        cmocka_unit_test(rotation_maps_games_to_games),
        cmocka_unit_test(learning_beats_random),
        cmocka_unit_test(symmetric_pool_training_beats_random),
        cmocka_unit_test(keys_follow_the_choice),
        cmocka_unit_test(trainer_resumes_and_respects_its_budget),
        cmocka_unit_test(policy_bot_plays_a_learned_policy),
    };
    return cmocka_run_group_tests(tests, e2e_setup, e2e_teardown);
}
