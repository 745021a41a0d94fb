/* arena/protocol/protocol.h — the coordinator/agent messages (docs/protocol.md is the contract): one C struct for
 * every message type, MessagePack encoding, and decoding that checks sizes before anything is allocated.
 *
 * Contract
 * - A message is one MessagePack map with a "type" key; unknown keys are ignored.
 * - pm_decode() refuses, with a one-line reason, any input over PM_MAX_MESSAGE bytes, any string over
 *   PM_MAX_STRING bytes, any array or map over PM_MAX_ITEMS entries or nested deeper than PM_MAX_DEPTH,
 *   any count larger than the bytes left could hold, and any missing or mistyped key. Those checks run on
 *   the raw bytes before msgpack-c builds objects, so a hostile header cannot make it allocate.
 * - pm_encode() writes exactly what pm_decode() reads back. */
#ifndef ARENA_PROTOCOL_PROTOCOL_H
#define ARENA_PROTOCOL_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "result.h"

/* Protocol versions (docs/protocol.md "Changes"): an agent's hello names the one it speaks; the coordinator accepts
 * PM_VERSION_MIN..PM_VERSION. 2: an attempt's outcome comes in the mover's next turn (or game_end) as an event, no
 * `result`; openings need it (a version-1 agent is refused or has its opening replayed, arena/protocol/referee.h). */
#define PM_VERSION 2
#define PM_VERSION_MIN 1
#define PM_MAX_MESSAGE 65536 /* bytes; also the sockets' ZMQ_MAXMSGSIZE */
#define PM_MAX_STRING 255    /* bytes in any string */
#define PM_MAX_ITEMS 1024    /* entries in any array or map */
#define PM_MAX_DEPTH 4       /* nesting of arrays and maps */
#define PM_MAX_BOARDS 64     /* board sizes an agent may list in hello */

typedef enum {
    PM_HELLO,      /* agent -> coordinator: who it is and what it plays */
    PM_GAME_START, /* coordinator -> agent */
    PM_TURN,       /* coordinator -> agent: your move; what you were told since your last turn */
    PM_MOVE,       /* agent -> coordinator: a cell, or swap */
    PM_RESULT,     /* coordinator -> agent: the outcome of your attempt */
    PM_GAME_END,   /* coordinator -> agent: winner, reason, the full board */
    PM_PING,       /* either way */
    PM_PONG,       /* either way, answers a ping with its nonce */
    PM_SHUTDOWN,   /* coordinator -> agent: exit now */
    PM_ERROR,      /* either way: a message to log */
    PM_TYPE_COUNT
} pm_type;

typedef struct {
    pm_type type;
    uint64_t game; /* game_start, turn, move, result, game_end */

    /* hello: the version the agent speaks. game_end: the version it is written for (2 writes its `events`) */
    int protocol;
    char token[PM_MAX_STRING + 1], name[PM_MAX_STRING + 1], version[PM_MAX_STRING + 1];
    uint32_t variants;   /* bit v set: can play hx_variant v; every bit set when the agent lists none */
    int n_boards;        /* 0: any board */
    uint8_t boards[PM_MAX_BOARDS][2];

    /* game_start */
    hx_variant variant;
    int rows, cols, color; /* color: HX_BLACK or HX_WHITE */
    uint32_t move_ms;
    uint64_t seed;
    bool swap;
    /* game_start after an opening of k > 0 stones (docs/protocol.md "Openings"; all 0 without one, and the keys
     * are then absent): the player's own opening stones and the opponent's it is told (hex: all of them; dark
     * variants: none), each in play order, and how many opponent opening stones it is not told. pm_decode()
     * refuses cells off the board or repeated, `seen` outside hex, `hidden` in hex, and counts that are not
     * those of an opening for the player's colour (Black placed stones 1, 3, 5, ..., White 2, 4, ...). */
    int n_own, n_seen, hidden;
    uint16_t own[HX_MAX_CELLS], seen[HX_MAX_CELLS];

    /* turn: events since the player's previous turn (or the game's start); protocol 2: the player's own outcomes
     * (placed, rejected, collided, swap) among them. game_end, protocol 2: what the player was told since its last
     * turn (its last attempt's outcome, what the opponent's last attempts told it) */
    int n_events;
    hx_event events[HX_MAX_EVENTS];

    /* turn, protocol 2: the game clocks (docs/protocol.md "Clocks (protocol 2)"). has_clock: the player has one,
     * and the turn carries clock_ms (its time left), inc_ms (added after each completed move) and moves_to_go
     * (moves until its period's time is added again; 0: sudden death); has_opp_clock: the opponent has one, and
     * the turn carries opp_clock_ms. Without them the keys are absent. pm_decode() takes clock_ms, inc_ms and
     * moves_to_go together or not at all. */
    bool has_clock, has_opp_clock;
    uint32_t clock_ms, inc_ms, opp_clock_ms;
    int moves_to_go;

    /* move (cell, HX_SWAP for swap) and result (cell, outcome, won) */
    int cell;
    hx_outcome outcome;
    bool won;

    /* game_end */
    int winner;
    hx_end_reason reason;
    char detail[PM_MAX_STRING + 1];
    int n_cells;
    uint8_t board[HX_MAX_CELLS]; /* 0 empty, 1 Black, 2 White */

    /* ping, pong */
    uint64_t nonce;

    /* error */
    char message[PM_MAX_STRING + 1];
} pm_msg;

/* Names used on the wire: "hello", ..., and "connected", "timeout", ... */
const char *pm_type_name(pm_type t);
const char *pm_event_name(hx_event_kind k);

/* Encodes m into buf (capacity cap). Returns the number of bytes, or 0 when it does not fit. */
size_t pm_encode(const pm_msg *m, uint8_t *buf, size_t cap);

/* A message's bytes as text for a trace (msgpack-c's printing of the object: {"type"=>"turn", ...}), cut with "..."
 * to fit cap bytes with the NUL; bytes that are not MessagePack as "<N bytes, not MessagePack>". Returns out. */
char *pm_dump(const uint8_t *data, size_t len, char *out, size_t cap);

/* Decodes one message. Returns 0, or -1 with a one-line reason in why (e.g. "key 'cell': expected an
 * integer"). m is fully written either way (zeroed first). A hello refused for a missing or mistyped key still
 * has m->type PM_HELLO and, when its "token" is a string, m->token: the coordinator can tell which of its
 * processes sent it. */
int pm_decode(const uint8_t *data, size_t len, pm_msg *m, char *why, size_t whylen);

#endif
