/* agents/ismcts/surekey.c — the sure-win key followed through the game and the solver's winning attempt
 * (surekey.h). */
#include <stdlib.h>

#include "surekey.h"

struct ism_sure {
    sw *s;
    int rows, cols, color, rules;
};

ism_sure *ism_sure_new(void)
{
    return calloc(1, sizeof(ism_sure));
}

void ism_sure_free(ism_sure *x)
{
    if (!x)
        return;
    sw_free(x->s);
    free(x);
}

sw *ism_sure_solver(const ism_sure *x)
{
    return x->s;
}

/* Q's turn from *k: the outcome "told of a collision" when `told`, else the other. */
static int opponent_turn(const sw *s, sw_key *k, bool told)
{
    sw_key out[2];
    bool ok[2];
    if (sw_after_opponent(s, k, out, ok) != 0 || !ok[told ? 1 : 0])
        return -1;
    *k = out[told ? 1 : 0];
    return 0;
}

int ism_sure_key(const sw *s, hx_variant variant, int color, const hx_event *events, int n_events, sw_key *key)
{
    int rules = sw_rules_of(variant);
    if (!s || rules < 0)
        return -1;
    sw_key k = sw_root(s);
    if (k.q_to_move != (color == HX_WHITE))
        return -1;
    int i = 0;
    for (;;) {
        if (k.q_to_move) {
            /* The opponent's turn: what P was told of it comes before P's next event. */
            bool told = false;
            while (i < n_events && (events[i].kind == HX_EV_OPP_HIT || events[i].kind == HX_EV_OPP_HIT_AT))
                told = true, i++;
            if (opponent_turn(s, &k, told && rules == SW_ABRUPT_TOLD) != 0)
                return -1;
        }
        if (i == n_events)
            break;
        const hx_event *e = &events[i++];
        sw_key placed, collided;
        bool can_place, won, can_collide;
        switch (e->kind) {
        case HX_EV_PLACED:
            if (sw_after_attempt(s, &k, e->cell, &placed, &can_place, &won, &collided, &can_collide) != 0 ||
                !can_place || won)
                return -1;
            k = placed;
            break;
        case HX_EV_REJECTED:
        case HX_EV_COLLIDED:
            if (sw_after_attempt(s, &k, e->cell, &placed, &can_place, &won, &collided, &can_collide) != 0 ||
                !can_collide || (e->kind == HX_EV_REJECTED) != (rules == SW_CLASSICAL))
                return -1;
            k = collided;
            break;
        case HX_EV_OPP_HIT:
        case HX_EV_OPP_HIT_AT:
            /* A report while P is to move: a classical-family opponent's rejected attempt between P's events
             * cannot be (its turn is over); anything else is not a real history either. */
            return -1;
        default: /* hex's events */
            return -1;
        }
    }
    *key = k;
    return 0;
}

int ism_sure_keeps(sw *s, const sw_key *k, int cell)
{
    sw_key placed, collided;
    bool can_place, won, can_collide;
    if (sw_after_attempt(s, k, cell, &placed, &can_place, &won, &collided, &can_collide) != 0)
        return 0;
    int r = can_place && !won ? sw_solve(s, &placed, NULL) : 1;
    if (r == 1 && can_collide)
        r = sw_solve(s, &collided, NULL);
    return r;
}

int ism_sure_win(ism_sure *x, hx_variant variant, int rows, int cols, int color, const uint8_t *view,
                 const hx_event *events, int n_events, int max_unknown, double deadline, uint64_t max_bytes,
                 const uint8_t *avoid, ism_sure_result *how)
{
    ism_sure_result dummy;
    if (!how)
        how = &dummy;
    *how = ISM_SURE_SKIPPED;
    int rules = sw_rules_of(variant), unknown = 0;
    if (rules < 0 || rows * cols > SW_MAX_CELLS)
        return -1;
    for (int i = 0; i < rows * cols; i++)
        unknown += view[i] == HX_VIEW_UNKNOWN;
    if (unknown > max_unknown)
        return -1;
    if (!x->s || x->rows != rows || x->cols != cols || x->color != color || x->rules != rules) {
        sw_free(x->s);
        x->s = sw_new(rows, cols, (sw_rules)rules, color);
        x->rows = rows, x->cols = cols, x->color = color, x->rules = rules;
        if (!x->s) {
            *how = ISM_SURE_FAILED;
            return -1;
        }
    }
    sw_key k;
    *how = ISM_SURE_FAILED;
    if (ism_sure_key(x->s, variant, color, events, n_events, &k) != 0)
        return -1;
    /* The key's stones are the view's: anything else is a history the key does not describe. */
    for (int i = 0; i < rows * cols; i++) {
        int v = (k.own >> i & 1) ? HX_VIEW_OWN : (k.seen >> i & 1) ? HX_VIEW_OPPONENT : HX_VIEW_UNKNOWN;
        if (v != view[i])
            return -1;
    }
    sw_set_limits(x->s, deadline, max_bytes);
    int cell, r = sw_solve(x->s, &k, &cell);
    if (r == -1) { /* the key was checked consistent: the memo is full; start again next time */
        sw_free(x->s);
        x->s = NULL;
        return -1;
    }
    if (r == -2) {
        *how = ISM_SURE_LATE;
        return -1;
    }
    if (r == 1 && cell >= 0 && cell < rows * cols && view[cell] == HX_VIEW_UNKNOWN) {
        *how = ISM_SURE_WIN;
        for (int c = 0; avoid && avoid[cell] && c < rows * cols; c++) { /* another winning cell, not avoided */
            if (view[c] != HX_VIEW_UNKNOWN || avoid[c])
                continue;
            int keeps = ism_sure_keeps(x->s, &k, c);
            if (keeps == 1)
                return c;
            if (keeps < 0)
                break;
        }
        return cell;
    }
    *how = ISM_SURE_NONE;
    return -1;
}
