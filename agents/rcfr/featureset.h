/* agents/rcfr/featureset.h — feature rows of (information state, action) pairs of a Dark Hex game tree, the
 * inputs of RCFR's regret regressor (docs/bots.md lists every column). Three sets:
 *   coarse  37 columns: counts (own stones, learned opponent stones, hidden opponent stones, move number),
 *           the candidate cell's row and column, its six neighbours (each one-hot over own / opponent /
 *           unknown / own edge / opponent edge) and a swap flag; no board planes: a heavy approximation.
 *   rich    coarse plus the view as three planes (own / learned opponent / unknown, one-hot per cell) and
 *           the candidate cell one-hot: 4 * cells + 37 columns.
 *   onehot  one column per (information state, action) of the player: an exact (tabular) model.
 * Rows are built once per tree, one block per player (the player's actions in the tree's information-state
 * order), and are deterministic: the same tree gives the same rows. */
#ifndef AGENTS_RCFR_FEATURESET_H
#define AGENTS_RCFR_FEATURESET_H

#include <stddef.h>
#include <stdint.h>

#include "darkhex.h"
#include "gametree.h"

typedef enum { RC_COARSE = 0, RC_RICH = 1, RC_ONEHOT = 2 } rc_set;

/* A block of feature rows: row r holds nnz entries from r * nnz. Dense blocks (col == NULL) hold every
 * column (nnz == dim); sparse ones list their columns in col[]. */
typedef struct {
    uint32_t n, dim, nnz;
    float *val;      /* [n * nnz] */
    uint32_t *col;   /* [n * nnz], or NULL when dense */
} rc_rows;

typedef struct {
    rc_set set;
    rc_rows rows[2];      /* per player */
    uint32_t *global[2];  /* [rows[p].n]: the tree's action index (into t->actions) of each row */
    uint32_t *row_of;     /* [t->n_actions]: the row of each tree action within its player's block */
} rc_features;

/* Parses "coarse", "rich" or "onehot"; -1 otherwise. */
int rc_set_parse(const char *name);
const char *rc_set_name(rc_set s);

/* Columns of a set on a board of `cells` cells (onehot: per player, so 0 here). */
uint32_t rc_set_dim(rc_set s, int cells);

/* Builds the rows of every (information state, action) of t, a perfect-recall tree of the game p
 * (sv_tree_build with view_keys false). 0, or -1 when out of memory or a state of t is not found (t was
 * built from another game). */
int rc_features_build(rc_features *f, const sv_tree *t, const sv_darkhex *p, rc_set set);
void rc_features_free(rc_features *f);

/* The feature row of one (state, action) of the set (not onehot) into out[rc_set_dim()]: exposed for the
 * tests and for documentation tools. */
void rc_features_row(rc_set s, const hx_game *g, int action, float *out);

/* Human-readable name of column c of a set on a rows x cols board into buf (for docs and debugging). */
void rc_column_name(rc_set s, int rows, int cols, uint32_t c, char *buf, size_t len);

#endif
