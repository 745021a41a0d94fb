/* tests/unit/test_viewer.c — the game viewer's frames (viewer.h): random games in every variant, from random
 * openings of 0..4 stones and with the swap rule in hex, are played through the referee, stored, read back with
 * gv_build; each frame's true board equals the referee's game after that attempt (and the last the board
 * game_end reveals), each player's view equals the one the player rebuilds from the messages it received (its
 * game_start, its results, its turns' events), and what the frames say each player was told is what the
 * messages told it. A transcript the rules do not accept, and a missing game, are refused; the page and the JSON
 * carry hostile names escaped. The page opens at the end of a game, or at its forfeit (a game lost by an illegal
 * attempt gets a frame for that attempt, its cell read from the game's detail); a ply asked for overrides. */
#define _GNU_SOURCE
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "referee.h"
#include "test_sys.h"
#include "test_wire.h"
#include "viewer.h"

static char dir[64], path[128], err[512];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/arena-test-viewer-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(path, sizeof path, "%s/games.db", dir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return e2e_cleanup(dir);
}

/* The test's database, with two agents (the first named `black`) and a run. */
static store_db *open_store(const char *black, int64_t *a, int64_t *b, int64_t *run)
{
    store_db *s = store_open(path, NULL, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    *a = store_agent(s, black, "bin/a", "1", "aa");
    *b = store_agent(s, "b", "bin/b", "1", "bb");
    *run = store_run_begin(s, "match", "viewer test");
    assert_true(*a > 0 && *b > 0 && *run > 0);
    return s;
}

/* What the test expects of one frame, rebuilt from the referee's messages. */
typedef struct {
    char truth[HX_MAX_CELLS + 1], view[2][HX_MAX_CELLS + 1];
} expected;

/* Everything each player was told by the messages after the opening, in order. */
static hx_event told_log[2][HX_MAX_EVENTS];
static int n_told_log[2];

static const char mark[2] = { 'b', 'w' };

static void told_add(int p, hx_event ev)
{
    assert_true(n_told_log[p] < HX_MAX_EVENTS);
    told_log[p][n_told_log[p]++] = ev;
}

/* Player p's view after event ev, told to p (rows x cols board). */
static void learn(char *view, int p, hx_event ev, int cols)
{
    int mirror = ev.cell % cols * cols + ev.cell / cols;
    switch (ev.kind) {
    case HX_EV_PLACED: view[ev.cell] = mark[p]; break;
    case HX_EV_REJECTED:
    case HX_EV_COLLIDED:
    case HX_EV_OPP_PLACED: view[ev.cell] = mark[p ^ 1]; break;
    case HX_EV_SWAP: /* White's new stone at cell; Black's stone at its mirror is gone */
        view[mirror] = '-';
        view[ev.cell] = mark[HX_WHITE];
        break;
    case HX_EV_OPP_HIT:
    case HX_EV_OPP_HIT_AT: break;
    }
}

/* The player's opening from its game_start, in play order: its own stones and the opponent's it saw. */
static void opening_views(hx_referee *r, char view[2][HX_MAX_CELLS + 1])
{
    static pm_msg m, got;
    int cells = hx_cells(&r->game);
    for (int p = 0; p < 2; p++) {
        memset(view[p], '-', (size_t)cells);
        view[p][cells] = '\0';
        ref_game_start(r, p, 100, 9, &m);
        through_wire(&m, &got);
        for (int i = 0; i < got.n_own; i++)
            view[p][got.own[i]] = mark[p];
        for (int i = 0; i < got.n_seen; i++)
            view[p][got.seen[i]] = mark[p ^ 1];
    }
}

static void truth_of(const hx_game *g, char *out)
{
    for (int i = 0; i < hx_cells(g); i++)
        out[i] = "-bw"[hx_owner(g, i)];
    out[hx_cells(g)] = '\0';
}

/* Starts r from a random opening of 0..4 distinct stones that does not win. Returns its length. */
static int random_opening(hx_referee *r, rng_state *rng, hx_variant v, int rows, int cols, unsigned flags)
{
    char why[160];
    for (;;) {
        assert_int_equal(ref_init(r, 1, v, rows, cols, flags), 0);
        int k = (int)rng_below(rng, 5);
        uint16_t opening[4];
        for (int i = 0; i < k; i++)
            for (bool again = true; again;) {
                opening[i] = (uint16_t)rng_below(rng, (uint32_t)(rows * cols));
                again = false;
                for (int j = 0; j < i; j++)
                    again |= opening[j] == opening[i];
            }
        if (ref_opening(r, opening, k, why, sizeof why) == 0)
            return k;
    }
}

/* Plays one random game through the referee, filling exp[k] after each attempt k (exp[0]: after the opening
 * is told, the boards of frame `opening`). Returns the number of attempts. */
static int play_game(hx_referee *r, rng_state *rng, expected *exp, double *ms)
{
    static pm_msg m, got;
    int cols = hx_cols(&r->game), k = r->opening;
    char view[2][HX_MAX_CELLS + 1];
    opening_views(r, view);
    /* From here on each attempt's outcome is read from its own result message, as protocol 1 tells it (the
     * opening came as protocol 2's game_start) */
    ref_speaks(r, HX_BLACK, 1);
    ref_speaks(r, HX_WHITE, 1);
    memset(&exp[k], 0, sizeof exp[k]);
    n_told_log[0] = n_told_log[1] = 0;
    truth_of(&r->game, exp[k].truth);
    memcpy(exp[k].view, view, sizeof view);
    while (!hx_over(&r->game)) {
        int p = hx_to_move(&r->game);
        expected *e = &exp[++k];
        int cell = hx_random_legal(&r->game, rng);
        int outcome = ref_move(r, cell, &m);
        assert_true(outcome >= 0);
        through_wire(&m, &got);
        hx_event own = { .cell = got.cell };
        own.kind = outcome == HX_PLACED ? HX_EV_PLACED : outcome == HX_REJECTED ? HX_EV_REJECTED
                 : outcome == HX_COLLISION ? HX_EV_COLLIDED : HX_EV_SWAP;
        if (outcome == HX_SWAPPED) { /* White learns its new stone; the Black stone it saw is gone */
            own.cell = hx_move_at(&r->game, hx_num_attempts(&r->game) - 1).cell;
            view[p][own.cell % cols * cols + own.cell / cols] = '-';
        }
        learn(view[p], p, own, cols);
        told_add(p, own);
        ms[k - 1] = (double)rng_below(rng, 5000) / 10.0;
        if (!hx_over(&r->game)) { /* the player to move is told what happened since its last turn */
            int q = hx_to_move(&r->game);
            ref_turn(r, &m);
            through_wire(&m, &got);
            for (int i = 0; i < got.n_events; i++) {
                learn(view[q], q, got.events[i], cols);
                told_add(q, got.events[i]);
            }
        }
        truth_of(&r->game, e->truth);
        memcpy(e->view, view, sizeof view);
    }
    return k;
}

/* The events told to each player as the frames say (after the opening), in order, against the messages. The
 * turn messages tell a player late (at its next turn), so the lists are compared as sequences. */
static void compare_told(const gv_game *g, int n, const char *what)
{
    for (int p = 0; p < 2; p++) {
        static hx_event a[HX_MAX_EVENTS];
        int na = 0, nb = n_told_log[p];
        for (int k = g->opening + 1; k <= n; k++)
            for (int i = 0; i < g->frames[k].n_told[p]; i++) {
                const gv_told *t = &g->frames[k].told[p][i];
                a[na++] = (hx_event){ t->kind, t->kind == HX_EV_OPP_HIT ? 0 : t->cell };
            }
        /* what the messages told is a prefix of the frames' list; the rest concerns the last attempts, which
         * the game ended before a turn could carry, and is never the player's own result */
        if (nb > na || memcmp(a, told_log[p], (size_t)nb * sizeof a[0]) != 0)
            fail_msg("%s: player %d was told other events than the frames say", what, p);
        for (int i = nb; i < na; i++)
            assert_true(a[i].kind == HX_EV_OPP_HIT || a[i].kind == HX_EV_OPP_HIT_AT || a[i].kind == HX_EV_OPP_PLACED);
    }
}

static void compare(const gv_game *g, const expected *exp, int n, const hx_referee *r, const char *what)
{
    assert_int_equal(g->n_frames, n + 1);
    for (int k = g->opening; k <= n; k++) {
        const gv_frame *x = &g->frames[k];
        if (strcmp(x->truth, exp[k].truth) != 0)
            fail_msg("%s, frame %d: true board %s, the referee's %s", what, k, x->truth, exp[k].truth);
        for (int p = 0; p < 2; p++) {
            const char *want = exp[k].view[p];
            char board[HX_MAX_CELLS + 1];
            /* hex: the game ended before the loser's turn told it the winning stone; game_end shows the board */
            if (k == n && hx_variant_of(&r->game) == HX_HEX && p != x->player) {
                truth_of(&r->game, board);
                want = board;
            }
            if (strcmp(x->view[p], want) != 0)
                fail_msg("%s, frame %d: %s's view %s, rebuilt from its messages %s", what, k, p ? "White" : "Black",
                         x->view[p], want);
        }
        assert_int_equal(x->opening, k >= 1 && k <= g->opening);
        if (k > 0)
            assert_int_equal(x->player, hx_move_at(&r->game, k - 1).player);
    }
    /* the opening's frames end on the board game_start told */
    for (int k = 1; k <= g->opening; k++)
        assert_true(g->frames[k].opening && g->frames[k].outcome == HX_PLACED);
    compare_told(g, n, what);
}

static void frames_equal_an_independent_replay(void **state)
{
    (void)state;
    int64_t a, b, run;
    store_db *s = open_store("a", &a, &b, &run);
    static hx_referee r;
    static expected exp[HX_MAX_ATTEMPTS + 1];
    static double ms[HX_MAX_ATTEMPTS];
    rng_state rng;
    rng_seed(&rng, 36);
    long frames = 0;
    for (int v = 0; v < HX_VARIANT_COUNT; v++)
        for (int game = 0; game < 40; game++) {
            int rows = 2 + (int)rng_below(&rng, 5), cols = game % 4 == 0 ? rows : 2 + (int)rng_below(&rng, 5);
            unsigned flags = v == HX_HEX && rows == cols && game % 2 == 0 ? HX_SWAP_RULE : 0;
            int opening = random_opening(&r, &rng, (hx_variant)v, rows, cols, flags);
            int n = play_game(&r, &rng, exp, ms);
            double think[HX_MAX_ATTEMPTS];
            for (int i = 0; i < n; i++)
                think[i] = i < opening ? -1 : ms[i];
            store_game_rec rec = { .run = run, .black = game % 2 ? a : b, .white = game % 2 ? b : a, .seed = 1,
                                   .winner = hx_winner(&r.game), .reason = HX_END_CONNECTED, .seconds = 0.1,
                                   .started = "2026-11-26T00:00:00Z", .finished = "2026-11-26T00:00:01Z",
                                   .game = &r.game, .opening = opening, .think_ms = think };
            int64_t id = store_game(s, &rec);
            assert_true(id > 0);
            gv_game g;
            if (gv_build(s, id, &g, err, sizeof err) != GV_OK)
                fail_msg("game %lld: %s", (long long)id, err);
            char what[96];
            snprintf(what, sizeof what, "%s %dx%d game %d (opening %d)", hx_variant_name((hx_variant)v), rows, cols,
                     game, opening);
            assert_int_equal(g.opening, opening);
            compare(&g, exp, n, &r, what);
            double clock[2] = { 0, 0 };
            for (int k = opening + 1; k <= n; k++)
                clock[g.frames[k].player] += ms[k - 1];
            assert_true(fabs(g.frames[n].clock[0] - clock[0]) < 1e-6 && fabs(g.frames[n].clock[1] - clock[1]) < 1e-6);
            frames += g.n_frames;
            gv_free(&g);
        }
    printf("%ld frames compared\n", frames);
    store_close(s);
}

/* The page and the JSON of a game whose players have hostile names, as strings. */
static char *written(const gv_game *g, bool html)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    if (html)
        gv_write_html(g, 3, f);
    else
        gv_write_json(g, f);
    assert_int_equal(fclose(f), 0);
    return text;
}

/* A game with clocks: each player's clock replayed from its time control over the stored thinking times (charged
 * per attempt, the increment per completed move, none for a rejection or the game's last move). */
static void game_clocks_are_replayed(void **state)
{
    (void)state;
    int64_t a, b, run;
    store_db *s = open_store("a", &a, &b, &run);
    hx_game h;
    start(&h, HX_CLASSICAL, 2, 2, 0);
    play(&h, "a1 a1 b1 a2", NULL); /* White's a1 is rejected; Black's a2 wins */
    double think[] = { 500, 200, 300, 100 };
    store_game_rec rec = { .run = run, .black = a, .white = b, .seed = 1, .winner = hx_winner(&h),
                           .reason = HX_END_CONNECTED, .seconds = 0.1, .started = "2026-11-26T00:00:00Z",
                           .finished = "2026-11-26T00:00:01Z", .game = &h, .think_ms = think,
                           .time_control = { "10+1", "2/5" }, .clock_ms = { 10400, 4500 } };
    int64_t id = store_game(s, &rec);
    assert_true(id > 0);
    gv_game g;
    assert_int_equal(gv_build(s, id, &g, err, sizeof err), GV_OK);
    assert_string_equal(g.tc[HX_BLACK], "10+1");
    assert_string_equal(g.tc[HX_WHITE], "2/5");
    static const double left[5][2] = { { 10000, 5000 }, { 10500, 5000 }, { 10500, 4800 }, { 10500, 4500 },
                                       { 10400, 4500 } };
    assert_int_equal(g.n_frames, 5);
    for (int k = 0; k < 5; k++)
        for (int p = 0; p < 2; p++)
            if (fabs(g.frames[k].left[p] - left[k][p]) > 1e-6)
                fail_msg("frame %d: %s's clock %.1f ms, expected %.1f", k, p ? "White" : "Black", g.frames[k].left[p],
                         left[k][p]);
    char *json = written(&g, false);
    assert_non_null(strstr(json, "\"time_control\":[\"10+1\",\"2/5\"]"));
    assert_non_null(strstr(json, "\"left\":[10400.000,4500.000]"));
    free(json);
    gv_free(&g);
    store_close(s);
}

/* The page of g opened at `ply` (-1: none asked for), as a string. */
static char *page_at(const gv_game *g, int ply)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    gv_write_html(g, ply, f);
    assert_int_equal(fclose(f), 0);
    return text;
}

/* Stores classical 3x3 `moves` ending as `reason` (detail: `detail`, winner Black) and builds its frames. */
static int64_t stored(store_db *s, int64_t a, int64_t b, int64_t run, const char *moves, hx_end_reason reason,
                      const char *detail, gv_game *g)
{
    hx_game h;
    start(&h, HX_CLASSICAL, 3, 3, 0);
    play(&h, moves, NULL);
    store_game_rec rec = { .run = run, .black = a, .white = b, .seed = 1, .winner = HX_BLACK, .reason = reason,
                           .detail = detail, .seconds = 0.1, .started = "2026-11-26T00:00:00Z",
                           .finished = "2026-11-26T00:00:01Z", .game = &h };
    int64_t id = store_game(s, &rec);
    assert_true(id > 0);
    if (gv_build(s, id, g, err, sizeof err) != GV_OK)
        fail_msg("game %lld: %s", (long long)id, err);
    return id;
}

/* Where the page opens: a connected game at its last attempt; a game lost by an illegal attempt at that attempt
 * (one more frame, not played: the boards of the frame before, the cell the detail names, marked); a crash at the
 * last attempt before it; ?ply (the ply argument) overrides. */
static void the_page_opens_at_the_end_or_the_forfeit(void **state)
{
    (void)state;
    int64_t a, b, run;
    store_db *s = open_store("a", &a, &b, &run);
    gv_game g;
    char *html, *json;

    /* connected: Black a1 a2 a3 joins top and bottom while White plays b1 b2 */
    stored(s, a, b, run, "a1 b1 a2 b2 a3", HX_END_CONNECTED, NULL, &g);
    assert_int_equal(g.n_frames, 6);
    assert_int_equal(g.forfeit, -1);
    assert_int_equal(gv_start(&g), 5);
    html = page_at(&g, -1);
    assert_non_null(strstr(html, "<body data-ply=\"5\">"));
    assert_null(strstr(html, "key illegal")); /* no forfeit: no such legend entry */
    free(html);
    html = page_at(&g, 2);
    assert_non_null(strstr(html, "<body data-ply=\"2\">"));
    free(html);
    json = written(&g, false);
    assert_non_null(strstr(json, "\"forfeit\":null"));
    free(json);
    gv_free(&g);

    /* illegal: Black a1, White a1 rejected (White learns it), White b2, Black b1, then White a1 again */
    stored(s, a, b, run, "a1 a1 b2 b1", HX_END_ILLEGAL, "a1: the mover already knows the opponent stone there", &g);
    assert_int_equal(g.n_frames, 6);
    assert_int_equal(g.forfeit, 5);
    assert_int_equal(gv_start(&g), 5);
    const gv_frame *x = &g.frames[5];
    assert_true(x->illegal && !g.frames[4].illegal);
    assert_int_equal(x->player, HX_WHITE);
    assert_int_equal(x->cell, 0);
    assert_string_equal(x->cell_name, "a1");
    assert_int_equal(x->to_move, HX_NOBODY);
    assert_string_equal(x->truth, g.frames[4].truth);
    assert_string_equal(x->view[1], g.frames[4].view[1]);
    assert_string_equal(x->truth, "bb--w----");
    assert_string_equal(x->view[1], "b---w----"); /* Black's a1, learned by the rejection, and its own b2 */
    html = page_at(&g, -1);
    assert_non_null(strstr(html, "<body data-ply=\"5\">"));
    assert_non_null(strstr(html, "attempt 5 of 5"));
    assert_non_null(strstr(html, "4 attempts and the illegal one"));
    assert_non_null(strstr(html, "<b class=\"key illegal\">"));
    free(html);
    html = page_at(&g, 1);
    assert_non_null(strstr(html, "<body data-ply=\"1\">"));
    free(html);
    json = written(&g, false);
    assert_non_null(strstr(json, "\"forfeit\":5,"));
    assert_non_null(strstr(json, "{\"n\":5,\"player\":\"W\",\"cell\":\"a1\",\"outcome\":\"illegal\""));
    free(json);
    gv_free(&g);

    /* an illegal attempt off the board: the frame is there, with no cell */
    stored(s, a, b, run, "a1", HX_END_ILLEGAL, "cell 99: off the 3x3 board", &g);
    assert_int_equal(g.n_frames, 3);
    assert_true(g.frames[2].illegal);
    assert_int_equal(g.frames[2].cell, -1);
    assert_string_equal(g.frames[2].cell_name, "");
    assert_int_equal(gv_start(&g), 2);
    gv_free(&g);

    /* a crash at White's turn: the last attempt before it, no frame added */
    stored(s, a, b, run, "a1 b1 a2", HX_END_CRASH, "exited with status 7", &g);
    assert_int_equal(g.n_frames, 4);
    assert_int_equal(g.forfeit, 3);
    assert_false(g.frames[3].illegal);
    assert_int_equal(gv_start(&g), 3);
    html = page_at(&g, -1);
    assert_non_null(strstr(html, "<body data-ply=\"3\">"));
    assert_null(strstr(html, "key illegal"));
    free(html);
    html = page_at(&g, 99); /* clamped */
    assert_non_null(strstr(html, "<body data-ply=\"3\">"));
    free(html);
    gv_free(&g);
    store_close(s);
}

static void bad_games_are_refused_and_names_escaped(void **state)
{
    (void)state;
    int64_t a, b, run;
    store_db *s = open_store("</script><b>x\"&", &a, &b, &run);
    hx_game h;
    start(&h, HX_ABRUPT, 2, 2, 0);
    play(&h, "a1 a1 b2 b1 a2", NULL);
    store_game_rec rec = { .run = run, .black = a, .white = b, .seed = 1, .winner = hx_winner(&h),
                           .reason = HX_END_CONNECTED, .seconds = 0.1, .started = "2026-11-26T00:00:00Z",
                           .finished = "2026-11-26T00:00:01Z", .game = &h };
    int64_t id = store_game(s, &rec);
    assert_true(id > 0);
    gv_game g;
    assert_int_equal(gv_build(s, id, &g, err, sizeof err), GV_OK);
    assert_int_equal(g.n_frames, 6);
    assert_string_equal(g.frames[2].truth, "b---");  /* a1 collided: White learns Black's stone */
    assert_string_equal(g.frames[2].view[1], "b---");
    assert_int_equal(g.frames[2].outcome, HX_COLLISION);
    char *html = written(&g, true), *json = written(&g, false);
    assert_null(strstr(html, "</script><b>"));
    assert_non_null(strstr(html, "&lt;/script&gt;&lt;b&gt;x&quot;&amp;"));
    assert_non_null(strstr(html, "\\u003c/script\\u003e\\u003cb\\u003ex\\\"\\u0026"));
    assert_non_null(strstr(html, "<body data-ply=\"3\">"));
    assert_non_null(strstr(json, "\"black\":\"</script><b>x\\\"&\""));
    assert_non_null(strstr(json, "{\"n\":2,\"player\":\"W\",\"cell\":\"a1\",\"outcome\":\"collision\""));
    for (const char *p = html; (p = strstr(p, "http")) != NULL; p++) /* no network resource */
        assert_true(strncmp(p, "http://www.w3.org/2000/svg", 26) == 0);
    free(html);
    free(json);
    gv_free(&g);

    assert_int_equal(gv_build(s, id + 100, &g, err, sizeof err), GV_NO_GAME);
    gv_free(&g);
    store_close(s);
    /* a transcript whose outcome the rules do not give */
    sqlite3 *d;
    char sql[200];
    snprintf(sql, sizeof sql, "UPDATE attempts SET outcome = 'placed' WHERE game_id = %lld AND n = 2", (long long)id);
    assert_int_equal(sqlite3_open(path, &d), SQLITE_OK);
    assert_int_equal(sqlite3_exec(d, sql, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_changes(d), 1);
    sqlite3_close(d);
    s = store_open(path, NULL, err, sizeof err);
    assert_int_equal(gv_build(s, id, &g, err, sizeof err), GV_BAD_GAME);
    assert_non_null(strstr(err, "attempt 2 (W a1 placed)"));
    gv_free(&g);
    store_close(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(frames_equal_an_independent_replay, setup, teardown),
        cmocka_unit_test_setup_teardown(bad_games_are_refused_and_names_escaped, setup, teardown),
        cmocka_unit_test_setup_teardown(game_clocks_are_replayed, setup, teardown),
        cmocka_unit_test_setup_teardown(the_page_opens_at_the_end_or_the_forfeit, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
