/* arena/solver/dowalk_cert.h — value certificates (valcert.h) of the tree-free double oracle's mixtures
 * (dowalk.h): a mixture of pure strategies is turned into the behaviour strategy it realises (at each of the
 * player's information states, each attempt's probability is the weight of the members consistent with the
 * player's own play so far that make it, over the weight of all of them), listed on the rules engine over
 * every opponent attempt, then rounded, checked and written as valcert_write.h does. The bounds are the
 * checker's, so a certificate of unconverged mixtures proves the interval the double oracle reported (up to
 * the rounding of its weights; the best rounding tried is kept, and may prove a tighter one), and of
 * converged ones the value. */
#ifndef ARENA_SOLVER_DOWALK_CERT_H
#define ARENA_SOLVER_DOWALK_CERT_H

#include <stddef.h>
#include <stdint.h>

#include "dowalk.h"
#include "valcert_write.h"

/* Adds player p's behaviour strategy realising mixture m to s: every state p's own play reaches against
 * any opponent. max_histories (0: none) caps the histories walked. 0, or -1 with a message in err. */
int dw_behaviour(hx_variant v, int rows, int cols, int p, const dw_mixture *m, uint64_t max_histories,
                 vw_states *s, char *err, size_t errlen);

/* Writes the certificate of Black's mixture mix[0] and White's mix[1] (dw_options.keep) to path; o's
 * max_states also caps each listing. 0 (exact or not: see r), or -1 with a message in err. */
int dw_write_certificate(hx_variant v, int rows, int cols, const dw_mixture mix[2], const vw_options *o,
                         const char *path, vw_result *r, char *err, size_t errlen);

#endif
