/* arena/store/merge.c — the shards of a league merged into one database (contract in merge.h), in SQL over the
 * shard ATTACHed as `s`: temporary tables map the shard's agents, runs and schedule rows onto the output's. */
#include "merge.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "connection_private.h"

/* `sql` prepared with ?1 = a and ?2 = b (when the statement has them), or NULL. */
static sqlite3_stmt *prepare2(store_db *o, const char *sql, int64_t a, int64_t b)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(o->db, sql, -1, &st, NULL) != SQLITE_OK)
        return NULL;
    if (sqlite3_bind_parameter_count(st) >= 1)
        sqlite3_bind_int64(st, 1, a);
    if (sqlite3_bind_parameter_count(st) >= 2)
        sqlite3_bind_int64(st, 2, b);
    return st;
}

/* Runs `sql` with ?1 = a and ?2 = b. Returns 0, or -1. */
static int run2(store_db *o, const char *sql, int64_t a, int64_t b)
{
    sqlite3_stmt *st = prepare2(o, sql, a, b);
    if (!st)
        return -1;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        ;
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* The first column of the first row of `sql` (?1 = a, ?2 = b) as an integer; -1 on error, `none` without a row. */
static int64_t value2(store_db *o, const char *sql, int64_t a, int64_t b, int64_t none)
{
    sqlite3_stmt *st = prepare2(o, sql, a, b);
    if (!st)
        return -1;
    int rc = sqlite3_step(st);
    int64_t v = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : rc == SQLITE_DONE ? none : -1;
    sqlite3_finalize(st);
    return v;
}

/* Merges shard league `in` into output league `outl` (created and scheduled by the caller when new). */
static int merge_games(store_db *o, int64_t in, int64_t outl, const char *shard, store_merge_stats *st)
{
    /* the rows the shard played: those the output lacks are copied, the others compared */
    if (run2(o,
             "CREATE TEMP TABLE merge_copy AS SELECT y.id AS out_row, x.game_id AS in_game FROM s.schedule x"
             " JOIN main.schedule y ON y.league_id = ?2 AND y.n = x.n"
             " WHERE x.league_id = ?1 AND x.game_id IS NOT NULL AND y.game_id IS NULL",
             in, outl) != 0)
        return -1;
    st->games += value2(o, "SELECT count(*) FROM s.schedule WHERE league_id = ?1 AND game_id IS NOT NULL", in, 0, 0);
    st->games_present += value2(o,
                                "SELECT count(*) FROM s.schedule x JOIN main.schedule y ON y.league_id = ?2 AND y.n = x.n"
                                " WHERE x.league_id = ?1 AND x.game_id IS NOT NULL AND y.game_id IS NOT NULL",
                                in, outl, 0);
    st->games_differ += value2(o,
                               "SELECT count(*) FROM s.schedule x JOIN main.schedule y ON y.league_id = ?2 AND y.n = x.n"
                               " JOIN s.games a ON a.id = x.game_id JOIN main.games b ON b.id = y.game_id"
                               " WHERE x.league_id = ?1 AND (a.winner <> b.winner OR a.attempts <> b.attempts)",
                               in, outl, 0);
    /* the players, matched by name, command line and program hash (an agent's identity, schema 5) */
    if (run2(o,
             "INSERT OR IGNORE INTO main.agents (name, command, version, sha256, first_seen)"
             " SELECT a.name, a.command, a.version, a.sha256, a.first_seen FROM s.agents a WHERE a.id IN"
             " (SELECT g.black FROM merge_copy t JOIN s.games g ON g.id = t.in_game UNION"
             "  SELECT g.white FROM merge_copy t JOIN s.games g ON g.id = t.in_game)",
             0, 0) != 0 ||
        run2(o,
             "CREATE TEMP TABLE merge_agent AS SELECT a.id AS in_id, b.id AS out_id FROM s.agents a"
             " JOIN main.agents b ON b.name = a.name AND b.command = a.command AND b.sha256 = a.sha256",
             0, 0) != 0)
        return -1;
    /* the sittings (runs) the copied games were played in, one new run each */
    if (run2(o, "CREATE TEMP TABLE merge_run (in_id INTEGER PRIMARY KEY, out_id INTEGER)", 0, 0) != 0)
        return -1;
    sqlite3_stmt *runs, *ins;
    if (sqlite3_prepare_v2(o->db,
                           "SELECT DISTINCT g.run_id FROM merge_copy t JOIN s.games g ON g.id = t.in_game ORDER BY 1",
                           -1, &runs, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_prepare_v2(o->db,
                           "INSERT INTO main.runs (kind, description, started, finished, secret) SELECT kind,"
                           " description || ' (merged from ' || ?2 || ')', started, finished, secret"
                           " FROM s.runs WHERE id = ?1",
                           -1, &ins, NULL) != SQLITE_OK) {
        sqlite3_finalize(runs);
        return -1;
    }
    int rc;
    while ((rc = sqlite3_step(runs)) == SQLITE_ROW) {
        int64_t run = sqlite3_column_int64(runs, 0);
        sqlite3_reset(ins);
        sqlite3_bind_int64(ins, 1, run);
        sqlite3_bind_text(ins, 2, shard, -1, SQLITE_STATIC);
        if (sqlite3_step(ins) != SQLITE_DONE ||
            run2(o, "INSERT INTO merge_run VALUES (?1, ?2)", run, sqlite3_last_insert_rowid(o->db)) != 0) {
            rc = SQLITE_ERROR;
            break;
        }
    }
    sqlite3_finalize(runs);
    sqlite3_finalize(ins);
    if (rc != SQLITE_DONE)
        return -1;
    /* the games into their rows, their attempts, the rows marked played, and who played unsandboxed */
    if (run2(o,
             "INSERT INTO main.games (run_id, variant, rows, cols, swap, black, white, seed, winner, reason, detail,"
             " attempts, seconds, started, finished, schedule_id, opening, black_tc, white_tc, black_clock_ms, white_clock_ms)"
             " SELECT r.out_id, g.variant, g.rows, g.cols, g.swap, b.out_id, w.out_id, g.seed, g.winner, g.reason,"
             " g.detail, g.attempts, g.seconds, g.started, g.finished, t.out_row, g.opening, g.black_tc, g.white_tc,"
             " g.black_clock_ms, g.white_clock_ms FROM merge_copy t"
             " JOIN s.games g ON g.id = t.in_game JOIN merge_run r ON r.in_id = g.run_id"
             " JOIN merge_agent b ON b.in_id = g.black JOIN merge_agent w ON w.in_id = g.white ORDER BY t.out_row",
             0, 0) != 0)
        return -1;
    st->games_new += sqlite3_changes(o->db);
    if (run2(o,
             "INSERT INTO main.attempts (game_id, n, player, cell, outcome, ms) SELECT g.id, a.n, a.player, a.cell,"
             " a.outcome, a.ms FROM merge_copy t JOIN main.games g ON g.schedule_id = t.out_row"
             " JOIN s.attempts a ON a.game_id = t.in_game",
             0, 0) != 0 ||
        run2(o,
             "UPDATE main.schedule SET game_id = (SELECT g.id FROM main.games g WHERE g.schedule_id = schedule.id)"
             " WHERE id IN (SELECT out_row FROM merge_copy)",
             0, 0) != 0 ||
        run2(o,
             "INSERT OR IGNORE INTO main.unsandboxed (run_id, agent_id) SELECT r.out_id, a.out_id"
             " FROM s.unsandboxed u JOIN merge_run r ON r.in_id = u.run_id JOIN merge_agent a ON a.in_id = u.agent_id",
             0, 0) != 0)
        return -1;
    return run2(o, "DROP TABLE merge_copy", 0, 0) | run2(o, "DROP TABLE merge_agent", 0, 0) |
           run2(o, "DROP TABLE merge_run", 0, 0);
}

/* The output league for shard league `in`: the one of the same name and seed (checked: same config and secret,
 * same schedule), else a new one with the shard's schedule. Returns its id; 0 with *why set when refused; -1 on
 * error. */
static int64_t output_league(store_db *o, int64_t in, bool *created, char *why, size_t len)
{
    *created = false;
    int64_t outl = value2(o,
                          "SELECT y.id FROM s.leagues x JOIN main.leagues y ON y.name = x.name AND y.seed = x.seed"
                          " WHERE x.id = ?1 ORDER BY y.id DESC LIMIT 1",
                          in, 0, 0);
    if (outl < 0)
        return -1;
    if (outl == 0) {
        if (run2(o,
                 "INSERT INTO main.leagues (name, config, config_sha256, seed, created, secret, night)"
                 " SELECT name, config, config_sha256, seed, created, secret, night FROM s.leagues WHERE id = ?1",
                 in, 0) != 0)
            return -1;
        outl = sqlite3_last_insert_rowid(o->db);
        if (run2(o,
                 "INSERT INTO main.schedule (league_id, n, variant, rows, cols, black, white, seed, pair, opening,"
                 " skipped) SELECT ?2, n, variant, rows, cols, black, white, seed, pair, opening, skipped"
                 " FROM s.schedule WHERE league_id = ?1 ORDER BY n",
                 in, outl) != 0)
            return -1;
        *created = true;
        return outl;
    }
    if (value2(o, "SELECT x.config_sha256 IS NOT y.config_sha256 FROM s.leagues x, main.leagues y"
                  " WHERE x.id = ?1 AND y.id = ?2", in, outl, 1) != 0) {
        snprintf(why, len, "league %lld: another config than the merged league %lld of the same name and seed",
                 (long long)in, (long long)outl);
        return 0;
    }
    if (value2(o, "SELECT x.secret IS NOT y.secret FROM s.leagues x, main.leagues y WHERE x.id = ?1 AND y.id = ?2",
               in, outl, 1) != 0) {
        snprintf(why, len, "league %lld: another secret than the merged league %lld (its shards were not all run "
                           "with the same --secret)", (long long)in, (long long)outl);
        return 0;
    }
    int64_t rows_in = value2(o, "SELECT count(*) FROM s.schedule WHERE league_id = ?1", in, 0, 0),
            rows_out = value2(o, "SELECT count(*) FROM main.schedule WHERE league_id = ?1", outl, 0, 0),
            same = value2(o,
                          "SELECT count(*) FROM s.schedule x JOIN main.schedule y ON y.league_id = ?2 AND y.n = x.n"
                          " AND y.variant = x.variant AND y.rows = x.rows AND y.cols = x.cols AND y.black = x.black"
                          " AND y.white = x.white AND y.seed = x.seed AND y.opening = x.opening WHERE x.league_id = ?1",
                          in, outl, 0);
    if (rows_in < 0 || rows_out < 0 || same < 0)
        return -1;
    if (rows_in != rows_out || same != rows_in) {
        snprintf(why, len, "league %lld: its schedule differs from the merged league %lld's (%lld and %lld rows, "
                           "%lld alike)", (long long)in, (long long)outl, (long long)rows_in, (long long)rows_out,
                 (long long)same);
        return 0;
    }
    return outl;
}

int store_merge(store_db *out, const char *shard, store_merge_stats *st, bool *bad, char *err, size_t errlen)
{
    *bad = false;
    memset(st, 0, sizeof *st);
    char why[512] = "";
    sqlite3_stmt *att;
    if (sqlite3_prepare_v2(out->db, "ATTACH ?1 AS s", -1, &att, NULL) != SQLITE_OK)
        goto fail;
    sqlite3_bind_text(att, 1, shard, -1, SQLITE_STATIC);
    int rc = sqlite3_step(att);
    sqlite3_finalize(att);
    if (rc != SQLITE_DONE)
        goto fail;
    if (sqlite3_exec(out->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", shard, sqlite3_errmsg(out->db));
        goto detach;
    }
    /* the shard's leagues first (a table cannot be dropped while a statement reads) */
    sqlite3_stmt *leagues;
    if (sqlite3_prepare_v2(out->db, "SELECT id FROM s.leagues ORDER BY id", -1, &leagues, NULL) != SQLITE_OK)
        goto rollback;
    int64_t ids[256];
    int n = 0, ok = 1;
    while ((rc = sqlite3_step(leagues)) == SQLITE_ROW && n < 256)
        ids[n++] = sqlite3_column_int64(leagues, 0);
    sqlite3_finalize(leagues);
    if (rc == SQLITE_ROW) {
        snprintf(why, sizeof why, "more than 256 leagues in one shard");
        goto rollback;
    }
    for (int k = 0; ok && k < n; k++) {
        bool created;
        int64_t outl = output_league(out, ids[k], &created, why, sizeof why);
        if (outl <= 0) {
            ok = 0;
            break;
        }
        st->leagues++;
        st->leagues_new += created;
        if (merge_games(out, ids[k], outl, shard, st) != 0)
            ok = 0;
    }
    rc = SQLITE_DONE;
    if (!ok || (rc != SQLITE_ROW && rc != SQLITE_DONE))
        goto rollback;
    if (sqlite3_exec(out->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        goto rollback;
    sqlite3_exec(out->db, "DETACH s", NULL, NULL, NULL);
    return 0;

rollback:
    if (why[0]) {
        *bad = true;
        snprintf(err, errlen, "%s: %s", shard, why);
    } else
        snprintf(err, errlen, "%s: %s", shard, sqlite3_errmsg(out->db));
    sqlite3_exec(out->db, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_exec(out->db, "DROP TABLE IF EXISTS temp.merge_copy; DROP TABLE IF EXISTS temp.merge_agent;"
                          " DROP TABLE IF EXISTS temp.merge_run", NULL, NULL, NULL);
detach:
    sqlite3_exec(out->db, "DETACH s", NULL, NULL, NULL);
    return -1;
fail:
    snprintf(err, errlen, "%s: %s", shard, sqlite3_errmsg(out->db));
    return -1;
}
