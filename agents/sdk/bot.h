/* agents/sdk/bot.h — the C bot SDK: a bot is a few callbacks; the SDK connects to the coordinator
 * (ZeroMQ DEALER, docs/protocol.md; it speaks protocol PM_VERSION, 2: its own outcomes come as events of its next
 * turn or of game_end), says hello with the token it was given, keeps the player's view and
 * event log (its information state) up to date, answers pings, and sends the moves the bot chooses.
 *
 *   static int choose(const bot_state *s, void *user) { ... return a cell from bot_legal() ... }
 *   int main(int argc, char **argv) {
 *       bot_spec spec = { .name = "mybot", .version = "1.0", .choose = choose };
 *       return bot_run(&spec, argc, argv);
 *   }
 *
 * bot_run() reads `--endpoint E` (or the ARENA_ENDPOINT environment variable) and ARENA_TOKEN, and returns
 * the process exit status: 0 after a shutdown message, 1 when the connection fails, 2 for bad arguments.
 * One process plays any number of games, one after another. */
#ifndef AGENTS_SDK_BOT_H
#define AGENTS_SDK_BOT_H

#include <stdbool.h>
#include <stdint.h>

#include "game.h"
#include "protocol.h"

/* What the player knows in the current game. */
typedef struct {
    uint64_t game;                 /* game id */
    hx_variant variant;
    int rows, cols, cells;
    int color;                     /* HX_BLACK or HX_WHITE */
    uint32_t move_ms;              /* budget per move */
    uint64_t seed;                 /* this player's seed for the game, for the bot's own randomness */
    bool swap_rule;
    uint8_t view[HX_MAX_CELLS];    /* HX_VIEW_UNKNOWN / HX_VIEW_OWN / HX_VIEW_OPPONENT */
    int n_events;
    hx_event events[HX_MAX_EVENTS]; /* everything this player did and was told, in order */
    int own_stones, known_opponent_stones;
    int opening;                   /* stones of the opening the game started from (docs/protocol.md "Openings"),
                                    * 0 for none; they are in view, events and the counts as if played */
    double deadline;               /* when the current move is due, in bot_clock() seconds: move_ms from its turn,
                                    * or with a game clock the smaller of move_ms and the clock's time left */
    /* The game clocks as the current turn told them (docs/protocol.md "Clocks (protocol 2)"); has_clock false
     * (and the rest 0) in a game without one. */
    bool has_clock, has_opp_clock;
    uint32_t clock_ms;             /* this player's time left, from the turn's sending */
    uint32_t inc_ms;               /* added to it after each completed move */
    int moves_to_go;               /* moves until its period's time is added again; 0: sudden death */
    uint32_t opp_clock_ms;         /* the opponent's time left (with has_opp_clock) */
} bot_state;

typedef struct {
    const char *name, *version;
    uint32_t variants;             /* bit v: can play hx_variant v; 0 = all */
    int n_boards;                  /* boards it can play (rows, cols); 0 = any */
    uint8_t boards[16][2];
    /* Required: the attempt to make now, a cell from bot_legal() (or HX_SWAP). */
    int (*choose)(const bot_state *s, void *user);
    /* Optional: a game starts; an event was told (own results and opponent reports); the game ended
     * (board: the full true board, 0 empty, 1 Black, 2 White). */
    void (*game_start)(const bot_state *s, void *user);
    void (*observe)(const bot_state *s, const hx_event *e, void *user);
    void (*game_end)(const bot_state *s, int winner, const uint8_t *board, void *user);
    void *user;
} bot_spec;

int bot_run(const bot_spec *spec, int argc, char **argv);

/* What bot_run() does with a game_start message: resets *s to the new game, calls spec->game_start, then
 * applies the opening (if any) as if its stones had been played, in play order from Black: each own stone
 * an HX_EV_PLACED event, each stone in `seen` (hex) an HX_EV_OPP_PLACED event; a stone not told (`hidden`,
 * dark variants) is an opponent move the player saw nothing of, as in a game without an opening. So view,
 * events (and with them the information-state key, hx_events_hash()) and counts are those of the same
 * stones played as moves; spec->observe is called for each event. spec may be NULL. */
void bot_start_game(bot_state *s, const pm_msg *start, const bot_spec *spec);

/* Legal attempts in the current view: unknown cells in ascending order, then HX_SWAP when allowed.
 * `out` holds HX_MAX_CELLS + 1 entries. Returns the count. */
int bot_legal(const bot_state *s, uint16_t *out);

/* For a bot's own option loop: when argv[*i] is "--seed", parses the whole number after it into *seed,
 * moves *i onto that value and returns 1; returns 0 for any other argument; prints "NAME: --seed needs a
 * whole number" on stderr and returns -1 for a missing or bad value (the bot then exits with status 2). */
int bot_seed_option(const char *name, int argc, char **argv, int *i, uint64_t *seed);

/* For a bot's own option loop: parses v, the value after option `opt`, as a whole number from lo to hi into *out
 * (0), or prints "NAME: OPT needs a whole number from LO to HI" on stderr and returns -1 (missing, empty, not
 * a number, out of range). */
int bot_whole_option(const char *name, const char *opt, const char *v, long lo, long hi, long *out);

/* The same for a decimal number from lo to hi: "NAME: OPT needs a number from LO to HI" (%g) on failure. */
int bot_number_option(const char *name, const char *opt, const char *v, double lo, double hi, double *out);

/* One option of a bot's command line, for bot_options():
 * - WHOLE: "FLAG N", N a whole number from lo to hi, into *(long *)out;
 * - NUMBER: "FLAG X", X a number from lo to hi, into *(double *)out;
 * - FLAG: "FLAG" alone sets *(bool *)out to lo != 0 (so --no-X options set false);
 * - CHOICE: "FLAG NAME", NAME one of choices[] (NULL-terminated), its index into *(int *)out. */
typedef enum { BOT_OPT_WHOLE, BOT_OPT_NUMBER, BOT_OPT_FLAG, BOT_OPT_CHOICE } bot_opt_kind;
typedef struct {
    const char *flag;
    bot_opt_kind kind;
    void *out;
    double lo, hi;
    const char *const *choices;
} bot_opt;

/* A bot's whole option loop. When one of the arguments is "--help", calls usage() (which prints the bot's
 * usage on stdout) and returns 1: the bot then exits with status 0. Otherwise reads "--seed S" into *seed (as
 * bot_seed_option()) and each of the n options of opts[] as its kind says; other arguments are left alone
 * (bot_run() reads --endpoint). Returns 0, or -1 after printing the first bad option's message on stderr
 * ("NAME: OPT needs a whole number from LO to HI", "... a number from LO to HI", "... one of A, B, C"); the
 * bot then exits with status 2. */
int bot_options(const char *name, int argc, char **argv, const bot_opt *opts, int n, uint64_t *seed,
                void (*usage)(void));

/* Seconds to think on the current attempt: `want` (negative: as long as allowed), never more than `share` of
 * bot_time_for_move(), and at least 0.1 ms. */
double bot_think_seconds(const bot_state *s, double share, double want);

/* Seconds the bot may plan to think on the current attempt, never past its deadline: without a game clock the
 * time to the deadline; with one, its share of the clock: the time left over the moves to go (sudden death: over
 * BOT_CLOCK_MOVES moves), plus the increment. A bot that thinks in a loop can spend this and be safe from the clock
 * (a rejected attempt in the classical variants is asked again, on the same clock, and gets its share again). */
double bot_time_for_move(const bot_state *s);
#define BOT_CLOCK_MOVES 20

/* Monotonic clock in seconds (the time base of bot_state.deadline). */
double bot_clock(void);

#endif
