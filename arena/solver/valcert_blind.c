/* arena/solver/valcert_blind.c — a plain certificate's strategies played deaf to the reports
 * (valcert_blind.h): the reporting game's states listed on the rules engine, each with the plain state its
 * report-free history names, then written and checked as any other certificate (valcert_write.h). */
#include "valcert_blind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "clock.h"
#include "game.h"
#include "valcert_policy.h"

int vb_plain_variant(hx_variant v)
{
    if (!hx_variant_dark(v) || hx_variant_report(v) == HX_REPORT_NONE)
        return -1;
    return hx_variant_keeps_turn(v) ? HX_CLASSICAL : HX_ABRUPT;
}

/* The base certificate's states by (player, report-free key): open addressing, capacity a power of two. */
typedef struct {
    const vc_cert *base;
    uint64_t *key;  /* the state's key; a slot is empty when its idx is 0 */
    uint32_t *idx;  /* 1 + the state's index, with bit 31 set for White */
    uint64_t mask;
    int player, cols;
    char *err;
    size_t errlen;
} vb_walk;

#define VB_WHITE 0x80000000u

/* The base state (player, key): its index, or -1. */
static int64_t vb_find(const vb_walk *w, int player, uint64_t key)
{
    for (uint64_t i = (key ^ (uint64_t)player) & w->mask; w->idx[i]; i = (i + 1) & w->mask)
        if (w->key[i] == key && !(w->idx[i] & VB_WHITE) == !player)
            return (int64_t)(w->idx[i] & ~VB_WHITE) - 1;
    return -1;
}

/* p's state at g: the base state of its history without the reports, its attempts' probabilities on g's legal
 * cells (vw_list_player). */
static int vb_state(void *ctx, const hx_game *g, uint64_t key, int m, const uint16_t *legal, double *prob,
                    bool *played, int depth)
{
    (void)key, (void)depth;
    vb_walk *w = ctx;
    hx_event ev[HX_MAX_EVENTS];
    int n = hx_events(g, w->player, ev), kept = 0;
    for (int i = 0; i < n; i++)
        if (ev[i].kind != HX_EV_OPP_HIT && ev[i].kind != HX_EV_OPP_HIT_AT)
            ev[kept++] = ev[i];
    int64_t at = vb_find(w, w->player, hx_events_hash(ev, kept));
    vc_keyed_state s = { .history = "" };
    if (at >= 0) {
        s.n = vc_state(w->base, (uint32_t)at, &s.player, &s.history, &s.cells, s.probs);
        if (s.n < 0)
            at = -1;
    }
    if (at < 0) {
        char history[VC_HISTORY_MAX];
        vc_history(ev, kept, w->cols, history);
        snprintf(w->err, w->errlen, "the certificate has no %s state %.200s, which its own play reaches",
                 w->player ? "White" : "Black", history);
        return -1;
    }
    for (int a = 0; a < s.n; a++) {
        int k = 0;
        while (k < m && legal[k] != s.cells[a])
            k++;
        if (k == m) {
            char name[HX_CELL_NAME_MAX];
            hx_cell_name(s.cells[a], w->cols, name);
            snprintf(w->err, w->errlen, "the certificate's %s state %.200s attempts %s, not a legal cell there",
                     w->player ? "White" : "Black", s.history, name);
            return -1;
        }
        prob[k] = s.probs[a];
        played[k] = s.probs[a] > 0;
    }
    return 0;
}

int vb_write_blind(const vc_cert *base, hx_variant v, const vw_options *o, const char *path, vw_result *r,
                   char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    double t0 = clk_now();
    hx_variant bv;
    int rows, cols;
    uint64_t states[2];
    vc_describe(base, &bv, &rows, &cols, states);
    if (vb_plain_variant(v) < 0 || (int)bv != vb_plain_variant(v)) {
        snprintf(err, errlen, "a certificate of %s cannot be played in %s (%s)", hx_variant_name(bv),
                 hx_variant_name(v), vb_plain_variant(v) < 0 ? "it has no reports" : "give its plain variant's");
        return -1;
    }
    uint32_t count = vc_state_count(base);
    uint64_t cap = 16;
    while (cap < 2 * (uint64_t)count)
        cap *= 2;
    vb_walk w = { .base = base, .mask = cap - 1, .cols = cols, .err = err, .errlen = errlen };
    vw_states s = { 0 };
    int rc = -1;
    hx_game g;
    if (!(w.key = calloc(cap, sizeof *w.key)) || !(w.idx = calloc(cap, sizeof *w.idx))) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < count; i++) {
        vc_keyed_state ks;
        if (vc_state_keyed_why(base, i, &ks, err, errlen) < 0)
            goto done;
        if (vb_find(&w, ks.player, ks.key) >= 0) {
            snprintf(err, errlen, "state %u (%s %s): listed twice", i + 1, ks.player ? "white" : "black", ks.history);
            goto done;
        }
        uint64_t j = (ks.key ^ (uint64_t)ks.player) & w.mask;
        while (w.idx[j])
            j = (j + 1) & w.mask;
        w.key[j] = ks.key, w.idx[j] = (i + 1) | (ks.player ? VB_WHITE : 0);
    }
    if (hx_new(&g, v, rows, cols, 0) != 0) {
        snprintf(err, errlen, "no %dx%d %s board", rows, cols, hx_variant_name(v));
        goto done;
    }
    for (int p = 0; p < 2; p++) {
        bool over_cap = false;
        w.player = p;
        err[0] = 0;
        if (vw_list_player(&s, &g, p, cols, o->max_states, vb_state, NULL, &w, &over_cap) != 0) {
            if (over_cap)
                snprintf(err, errlen, "more than %llu histories to list %s's strategy",
                         (unsigned long long)o->max_states, p ? "White" : "Black");
            else if (!err[0])
                snprintf(err, errlen, "out of memory");
            goto done;
        }
    }
    vw_options wo = *o;
    wo.first = vc_first(base);
    rc = vw_write_states(&s, v, rows, cols, &wo, path, r, err, errlen);
done:
    free(w.key), free(w.idx);
    vw_states_free(&s);
    r->seconds = clk_now() - t0;
    return rc;
}
