/* arena/solver/dowalk.h — the double-oracle method (doracle.h) without the game tree: pure strategies kept as
 * sparse maps from information-state keys to cells, payoffs by playing the one game out on the rules engine,
 * and the exact best response to a mixture of pure strategies by a walk over the responder's information
 * states that follows only the opponent's support (the boards whose tree does not fit: abrupt 3x3, 4x3).
 *
 * Pure strategy (dw_pure): a table from a player's perfect-recall key (hx_key_fingerprint(), the key the
 * game tree and the policy files use) to a cell; at a state whose key is not in the table (or whose cell is
 * not legal there), the player attempts its default cell (dwdefault.h: a shortest-path heuristic on what it
 * sees). A best response stores only the states its own play reaches against the mixture it answers; the
 * default completes it to a strategy of the whole game.
 *
 * Best response to a mixture (dw_best_response): responder p, opponent strategies s_1..s_k with weights
 * w_1..w_k > 0 (normalised by their sum). There is no chance in the dark variants, so a support member and
 * the responder's actions fix the whole history: the walk carries, for each responder information state, the
 * vector of (member, game) pairs consistent with it. At each of its legal cells the responder's attempt is
 * played in every pair, then the opponent's moves by its member's strategy until the responder is to move
 * again or the game is over; finished games add weight times the responder's utility (+1 win, -1 loss), the
 * others are grouped by the responder's new key, each group one information state walked in turn. The
 * value of a state is the maximum over its cells of the sum (the lowest cell on ties), so the result is the
 * exact best-response value against the mixture (double arithmetic), and the strategy is the cell chosen at
 * every state the chosen cells reach. Once a cell wins every game of the state, the later cells are not
 * walked (none does better). Information states are walked once each (perfect recall).
 *
 * The loop (dw_solve) is doracle.h's: a restricted matrix game over the two sets, solved by GLPK's dual
 * simplex, Black's mixture x and White's y, then
 *     upper = Black's best-response value against y,   lower = -(White's best-response value against x)
 * (lower <= V <= upper for the game value V, whatever the sets); a best response joins its set when it beats
 * the restricted value by more than 1e-12; it stops when the best bounds so far are within the tolerance,
 * when no best response is new, or at a limit. The first strategy of each set is the empty table (the
 * default cell everywhere). Supported: the dark variants (all six), boards of at most 16 cells, no swap rule.
 * docs/solver.md. */
#ifndef ARENA_SOLVER_DOWALK_H
#define ARENA_SOLVER_DOWALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "doracle.h"
#include "dwdefault.h"
#include "game.h"
#include "variant.h"

#define DW_MAX_CELLS 16

typedef struct dw_pure dw_pure;

/* An empty strategy (the default cell everywhere), or NULL when out of memory. */
dw_pure *dw_pure_new(void);
void dw_pure_free(dw_pure *s);
/* Sets the cell at the state of this key; 0, or -1 when out of memory. */
int dw_pure_set(dw_pure *s, uint64_t key, int cell);
/* The cell stored for this key, or -1. */
int dw_pure_get(const dw_pure *s, uint64_t key);
/* States stored. */
size_t dw_pure_size(const dw_pure *s);
/* Calls fn for every stored (key, cell); stops with -1 at the first call that returns non-zero, else 0. */
int dw_pure_each(const dw_pure *s, int (*fn)(void *ctx, uint64_t key, int cell), void *ctx);

/* The strategy's salt: 0 (a new strategy's) plays dw_default where it stores nothing, any other salt
 * dw_default_spread with that salt (dwdefault.h). */
void dw_pure_set_salt(dw_pure *s, uint32_t salt);

/* The cell s plays in g (its player to move): the stored one when legal there, else its default cell
 * (dwdefault.h's dw_default, from memo when not NULL, or dw_default_spread when s has a salt). */
int dw_pure_play(const dw_pure *s, const hx_game *g, dw_memo *memo);
/* The same with the mover's key fingerprint already known (hx_key_fingerprint(g, hx_to_move(g))). */
int dw_pure_play_key(const dw_pure *s, const hx_game *g, uint64_t key, dw_memo *memo);

/* Whether the walk handles this game; otherwise *why says why. */
bool dw_supported(hx_variant v, int rows, int cols, const char **why);

/* Black's utility (+1 or -1) when Black plays b and White plays w (memo as for dw_pure_play). */
double dw_payoff(hx_variant v, int rows, int cols, const dw_pure *b, const dw_pure *w, dw_memo *memo);

/* Player p's exact best response to the opponent's mixture (k >= 1 strategies, weights >= 0 with a positive
 * sum; members of weight at most 1e-12 of the sum are dropped and the rest normalised: that is the mixture
 * answered, so that a state where every game is won is recognised as such despite rounding): its value (p's expected utility) in *value, the strategy in *out
 * when out is not NULL (the caller frees it), the responder's information states walked added to *states
 * when not NULL. Returns 0, or -1 with a message (out of memory, an unsupported game). */
int dw_best_response(hx_variant v, int rows, int cols, int p, const dw_pure *const *opp, const double *w, int k,
                     double *value, dw_pure **out, uint64_t *states, char *err, size_t errlen);

/* The same in the game where Black's first attempt is fixed to `first` (-1: free, dw_best_response): a Black
 * best response attempts only that cell at the start (the opponent's mixture, when Black's, is taken to open
 * there, as every member of a restricted game with that opening does). */
int dw_best_response_first(hx_variant v, int rows, int cols, int first, int p, const dw_pure *const *opp,
                           const double *w, int k, double *value, dw_pure **out, uint64_t *states, char *err,
                           size_t errlen);

/* A mixture of one player's pure strategies: k members with weights summing to 1. */
typedef struct {
    int k;
    dw_pure **member;
    double *weight;
} dw_mixture;

void dw_mixture_free(dw_mixture *m);

typedef struct {
    double tolerance;      /* stop when upper - lower <= tolerance (default 1e-10) */
    double time_limit;     /* seconds (0: none); checked between iterations */
    int max_iterations;    /* 0: none */
    do_progress progress;  /* called after every iteration (NULL: none) */
    void *ctx;
    dw_mixture *keep;      /* when not NULL (two of them, zeroed): on success keep[0] is Black's restricted
                            * mixture that gave the best lower bound and keep[1] White's that gave the best
                            * upper bound (members of weight at most 1e-12 dropped, the rest renormalised);
                            * the caller frees them with dw_mixture_free */
    bool spread;           /* the sequence oracle (doseq.h): each restricted mixture's members after the first
                            * get salts 1, 2, ... (dw_pure_set_salt), so that where the restricted game ends
                            * the mixture spreads over several default cells instead of one */
    int first;             /* the sequence oracle (doseq.h) only: Black's first attempt fixed to this cell, the
                            * game solved the one after that opening (White knowing it); -1 (the default): free.
                            * dw_solve refuses it. */
} dw_options;

typedef struct {
    double value;          /* the last restricted game's value for Black */
    double lower, upper;   /* the best bounds on the game value found */
    double gap;            /* upper - lower */
    bool converged;        /* gap <= tolerance */
    bool stalled;          /* no best response was new while the gap was above tolerance */
    int iterations;        /* restricted games solved */
    uint32_t strategies[2];/* pure strategies in each player's set at the end */
    uint32_t support[2];   /* of those, with positive weight in the last restricted equilibrium */
    uint64_t lp_iterations;/* simplex iterations, all restricted games */
    uint64_t states;       /* responder information states walked, all best responses */
    uint64_t stored;       /* information states stored in all the pure strategies kept */
    double seconds, seconds_lp, seconds_oracle;
    size_t bytes;          /* the strategies' tables and the payoff matrix */
} dw_result;

void dw_options_default(dw_options *o);

/* Runs the double oracle on the R x C board of variant v. Returns 0 (converged or not: see r), or -1 with a
 * message in err (unsupported game, out of memory, GLPK failing). */
int dw_solve(hx_variant v, int rows, int cols, const dw_options *o, dw_result *r, char *err, size_t errlen);

#endif
