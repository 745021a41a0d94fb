/* arena/solver/doseq_seed.c — a value certificate's attempts as seed mixtures of the sequence-form double
 * oracle (doseq_seed.h). */
#include "doseq_seed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "valcert_policy.h"

int ds_seed_from_certificate(const vc_cert *c, dw_mixture out[2], char *err, size_t errlen)
{
    out[0] = out[1] = (dw_mixture){ 0 };
    uint32_t n = vc_state_count(c);
    int width[2] = { 1, 1 }; /* members: the most attempts of positive probability at one state */
    for (uint32_t i = 0; i < n; i++) {
        int player, k = 0;
        const char *history;
        const uint16_t *cells;
        double probs[HX_MAX_CELLS];
        int na = vc_state(c, i, &player, &history, &cells, probs);
        for (int a = 0; a < na; a++)
            k += probs[a] > 0;
        if (k > width[player])
            width[player] = k;
    }
    for (int p = 0; p < 2; p++) {
        out[p].member = calloc((size_t)width[p], sizeof *out[p].member);
        out[p].weight = malloc(sizeof *out[p].weight * (size_t)width[p]);
        if (!out[p].member || !out[p].weight)
            goto oom;
        out[p].k = width[p];
        for (int j = 0; j < width[p]; j++) {
            out[p].weight[j] = 1.0 / width[p];
            if (!(out[p].member[j] = dw_pure_new()))
                goto oom;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        vc_keyed_state s;
        if (vc_state_keyed_why(c, i, &s, err, errlen) < 0)
            goto fail;
        int positive[HX_MAX_CELLS], k = 0;
        for (int a = 0; a < s.n; a++)
            if (s.probs[a] > 0)
                positive[k++] = s.cells[a];
        for (int j = 0; k && j < out[s.player].k; j++)
            if (dw_pure_set(out[s.player].member[j], s.key, positive[j < k ? j : k - 1]) != 0)
                goto oom;
    }
    return 0;
oom:
    snprintf(err, errlen, "out of memory");
fail:
    dw_mixture_free(&out[0]), dw_mixture_free(&out[1]);
    return -1;
}
