/* arena/solver/doseq.h — the sequence-form double oracle (Bosansky, Kiekintveld, Lisy and Pechoucek, 2014)
 * for the dark boards whose tree does not fit: the restricted game is the game itself with each player
 * limited, at each of its information states, to the attempts its best responses so far made there (and the
 * default cell of dwdefault.h, what every strategy of dowalk.h plays where it stores nothing); that game's
 * tree is small, and its sequence-form LP (seqform.h) gives both restricted equilibria at once. Each
 * equilibrium, extended by the default outside the restricted game, is a behaviour strategy of the whole
 * game; decomposed into a mixture of pure strategies (dowalk.h's dw_pure) it is answered by dowalk.h's exact
 * best response, which gives the bounds
 *     upper = Black's best-response value against White's mixture,  lower = -(White's against Black's),
 * and whose attempts at the states its own play reaches join the restricted game. It stops when the best
 * bounds are within the tolerance, when neither best response adds an attempt, or at a limit. Unlike the
 * pure-strategy oracle (dowalk.h), the restricted game combines the players' attempts state by state, so a
 * few best responses span many pure strategies. The mixtures of the best bounds can be kept (dw_options.keep)
 * for a value certificate (dowalk_cert.h). With dw_options.spread, the decomposed mixtures' members after the
 * first play dwdefault.h's spread default where they store nothing (dw_pure_set_salt): outside the restricted
 * game the mixture is then not one known strategy, which a best response on the -flash boards otherwise
 * steers to and beats outright. Dark variants, boards of at most 16 cells, no swap. docs/solver.md. */
#ifndef ARENA_SOLVER_DOSEQ_H
#define ARENA_SOLVER_DOSEQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dowalk.h"
#include "seqform.h"
#include "valcert_write.h"

typedef struct {
    double value;            /* the last restricted game's value for Black */
    double lower, upper, gap;
    bool converged, stalled;
    int iterations;          /* restricted games solved */
    uint64_t attempts[2];    /* (state, attempt) pairs the best responses added, Black's and White's */
    uint64_t seeded[2];      /* (state, attempt) pairs the seeds gave */
    uint32_t nodes, infosets[2]; /* the last restricted game's tree and information states */
    uint32_t support[2];     /* pure strategies in the last mixtures */
    uint64_t states;         /* responder information states walked, all best responses */
    uint64_t lp_iterations;  /* simplex iterations, all restricted LPs (each from the last one's basis with CLP
                              * unless sf_options.cold) */
    double seconds, seconds_tree, seconds_lp, seconds_oracle;
} ds_result;

/* The last restricted game solved exactly once the bounds meet (ds_solve's `exact`). */
typedef struct {
    const char *certificate;  /* in: when set, the certificate of the exact equilibrium is written there
                               * (doseq_cert.h: the game's value when that equilibrium is the game's) */
    vw_options vw;            /* in: the certificate writer's options (its max_states) */
    double time_limit;        /* in: each round's two exact LPs stopped after this many seconds; 0: what is left
                               * of dw_options.time_limit (no round starts past it), none without one. Limited,
                               * they run in a child process (memguard.h) killed at the limit */
    char *value;              /* out: malloc'd "P/Q", the last restricted game's exact value; NULL when the
                               * bounds did not meet or the exact solve failed (see why) */
    vw_result cert;           /* out: the certificate's bounds, when one was written */
    bool certified;           /* out: a certificate was written */
    double seconds, cert_seconds; /* out: the exact LPs (all rounds); the certificate */
    int rounds;               /* out: restricted games solved exactly: more than one when the exact equilibria
                               * of one were exploitable in the whole game (their best responses then grow it,
                               * and the loop goes on) */
    char why[300];            /* out: why there is no exact value or certificate (empty: none failed) */
} ds_exact;

/* Frees exact's outputs. */
void ds_exact_free(ds_exact *exact);

/* Runs it on the R x C board of variant v, the restricted games solved with lp's options (its `only` and
 * `write_mps` are ignored). With seed (NULL or two mixtures, e.g. dowalk.h's kept ones, with the bounds
 * seed_bounds[0] and [1] that Black's and White's give), the restricted game starts with every attempt the
 * seeds' members store, so it holds those mixtures from the first iteration, and the seeds are the best
 * bounds and mixtures until beaten; the seeds are taken over (kept in o->keep or freed; zeroed in seed).
 * With o->first set, seed it with mixtures of that opening's game (every Black member opening there, e.g. a
 * certificate's of it: doseq_seed.h): a seed Black member opening elsewhere is never the equilibrium of this
 * game, yet it stays the best Black mixture while no iteration's lower bound beats seed_bounds[0].
 * With exact (not NULL), once the bounds meet and so do the last restricted equilibrium's own (or its best
 * responses add nothing), the restricted game is solved again exactly (seqform.h's sf_solve_exact) and both
 * exact equilibria are answered by each player's best response: when they give the
 * value, it stops and, if asked, certifies them (see ds_exact); otherwise the best responses' attempts join the
 * restricted game and the loop goes on (the restricted LP of a degenerate game has many optima, and an exact
 * one need not be the one the bounds were met with).
 * Returns 0 (converged or not: see r), or -1 with a message in err (unsupported game, out of memory, the LP
 * failing, a restricted tree of more than max_nodes). */
int ds_solve(hx_variant v, int rows, int cols, const dw_options *o, const sf_options *lp, uint32_t max_nodes,
             dw_mixture *seed, const double *seed_bounds, ds_exact *exact, ds_result *r, char *err, size_t errlen);

#endif
