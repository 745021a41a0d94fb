/* arena/coordinator/record.h — recording a run in the store as the runner plays it: the run's row, each agent
 * registered once by name, command line and executable hash, every finished game stored with its attempts
 * (and, for a league, its schedule row), the tallies a summary needs (wins, forfeits by reason) and the progress line.
 * `arena match` and `arena league` play through this; what differs between them is a parameter: where the
 * agents' names come from (hello_names) and whether a game plays a schedule row (its rn_game.tag). */
#ifndef ARENA_RECORD_H
#define ARENA_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agent.h"
#include "identity.h"
#include "progress.h"
#include "protocol.h"
#include "result.h"
#include "runner.h"
#include "seeds.h"
#include "store.h"

/* One agent of the run, rn_config.agents[i] being rec_run.agents[i]. The caller fills name and command
 * (and named; the rest zero) before rec_attach; the name may be the rn_agent's name too, so logs follow a
 * rename. An agent is its name, its command line (command->line) and its executable (command->sha256): two
 * agents of a run with the same three are one agent of the store. */
typedef struct {
    char name[PM_MAX_STRING + 1];  /* agents.name it is stored under */
    ag_command *command;           /* its command line and identity hash (for an agent on a host, filled when the
                                    * host announces it: the host's command line and hash) */
    const id_files *files;         /* the files its command line names, with their hashes (NULL: none), stored with
                                    * it */
    bool named;                    /* the caller's name stays even with hello_names (`name=` of arena match) */
    char version[PM_MAX_STRING + 1]; /* from its hello; "" until then */
    int64_t id;                    /* agents.id; 0 until stored */
    long wins, wins_as[2];         /* games won; by colour (HX_BLACK, HX_WHITE) */
    long games;                    /* games it played in this run (stored) */
    long forfeits[HX_END_COUNT];   /* games it lost by forfeit in this run, by reason */
} rec_agent;

typedef struct {
    /* Set by the caller (the rest zero) before rec_attach: */
    store_db *store;
    rec_agent *agents;             /* as many as rn_config.agents */
    bool hello_names;              /* true (match): an agent is named by its hello (when it gives a name and
                                    * is not `named`) and
                                    * stored once, at its hello or, if it never said hello, at the end of its
                                    * first game; false (league): the caller's names stay, and its hello stores
                                    * the agent again with its version */
    /* Kept by the recorder: */
    int n_agents;                  /* rn_config.n_agents, from rec_attach */
    int64_t run;                   /* runs.id, from rec_begin */
    uint8_t seed_key[SEEDS_KEY_BYTES]; /* the run's secret for the players' seeds, from rec_begin */
    long played;                   /* games stored */
    long forfeits[HX_END_COUNT];   /* games stored, by end reason (forfeits[HX_END_CONNECTED] stays 0) */
    progress_meter prog;
    bool (*next_game)(void *user, rn_game *g); /* the caller's, from the rn_config given to rec_attach */
    void *user;
    /* Set by the caller when it wants it: told of every game once it is stored (e.g. a league's SPRT). Return
     * false to stop the run with why. */
    bool (*stored)(void *user, const rn_result *res, char *why, size_t whylen);
} rec_run;

/* Begins the run in the store (kind "match" or "league", a description for people) with the secret its players'
 * seeds derive from (seeds.h: a fresh one for a match, the league's for a league), which is stored with the run
 * and used by rec_play. Every agent whose command has sandbox.off is recorded with the run as unsandboxed
 * (store_run_unsandboxed): here when it is already stored (a league's agent asked what it plays), else when
 * the recorder stores it, at its hello or before its first game, so before any game of it. Returns 0, or -1
 * with "cannot record the run: <database error>" in err. */
int rec_begin(rec_run *r, const char *kind, const char *description, const uint8_t seed_key[SEEDS_KEY_BYTES],
              char *err, size_t errlen);

/* Makes cfg record into r: its next_game and user (the caller's; each game's tag is NULL, or the store_planned
 * schedule row it plays) move into r, and it gets the recorder's callbacks in their place. Then rn_probe(cfg)
 * stores the agent it asks at its hello, and rec_play(r, cfg) stores every agent and game of the run. */
void rec_attach(rec_run *r, rn_config *cfg);

/* Plays cfg (attached to r, the run begun with rec_begin: RN_FAILED otherwise) through rn_run with the secret
 * rec_begin stored (cfg's seed_key is not used): every finished game is stored, a database failure stops the run
 * (RN_FAILED with the reason in err). The progress line on stderr counts `total` games (`every` and `quiet`
 * as in progress_start); with total 0 nothing is started. When every game was played (RN_DONE) the run is
 * marked finished. The time rn_run took goes to *seconds. */
rn_status rec_play(rec_run *r, const rn_config *cfg, long total, long every, bool quiet, double *seconds, char *err,
                   size_t errlen);

/* Forfeits of all reasons. */
long rec_forfeits(const rec_run *r);

/* Forfeits of all reasons by one agent. */
long rec_agent_forfeits(const rec_agent *a);

/* The names of the run's agents that play without a sandbox (their command's sandbox.off), each agent once, in
 * the order of the agents, into names[0..max); returns how many there are (also beyond max). */
int rec_unsandboxed(const rec_run *r, const char **names, int max);

/* After the run, the names its summary shows (docs/cli.md#agent-names-in-reports): an agent whose name another,
 * different agent of the run has too is shown as NAME#ID (its agents.id), as every report shows agents that
 * share a name; one agent playing itself keeps its name. Renames r->agents[i].name in place. */
void rec_label(rec_run *r);

#endif
