/* arena/solver/mccfr.h — external-sampling Monte Carlo CFR (Lanctot et al. 2009) for games whose tree is
 * too large to build: each iteration walks one sampled tree per player (every action of the traverser,
 * one sampled action of the opponent and of chance), storing regrets and strategy sums in an
 * information-state table that grows as states are met (gametree.h's table without nodes). Keys are the
 * perfect-recall keys, or the game's view keys as an abstraction.
 *
 * Linear weighting (linear CFR's weights, Brown and Sandholm 2019, on sampled regrets): iteration t's
 * regrets and average-strategy contributions count t times. Instead of weighting each update by t (sums
 * that outgrow a float's precision), the whole table is multiplied by p/q at each point q of a fixed
 * schedule (every iteration up to 50, then each time the count grows by about 2%; p the point before), so
 * an iteration counts as the schedule point that begins its stretch: at most 2% below t, at a cost of one pass
 * over the table per point (a few hundred passes per million iterations). The schedule depends only on
 * the iteration count, so a resumed checkpoint goes on exactly.
 *
 * History baselines (variance-reduced MCCFR, Schmid et al. 2019, with the predictive baseline of Davis,
 * Schmid and Bowling 2020): at an opponent's history h the sampled value v(h a*) of the one action drawn
 * is replaced by sum_a sigma(a) b(h a) + v(h a*) - b(h a*), which has the same expectation for any
 * baseline b fixed before the draw, and less variance the closer b is to the true values. b(h a) is the
 * latest estimate of v(h a) met at h (kept in a direct-mapped cache of one 64-byte line per history, its
 * actions' values in Black's terms, shared by both players' walks), 0 where none is cached. Histories are
 * identified by a 64-bit hash of the actions from the root. The cache is not part of a checkpoint: a
 * resumed run starts with it empty (still unbiased, but not the bytes of an uninterrupted run). Histories
 * with more than SV_BASELINE_ACTIONS actions are sampled plainly. */
#ifndef ARENA_SOLVER_MCCFR_H
#define ARENA_SOLVER_MCCFR_H

#include "gametree.h"

typedef struct {
    const efg_game *g;
    sv_tree table;          /* information states only (no nodes) */
    float *regret;          /* [table.n_actions] */
    double *strategy_sum;   /* [table.n_actions] */
    uint32_t cap;           /* capacity of regret[] and strategy_sum[] */
    uint64_t rng;
    long iteration;
    unsigned char *states;  /* one state per depth */
    bool linear;            /* linear weighting (above); set after sv_mccfr_init, before iterating */
    int baseline_bits;      /* > 0: history baselines in a cache of 2^bits lines (above); set before iterating */
    struct sv_baseline_line *baseline; /* the cache, allocated by the first iteration */
} sv_mccfr;

#define SV_BASELINE_ACTIONS 14

/* The cache's bits for a budget of mib >= 1 MiB: the most 64-byte lines, a power of two, that fit. */
int sv_mccfr_baseline_bits(long mib);

/* view_keys: key information states by g->view_key (which must exist). Returns 0 or -1 (out of memory). */
int sv_mccfr_init(sv_mccfr *m, const efg_game *g, bool view_keys, uint64_t seed);
void sv_mccfr_free(sv_mccfr *m);

/* Makes room for the table's current size (after loading a checkpoint into m->table). 0 or -1. */
int sv_mccfr_reserve(sv_mccfr *m);

/* One iteration: one sampled walk per player. Returns 0, or -1 when out of memory. */
int sv_mccfr_iterate(sv_mccfr *m);

/* The average strategy per table action (uniform where never updated): out[table.n_actions]. */
void sv_mccfr_average(const sv_mccfr *m, double *out);

/* An action index drawn from p[n] with one step of rng (the draw every sampled walk makes: sampled RCFR
 * draws exactly as MCCFR does). */
int sv_mccfr_sample(uint64_t *rng, const double *p, int n);

#endif
