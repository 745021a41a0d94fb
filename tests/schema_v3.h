/* tests/schema_v3.h — the results database as arena wrote it at schema version 3 (before the agents that played
 * without a sandbox were recorded with their runs): the schema-2 text (schema_v2.h) followed by SCHEMA_V3_AFTER_V2.
 * The tests make such a database with SQLite directly and check that the store migrates it. A frozen copy: do not
 * follow later schema changes. */
#ifndef TESTS_SCHEMA_V3_H
#define TESTS_SCHEMA_V3_H

#include "schema_v2.h"

static const char SCHEMA_V3_AFTER_V2[] =
    "ALTER TABLE leagues ADD COLUMN secret BLOB; ALTER TABLE runs ADD COLUMN secret BLOB;"
    "PRAGMA user_version = 3;";

#endif
