/* ratings/pentanomial.h — statistics of game pairs: two agents play each opening twice with colours reversed, and
 * a pair's score (0, 0.5, 1, 1.5 or 2 points for the first agent) is one observation. The pentanomial counts,
 * the score with its interval and the Elo difference it implies, the likelihood of superiority (LOS), and the
 * sequential probability ratio test (SPRT) that stops a match once "is A stronger than B by elo1 rather than by
 * elo0?" is decided (docs/ratings.md#game-pairs-pentanomial-los-and-sprt). Hex has no draws, so the 0.5 and
 * 1.5 bins stay empty; they are kept so the counts read like fastchess's and cutechess's. */
#ifndef RATINGS_PENTANOMIAL_H
#define RATINGS_PENTANOMIAL_H

#include <stdbool.h>

/* Pairs by the first agent's points: n[0] lost both games, n[1] 0.5, n[2] one each, n[3] 1.5, n[4] won both. */
typedef struct {
    long n[5];
} pn_counts;

/* What the pairs say, from the first agent's side. */
typedef struct {
    long pairs;
    double score;                 /* mean points per game, 0..1 */
    double score_se;              /* its standard error, from the spread of the pair scores */
    double elo, elo_lower, elo_upper; /* logistic Elo difference and its interval (z standard errors); infinite
                                   * when the score or a bound reaches 0 or 1 */
    double los;                   /* P(first agent is stronger), 0..1; NaN when undefined (no pairs) */
} pn_summary;

/* The variance of a pair's score is estimated with this many pseudo-pairs added, half lost both games and half
 * won both: pairs that never vary (two deterministic bots, or a far stronger one) then give a finite interval
 * and a test statistic that grows with evidence instead of one pair deciding a test. The mean is the pairs'. */
#define PN_PRIOR_PAIRS 1.0

/* Adds one pair: points of the first agent in the pair's two games (0, 1 or 2; halves for draws). */
void pn_add(pn_counts *c, double points);

/* Summarises the counts with a z-score interval (1.96: 95%). With no pairs: score 0.5, infinite bounds, NaN LOS. */
void pn_summarise(const pn_counts *c, double z, pn_summary *out);

/* The expected score of a logistic Elo difference, and back (a score of 0 or 1 and beyond: -/+ infinity). */
double pn_elo_to_score(double elo);
double pn_score_to_elo(double score);

typedef enum { PN_CONTINUE = 0, PN_H0 = -1, PN_H1 = 1 } pn_decision;

typedef struct {
    double elo0, elo1;            /* H0: the difference is elo0; H1: it is elo1 (logistic Elo, elo1 > elo0) */
    double alpha, beta;           /* false-positive and false-negative rates, each in (0, 0.5) */
} pn_sprt;

/* The log-likelihood ratio of H1 against H0 for these pairs: the normal approximation of the generalised SPRT
 * on pair scores, N (s1 - s0) (2 x - s0 - s1) / (2 var), with x the mean and var the variance of the pair
 * scores (per game, with PN_PRIOR_PAIRS) and s0, s1 the scores of elo0 and elo1. 0 with no pairs. */
double pn_llr(const pn_counts *c, const pn_sprt *t);

/* The bounds: accept H0 at or below log(beta / (1 - alpha)), H1 at or above log((1 - beta) / alpha). */
void pn_bounds(const pn_sprt *t, double *lower, double *upper);

pn_decision pn_decide(const pn_counts *c, const pn_sprt *t, double *llr);

/* "H0", "H1" or "continue". */
const char *pn_decision_name(pn_decision d);

#endif
