/* arena/solver/surecert.h — sure-win certificates (docs/surewin.md "Certificates"): a text file holding one
 * player's deterministic strategy, the attempt for every history of what that player is told, and an
 * independent checker that replays it on the rules engine (game.h) against every behaviour of the opponent
 * (a belief-set search over true games, with no use of the sure-win search's keys or memo) or against a
 * sample of random behaviours.
 *
 * File: the lines `darkhex-surewin 1`, `variant V`, `board RxC`, `player black|white`, `reports ignore|count`
 * and `moves N`, then N lines `HISTORY CELL`. HISTORY is `-` (nothing told yet) or the player's events
 * joined by `,`: `+c` its stone placed at cell c, `xc` its attempt at c hit a hidden stone, `!` the opponent
 * hit one of its stones. With `reports ignore` the strategy does not look at reports (they are left out of
 * HISTORY); with `count` a report's cell (-flash) is not looked at. */
#ifndef ARENA_SOLVER_SUREWIN_CERT_H
#define ARENA_SOLVER_SUREWIN_CERT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "game.h"

#define SC_HISTORY_MAX (HX_MAX_EVENTS * 5 + 2)

/* Whether the certificates of variant v look at reports (the abrupt variants that tell them). */
bool sc_reports_counted(hx_variant v);

/* HISTORY for events ev[0..n) of a board with `cols` columns, reports kept or left out as `counted`. */
void sc_history(const hx_event *ev, int n, int cols, bool counted, char out[SC_HISTORY_MAX]);

/* The header lines of a certificate with `moves` lines to follow. */
void sc_write_header(FILE *f, hx_variant v, int rows, int cols, int player, uint64_t moves);

typedef struct sc_cert sc_cert;

/* Reads a certificate. NULL with "FILE:LINE: why" in err on bad input or out of memory. */
sc_cert *sc_load(const char *path, char *err, size_t errlen);
void sc_free(sc_cert *c);
void sc_describe(const sc_cert *c, hx_variant *v, int *rows, int *cols, int *player);

typedef struct {
    uint64_t histories;  /* the player's histories met (one attempt looked up for each) */
    uint64_t states;     /* true game states carried, summed over the histories */
    uint64_t games;      /* sampled games (sc_check_sample) */
    char why[240];       /* when refuted: the history and what went wrong */
} sc_report;

/* Every behaviour of the opponent: 1 the certificate wins every game, 0 refuted (why in r), -1 more than
 * max_states true states would be needed (0: no limit) or memory ran out. */
int sc_check_all(const sc_cert *c, uint64_t max_states, sc_report *r);

/* `games` games against an opponent choosing uniformly among its legal attempts (seeded): 1 all won, 0 one
 * lost or left the certificate (why in r). */
int sc_check_sample(const sc_cert *c, uint64_t games, uint64_t seed, sc_report *r);

#endif
