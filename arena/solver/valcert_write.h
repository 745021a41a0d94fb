/* arena/solver/valcert_write.h — writing a value certificate (valcert.h) from both players' behaviour
 * strategies: a solved tree (gametree.h) with the solver's probabilities (doracle.h or seqform.h output, laid
 * out like t->actions), or any list of information states with their histories and probabilities
 * (vw_states: what dowalk_cert.c builds from the walk's mixtures). Each probability rounded to the nearest rational of bounded denominator (continued
 * fractions), each state's probabilities made to sum to exactly 1 (the rounding error added to its largest
 * probability), states the player's own rounded strategy never reaches left out, and the bounds both
 * strategies give computed by the certificate's own checker (valcert.c), trying denominators 10, 100, ...
 * up to a limit until the two bounds meet; for each player the strategy with the best bound is kept. */
#ifndef ARENA_SOLVER_VALCERT_WRITE_H
#define ARENA_SOLVER_VALCERT_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gmp.h>

#include "game.h"
#include "gametree.h"

typedef struct {
    uint64_t den_min, den_max; /* denominators bounds tried: den_min, 10 den_min, ... <= den_max
                                * (default 10 .. 1e9) */
    uint64_t max_states;       /* the checker's cap on histories per best response (default 0: none) */
    int first;                 /* Black's first attempt fixed to this cell (valcert.h's `first`; the strategies
                                * must open there), or -1 (default): free */
    /* called after each denominator bound tried (NULL: none): the bound, the exact bounds its strategies give
     * as doubles, the histories walked so far, the seconds since the writer started */
    void (*progress)(void *ctx, uint64_t den, double lower, double upper, uint64_t histories, double seconds);
    void *ctx;
} vw_options;

typedef struct {
    char *lower, *upper;       /* malloc'd "P/Q": what Black's strategy guarantees, what White's holds Black to */
    double lower_d, upper_d;
    bool exact;                /* lower == upper: the game's value */
    uint64_t den[2];           /* the denominator bound of the strategy kept, Black's and White's */
    uint64_t states[2];        /* information states listed */
    int trials;                /* denominator bounds tried */
    uint64_t histories;        /* histories the checker walked, all trials */
    double seconds;
} vw_result;

void vw_options_default(vw_options *o);

/* Behaviour strategies listed state by state, without a tree: each state with its player, perfect-recall
 * key, history (valcert.h's notation), attempts and their probabilities, and its parent sequence (the index
 * into table.actions of the player's previous own attempt on the way to it; -1 for none). Parents are
 * listed before their children. Start from a zeroed struct. */
typedef struct {
    sv_tree table;     /* the states and their attempts (sv_tree_intern; no nodes) */
    char **history;    /* [table.n_infosets] */
    int64_t *parent;   /* [table.n_infosets] */
    double *prob;      /* [table.n_actions] */
    uint32_t cap_states, cap_probs;
} vw_states;

/* Finds the state (player, key) or adds it with these n attempts and probabilities. Its index, or -1 when
 * out of memory or the key is listed with another number of attempts. */
int64_t vw_states_add(vw_states *s, int player, uint64_t key, const char *history, int64_t parent, int n,
                      const uint16_t *cells, const double *probs);
void vw_states_free(vw_states *s);

/* Lists into s every state of player p reached when p plays only the attempts its strategy gives positive
 * probability and the opponent plays anything, from g (each history walked once; parents before children).
 * At each of p's states met (depth: p's attempts before it; key: its hx_key_fingerprint(), kept attempt by
 * attempt) `at` fills prob[k] and played[k] for each of the m legal attempts (played: walked further; a state met again keeps its first probabilities); before each
 * played attempt k is walked, `descend` (when not NULL) is told k and the depth. Returns 0, or -1 when `at`
 * fails, out of memory, or past max_histories histories (0: no cap; *over_cap set). */
typedef int (*vw_state_fn)(void *ctx, const hx_game *g, uint64_t key, int m, const uint16_t *legal, double *prob,
                           bool *played, int depth);
typedef void (*vw_descend_fn)(void *ctx, int k, int depth);
int vw_list_player(vw_states *s, const hx_game *g, int p, int cols, uint64_t max_histories, vw_state_fn at,
                   vw_descend_fn descend, void *ctx, bool *over_cap);

/* Writes the certificate of the listed strategies of the dark variant v on a rows x cols board to path,
 * as vw_write does. */
int vw_write_states(const vw_states *s, hx_variant v, int rows, int cols, const vw_options *o, const char *path,
                    vw_result *r, char *err, size_t errlen);

/* The same with exact probabilities: k candidates q[0..k-1] (each s->table.n_actions rationals laid out like
 * s->table.actions, each state's summing to 1) tried as they are, not rounded (den 0), and for each player the
 * candidate of the best bound kept. */
int vw_write_states_exact(const vw_states *s, mpq_t *const *q, int k, hx_variant v, int rows, int cols,
                          const vw_options *o, const char *path, vw_result *r, char *err, size_t errlen);

/* Writes the certificate of t (built with perfect-recall keys from the dark variant v on a rows x cols
 * board, sv_darkhex_game) and policy to path. Returns 0 (exact or not: see r), or -1 with a message in err
 * (a tree of another game, the checker refusing the rounded strategies, the cap, a write error). */
int vw_write(const sv_tree *t, const double *policy, hx_variant v, int rows, int cols, const vw_options *o,
             const char *path, vw_result *r, char *err, size_t errlen);
void vw_result_free(vw_result *r);

#endif
