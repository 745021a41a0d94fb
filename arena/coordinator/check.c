/* arena/coordinator/check.c — `arena check`: one bot's conformance run and its checklist (check.h). Each phase is a
 * small league written as config text and played through a session, so the bot meets exactly what it meets in a
 * real league; the checklist is read back from the stored games, and a forfeit's log (its last lines) from the
 * logs of this run, the only check logs in the directory (the previous run's are removed when one starts). */
#include "check.h"

#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "query.h"
#include "session.h"
#include "tail.h"

static ck_item *item(ck_report *r, ck_status st, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static ck_item *item(ck_report *r, ck_status st, const char *what, const char *fmt, ...)
{
    if (r->n == CK_MAX_ITEMS)
        return NULL;
    ck_item *it = &r->items[r->n++];
    snprintf(it->what, sizeof it->what, "%s", what);
    it->status = st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(it->detail, sizeof it->detail, fmt, ap);
    va_end(ap);
    r->failed += st == CK_FAILED;
    return it;
}

/* "classical, abrupt" and "3x3, 4x4" of a set of variants and boards. */
static void list_variants(uint32_t variants, char *out, size_t size)
{
    size_t k = 0;
    out[0] = '\0';
    for (int v = 0; v < HX_VARIANT_COUNT && k < size; v++)
        if (variants >> v & 1)
            k += (size_t)snprintf(out + k, size - k, "%s%s", k ? ", " : "", hx_variant_name((hx_variant)v));
}

static void list_boards(const cfg_games *g, char *out, size_t size)
{
    size_t k = 0;
    out[0] = '\0';
    for (int b = 0; b < g->n_boards && k < size; b++)
        k += (size_t)snprintf(out + k, size - k, "%s%dx%d", k ? ", " : "", g->boards[b][0], g->boards[b][1]);
}

/* Asks the bot what it plays (its hello), as a league does before it schedules anything. */
static int ask(const ck_opts *o, pm_msg *hello, char *err, size_t errlen)
{
    static cfg_agent ca;
    static ag_command cmd;
    memset(&ca, 0, sizeof ca);
    snprintf(ca.name, sizeof ca.name, "bot");
    snprintf(ca.cmdline, sizeof ca.cmdline, "%s", o->bot);
    ca.memory_mb = ca.cpu_seconds = ca.open_files = ca.pids = ca.tmp_mb = ca.log_mb = ca.disk_mb = ca.files = -1;
    ca.sandbox = o->sandbox;
    const char *key;
    if (ss_agent_setup(&ca, &cmd, NULL, &key, err, errlen) != 0)
        return -2;
    rn_agent agent = { "bot", &cmd, NULL, false, NULL, NULL };
    volatile sig_atomic_t stop = 0;
    rn_config rc = { .agents = &agent, .n_agents = 1, .handshake_ms = o->handshake_ms, .log_dir = o->logs,
                     .log_prefix = "check-hello", .stop = &stop };
    return rn_probe(&rc, 0, hello, err, errlen) == RN_DONE ? 0 : -1;
}

/* The league config of one phase (a bot that speaks protocol 1 gets its openings replayed: the rest is checked).
 * With clocks: a sudden-death game clock of 20 budgets per player (so clock_ms / 20, the plan protocol.md suggests
 * for moves_to_go 0, is one budget), the swap rule on square hex boards, and openings of one stone, after which
 * White moves first and may swap. */
static void phase_config(const ck_opts *o, const char *name, const char *variants, const char *boards, int games,
                         bool openings, bool restart, bool clocks, bool replay, char *out, size_t size)
{
    char clock[128] = "";
    if (clocks)
        snprintf(clock, sizeof clock, "time_control = %u.%03u\nswap = yes\nopening_stones = 1\n",
                 o->move_ms * 20 / 1000, o->move_ms * 20 % 1000);
    else if (openings) /* one stone of each colour: each player is given an own stone and one of the opponent's */
        snprintf(clock, sizeof clock, "opening_stones = 2\n");
    snprintf(out, size,
             "[league]\nname = check-%s\nvariants = %s\nboards = %s\ngames = %d\nmove_time_ms = %u\n"
             "handshake_ms = %u\nopenings = %s\n%s%sconcurrency = 1\nsandbox = %s\n"
             "[agent bot]\ncommand = %s\nvariants = %s\nboards = %s\n%s"
             "[agent reference]\ncommand = %s\n",
             name, variants, boards, games, o->move_ms, o->handshake_ms, openings ? "random" : "none", clock,
             replay ? "openings_compat = replay\n" : "", o->sandbox ? "on" : "off",
             o->bot, variants, boards, restart ? "restart = game\n" : "", o->opponent);
}

typedef struct {
    long attempts, rejected, collided, timed;
    double ms_max, ms_sum;
    long own_games, seen_games;      /* games from an opening that gave it own stones / showed it the opponent's */
    long ignored;                    /* games it forfeited on a cell of its opening */
    char ignored_first[1200];        /* the first of them, as an item's detail */
    bool classical_3x3;              /* classical 3x3 was played (the rejections hint would change nothing) */
} ck_use;

/* The bot's forfeit of one game. */
typedef struct {
    bool lost;
    int rank;                        /* which forfeit of a variant and board is shown: 3 a move out of turn,
                                      * 2 a cell of its opening, 1 any other */
    char opening[160];               /* "ignores the opening stone b2 given in game_start's own", or "" */
} ck_forfeit;

/* The opening stone an illegal attempt was made on: the cell of an "illegal" forfeit's detail ("b2: ...") when the
 * game's opening had it as one of the bot's own stones (game_start's own) or, in hex, one of the opponent's it was
 * shown (seen). Not after a swap (a stone changed hands). */
static void opening_fault(const store_game_row *g, int bot, const char opening[][8], const int *owner, int n,
                          bool swapped, ck_forfeit *f)
{
    if (strcmp(g->reason, "illegal") != 0 || swapped)
        return;
    const char *colon = strchr(g->detail, ':');
    size_t len = colon ? (size_t)(colon - g->detail) : 0;
    for (int i = 0; i < n && len > 0; i++)
        if (strlen(opening[i]) == len && strncmp(opening[i], g->detail, len) == 0 &&
            (owner[i] == bot || strcmp(g->variant, "hex") == 0)) {
            snprintf(f->opening, sizeof f->opening, "ignores the opening stone %.7s given in game_start's %s", opening[i],
                     owner[i] == bot ? "own (its own stone)" : "seen (the opponent's)");
            f->rank = 2;
        }
}

/* The bot's side of one stored game: its attempts after the opening, what the opening gave it, and its forfeit. */
static ck_forfeit read_game(store_db *db, const store_game_row *g, ck_use *u)
{
    int bot = strcmp(g->black, "bot") == 0 ? HX_BLACK : HX_WHITE;
    store_transcript *t = store_transcript_open(db, g->id);
    store_attempt_row a;
    char opening[HX_MAX_CELLS][8];
    int owner[HX_MAX_CELLS], n = 0;
    bool own = false, seen = false, swapped = false;
    while (t && store_transcript_next(t, &a) == 1) {
        if (a.n <= g->opening && n < HX_MAX_CELLS) {
            snprintf(opening[n], sizeof opening[n], "%s", a.cell);
            owner[n++] = a.player;
            own |= a.player == bot;
            seen |= a.player != bot && strcmp(g->variant, "hex") == 0;
            continue;
        }
        swapped |= strcmp(a.outcome, "swap") == 0;
        if (a.player != bot || a.n <= g->opening)
            continue;
        u->attempts++;
        u->rejected += strcmp(a.outcome, "rejected") == 0;
        u->collided += strcmp(a.outcome, "collision") == 0;
        if (isfinite(a.ms)) {
            u->timed++;
            u->ms_sum += a.ms;
            if (a.ms > u->ms_max)
                u->ms_max = a.ms;
        }
    }
    store_transcript_end(t);
    u->own_games += own;
    u->seen_games += seen;
    ck_forfeit f = { .lost = strcmp(g->reason, "connected") != 0 && g->winner != bot, .rank = 1 };
    if (!f.lost)
        return f;
    if (strcmp(g->reason, "protocol_error") == 0 &&
        (strstr(g->detail, "out of turn") || strstr(g->detail, "while not in a game")))
        f.rank = 3;
    else
        opening_fault(g, bot, opening, owner, n, swapped, &f);
    return f;
}

/* The name of the log of the bot process that played game `game` in league `league` (its prefix, e.g.
 * "league-check-openings"): the one of DIR/PREFIX-bot-N.log that says "game GAME: forfeit". 0, or -1 when none
 * does. */
static int forfeit_log(const char *dir, const char *prefix, long long game, char *path, size_t size)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    char head[160], mark[64];
    snprintf(head, sizeof head, "%s-bot-", prefix);
    snprintf(mark, sizeof mark, "] game %lld: forfeit (", game);
    int rc = -1;
    for (struct dirent *e; rc != 0 && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (strncmp(e->d_name, head, strlen(head)) != 0 || n < 4 || strcmp(e->d_name + n - 4, ".log") != 0)
            continue;
        snprintf(path, size, "%s/%s", dir, e->d_name);
        char *text, err[128];
        size_t len;
        int64_t skipped;
        if (tail_read(path, 64 * 1024, &text, &len, &skipped, err, sizeof err) != 0)
            continue;
        rc = strstr(text, mark) ? 0 : -1;
        free(text);
    }
    closedir(d);
    return rc;
}

#define CK_TAIL_LINES 10
#define CK_TAIL_BYTES 900

/* The last lines the bot wrote before game `game`'s forfeit in the log at path (stdout and stderr; the arena's own
 * "[arena ...]" lines left out), up to CK_TAIL_LINES lines and CK_TAIL_BYTES bytes, each after "\n| ", bytes
 * below 0x20 (but tabs) as '?'. "" when it wrote none. */
static void log_tail(const char *path, long long game, char *out, size_t size)
{
    out[0] = '\0';
    char *text, err[128], mark[64];
    size_t len;
    int64_t skipped;
    if (tail_read(path, 64 * 1024, &text, &len, &skipped, err, sizeof err) != 0)
        return;
    snprintf(mark, sizeof mark, "] game %lld: forfeit (", game);
    char *end = strstr(text, mark);
    if (end) /* back to the start of that line */
        while (end > text && end[-1] != '\n')
            end--;
    else
        end = text + len;
    const char *lines[CK_TAIL_LINES];
    size_t lens[CK_TAIL_LINES];
    int n = 0;
    size_t bytes = 0;
    for (char *p = end; p > text && n < CK_TAIL_LINES;) { /* from the last line back */
        char *stop = p - 1; /* the newline that ends this line */
        char *start = stop;
        while (start > text && start[-1] != '\n')
            start--;
        p = start;
        size_t l = (size_t)(stop - start);
        if (strncmp(start, "[arena ", 7) == 0 || (l == 0 && n == 0))
            continue;
        if (l > 160)
            l = 160;
        if (bytes + l > CK_TAIL_BYTES)
            break;
        bytes += l;
        lines[n] = start;
        lens[n++] = l;
    }
    size_t k = 0;
    for (int i = n - 1; i >= 0 && k + 4 < size; i--) {
        k += (size_t)snprintf(out + k, size - k, "\n| ");
        for (size_t j = 0; j < lens[i] && k + 1 < size; j++) {
            unsigned char c = (unsigned char)lines[i][j];
            out[k++] = c < 0x20 && c != '\t' ? '?' : c == 0x7f ? '?' : (char)c;
        }
        out[k < size ? k : size - 1] = '\0';
    }
    free(text);
}

/* "its log: PATH; its last lines before the forfeit:\n| ..." for game `game` of the phase's league, or "" when no
 * log names it. */
static void forfeit_lines(const ck_opts *o, const char *phase, long long game, char *out, size_t size)
{
    char prefix[96], path[1200], lines[CK_TAIL_BYTES + 4 * CK_TAIL_LINES + 8];
    out[0] = '\0';
    snprintf(prefix, sizeof prefix, "league-check-%s", phase);
    if (forfeit_log(o->logs, prefix, game, path, sizeof path) != 0)
        return;
    log_tail(path, game, lines, sizeof lines);
    snprintf(out, size, "; its log: %.1100s%s%.1300s", path,
             lines[0] ? "; the last lines it wrote before the forfeit:" : "", lines);
}

/* The league just played as items: one for the phase when the bot forfeited nothing, else one per variant and
 * board where it did, with the forfeit that explains most (a move out of turn before what may follow from it, a
 * cell of its opening before other forfeits), the reasons counted, and the last lines of the bot's log. */
static int read_phase(const ck_opts *o, int64_t league, const char *name, const char *phase, ck_report *r, ck_use *u,
                      char *err, size_t errlen)
{
    bool bad_db;
    store_db *db = store_open(o->db, &bad_db, err, errlen);
    if (!db)
        return -1;
    long phase_games = 0;
    int pairs = 0, failed = r->failed;
    for (int v = 0; v < HX_VARIANT_COUNT; v++)
        for (int b = 0; b < o->boards.n_boards; b++) {
            store_filter f = { .league = league, .by_variant = true, .variant = (hx_variant)v,
                               .rows = o->boards.boards[b][0], .cols = o->boards.boards[b][1] };
            store_games *q = store_query(db, &f);
            store_game_row g;
            long games = 0, lost = 0, out_of_turn = 0;
            int best = 0;
            long long best_game = 0;
            char first[600] = "", reasons[200] = "";
            struct { char reason[32]; long n; } tally[8];
            int n_tally = 0;
            while (q && store_games_next(q, &g) == 1) {
                games++;
                ck_forfeit ff = read_game(db, &g, u);
                u->classical_3x3 |= v == HX_CLASSICAL && g.rows == 3 && g.cols == 3;
                if (!ff.lost)
                    continue;
                lost++;
                out_of_turn += ff.rank == 3;
                int t = 0;
                while (t < n_tally && strcmp(tally[t].reason, g.reason) != 0)
                    t++;
                if (t == n_tally && n_tally < 8) {
                    snprintf(tally[n_tally].reason, sizeof tally[n_tally].reason, "%s", g.reason);
                    tally[n_tally++].n = 0;
                }
                if (t < n_tally)
                    tally[t].n++;
                if (ff.opening[0] && u->ignored++ == 0)
                    snprintf(u->ignored_first, sizeof u->ignored_first, "%s: %s %dx%d %s, game %lld: %s: %s "
                             "(arena show --db %s %lld)", ff.opening, hx_variant_name((hx_variant)v), g.rows, g.cols,
                             phase, (long long)g.id, g.reason, g.detail, o->db, (long long)g.id);
                if (ff.rank <= best)
                    continue;
                best = ff.rank;
                best_game = g.id;
                snprintf(first, sizeof first, "%s%s%s: %s (game %lld: arena show --db %s %lld)",
                         ff.rank == 3 ? "it sent a move before its turn: " : ff.opening,
                         ff.rank == 2 ? ": " : "", g.reason, g.detail, (long long)g.id, o->db, (long long)g.id);
            }
            store_games_end(q);
            phase_games += games;
            pairs += games > 0;
            if (!lost)
                continue;
            size_t k = 0;
            for (int t = 0; t < n_tally && n_tally > 1; t++)
                k += (size_t)snprintf(reasons + k, sizeof reasons - k, "%s%ld %s", t ? ", " : " (",
                                      tally[t].n, tally[t].reason);
            if (n_tally > 1)
                snprintf(reasons + k, sizeof reasons - k, ")");
            char lines[2600];
            forfeit_lines(o, name, best_game, lines, sizeof lines);
            char what[96];
            snprintf(what, sizeof what, "%s %dx%d %s", hx_variant_name((hx_variant)v), o->boards.boards[b][0],
                     o->boards.boards[b][1], phase);
            item(r, CK_FAILED, what, "forfeited %ld of %ld games%s; %s %s%s%s", lost, games, reasons,
                 lost > 1 ? "the first that explains most:" : "the forfeit:", first,
                 out_of_turn && lost > out_of_turn ? " (the other forfeits may follow from it: a move sent early "
                 "answers the next turn)" : "", lines);
        }
    store_close(db);
    if (r->failed == failed)
        item(r, CK_OK, phase, "%ld games on %d variant%s and board%s, no forfeit", phase_games, pairs,
             pairs == 1 ? "" : "s", pairs == 1 ? "" : "s");
    r->games += phase_games;
    return 0;
}

/* Plays one phase as a league session; returns its league id (0: it could not start: an item says why). */
static int64_t play_phase(const ck_opts *o, const char *text, const char *what, ck_report *r)
{
    ss_league_opts lo = { .text = text, .config = what, .db = o->db, .logs = o->logs, .fresh = true };
    ss_session *s;
    char err[1024];
    int rc = ss_open_league(&lo, &s, err, sizeof err);
    int64_t league = 0;
    if (rc == SS_OK) {
        ss_callbacks cb = { .quiet = true };
        if (ss_run(s, &cb, err, sizeof err) == RN_DONE)
            league = ss_summary_of(s)->id;
    }
    ss_close(s);
    if (!league)
        item(r, CK_FAILED, what, "the run did not complete: %s", err);
    return league;
}

static void summarise_use(const ck_opts *o, const ck_use *u, ck_report *r)
{
    if (u->ignored > 0)
        item(r, CK_FAILED, "opening stones", "in %ld game%s it attempted a cell of its opening; the first: %s "
             "(read game_start's own, seen and hidden: docs/protocol.md#openings)", u->ignored,
             u->ignored == 1 ? "" : "s", u->ignored_first);
    else if (u->own_games > 0)
        item(r, CK_OK, "opening stones", "given own stones in %ld games (and shown the opponent's in %ld), it never "
             "attempted one", u->own_games, u->seen_games);
    else
        item(r, CK_SKIPPED, "opening stones", "no game gave it an opening stone of its own");
    if (u->rejected + u->collided > 0)
        item(r, CK_OK, "rejections and collisions", "%ld rejected and %ld colliding attempts, each answered",
             u->rejected, u->collided);
    else if (u->classical_3x3)
        item(r, CK_SKIPPED, "rejections and collisions", "none happened in these games");
    else
        item(r, CK_SKIPPED, "rejections and collisions", "none happened in these games (a dark variant on a small "
             "board makes them likely: --variant classical --board 3x3)");
    if (u->timed == 0)
        item(r, CK_SKIPPED, "time", "no attempt was timed");
    else
        item(r, u->ms_max > 0.5 * o->move_ms ? CK_FAILED : CK_OK, "time",
             "%ld attempts: mean %.1f ms, longest %.1f ms of the %u ms budget%s", u->timed, u->ms_sum / (double)u->timed,
             u->ms_max, o->move_ms, u->ms_max > 0.5 * o->move_ms ? " (over half of it: a loaded machine forfeits it)" : "");
    item(r, CK_SKIPPED, "pings", "not exercised: the coordinator pings a bot only while one of its moves takes over "
         "a second, or when it runs on an agent host");
}

/* Removes the logs of a previous check in dir (check-hello-*.log, league-check-*.log): the logs are this run's. */
static void remove_old_logs(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if ((strncmp(e->d_name, "check-hello-", 12) == 0 || strncmp(e->d_name, "league-check-", 13) == 0) && n > 4 &&
            strcmp(e->d_name + n - 4, ".log") == 0) {
            char path[4400];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    }
    closedir(d);
}

/* Games per variant and board in a phase: --games, else 2, and in the phases from two-stone openings (from
 * openings, a fresh process every game) on a small board a pair of games for every 36 cells (of the smallest board;
 * 3x3: 8 games, 4x4: 6, 5x5: 4), so that a bot is given its own opening stones often enough to attempt one if it
 * ignores them, and a move it sends before its turn meets the opponent's turn in some game (a protocol_error)
 * rather than only being taken for its next move. */
static int phase_games(const ck_opts *o, bool scaled)
{
    if (o->games > 0)
        return o->games;
    if (!scaled)
        return 2;
    int cells = 1000;
    for (int b = 0; b < o->boards.n_boards; b++)
        if (o->boards.boards[b][0] * o->boards.boards[b][1] < cells)
            cells = o->boards.boards[b][0] * o->boards.boards[b][1];
    int pairs = (36 + cells - 1) / cells;
    return 2 * (pairs < 1 ? 1 : pairs > 4 ? 4 : pairs);
}

int ck_run(const ck_opts *o_in, ck_report *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    ck_opts o = *o_in;
    remove_old_logs(o.logs);
    static pm_msg hello;
    int asked = ask(&o, &hello, err, errlen);
    if (asked == -2)
        return -1;
    if (asked != 0) {
        item(r, CK_FAILED, "hello", "%s (its log is in %s)", err, o.logs);
        return 0;
    }
    uint32_t all = (1u << HX_VARIANT_COUNT) - 1, plays = hello.variants ? hello.variants : all;
    snprintf(r->version, sizeof r->version, "%.127s", hello.version);
    if (o.variants == 0)
        o.variants = plays;
    if (o.boards.n_boards == 0 && hello.n_boards > 0)
        for (int b = 0; b < hello.n_boards && b < 4; b++, o.boards.n_boards++)
            memcpy(o.boards.boards[b], hello.boards[b], 2);
    if (o.boards.n_boards == 0)
        cfg_parse_boards("3x3, 4x4", &o.boards, err, errlen);
    char variants[256], boards[256];
    list_variants(o.variants & plays, variants, sizeof variants);
    list_boards(&o.boards, boards, sizeof boards);
    item(r, CK_OK, "hello", "name '%.100s', version '%.100s', protocol %d; plays %s on %s", hello.name, hello.version,
         hello.protocol, plays == all ? "every variant" : variants, hello.n_boards ? boards : "any board");
    if (hello.protocol < PM_VERSION) /* the phases below replay its openings to it */
        item(r, CK_FAILED, "protocol", "it speaks protocol %d: a league or match from openings (the default) refuses "
             "it before the first game; update it to protocol %d (docs/protocol.md#changes), or play it with "
             "openings_compat = replay (checked so below)", hello.protocol, PM_VERSION);
    else
        item(r, CK_OK, "protocol", "%d, the current one", hello.protocol);
    if (!(o.variants & plays)) {
        item(r, CK_FAILED, "variants", "none of the variants asked for is one it announces");
        return 0;
    }
    static const struct {
        const char *name, *what;
        bool openings, restart, clocks;
    } phases[] = { { "openings", "from openings", true, false, false },
                   { "empty", "from the empty board", false, false, false },
                   { "restart", "a fresh process every game", true, true, false },
                   { "clocks", "with a game clock (sudden death) and the swap rule", true, false, true } };
    static ck_use use;
    memset(&use, 0, sizeof use);
    for (size_t i = 0; i < sizeof phases / sizeof phases[0]; i++) {
        char text[12000], what[64];
        snprintf(what, sizeof what, "check-%s", phases[i].name);
        phase_config(&o, phases[i].name, variants, boards, phase_games(&o, phases[i].openings && !phases[i].clocks), phases[i].openings,
                     phases[i].restart, phases[i].clocks, hello.protocol < PM_VERSION, text, sizeof text);
        int64_t league = play_phase(&o, text, what, r);
        if (league > 0 && read_phase(&o, league, phases[i].name, phases[i].what, r, &use, err, errlen) != 0)
            return -1;
    }
    summarise_use(&o, &use, r);
    return 0;
}
