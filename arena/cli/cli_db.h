/* arena/cli/cli_db.h — what the reporting commands (games, show, export, ratings, matrix) share to read the
 * results database: opening an existing database with a clear error, a league named by id or name, and
 * a text column that is never NULL. */
#ifndef ARENA_CLI_DB_H
#define ARENA_CLI_DB_H

#include <stdint.h>

#include "store.h"

struct sqlite3_stmt;

/* Opens the existing database at path (schema checked by the store). A missing file, a file that is not an
 * SQLite database and a newer schema are bad input (exit 2, nothing written); the system failing (I/O) is
 * a failure (exit 1). */
hx_store *cli_open_db(const char *cmd, const char *path);

/* The league named `text`: an id, or a name (its newest league). Exits with status 2 when there is none. */
int64_t cli_league_id(const char *cmd, hx_store *s, const char *path, const char *text);

/* Column `col` of the current row as text, "" for NULL. */
const char *cli_col_text(struct sqlite3_stmt *st, int col);

#endif
