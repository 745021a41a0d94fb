/* arena/coordinator/config.h — league configurations (the configs/ folder; format in docs/leagues.md): a [league]
 * section and one [agent NAME] section per bot. Loading checks every key and value and reports the first
 * problem as "FILE:LINE: [section] key: what is expected", with any byte of the config that is not printable
 * ASCII written as \xNN. Lines may be of any length (within CFG_MAX_FILE); a value longer than its field is
 * an error naming the key and the limit, never cut short. A repeated section ([league], [agent NAME]) or a
 * repeated key within a section is an error naming both lines. Loading checks the text only: whether a
 * command runs or a `dir` exists is for the caller (arena league checks both before writing anything). */
#ifndef ARENA_COORDINATOR_CONFIG_H
#define ARENA_COORDINATOR_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "timecontrol.h"

#define CFG_MAX_AGENTS 32
#define CFG_MAX_BOARDS 16
#define CFG_NAME_MAX 64
#define CFG_MAX_READ 8             /* `read =` paths of one agent */
#define CFG_MAX_ENV 16             /* `env =` entries of one agent */
#define CFG_MAX_FILE (1 << 20)     /* bytes of a config file */
#define CFG_COMMAND_MAX 4096       /* characters of `command`, and of `args` */
#define CFG_MAX_GAMES 100000       /* `games` per pairing */
#define CFG_MIN_MEMORY_MB 32       /* the smallest `memory_mb` limit (other than 0, none) a bot can start under */
#define CFG_MIN_PIDS 8             /* the smallest `pids` limit (other than 0, none): a bot's threads count too */

/* A league mode (mode.h): round-robin (every pair of agents), gauntlet (the challenger against each other
 * agent), sprt (a gauntlet whose pairings each stop when their SPRT is decided), knockout (single elimination). */
typedef struct lm_mode lm_mode;

#define CFG_OPENINGS_MAX_STONES 32

typedef struct {
    uint32_t variants;             /* bit v: hx_variant v */
    int n_boards;                  /* 0: any (agents only) */
    uint8_t boards[CFG_MAX_BOARDS][2];
} cfg_games;

typedef struct {
    char name[CFG_NAME_MAX];       /* the section's: what the league's schedule, challenger and logs use */
    char store_name[CFG_NAME_MAX]; /* `name =`, default the section's: what it is stored and reported under;
                                    * no two agents of a config have one (cfg_load refuses it) */
    int name_line;                 /* the line of its `name =`, 0 for none */
    char command[CFG_COMMAND_MAX + 1], args[CFG_COMMAND_MAX + 1]; /* as given */
    char cmdline[2 * CFG_COMMAND_MAX + 2]; /* command and args: the command line to run */
    char dir[512];                 /* working directory; "" = the arena's */
    cfg_games plays;               /* what it may play; variants 0 / no boards: what its hello announces */
    bool has_variants, has_boards;
    long memory_mb, cpu_seconds, open_files; /* process limits (0 = none); -1 = the arena's default */
    long pids, tmp_mb, log_mb;     /* the sandbox's processes and threads, its /tmp in MiB, its log in MiB per
                                    * process (0 = none); -1 = the arena's default (agent.h) */
    long disk_mb, files;           /* what its writable directory may hold: MiB, entries (0 = none; -1 = default) */
    char server_key[48];           /* with listen: the server key (Z85) pinned for this bot; "" = the league's */
    char host[48];                 /* `host = KEY`: the public key (Z85) of the agent host (`arena host`) that runs it;
                                    * "" = the coordinator starts it; its command is then the host's */
    char server_key_file[512], host_key_file[512]; /* `server_key_file =`, `host_key_file =`: the same keys read
                                    * from .pub files by whoever runs the league (ss_open_league), not by the parser */
    int server_key_file_line, host_key_file_line;
    /* The sandbox (`sandbox = on|off`, default the league's; off is for trusted bots only) and what it lets
     * the bot have beyond its defaults: the network, a writable `dir`, extra read-only paths, and extra
     * environment variables (NAME: passed on from the arena's environment; NAME=value: set). */
    bool sandbox, has_sandbox;
    bool network, writable;        /* default false */
    bool writable_run;             /* `writable = run`: writable, but a copy of `dir` made for each run (league or
                                    * resumed league) and removed after it: the lab's directory is never written */
    bool restart_each_game;        /* `restart = game`: a fresh process for every game; forfeit (default): a
                                    * process plays game after game and is replaced only after a forfeit */
    /* `time_control = MOVES/SECONDS+INC` (timecontrol.h) or none: this agent's game clock, over the league's (time
     * odds); base_ms 0 with has_time_control: none */
    tc_control time_control;
    bool has_time_control;
    int n_read, n_env;
    char read[CFG_MAX_READ][512];
    char env[CFG_MAX_ENV][256];
    /* `needs = PATH, …`: files or directories the agent cannot play without (a policy, a trained model), checked
     * before the league starts: a missing one, or an empty directory, refuses the league naming it and
     * `made_by = COMMAND` (what makes it, e.g. make policies) */
    int n_needs;
    char needs[CFG_MAX_READ][512];
    char made_by[128];
    int line;                      /* where its section starts */
    int command_line, dir_line;    /* where its command and dir are */
    int needs_line;                /* where its `needs` is */
} cfg_agent;

typedef struct {
    char path[512];
    char name[CFG_NAME_MAX];
    const lm_mode *mode;           /* `mode =`, default round-robin */
    char challenger[CFG_NAME_MAX];
    cfg_games games;               /* variants and boards of the league */
    int per_pairing;               /* games per pairing per variant and board; even */
    uint32_t move_ms;              /* `move_time_ms`: the budget of one attempt */
    tc_control time_control;       /* `time_control`: every player's game clock (base_ms 0: none) unless its agent
                                    * has its own */
    uint32_t handshake_ms;         /* from a bot's start to its hello */
    int concurrency;
    int max_processes;             /* bot processes alive at once, idle ones included; 0: the runner's default
                                    * (RN_MAX_PROCESSES); at least 2 * concurrency + 2 are kept regardless */
    uint64_t seed;
    bool seed_date;                /* `seed = date`: the day's date, YYYYMMDD in UTC, when the league starts */
    char openings[512];            /* "random" (default), "none", or the path of a suite file */
    int opening_stones;            /* stones of a random opening (default 2) */
    bool openings_replay;          /* `openings_compat = replay`: an agent that speaks protocol 1 has its openings
                                    * replayed to it (docs/protocol.md); refuse (default): it is refused before the
                                    * first game of a league that plays from openings */
    double elo0, elo1, alpha, beta; /* mode = sprt: the hypotheses (logistic Elo) and error rates */
    bool swap;                     /* hex games on square boards are played with the swap rule */
    bool fair_timing;              /* `fair_timing = on`: turns released on a schedule that does not tell what the
                                    * rules hide (runner.h, docs/protocol.md "Fair timing") */
    bool sandbox;                  /* `sandbox = on|off`: the agents' default (on) */
    char listen[256];              /* "" = a private ipc endpoint; else tcp://HOST:PORT with CurveZMQ */
    uint32_t host_wait_ms;         /* `host_wait_s`: how long a game of an agent on a host waits for the host to be
                                    * connected before it is forfeited (default 0: at once) */
    char server_key[512];          /* with listen: the key file from `arena keygen` */
    int n_agents;
    cfg_agent agents[CFG_MAX_AGENTS];
} cfg_league;

/* Loads and checks a league config. Returns 0, or -1 with a one-line reason in err. */
int cfg_load(const char *path, cfg_league *c, char *err, size_t errlen);

/* The same from `len` bytes of config text (NULs refused like any other byte out of place); `path` names it in
 * messages and in c->path. What cfg_load reads is parsed here, so a stored config parses as its file did. */
int cfg_parse(const char *text, size_t len, const char *path, cfg_league *c, char *err, size_t errlen);

/* A config file's text (NUL-terminated; *len bytes without the NUL; malloc'd), refused like cfg_load refuses a
 * file it cannot read: NULL with a one-line reason in err. */
char *cfg_read(const char *path, size_t *len, char *err, size_t errlen);

/* Copies `in` to out (n bytes with the NUL) with every byte that is not printable ASCII written as \xNN, for
 * messages that quote config text; cuts it short when out is full. */
void cfg_printable(const char *in, char *out, size_t n);

/* Cuts an inline comment off a value, in place: ';' or '#' at its start or after a space or tab, outside quotes
 * (single and double quotes and backslash escapes as ag_command_parse reads them). Every INI file of the project
 * (league configs, LADDER.ini, a submission's manifest) reads comments this way. */
void cfg_cut_comment(char *v);

/* Parses "3x3, 5x5" / "classical, abrupt" / "all". Return false with *why on a bad entry. */
bool cfg_parse_boards(const char *text, cfg_games *g, char *why, size_t whylen);
bool cfg_parse_variants(const char *text, uint32_t *variants, char *why, size_t whylen);

/* Parses a whole number (decimal, nothing around it) from min to max into *out; false otherwise. */
bool cfg_parse_number(const char *value, long long min, long long max, long long *out);

#endif
