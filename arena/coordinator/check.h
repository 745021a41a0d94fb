/* arena/coordinator/check.h — a conformance run of one bot, as its new author needs it (`arena check`): the bot plays
 * a reference opponent through the real coordinator and sandbox in every variant and board it announces (or those
 * asked for), from openings and from the empty board, then with a fresh process for every game (each one asked to
 * shut down after its game), then with a sudden-death game clock and the swap rule from one-stone openings (the
 * clock keys of every turn, moves_to_go 0, White first and its swap window); the stored games are then read back into a checklist: its hello, each variant and
 * board (a forfeit names its reason, detail and game), the rejections and collisions it answered, its time use
 * against the budget, whether it ignored the opening stones it was given, and what the run could not exercise.
 * Everything is played into one results database (a league per phase), so a failure can be replayed with
 * `arena show`; the bots' logs of the run are the only check logs in the log directory (a run removes the
 * previous run's check-hello-*.log and league-check-*.log when it starts). */
#ifndef ARENA_COORDINATOR_CHECK_H
#define ARENA_COORDINATOR_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"

#define CK_MAX_ITEMS 64

typedef struct {
    const char *bot;               /* the bot's command line */
    const char *opponent;          /* the reference opponent's command line */
    uint32_t variants;             /* bit v: hx_variant v; 0: what the bot announces */
    cfg_games boards;              /* n_boards 0: what the bot announces, or 3x3 and 4x4 when it takes any */
    int games;                     /* games per variant and board in each phase (even); 0: 2, and in the phase from
                                    * openings more on a small board (3x3: 8, 4x4: 6, 5x5: 4) */
    uint32_t move_ms;              /* budget per attempt */
    uint32_t handshake_ms;         /* from the bot's start to its hello */
    bool sandbox;                  /* run the bot in its sandbox (default on) */
    const char *db, *logs;         /* where the games and the bots' output go */
} ck_opts;

typedef enum { CK_OK, CK_FAILED, CK_SKIPPED } ck_status;

typedef struct {
    char what[96];                 /* "hello", "classical 3x3 from openings", "time", ... */
    ck_status status;
    char detail[2400];             /* what was seen; for a failure, the reason and where to look (a forfeit: its
                                    * log and the last lines the bot wrote, each after "\n| ") */
} ck_item;

typedef struct {
    ck_item items[CK_MAX_ITEMS];
    int n, failed;
    long games;                    /* games played */
    char version[128];             /* from its hello */
} ck_report;

/* Runs the check. Returns 0 with the checklist in *out (failed items counted in out->failed), or -1 with the reason
 * in err when the check itself could not run (a bad command line, a database error). */
int ck_run(const ck_opts *o, ck_report *out, char *err, size_t errlen);

#endif
