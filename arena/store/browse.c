/* arena/store/browse.c — bounded lists of leagues and games for a browser of the database (contract in
 * browse.h). */
#include "browse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "connection_private.h"

static void text(sqlite3_stmt *st, int col, char *out, size_t len)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(out, len, "%s", t ? (const char *)t : "");
}

/* The columns of a brief, grouped by league: FROM a set of league ids named `ls` (column league_id). */
#define BRIEF_SELECT                                                                                             \
    "SELECT l.id, l.name, COALESCE(l.night, substr(l.created, 1, 10)), l.created, COUNT(c.id), COUNT(c.game_id),"   \
    " TOTAL(c.skipped), TOTAL(g.reason <> 'connected'), MIN(g.started), MAX(g.finished)"                         \
    " FROM ls JOIN leagues l ON l.id = ls.league_id LEFT JOIN schedule c ON c.league_id = l.id"                    \
    " LEFT JOIN games g ON g.id = c.game_id GROUP BY l.id"

static void brief_row(sqlite3_stmt *st, store_league_brief *b)
{
    memset(b, 0, sizeof *b);
    b->id = sqlite3_column_int64(st, 0);
    text(st, 1, b->name, sizeof b->name);
    text(st, 2, b->night, sizeof b->night);
    text(st, 3, b->created, sizeof b->created);
    b->planned = (long)sqlite3_column_int64(st, 4);
    b->played = (long)sqlite3_column_int64(st, 5);
    b->skipped = (long)sqlite3_column_int64(st, 6);
    b->forfeits = (long)sqlite3_column_int64(st, 7);
    text(st, 8, b->first_started, sizeof b->first_started);
    text(st, 9, b->last_finished, sizeof b->last_finished);
}

/* Runs a prepared brief statement (its parameters bound) into *out. */
static int briefs(sqlite3_stmt *st, int limit, store_league_brief **out, int *n)
{
    *out = calloc((size_t)(limit > 0 ? limit : 1), sizeof **out);
    *n = 0;
    int rc = SQLITE_DONE;
    while (*out && *n < limit && (rc = sqlite3_step(st)) == SQLITE_ROW)
        brief_row(st, &(*out)[(*n)++]);
    if (*out && *n < limit && rc != SQLITE_DONE) {
        free(*out);
        *out = NULL;
    }
    sqlite3_finalize(st);
    return *out ? 0 : -1;
}

int store_leagues_recent(store_db *s, int limit, store_league_brief **out, int *n)
{
    sqlite3_stmt *st;
    *out = NULL;
    *n = 0;
    if (sqlite3_prepare_v2(s->db,
                           "WITH ls AS (SELECT id AS league_id FROM leagues ORDER BY id DESC LIMIT ?1) " BRIEF_SELECT
                           " ORDER BY l.id DESC",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int(st, 1, limit);
    return briefs(st, limit, out, n);
}

int store_leagues_running(store_db *s, long idle_seconds, int limit, store_league_brief **out, int *n)
{
    sqlite3_stmt *st;
    *out = NULL;
    *n = 0;
    /* the pending rows through the partial index schedule_pending; the times compare as ISO 8601 text */
    if (sqlite3_prepare_v2(s->db,
                           "WITH ls AS (SELECT DISTINCT league_id FROM schedule WHERE game_id IS NULL AND skipped = 0"
                           " ORDER BY league_id DESC LIMIT ?2) " BRIEF_SELECT
                           " HAVING ?1 IS NULL OR MAX(COALESCE(MAX(g.finished), ''), l.created) >="
                           " strftime('%Y-%m-%dT%H:%M:%SZ', 'now', ?1) ORDER BY l.id DESC",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    char ago[48];
    snprintf(ago, sizeof ago, "-%ld seconds", idle_seconds);
    if (idle_seconds >= 0)
        sqlite3_bind_text(st, 1, ago, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, limit);
    return briefs(st, limit, out, n);
}

int store_league_pace(store_db *s, const char *name, int64_t *league, long *games, double *mean_s)
{
    sqlite3_stmt *st;
    *league = 0;
    *games = 0;
    *mean_s = 0;
    if (sqlite3_prepare_v2(s->db,
                           "WITH l AS (SELECT id FROM leagues l WHERE name = ?1 AND EXISTS (SELECT 1 FROM schedule c"
                           " WHERE c.league_id = l.id AND c.game_id IS NOT NULL) ORDER BY id DESC LIMIT 1)"
                           " SELECT l.id, COUNT(g.id), AVG(g.seconds) FROM l JOIN schedule c ON c.league_id = l.id"
                           " JOIN games g ON g.id = c.game_id GROUP BY l.id",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *league = sqlite3_column_int64(st, 0);
        *games = (long)sqlite3_column_int64(st, 1);
        *mean_s = sqlite3_column_double(st, 2);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

int64_t store_league_plays_like(store_db *s, const char *name, const char *config_sha256, char *plays, size_t size)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT id, plays FROM leagues WHERE name = ?1 AND config_sha256 = ?2 AND plays IS NOT NULL"
                           " ORDER BY id DESC LIMIT 1",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, config_sha256, -1, SQLITE_TRANSIENT);
    int64_t id = 0;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(st, 1);
        size_t len = t ? strlen((const char *)t) : 0;
        if (t && len < size) {
            memcpy(plays, t, len + 1);
            id = sqlite3_column_int64(st, 0);
        }
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? id : -1;
}

int store_league_brief_get(store_db *s, int64_t id, store_league_brief *out)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "WITH ls AS (SELECT ?1 AS league_id) " BRIEF_SELECT, -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        brief_row(st, out);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

int store_league_counts(store_db *s, const int64_t *ids, int n, long *played, long *skipped)
{
    sqlite3_stmt *st;
    /* every row through (league_id, n), the rows without a game through schedule_pending */
    if (sqlite3_prepare_v2(s->db,
                           "SELECT (SELECT COUNT(*) FROM schedule WHERE league_id = ?1), COUNT(*), TOTAL(skipped)"
                           " FROM schedule WHERE league_id = ?1 AND game_id IS NULL",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    int rc = SQLITE_ROW;
    for (int k = 0; k < n && rc == SQLITE_ROW; k++) {
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, ids[k]);
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            played[k] = (long)(sqlite3_column_int64(st, 0) - sqlite3_column_int64(st, 1));
            skipped[k] = (long)sqlite3_column_int64(st, 2);
        }
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : -1;
}

#define GAME_COLUMNS                                                                                             \
    "SELECT g.id, COALESCE(c.league_id, 0), COALESCE(c.pair, -1), g.variant, g.rows, g.cols, g.black, g.white,"    \
    " b.name, w.name, g.winner, g.reason, g.detail, g.finished, g.attempts"

/* The games whose ids the list `ids` (in parentheses) gives, newest first: read in the list's order (SQLite walks
 * an IN list of rowids backwards for ORDER BY id DESC; nothing is sorted). */
#define GAMES_IN(ids)                                                                                            \
    GAME_COLUMNS " FROM games g JOIN agents b ON b.id = g.black JOIN agents w ON w.id = g.white"                   \
                 " LEFT JOIN schedule c ON c.id = g.schedule_id WHERE g.id IN " ids " ORDER BY g.id DESC"

/* The statement of store_games_brief(): ?1 league, ?2 agent, ?3 opponent, ?4 limit. */
static const char *brief_sql(const store_brief_filter *f)
{
    /* a league's through its schedule (league_id, n); an agent's or a pairing's newest first by game id: the ids
     * (at most ?4) merged newest first from the two seats' index scans (games_by_black and games_by_white, or
     * games_by_pairing both ways round), which stop there; UNION keeps a game against itself once */
    return f->league > 0
               ? GAME_COLUMNS " FROM schedule c JOIN games g ON g.id = c.game_id JOIN agents b ON b.id = g.black"
                              " JOIN agents w ON w.id = g.white WHERE c.league_id = ?1 ORDER BY c.n DESC LIMIT ?4"
           : f->opponent > 0 && f->opponent != f->agent
               ? GAMES_IN("(SELECT id FROM games WHERE black = ?2 AND white = ?3 UNION SELECT id FROM games"
                          " WHERE black = ?3 AND white = ?2 ORDER BY 1 DESC LIMIT ?4)")
               : GAMES_IN("(SELECT id FROM games WHERE black = ?2 UNION SELECT id FROM games WHERE white = ?2"
                          " ORDER BY 1 DESC LIMIT ?4)");
}

/* brief_sql(f) prepared (prefixed by `prefix`) with f's values bound, or NULL. */
static sqlite3_stmt *brief_prepare(store_db *s, const store_brief_filter *f, const char *prefix)
{
    sqlite3_stmt *st;
    char *sql = sqlite3_mprintf("%s%s", prefix, brief_sql(f));
    int rc = sql ? sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) : SQLITE_NOMEM;
    sqlite3_free(sql);
    if (rc != SQLITE_OK)
        return NULL;
    sqlite3_bind_int64(st, 1, f->league);
    sqlite3_bind_int64(st, 2, f->agent);
    sqlite3_bind_int64(st, 3, f->opponent);
    sqlite3_bind_int(st, 4, f->limit);
    return st;
}

int store_games_brief_plan(store_db *s, const store_brief_filter *f, char *out, size_t len)
{
    sqlite3_stmt *st = brief_prepare(s, f, "EXPLAIN QUERY PLAN ");
    size_t used = 0;
    int rc = SQLITE_DONE;
    if (len)
        out[0] = '\0';
    while (st && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const unsigned char *d = sqlite3_column_text(st, 3);
        int k = snprintf(out + used, len - used, "%s\n", d ? (const char *)d : "");
        if (k < 0 || (size_t)k >= len - used) {
            rc = SQLITE_TOOBIG;
            break;
        }
        used += (size_t)k;
    }
    sqlite3_finalize(st);
    return st && rc == SQLITE_DONE ? 0 : -1;
}

int store_games_brief(store_db *s, const store_brief_filter *f, store_game_brief **out, int *n)
{
    *out = NULL;
    *n = 0;
    if (f->limit <= 0)
        return 0;
    sqlite3_stmt *st = brief_prepare(s, f, "");
    if (!st)
        return -1;
    int cap = 64, rc = SQLITE_DONE;
    store_game_brief *g = malloc(sizeof *g * (size_t)cap);
    while (g && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            store_game_brief *more = realloc(g, sizeof *g * (size_t)(cap *= 2));
            if (!more) {
                free(g);
                g = NULL;
                break;
            }
            g = more;
        }
        store_game_brief *x = &g[(*n)++];
        memset(x, 0, sizeof *x);
        x->id = sqlite3_column_int64(st, 0);
        x->league = sqlite3_column_int64(st, 1);
        x->pair = sqlite3_column_int(st, 2);
        text(st, 3, x->variant, sizeof x->variant);
        x->rows = sqlite3_column_int(st, 4);
        x->cols = sqlite3_column_int(st, 5);
        x->black = sqlite3_column_int64(st, 6);
        x->white = sqlite3_column_int64(st, 7);
        text(st, 8, x->black_name, sizeof x->black_name);
        text(st, 9, x->white_name, sizeof x->white_name);
        const unsigned char *w = sqlite3_column_text(st, 10);
        x->winner = w && w[0] == 'B' ? HX_BLACK : HX_WHITE;
        text(st, 11, x->reason, sizeof x->reason);
        text(st, 12, x->detail, sizeof x->detail);
        text(st, 13, x->finished, sizeof x->finished);
        x->attempts = sqlite3_column_int(st, 14);
    }
    sqlite3_finalize(st);
    if (!g || rc != SQLITE_DONE) {
        free(g);
        *n = 0;
        return -1;
    }
    *out = g;
    return 0;
}
