/* arena/solver/valcert.h — value certificates (docs/surewin.md "Value certificates"): a text file holding
 * both players' behaviour strategies of a dark board with exact rational probabilities and the bounds on
 * Black's value they give, and an independent checker that computes, in exact rational arithmetic (GMP),
 * each player's best response against the other's stated strategy on the rules engine (game.h). It shares
 * no code with the solvers (gametree, bestresponse, seqform, doracle): only the rules engine and the
 * notation of the sure-win certificates' histories.
 *
 * File (one item a line, fields separated by one space):
 *     darkhex-value 1
 *     variant V          a dark variant
 *     board RxC
 *     first CELL         optional: Black's first attempt is fixed to CELL (the value after that opening)
 *     lower P/Q          what Black's strategy guarantees Black (minus White's best-response value to it)
 *     upper P/Q          what White's strategy holds Black to (Black's best-response value to it)
 *     states N           N lines follow
 *     PLAYER HISTORY CELL=P/Q CELL=P/Q ...
 * PLAYER is black or white; HISTORY is the player's perfect-recall information state: `-` (nothing told
 * yet) or its events joined by `,`: `+c` its stone placed at cell c, `xc` its attempt at c hit a hidden
 * stone (rejected or collided), `!` the opponent hit one of its stones (-noisy), `!c` the opponent hit its
 * stone at c (-flash). Then each attempt with its probability, a non-negative rational `P/Q` or integer
 * `P`; a state's probabilities sum to exactly 1. A state that the player's own strategy never reaches may
 * be left out; the checker refuses a certificate when a missing state is reached. When lower = upper the
 * certificate proves that this is the value of the game. Values are Black's: +1 a Black win, -1 a White
 * win. The dark variants have no chance moves (the reports are determined by the play), so every number
 * the checker uses is one of the file's. With `first CELL`, the game is the one where Black always opens at CELL
 * (and White knows it): Black's stated strategy must open there (the checker refuses it otherwise), and Black's
 * best response attempts only CELL at the start; the bounds are then the value after that opening. */
#ifndef ARENA_SOLVER_VALCERT_H
#define ARENA_SOLVER_VALCERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"

#define VC_HISTORY_MAX (HX_MAX_EVENTS * 5 + 2)

/* HISTORY for events ev[0..n) of a board with `cols` columns (every event the player was told). */
void vc_history(const hx_event *ev, int n, int cols, char out[VC_HISTORY_MAX]);

/* True when the file's first line is `darkhex-value ...` (a value certificate, not a sure-win one). */
bool vc_is_value_file(const char *path);

typedef struct vc_cert vc_cert;

/* An empty certificate of a dark variant (NULL for another variant, a bad board or out of memory). */
vc_cert *vc_new(hx_variant v, int rows, int cols);
/* Adds (or replaces) the state of (player, history): n attempts with probabilities as text "P/Q" or "P".
 * Returns 0, or -1 with the reason in err (a malformed history, cell or number, a cell listed twice, a
 * negative probability, probabilities not summing to exactly 1, out of memory). */
int vc_add(vc_cert *c, int player, const char *history, int n, const uint16_t *cells, const char *const *probs,
           char *err, size_t errlen);
/* Sets the stated bounds (text "P/Q", "P" or "-P/Q"). Returns 0, or -1 with the reason in err. */
int vc_set_bounds(vc_cert *c, const char *lower, const char *upper, char *err, size_t errlen);
/* Writes the file (states in the order they were first added). Returns 0, or -1 with the reason in err. */
int vc_save(const vc_cert *c, const char *path, char *err, size_t errlen);
/* Reads a certificate. NULL with "FILE:LINE: why" (or "FILE: why") in err on bad input or out of memory. */
vc_cert *vc_load(const char *path, char *err, size_t errlen);
void vc_free(vc_cert *c);
void vc_describe(const vc_cert *c, hx_variant *v, int *rows, int *cols, uint64_t states[2]);

/* The states in the order first added (the file's order): vc_state_count() of them. State i's player (0
 * Black, 1 White), history text, attempts and, in probs (room for HX_MAX_CELLS), their probabilities as
 * doubles (exact in the file; rounded here). Returns the number of attempts, or -1 for i out of range. */
uint32_t vc_state_count(const vc_cert *c);
int vc_state(const vc_cert *c, uint32_t i, int *player, const char **history, const uint16_t **cells,
             double *probs);
/* Fixes Black's first attempt to cell (-1: free, the default). 0, or -1 for a cell off the board. */
int vc_set_first(vc_cert *c, int cell);
/* The fixed first cell, or -1. */
int vc_first(const vc_cert *c);
/* A certificate of black's Black states and white's White states, exactly as they are (the same variant,
 * board and first cell), stating black's lower and white's upper bound: what Black's strategy of the one
 * guarantees and what White's of the other holds Black to, once vc_check confirms them. NULL with the reason
 * in err (another variant, board or first cell; out of memory). */
vc_cert *vc_merge(const vc_cert *black, const vc_cert *white, char *err, size_t errlen);
/* The stated bounds, rounded to doubles. */
void vc_bounds(const vc_cert *c, double *lower, double *upper);

typedef struct {
    uint64_t histories;  /* true game histories walked (each player-to-move or terminal node once) */
    uint64_t infosets;   /* information states of the best-responding player met */
    char why[400];       /* when refuted or undecided: the history and what went wrong */
} vc_report;

/* Player's exact best-response value against the other player's stated strategy, in player's own terms
 * (Black's value for player 0, White's = minus Black's for player 1), as malloc'd text "P/Q" in *value.
 * 1 done, 0 the certificate is refuted (a missing state that the opponent's own play reaches, an illegal
 * attempt: why in r), -1 more than max_states histories would be walked (0: no limit) or out of memory. */
int vc_best_response(const vc_cert *c, int player, uint64_t max_states, char **value, vc_report *r);

/* Checks the certificate: both best responses (max_states each) and the stated bounds. 1 verified (lower
 * = minus White's best response, upper = Black's), 0 refuted (why in r), -1 undecided (the cap or memory).
 * On 1 and on a refuted bound, *lower and *upper (malloc'd, may be NULL on other outcomes) hold what the
 * strategies give. */
int vc_check(const vc_cert *c, uint64_t max_states, char **lower, char **upper, vc_report *r);

/* Checks the file at path and writes a one-line summary "PATH: RxC V: verified: value P/Q (= D) ..." /
 * "...: REFUTED: why ..." / "...: undecided: why" into msg. 1 verified, 0 refuted, -1 undecided or a file
 * not read. */
int vc_check_file(const char *path, uint64_t max_states, char *msg, size_t msglen);

#endif
