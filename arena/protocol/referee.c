/* arena/protocol/referee.c — builds each player's messages from the engine's event logs. */
#include "referee.h"

#include <stdio.h>
#include <string.h>

int ref_init(hx_referee *r, uint64_t id, hx_variant v, int rows, int cols, unsigned flags)
{
    r->id = id;
    r->sent[0] = r->sent[1] = 0;
    r->opening = 0;
    r->version[0] = r->version[1] = PM_VERSION;
    return hx_new(&r->game, v, rows, cols, flags);
}

void ref_speaks(hx_referee *r, int player, int version)
{
    r->version[player] = version;
}

int ref_opening(hx_referee *r, const uint16_t *cells, int n, char *why, size_t whylen)
{
    if (hx_num_attempts(&r->game) != 0) {
        snprintf(why, whylen, "an opening needs a game not yet under way");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        char name[HX_CELL_NAME_MAX];
        if (cells[i] >= hx_cells(&r->game)) {
            snprintf(why, whylen, "opening stone %d: cell %d is off the %dx%d board", i + 1, cells[i],
                     hx_rows(&r->game), hx_cols(&r->game));
            return -1;
        }
        hx_cell_name(cells[i], hx_cols(&r->game), name);
        if (hx_owner(&r->game, cells[i]) != 0) {
            snprintf(why, whylen, "opening stone %d: %s is already taken", i + 1, name);
            return -1;
        }
        if (hx_over(&r->game)) {
            snprintf(why, whylen, "opening stone %d: %s comes after %s has won", i + 1, name,
                     hx_winner(&r->game) == HX_BLACK ? "Black" : "White");
            return -1;
        }
        if (hx_attempt(&r->game, cells[i]) != HX_PLACED) { /* (cannot happen: an empty cell, Black and White in turn) */
            snprintf(why, whylen, "opening stone %d: %s is not placed", i + 1, name);
            return -1;
        }
        r->opening++;
    }
    if (hx_over(&r->game)) {
        snprintf(why, whylen, "the opening wins the game for %s", hx_winner(&r->game) == HX_BLACK ? "Black" : "White");
        return -1;
    }
    for (int p = 0; p < 2; p++) /* protocol 2: told in game_start; protocol 1: replayed (ref_replay, then its turn) */
        r->sent[p] = r->version[p] >= 2 ? hx_key_length(&r->game, p) : 0;
    return 0;
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
    bool told = hx_variant_of(&r->game) == HX_HEX;
    for (int i = 0; i < r->opening && r->version[player] >= 2; i++) {
        int cell = hx_move_at(&r->game, i).cell;
        if (i % 2 == player)
            out->own[out->n_own++] = (uint16_t)cell;
        else if (told)
            out->seen[out->n_seen++] = (uint16_t)cell;
        else
            out->hidden++;
    }
}

bool ref_replay(const hx_referee *r, int player, int k, pm_msg *out)
{
    int i = player + 2 * k; /* its k-th own stone: Black's are the 1st, 3rd, ..., White's the 2nd, 4th, ... */
    if (r->version[player] >= 2 || k < 0 || i >= r->opening)
        return false;
    memset(out, 0, sizeof *out);
    out->type = PM_RESULT;
    out->game = r->id;
    out->cell = hx_move_at(&r->game, i).cell;
    out->outcome = HX_PLACED;
    return true;
}

static bool own_kind(hx_event_kind k)
{
    return k == HX_EV_PLACED || k == HX_EV_REJECTED || k == HX_EV_COLLIDED;
}

/* The events of player p's log not yet sent, into out (protocol 1: those about the opponent; its own outcomes went
 * in `result`s, its opening stones in ref_replay's). Returns how many; they count as sent. */
static int unsent(hx_referee *r, int p, hx_event *out)
{
    hx_event ev[HX_MAX_EVENTS];
    int n = hx_events(&r->game, p, ev), k = 0;
    for (int i = r->sent[p]; i < n; i++)
        if (r->version[p] >= 2 || !own_kind(ev[i].kind))
            out[k++] = ev[i];
    r->sent[p] = n;
    return k;
}

void ref_turn(hx_referee *r, pm_msg *out)
{
    int p = hx_to_move(&r->game);
    out->type = PM_TURN;
    out->game = r->id;
    out->n_events = unsent(r, p, out->events);
    out->has_clock = out->has_opp_clock = false; /* the runner adds the clocks of a game with time controls */
}

void ref_tail(hx_referee *r, int player, pm_msg *end)
{
    end->protocol = r->version[player] >= 2 ? 2 : 1;
    end->n_events = end->protocol >= 2 ? unsent(r, player, end->events) : 0;
}

int ref_move(hx_referee *r, int cell, pm_msg *out)
{
    int p = hx_to_move(&r->game);
    int outcome = hx_attempt(&r->game, cell);
    if (outcome < 0)
        return outcome;
    if (r->version[p] >= 2) { /* told in its next turn, or its game_end */
        out->type = PM_TYPE_COUNT;
        return outcome;
    }
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
