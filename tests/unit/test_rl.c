/* tests/unit/test_rl.c — the tabular RL player (agents/rl/learn.h and bin/rl-train): the Q-learning and SARSA
 * updates on a hand-made two-step example; epsilon schedules; perfect-recall and view keys; a short run on
 * 2x2 abrupt that beats the random player clearly more often than an untrained table; the memory budget;
 * resuming a checkpoint gives the same policy file byte for byte; bad options exit 2; policy-bot plays a
 * learned (view-key) policy and wins 2x2 classical as Black every time. */
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
    c.opponent = RL_RANDOM;
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
                                 "--keys full", "--episodes 0", "--memory-mb x" };
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
        cmocka_unit_test(epsilon_schedules),
        cmocka_unit_test(learning_beats_random),
        cmocka_unit_test(keys_follow_the_choice),
        cmocka_unit_test(trainer_resumes_and_respects_its_budget),
        cmocka_unit_test(policy_bot_plays_a_learned_policy),
    };
    return cmocka_run_group_tests(tests, e2e_setup, e2e_teardown);
}
