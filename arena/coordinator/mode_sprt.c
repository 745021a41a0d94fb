/* arena/coordinator/mode_sprt.c — `mode = sprt`: a gauntlet whose pairings each stop as soon as their sequential
 * probability ratio test on game pairs (ratings/pentanomial.h) accepts H0 (elo0) or H1 (elo1); the rest of a
 * decided pairing's games are skipped. Not shardable: the test needs every game of its pairing. */
#include "mode.h"

#include <math.h>

static int check(const cfg_league *c, int line, char *err, size_t errlen)
{
    if (c->elo1 > c->elo0)
        return 0;
    snprintf(err, errlen, "%s:%d: [league] elo1: %g is not above elo0 = %g (H1 must claim more than H0)", c->path,
             line, c->elo1, c->elo0);
    return -1;
}

static bool decide(const pn_sprt *t, pg_pairing *q)
{
    if (q->decision != PN_CONTINUE)
        return false;
    q->decision = pn_decide(&q->penta, t, &q->llr);
    return q->decision != PN_CONTINUE;
}

static void pairing(const lm_state *s, const pg_pairing *q, FILE *out, bool json)
{
    double lo, hi;
    pn_bounds(&s->sprt, &lo, &hi);
    if (!json) {
        fprintf(out, ", SPRT LLR %.2f [%.2f, %.2f] %s", q->llr, lo, hi,
                q->decision == PN_H1   ? "H1 accepted"
                : q->decision == PN_H0 ? "H0 accepted"
                                       : "undecided");
        return;
    }
    fprintf(out, "{\"elo0\":%g,\"elo1\":%g,\"alpha\":%g,\"beta\":%g,\"llr\":", s->sprt.elo0, s->sprt.elo1,
            s->sprt.alpha, s->sprt.beta);
    if (isfinite(q->llr))
        fprintf(out, "%.17g", q->llr);
    else
        fputs("null", out);
    fprintf(out, ",\"lower\":%.17g,\"upper\":%.17g,\"decision\":\"%s\"}", lo, hi, pn_decision_name(q->decision));
}

const lm_mode lm_sprt = {
    .name = "sprt",
    .challenger = true,
    .lists_pairings = true,
    .check = check,
    .plan = lm_plan_once,
    .count = lg_count,
    .decide = decide,
    .pairing = pairing,
};
