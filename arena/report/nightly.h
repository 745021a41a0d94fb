/* arena/report/nightly.h — the nightly page of one league (docs/nightly.md): everything it says read from
 * the store once (the league's facts and stored config, its standings and the previous league's of the same
 * name, the agents, every game's forfeits, sandbox flags and thinking times, the repeated games), then built
 * into a document (doc.h) with its sections: run settings, agents, ratings, change since the previous night,
 * head-to-head, win matrices, ratings by variant and board, rating history, forfeits with the agents' logs,
 * time use and repeated games, and the warnings that open it. Also the logs of the agents that forfeited and
 * summary.txt, the night's facts for the index (nights.h). nightly.c reads, nightly_page.c builds the page. */
#ifndef ARENA_REPORT_NIGHTLY_H
#define ARENA_REPORT_NIGHTLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "doc.h"
#include "facts.h"
#include "result.h"
#include "plot.h"
#include "standings.h"
#include "store.h"

/* One agent of the league: what the page says about it beyond its ratings. */
typedef struct {
    store_agent_row info;
    char changed[512];         /* what makes it another agent than the one before it of its name and command line
                                * (store_agent_changes), "" for none */
    bool unsandboxed;
    long forfeits[HX_END_COUNT], forfeit_total;
    char detail[200];          /* the latest forfeit's reason and detail */
    double *ms;                /* thinking times of its timed attempts */
    long n_ms, cap_ms, timed_games;
    double seconds;            /* sum over its games of its thinking time */
    char tc[48];               /* the time control of its games with a clock ("several" when they differ), "" none */
    long clock_games, out_of_time; /* its games with a clock; those it lost on time by its clock */
    double clock_left, clock_min_left; /* over those games: the sum and the least of its time left at the end, s */
    char section[CFG_NAME_MAX]; /* its config section (its logs' name), "" when unknown */
    char logs[8][512];         /* log files copied, relative to the report: logs/NAME, NAME percent-encoded */
    char log_names[8][256];    /* their names as they are (the links' text) */
    int n_logs;
} ng_agent;

/* A game as the repeat check keys it: pairing, colours, board and moves. */
typedef struct {
    int variant, rows, cols;
    char black[64], white[64];
    uint64_t moves;
} ng_game_key;

/* Where the page's names lead: printf formats of ids (NULL: not linked). The server links its pages
 * ("/agent/%lld", "/pairing/%lld/%lld", "/game/%lld", "/league/%lld", "/nights"); a report on disk its own files
 * ("games/game-%lld.html", only to a viewer page it wrote: game_files; "../index.html" when that index exists). */
typedef struct {
    const char *agent, *pairing, *game, *league, *nights;
    bool game_files;           /* link a game only when the file (relative to out) exists */
} ng_links;

typedef struct {
    const char *cmd, *db;      /* for messages: "report", the database's path */
    int bootstrap;
    int64_t id;
    st_report *r;
    st_selection pooled;
    store_league_facts facts;
    cfg_league cfg;
    bool have_cfg;             /* the stored config parses with this arena */
    char night[16];
    const char *out, *version; /* where the page and its figures are, the arena's version (ng_page) */
    int64_t prev;              /* the previous league of the series, 0: none */
    st_report *pr;
    st_selection prev_fit;
    bool have_prev;
    ng_agent *agents;          /* [r->n_players] */
    long total_games, forfeits, repeated;
    ng_game_key *keys;         /* every game, sorted */
    int n_keys;
    char ids[2][24];           /* the league's and the previous league's ids as text (their standings' filters) */
    ng_links links;            /* set by the caller before ng_page; zeroed: no link */
} ng_night;

/* Leagues of a series the rating history shows: this one and those before it. */
#define NG_HISTORY_LEAGUES 12

/* Reads league `id` from the open store s (its path db for messages): `night` NULL for the league's own.
 * Returns 0, or the status of giving up (die.h) with a one-line reason in err, n then freed: DIE_USAGE for no
 * such league or a league without games, DIE_FAILED for a database error (or a fit that failed). Never exits
 * (but on out of memory), so a server may call it. */
int ng_load(ng_night *n, store_db *s, const char *db, int64_t id, const char *night, int bootstrap, char *err,
            size_t errlen);

/* Copies the tail of each log of an agent that forfeited (league-NAME-SECTION-K.log in `logs`) into
 * OUT/logs; the page links them (logs/NAME, the name percent-encoded: url.h). With out NULL nothing is copied: the page links the logs as they
 * are in `logs` under the same names (what the server does, serving them at logs/NAME). */
void ng_copy_logs(ng_night *n, const char *logs, const char *out);

/* Builds the page into d (doc_init'ed here): its figures drawn inline (svgfig.h: the same on the server and on
 * disk), its names linked as n->links says, its files report.html, report.md, report.json and those of `plot`
 * (may be NULL); `out` is where the report's files are (for n->links.game_files), `version` the arena's. Reads
 * the store s again for the rating history (the newest NG_HISTORY_LEAGUES leagues of its series up to this one);
 * a database error there leaves the history out, with a note. */
void ng_page(ng_night *n, store_db *s, const pl_plotter *plot, const char *out, const char *version, doc *d);

/* summary.txt: one "key<TAB>value" line per fact of the night (night, league, name, games, planned,
 * forfeits, agents, leader, leader_elo, warnings), for the index; d the page built. */
void ng_summary(const ng_night *n, const doc *d, FILE *f);

void ng_free(ng_night *n);

#endif
