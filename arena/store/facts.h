/* arena/store/facts.h — what a report says about a league beyond its games: its config and seed, how much of
 * its schedule was played, when, the league of the same name before it, and the agents' stored facts
 * (command, version, program hash). Read side, like query.h. */
#ifndef ARENA_STORE_FACTS_H
#define ARENA_STORE_FACTS_H

#include <stdint.h>

#include "store.h"

typedef struct {
    int64_t id;
    char name[256];
    char *config;              /* the config file's text when the league started (malloc'd) */
    char config_sha256[65];
    uint64_t seed;
    char created[32];          /* ISO 8601 UTC */
    long planned, played, skipped; /* schedule rows; rows with a game; rows skipped (a decided SPRT) */
    long runs;                 /* the sittings (runs) that played its games */
    char first_started[32], last_finished[32]; /* of its games; "" when none */
} store_league_facts;

/* League `id`: 1 with *out filled (free with store_league_facts_free), 0 when there is none, -1 on error. */
int store_league_facts_get(store_db *s, int64_t id, store_league_facts *out);
void store_league_facts_free(store_league_facts *f);

/* The league before `id` in its series: the newest league with the same name, a smaller id and at least one
 * played game. Its id, 0 when there is none, -1 on error. */
int64_t store_league_previous(store_db *s, int64_t id);

typedef struct {
    int64_t id;
    char name[96];
    char command[2200];
    char version[128];
    char sha256[65];
    char first_seen[32];
} store_agent_row;

/* Agent `id`: 1 with *out filled, 0 when there is none, -1 on error. */
int store_agent_get(store_db *s, int64_t id, store_agent_row *out);

/* What makes agent `id` another agent than the one before it with its name and command line (the newest with a
 * smaller id): "results/x.pol changed since #7" (each named file whose hash differs, or that it names and the other
 * did not), "its program changed since #7", or "" when there is no such agent. Returns 0, or -1 on error. */
int store_agent_changes(store_db *s, int64_t id, char *out, size_t size);

#endif
