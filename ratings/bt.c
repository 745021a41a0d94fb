/* ratings/bt.c — Bradley–Terry maximum likelihood (Newton, Cholesky solves) and its parametric bootstrap
 * (every game redrawn from the fitted probabilities, as a binomial count per pairing). */
#include "bt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

#define ELO (400.0 / 2.302585092994045684) /* Elo points per natural logit (400 / ln 10) */
#define MAX_LOGIT 25.0

int rt_data_init(rt_data *d, int n, int groups)
{
    size_t cells = (size_t)n * (size_t)n * (size_t)groups;
    d->n = n;
    d->groups = groups;
    d->wins = calloc(cells ? cells : 1, sizeof *d->wins);
    d->games = calloc(cells ? cells : 1, sizeof *d->games);
    return d->wins && d->games ? 0 : -1;
}

void rt_data_free(rt_data *d)
{
    free(d->wins);
    free(d->games);
    d->wins = d->games = NULL;
}

static double sigmoid(double x)
{
    return 1.0 / (1.0 + exp(-x));
}

/* Solves A x = b for symmetric positive definite A (k x k, overwritten). Returns -1 if not definite. */
static int cholesky_solve(double *a, double *b, int k)
{
    for (int j = 0; j < k; j++) {
        double s = a[j * k + j];
        for (int i = 0; i < j; i++)
            s -= a[j * k + i] * a[j * k + i];
        if (s <= 1e-300)
            return -1;
        double l = sqrt(s);
        a[j * k + j] = l;
        for (int r = j + 1; r < k; r++) {
            double t = a[r * k + j];
            for (int i = 0; i < j; i++)
                t -= a[r * k + i] * a[j * k + i];
            a[r * k + j] = t / l;
        }
    }
    for (int r = 0; r < k; r++) { /* L y = b */
        double t = b[r];
        for (int i = 0; i < r; i++)
            t -= a[r * k + i] * b[i];
        b[r] = t / a[r * k + r];
    }
    for (int r = k - 1; r >= 0; r--) { /* L^T x = y */
        double t = b[r];
        for (int i = r + 1; i < k; i++)
            t -= a[i * k + r] * b[i];
        b[r] = t / a[r * k + r];
    }
    return 0;
}

/* Maximum likelihood in logits: theta = (r[0..n), f[0..groups)), started from its current value.
 * `wins` may differ from d->wins (bootstrap). Returns the iterations, or -1. */
static int newton(const rt_data *d, const double *wins, double prior, double *theta, double *h, double *grad)
{
    int n = d->n, k = n + d->groups;
    double ridge = prior > 0 ? 0 : 1e-6; /* without a prior, a tiny pull to 0 fixes the scale's origin */
    double step = 0;
    for (int it = 1; it <= 200; it++) {
        memset(h, 0, sizeof *h * (size_t)k * (size_t)k);
        memset(grad, 0, sizeof *grad * (size_t)k);
        for (int i = 0; i < n; i++) {
            double p = sigmoid(theta[i]);
            grad[i] += prior * (0.5 - p) - ridge * theta[i];
            h[i * k + i] += prior * p * (1 - p) + ridge;
        }
        for (int g = 0; g < d->groups; g++) {
            int fg = n + g;
            for (int b = 0; b < n; b++)
                for (int w = 0; w < n; w++) {
                    double m = *rt_cell(d, d->games, g, b, w);
                    if (m <= 0)
                        continue;
                    double x = theta[b] - theta[w] + theta[fg], p = sigmoid(x), kw = *rt_cell(d, wins, g, b, w);
                    double gr = kw - m * p, c = m * p * (1 - p);
                    grad[b] += gr, grad[w] -= gr, grad[fg] += gr;
                    int idx[3] = { b, w, fg };
                    double sgn[3] = { 1, -1, 1 };
                    for (int u = 0; u < 3; u++)
                        for (int v = 0; v < 3; v++)
                            h[idx[u] * k + idx[v]] += c * sgn[u] * sgn[v];
                }
            /* the advantage's own prior: `prior` virtual games between equals, half won by Black, so a group
             * where Black (or White) won every game keeps a finite advantage */
            double pf = sigmoid(theta[fg]);
            grad[fg] += prior * (0.5 - pf) - ridge * theta[fg];
            h[fg * k + fg] += prior * pf * (1 - pf) + ridge + 1e-9; /* a group with no games keeps F at 0 */
        }
        if (cholesky_solve(h, grad, k) != 0)
            return -1;
        step = 0;
        for (int i = 0; i < k; i++) { /* Newton steps of at most 1 logit (217 Elo): no overshoot */
            double s = grad[i];
            if (s > 1)
                s = 1;
            if (s < -1)
                s = -1;
            theta[i] += s;
            if (theta[i] > MAX_LOGIT)
                theta[i] = MAX_LOGIT;
            if (theta[i] < -MAX_LOGIT)
                theta[i] = -MAX_LOGIT;
            step = fmax(step, fabs(s));
        }
        if (step < 1e-9)
            return it;
    }
    return step < 1e-6 || prior <= 0 ? 200 : -1; /* pure ML with a perfect scorer: ratings stop at the clip */
}

static int binomial(rng_state *rng, double m, double p)
{
    int n = (int)m;
    if (p <= 0)
        return 0;
    if (p >= 1)
        return n;
    if (n <= 40) {
        int k = 0;
        for (int i = 0; i < n; i++)
            k += (double)(rng_next(rng) >> 11) * 0x1.0p-53 < p;
        return k;
    }
    /* inversion, searching outwards from the mode: O(sqrt(n p q)) steps */
    double q = 1 - p;
    int mode = (int)((n + 1) * p);
    if (mode > n)
        mode = n;
    double pm = exp(lgamma(n + 1.0) - lgamma(mode + 1.0) - lgamma(n - mode + 1.0) + mode * log(p) + (n - mode) * log(q));
    double u = (double)(rng_next(rng) >> 11) * 0x1.0p-53 - pm;
    int lo = mode, hi = mode;
    double plo = pm, phi = pm;
    while (u > 0 && (lo > 0 || hi < n)) {
        if (hi < n) {
            phi *= (double)(n - hi) / (hi + 1) * p / q;
            hi++;
            if ((u -= phi) <= 0)
                return hi;
        }
        if (lo > 0) {
            plo *= (double)lo / (n - lo + 1) * q / p;
            lo--;
            if ((u -= plo) <= 0)
                return lo;
        }
    }
    return mode;
}

/* theta (logits) to anchored Elo. */
static void anchored(const rt_data *d, int anchor, const double *theta, double *elo, double *adv)
{
    double shift = 0;
    if (anchor >= 0) {
        shift = theta[anchor];
    } else {
        for (int i = 0; i < d->n; i++)
            shift += theta[i];
        shift /= d->n;
    }
    for (int i = 0; i < d->n; i++)
        elo[i] = (theta[i] - shift) * ELO;
    for (int g = 0; adv && g < d->groups; g++)
        adv[g] = theta[d->n + g] * ELO;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double quantile(double *v, int n, double q)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    double pos = q * (n - 1);
    int i = (int)pos;
    return i + 1 < n ? v[i] + (pos - i) * (v[i + 1] - v[i]) : v[n - 1];
}

int rt_fit_all(const rt_data *d, const rt_options *o, rt_fit *f)
{
    memset(f, 0, sizeof *f);
    int n = d->n, G = d->groups, k = n + G, B = o->bootstrap > 0 ? o->bootstrap : 0;
    size_t cells = (size_t)n * (size_t)n * (size_t)G;
    double *theta = calloc((size_t)k, sizeof *theta), *t2 = calloc((size_t)k, sizeof *t2);
    double *h = malloc(sizeof *h * (size_t)k * (size_t)k), *grad = malloc(sizeof *grad * (size_t)k);
    double *wins = malloc(sizeof *wins * (cells ? cells : 1));
    double *advs = calloc((size_t)(B ? B : 1) * (size_t)(G ? G : 1), sizeof *advs), *col = calloc((size_t)(B ? B : 1), sizeof *col);
    f->elo = calloc((size_t)n, sizeof *f->elo);
    f->adv = calloc((size_t)(G ? G : 1), sizeof *f->adv);
    f->lo = calloc((size_t)n, sizeof *f->lo);
    f->hi = calloc((size_t)n, sizeof *f->hi);
    f->adv_lo = calloc((size_t)(G ? G : 1), sizeof *f->adv_lo);
    f->adv_hi = calloc((size_t)(G ? G : 1), sizeof *f->adv_hi);
    f->samples = calloc((size_t)(B ? B : 1) * (size_t)n, sizeof *f->samples);
    int rc = -1;
    if (!theta || !t2 || !h || !grad || !wins || !advs || !col || !f->elo || !f->adv || !f->lo || !f->hi ||
        !f->adv_lo || !f->adv_hi || !f->samples)
        goto done;
    f->iterations = newton(d, d->wins, o->prior, theta, h, grad);
    if (f->iterations < 0)
        goto done;
    anchored(d, o->anchor, theta, f->elo, f->adv);
    rng_state rng;
    rng_seed(&rng, o->seed);
    for (int s = 0; s < B; s++) {
        for (int g = 0; g < G; g++)
            for (int b = 0; b < n; b++)
                for (int w = 0; w < n; w++) {
                    double m = *rt_cell(d, d->games, g, b, w);
                    *rt_cell(d, wins, g, b, w) =
                        m > 0 ? binomial(&rng, m, sigmoid(theta[b] - theta[w] + theta[n + g])) : 0;
                }
        memcpy(t2, theta, sizeof *t2 * (size_t)k);
        if (newton(d, wins, o->prior, t2, h, grad) < 0)
            goto done;
        anchored(d, o->anchor, t2, f->samples + (size_t)s * (size_t)n, advs + (size_t)s * (size_t)G);
    }
    f->resamples = B;
    for (int i = 0; i < n; i++) {
        for (int s = 0; s < B; s++)
            col[s] = f->samples[(size_t)s * (size_t)n + (size_t)i];
        f->lo[i] = B ? quantile(col, B, 0.025) : NAN;
        f->hi[i] = B ? quantile(col, B, 0.975) : NAN;
    }
    for (int g = 0; g < G; g++) {
        for (int s = 0; s < B; s++)
            col[s] = advs[(size_t)s * (size_t)G + (size_t)g];
        f->adv_lo[g] = B ? quantile(col, B, 0.025) : NAN;
        f->adv_hi[g] = B ? quantile(col, B, 0.975) : NAN;
    }
    rc = 0;
done:
    free(theta);
    free(t2);
    free(h);
    free(grad);
    free(wins);
    free(advs);
    free(col);
    if (rc != 0)
        rt_fit_free(f);
    return rc;
}

void rt_fit_free(rt_fit *f)
{
    free(f->elo);
    free(f->adv);
    free(f->lo);
    free(f->hi);
    free(f->adv_lo);
    free(f->adv_hi);
    free(f->samples);
    memset(f, 0, sizeof *f);
}

double rt_los(const rt_fit *f, int n, int a, int b)
{
    if (f->resamples == 0)
        return NAN;
    double above = 0;
    for (int s = 0; s < f->resamples; s++) {
        double x = f->samples[(size_t)s * (size_t)n + (size_t)a], y = f->samples[(size_t)s * (size_t)n + (size_t)b];
        above += x > y ? 1 : x == y ? 0.5 : 0;
    }
    return above / f->resamples;
}

bool rt_connected(const rt_data *d, int a, int b)
{
    int n = d->n;
    if (a == b)
        return true;
    /* a breadth-first walk from a over the pairings with games */
    int *queue = malloc(sizeof *queue * (size_t)n);
    bool *seen = calloc((size_t)n, sizeof *seen);
    bool found = false;
    if (queue && seen) {
        int head = 0, tail = 0;
        queue[tail++] = a;
        seen[a] = true;
        while (head < tail && !found) {
            int i = queue[head++];
            for (int j = 0; j < n && !found; j++) {
                if (seen[j])
                    continue;
                bool met = false;
                for (int g = 0; g < d->groups && !met; g++)
                    met = *rt_cell(d, d->games, g, i, j) > 0 || *rt_cell(d, d->games, g, j, i) > 0;
                if (met) {
                    seen[j] = true;
                    queue[tail++] = j;
                    found = j == b;
                }
            }
        }
    }
    free(queue);
    free(seen);
    return found;
}
