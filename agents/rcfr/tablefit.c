/* agents/rcfr/tablefit.c — the exact regressor (see regressor.h): rows with equal features form one class,
 * found once by hashing; a fit stores the mean target of each class, which is the least-squares fit over
 * every function of the features. Classes that no target reaches predict 0. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "backend.h"

typedef struct {
    uint32_t *class_of;  /* [x->n] */
    uint32_t n_classes;
    double *sum;         /* [n_classes] */
    uint32_t *count;     /* [n_classes] */
    float *mean;         /* [n_classes] */
} table;

static uint64_t row_hash(const rc_rows *x, uint32_t r)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (uint32_t k = 0; k < x->nnz; k++) {
        uint32_t bits;
        memcpy(&bits, &x->val[(size_t)r * x->nnz + k], sizeof bits);
        uint64_t v = ((uint64_t)(x->col ? x->col[(size_t)r * x->nnz + k] : k) << 32) | bits;
        h = (h ^ v) * 0xff51afd7ed558ccdULL;
        h ^= h >> 29;
    }
    return h;
}

static int row_equal(const rc_rows *x, uint32_t a, uint32_t b)
{
    size_t n = x->nnz;
    return memcmp(x->val + a * n, x->val + b * n, n * sizeof *x->val) == 0 &&
           (!x->col || memcmp(x->col + a * n, x->col + b * n, n * sizeof *x->col) == 0);
}

static int table_fit(rg_model *m, const uint32_t *idx, uint32_t n, const float *y, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    table *t = m->impl;
    memset(t->sum, 0, sizeof *t->sum * t->n_classes);
    memset(t->count, 0, sizeof *t->count * t->n_classes);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t c = t->class_of[idx ? idx[i] : i];
        t->sum[c] += y[i];
        t->count[c]++;
    }
    for (uint32_t c = 0; c < t->n_classes; c++)
        t->mean[c] = t->count[c] ? (float)(t->sum[c] / t->count[c]) : 0.0f;
    return 0;
}

static int table_predict(rg_model *m, float *out, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    table *t = m->impl;
    for (uint32_t r = 0; r < m->x->n; r++)
        out[r] = t->mean[t->class_of[r]];
    return 0;
}

static void table_free(rg_model *m)
{
    table *t = m->impl;
    if (!t)
        return;
    free(t->class_of);
    free(t->sum);
    free(t->count);
    free(t->mean);
    free(t);
}

static const rg_backend ops = { table_fit, table_predict, table_free };

int rg_table_init(rg_model *m, char *err, size_t errlen)
{
    const rc_rows *x = m->x;
    table *t = calloc(1, sizeof *t);
    m->ops = &ops;
    m->impl = t;
    uint32_t cap = 16;
    while (cap < 2 * (uint64_t)x->n + 16)
        cap *= 2;
    uint32_t *slots = t ? calloc(cap, sizeof *slots) : NULL; /* representative row + 1 (0 empty) */
    size_t n = x->n ? x->n : 1;
    if (t) {
        t->class_of = malloc(sizeof *t->class_of * n);
        t->sum = malloc(sizeof *t->sum * n);
        t->count = malloc(sizeof *t->count * n);
        t->mean = calloc(n, sizeof *t->mean);
    }
    uint32_t *class_at = slots ? malloc(sizeof *class_at * cap) : NULL;
    if (!t || !slots || !class_at || !t->class_of || !t->sum || !t->count || !t->mean) {
        free(slots);
        free(class_at);
        table_free(m);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (uint32_t r = 0; r < x->n; r++) {
        uint32_t s = (uint32_t)row_hash(x, r) & (cap - 1);
        while (slots[s] && !row_equal(x, slots[s] - 1, r))
            s = (s + 1) & (cap - 1);
        if (!slots[s]) {
            slots[s] = r + 1;
            class_at[s] = t->n_classes++;
        }
        t->class_of[r] = class_at[s];
    }
    free(slots);
    free(class_at);
    return 0;
}
