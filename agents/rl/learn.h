/* agents/rl/learn.h — tabular Q-learning and SARSA on Dark Hex against a pool of opponents: itself
 * (self-play), the uniformly random player and the bridge builder (playing from its own view).
 *
 * Action values live per (information state, legal cell) in the solver's information-state table
 * (gametree.h: keys, players, legal cells) with one float value and one update count per action, so
 * checkpoints and policy files reuse the solver's formats. Keys are perfect recall (hx_key_fingerprint())
 * or the view (hx_view_key(): a generalising abstraction). A player's step runs from one of its decisions
 * to its next one (after the opponent's turn, or at once after a classical rejection): reward 0, and +1 / -1
 * at the end of the game. Q-learning backs up max Q(s'), SARSA the value of the action actually taken at s'
 * (undiscounted by default), with a constant step or the count-based step 1/n (n: the action's updates,
 * floored). New actions start at a given value (optimistic when > 0). Exploration is epsilon-greedy over
 * the legal cells, greedy ties broken at random.
 *
 * Each episode draws its opponent from the pool by weight; against a fixed opponent the learner plays one
 * colour (alternating), in self-play both colours learn. With symmetry on, every update is also applied to
 * the 180-degree rotation of the step (cell i <-> cells - 1 - i, which maps a Hex board and both players'
 * goals to themselves): the rotated state is the key of the rotated event history (or view), its legal
 * cells the rotated ones (action a <-> n - 1 - a, legal cells being in ascending order). Both states stay in
 * the table with equal values, so policy files and checkpoints need nothing new.
 *
 * The table grows until a memory budget; a state met after that is played uniformly and not learned
 * (counted). Every episode draws its randomness from (seed, episode), so a resumed run continues exactly
 * as an uninterrupted one. */
#ifndef AGENTS_RL_LEARN_H
#define AGENTS_RL_LEARN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gametree.h"
#include "planner.h"
#include "variant.h"

typedef enum { RL_QLEARNING, RL_SARSA } rl_algo;
typedef enum { RL_SELF, RL_RANDOM, RL_BRIDGE, RL_OPPONENTS } rl_opponent;
typedef enum { RL_STEP_CONSTANT, RL_STEP_COUNT } rl_step;
typedef enum { RL_CONSTANT, RL_LINEAR, RL_EXPONENTIAL } rl_decay;

/* epsilon(episode): constant:E; linear:E0:E1:N (E0 to E1 over N episodes, then E1); exponential:E0:E1:H
 * (E1 + (E0 - E1) * 2^(-episode / H): half-life H episodes). */
typedef struct {
    rl_decay kind;
    double e0, e1, n;
} rl_schedule;

/* Parses a schedule. Returns 0, or -1 with *why set. */
int rl_schedule_parse(const char *text, rl_schedule *out, const char **why);
double rl_epsilon(const rl_schedule *s, uint64_t episode);

/* Parses an opponent pool: a name (self, random, bridge) or a list NAME:WEIGHT,... (weights >= 0, not all
 * 0; a name left out weighs 0). Returns 0, or -1 with *why set. */
int rl_pool_parse(const char *text, double pool[RL_OPPONENTS], const char **why);

/* The pool as text ("self:1,random:2,bridge:2", zero weights left out). */
void rl_pool_format(const double pool[RL_OPPONENTS], char *buf, size_t len);

/* The 180-degree rotation of a cell of an R x C board (an involution: cells - 1 - cell). */
static inline int rl_mirror_cell(int cells, int cell) { return cells - 1 - cell; }

/* The key of `player`'s information state in g (perfect recall or view) and the key of the same state
 * with the whole history rotated by 180 degrees (what the rotated game gives that player). */
void rl_keys(bool view_keys, const hx_game *g, int player, uint64_t *key, uint64_t *mirror);

typedef struct {
    hx_variant variant;
    int rows, cols;
    rl_algo algo;
    bool view_keys;
    double pool[RL_OPPONENTS];  /* relative weights of the opponents (indexed by rl_opponent; all 0: self) */
    bool symmetry;              /* also learn the 180-degree rotation of every step */
    rl_step step;               /* constant: alpha; count: max(1/n, alpha) at an action's n-th update */
    double alpha, gamma;
    double init;                /* the value of an action never updated */
    rl_schedule epsilon;
    size_t budget;          /* bytes the table may take */
    uint64_t seed;
} rl_config;

typedef struct {
    rl_config cfg;
    sv_tree table;          /* the information states met (keys, players, legal cells) */
    float *q;               /* per action of the table */
    double *visits;         /* per action: updates made */
    uint32_t cap;           /* capacity of q and visits */
    uint64_t episode;       /* episodes played */
    uint64_t refused;       /* decisions at states the budget kept out of the table */
    bb_options bridge;
} rl_learner;

/* Returns 0, or -1 when out of memory. */
int rl_init(rl_learner *l, const rl_config *c);
void rl_free(rl_learner *l);

/* The state of (player, key) with these legal cells, added when absent and the budget allows; -1 if not. */
int64_t rl_state(rl_learner *l, int player, uint64_t key, const uint16_t *cells, int n);

/* The update of one step: the action a taken at state s led to reward r and to state s2 (-1: the game
 * ended, or a state outside the table, whose value counts as 0), where the player then took a2 (SARSA's
 * target; Q-learning uses the best value at s2). Q(s,a) += step (r + gamma target - Q(s,a)), the step
 * being alpha or max(1/n, alpha) at the n-th update of (s,a). */
void rl_backup(rl_learner *l, int64_t s, int a, double r, int64_t s2, int a2);

/* Plays and learns one episode against an opponent drawn from the pool (the learner is Black in even
 * episodes and White in odd ones against a fixed opponent; both colours in self-play). Returns the
 * winner, or -1 when out of memory. */
int rl_episode(rl_learner *l);

/* The greedy policy's win rates against the random player and the bridge builder: `games` games each,
 * the even-numbered ones as Black and the odd ones as White, with seeds derived from `seed` (so two calls
 * are comparable); also per colour (the share of that colour's games won). */
typedef struct {
    double vs_random, vs_bridge;
    double random_as[2], bridge_as[2];  /* [HX_BLACK], [HX_WHITE] */
} rl_eval;
void rl_evaluate(const rl_learner *l, int games, uint64_t seed, rl_eval *out);

/* The policy of every table state (laid out like table.actions): greedy (temperature 0: probability
 * shared by the best cells) or softmax of the values with this temperature. */
void rl_policy(const rl_learner *l, double temperature, double *out);

#endif
