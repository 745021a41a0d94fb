/* agents/rcfr/featureset.c — feature rows of (information state, action) pairs (see featureset.h). */
#include "featureset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Column layout of the coarse part (shared by rich, which appends its planes after it). */
enum {
    C_OWN = 0, C_LEARNED, C_HIDDEN, C_MOVE,      /* counts, scaled by the number of cells */
    C_ROW, C_COL,                                /* candidate position, scaled to 0..1 */
    C_SWAP,                                      /* the candidate is the swap */
    C_NEIGH,                                     /* 6 neighbours x 5 states */
    C_COARSE = C_NEIGH + 30
};
enum { N_OWN = 0, N_OPP, N_UNKNOWN, N_OWN_EDGE, N_OPP_EDGE };

static const int dr[6] = { -1, -1, 0, 0, 1, 1 }, dc[6] = { 0, 1, -1, 1, -1, 0 };

int rc_set_parse(const char *name)
{
    return strcmp(name, "coarse") == 0 ? RC_COARSE : strcmp(name, "rich") == 0 ? RC_RICH
         : strcmp(name, "onehot") == 0 ? RC_ONEHOT : -1;
}

const char *rc_set_name(rc_set s) { return s == RC_COARSE ? "coarse" : s == RC_RICH ? "rich" : "onehot"; }

uint32_t rc_set_dim(rc_set s, int cells)
{
    return s == RC_COARSE ? C_COARSE : s == RC_RICH ? C_COARSE + 4 * (uint32_t)cells : 0;
}

void rc_features_row(rc_set s, const hx_game *g, int action, float *out)
{
    int p = hx_to_move(g), rows = hx_rows(g), cols = hx_cols(g), cells = hx_cells(g);
    memset(out, 0, sizeof *out * rc_set_dim(s, cells));
    int learned = 0;
    for (int c = 0; c < cells; c++)
        learned += hx_view(g, p, c) == HX_VIEW_OPPONENT;
    float scale = 1.0f / (float)cells;
    out[C_OWN] = (float)hx_stones(g, p) * scale;
    out[C_LEARNED] = (float)learned * scale;
    out[C_HIDDEN] = (float)hx_hidden(g, p) * scale;
    out[C_MOVE] = (float)hx_num_attempts(g) * scale;
    if (action == HX_SWAP) {
        out[C_SWAP] = 1;
    } else {
        int r = action / cols, c = action % cols;
        out[C_ROW] = rows > 1 ? (float)r / (float)(rows - 1) : 0;
        out[C_COL] = cols > 1 ? (float)c / (float)(cols - 1) : 0;
        for (int k = 0; k < 6; k++) {
            int nr = r + dr[k], nc = c + dc[k], state;
            if (nr < 0 || nr >= rows) /* Black's edges are the top and bottom rows */
                state = p == HX_BLACK ? N_OWN_EDGE : N_OPP_EDGE;
            else if (nc < 0 || nc >= cols)
                state = p == HX_WHITE ? N_OWN_EDGE : N_OPP_EDGE;
            else {
                int v = hx_view(g, p, nr * cols + nc);
                state = v == HX_VIEW_OWN ? N_OWN : v == HX_VIEW_OPPONENT ? N_OPP : N_UNKNOWN;
            }
            out[C_NEIGH + 5 * k + state] = 1;
        }
    }
    if (s != RC_RICH)
        return;
    float *plane = out + C_COARSE;
    for (int c = 0; c < cells; c++) {
        int v = hx_view(g, p, c);
        plane[(v == HX_VIEW_OWN ? 0 : v == HX_VIEW_OPPONENT ? 1 : 2) * cells + c] = 1;
    }
    if (action != HX_SWAP)
        plane[3 * cells + action] = 1;
}

void rc_column_name(rc_set s, int rows, int cols, uint32_t c, char *buf, size_t len)
{
    static const char *const counts[] = { "own_stones", "learned_opponent_stones", "hidden_opponent_stones",
                                          "move_number", "candidate_row", "candidate_col", "candidate_is_swap" };
    static const char *const dirs[] = { "up", "up_right", "left", "right", "down_left", "down" };
    static const char *const states[] = { "own", "opponent", "unknown", "own_edge", "opponent_edge" };
    static const char *const planes[] = { "own", "opponent", "unknown", "candidate" };
    int cells = rows * cols;
    if (s == RC_ONEHOT || c >= rc_set_dim(s, cells))
        snprintf(buf, len, "x%u", c);
    else if (c < C_NEIGH)
        snprintf(buf, len, "%s", counts[c]);
    else if (c < C_COARSE)
        snprintf(buf, len, "neighbour_%s_%s", dirs[(c - C_NEIGH) / 5], states[(c - C_NEIGH) % 5]);
    else {
        uint32_t k = c - C_COARSE;
        int cell = (int)(k % (uint32_t)cells);
        snprintf(buf, len, "%s_%c%d", planes[k / (uint32_t)cells], 'a' + cell % cols, cell / cols + 1);
    }
}

void rc_features_free(rc_features *f)
{
    for (int p = 0; p < 2; p++) {
        free(f->rows[p].val);
        free(f->rows[p].col);
        free(f->global[p]);
    }
    free(f->row_of);
    memset(f, 0, sizeof *f);
}

typedef struct {
    const sv_tree *t;
    rc_features *f;
    uint8_t *done;    /* [n_infosets] */
    int failed;
} builder;

/* Depth-first over the game: the first history of each information state gives its rows (every history of
 * an information state shows the acting player the same view). */
static void visit(builder *b, const hx_game *g)
{
    if (hx_over(g) || b->failed)
        return;
    int p = hx_to_move(g);
    int64_t k = sv_tree_find(b->t, p, hx_key_fingerprint(g, p));
    if (k < 0) {
        b->failed = 1;
        return;
    }
    const sv_infoset *is = &b->t->infosets[k];
    if (!b->done[k]) {
        b->done[k] = 1;
        rc_rows *r = &b->f->rows[p];
        for (int a = 0; a < is->n; a++) {
            uint32_t row = b->f->row_of[is->offset + a];
            if (b->f->set != RC_ONEHOT)
                rc_features_row(b->f->set, g, b->t->actions[is->offset + a], r->val + (size_t)row * r->nnz);
        }
    }
    for (int a = 0; a < is->n; a++) {
        hx_game child = *g;
        hx_attempt(&child, b->t->actions[is->offset + a]);
        visit(b, &child);
    }
}

int rc_features_build(rc_features *f, const sv_tree *t, const sv_darkhex *p, rc_set set)
{
    memset(f, 0, sizeof *f);
    f->set = set;
    f->row_of = malloc(sizeof *f->row_of * (t->n_actions ? t->n_actions : 1));
    if (!f->row_of)
        return -1;
    uint32_t n[2] = { 0, 0 };
    for (uint32_t k = 0; k < t->n_infosets; k++) {
        const sv_infoset *is = &t->infosets[k];
        for (int a = 0; a < is->n; a++)
            f->row_of[is->offset + a] = n[is->player]++;
    }
    uint32_t dim = rc_set_dim(set, p->rows * p->cols);
    for (int q = 0; q < 2; q++) {
        rc_rows *r = &f->rows[q];
        r->n = n[q];
        r->dim = set == RC_ONEHOT ? n[q] : dim;
        r->nnz = set == RC_ONEHOT ? 1 : dim;
        r->val = calloc((size_t)(n[q] ? n[q] : 1) * r->nnz, sizeof *r->val);
        f->global[q] = malloc(sizeof *f->global[q] * (n[q] ? n[q] : 1));
        if (set == RC_ONEHOT)
            r->col = malloc(sizeof *r->col * (n[q] ? n[q] : 1));
        if (!r->val || !f->global[q] || (set == RC_ONEHOT && !r->col)) {
            rc_features_free(f);
            return -1;
        }
    }
    for (uint32_t k = 0; k < t->n_infosets; k++) {
        const sv_infoset *is = &t->infosets[k];
        for (int a = 0; a < is->n; a++) {
            uint32_t g = is->offset + (uint32_t)a, row = f->row_of[g];
            f->global[is->player][row] = g;
            if (set == RC_ONEHOT) {
                f->rows[is->player].col[row] = row;
                f->rows[is->player].val[row] = 1;
            }
        }
    }
    if (set == RC_ONEHOT)
        return 0;
    builder b = { .t = t, .f = f, .done = calloc(t->n_infosets ? t->n_infosets : 1, 1) };
    if (!b.done) {
        rc_features_free(f);
        return -1;
    }
    hx_game root;
    hx_new(&root, p->variant, p->rows, p->cols, p->flags);
    visit(&b, &root);
    for (uint32_t k = 0; k < t->n_infosets && !b.failed; k++)
        b.failed = !b.done[k];
    free(b.done);
    if (b.failed) {
        rc_features_free(f);
        return -1;
    }
    return 0;
}
