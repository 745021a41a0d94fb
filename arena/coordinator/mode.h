/* arena/coordinator/mode.h — league modes as an ops table (docs/leagues.md "Modes"): what a mode decides is which
 * games the schedule gets and when (plan), when a pairing stops (decide), and what the summary shows beyond the
 * pairings every league lists (summarise). Each mode is one file (mode_roundrobin.c, mode_gauntlet.c,
 * mode_sprt.c, mode_knockout.c) holding one lm_mode, and one line of mode.c's table lists it; nothing else in
 * the arena tests which mode a league has. */
#ifndef ARENA_COORDINATOR_MODE_H
#define ARENA_COORDINATOR_MODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "config.h"
#include "league.h"
#include "pairing.h"
#include "pentanomial.h"
#include "store.h"

/* A league as it stands, for planning and summaries: its config, what each agent plays, the opening suites
 * (NULL in summaries), the games played so far in schedule order, the rows still to play, and how many rows
 * the schedule has (played, pending and skipped; the next row's position). */
typedef struct {
    const cfg_league *cfg;
    const cfg_games *plays;        /* plays[i]: what agent i of cfg plays */
    const lg_suites *suites;
    const store_league_game *games;
    int n_games;
    const store_planned *pending;
    int n_pending;
    int total;
    pn_sprt sprt;                  /* the config's hypotheses (mode = sprt) */
} lm_state;

struct lm_mode {
    const char *name;              /* as written in a config: `mode = NAME` */
    bool challenger;               /* needs `challenger =`; the challenger is the first agent of its pairings */
    bool shardable;                /* its schedule may be split with --shard (it does not depend on results) */
    bool lists_pairings;           /* the text summary has a line per pairing */
    int extra_pairs;               /* game pairs a pairing may play beyond games / 2 (tie-breaks): the random
                                    * opening suite holds that many more openings */
    /* Checks what the mode needs of a loaded config (its own keys). 0, or -1 with "FILE:LINE: [league] KEY: why"
     * in err (line: the [league] header's). NULL: nothing to check. */
    int (*check)(const cfg_league *c, int line, char *err, size_t errlen);
    /* The rows to add to the schedule of the league in `s` (none yet when it is new): *out malloc'd (NULL when
     * none), their positions from s->total on. Returns how many, or -1 out of memory. A mode whose whole
     * schedule is known at the start returns it when s->total is 0 and nothing after. */
    int (*plan)(const lm_state *s, store_planned **out);
    /* The most games the league can schedule (64-bit, nothing built), to refuse a config over LG_MAX_GAMES. */
    long long (*count)(const cfg_league *c, const cfg_games *plays);
    /* Pairing q got a game: returns true when its remaining games are not to be played (they are marked
     * skipped). NULL: never. */
    bool (*decide)(const pn_sprt *t, pg_pairing *q);
    /* The mode's part of pairing q in the summary: text appended to its line, or in JSON the value of its
     * "sprt" key. NULL: nothing in text, null in JSON. */
    void (*pairing)(const lm_state *s, const pg_pairing *q, FILE *out, bool json);
    /* The mode's own part of the summary after the pairings: lines of text, or in JSON `,"KEY":VALUE` inside the
     * summary object. NULL: none. */
    void (*summarise)(const lm_state *s, FILE *out, bool json);
};

/* The mode named `name`, NULL when there is none. */
const lm_mode *lm_parse(const char *name);

/* The default mode (round-robin). */
const lm_mode *lm_default(void);

/* "round-robin, gauntlet, sprt or knockout": the modes for messages. */
const char *lm_list(void);

/* Helpers for the modes' files. The schedule of a mode that knows every game at the start: lg_plan's whole
 * schedule when s->total is 0, else nothing. */
int lm_plan_once(const lm_state *s, store_planned **out);

#endif
