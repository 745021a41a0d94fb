/* arena/coordinator/league.h — the schedule of a league: which games a config plans, in which order, with which seeds.
 * The schedule is a pure function of the config and of what each agent plays, so the same config and
 * seed always give the same games (docs/leagues.md). */
#ifndef ARENA_COORDINATOR_LEAGUE_H
#define ARENA_COORDINATOR_LEAGUE_H

#include "config.h"
#include "store.h"

/* Whether `plays` (variants; boards, none = any) includes variant v on rows x cols. */
bool lg_plays(const cfg_games *plays, int v, int rows, int cols);

/* Fills out[0..] (when out is not NULL) with the league's games and returns their number. plays[i] is
 * what agent i may play. Order: variant, then board (as listed), then round k of per_pairing, then pair
 * (config order; in a gauntlet, the challenger against each other agent); in round k the pair's first
 * agent is Black when k is even. Pairs where either agent does not play the variant and board are left
 * out. Game n's seed derives from the league seed and n. */
int lg_plan(const cfg_league *c, const cfg_games *plays, store_planned *out);

/* The most games one league may schedule: lg_plan builds the whole schedule in memory (about 170 bytes a game)
 * and the store writes it in one transaction before the first game. */
#define LG_MAX_GAMES 1000000

/* The number of games lg_plan would schedule, computed in 64 bits without building the schedule, so a config
 * can be checked against LG_MAX_GAMES before anything is allocated. plays NULL: every agent plays every
 * variant and board (the most the config can schedule). */
long long lg_count(const cfg_league *c, const cfg_games *plays);

#endif
