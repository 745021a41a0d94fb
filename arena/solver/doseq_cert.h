/* arena/solver/doseq_cert.h — the value certificate (valcert.h) of a restricted game's exact equilibrium
 * (doseq.h's last restricted game, solved by seqform.h's sf_solve_exact): each player's strategy in the whole
 * game plays the restricted equilibrium's rational probabilities at the information states of the restricted
 * tree and the default cell (dwdefault.h) everywhere else (what the restricted game offers there), listed on the rules
 * engine over every opponent attempt and written unrounded (valcert_write.h). When the restricted equilibrium
 * is an equilibrium of the game, both bounds are its exact value. */
#ifndef ARENA_SOLVER_DOSEQ_CERT_H
#define ARENA_SOLVER_DOSEQ_CERT_H

#include <stddef.h>

#include <gmp.h>

#include "gametree.h"
#include "valcert_write.h"

#define DS_MAX_CANDIDATES 4

/* Writes the certificate of the restricted tree t's strategies for the dark variant v on a rows x cols board to
 * path: k candidates policy[0..k-1] (each laid out like t->actions, both players'; e.g. from each player's
 * exact LP), for each player the one of the best bound kept; o's max_states also caps each listing. 0 (exact
 * or not: see r), or -1 with a message in err. */
int ds_write_exact_certificate(hx_variant v, int rows, int cols, const sv_tree *t, mpq_t *const *policy, int k,
                               const vw_options *o, const char *path, vw_result *r, char *err, size_t errlen);

#endif
