/* arena/report/viewer.h — the Dark Hex game viewer: a stored game (store.h, query.h) replayed through the rules
 * engine into frames, one per attempt, each with the true board, Black's view and White's view, the attempt
 * and its outcome, what each player was told by it (its own result; a noisy or flash report on its stones;
 * the opponent's stone in hex), whether it was the opening's and the thinking time; drawn as a self-contained
 * HTML page (three SVG hex boards side by side, stacked on a phone, with a slider and keys over the attempts)
 * or as JSON. Used by `arena show GAME --format html|json` and by the server's game page.
 *
 * Boards are strings of rows*cols characters, cell index i = r*cols + c, in absolute colours: 'b' a Black
 * stone, 'w' a White stone, '-' empty (true board) or unknown to that player (a view). */
#ifndef ARENA_REPORT_VIEWER_H
#define ARENA_REPORT_VIEWER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "game.h"
#include "store.h"

/* What one player was told by one attempt (an engine event, game.h): kind and cell (cell is -1 when the
 * event names none: a noisy report). */
typedef struct {
    hx_event_kind kind;
    int cell;
} gv_told;

/* The position after attempt n (n = 0: before the first attempt, the empty board). */
typedef struct {
    int n;                       /* 0 .. n_frames - 1 */
    int player;                  /* who attempted: HX_BLACK or HX_WHITE; HX_NOBODY in frame 0 */
    int cell;                    /* the cell attempted (HX_SWAP for the swap), -1 in frame 0 */
    char cell_name[8];           /* "a1", "swap", "" in frame 0 */
    hx_outcome outcome;          /* placed, rejected (classical: the mover moves again), collision (abrupt:
                                  * the turn is lost) or swapped; HX_PLACED in frame 0 */
    bool opening;                /* one of the opening's attempts, played by the referee */
    bool illegal;                /* the illegal attempt that lost a game by forfeit (reason "illegal"): not played,
                                  * so not in the transcript; rebuilt from the game's detail ("a1: ...", "swap: ...",
                                  * "cell 99: off the 3x3 board"): cell -1 and cell_name "" when it names no cell of
                                  * the board; the boards are the frame before's, outcome HX_PLACED means nothing */
    double ms;                   /* the mover's thinking time in ms; NAN when not stored (opening, old games) */
    double clock[2];             /* each player's thinking time so far, ms (stored times only) */
    double left[2];              /* each player's game clock after this attempt, ms; NAN for a player without
                                  * one (the game's time control, replayed over the stored thinking times) */
    int to_move;                 /* who moves next; HX_NOBODY once the game is over */
    gv_told told[2][2];          /* what each player (HX_BLACK, HX_WHITE) was told by this attempt */
    int n_told[2];
    char truth[HX_MAX_CELLS + 1];   /* the true board */
    char view[2][HX_MAX_CELLS + 1]; /* Black's view, White's view */
} gv_frame;

typedef struct {
    int64_t id;
    hx_variant variant;
    int rows, cols;
    bool swap;                   /* played with the swap rule */
    char black[256], white[256]; /* the players' labels */
    int64_t black_id, white_id, league_id; /* their agents and the league (0 outside leagues) */
    bool link_pages;             /* set by a server: the page links /agent/ID and /league/ID (a file on disk: no) */
    int winner;                  /* HX_BLACK or HX_WHITE */
    char reason[32], detail[512];/* an hx_end_name(); "" for no detail */
    char started[40], league[128];/* ISO 8601; the league's name, "" outside leagues */
    int opening;                 /* its first `opening` attempts were the opening */
    char tc[2][40];              /* each player's time control ("40/60+0.5"), "" for none */
    gv_frame *frames;            /* n_frames = attempts + 1, one more for an illegal attempt */
    int n_frames;
    int forfeit;                 /* the frame of the forfeit: the illegal attempt's, else the last attempt before
                                  * the crash, timeout, protocol error or disconnection; -1 for a connected game */
} gv_game;

/* gv_build's results. */
enum {
    GV_OK = 0,
    GV_NO_GAME = 1,      /* no game with this id (a 404) */
    GV_DB_ERROR = -1,    /* the database failed (err: store_error()) */
    GV_BAD_GAME = -2,    /* a stored game the rules do not accept: unknown variant or board, or a transcript whose
                          * outcomes the engine does not give (err names the game and the attempt) */
};

/* Reads game `game` from the open store s and replays it into *out (free it with gv_free, also after an
 * error). Returns GV_OK, or one of the codes above with a one-line reason in err. Bounded: a game has at
 * most HX_MAX_ATTEMPTS attempts. */
int gv_build(store_db *s, int64_t game, gv_game *out, char *err, size_t errlen);

/* The frame a page opens at when no attempt is asked for: the end of the game (its winning stone), or the forfeit
 * (g->forfeit: the illegal attempt, or the last attempt before a crash or a timeout). */
int gv_start(const gv_game *g);

/* The viewer page: self-contained (inline style and script, no network), every text escaped, with the reports'
 * style sheet (style.h) and header. Shows attempt `ply` first (gv_start(g) when ply < 0, else clamped to
 * 0 .. n_frames - 1; `?ply=N` in the page's address overrides it). Each board is an <svg class="board"
 * data-board="truth|black|white"> whose cells are <polygon data-cell="i" data-stone="b|w|-">, and whose
 * <g class="marks"> holds the marks of the attempt shown (circles and paths of class "mark placed|hit|flash|
 * opening|illegal", each with data-cell="i"; "illegal" is the forfeit's cross, on the true board and the mover's
 * view); the current ply is in <input type="range" id="ply">; the page's JSON frames are in
 * <script type="application/json" id="frames">. */
void gv_write_html(const gv_game *g, int ply, FILE *f);

/* The game as one JSON object: {"id","variant","rows","cols","black","white","winner","reason","detail",
 * "started","league","opening","time_control":[b,w] (null for none),"forfeit" (the forfeit's frame, null for a
 * connected game),"frames":[{"n","player","cell","outcome" ("illegal" for the illegal attempt),
 * "opening","ms","clock":[b,w],"left":[b,w] (ms on the game clock, null without one),
 * "to_move","told":{"B":[...],"W":[...]},"truth","black","white"}...]} with each board a string as above;
 * then a newline. */
void gv_write_json(const gv_game *g, FILE *f);

void gv_free(gv_game *g);

/* For a static report: the page (gv_write_html, opened at the forfeit) of each agent's latest forfeited
 * game of league `league`, as DIR/games/game-ID.html (the nightly page's forfeits table links them). Returns
 * the number written, or -1 with a one-line reason in err (a database error, a file that cannot be written). */
int gv_write_forfeits(store_db *s, int64_t league, const char *dir, char *err, size_t errlen);

#endif
