/* arena/solver/doseq_seed.h — a value certificate (valcert.h) as the seed of the sequence-form double oracle
 * (doseq.h): every attempt its strategies play with positive probability, at the information state its
 * history names (keyed by hx_events_hash(), the key the oracle and the policy files use), joins the
 * restricted game from the first iteration. A run stopped at a limit leaves a certificate of its best
 * mixtures; seeding the next run with it starts that run where the last one stopped (the restricted game
 * of those mixtures) rather than from the empty one. */
#ifndef ARENA_SOLVER_DOSEQ_SEED_H
#define ARENA_SOLVER_DOSEQ_SEED_H

#include <stddef.h>

#include "dowalk.h"
#include "valcert.h"

/* The certificate's attempts as two mixtures that ds_solve's seed takes: for each player, member j stores at
 * each state the state's j-th attempt of positive probability (the states with fewer store their last), all
 * members of equal weight. The mixtures stand for the certificate's attempts, not its strategies: their
 * bounds are unknown (give ds_solve -1 and +1). v, rows and cols must be the certificate's. Returns 0 with
 * out[0] Black's and out[1] White's (free with dw_mixture_free), or -1 with the reason in err (a malformed
 * history, out of memory). */
int ds_seed_from_certificate(const vc_cert *c, dw_mixture out[2], char *err, size_t errlen);

#endif
