/* ratings/bt.h — the rating model: Bradley–Terry on the Elo scale with a first-move advantage per group
 * (a group is one variant and board), fitted by maximum likelihood with Newton's method, and 95%
 * intervals by parametric bootstrap (docs/ratings.md).
 *
 *   P(Black b beats White w in group g) = 1 / (1 + 10^(-(R_b - R_w + F_g) / 400))
 *
 * Players with all wins or all losses: every player also gets `prior` virtual games, half won and half
 * lost, against a virtual opponent rated at the pool's zero. This keeps every rating finite; with
 * prior = 1 it moves a player with 20 real games by a few Elo. Each group's first-move advantage gets the
 * same prior (`prior` virtual games between equals, half won by Black), so a group where one colour won
 * every game still has a finite advantage. Ratings are then shifted so that the
 * anchor is at 0 (a named player, or the mean of all players). */
#ifndef RATINGS_BT_H
#define RATINGS_BT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    int n, groups;            /* players, groups */
    double *wins, *games;     /* [g][b][w]: games of b (Black) against w (White) in group g, and b's wins */
} rt_data;

/* Allocates zeroed counts. Returns 0, or -1 when out of memory. */
int rt_data_init(rt_data *d, int n, int groups);
void rt_data_free(rt_data *d);
static inline double *rt_cell(const rt_data *d, const double *a, int g, int b, int w)
{
    return (double *)&a[((size_t)g * (size_t)d->n + (size_t)b) * (size_t)d->n + (size_t)w];
}

typedef struct {
    double prior;             /* virtual games per player (default 1) */
    int anchor;               /* player at 0, or -1 for the pool mean */
    int bootstrap;            /* resamples (default 1000); 0: no intervals */
    uint64_t seed;            /* of the bootstrap */
} rt_options;

typedef struct {
    double *elo, *adv;        /* [n], [groups]: the fit, anchored */
    double *lo, *hi;          /* [n]: 2.5% and 97.5% bootstrap quantiles of elo (NaN without bootstrap) */
    double *adv_lo, *adv_hi;  /* [groups] */
    double *samples;          /* [bootstrap][n]: resampled anchored ratings, for LOS */
    int resamples;
    int iterations;           /* Newton iterations of the main fit */
} rt_fit;

/* Fits the model and its intervals. Returns 0, or -1 (out of memory, no convergence). */
int rt_fit_all(const rt_data *d, const rt_options *o, rt_fit *f);
void rt_fit_free(rt_fit *f);

/* Likelihood of superiority of a over b: the share of resamples in which a is rated above b (ties
 * count half). NaN (undefined) without bootstrap. */
double rt_los(const rt_fit *f, int n, int a, int b);

/* Whether a chain of games (in any group, either colour) joins players a and b: only then do the games say
 * anything about their difference (else it rests on the prior alone, and their LOS is undefined). */
bool rt_connected(const rt_data *d, int a, int b);

#endif
