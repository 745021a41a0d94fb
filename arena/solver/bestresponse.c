/* arena/solver/bestresponse.c — expected value and exact best responses on the flat tree (see br.h). The best
 * response of player i: the others' reach of every node in one forward pass (children have larger indices
 * than their parents), then player i's information states from the deepest to the shallowest, each taking
 * the action with the largest reach-weighted value over all its histories; values below are memoised per
 * node, so the whole computation is linear in the tree. */
#include "bestresponse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void sv_uniform(const sv_tree *t, double *out)
{
    for (uint32_t k = 0; k < t->n_infosets; k++)
        for (int a = 0; a < t->infosets[k].n; a++)
            out[t->infosets[k].offset + a] = 1.0 / t->infosets[k].n;
}

static double expected(const sv_tree *t, const double *policy, uint32_t h)
{
    const sv_node *node = &t->nodes[h];
    if (node->player == EFG_TERMINAL)
        return node->value;
    double v = 0;
    const double *pi = node->player == EFG_CHANCE ? NULL : policy + t->infosets[node->infoset].offset;
    for (uint32_t k = 0; k < node->n; k++) {
        double p = pi ? pi[k] : t->chance_prob[node->first + k];
        if (p > 0)
            v += p * expected(t, policy, node->first + k);
    }
    return v;
}

typedef struct {
    const sv_tree *t;
    const double *policy;
    int player;
    double *value;     /* [n_nodes], NAN until computed */
    int32_t *best;     /* [n_infosets], the chosen action of the best responder */
} br_state;

static double eval(br_state *s, uint32_t h)
{
    if (!isnan(s->value[h]))
        return s->value[h];
    const sv_tree *t = s->t;
    const sv_node *node = &t->nodes[h];
    double v = 0;
    if (node->player == EFG_TERMINAL) {
        v = s->player == 0 ? node->value : -node->value;
    } else if (node->player == s->player) {
        v = eval(s, node->first + (uint32_t)s->best[node->infoset]);
    } else {
        const double *pi = node->player == EFG_CHANCE ? NULL : s->policy + t->infosets[node->infoset].offset;
        for (uint32_t k = 0; k < node->n; k++) {
            double p = pi ? pi[k] : t->chance_prob[node->first + k];
            if (p > 0)
                v += p * eval(s, node->first + k);
        }
    }
    return s->value[h] = v;
}

static int best_response(const sv_tree *t, const double *policy, int player, double *out)
{
    uint32_t N = t->n_nodes;
    double *reach = malloc(sizeof *reach * N), *value = malloc(sizeof *value * N);
    double *q = calloc(t->n_actions ? t->n_actions : 1, sizeof *q);
    int32_t *best = malloc(sizeof *best * (t->n_infosets ? t->n_infosets : 1));
    uint32_t *count = calloc(257, sizeof *count), *order = malloc(sizeof *order * N);
    int rc = -1;
    if (!reach || !value || !q || !best || !count || !order)
        goto done;
    /* the others' reach, and player's nodes counted by depth */
    reach[0] = 1;
    for (uint32_t h = 0; h < N; h++) {
        const sv_node *node = &t->nodes[h];
        value[h] = NAN;
        if (node->player == EFG_TERMINAL)
            continue;
        const double *pi = node->player == EFG_CHANCE || node->player == player
                               ? NULL
                               : policy + t->infosets[node->infoset].offset;
        for (uint32_t k = 0; k < node->n; k++) {
            double p = node->player == EFG_CHANCE ? t->chance_prob[node->first + k] : pi ? pi[k] : 1.0;
            reach[node->first + k] = reach[h] * p;
        }
        if (node->player == player)
            count[node->depth + 1]++;
    }
    for (int d = 1; d <= 256; d++)
        count[d] += count[d - 1];
    for (uint32_t h = 0; h < N; h++)
        if (t->nodes[h].player == player)
            order[count[t->nodes[h].depth]++] = h;
    /* count[d] is now the end of depth d's nodes in order[] */
    br_state s = { .t = t, .policy = policy, .player = player, .value = value, .best = best };
    for (int d = 255; d >= 0; d--) {
        uint32_t begin = d ? count[d - 1] : 0, end = count[d];
        for (uint32_t k = begin; k < end; k++) {
            uint32_t h = order[k];
            const sv_node *node = &t->nodes[h];
            if (reach[h] == 0)
                continue;
            double *qa = q + t->infosets[node->infoset].offset;
            for (uint32_t a = 0; a < node->n; a++)
                qa[a] += reach[h] * eval(&s, node->first + a);
        }
        for (uint32_t k = begin; k < end; k++) {
            const sv_infoset *is = &t->infosets[t->nodes[order[k]].infoset];
            const double *qa = q + is->offset;
            int arg = 0;
            for (int a = 1; a < is->n; a++)
                if (qa[a] > qa[arg])
                    arg = a;
            best[t->nodes[order[k]].infoset] = arg;
        }
    }
    *out = eval(&s, 0);
    rc = 0;
done:
    free(reach);
    free(value);
    free(q);
    free(best);
    free(count);
    free(order);
    return rc;
}

int sv_evaluate(const sv_tree *t, const double *policy, sv_eval *out)
{
    out->ev0 = expected(t, policy, 0);
    if (best_response(t, policy, 0, &out->br[0]) != 0 || best_response(t, policy, 1, &out->br[1]) != 0)
        return -1;
    out->nashconv = out->br[0] + out->br[1];
    out->exploitability = out->nashconv / 2;
    return 0;
}
