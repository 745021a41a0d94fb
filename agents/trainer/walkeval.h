/* agents/trainer/walkeval.h — exact evaluation of a trained table's average policy on boards whose tree does
 * not fit: the policy goes to a scratch policy file, the information-state walk (infowalk.h) scores it with
 * every processor, and the file is removed. Shared by the sampled trainers (cfr-train's mccfr, rcfr-train's
 * sampled mode). */
#ifndef AGENTS_TRAINER_WALKEVAL_H
#define AGENTS_TRAINER_WALKEVAL_H

#include <stddef.h>

#include "bestresponse.h"
#include "gametree.h"
#include "policy.h"

/* avg[table->n_actions] is the policy per table action, m the file's header (its game is the walk's game),
 * path the scratch file. 0 with the result in e, or -1 with a message in err (I/O, out of memory). */
int tc_walk_evaluate(const sv_tree *table, const double *avg, const pf_meta *m, const char *path, sv_eval *e,
                     char *err, size_t errlen);

#endif
