/* agents/ismcts/ismplay.c — one move of the ismcts bot: sure win, connection, search off dead cells
 * (ismplay.h). */
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "ismplay.h"

struct ism_player {
    ism_search *search;
    ism_sure *sure;
    ism_belief belief;
    uint8_t dead[HX_MAX_CELLS];
};

ism_player *ism_player_new(void)
{
    ism_player *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->search = ism_search_new();
    p->sure = ism_sure_new();
    if (!p->search || !p->sure) {
        ism_player_free(p);
        return NULL;
    }
    return p;
}

void ism_player_free(ism_player *p)
{
    if (!p)
        return;
    ism_search_free(p->search);
    ism_sure_free(p->sure);
    free(p);
}

const ism_belief *ism_player_belief(const ism_player *p)
{
    return &p->belief;
}

ism_sure *ism_player_sure(ism_player *p)
{
    return p->sure;
}

ism_cell_model ism_cells_default(hx_variant v, int rows, int cols)
{
    return hx_variant_dark(v) && hx_variant_keeps_turn(v) && rows * cols <= ISM_UNIFORM_MAX_CELLS ? ISM_CELLS_UNIFORM
                                                                                                 : ISM_CELLS_DEFAULT;
}

int ism_play(ism_player *p, const ism_play_options *o, hx_variant variant, int rows, int cols, int color,
             const uint8_t *view, const hx_event *events, int n_events, rng_state *rng, ism_play_stats *st)
{
    ism_play_stats local;
    if (!st)
        st = &local;
    memset(st, 0, sizeof *st);
    double t0 = clk_now();
    ism_belief *b = &p->belief;
    ism_belief_init(b, variant, rows, cols, color, view, events, n_events);
    ism_belief_weigh(b, o->cells, o->cells_beta, o->cells_near);
    const uint8_t *avoid = NULL;
    if (o->dead && b->n_unknown > 1) {
        st->dead = ism_dead_cells(b, o->dead_exact, p->dead);
        if (st->dead > 0 && st->dead < b->n_unknown)
            avoid = p->dead;
    }
    if (o->surewin) {
        double t1 = clk_now(), deadline = o->sure_seconds > 0 ? t1 + o->sure_seconds : 0;
        int cell = ism_sure_win(p->sure, variant, rows, cols, color, view, events, n_events, o->sure_unknown,
                                deadline, o->sure_bytes, avoid, &st->sure);
        st->sure_seconds = clk_now() - t1;
        if (cell >= 0) {
            st->by = ISM_BY_SUREWIN;
            st->search.move = cell, st->search.value = 1;
            return cell;
        }
    }
    ism_options so = o->search;
    so.avoid = avoid;
    if (so.seconds > 0) {
        double left = so.seconds - (clk_now() - t0);
        so.seconds = left > so.seconds * 0.1 ? left : so.seconds * 0.1;
    }
    st->by = ISM_BY_SEARCH;
    return ism_choose(p->search, b, &so, rng, &st->search);
}

int ism_play_game(ism_player *p, const ism_play_options *o, const hx_game *g, rng_state *rng, ism_play_stats *st)
{
    uint8_t view[HX_MAX_CELLS];
    static hx_event ev[HX_MAX_EVENTS];
    int color = hx_to_move(g);
    for (int i = 0; i < hx_cells(g); i++)
        view[i] = (uint8_t)hx_view(g, color, i);
    int n = hx_events(g, color, ev);
    return ism_play(p, o, hx_variant_of(g), hx_rows(g), hx_cols(g), color, view, ev, n, rng, st);
}
