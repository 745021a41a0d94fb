/* arena/solver/matgame.h — the restricted matrix game of the double-oracle solvers (doracle.c on the game
 * tree, dowalk.c without it): Black's expected payoff for each pair of the pure strategies each player has so
 * far, grown one strategy at a time, and its equilibrium by GLPK's simplex.
 *
 * The LP, kept between solves (each starts from the last basis): maximise v over Black's mixture x, with
 * column 1 for v, column 2 + i for x_i in [0, 1]; row 1 says the weights sum to 1, row 2 + j that v is at
 * most x's payoff against White's j-th strategy. The LP's payoffs are shifted by umax (so they lie in
 * [0, 2 umax], and v with them): the same mixtures, and a sparser matrix where payoffs are wins and losses
 * (every loss is a zero), which the simplex factorises faster. White's mixture y is read from the rows'
 * duals. Both mixtures are returned normalised to sum 1. */
#ifndef ARENA_SOLVER_MATGAME_H
#define ARENA_SOLVER_MATGAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t n[2];  /* pure strategies of Black (rows) and White (columns) */
    uint32_t cap;   /* the matrix's capacity in each dimension (and of x, y, pay) */
    double *M;      /* Black's payoffs: M[i * cap + j] */
    double *x, *y;  /* the last solve's mixtures of Black (n[0] weights) and White (n[1]) */
    double *pay;    /* work: a new strategy's payoffs */
    double shift;   /* added to every payoff in the LP (umax) */
    void *lp;       /* GLPK's problem */
} mg_game;

/* Black's payoff when the strategy being added meets the other player's k-th strategy. */
typedef double (*mg_payoff)(void *ctx, uint32_t k);

/* An empty game whose payoffs lie within [-umax, umax]. 0, or -1 out of memory. */
int mg_init(mg_game *g, double umax);
void mg_free(mg_game *g);

/* Black's payoff when Black plays its i-th strategy and White its j-th. */
static inline double mg_at(const mg_game *g, uint32_t i, uint32_t j)
{
    return g->M[(size_t)i * g->cap + j];
}

/* Adds a strategy of player p (0 Black, 1 White) whose payoff (Black's) against the other player's k-th strategy
 * is payoff(ctx, k), for each k < n[1 - p]. 0, or -1 out of memory (the game is unchanged but for capacity). */
int mg_add(mg_game *g, int p, mg_payoff payoff, void *ctx);

/* Solves the game: Black's mixture into g->x, White's into g->y, the value for Black into *v; the simplex
 * iterations are added to *iterations. With exact, GLPK's exact rational simplex (glp_exact) then starts from
 * the simplex's basis. 0, or -1 with a message in err (no optimum, an empty mixture). */
int mg_solve(mg_game *g, bool exact, double *v, uint64_t *iterations, char *err, size_t errlen);

/* The strategies of each player with positive weight in the last solve's mixtures. */
void mg_support(const mg_game *g, uint32_t support[2]);

/* Bytes of the matrix and its vectors. */
size_t mg_bytes(const mg_game *g);

#endif
