/* arena/store/merge.h — merging the databases of a league's shards (`arena league --shard K/N`, one coordinator
 * each) into one: the league once, with its whole schedule, and every game a shard played in its schedule row,
 * with its attempts, its players (matched by name, command line and program hash) and its sitting (run).
 * Idempotent: a row that already has its game keeps it, so merging a shard again, or a shard rerun after a
 * failure, adds only what is new. */
#ifndef ARENA_STORE_MERGE_H
#define ARENA_STORE_MERGE_H

#include <stdbool.h>
#include <stddef.h>

#include "store.h"

typedef struct {
    long leagues;       /* leagues of the shard */
    long leagues_new;   /* of those, created in the output (the first shard of a league) */
    long games;         /* games the shard holds */
    long games_new;     /* copied into the output */
    long games_present; /* already there (merged before, or from another shard): left as they are */
    long games_differ;  /* of those, with another winner or number of attempts than the shard's: a shard of
                         * another run of the league; the output's are kept */
} store_merge_stats;

/* Merges the leagues of the arena database at `shard` (already at this schema: open it with store_open first)
 * into `out`, in one transaction. A league of the shard goes into the output's league of the same name and
 * seed, or a new one. Refused, with nothing written, the reason in err and *bad set: a league whose name and
 * seed match one in the output but whose config (its SHA-256) or secret differ, or whose schedule differs.
 * Returns 0, or -1 (with *bad false: a database error). */
int store_merge(store_db *out, const char *shard, store_merge_stats *st, bool *bad, char *err, size_t errlen);

#endif
