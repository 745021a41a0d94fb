/* arena/protocol/referee.c — builds each player's messages from the engine's event logs. */
#include "referee.h"

#include <stdio.h>
#include <string.h>

int ref_init(hx_referee *r, uint64_t id, hx_variant v, int rows, int cols, unsigned flags)
{
    r->id = id;
    r->sent[0] = r->sent[1] = 0;
    return hx_new(&r->game, v, rows, cols, flags);
}

void ref_game_start(const hx_referee *r, int player, uint32_t move_ms, uint64_t seed, pm_msg *out)
{
    memset(out, 0, sizeof *out);
    out->type = PM_GAME_START;
    out->game = r->id;
    out->variant = hx_variant_of(&r->game);
    out->rows = hx_rows(&r->game);
    out->cols = hx_cols(&r->game);
    out->color = player;
    out->move_ms = move_ms;
    out->seed = seed;
    out->swap = (r->game.flags & HX_SWAP_RULE) != 0;
}

void ref_turn(hx_referee *r, pm_msg *out)
{
    int p = hx_to_move(&r->game);
    hx_event ev[HX_MAX_EVENTS];
    int n = hx_events(&r->game, p, ev);
    out->type = PM_TURN;
    out->game = r->id;
    out->n_events = n - r->sent[p];
    memcpy(out->events, ev + r->sent[p], (size_t)out->n_events * sizeof ev[0]);
    r->sent[p] = n;
}

int ref_move(hx_referee *r, int cell, pm_msg *out)
{
    int p = hx_to_move(&r->game);
    int outcome = hx_attempt(&r->game, cell);
    if (outcome < 0)
        return outcome;
    /* The mover's own result is the last event of its log; nothing else reached it meanwhile. */
    r->sent[p] = hx_key_length(&r->game, p);
    out->type = PM_RESULT;
    out->game = r->id;
    out->cell = outcome == HX_SWAPPED ? HX_SWAP : cell;
    out->outcome = (hx_outcome)outcome;
    out->won = hx_winner(&r->game) == p;
    return outcome;
}

void ref_end(const hx_referee *r, int winner, hx_end_reason reason, const char *detail, pm_msg *out)
{
    out->type = PM_GAME_END;
    out->game = r->id;
    out->winner = winner;
    out->reason = reason;
    snprintf(out->detail, sizeof out->detail, "%s", detail ? detail : "");
    out->n_cells = hx_cells(&r->game);
    for (int i = 0; i < out->n_cells; i++)
        out->board[i] = (uint8_t)hx_owner(&r->game, i);
}
