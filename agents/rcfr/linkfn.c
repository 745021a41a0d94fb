/* agents/rcfr/linkfn.c — link functions (see linkfn.h). */
#include "linkfn.h"

#include <math.h>
#include <stdio.h>

#include "cfr.h"

static void uniform(int n, double *out)
{
    for (int a = 0; a < n; a++)
        out[a] = 1.0 / n;
}

void rc_link_policy(const rc_link *l, const float *x, int n, double *out)
{
    double max = -INFINITY;
    for (int a = 0; a < n; a++) {
        if (!isfinite(x[a])) {
            uniform(n, out);
            return;
        }
        max = fmax(max, x[a]);
    }
    if (l->kind == RC_LINK_MATCH) {
        sv_regret_match(x, n, out);
        return;
    }
    double sum = 0;
    if (l->kind == RC_LINK_POLY) {
        if (!(max > 0)) {
            uniform(n, out);
            return;
        }
        /* (x / max)^(p-1) is proportional to x^(p-1) and stays in 0..1 whatever the regrets' size */
        for (int a = 0; a < n; a++)
            sum += out[a] = x[a] > 0 ? pow(x[a] / max, l->p - 1) : 0;
    } else {
        for (int a = 0; a < n; a++)
            sum += out[a] = exp((x[a] - max) / l->tau);
    }
    if (!(sum > 0) || !isfinite(sum)) {
        uniform(n, out);
        return;
    }
    for (int a = 0; a < n; a++)
        out[a] /= sum;
}

void rc_link_name(const rc_link *l, char *buf, int len)
{
    if (l->kind == RC_LINK_MATCH)
        snprintf(buf, (size_t)len, "match");
    else if (l->kind == RC_LINK_POLY)
        snprintf(buf, (size_t)len, "poly%g", l->p);
    else
        snprintf(buf, (size_t)len, "exp%g", l->tau);
}
