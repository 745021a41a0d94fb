/* arena/solver/valcert_blind.h — a plain board's certified strategies played in its -noisy or -flash form,
 * deaf to the reports: each player's state in the reporting variant is looked up, by the perfect-recall key
 * of its history without the collision reports on its own stones, in a value certificate (valcert.h) of the
 * plain variant (classical for classical-noisy and -flash, abrupt for abrupt-noisy and -flash), and plays
 * that state's attempts with its probabilities. The rules are the same in both forms (a report only tells the
 * stone's owner something), so every history of the reporting game projects onto a history of the plain one
 * and the strategies are complete. The reporting game's checker then bounds its value: the bounds hold
 * whatever the reports are worth, and the certificate written can seed the sequence oracle there
 * (doseq_seed.h). */
#ifndef ARENA_SOLVER_VALCERT_BLIND_H
#define ARENA_SOLVER_VALCERT_BLIND_H

#include <stddef.h>

#include "valcert.h"
#include "valcert_write.h"
#include "variant.h"

/* The plain variant whose strategies variant v's report-blind ones are (HX_CLASSICAL or HX_ABRUPT), or -1
 * when v has no reports. */
int vb_plain_variant(hx_variant v);

/* Writes to path the certificate of base's strategies played in variant v (a -noisy or -flash variant
 * whose plain variant is base's, on base's board), rounded and checked as vw_write_states does (o; Black's
 * first attempt is fixed when base fixes it). 0 with the certified bounds in r, or -1 with the reason in err
 * (a base of another variant, a base state missing for a history its own play reaches, the checker's cap,
 * memory, a write error). */
int vb_write_blind(const vc_cert *base, hx_variant v, const vw_options *o, const char *path, vw_result *r,
                   char *err, size_t errlen);

#endif
