/* arena/coordinator/session.h — a league or a match as one object: opened from a config (its file or its text)
 * or from a match's options, run with callbacks, summarised, closed. `arena league`, `arena match` and whatever
 * else runs games (a server, a ladder) go through it, so every game is set up, sandboxed, seeded, played and
 * stored the same way:
 *
 *   agents    each config agent becomes a command (its executable hashed: the agent's identity), its limits and
 *             its sandbox policy (ss_agent_setup, the one place that does it);
 *   league    the schedule is planned by the config's mode (mode.h) and written to the store before any game, so a
 *             league interrupted at any moment resumes where it stopped; a mode that plans as results come in
 *             (knockout) adds rows between rounds; an SPRT decides pairings as their games are stored;
 *   match     two agents, N games of one variant and board, colours alternating;
 *   both      the players' seeds derive from a secret stored with the run (seeds.h), nothing a bot may read (the
 *             config, the database, the logs, the secret) is shown in a sandbox, and the first SIGINT or SIGTERM
 *             winds the run down with every game played so far kept.
 *
 * The opening functions check everything that can be checked before the database is opened: a bad config writes
 * nothing. They return an SS_* status with a one-line reason in err (for a config: file, line, section and key). */
#ifndef ARENA_COORDINATOR_SESSION_H
#define ARENA_COORDINATOR_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "agent.h"
#include "config.h"
#include "curvezmq.h"
#include "identity.h"
#include "record.h"
#include "runner.h"
#include "seeds.h"

/* What opening a session returns (the `arena` exit statuses of the same meaning). */
enum { SS_OK = 0, SS_FAILED = 1, SS_USAGE = 2, SS_BUSY = 3 };

typedef struct ss_session ss_session;

typedef struct {
    const char *config;            /* the config file: read once, parsed, hashed and stored as read */
    const char *text;              /* or, when not NULL, the config's text (config then only names it) */
    const char *db;                /* the results database (made with its folder when it is the default) */
    const char *logs;              /* the bots' logs */
    const char *seed;              /* NULL: the config's; a whole number; "date": the night's date as YYYYMMDD (today's
                                    * in UTC when there is no night) */
    const char *night;             /* YYYY-MM-DD the league belongs to, or NULL */
    int shard, shards;             /* play only rows n with n % shards == shard - 1; 0: all */
    const uint8_t *secret;         /* SEEDS_KEY_BYTES: the league's secret (every shard the same), or NULL */
    const char *secret_name;       /* how to name it in messages (e.g. its file) */
    bool resume;                   /* only continue an unfinished league (SS_USAGE when there is none) */
    bool fresh;                    /* start a new league even when an unfinished one exists */
    bool renew;                    /* an unfinished league whose agents no longer play what they were scheduled for
                                    * (asked again): a new league is started (a warning says so) instead of the
                                    * refusal (SS_USAGE, naming --new) */
    bool debug;                    /* every message to and from a bot also in its log (runner.h) */
    /* Warnings before and after the run (an agent that could not be asked what it plays, openings that repeat,
     * pairings that repeat games), one line each without a newline. NULL: on stderr after "arena league: warning: ". */
    void (*warn)(void *user, const char *line);
    void *user;
} ss_league_opts;

typedef struct {
    cfg_agent agents[2];           /* BOT_A, BOT_B: cmdline, store_name, limits (-1: default), sandbox, network,
                                    * env, restart_each_game, server_key (the key bots are told to trust),
                                    * time_control (with has_time_control: over the match's) */
    bool named[2];                 /* store_name given: it stays; else the agent is named by its hello */
    hx_variant variant;
    int rows, cols;
    unsigned flags;
    const uint16_t *opening;       /* every game's opening (checked by the caller), or NULL for the suite below */
    int opening_len;
    const char *openings;          /* without `opening`: "random" (NULL too: the league's default, balanced random
                                    * openings of opening_stones stones from `seed`), "none", or a suite file; game
                                    * pair i (games 2i and 2i+1, colours reversed) plays opening i of the suite, as in
                                    * a league (docs/leagues.md#openings-and-game-pairs) */
    int opening_stones;            /* of a random opening (the league's default: 2) */
    bool openings_replay;          /* a bot that speaks protocol 1 has its openings replayed to it (docs/protocol.md);
                                    * false: a match from openings refuses it (RN_REFUSED) at its hello */
    long games;
    uint64_t seed;                 /* game i's seed derives from it and i */
    int concurrency;
    uint32_t move_ms, margin_ms, handshake_ms;
    tc_control time_control;       /* both players' game clock (base_ms 0: none) unless an agent has its own */
    const char *listen;            /* tcp:// with CurveZMQ, or NULL for a private ipc socket */
    const cv_keypair *server_key;
    const char *db, *logs;
    bool debug;                    /* every message to and from a bot also in its log (runner.h) */
    bool fair_timing;              /* turns released on a schedule that does not tell what the rules hide (runner.h) */
} ss_match_opts;

/* Callbacks of a run: progress on stderr every `every` games when it is not a terminal (quiet: none), and each game
 * once it is stored. */
typedef struct {
    long every;
    bool quiet;
    void (*game)(void *user, const rn_result *r);
    void *user;
} ss_callbacks;

/* Where a session stands: after opening (what it will play) and after ss_run (what it played). */
typedef struct {
    bool league;
    int64_t id;                    /* the league's id, or the match's run id */
    const char *name;              /* the league's name */
    const char *mode;              /* its mode's name */
    bool resumed;
    uint64_t seed;
    char openings[600];            /* "random, 2 stones", "none", the suite file, or (a match) "a1 b2" */
    int scheduled;                 /* rows of the schedule when opened */
    int to_play;                   /* rows this session plays when opened (this shard's) */
    long played;                   /* games stored by this session */
    int pending;                   /* rows still to play after the run (this shard's) */
    long skipped;                  /* rows not to be played (decided pairings) */
    long forfeits[HX_END_COUNT];
    long forfeit_total;
    const char *unsandboxed[CFG_MAX_AGENTS];
    int n_unsandboxed;
    double seconds;
    const char *db;
    int shards;
    int n_agents;
    const rec_agent *agents;       /* as stored (a match's named NAME#ID when two share a name, rec_label) */
    const ag_command *commands;
    int stop_signal;               /* the signal that stopped the run, 0 */
} ss_summary;

/* A config agent as a command to run: its command line parsed against its dir (which must be a directory; an
 * agent on a host gets the placeholder "(on its host)"), its limits (the config's where given, else the
 * defaults), its sandbox policy, and its identity (identity.h: the files it names hashed into `files`, NULL to
 * leave them out). Returns 0, or -1 with the reason in err and the config key at fault in *key ("dir",
 * "command"). */
int ss_agent_setup(const cfg_agent *ca, ag_command *cmd, id_files *files, const char **key, char *err,
                   size_t errlen);

/* The league secret in the file `path`: 32 hexadecimal digits (16 bytes), white space around them allowed.
 * Returns 0, or -1 with the reason in err. */
int ss_read_secret(const char *path, uint8_t key[SEEDS_KEY_BYTES], char *err, size_t errlen);

/* Opens a league: the config read and checked, the database opened and claimed (SS_BUSY when another league
 * coordinator has it), the league found again (resumed) or planned and written (its agents asked what they play
 * when the config does not say), and the league's lock taken (league_lock.h: readers see it running until
 * ss_close or the end of this process, however it ends). */
int ss_open_league(const ss_league_opts *o, ss_session **out, char *err, size_t errlen);

/* What a league would play, without playing it or writing anything: the config read and checked as
 * ss_open_league does (no agent is started: one without its own variant and board lists counts as playing the
 * league's), and the database, when it exists, read only (it may be in use by a league meanwhile). */
typedef struct {
    char name[256];                /* the league's name */
    uint64_t seed;
    int64_t league;                /* the unfinished league it would resume, 0: a new league */
    int scheduled;                 /* that league's schedule rows, 0: a new league */
    long games;                    /* the games to play (this shard's with --shard) */
    bool at_most;                  /* games is an upper bound: agents are asked what they play, or the mode (sprt,
                                    * knockout) may decide pairings early */
    int64_t plays_league;          /* a new league counted with what the agents announced to this league, the
                                    * newest of the same name and config (0: by the config alone) */
    int concurrency;               /* games played at once (the config's) */
    int64_t pace_league;           /* the newest league of this name with games (0: none), whose games */
    long pace_games;               /* (this many) took */
    double pace_s;                 /* this long each on average, in seconds (NAN: none) */
    double estimate_s;             /* games * pace_s / concurrency: an estimate of the wall time (NAN: none) */
} ss_plan;

/* Fills p. Returns SS_OK, SS_USAGE (a bad config, the reason in err as for ss_open_league) or SS_FAILED (the
 * database cannot be read). */
int ss_plan_league(const ss_league_opts *o, ss_plan *p, char *err, size_t errlen);

/* Opens a match: both agents set up, the database opened, the run begun with a fresh secret. */
int ss_open_match(const ss_match_opts *o, ss_session **out, char *err, size_t errlen);

/* Plays what the session has to play. RN_FAILED with the reason in err; RN_STOPPED when a signal stopped it
 * (ss_summary's stop_signal). */
rn_status ss_run(ss_session *s, const ss_callbacks *cb, char *err, size_t errlen);

const ss_summary *ss_summary_of(ss_session *s);

/* A league's results by pairing and its mode's part, after ss_run: in text, "distinct games: ..." and a line per
 * pairing where the mode lists them, then the mode's lines; in JSON, `,"distinct":N,"repeating_pairings":N,
 * "pairings":[...]` and the mode's keys, inside an object being written. Pairings that repeat games are warned
 * of (text only). Returns 0, or -1 with the reason in err (the store failed). */
int ss_write_pairings(ss_session *s, FILE *out, bool json, char *err, size_t errlen);

void ss_close(ss_session *s);

#endif
