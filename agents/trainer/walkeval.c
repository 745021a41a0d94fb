/* agents/trainer/walkeval.c — a table's policy scored by the information-state walk (see walkeval.h). */
#include "walkeval.h"

#include <unistd.h>

#include "infowalk.h"

int tc_walk_evaluate(const sv_tree *table, const double *avg, const pf_meta *m, const char *path, sv_eval *e,
                     char *err, size_t errlen)
{
    if (pf_save_tree(table, avg, m, path, err, errlen) != 0)
        return -1;
    pf_policy pol;
    if (pf_load(&pol, path, err, errlen) != 0) {
        unlink(path);
        return -1;
    }
    iw_result r;
    int rc = iw_evaluate(m->variant, m->rows, m->cols, &pol, &pol, iw_default_threads(), NULL, NULL, &r, err, errlen);
    pf_close(&pol);
    unlink(path);
    if (rc != 0)
        return -1;
    *e = (sv_eval){ .ev0 = r.ev_black, .br = { r.br[0], r.br[1] }, .nashconv = r.nashconv,
                    .exploitability = r.exploitability };
    return 0;
}
