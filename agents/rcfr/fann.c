/* agents/rcfr/fann.c — the multilayer-perceptron backend (see regressor.h), on FANN: inputs -> `hidden`
 * tanh units -> one linear output, trained by RPROP for `epochs` epochs per fit on targets scaled by their
 * largest magnitude. The network is kept between fits (warm start), as the targets change little from one
 * RCFR iteration to the next; its first weights come from the seed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fann.h>

#include "backend.h"

typedef struct {
    struct fann *ann;
    float scale;
} mlp;

static int mlp_fit(rg_model *m, const uint32_t *idx, uint32_t n, const float *y, char *err, size_t errlen)
{
    mlp *p = m->impl;
    const rc_rows *x = m->x;
    if (n == 0)
        return 0;
    struct fann_train_data *d = fann_create_train(n, x->dim, 1);
    if (!d) {
        snprintf(err, errlen, "fann: out of memory for %u training rows", n);
        return -1;
    }
    float scale = 0;
    for (uint32_t i = 0; i < n; i++)
        scale = fmaxf(scale, fabsf(y[i]));
    p->scale = scale > 0 ? scale : 1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = idx ? idx[i] : i;
        memcpy(d->input[i], x->val + (size_t)r * x->nnz, sizeof(float) * x->dim);
        d->output[i][0] = y[i] / p->scale;
    }
    fann_train_on_data(p->ann, d, (unsigned)m->params.epochs, 0, 0.0f);
    fann_destroy_train(d);
    return 0;
}

static int mlp_predict(rg_model *m, float *out, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    mlp *p = m->impl;
    const rc_rows *x = m->x;
    for (uint32_t r = 0; r < x->n; r++)
        out[r] = fann_run(p->ann, x->val + (size_t)r * x->nnz)[0] * p->scale;
    return 0;
}

static void mlp_free(rg_model *m)
{
    mlp *p = m->impl;
    if (!p)
        return;
    if (p->ann)
        fann_destroy(p->ann);
    free(p);
}

static const rg_backend ops = { mlp_fit, mlp_predict, mlp_free };

int rg_fann_init(rg_model *m, char *err, size_t errlen)
{
    if (m->x->col) {
        snprintf(err, errlen, "the fann regressor needs a dense feature set (coarse or rich), not onehot");
        return -1;
    }
    mlp *p = calloc(1, sizeof *p);
    m->ops = &ops;
    m->impl = p;
    if (p)
        p->ann = fann_create_standard(3, m->x->dim, (unsigned)m->params.hidden, 1u);
    if (!p || !p->ann) {
        mlp_free(m);
        m->impl = NULL;
        snprintf(err, errlen, "fann: cannot create a %u-%d-1 network", m->x->dim, m->params.hidden);
        return -1;
    }
    p->scale = 1;
    fann_set_activation_function_hidden(p->ann, FANN_SIGMOID_SYMMETRIC);
    fann_set_activation_function_output(p->ann, FANN_LINEAR);
    fann_set_training_algorithm(p->ann, FANN_TRAIN_RPROP);
    srand((unsigned)m->params.seed);
    fann_randomize_weights(p->ann, -0.1f, 0.1f);
    return 0;
}
