/* arena/store/facts.c — a league's and its agents' stored facts for reports (contract in facts.h). */
#include "facts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "connection_private.h"

static void text(sqlite3_stmt *st, int col, char *out, size_t len)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(out, len, "%s", t ? (const char *)t : "");
}

int store_league_facts_get(store_db *s, int64_t id, store_league_facts *out)
{
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT l.id, l.name, l.config, l.config_sha256, l.seed, l.created, COUNT(c.id),"
                           " COUNT(c.game_id), TOTAL(c.skipped), COUNT(DISTINCT g.run_id), MIN(g.started),"
                           " MAX(g.finished)"
                           " FROM leagues l LEFT JOIN schedule c ON c.league_id = l.id"
                           " LEFT JOIN games g ON g.id = c.game_id WHERE l.id = ?1 GROUP BY l.id",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        out->id = sqlite3_column_int64(st, 0);
        text(st, 1, out->name, sizeof out->name);
        const unsigned char *c = sqlite3_column_text(st, 2);
        out->config = strdup(c ? (const char *)c : "");
        text(st, 3, out->config_sha256, sizeof out->config_sha256);
        out->seed = (uint64_t)sqlite3_column_int64(st, 4);
        text(st, 5, out->created, sizeof out->created);
        out->planned = (long)sqlite3_column_int64(st, 6);
        out->played = (long)sqlite3_column_int64(st, 7);
        out->skipped = (long)sqlite3_column_int64(st, 8);
        out->runs = (long)sqlite3_column_int64(st, 9);
        text(st, 10, out->first_started, sizeof out->first_started);
        text(st, 11, out->last_finished, sizeof out->last_finished);
        if (!out->config)
            rc = SQLITE_NOMEM;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

void store_league_facts_free(store_league_facts *f)
{
    free(f->config);
    f->config = NULL;
}

int64_t store_league_previous(store_db *s, int64_t id)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT MAX(p.id) FROM leagues p, leagues l WHERE l.id = ?1 AND p.name = l.name"
                           " AND p.id < l.id AND EXISTS (SELECT 1 FROM schedule c WHERE c.league_id = p.id"
                           " AND c.game_id IS NOT NULL)",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    int64_t prev = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    return prev;
}

int store_agent_get(store_db *s, int64_t id, store_agent_row *out)
{
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "SELECT id, name, command, version, sha256, first_seen FROM agents WHERE id = ?1",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        out->id = sqlite3_column_int64(st, 0);
        text(st, 1, out->name, sizeof out->name);
        text(st, 2, out->command, sizeof out->command);
        text(st, 3, out->version, sizeof out->version);
        text(st, 4, out->sha256, sizeof out->sha256);
        text(st, 5, out->first_seen, sizeof out->first_seen);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

int store_agent_changes(store_db *s, int64_t id, char *out, size_t size)
{
    out[0] = '\0';
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT p.id FROM agents a JOIN agents p ON p.name = a.name AND p.command = a.command"
                           " AND p.id < a.id WHERE a.id = ?1 ORDER BY p.id DESC LIMIT 1",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    int64_t prev = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW)
        return rc == SQLITE_DONE ? 0 : -1;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT c.path FROM agent_files c LEFT JOIN agent_files p ON p.agent_id = ?2 AND p.path = c.path"
                           " WHERE c.agent_id = ?1 AND (p.sha256 IS NULL OR p.sha256 <> c.sha256) ORDER BY c.path",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int64(st, 2, prev);
    size_t k = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && k < size)
        k += (size_t)snprintf(out + k, size - k, "%s%s", k ? ", " : "", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return -1;
    if (k < size)
        snprintf(out + k, size - k, "%s since #%lld", k ? " changed" : "its program changed", (long long)prev);
    return 0;
}
