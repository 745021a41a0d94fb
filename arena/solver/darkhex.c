/* arena/solver/darkhex.c — Dark Hex through the efg_game interface (see darkhex.h). */
#include "darkhex.h"

static void dh_root(const efg_game *g, void *state)
{
    const sv_darkhex *p = g->ctx;
    hx_new(state, p->variant, p->rows, p->cols, p->flags);
}

static int dh_player(const efg_game *g, const void *state)
{
    (void)g;
    const hx_game *s = state;
    return hx_over(s) ? EFG_TERMINAL : hx_to_move(s);
}

static double dh_utility(const efg_game *g, const void *state)
{
    (void)g;
    return hx_winner((const hx_game *)state) == HX_BLACK ? 1.0 : -1.0;
}

static int dh_actions(const efg_game *g, const void *state, uint16_t *out, double *probs)
{
    (void)g;
    (void)probs;
    return hx_legal(state, out);
}

static void dh_apply(const efg_game *g, void *dst, const void *src, int action)
{
    (void)g;
    hx_copy(dst, src);
    hx_attempt(dst, action);
}

static uint64_t dh_infoset(const efg_game *g, const void *state)
{
    (void)g;
    const hx_game *s = state;
    return hx_key_fingerprint(s, hx_to_move(s));
}

static uint64_t dh_view_key(const efg_game *g, const void *state)
{
    (void)g;
    const hx_game *s = state;
    return hx_view_key(s, hx_to_move(s));
}

void sv_darkhex_game(efg_game *g, const sv_darkhex *p)
{
    *g = (efg_game){ .state_size = sizeof(hx_game), .root = dh_root, .player = dh_player, .utility = dh_utility,
                     .actions = dh_actions, .apply = dh_apply, .infoset = dh_infoset,
                     .view_key = dh_view_key, .ctx = p };
}
