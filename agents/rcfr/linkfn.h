/* agents/rcfr/linkfn.h — link functions from (predicted) cumulative regrets to a policy, as in f-RCFR:
 * sigma(a) = f(x_a) / sum_b f(x_b).
 *   match  regret matching, RCFR's own rule (positive parts normalised, uniform when none is positive);
 *   poly   f(x) = (x+)^(p-1) for p >= 1 (p = 2 is regret matching); uniform when no x is positive;
 *   exp    f(x) = exp(x / tau), computed as exp((x - max) / tau) so that no regret overflows it; never
 *          uniform by fallback (ties aside).
 * Non-finite inputs (a diverged regressor) give the uniform policy. */
#ifndef AGENTS_RCFR_LINKFN_H
#define AGENTS_RCFR_LINKFN_H

typedef enum { RC_LINK_MATCH = 0, RC_LINK_POLY = 1, RC_LINK_EXP = 2 } rc_link_kind;

/* The default temperature of the exponential link (docs/bots.md says how it was chosen). */
#define RC_DEFAULT_TAU 0.1

typedef struct {
    rc_link_kind kind;
    double p;    /* poly */
    double tau;  /* exp */
} rc_link;

/* The policy over n actions from x[n] into out[n]. */
void rc_link_policy(const rc_link *l, const float *x, int n, double *out);

/* A short name: "match", "poly2.5", "exp0.1" (for checkpoints and policy files). */
void rc_link_name(const rc_link *l, char *buf, int len);

#endif
