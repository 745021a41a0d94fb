/* agents/ismcts/ismpolicy.h — the exact strategies the bot plays where it has them (`--policy FILE`,
 * `--policy-dir DIR`): policy files with perfect-recall keys (docs/policy-format.md), such as a certified
 * equilibrium written by `arena classify --check --policy` (`make equilibria`). In a game of a file's
 * variant and board that started from the empty board, an information state the file lists is played by
 * sampling the file's probabilities; any other state (one the file lacks, or every state of a game with an
 * opening, which the file's strategy never met) is left to the search. */
#ifndef AGENTS_ISMCTS_ISMPOLICY_H
#define AGENTS_ISMCTS_ISMPOLICY_H

#include <stdbool.h>
#include <stddef.h>

#include "game.h"
#include "rng.h"

#define ISM_MAX_POLICIES 64

typedef struct ism_policies ism_policies;

ism_policies *ism_policies_new(void);
void ism_policies_free(ism_policies *p);
/* Loads one file (path) or every *.pol file of a directory (dir true), in name order. 0, or -1 with the reason
 * in err: a file not read or invalid, one with view keys, a second file for one variant and board, more than
 * ISM_MAX_POLICIES files, a directory without .pol files. */
int ism_policies_load(ism_policies *p, const char *path, bool dir, char *err, size_t errlen);
int ism_policies_count(const ism_policies *p);

/* The cell the files give the player whose events these are (ev[0..n), perfect recall), in a game of variant
 * v on a rows x cols board that started from `opening` stones: sampled with rng from the state's
 * probabilities when a file of that game lists the state and the game had no opening and the cell is one of
 * legal[0..n_legal); else -1 (rng is used only when the file lists the state). */
int ism_policies_choose(const ism_policies *p, hx_variant v, int rows, int cols, bool swap_rule, int opening, int player,
                        const hx_event *ev, int n, const uint16_t *legal, int n_legal, rng_state *rng);

#endif
