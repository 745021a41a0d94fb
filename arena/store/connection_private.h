/* arena/store/connection_private.h — the store's handle: the SQLite connection and the statements prepared once, shared
 * by the writing side (store.c) and the reading side (query.c). Internal to arena/store: nothing outside this
 * folder includes it, so the connection never leaves the store. */
#ifndef ARENA_STORE_CONNECTION_PRIVATE_H
#define ARENA_STORE_CONNECTION_PRIVATE_H

#include <sqlite3.h>

#include "store.h"

struct store_db {
    sqlite3 *db;
    sqlite3_stmt *insert_game, *insert_attempt;
    char *path;
    bool kept;                     /* a write failed: err holds its first error (what store_error() returns), not
                                    * the rollback's; cleared when the next write begins */
    char err[600];
    double deadline;               /* store_deadline: CLOCK_MONOTONIC seconds, 0 for none */
};

#endif
