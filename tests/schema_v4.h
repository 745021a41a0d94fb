/* tests/schema_v4.h — the results database as arena wrote it at schema version 4 (agents unique on name and
 * executable hash only, before the command line was part of an agent): the schema-3 text (schema_v3.h) followed
 * by SCHEMA_V4_AFTER_V3. The tests make such a database with SQLite directly and check that the store migrates
 * it. A frozen copy: do not follow later schema changes. */
#ifndef TESTS_SCHEMA_V4_H
#define TESTS_SCHEMA_V4_H

#include "schema_v3.h"

static const char SCHEMA_V4_AFTER_V3[] =
    "CREATE TABLE unsandboxed ("
    "  run_id INTEGER NOT NULL REFERENCES runs(id),"
    "  agent_id INTEGER NOT NULL REFERENCES agents(id),"
    "  PRIMARY KEY (run_id, agent_id)) WITHOUT ROWID;"
    "PRAGMA user_version = 4;";

#endif
