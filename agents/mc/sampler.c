/* agents/mc/sampler.c — the sampler of hidden opponent stones (sampler.h). */
#include <stddef.h>

#include "sampler.h"

void mc_sampler_init(mc_sampler *s, hx_variant variant, int rows, int cols, int color, const uint8_t *view,
                     const hx_event *events, int n_events)
{
    s->rows = rows, s->cols = cols, s->cells = rows * cols, s->color = color, s->variant = variant;
    s->own = s->known = s->n_unknown = 0;
    gale_init(&s->board, rows, cols);
    for (int i = 0; i < s->cells; i++) {
        s->view[i] = view[i];
        s->own += view[i] == HX_VIEW_OWN;
        s->known += view[i] == HX_VIEW_OPPONENT;
        gale_set(&s->board, i, view[i] == HX_VIEW_OPPONENT ? color ^ 1 : color);
        if (view[i] == HX_VIEW_UNKNOWN)
            s->unknown[s->n_unknown++] = (uint16_t)i;
    }
    /* Opponent turns: one before our first when we are White, one after each of our turns (all done, since it
     * is our turn now). Our turn ends on a placement, or on a collision in the abrupt family. */
    bool keeps = hx_variant_keeps_turn(variant);
    int lost = 0, stones = 0;
    s->opp_turns = 0;
    if (color == HX_WHITE)
        s->own_at_turn[s->opp_turns++] = 0;
    for (int i = 0; i < n_events; i++) {
        hx_event_kind k = events[i].kind;
        stones += k == HX_EV_PLACED;
        if (k == HX_EV_PLACED || (k == HX_EV_COLLIDED && !keeps))
            s->own_at_turn[s->opp_turns++] = (uint16_t)stones;
        lost += (k == HX_EV_OPP_HIT || k == HX_EV_OPP_HIT_AT) && !keeps;
    }
    if (!hx_variant_dark(variant)) {
        s->hidden_lo = s->hidden_hi = 0;
        return;
    }
    int hi = s->opp_turns - lost - s->known;
    hi = hi < 0 ? 0 : hi > s->n_unknown ? s->n_unknown : hi;
    int lo = hi;
    if (variant == HX_ABRUPT) { /* unreported collisions: at most one per stone of ours */
        lo = hi - s->own;
        lo = lo < 0 ? 0 : lo;
    }
    s->hidden_lo = lo, s->hidden_hi = hi;
}

void mc_sampler_of_game(mc_sampler *s, const hx_game *g, int color)
{
    uint8_t view[HX_MAX_CELLS];
    hx_event ev[HX_MAX_EVENTS];
    for (int i = 0; i < hx_cells(g); i++)
        view[i] = (uint8_t)hx_view(g, color, i);
    int n = hx_events(g, color, ev);
    mc_sampler_init(s, hx_variant_of(g), hx_rows(g), hx_cols(g), color, view, ev, n);
}

/* Hidden stones for one sample: the count when it is known; in plain abrupt the opponent's turns replayed
 * under the uniform-attempt prior, clamped into the bounds. */
static int mc_hidden_count(const mc_sampler *s, rng_state *rng)
{
    if (s->hidden_lo == s->hidden_hi)
        return s->hidden_lo;
    int found = 0, placed = 0;
    for (int t = 0; t < s->opp_turns; t++) {
        int targets = s->own_at_turn[t] - found, unknown = s->cells - placed - found;
        if (unknown <= 0)
            break;
        if (targets > 0 && (int)rng_below(rng, (uint32_t)unknown) < targets)
            found++;
        else
            placed++;
    }
    int h = placed - s->known;
    return h < s->hidden_lo ? s->hidden_lo : h > s->hidden_hi ? s->hidden_hi : h;
}

void mc_sampler_reset(mc_sampler *s, int n)
{
    for (int i = 0; i < n; i++)
        gale_set(&s->board, s->unknown[i], s->color);
}

int mc_sample(mc_sampler *s, rng_state *rng)
{
    int opp = s->color ^ 1;
    /* The opponent needs at least a full row (Black) or column (White) of stones to be connected. */
    int needed = opp == HX_BLACK ? s->rows : s->cols;
    for (int tries = 0; tries < MC_SAMPLE_TRIES; tries++) {
        int h = mc_hidden_count(s, rng);
        for (int i = 0; i < h; i++) {
            int j = i + (int)rng_below(rng, (uint32_t)(s->n_unknown - i));
            uint16_t c = s->unknown[j];
            s->unknown[j] = s->unknown[i], s->unknown[i] = c;
            gale_set(&s->board, c, opp);
        }
        /* Every other cell is ours on the board, so the opponent wins it exactly when its stones connect. */
        if (h + s->known < needed || gale_walk(&s->board, GALE_TOP_LEFT, NULL, NULL) != opp)
            return h;
        mc_sampler_reset(s, h);
    }
    return -1;
}
