/* arena/store/query.c — the read side of the results database: a filter made into one SELECT over the games
 * (only the conditions the filter sets, so SQLite can use the keys and indexes; every value bound, never
 * spliced into the text), the games and transcript iterators, and the league lookups. */
#include "query.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "connection_private.h"

struct store_games {
    sqlite3_stmt *st;
};

struct store_transcript {
    sqlite3_stmt *st;
};

/* The tables a game row is read from (the filter's conditions name these aliases). */
#define GAMES_FROM                                                                                               \
    " FROM games g JOIN agents b ON b.id = g.black JOIN agents w ON w.id = g.white"                               \
    " LEFT JOIN runs r ON r.id = g.run_id LEFT JOIN schedule x ON x.id = g.schedule_id"                          \
    " LEFT JOIN leagues l ON l.id = x.league_id"

/* The selection (sel: the ids of the games the filter selects, in the filter's order and limit) is followed by
 * its agents (who) and those of them whose name another agent of the selection has too (shared): their label
 * is NAME#ID. Then the columns store_games_next() reads, in this order. */
static const char games_with[] = "WITH sel AS (SELECT g.id" GAMES_FROM " WHERE 1";
static const char games_select[] =
    "), who AS (SELECT g.black AS id FROM sel JOIN games g ON g.id = sel.id"
    " UNION SELECT g.white FROM sel JOIN games g ON g.id = sel.id),"
    " shared AS (SELECT a.id FROM who JOIN agents a ON a.id = who.id WHERE EXISTS"
    " (SELECT 1 FROM who o JOIN agents c ON c.id = o.id WHERE c.name = a.name AND c.id <> a.id))"
    " SELECT g.id, g.run_id, r.kind, g.variant, g.rows, g.cols, g.swap, g.black, b.name, b.sha256, g.white, w.name,"
    " w.sha256, g.seed, g.winner, g.reason, g.detail, g.attempts, g.seconds, g.started, g.finished, x.league_id,"
    " l.name, l.created,"
    " EXISTS (SELECT 1 FROM unsandboxed u WHERE u.run_id = g.run_id AND u.agent_id = g.black),"
    " EXISTS (SELECT 1 FROM unsandboxed u WHERE u.run_id = g.run_id AND u.agent_id = g.white),"
    " CASE WHEN g.black IN (SELECT id FROM shared) THEN b.name || '#' || g.black ELSE b.name END,"
    " CASE WHEN g.white IN (SELECT id FROM shared) THEN w.name || '#' || g.white ELSE w.name END,"
    " COALESCE(l.night, substr(l.created, 1, 10)), g.opening, g.black_tc, g.white_tc,"
    " COALESCE(g.black_clock_ms, -1), COALESCE(g.white_clock_ms, -1)"
    " FROM sel JOIN games g ON g.id = sel.id JOIN agents b ON b.id = g.black JOIN agents w ON w.id = g.white"
    " LEFT JOIN runs r ON r.id = g.run_id LEFT JOIN schedule x ON x.id = g.schedule_id"
    " LEFT JOIN leagues l ON l.id = x.league_id";

/* Column `col` of the current row as text, "" for NULL. */
static const char *col_text(sqlite3_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    return t ? (const char *)t : "";
}

/* Appends `part` to the statement text being built in sql[size]; false when it does not fit. */
static bool append(char *sql, size_t size, const char *part)
{
    size_t len = strlen(sql), n = strlen(part);
    if (len + n >= size)
        return false;
    memcpy(sql + len, part, n + 1);
    return true;
}

/* Binds the named parameter when the statement has it. */
static void bind_int64(sqlite3_stmt *st, const char *name, int64_t v)
{
    int i = sqlite3_bind_parameter_index(st, name);
    if (i > 0)
        sqlite3_bind_int64(st, i, v);
}

static void bind_text(sqlite3_stmt *st, const char *name, const char *v)
{
    int i = sqlite3_bind_parameter_index(st, name);
    if (i > 0)
        sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
}

store_games *store_query(store_db *s, const store_filter *f)
{
    char sql[4096] = "";
    bool forfeit = f->reason && strcmp(f->reason, "forfeit") == 0;
    bool ok = append(sql, sizeof sql, games_with);
    if (f->game > 0)
        ok &= append(sql, sizeof sql, " AND g.id = :game");
    if (f->run > 0)
        ok &= append(sql, sizeof sql, " AND g.run_id = :run");
    if (f->league_series) {
        ok &= append(sql, sizeof sql, " AND l.id IS NOT NULL");
        if (f->league > 0)
            ok &= append(sql, sizeof sql, " AND l.name = (SELECT name FROM leagues WHERE id = :league)");
    } else if (f->league > 0) {
        ok &= append(sql, sizeof sql, " AND x.league_id = :league");
    }
    if (f->league_from > 0)
        ok &= append(sql, sizeof sql, " AND l.id >= :league_from");
    if (f->league_to > 0)
        ok &= append(sql, sizeof sql, " AND l.id <= :league_to");
    if (f->by_variant)
        ok &= append(sql, sizeof sql, " AND g.variant = :variant");
    if (f->rows > 0)
        ok &= append(sql, sizeof sql, " AND g.rows = :rows AND g.cols = :cols");
    if (f->agent)
        ok &= append(sql, sizeof sql, " AND (b.name = :agent OR w.name = :agent OR b.name || '#' || b.id = :agent"
                                      " OR w.name || '#' || w.id = :agent)");
    if (f->reason)
        ok &= append(sql, sizeof sql, forfeit ? " AND g.reason <> 'connected'" : " AND g.reason = :reason");
    if (f->since)
        ok &= append(sql, sizeof sql, " AND g.finished >= :since");
    const char *order = f->newest_first ? " ORDER BY g.id DESC" : " ORDER BY g.id";
    ok &= append(sql, sizeof sql, order);
    if (f->limit > 0)
        ok &= append(sql, sizeof sql, " LIMIT :limit");
    ok &= append(sql, sizeof sql, games_select);
    ok &= append(sql, sizeof sql, order);
    if (!ok)
        return NULL;

    store_games *q = calloc(1, sizeof *q);
    if (!q)
        return NULL;
    if (sqlite3_prepare_v2(s->db, sql, -1, &q->st, NULL) != SQLITE_OK) {
        free(q);
        return NULL;
    }
    bind_int64(q->st, ":game", f->game);
    bind_int64(q->st, ":run", f->run);
    bind_int64(q->st, ":league", f->league);
    bind_int64(q->st, ":league_from", f->league_from);
    bind_int64(q->st, ":league_to", f->league_to);
    if (f->by_variant)
        bind_text(q->st, ":variant", hx_variant_name(f->variant));
    bind_int64(q->st, ":rows", f->rows);
    bind_int64(q->st, ":cols", f->cols);
    if (f->agent)
        bind_text(q->st, ":agent", f->agent);
    if (f->reason && !forfeit)
        bind_text(q->st, ":reason", f->reason);
    if (f->since)
        bind_text(q->st, ":since", f->since);
    bind_int64(q->st, ":limit", f->limit);
    return q;
}

/* One step of an iterator's statement: 1 a row, 0 the end, -1 an error. */
static int next_row(sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

int store_games_next(store_games *q, store_game_row *row)
{
    sqlite3_stmt *st = q->st;
    int rc = next_row(st);
    if (rc <= 0)
        return rc;
    *row = (store_game_row){
        .id = sqlite3_column_int64(st, 0),
        .run = sqlite3_column_int64(st, 1),
        .run_kind = col_text(st, 2),
        .variant = col_text(st, 3),
        .rows = sqlite3_column_int(st, 4),
        .cols = sqlite3_column_int(st, 5),
        .swap = sqlite3_column_int(st, 6) != 0,
        .black_id = sqlite3_column_int64(st, 7),
        .black = col_text(st, 8),
        .black_sha256 = col_text(st, 9),
        .white_id = sqlite3_column_int64(st, 10),
        .white = col_text(st, 11),
        .white_sha256 = col_text(st, 12),
        .seed = (uint64_t)sqlite3_column_int64(st, 13),
        .winner = strcmp(col_text(st, 14), "B") == 0 ? HX_BLACK : HX_WHITE,
        .reason = col_text(st, 15),
        .detail = col_text(st, 16),
        .attempts = sqlite3_column_int(st, 17),
        .seconds = sqlite3_column_double(st, 18),
        .started = col_text(st, 19),
        .finished = col_text(st, 20),
        .league = sqlite3_column_int64(st, 21),
        .league_name = col_text(st, 22),
        .league_created = col_text(st, 23),
        .black_unsandboxed = sqlite3_column_int(st, 24) != 0,
        .white_unsandboxed = sqlite3_column_int(st, 25) != 0,
        .black_label = col_text(st, 26),
        .white_label = col_text(st, 27),
        .league_night = col_text(st, 28),
        .opening = sqlite3_column_int(st, 29),
        .black_tc = col_text(st, 30),
        .white_tc = col_text(st, 31),
        .black_clock_ms = sqlite3_column_int64(st, 32),
        .white_clock_ms = sqlite3_column_int64(st, 33),
    };
    return 1;
}

void store_games_end(store_games *q)
{
    if (!q)
        return;
    sqlite3_finalize(q->st);
    free(q);
}

store_transcript *store_transcript_open(store_db *s, int64_t game)
{
    store_transcript *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    if (sqlite3_prepare_v2(s->db, "SELECT n, player, cell, outcome, ms FROM attempts WHERE game_id = ? ORDER BY n", -1,
                           &t->st, NULL) != SQLITE_OK) {
        free(t);
        return NULL;
    }
    sqlite3_bind_int64(t->st, 1, game);
    return t;
}

int store_transcript_next(store_transcript *t, store_attempt_row *row)
{
    sqlite3_stmt *st = t->st;
    int rc = next_row(st);
    if (rc <= 0)
        return rc;
    *row = (store_attempt_row){
        .n = sqlite3_column_int(st, 0),
        .player = strcmp(col_text(st, 1), "B") == 0 ? HX_BLACK : HX_WHITE,
        .cell = col_text(st, 2),
        .outcome = col_text(st, 3),
        .ms = sqlite3_column_type(st, 4) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 4),
    };
    return 1;
}

void store_transcript_end(store_transcript *t)
{
    if (!t)
        return;
    sqlite3_finalize(t->st);
    free(t);
}

int64_t store_league_find(store_db *s, const char *text)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "SELECT id FROM leagues WHERE id = ?1 OR name = ?2 ORDER BY id DESC LIMIT 1", -1,
                           &st, NULL) != SQLITE_OK)
        return -1;
    char *end;
    long long id = strtoll(text, &end, 10);
    sqlite3_bind_int64(st, 1, *end || end == text ? -1 : id);
    sqlite3_bind_text(st, 2, text, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    int64_t league = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : rc == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(st);
    return league;
}

int store_league_get(store_db *s, int64_t id, store_league_row *out)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           id > 0 ? "SELECT id, name, COALESCE(night, substr(created, 1, 10)) FROM leagues WHERE id = ?1"
                                  : "SELECT id, name, COALESCE(night, substr(created, 1, 10)) FROM leagues"
                                    " ORDER BY id DESC LIMIT 1",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    if (id > 0)
        sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        out->id = sqlite3_column_int64(st, 0);
        snprintf(out->name, sizeof out->name, "%s", col_text(st, 1));
        snprintf(out->night, sizeof out->night, "%s", col_text(st, 2));
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

int store_newest_with_games(store_db *s, int64_t *league, int64_t *run)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT (SELECT MAX(league_id) FROM schedule WHERE game_id IS NOT NULL),"
                           " (SELECT MAX(run_id) FROM games)",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *league = sqlite3_column_int64(st, 0);
        *run = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : -1;
}
