/* tests/unit/test_referee.c — what players are told: over many random games in every variant, the messages a
 * player receives (through encode/decode) rebuild exactly its own event log, so it learns its information state
 * and nothing more; only game_end shows the board. Players speak protocol 2 (outcomes as events of the next turn
 * or game_end, the opening in game_start) or 1 (outcomes in `result`s, an opening replayed: results for its own
 * stones, the opponent's it is told at the head of its first turn), in every combination. Games start from random
 * openings of 0..4 stones; bad openings are refused. */
#include "referee.h"
#include "test_wire.h"

static bool own_kind(hx_event_kind k)
{
    return k == HX_EV_PLACED || k == HX_EV_REJECTED || k == HX_EV_COLLIDED;
}

/* Starts game `id` on r from a random opening of 0..4 stones (fewer on small boards; none that wins). Returns k. */
static int random_opening(hx_referee *r, rng_state *rng, uint64_t id, hx_variant v, int rows, int cols, unsigned flags,
                          const int version[2])
{
    char why[160];
    for (;;) {
        assert_int_equal(ref_init(r, id, v, rows, cols, flags), 0);
        for (int p = 0; p < 2; p++)
            ref_speaks(r, p, version[p]);
        int k = (int)rng_below(rng, 5), cells = rows * cols;
        uint16_t opening[4];
        for (int i = 0; i < k; i++) {
            bool again = true;
            while (again) {
                opening[i] = (uint16_t)rng_below(rng, (uint32_t)cells);
                again = false;
                for (int j = 0; j < i; j++)
                    again |= opening[j] == opening[i];
            }
        }
        if (ref_opening(r, opening, k, why, sizeof why) == 0)
            return k;
        assert_true(strstr(why, "wins the game") || strstr(why, "has won")); /* distinct cells: only a win */
    }
}

/* What player p of game r (version v) learns from its game_start, and for protocol 1 from the replay that follows it:
 * the opening as events in play order into told (the opponent's opening stones of a protocol-1 player come at the
 * head of its first turn: *owed of them, which turn_events() puts in their places). Returns how many events. */
static int learn_start(hx_referee *r, int p, int stones, hx_event *told, int *owed)
{
    static pm_msg m, got, replay;
    hx_variant v = hx_variant_of(&r->game);
    ref_game_start(r, p, 100, 9, &m);
    through_wire(&m, &got);
    assert_int_equal(got.color, p);
    assert_int_equal(got.rows, hx_rows(&r->game));
    int opp = stones / 2 + (stones % 2 && p == HX_WHITE), n = 0, own = 0, seen = 0;
    int replayed = 0;
    while (ref_replay(r, p, replayed, &replay))
        replayed++;
    *owed = 0;
    if (r->version[p] >= 2) { /* the opening in game_start: own stones, seen ones, the rest a count */
        assert_int_equal(replayed, 0);
        assert_int_equal(got.n_own, stones - opp);
        assert_int_equal(got.n_seen + got.hidden, opp);
        assert_int_equal(got.hidden, hx_variant_dark(v) ? opp : 0);
        for (int i = 0; i < stones; i++)
            if (i % 2 == p)
                told[n++] = (hx_event){ HX_EV_PLACED, got.own[own++] };
            else if (seen < got.n_seen)
                told[n++] = (hx_event){ HX_EV_OPP_PLACED, got.seen[seen++] };
        return n;
    }
    /* protocol 1: no opening keys; a `result` placed for each own stone; the seen ones owed to its first turn */
    assert_int_equal(got.n_own + got.n_seen + got.hidden, 0);
    assert_int_equal(replayed, stones - opp);
    for (int i = 0; i < replayed; i++) {
        assert_true(ref_replay(r, p, i, &replay));
        through_wire(&replay, &got);
        assert_int_equal(got.type, PM_RESULT);
        assert_int_equal(got.outcome, HX_PLACED);
        assert_false(got.won);
        told[n++] = (hx_event){ HX_EV_PLACED, got.cell };
    }
    *owed = v == HX_HEX ? opp : 0;
    return n;
}

/* A protocol-1 player's first turn after a replayed opening: its first `owed` events are the opponent's opening
 * stones, which go in their places between the own stones told[0..n) (Black's stones are the 1st, 3rd, ...). */
static int place_owed(int p, const pm_msg *turn, int owed, hx_event *told, int n)
{
    hx_event mine[HX_MAX_CELLS];
    memcpy(mine, told, (size_t)n * sizeof *told);
    int stones = n + owed, k = 0, own = 0, seen = 0;
    assert_true(turn->n_events >= owed);
    for (int i = 0; i < stones; i++)
        told[k++] = i % 2 == p && own < n ? mine[own++] : turn->events[seen++];
    assert_int_equal(own, n);
    for (int i = 0; i < owed; i++)
        assert_int_equal(turn->events[i].kind, HX_EV_OPP_PLACED);
    return k;
}

/* One random game from a random opening, players speaking versions v0 and v1: what each is told, through the wire,
 * rebuilds its own event log (protocol 2: all of it, by game_end; protocol 1: a prefix, the rest about the
 * opponent's last attempts, which game_end's board covers). */
static void audit_game(rng_state *rng, hx_variant v, int game, const int version[2])
{
    static hx_referee r;
    static pm_msg m, got;
    static hx_event told[2][HX_MAX_EVENTS], truth[HX_MAX_EVENTS];
    int rows = 2 + (int)rng_below(rng, 5), cols = 2 + (int)rng_below(rng, 5);
    unsigned flags = v == HX_HEX && rows == cols && game % 2 ? HX_SWAP_RULE : 0;
    int stones = random_opening(&r, rng, (uint64_t)game, v, rows, cols, flags, version);
    assert_int_equal(r.opening, stones);
    assert_int_equal(hx_num_attempts(&r.game), stones);
    /* the swap window is White's first move of the game: after an opening of one stone, never later */
    assert_int_equal(hx_can_swap(&r.game), (flags & HX_SWAP_RULE) && stones == 1);
    int n_told[2], owed[2];
    bool turned[2] = { false, false };
    for (int p = 0; p < 2; p++)
        n_told[p] = learn_start(&r, p, stones, told[p], &owed[p]);
    while (!hx_over(&r.game)) {
        int p = hx_to_move(&r.game);
        ref_turn(&r, &m);
        through_wire(&m, &got);
        int from = 0;
        if (!turned[p] && owed[p] > 0)
            n_told[p] = place_owed(p, &got, from = owed[p], told[p], n_told[p]);
        turned[p] = true;
        for (int i = from; i < got.n_events; i++) {
            hx_event_kind k = got.events[i].kind;
            if (version[p] < 2)
                assert_false(own_kind(k)); /* protocol 1: own results come in `result` */
            if (hx_variant_dark(v) && !own_kind(k))
                assert_true(k == HX_EV_OPP_HIT || k == HX_EV_OPP_HIT_AT);
            if (hx_variant_report(v) == HX_REPORT_NONE && v != HX_HEX && !own_kind(k))
                fail_msg("%s: a turn carried an event about the opponent", hx_variant_name(v));
            told[p][n_told[p]++] = got.events[i];
        }
        int cell = hx_random_legal(&r.game, rng);
        int outcome = ref_move(&r, cell, &m);
        assert_true(outcome >= 0);
        if (version[p] >= 2) { /* told in its next turn or game_end */
            assert_int_equal(m.type, PM_TYPE_COUNT);
            continue;
        }
        through_wire(&m, &got);
        assert_int_equal(got.outcome, outcome);
        assert_int_equal(got.won, hx_winner(&r.game) == p);
        hx_event own = { .cell = got.cell };
        own.kind = outcome == HX_PLACED ? HX_EV_PLACED
                 : outcome == HX_REJECTED ? HX_EV_REJECTED
                 : outcome == HX_COLLISION ? HX_EV_COLLIDED : HX_EV_SWAP;
        if (outcome == HX_SWAPPED) /* the result names "swap"; the log names White's new stone */
            own.cell = hx_move_at(&r.game, hx_num_attempts(&r.game) - 1).cell;
        told[p][n_told[p]++] = own;
    }
    static pm_msg end;
    ref_end(&r, hx_winner(&r.game), HX_END_CONNECTED, NULL, &end);
    for (int p = 0; p < 2; p++) {
        ref_tail(&r, p, &end);
        through_wire(&end, &got);
        assert_int_equal(got.n_cells, rows * cols);
        for (int i = 0; i < rows * cols; i++)
            assert_int_equal(got.board[i], hx_owner(&r.game, i));
        assert_int_equal(got.protocol, version[p] >= 2 ? 2 : 0); /* the events key: protocol 2 only */
        for (int i = 0; i < got.n_events; i++)
            told[p][n_told[p]++] = got.events[i];
        int n = hx_events(&r.game, p, truth);
        if (!turned[p] && owed[p] > 0) { /* the game ended before its first turn: its own stones, in order */
            for (int i = 0, own = 0; i < n && own < n_told[p]; i++)
                if (truth[i].kind == HX_EV_PLACED)
                    assert_int_equal(truth[i].cell, told[p][own++].cell);
            continue;
        }
        if (n_told[p] > n || memcmp(told[p], truth, (size_t)n_told[p] * sizeof truth[0]) != 0)
            fail_msg("%s %dx%d game %d (protocols %d, %d): player %d was told something else than its log",
                     hx_variant_name(v), rows, cols, game, version[0], version[1], p);
        if (version[p] >= 2) /* protocol 2: all of it, by game_end */
            assert_int_equal(n_told[p], n);
        for (int i = n_told[p]; i < n; i++)
            assert_false(own_kind(truth[i].kind));
        if (p == hx_winner(&r.game))
            assert_int_equal(n_told[p], n);
    }
}

static void players_learn_exactly_their_information_state(void **state)
{
    (void)state;
    rng_state rng;
    rng_seed(&rng, 5);
    for (int v = 0; v < HX_VARIANT_COUNT; v++)
        for (int game = 0; game < 1600; game++) { /* both players 2, both 1, and each of them 1 */
            int version[2] = { game % 4 < 2 ? 2 : 1, game % 4 == 0 || game % 4 == 2 ? 2 : 1 };
            audit_game(&rng, (hx_variant)v, game, version);
        }
}

static void illegal_moves_change_nothing(void **state)
{
    (void)state;
    static hx_referee r;
    static pm_msg m;
    assert_int_equal(ref_init(&r, 1, HX_CLASSICAL, 3, 3, 0), 0);
    assert_int_equal(ref_move(&r, 0, &m), HX_PLACED);
    assert_int_equal(ref_move(&r, 0, &m), HX_REJECTED);
    m.type = PM_PING;
    assert_int_equal(ref_move(&r, 0, &m), HX_ERR_KNOWN);
    assert_int_equal(m.type, PM_PING);
    assert_int_equal(ref_move(&r, 99, &m), HX_ERR_RANGE);
    assert_int_equal(hx_num_attempts(&r.game), 2);
}

static void bad_openings_are_refused(void **state)
{
    (void)state;
    static hx_referee r;
    static pm_msg m;
    char why[160];
    static const struct {
        int rows, cols, n;
        uint16_t cells[5];
        const char *says;
    } bad[] = {
        { 3, 3, 3, { 0, 4, 0 }, "opening stone 3: a1 is already taken" },
        { 3, 3, 2, { 0, 9 }, "opening stone 2: cell 9 is off the 3x3 board" },
        { 2, 2, 3, { 0, 1, 2 }, "the opening wins the game for Black" },   /* a1, a2: top to bottom */
        { 2, 2, 4, { 0, 1, 2, 3 }, "opening stone 4: b2 comes after Black has won" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(ref_init(&r, 1, HX_CLASSICAL, bad[i].rows, bad[i].cols, 0), 0);
        assert_int_equal(ref_opening(&r, bad[i].cells, bad[i].n, why, sizeof why), -1);
        if (!strstr(why, bad[i].says))
            fail_msg("reason '%s', expected '%s'", why, bad[i].says);
    }
    assert_int_equal(ref_init(&r, 1, HX_HEX, 3, 3, 0), 0);
    assert_int_equal(ref_move(&r, 4, &m), HX_PLACED);
    assert_int_equal(ref_opening(&r, (const uint16_t[]){ 0 }, 1, why, sizeof why), -1);
    assert_non_null(strstr(why, "not yet under way"));

    /* hex with the swap rule: White may swap its first move after a one-stone opening, not after two */
    assert_int_equal(ref_init(&r, 2, HX_HEX, 3, 3, HX_SWAP_RULE), 0);
    assert_int_equal(ref_opening(&r, (const uint16_t[]){ 1 }, 1, why, sizeof why), 0);
    assert_int_equal(ref_move(&r, HX_SWAP, &m), HX_SWAPPED);
    assert_int_equal(hx_owner(&r.game, 3), 2); /* b1 (r0,c1) became White's a2 (r1,c0) */
    assert_int_equal(ref_init(&r, 3, HX_HEX, 3, 3, HX_SWAP_RULE), 0);
    assert_int_equal(ref_opening(&r, (const uint16_t[]){ 1, 4 }, 2, why, sizeof why), 0);
    assert_int_equal(ref_move(&r, HX_SWAP, &m), HX_ERR_SWAP);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(players_learn_exactly_their_information_state),
        cmocka_unit_test(illegal_moves_change_nothing),
        cmocka_unit_test(bad_openings_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
