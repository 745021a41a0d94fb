/* arena/coordinator/check.c — `arena check`: one bot's conformance run and its checklist (check.h). Each phase is a
 * small league written as config text and played through a session, so the bot meets exactly what it meets in a
 * real league; the checklist is read back from the stored games. */
#include "check.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "session.h"

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
static void phase_config(const ck_opts *o, const char *name, const char *variants, const char *boards, bool openings,
                         bool restart, bool clocks, bool replay, char *out, size_t size)
{
    char clock[128] = "";
    if (clocks)
        snprintf(clock, sizeof clock, "time_control = %u.%03u\nswap = yes\nopening_stones = 1\n",
                 o->move_ms * 20 / 1000, o->move_ms * 20 % 1000);
    snprintf(out, size,
             "[league]\nname = check-%s\nvariants = %s\nboards = %s\ngames = %d\nmove_time_ms = %u\n"
             "handshake_ms = %u\nopenings = %s\n%s%sconcurrency = 1\nsandbox = %s\n"
             "[agent bot]\ncommand = %s\nvariants = %s\nboards = %s\n%s"
             "[agent reference]\ncommand = %s\n",
             name, variants, boards, o->games, o->move_ms, o->handshake_ms, openings ? "random" : "none", clock,
             replay ? "openings_compat = replay\n" : "", o->sandbox ? "on" : "off",
             o->bot, variants, boards, restart ? "restart = game\n" : "", o->opponent);
}

typedef struct {
    long attempts, rejected, collided, timed;
    double ms_max, ms_sum;
} ck_use;

/* The bot's side of one stored game: its forfeit (the first one per variant and board becomes a failure) and its
 * attempts. Returns whether the bot forfeited it. */
static bool read_game(store_db *db, const store_game_row *g, ck_use *u)
{
    int bot = strcmp(g->black, "bot") == 0 ? HX_BLACK : HX_WHITE;
    store_transcript *t = store_transcript_open(db, g->id);
    store_attempt_row a;
    while (t && store_transcript_next(t, &a) == 1) {
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
    return strcmp(g->reason, "connected") != 0 && g->winner != bot;
}

/* The league just played as items: one for the phase when the bot forfeited nothing, else one per variant and
 * board where it did, with its first forfeit. */
static int read_phase(const ck_opts *o, int64_t league, const char *phase, ck_report *r, ck_use *u, char *err,
                      size_t errlen)
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
            long games = 0, lost = 0;
            char first[512] = "";
            while (q && store_games_next(q, &g) == 1) {
                games++;
                if (read_game(db, &g, u) && lost++ == 0)
                    snprintf(first, sizeof first, "%s: %s (game %lld: arena show --db %s %lld)", g.reason, g.detail,
                             (long long)g.id, o->db, (long long)g.id);
            }
            store_games_end(q);
            phase_games += games;
            pairs += games > 0;
            if (!lost)
                continue;
            char what[96];
            snprintf(what, sizeof what, "%s %dx%d %s", hx_variant_name((hx_variant)v), o->boards.boards[b][0],
                     o->boards.boards[b][1], phase);
            item(r, CK_FAILED, what, "forfeited %ld of %ld games; the first: %s", lost, games, first);
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
    if (u->rejected + u->collided > 0)
        item(r, CK_OK, "rejections and collisions", "%ld rejected and %ld colliding attempts, each answered",
             u->rejected, u->collided);
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

int ck_run(const ck_opts *o_in, ck_report *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    ck_opts o = *o_in;
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
    ck_use use = { 0 };
    for (size_t i = 0; i < sizeof phases / sizeof phases[0]; i++) {
        char text[12000], what[64];
        snprintf(what, sizeof what, "check-%s", phases[i].name);
        phase_config(&o, phases[i].name, variants, boards, phases[i].openings, phases[i].restart, phases[i].clocks,
                     hello.protocol < PM_VERSION, text, sizeof text);
        int64_t league = play_phase(&o, text, what, r);
        if (league > 0 && read_phase(&o, league, phases[i].what, r, &use, err, errlen) != 0)
            return -1;
    }
    summarise_use(&o, &use, r);
    return 0;
}
