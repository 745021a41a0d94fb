/* arena/cli/cli_db.h — what the reporting commands (games, show, export, ratings, matrix, plot) share to read
 * the results database: opening an existing database with a clear error, a league named by id or name, and
 * the filter options parsed once into the store's filter (arena/store/query.h). */
#ifndef ARENA_CLI_CLI_DB_H
#define ARENA_CLI_CLI_DB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "query.h"
#include "store.h"

/* Opens the existing database at path (schema checked by the store). A missing file, a file that is not an
 * SQLite database and a newer schema are bad input (exit 2, nothing written); the system failing (I/O) is
 * a failure (exit 1). */
store_db *cli_open_db(const char *cmd, const char *path);

/* The league named `text`: an id, or a name (its newest league). Exits with status 2 when there is none,
 * 1 on a database error. */
int64_t cli_league_id(const char *cmd, store_db *s, const char *path, const char *text);

/* The filter options a reporting command takes (each lists in its option table those it accepts, with the
 * ids CLI_O_VARIANT, CLI_O_BOARD, CLI_O_LEAGUE, CLI_O_RUN, CLI_O_AGENT, CLI_O_SINCE), parsed. --league stays
 * text until the database is open. */
typedef struct {
    store_filter f;
    const char *league; /* --league as given, or NULL */
} cli_filter;

/* Handles one cli_getopt() result `c` of the filter options into f. Returns false when `c` is not one of
 * them; a bad value exits through cli_usage_error() naming the option. */
bool cli_filter_option(const char *cmd, int c, const char *arg, cli_filter *f);

/* Opens the database at path (cli_open_db) and resolves f's --league into f->f.league (cli_league_id). */
store_db *cli_filter_open(const char *cmd, const char *path, cli_filter *f);

/* A game's clocks as JSON keys, for show and export: ,"time_control":{"B":TEXT,"W":TEXT},"clock_ms":{"B":MS,"W":MS}
 * (time left at the end; null for a player without a clock, tc[c] ""); nothing when neither player had one. */
void cli_clocks_json(FILE *o, const char *const tc[2], const int64_t ms[2]);

#endif
