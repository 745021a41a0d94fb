/* arena/coordinator/runner.h — the coordinator's game loop: binds a ZeroMQ ROUTER on a private ipc endpoint, starts
 * agent processes (one per side per concurrent game, kept from game to game), checks their hello and
 * token, plays games through the referee with a wall-clock budget per move, and turns every fault into a
 * forfeit with a reason and a detail:
 *
 *   timeout         no hello within the handshake time, or no move within move_ms + margin_ms, or (an agent
 *                   with a game clock) within its clock's time left + margin_ms ("out of time: clock ...")
 *   crash           the process exited or was killed (its exit status or signal in the detail)
 *   illegal         an attempt at a cell the mover already knows, or off the board (the cell in the detail)
 *   protocol_error  a malformed message, a wrong game id, a message out of turn (what was wrong)
 *   disconnected    its connection could not be written to, or (an agent not started by this runner)
 *                   it stopped answering pings
 *
 * The process at fault is killed with its process group and a fresh one is started for its next game;
 * the run goes on.
 *
 * Processes live across games: a finished game leaves both processes idle, and the next game of an agent
 * takes an idle process of that agent before a new one is started, so with no faults an agent runs at most
 * `concurrency` processes however the games are ordered. The pool holds max(2k + 2, k * n_agents) processes
 * for k = concurrency, capped at max_processes (never below 2k + 2); when it is full, the least recently
 * used idle process (of another agent) is asked to exit to make room. An agent with restart_each_game gets
 * a fresh process for every game: its process is asked to exit when its game ends. A process asked to exit
 * (`shutdown`) is killed with its process group if it is still running a second later. Games come from the caller one at a time (next_game), so a league can feed a stored
 * schedule; each finished game is handed back (finished) before anything else happens. */
#ifndef ARENA_COORDINATOR_RUNNER_H
#define ARENA_COORDINATOR_RUNNER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "agent.h"
#include "curvezmq.h"
#include "game.h"
#include "protocol.h"
#include "timecontrol.h"

typedef struct {
    const char *name;          /* a label for logs and messages, e.g. "random" */
    const ag_command *command; /* parsed with ag_command_parse() */
    const char *server_key;    /* with `listen`: the server key (Z85) this bot is told to trust, as pinned in its
                                * configuration; NULL: the coordinator's own */
    bool restart_each_game;    /* a fresh process for every game (`restart = game`); false: a process plays
                                * game after game until it forfeits */
    const char *host;          /* NULL: started here; else the public key (Z85) of the agent host (`arena host`,
                                * hostlink.h) that starts it, on the coordinator's request, and relays its
                                * connection; `command` is then unused (the host's is reported by host_agent) */
    const tc_control *time_control; /* NULL: no game clock; else its clock in every game (docs/leagues.md "Time
                                * controls"): it runs from a turn sent to the move received; an attempt may take
                                * min(move_ms, time left) + margin_ms; one that takes longer than the time left
                                * but not the margin leaves the clock at 0; a completed move (the turn passes)
                                * adds the increment, each MOVES-th the period's time. Each turn tells it
                                * (clock_ms, inc_ms, moves_to_go, and opp_clock_ms when the opponent has one) */
} rn_agent;

typedef struct {
    uint64_t id;               /* game id on the wire (unique within the run) */
    int black, white;          /* indices into rn_config.agents */
    hx_variant variant;
    int rows, cols;
    unsigned flags;            /* HX_SWAP_RULE */
    uint64_t seed;             /* each player is sent its own seed derived from this one and rn_config.seed_key */
    const uint16_t *opening;   /* NULL/0: none; else cells placed alternately by Black and White, Black first, as the
                                * game's first opening_len attempts before the players move (docs/protocol.md
                                * "Openings"; checked before the game: an invalid one fails the run, naming the game).
                                * The caller's memory: it must stay valid until the game is finished */
    int opening_len;
    void *tag;                 /* the caller's, handed back in rn_result */
} rn_game;

typedef struct {
    const rn_game *game;
    const hx_game *play;       /* the attempts as played */
    int winner;                /* HX_BLACK or HX_WHITE */
    hx_end_reason reason;
    const char *detail;        /* "" for HX_END_CONNECTED */
    double seconds;
    const char *started, *finished; /* ISO 8601 UTC */
    const double *think_ms;    /* NULL (the game never started), or per attempt of `play` (index i: attempt i + 1)
                                * the mover's thinking time in ms, from the message asking for the attempt to
                                * the attempt's arrival; -1 for the opening's attempts, which the referee played */
    const tc_clock *clock[2];  /* by colour: the player's game clock at the end (its time control, time left and
                                * moves), NULL: it had none; 0 ms left after a forfeit on time */
} rn_result;

typedef struct {
    const rn_agent *agents;
    int n_agents;
    int concurrency;           /* games at a time, >= 1 */
    int max_processes;         /* cap of the process pool (above); 0: RN_MAX_PROCESSES */
    uint32_t move_ms;          /* budget per attempt */
    uint32_t margin_ms;        /* added to move_ms before a move is late (transport, scheduling) */
    uint32_t handshake_ms;     /* from start to hello */
    uint32_t ping_ms;          /* while waiting longer than this for a move, ping every ping_ms; for an
                                * agent not started here, three unanswered pings are `disconnected` */
    const char *log_dir;       /* agent output goes to log_dir/<log_prefix>-<name>-<n>.log, n counting
                                * the run's processes from 1 (through a pipe the runner reads, at most the
                                * agent's limits.log_mb MiB a process, botlog.h); refused connections (with `listen`) to
                                * log_dir/<log_prefix>-connections.log */
    const char *listen;        /* NULL: a private ipc endpoint in a 0700 directory removed at the end; else a
                                * tcp:// endpoint to bind, guarded by CurveZMQ with server_key: each bot
                                * process gets a fresh client key pair (ARENA_PUBLIC_KEY, ARENA_SECRET_KEY) and
                                * the server's public key (ARENA_SERVER_KEY); only those client keys are let in */
    const cv_keypair *server_key;
    uint32_t host_wait_ms;     /* a process of an agent whose host is not connected waits this long for it, then
                                * its game is forfeited (`disconnected`); a host silent for 3 s is lost: the games
                                * of its processes are forfeited (`disconnected`, "host ... lost") */
    const char *log_prefix;
    const uint8_t *seed_key;   /* SEEDS_KEY_BYTES: the secret the players' seeds derive from (seeds.h), the same
                                * for every run of a league so its games get the same seeds again; NULL: one
                                * drawn for this run */
    volatile sig_atomic_t *stop; /* set (by a signal handler) to wind down: games in progress are abandoned */
    const char *refuse_v1;     /* NULL: an agent that speaks protocol 1 plays, an opening replayed to it (referee.h);
                                * else (the run plays from openings) it is refused at its first hello, before any game
                                * of it: the run stops with RN_REFUSED and "agent 'NAME' speaks protocol 1; " followed
                                * by this text (what needs protocol 2, and the fix) as the error */
    bool debug;                /* every message to and from a bot also goes to its log ("debug -> ...",
                                * "debug <- ..."), with the time, as MessagePack printed as text */
    bool fair_timing;          /* in classical, where the rules hide an attempt on a hidden stone from the stone's
                                * owner: each turn is released on a schedule that does not depend on the attempts
                                * after the mover's first, and the opponent's clock is shown without them
                                * (docs/protocol.md "Fair timing"; runner.c) */

    /* The next game to play: fills *g and returns true, or false when there are no more. */
    bool (*next_game)(void *user, rn_game *g);
    /* An agent said hello for the first time in this run (its name and version). Return false to refuse
     * it (e.g. it does not play the variant): the run stops with `why` as the error. */
    bool (*hello)(void *user, int agent, const pm_msg *hello, char *why, size_t whylen);
    /* An agent host connected and runs `agent` with this command line, whose executable has this SHA-256
     * (before any of the agent's processes says hello). May be NULL. */
    void (*host_agent)(void *user, int agent, const char *command, const char *sha256);
    /* A game is over. Return false to stop the run (e.g. the database failed; set why). */
    bool (*finished)(void *user, const rn_result *r, char *why, size_t whylen);
    void *user;
} rn_config;

/* The default cap of the process pool: bot processes alive at once (idle ones included). */
#define RN_MAX_PROCESSES 256

/* RN_REFUSED: an agent was refused at its hello (refuse_v1): bad input, nothing of it was played. */
typedef enum { RN_DONE = 0, RN_FAILED = 1, RN_STOPPED = 2, RN_REFUSED = 3 } rn_status;

/* Plays until next_game() has no more and every game is finished, or until *stop or a failure (reason
 * in err). Every process it started is gone when it returns. */
rn_status rn_run(const rn_config *cfg, char *err, size_t errlen);

/* Starts one process of `agent`, waits for its hello (cfg->handshake_ms), copies it to *hello and stops
 * the process: what the agent says it plays, before a schedule is written. RN_FAILED with the reason
 * (it crashed, never said hello) in err; RN_REFUSED with the refusal (refuse_v1) in err. Only agents, n_agents,
 * handshake_ms, log_dir, log_prefix, stop and refuse_v1 of cfg are used. */
rn_status rn_probe(const rn_config *cfg, int agent, pm_msg *hello, char *err, size_t errlen);

#endif
