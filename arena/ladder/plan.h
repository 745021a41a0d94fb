/* arena/ladder/plan.h — the league a ladder job plays, as config text for the session library (session.h), so a
 * ladder game is set up, sandboxed, seeded and stored as every league game is:
 *   placement  mode = gauntlet: the new version (the challenger) against every bot on the ladder that shares a
 *              variant and board with it (other versions of its own name left out), placement_pairs game pairs per
 *              pairing, variant and board;
 *   sprt       mode = sprt: the new version against the owner's version on the ladder, with the owner's elo0 and
 *              elo1, at most sprt_pairs game pairs;
 *   rating     mode = gauntlet: one bot of the ladder (the job's submission: the one whose rating is least certain,
 *              schedule.h) against the others, placement_pairs pairs.
 * Every agent is a submission as submission.h makes it: sandboxed, its directory read-only. The challenger is the
 * first agent. The league's seed is the job's id, so a job replayed elsewhere plays the same games. With runner = host
 * the league listens on listen_league with server_key (host_wait_s for a host that is not connected yet) and agent k
 * (the challenger is 0) gets `host_key_file = ` host_keys[k % n]: that `arena host` runs it, announcing it as
 * sID=DIR/PROGRAM ARGS, DIR the submission's unpacked directory, which must be at the same path on the host
 * (docs/ladder.md#bots-on-agent-hosts). */
#ifndef ARENA_LADDER_PLAN_H
#define ARENA_LADDER_PLAN_H

#include <stddef.h>
#include <stdio.h>

#include "ladder_db.h"
#include "ladder_ini.h"

/* The config text (malloc'd) of job j of submission s; *agents says how many agents it has (1: no opponent, nothing
 * to play). NULL with one line in err. */
char *ld_plan(ldb *d, const ld_config *c, const ldb_job *j, const ldb_submission *s, int *agents, char *err,
              size_t errlen);

/* The most games job kind `kind` ("placement", "sprt", "rating") of submission s would play against the ladder as it
 * is now (game pairs times opponents times the variants and boards they share): what games_per_day counts. -1 on
 * failure (err). */
long ld_plan_games(ldb *d, const ld_config *c, const char *kind, const ldb_submission *s, char *err, size_t errlen);

/* What an agent host runs for the ladder (runner = host): one line "sID=DIR/PROGRAM ARGS" for each submission on
 * the ladder, queued or running, oldest first, written to out; each line is one NAME=COMMAND argument of `arena
 * host`. Returns how many, or -1 with one line in err. */
int ld_host_agents(ldb *d, FILE *out, char *err, size_t errlen);

/* The store name of a submission in the results database: NAME-VERSION. */
void ld_store_name(const ldb_submission *s, char *out, size_t n);

#endif
