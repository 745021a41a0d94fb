/* ratings/pentanomial.c — pair statistics, LOS and the SPRT (see pentanomial.h). */
#include "pentanomial.h"

#include <math.h>

void pn_add(pn_counts *c, double points)
{
    int bin = (int)lround(points * 2.0);
    if (bin < 0)
        bin = 0;
    if (bin > 4)
        bin = 4;
    c->n[bin]++;
}

/* The pairs' number and mean score per game (a pair in bin i scores i / 4), and the variance of a pair's score
 * with PN_PRIOR_PAIRS / 2 pseudo-pairs added in each of the extreme bins (see pentanomial.h). */
static long moments(const pn_counts *c, double *mean, double *var)
{
    long n = 0;
    double sum = 0.0;
    for (int i = 0; i < 5; i++) {
        n += c->n[i];
        sum += (double)c->n[i] * (i / 4.0);
    }
    *mean = n ? sum / (double)n : 0.5;
    double w[5];
    for (int i = 0; i < 5; i++)
        w[i] = (double)c->n[i] + (i == 0 || i == 4 ? PN_PRIOR_PAIRS / 2.0 : 0.0);
    double total = 0.0, m = 0.0, v = 0.0;
    for (int i = 0; i < 5; i++) {
        total += w[i];
        m += w[i] * (i / 4.0);
    }
    m /= total;
    for (int i = 0; i < 5; i++)
        v += w[i] * (i / 4.0 - m) * (i / 4.0 - m);
    *var = v / total;
    return n;
}

double pn_elo_to_score(double elo)
{
    return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

double pn_score_to_elo(double score)
{
    if (score <= 0.0)
        return -INFINITY;
    if (score >= 1.0)
        return INFINITY;
    return -400.0 * log10(1.0 / score - 1.0);
}

void pn_summarise(const pn_counts *c, double z, pn_summary *out)
{
    double mean, var;
    long n = moments(c, &mean, &var);
    out->pairs = n;
    out->score = mean;
    if (n == 0) {
        out->score_se = INFINITY;
        out->elo = 0.0;
        out->elo_lower = -INFINITY;
        out->elo_upper = INFINITY;
        out->los = NAN;
        return;
    }
    /* A pair's score is the mean of two games: the standard error of the mean over n pairs. */
    out->score_se = sqrt(var / (double)n);
    out->elo = pn_score_to_elo(mean);
    out->elo_lower = pn_score_to_elo(mean - z * out->score_se);
    out->elo_upper = pn_score_to_elo(mean + z * out->score_se);
    out->los = 0.5 * erfc(-(mean - 0.5) / (out->score_se * sqrt(2.0)));
}

double pn_llr(const pn_counts *c, const pn_sprt *t)
{
    double mean, var;
    long n = moments(c, &mean, &var);
    if (n == 0)
        return 0.0;
    double s0 = pn_elo_to_score(t->elo0), s1 = pn_elo_to_score(t->elo1);
    return (double)n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
}

void pn_bounds(const pn_sprt *t, double *lower, double *upper)
{
    *lower = log(t->beta / (1.0 - t->alpha));
    *upper = log((1.0 - t->beta) / t->alpha);
}

pn_decision pn_decide(const pn_counts *c, const pn_sprt *t, double *llr)
{
    double lo, hi, l = pn_llr(c, t);
    pn_bounds(t, &lo, &hi);
    if (llr)
        *llr = l;
    return l >= hi ? PN_H1 : l <= lo ? PN_H0 : PN_CONTINUE;
}

const char *pn_decision_name(pn_decision d)
{
    return d == PN_H1 ? "H1" : d == PN_H0 ? "H0" : "continue";
}
