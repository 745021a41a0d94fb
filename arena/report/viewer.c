/* arena/report/viewer.c — a stored game replayed through the rules engine into the viewer's frames, the frames
 * as JSON, and freeing them (contract in viewer.h; the page is viewer_html.c). */
#include "viewer.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "json.h"
#include "query.h"
#include "timecontrol.h"

static int fail(char *err, size_t errlen, int code, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen)
        vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return code;
}

static void copy(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src ? src : "");
}

/* The three boards of g into frame x. */
static void boards(const hx_game *g, gv_frame *x)
{
    static const char stone[3] = { '-', 'b', 'w' };
    int cells = hx_cells(g);
    for (int i = 0; i < cells; i++) {
        int o = hx_owner(g, i);
        x->truth[i] = stone[o >= 0 && o <= 2 ? o : 0];
        for (int p = 0; p < 2; p++) {
            int v = hx_view(g, p, i);
            x->view[p][i] = v == HX_VIEW_OWN ? stone[1 + p] : v == HX_VIEW_OPPONENT ? stone[2 - p] : '-';
        }
    }
    x->truth[cells] = x->view[0][cells] = x->view[1][cells] = '\0';
}

/* The events each player was told since `seen` (its event count before the attempt), into frame x. */
static void told(const hx_game *g, int seen[2], gv_frame *x)
{
    hx_event ev[HX_MAX_EVENTS];
    for (int p = 0; p < 2; p++) {
        int n = hx_events(g, p, ev);
        x->n_told[p] = 0;
        for (int k = seen[p]; k < n && x->n_told[p] < 2; k++) {
            gv_told *t = &x->told[p][x->n_told[p]++];
            t->kind = ev[k].kind;
            t->cell = ev[k].kind == HX_EV_OPP_HIT ? -1 : ev[k].cell;
        }
        seen[p] = n;
    }
}

/* Room for frame n. */
static gv_frame *frame_at(gv_game *out, uint32_t *cap, int n)
{
    if ((uint32_t)n >= *cap) {
        uint32_t c = grow_capacity(*cap, (uint64_t)n + 1, 16);
        if (!c || !grow_resize(&out->frames, sizeof *out->frames, c))
            return NULL;
        *cap = c;
    }
    gv_frame *x = &out->frames[n];
    memset(x, 0, sizeof *x);
    x->n = n;
    return x;
}

/* Reads the game's row into out; its variant's name into variant. */
static int read_game(store_db *s, int64_t game, gv_game *out, char *variant, size_t vlen, char *err, size_t errlen)
{
    store_games *q = store_query(s, &(store_filter){ .game = game });
    if (!q)
        return fail(err, errlen, GV_DB_ERROR, "%s", store_error(s));
    store_game_row row;
    int rc = store_games_next(q, &row);
    if (rc != 1) {
        int code = rc == 0 ? fail(err, errlen, GV_NO_GAME, "no game %lld", (long long)game)
                           : fail(err, errlen, GV_DB_ERROR, "%s", store_error(s));
        store_games_end(q);
        return code;
    }
    out->id = row.id;
    out->rows = row.rows;
    out->cols = row.cols;
    out->swap = row.swap;
    out->winner = row.winner;
    out->opening = row.opening;
    copy(variant, vlen, row.variant);
    out->black_id = row.black_id;
    out->white_id = row.white_id;
    out->league_id = row.league;
    copy(out->black, sizeof out->black, row.black_label);
    copy(out->white, sizeof out->white, row.white_label);
    copy(out->reason, sizeof out->reason, row.reason);
    copy(out->detail, sizeof out->detail, row.detail);
    copy(out->started, sizeof out->started, row.started);
    copy(out->league, sizeof out->league, row.league_name);
    copy(out->tc[HX_BLACK], sizeof out->tc[HX_BLACK], row.black_tc ? row.black_tc : "");
    copy(out->tc[HX_WHITE], sizeof out->tc[HX_WHITE], row.white_tc ? row.white_tc : "");
    store_games_end(q);
    return GV_OK;
}

/* The game clocks after attempt x (before: the frame before it): the mover's charged with its thinking time, and
 * given its increment (and a period's time) when its move is complete (the turn passed: not a rejection, not the
 * end of the game); the opening runs no clock (timecontrol.h, the runner's rules). */
static void run_clock(tc_clock *mover, gv_frame *x, const gv_frame *before)
{
    x->left[0] = before->left[0];
    x->left[1] = before->left[1];
    if (!mover || x->opening)
        return;
    if (isfinite(x->ms) && x->ms >= 0)
        tc_clock_charge(mover, x->ms);
    if (x->outcome != HX_REJECTED && x->to_move != HX_NOBODY)
        tc_clock_complete(mover);
    x->left[x->player] = (double)mover->left_ms;
}

/* Plays stored attempt a on g and records frame x; GV_BAD_GAME when the rules do not give its outcome. */
static int replay(hx_game *g, const store_attempt_row *a, int seen[2], gv_frame *x, const gv_game *out,
                  tc_clock *clocks[2], char *err, size_t errlen)
{
    const char *why = NULL;
    int cell = strcmp(a->cell, "swap") == 0 ? HX_SWAP : hx_cell_parse(a->cell, out->rows, out->cols, &why);
    int outcome = cell < 0 && cell != HX_SWAP ? -1 : hx_attempt(g, cell);
    if (outcome < 0 || strcmp(hx_outcome_name(outcome), a->outcome) != 0 ||
        hx_move_at(g, hx_num_attempts(g) - 1).player != a->player || a->n != x->n)
        return fail(err, errlen, GV_BAD_GAME, "game %lld, attempt %d (%s %.16s %.16s): the rules do not give this outcome",
                    (long long)out->id, a->n, a->player == HX_BLACK ? "B" : "W", a->cell, a->outcome);
    x->player = a->player;
    x->cell = cell;
    if (cell == HX_SWAP)
        copy(x->cell_name, sizeof x->cell_name, "swap");
    else
        hx_cell_name(cell, out->cols, x->cell_name);
    x->outcome = (hx_outcome)outcome;
    x->opening = x->n <= out->opening;
    x->ms = a->ms;
    const gv_frame *before = x - 1;
    x->clock[0] = before->clock[0];
    x->clock[1] = before->clock[1];
    if (isfinite(a->ms) && a->ms >= 0)
        x->clock[a->player] += a->ms;
    x->to_move = hx_over(g) ? HX_NOBODY : hx_to_move(g);
    run_clock(clocks[a->player], x, before);
    told(g, seen, x);
    boards(g, x);
    return GV_OK;
}

/* The illegal attempt that ended the game, as frame x after the last one (before): its cell from the detail the
 * runner wrote ("a1: ...", "swap: ...", "cell 99: off the 3x3 board"). */
static void illegal_frame(const gv_game *out, gv_frame *x, const gv_frame *before)
{
    int n = x->n;
    *x = *before;
    x->n = n;
    x->player = out->winner == HX_BLACK ? HX_WHITE : HX_BLACK;
    x->illegal = true;
    x->opening = false;
    x->outcome = HX_PLACED;
    x->ms = NAN;
    x->to_move = HX_NOBODY;
    x->n_told[0] = x->n_told[1] = 0;
    x->cell = -1;
    x->cell_name[0] = '\0';
    char name[8];
    size_t len = strcspn(out->detail, ":");
    if (out->detail[len] != ':' || len == 0 || len >= sizeof name)
        return;
    memcpy(name, out->detail, len);
    name[len] = '\0';
    const char *why = NULL;
    int cell = strcmp(name, "swap") == 0 ? HX_SWAP : hx_cell_parse(name, out->rows, out->cols, &why);
    if (cell < 0 && cell != HX_SWAP)
        return;
    x->cell = cell;
    copy(x->cell_name, sizeof x->cell_name, name);
}

int gv_start(const gv_game *g)
{
    return g->forfeit >= 0 ? g->forfeit : g->n_frames - 1;
}

int gv_build(store_db *s, int64_t game, gv_game *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->forfeit = -1;
    char variant[32];
    int rc = read_game(s, game, out, variant, sizeof variant, err, errlen);
    if (rc != GV_OK)
        return rc;
    int v = hx_variant_parse(variant);
    hx_game g;
    if (v < 0 || hx_new(&g, (hx_variant)v, out->rows, out->cols, out->swap ? HX_SWAP_RULE : 0) != 0)
        return fail(err, errlen, GV_BAD_GAME, "game %lld: unknown variant '%s' or board %dx%d", (long long)game,
                    variant, out->rows, out->cols);
    out->variant = (hx_variant)v;
    uint32_t cap = 0;
    gv_frame *x = frame_at(out, &cap, 0);
    if (!x)
        return fail(err, errlen, GV_DB_ERROR, "out of memory");
    x->player = HX_NOBODY;
    x->cell = -1;
    x->to_move = hx_to_move(&g);
    x->ms = NAN;
    tc_clock clock[2], *clocks[2] = { NULL, NULL };
    for (int p = 0; p < 2; p++) {
        tc_control tc;
        char why[120];
        x->left[p] = NAN;
        if (out->tc[p][0] && tc_parse(out->tc[p], &tc, why, sizeof why)) {
            tc_clock_start(&clock[p], &tc);
            clocks[p] = &clock[p];
            x->left[p] = (double)clock[p].left_ms;
        }
    }
    boards(&g, x);
    out->n_frames = 1;
    store_transcript *t = store_transcript_open(s, game);
    if (!t)
        return fail(err, errlen, GV_DB_ERROR, "%s", store_error(s));
    int seen[2] = { 0, 0 };
    store_attempt_row a;
    while ((rc = store_transcript_next(t, &a)) == 1) {
        if (out->n_frames > HX_MAX_ATTEMPTS || !(x = frame_at(out, &cap, out->n_frames))) {
            store_transcript_end(t);
            return fail(err, errlen, out->n_frames > HX_MAX_ATTEMPTS ? GV_BAD_GAME : GV_DB_ERROR,
                        "game %lld: %s", (long long)game, out->n_frames > HX_MAX_ATTEMPTS ? "too many attempts"
                                                                                          : "out of memory");
        }
        int r = replay(&g, &a, seen, x, out, clocks, err, errlen);
        if (r != GV_OK) {
            store_transcript_end(t);
            return r;
        }
        out->n_frames++;
    }
    store_transcript_end(t);
    if (rc < 0)
        return fail(err, errlen, GV_DB_ERROR, "%s", store_error(s));
    if (strcmp(out->reason, "connected") == 0)
        return GV_OK;
    if (strcmp(out->reason, "illegal") == 0) { /* the attempt that lost: one more frame */
        if (!(x = frame_at(out, &cap, out->n_frames)))
            return fail(err, errlen, GV_DB_ERROR, "out of memory");
        illegal_frame(out, x, x - 1);
        out->n_frames++;
    }
    out->forfeit = out->n_frames - 1;
    return GV_OK;
}

void gv_free(gv_game *g)
{
    free(g->frames);
    g->frames = NULL;
    g->n_frames = 0;
}

/* ---- JSON ---- */

static const char *player_name(int p)
{
    return p == HX_BLACK ? "B" : p == HX_WHITE ? "W" : "";
}

static const char *const told_kind[] = { "placed", "rejected", "collided", "opp_placed", "opp_hit", "opp_hit_at",
                                         "swap" };

static void json_told(FILE *f, const gv_game *g, const gv_frame *x, int p)
{
    fprintf(f, "\"%s\":[", player_name(p));
    for (int k = 0; k < x->n_told[p]; k++) {
        const gv_told *t = &x->told[p][k];
        char name[HX_CELL_NAME_MAX] = "";
        if (t->cell >= 0 && t->cell < g->rows * g->cols)
            hx_cell_name(t->cell, g->cols, name);
        fprintf(f, "%s{\"kind\":\"%s\",\"cell\":", k ? "," : "",
                t->kind >= 0 && t->kind <= HX_EV_SWAP ? told_kind[t->kind] : "?");
        if (name[0])
            fprintf(f, "\"%s\"}", name);
        else
            fputs("null}", f);
    }
    fputc(']', f);
}

static void json_frame(FILE *f, const gv_game *g, const gv_frame *x)
{
    fprintf(f, "{\"n\":%d,\"player\":\"%s\",\"cell\":", x->n, player_name(x->player));
    json_string(f, x->cell_name);
    fprintf(f, ",\"outcome\":\"%s\",\"opening\":%s,\"ms\":",
            x->illegal ? "illegal" : x->n ? hx_outcome_name(x->outcome) : "",
            x->opening ? "true" : "false");
    json_fixed(f, x->ms, 3);
    fputs(",\"clock\":[", f);
    json_fixed(f, x->clock[0], 3);
    fputc(',', f);
    json_fixed(f, x->clock[1], 3);
    fputs("],\"left\":[", f);
    json_fixed(f, x->left[0], 3);
    fputc(',', f);
    json_fixed(f, x->left[1], 3);
    fprintf(f, "],\"to_move\":\"%s\",\"told\":{", player_name(x->to_move));
    json_told(f, g, x, HX_BLACK);
    fputc(',', f);
    json_told(f, g, x, HX_WHITE);
    fprintf(f, "},\"truth\":\"%s\",\"black\":\"%s\",\"white\":\"%s\"}", x->truth, x->view[0], x->view[1]);
}

void gv_write_json(const gv_game *g, FILE *f)
{
    fprintf(f, "{\"id\":%lld,\"variant\":\"%s\",\"rows\":%d,\"cols\":%d,\"swap\":%s,\"black\":", (long long)g->id,
            hx_variant_name(g->variant), g->rows, g->cols, g->swap ? "true" : "false");
    json_string(f, g->black);
    fputs(",\"white\":", f);
    json_string(f, g->white);
    fprintf(f, ",\"winner\":\"%s\",\"reason\":", player_name(g->winner));
    json_string(f, g->reason);
    fputs(",\"detail\":", f);
    json_string(f, g->detail);
    fputs(",\"started\":", f);
    json_string(f, g->started);
    fputs(",\"league\":", f);
    json_string(f, g->league);
    fprintf(f, ",\"opening\":%d,\"time_control\":[", g->opening);
    for (int p = 0; p < 2; p++) {
        if (p)
            fputc(',', f);
        if (g->tc[p][0])
            json_string(f, g->tc[p]);
        else
            fputs("null", f);
    }
    fputs("],\"forfeit\":", f);
    if (g->forfeit >= 0)
        fprintf(f, "%d", g->forfeit);
    else
        fputs("null", f);
    fputs(",\"frames\":[", f);
    for (int k = 0; k < g->n_frames; k++) {
        if (k)
            fputc(',', f);
        json_frame(f, g, &g->frames[k]);
    }
    fputs("]}\n", f);
}
