/* arena/solver/valcert_policy.h — a value certificate's strategies as a policy file (docs/policy-format.md):
 * each state of the certificate (valcert.h), both players', keyed by the perfect-recall hash of the events
 * its history names (hx_events_hash(), what policy-bot computes from its event log), with the certificate's
 * probabilities rounded to float32. policy-bot then plays the certified strategies; the states the
 * certificate leaves out (those the player's own strategy never reaches) fall back to uniform play as in
 * any file. Algorithm name `certificate`, iterations 0, exploitability (upper - lower) / 2 from the stated
 * bounds (0 for a certificate of the value). */
#ifndef ARENA_SOLVER_VALCERT_POLICY_H
#define ARENA_SOLVER_VALCERT_POLICY_H

#include <stddef.h>

#include "game.h"
#include "valcert.h"

/* The events a certificate history names, for a board of `cols` columns in variant v ("-" none; `xc` is a
 * rejection in the classical family, a collision in the abrupt one). Returns their number, or -1 on a
 * malformed history. */
int vc_history_events(const char *history, hx_variant v, int rows, int cols, hx_event *ev, int max);

/* State i of a certificate with its perfect-recall key: what vc_state() gives (player, history, attempts,
 * probabilities) and the hx_events_hash() of the events its history names. */
typedef struct {
    int player;             /* 0 black, 1 white */
    const char *history;    /* the certificate's text; "" when the state is out of range */
    const uint16_t *cells;  /* n attempts, owned by the certificate */
    double probs[HX_MAX_CELLS];
    int n;
    uint64_t key;
} vc_keyed_state;

/* Fills *s with state i. Returns s->n, or -1 for i out of range or a malformed history (s->player and
 * s->history still name the state when it exists, for the caller's message). */
int vc_state_keyed(const vc_cert *c, uint32_t i, vc_keyed_state *s);
/* The same, with "state N (PLAYER HISTORY): a malformed history" (N from 1) in err when it returns -1. */
int vc_state_keyed_why(const vc_cert *c, uint32_t i, vc_keyed_state *s, char *err, size_t errlen);

/* Writes the certificate's strategies as a policy file at path. 0, or -1 with the reason in err. */
int vc_policy_save(const vc_cert *c, const char *path, char *err, size_t errlen);

#endif
