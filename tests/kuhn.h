/* tests/kuhn.h — Kuhn poker as an efg_game, the solvers' check on a game with known answers: three cards,
 * one dealt to each player (chance), ante 1, player 0 checks or bets 1, and so on; game value -1/18 for
 * player 0, uniform play has NashConv 11/12. */
#ifndef TESTS_KUHN_H
#define TESTS_KUHN_H

#include "efg.h"

typedef struct {
    int8_t dealt, card[2], len;
    uint8_t moves[3]; /* 0 pass, 1 bet */
} kuhn_state;

static void kuhn_root(const efg_game *g, void *s)
{
    (void)g;
    *(kuhn_state *)s = (kuhn_state){ 0 };
}

static bool kuhn_over(const kuhn_state *s)
{
    if (s->len < 2)
        return false;
    const uint8_t *m = s->moves;
    return s->len == 3 || !(m[0] == 0 && m[1] == 1); /* pp, pb?, bp, bb */
}

static int kuhn_player(const efg_game *g, const void *state)
{
    (void)g;
    const kuhn_state *s = state;
    return !s->dealt ? EFG_CHANCE : kuhn_over(s) ? EFG_TERMINAL : s->len % 2;
}

static double kuhn_utility(const efg_game *g, const void *state)
{
    (void)g;
    const kuhn_state *s = state;
    const uint8_t *m = s->moves;
    double high = s->card[0] > s->card[1] ? 1 : -1;
    if (s->len == 2 && m[0] == 0 && m[1] == 0)
        return high;                              /* check, check: showdown for 1 */
    if (s->len == 2 && m[0] == 1 && m[1] == 0)
        return 1;                                 /* bet, fold */
    if (s->len == 2)
        return 2 * high;                          /* bet, call */
    return m[2] == 0 ? -1 : 2 * high;             /* check, bet, fold / call */
}

static int kuhn_actions(const efg_game *g, const void *state, uint16_t *out, double *probs)
{
    (void)g;
    const kuhn_state *s = state;
    if (!s->dealt) {
        int n = 0;
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                if (a != b) {
                    probs[n] = 1.0 / 6;
                    out[n++] = (uint16_t)(a * 3 + b);
                }
        return n;
    }
    out[0] = 0;
    out[1] = 1;
    return 2;
}

static void kuhn_apply(const efg_game *g, void *dst, const void *src, int action)
{
    (void)g;
    kuhn_state *d = dst;
    *d = *(const kuhn_state *)src;
    if (!d->dealt) {
        d->dealt = 1;
        d->card[0] = (int8_t)(action / 3);
        d->card[1] = (int8_t)(action % 3);
    } else {
        d->moves[d->len++] = (uint8_t)action;
    }
}

static uint64_t kuhn_infoset(const efg_game *g, const void *state)
{
    (void)g;
    const kuhn_state *s = state;
    uint64_t key = (uint64_t)s->card[s->len % 2] + 1;
    for (int i = 0; i < s->len; i++)
        key = key * 4 + s->moves[i] + 1;
    return key;
}

static inline efg_game kuhn_game(void)
{
    return (efg_game){ .state_size = sizeof(kuhn_state), .root = kuhn_root, .player = kuhn_player,
                       .utility = kuhn_utility, .actions = kuhn_actions, .apply = kuhn_apply,
                       .infoset = kuhn_infoset };
}

#endif
