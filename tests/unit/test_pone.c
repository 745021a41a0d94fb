/* tests/unit/test_pone.c — the pONE search (arena/solver/pone.h) against an independent model written here:
 * true boards of classical Dark Hex played out one by one, a player's belief being the set of true boards
 * its history leaves possible, and "wins with probability one" a plain recursion over beliefs (some
 * attempt whose every outcome wins). On 2x2, 3x2 and 2x3, for both players, the keys real games reach, the
 * belief each key stands for (the same from every history: the key is all the player needs), and which
 * keys are pONE match the module's, and every winning cell the module stores wins in the model. On 3x3
 * the module's cells, replayed in the model from the empty board, win every game for Black; every
 * consistent key, reachable or not, counted in the model as by the module; on 2x2 a Black opening at b1 or
 * a2 wins surely and at a1 or b2 does not (and docs/pone.md's consistency example). Also: inconsistent
 * keys, the node budget, `arena pone --json`, and bin/pone in a short match against bin/random. */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pone.h"
#include "test_sys.h"
#include "test_util.h"

/* ---- The model: true boards as base-3 codes (0 empty, 1 Black, 2 White per cell) -------------------- */

static int R, C, N, P; /* board and the player whose beliefs are followed */
static uint32_t pow3[16];

static int stone_at(uint32_t b, int i) { return (int)(b / pow3[i] % 3); }

/* Whether player p's stones on b join its sides: a depth-first search from its first side (rules.md). */
static bool model_joined(uint32_t b, int p)
{
    static const int dr[6] = { -1, -1, 0, 0, 1, 1 }, dc[6] = { 0, 1, -1, 1, -1, 0 };
    int stack[16], n = 0;
    bool seen[16] = { false };
    for (int i = 0; i < N; i++)
        if (stone_at(b, i) == p + 1 && (p == 0 ? i / C == 0 : i % C == 0))
            stack[n++] = i, seen[i] = true;
    while (n) {
        int i = stack[--n], r = i / C, c = i % C;
        if (p == 0 ? r == R - 1 : c == C - 1)
            return true;
        for (int k = 0; k < 6; k++) {
            int rr = r + dr[k], cc = c + dc[k];
            if (rr < 0 || rr >= R || cc < 0 || cc >= C)
                continue;
            int j = rr * C + cc;
            if (!seen[j] && stone_at(b, j) == p + 1)
                seen[j] = true, stack[n++] = j;
        }
    }
    return false;
}

/* A belief: P's view and the true boards its history leaves possible (sorted, distinct). */
typedef struct {
    uint64_t own, seen;
    uint32_t *boards;
    int n;
} belief;

static int by_code(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void belief_sort(belief *b)
{
    qsort(b->boards, (size_t)b->n, sizeof *b->boards, by_code);
    int m = 0;
    for (int i = 0; i < b->n; i++)
        if (m == 0 || b->boards[m - 1] != b->boards[i])
            b->boards[m++] = b->boards[i];
    b->n = m;
}

/* P attempts x: the boards where it is a hidden stone (rejected: P learns it) and those where it is empty
 * (P's stone placed). Either may come out empty. */
static void model_attempt(const belief *b, int x, belief *rejected, belief *placed)
{
    *rejected = (belief){ b->own, b->seen | 1ull << x, malloc(sizeof(uint32_t) * (size_t)b->n + 1), 0 };
    *placed = (belief){ b->own | 1ull << x, b->seen, malloc(sizeof(uint32_t) * (size_t)b->n + 1), 0 };
    for (int i = 0; i < b->n; i++) {
        int s = stone_at(b->boards[i], x);
        assert_true(s != P + 1);
        if (s)
            rejected->boards[rejected->n++] = b->boards[i];
        else
            placed->boards[placed->n++] = b->boards[i] + (uint32_t)(P + 1) * pow3[x];
    }
}

/* The opponent places a stone on any empty cell of any board (its rejections on P's stones keep its turn
 * and tell P nothing). Returns false when one of those joins the opponent's sides. */
static bool model_reply(const belief *b, belief *out)
{
    *out = (belief){ b->own, b->seen, malloc(sizeof(uint32_t) * (size_t)(b->n * N) + 1), 0 };
    bool safe = true;
    for (int i = 0; i < b->n; i++)
        for (int y = 0; y < N; y++)
            if (!stone_at(b->boards[i], y)) {
                uint32_t nb = b->boards[i] + (uint32_t)(2 - P) * pow3[y];
                if (model_joined(nb, 1 - P))
                    safe = false;
                else
                    out->boards[out->n++] = nb;
            }
    belief_sort(out);
    return safe;
}

static bool model_to_move(const belief *b);
static bool model_wait(const belief *b);

/* Every outcome of attempt x from b (P to move) wins with probability one. */
static bool model_cell_wins(const belief *b, int x)
{
    belief rej, pl;
    model_attempt(b, x, &rej, &pl);
    bool ok = true;
    if (rej.n)
        ok = model_to_move(&rej);
    if (ok && pl.n && !model_joined(pl.boards[0], P))
        ok = model_wait(&pl);
    free(rej.boards);
    free(pl.boards);
    return ok;
}

static bool model_to_move(const belief *b)
{
    for (int x = 0; x < N; x++)
        if (!((b->own | b->seen) >> x & 1) && model_cell_wins(b, x))
            return true;
    return false;
}

/* The opponent to move from b (P not joined). */
static bool model_wait(const belief *b)
{
    belief next;
    bool ok = model_reply(b, &next) && model_to_move(&next);
    free(next.boards);
    return ok;
}

/* ---- The keys real games reach, in the model --------------------------------------------------------- */

typedef struct {
    sv_pone_key key;
    belief b;
    int kind; /* 0 P to move, 1 opponent to move, 2 P has won */
    bool pone;
} model_key;

static model_key keys[4096];
static int n_keys;

static int hidden_of(const belief *b)
{
    int n = 0;
    for (int i = 0; i < N; i++)
        n += stone_at(b->boards[0], i) == 2 - P;
    return n - __builtin_popcountll(b->seen);
}

/* Records the belief b (taking its boards) unless its key is known; then its belief must be the same. */
static void model_walk(belief b, int kind)
{
    sv_pone_key k = { b.own, b.seen, hidden_of(&b) };
    for (int i = 0; i < n_keys; i++)
        if (keys[i].key.own == k.own && keys[i].key.seen == k.seen && keys[i].key.hidden == k.hidden) {
            assert_int_equal(keys[i].kind, kind);
            assert_int_equal(keys[i].b.n, b.n);
            assert_memory_equal(keys[i].b.boards, b.boards, sizeof(uint32_t) * (size_t)b.n);
            free(b.boards);
            return;
        }
    assert_true(n_keys < (int)(sizeof keys / sizeof keys[0]));
    keys[n_keys++] = (model_key){ k, b, kind, false };
    if (kind == 2)
        return;
    if (kind == 1) {
        belief next;
        model_reply(&b, &next);
        if (next.n)
            model_walk(next, 0);
        else
            free(next.boards);
        return;
    }
    for (int x = 0; x < N; x++) {
        if ((b.own | b.seen) >> x & 1)
            continue;
        belief rej, pl;
        model_attempt(&b, x, &rej, &pl);
        if (rej.n)
            model_walk(rej, 0);
        else
            free(rej.boards);
        if (pl.n)
            model_walk(pl, model_joined(pl.boards[0], P) ? 2 : 1);
        else
            free(pl.boards);
    }
}

static void model_setup(int rows, int cols, int player)
{
    R = rows, C = cols, N = rows * cols, P = player;
    pow3[0] = 1;
    for (int i = 1; i < 16; i++)
        pow3[i] = pow3[i - 1] * 3;
    for (int i = 0; i < n_keys; i++)
        free(keys[i].b.boards);
    n_keys = 0;
    belief start = { 0, 0, malloc(sizeof(uint32_t)), 1 };
    start.boards[0] = 0;
    model_walk(start, player == 0 ? 0 : 1);
    for (int i = 0; i < n_keys; i++)
        keys[i].pone = keys[i].kind == 2 || (keys[i].kind == 0 ? model_to_move(&keys[i].b) : model_wait(&keys[i].b));
}

static void model_free(void)
{
    for (int i = 0; i < n_keys; i++)
        free(keys[i].b.boards);
    n_keys = 0;
}

/* ---- The module against the model ------------------------------------------------------------------- */

typedef struct {
    int visited, pone, unknown;
} module_walk;

static void check_visit(const sv_pone_key *k, int pone, int cell, void *user)
{
    module_walk *w = user;
    w->visited++;
    w->pone += pone;
    for (int i = 0; i < n_keys; i++)
        if (keys[i].key.own == k->own && keys[i].key.seen == k->seen && keys[i].key.hidden == k->hidden) {
            if (keys[i].pone != (pone == 1))
                fail_msg("%dx%d player %d key own=%llx seen=%llx h=%d: module %d, model %d", R, C, P,
                         (unsigned long long)k->own, (unsigned long long)k->seen, k->hidden, pone, keys[i].pone);
            assert_int_equal(cell >= 0, pone && keys[i].kind == 0);
            if (cell >= 0)
                assert_true(model_cell_wins(&keys[i].b, cell)); /* the stored cell keeps the win */
            return;
        }
    w->unknown++;
}

static void counts_match_the_model(int rows, int cols, int player, int min_pone)
{
    model_setup(rows, cols, player);
    int model_pone = 0;
    for (int i = 0; i < n_keys; i++)
        model_pone += keys[i].pone;
    sv_pone *s = sv_pone_new(rows, cols, player);
    assert_non_null(s);
    sv_pone_counts c;
    module_walk w = { 0, 0, 0 };
    assert_int_equal(sv_pone_enumerate(s, &c, check_visit, &w), 0);
    assert_int_equal(w.unknown, 0); /* every key the module walks, the model reaches */
    assert_int_equal(w.visited, n_keys);
    assert_int_equal(c.keys, (uint64_t)n_keys);
    assert_int_equal(c.pone, (uint64_t)model_pone);
    assert_int_equal(w.pone, model_pone);
    assert_true(model_pone >= min_pone);
    /* sv_pone_solve() on each key, from a fresh context, agrees; the model's keys are all consistent */
    sv_pone *fresh = sv_pone_new(rows, cols, player);
    for (int i = 0; i < n_keys; i++) {
        assert_true(sv_pone_consistent(fresh, &keys[i].key));
        assert_int_equal(sv_pone_to_move(fresh, &keys[i].key), keys[i].kind == 0);
        int cell;
        assert_int_equal(sv_pone_solve(fresh, &keys[i].key, &cell), keys[i].pone);
        if (keys[i].pone && keys[i].kind == 0)
            assert_true(model_cell_wins(&keys[i].b, cell));
        else
            assert_int_equal(cell, -1);
    }
    printf("  %dx%d %s: %d reachable keys, %d pONE\n", rows, cols, player ? "white" : "black", n_keys, model_pone);
    sv_pone_free(fresh);
    sv_pone_free(s);
    model_free();
}

static void counts_2x2(void **state)
{
    (void)state;
    counts_match_the_model(2, 2, 0, 1);
    counts_match_the_model(2, 2, 1, 1);
}

static void counts_3x2(void **state)
{
    (void)state;
    counts_match_the_model(3, 2, 0, 1);
    counts_match_the_model(3, 2, 1, 1);
}

static void counts_2x3(void **state)
{
    (void)state;
    counts_match_the_model(2, 3, 0, 1);
    counts_match_the_model(2, 3, 1, 1);
}

/* Follows the module's cells from belief b (P to move) through every outcome; returns the games won. */
static long replay(sv_pone *s, const belief *b)
{
    sv_pone_key k = { b->own, b->seen, hidden_of(b) };
    int cell;
    assert_int_equal(sv_pone_solve(s, &k, &cell), 1);
    assert_true(cell >= 0 && cell < N && !((b->own | b->seen) >> cell & 1));
    belief rej, pl;
    model_attempt(b, cell, &rej, &pl);
    long won = rej.n ? replay(s, &rej) : 0;
    if (pl.n && model_joined(pl.boards[0], P))
        won += pl.n;
    else if (pl.n) {
        belief next;
        assert_true(model_reply(&pl, &next)); /* the opponent never joins */
        won += replay(s, &next);
        free(next.boards);
    }
    free(rej.boards);
    free(pl.boards);
    return won;
}

/* rules.md: the empty 3x3 board is pONE for Black in classical. */
static void empty_3x3_wins_for_black(void **state)
{
    (void)state;
    R = 3, C = 3, N = 9, P = 0;
    pow3[0] = 1;
    for (int i = 1; i < 16; i++)
        pow3[i] = pow3[i - 1] * 3;
    sv_pone *s = sv_pone_new(3, 3, 0);
    sv_pone_key empty = { 0, 0, 0 };
    int cell;
    assert_int_equal(sv_pone_solve(s, &empty, &cell), 1);
    belief start = { 0, 0, malloc(sizeof(uint32_t)), 1 };
    start.boards[0] = 0;
    long won = replay(s, &start);
    assert_true(won > 0);
    free(start.boards);
    sv_pone_free(s);
    /* White cannot: its first key (Black to move) is not pONE */
    s = sv_pone_new(3, 3, 1);
    assert_int_equal(sv_pone_solve(s, &empty, NULL), 0);
    sv_pone_free(s);
}

/* rules.md: a 2x2 Black opening at b1 or a2 wins surely in classical; a1 and b2 do not. */
static void openings_2x2(void **state)
{
    (void)state;
    model_setup(2, 2, 0);
    belief start = { 0, 0, malloc(sizeof(uint32_t)), 1 };
    start.boards[0] = 0;
    sv_pone *s = sv_pone_new(2, 2, 0);
    const char *names[4] = { "a1", "b1", "a2", "b2" };
    for (int x = 0; x < 4; x++) {
        bool sure = x == 1 || x == 2;
        assert_int_equal(model_cell_wins(&start, x), sure);
        sv_pone_key after = { 1ull << x, 0, 0 };
        int r = sv_pone_solve(s, &after, NULL);
        if (r != sure)
            fail_msg("2x2 opening %s: module says %d", names[x], r);
    }
    free(start.boards);
    sv_pone_free(s);
    /* docs/pone.md: White's a1 with two hidden Black stones: only a2 b2 is consistent (b1 with either would
     * have joined Black's sides), so b1 wins */
    s = sv_pone_new(2, 2, 1);
    sv_pone_key w = { 1, 0, 2 };
    int cell;
    assert_int_equal(sv_pone_solve(s, &w, &cell), 1);
    assert_int_equal(cell, 1);
    sv_pone_free(s);
    model_free();
}

/* Every key whose belief (the boards with h more opponent stones on unknown cells, the opponent not joined)
 * is not empty, reachable or not, in the model; the module's SV_PONE_ALL_CONSISTENT counts the same keys
 * and pONE keys. */
static void all_consistent_keys(int rows, int cols, int player)
{
    model_setup(rows, cols, player);
    model_free();
    long keys_n = 0, pone_n = 0;
    for (uint32_t split = 0; split < pow3[N]; split++) {
        uint64_t own = 0, seen = 0;
        for (int i = 0; i < N; i++)
            if (stone_at(split, i) == 1)
                own |= 1ull << i;
            else if (stone_at(split, i) == 2)
                seen |= 1ull << i;
        int mine = __builtin_popcountll(own), unknown = N - mine - __builtin_popcountll(seen);
        for (int h = 0; h <= unknown; h++) {
            int theirs = __builtin_popcountll(seen) + h, lead = P == 0 ? mine - theirs : theirs - mine;
            if (lead != 0 && lead != 1)
                continue;
            bool to_move = P == 0 ? lead == 0 : lead == 1;
            belief b = { own, seen, malloc(sizeof(uint32_t) * pow3[N]), 0 };
            for (uint32_t t = 0; t < pow3[N]; t++) { /* every board with P's stones at own and Q's at seen + h */
                bool fits = true;
                int extra = 0;
                for (int i = 0; i < N && fits; i++) {
                    int v = stone_at(t, i);
                    if (own >> i & 1)
                        fits = v == P + 1;
                    else if (seen >> i & 1)
                        fits = v == 2 - P;
                    else if (v == P + 1)
                        fits = false;
                    else
                        extra += v == 2 - P;
                }
                if (fits && extra == h && !model_joined(t, 1 - P))
                    b.boards[b.n++] = t;
            }
            bool won = b.n && model_joined(b.boards[0], P);
            if (b.n && !(won && to_move)) {
                keys_n++;
                pone_n += won || (to_move ? model_to_move(&b) : model_wait(&b));
            }
            free(b.boards);
        }
    }
    sv_pone *s = sv_pone_new(rows, cols, player);
    sv_pone_counts c;
    assert_int_equal(sv_pone_count_convention(s, SV_PONE_ALL_CONSISTENT, &c), 0);
    assert_int_equal(c.keys, (uint64_t)keys_n);
    assert_int_equal(c.pone, (uint64_t)pone_n);
    /* the thesis's states on 2x2 for Black, by hand: e = 0: 1; e = 1: own 1 with h 0 or 1: 8; e = 2: own 2
     * h 1: 6, own 1 seen 1 h 0: 12; e = 3: own 2 seen 1 with h 0 or 1: 24; 51 in all */
    if (rows == 2 && cols == 2 && player == 0) {
        assert_int_equal(sv_pone_count_convention(s, SV_PONE_THESIS, &c), 0);
        assert_int_equal(c.keys, 51);
        assert_true(c.pone > 0 && c.pone < 51);
    }
    sv_pone_free(s);
}

static void consistent_keys(void **state)
{
    (void)state;
    all_consistent_keys(2, 2, 0);
    all_consistent_keys(2, 2, 1);
    all_consistent_keys(3, 2, 0);
    all_consistent_keys(2, 3, 1);
}

static void inconsistent_keys_and_budget(void **state)
{
    (void)state;
    assert_null(sv_pone_new(9, 9, 0)); /* 81 cells */
    assert_null(sv_pone_new(3, 3, 2));
    sv_pone *s = sv_pone_new(3, 3, 0);
    sv_pone_key overlap = { 1, 1, 0 }, counts = { 1 | 2 | 4, 0, 0 }, crowded = { 1 | 2, 4, 6 };
    assert_int_equal(sv_pone_solve(s, &overlap, NULL), -1);
    assert_int_equal(sv_pone_solve(s, &counts, NULL), -1); /* Black three stones ahead */
    assert_int_equal(sv_pone_solve(s, &crowded, NULL), -1); /* 7 White stones on 6 free cells */
    /* White has joined its sides with a1 b1 c1 (learned): the game would be over */
    sv_pone_key white_joined = { 8 | 16 | 32 | 64, 1 | 2 | 4, 1 };
    assert_false(sv_pone_consistent(s, &white_joined));
    /* Black has joined with six stones (columns a and b), White to move with five stones: no room for them
     * on the three cells left */
    sv_pone_key no_room = { 1 | 8 | 64 | 2 | 16 | 128, 0, 5 };
    assert_false(sv_pone_consistent(s, &no_room));
    sv_pone_set_budget(s, 1);
    sv_pone_key empty = { 0, 0, 0 };
    assert_int_equal(sv_pone_solve(s, &empty, NULL), -2);
    sv_pone_set_budget(s, 0);
    int cell;
    assert_int_equal(sv_pone_solve(s, &empty, &cell), 1);
    assert_true(cell >= 0 && cell < 9);
    sv_pone_free(s);
}

/* ---- The programs ------------------------------------------------------------------------------------ */

E2E_FIXTURE(dir, "test-pone")

static void cli_json(void **state)
{
    (void)state;
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "'%s/arena' pone --board 2x2 --json", bin);
    char *json = sh_output(cmd);
    strict_json("arena pone --json", json);
    assert_non_null(strstr(json, "\"board\":\"2x2\""));
    model_setup(2, 2, 0);
    int black = 0;
    for (int i = 0; i < n_keys; i++)
        black += keys[i].pone;
    model_setup(2, 2, 1);
    int white = 0;
    for (int i = 0; i < n_keys; i++)
        white += keys[i].pone;
    model_free();
    assert_int_equal((int)json_number(json, "count"), black);
    assert_int_equal((int)json_number(json, "count_white"), white);
    free(json);
    snprintf(cmd, sizeof cmd, "'%s/arena' pone --board 2x2 --format json --player white --list", bin);
    json = sh_output(cmd);
    strict_json("arena pone --player white --list", json);
    assert_null(strstr(json, "\"count\":"));
    assert_int_equal((int)json_number(json, "count_white"), white);
    assert_non_null(strstr(json, "\"list_white\":[{\"view\":"));
    free(json);
    assert_int_equal(sh_run("'%s/arena' pone --board 9x9 >/dev/null 2>&1", bin), 2);
    assert_int_equal(sh_run("'%s/arena' pone --board 3x3 --variant abrupt >/dev/null 2>&1", bin), 2);
    assert_int_equal(sh_run("'%s/arena' pone --board 3x3 --player red >/dev/null 2>&1", bin), 2);
}

/* bin/pone against bin/random in classical 3x3, both in their sandboxes: legal games only, and as Black
 * (the empty board is pONE) every game won. */
static void bot_plays(void **state)
{
    (void)state;
    assert_int_equal(sh_run("'%s/arena' match --variant classical --board 3x3 --games 16 --openings none --quiet --db %s/m.db "
                            "--logs %s/logs '%s/pone' '%s/random --seed 4' >/dev/null",
                            bin, dir, dir, bin, bin), 0);
    char db[600];
    snprintf(db, sizeof db, "%s/m.db", dir);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), 16);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games WHERE reason <> 'connected'"), 0);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games g JOIN agents a ON a.id = g.black "
                                   "WHERE a.name = 'pone' AND winner = 'B'"), 8);
    /* 5x5: beyond the search at first, the bridge builder's moves; still legal */
    assert_int_equal(sh_run("'%s/arena' match --variant classical --board 5x5 --games 4 --quiet --db %s/m5.db "
                            "--logs %s/logs '%s/pone' '%s/random --seed 5' >/dev/null",
                            bin, dir, dir, bin, bin), 0);
    snprintf(db, sizeof db, "%s/m5.db", dir);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games WHERE reason <> 'connected'"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(counts_2x2),
        cmocka_unit_test(counts_3x2),
        cmocka_unit_test(counts_2x3),
        cmocka_unit_test(empty_3x3_wins_for_black),
        cmocka_unit_test(openings_2x2),
        cmocka_unit_test(consistent_keys),
        cmocka_unit_test(inconsistent_keys_and_budget),
        cmocka_unit_test(cli_json),
        cmocka_unit_test(bot_plays),
    };
    return cmocka_run_group_tests(tests, e2e_setup, e2e_teardown);
}
