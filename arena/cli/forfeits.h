/* arena/cli/forfeits.h — forfeits by agent in the summaries of `arena match` and `arena league`, and the check
 * behind --max-forfeit-rate, so a script can fail a night where an agent forfeits most of its games. */
#ifndef ARENA_CLI_FORFEITS_H
#define ARENA_CLI_FORFEITS_H

#include <stdbool.h>

#include "record.h"

/* Exit status of a run that completed but in which an agent forfeited more than --max-forfeit-rate allows. */
#define CLI_FORFEITS 4

/* In text, one line "forfeits by agent: NAME 50 of 60 games (illegal 50); ..." naming every agent that forfeited
 * a game of this run (nothing when none did). */
void cli_forfeits_text(const rec_agent *agents, int n);

/* In JSON, `,"forfeits_by_agent":[{"name","games","forfeits","reasons":{REASON:N,...}}]` for every agent that played
 * in this run, for an object being written. */
void cli_forfeits_json(const rec_agent *agents, int n);

/* --max-forfeit-rate R: parses R (a share from 0 to 1) or exits 2 naming the option. */
double cli_forfeit_rate(const char *cmd, const char *value);

/* Whether an agent forfeited more than `rate` of its games in this run (rate < 0: no limit); when one did, a line
 * on stderr names it ("arena CMD: NAME forfeited 50 of 60 games (83%), over --max-forfeit-rate 0.5"). */
bool cli_forfeits_over(const char *cmd, const rec_agent *agents, int n, double rate);

#endif
