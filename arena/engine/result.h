/* arena/engine/result.h — why a game ended: the end reasons every layer shares (the referee announces
 * them, the store records them, the reports count them), and their names on the wire and in the
 * database. */
#ifndef ARENA_ENGINE_RESULT_H
#define ARENA_ENGINE_RESULT_H

typedef enum {
    HX_END_CONNECTED,      /* the winner joined its sides */
    HX_END_TIMEOUT,        /* the loser did not move within its budget */
    HX_END_CRASH,          /* the loser's process exited or was killed */
    HX_END_ILLEGAL,        /* the loser attempted a cell it already knew */
    HX_END_PROTOCOL_ERROR, /* the loser sent something malformed or out of turn */
    HX_END_DISCONNECTED,   /* the loser's connection went away */
    HX_END_COUNT
} hx_end_reason;

/* The names: "connected", "timeout", "crash", "illegal", "protocol_error", "disconnected". */
extern const char *const hx_end_names[HX_END_COUNT];

/* hx_end_names[r], or "?" when r is out of range. */
const char *hx_end_name(hx_end_reason r);

#endif
