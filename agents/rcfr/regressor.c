/* agents/rcfr/regressor.c — the regressor interface (see regressor.h): parameters, names and dispatch to
 * the backends (table.c, xgboost.c, fann.c). */
#include "regressor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

rg_params rg_defaults(rg_kind kind)
{
    return (rg_params){ .kind = kind, .rounds = 30, .depth = 8, .eta = 0.3, .hidden = 64, .epochs = 30,
                        .threads = 1, .seed = 1 };
}

int rg_kind_parse(const char *name)
{
    return strcmp(name, "xgboost") == 0 ? RG_XGBOOST : strcmp(name, "fann") == 0 ? RG_FANN
         : strcmp(name, "table") == 0 ? RG_TABLE : -1;
}

const char *rg_kind_name(rg_kind k) { return k == RG_XGBOOST ? "xgboost" : k == RG_FANN ? "fann" : "table"; }

rg_model *rg_new(const rg_params *p, const rc_rows *x, char *err, size_t errlen)
{
    rg_model *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    m->params = *p;
    m->x = x;
    int rc = p->kind == RG_XGBOOST ? rg_xgboost_init(m, err, errlen)
           : p->kind == RG_FANN    ? rg_fann_init(m, err, errlen)
                                   : rg_table_init(m, err, errlen);
    if (rc != 0) {
        free(m);
        return NULL;
    }
    return m;
}

void rg_free(rg_model *m)
{
    if (!m)
        return;
    m->ops->free(m);
    free(m);
}

int rg_fit(rg_model *m, const uint32_t *idx, uint32_t n, const float *y, char *err, size_t errlen)
{
    if (!idx && n != m->x->n) {
        snprintf(err, errlen, "fit: %u targets for %u rows", n, m->x->n);
        return -1;
    }
    if (m->ops->fit(m, idx, n, y, err, errlen) != 0)
        return -1;
    m->fitted = 1;
    return 0;
}

int rg_predict(rg_model *m, float *out, char *err, size_t errlen)
{
    if (!m->fitted) {
        memset(out, 0, sizeof *out * m->x->n);
        return 0;
    }
    return m->ops->predict(m, out, err, errlen);
}
