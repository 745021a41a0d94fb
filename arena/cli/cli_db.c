/* arena/cli/cli_db.c — opening the results database for the reporting commands, league lookup by id or
 * name, NULL-safe text columns. */
#include "cli_db.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

hx_store *cli_open_db(const char *cmd, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        cli_usage_error(cmd, "--db %s: no such database", path);
    fclose(f);
    char err[512];
    bool bad;
    hx_store *s = store_open(path, &bad, err, sizeof err);
    if (!s && bad)
        cli_usage_error(cmd, "%s", err);
    if (!s)
        cli_fail(cmd, "%s", err);
    return s;
}

int64_t cli_league_id(const char *cmd, hx_store *s, const char *path, const char *text)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(store_db(s), "SELECT id FROM leagues WHERE id = ?1 OR name = ?2 ORDER BY id DESC LIMIT 1",
                           -1, &q, NULL) != SQLITE_OK)
        cli_fail(cmd, "%s: %s", path, store_error(s));
    char *end;
    long long id = strtoll(text, &end, 10);
    sqlite3_bind_int64(q, 1, *end || end == text ? -1 : id);
    sqlite3_bind_text(q, 2, text, -1, SQLITE_STATIC);
    int64_t league = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : -1;
    sqlite3_finalize(q);
    if (league < 0)
        cli_usage_error(cmd, "--league %s: no such league in %s", text, path);
    return league;
}

const char *cli_col_text(sqlite3_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    return t ? (const char *)t : "";
}
