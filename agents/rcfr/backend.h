/* agents/rcfr/backend.h — what a regressor backend provides to regressor.c: a constructor over a block of
 * rows and its fit / predict / free functions. Internal to agents/rcfr. */
#ifndef AGENTS_RCFR_BACKEND_H
#define AGENTS_RCFR_BACKEND_H

#include "regressor.h"

typedef struct rg_backend {
    int (*fit)(rg_model *m, const uint32_t *idx, uint32_t n, const float *y, char *err, size_t errlen);
    int (*predict)(rg_model *m, float *out, char *err, size_t errlen);
    void (*free)(rg_model *m);
} rg_backend;

struct rg_model {
    const rg_backend *ops;
    rg_params params;
    const rc_rows *x;
    int fitted;
    void *impl;
};

/* Each backend sets m->ops and m->impl; 0, or -1 with a message in err. */
int rg_table_init(rg_model *m, char *err, size_t errlen);
int rg_xgboost_init(rg_model *m, char *err, size_t errlen);
int rg_fann_init(rg_model *m, char *err, size_t errlen);

#endif
