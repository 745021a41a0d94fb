/* arena/ladder/standing.h — the ladder's ratings: every game of the results database (the ladder's leagues write
 * only there) fitted per variant and board by the report library's standings (Bradley–Terry, bootstrap intervals;
 * standings.h), shown for the versions on the ladder, best first, with the versions that have no game yet after
 * them; and the next rating round, scheduled where ratings are least certain: when no job is queued or running, the
 * version on the ladder with the widest interval (one without games first) plays a gauntlet against the others, until
 * every interval is within the target or the day's budget of rating games is spent. */
#ifndef ARENA_LADDER_STANDING_H
#define ARENA_LADDER_STANDING_H

#include <stddef.h>
#include <stdint.h>

#include "ladder_db.h"
#include "ladder_ini.h"

#define LD_MAX_ROWS 64
#define LD_MAX_TABLES 32

typedef struct {
    int64_t submission;
    char owner[33], name[33], version[33];
    double elo, lo, hi;            /* NaN without games */
    long games;
} ld_row;

typedef struct {
    char group[48];                /* "classical 4x4" */
    int n;
    ld_row rows[LD_MAX_ROWS];
} ld_table;

/* One table per variant and board the ladder plays (in LADDER.ini's order) into tables (LD_MAX_TABLES); how many,
 * or -1 with one line in err (the results database cannot be read). bootstrap: resamples for the intervals. */
int ld_standings(ldb *d, const ld_config *c, int bootstrap, ld_table *tables, char *err, size_t errlen);

/* What the last look for a rating round found (zeroed before the first): the ladder's mark (ldb_mark) when it found
 * nothing to do, when to look again regardless, and why nothing ran (a line for the worker's log, "" after a round
 * was queued). */
typedef struct {
    char mark[64];
    int64_t recheck;
    char note[300];
} ld_rating_memo;

/* Queues a rating round when nothing is queued or running and two versions are on the ladder, for the version whose
 * interval is widest, when wider than rating_target Elo (or without games) and when its games keep the rating rounds
 * of the last day within rating_games_per_day. Nothing is fitted again until a job finishes or a submission comes
 * (or, when the budget stopped it, a minute has passed). 1 queued (its submission into *submission), 0 nothing to
 * do (memo->note says why), -1 failure (err). */
int ld_schedule_rating(ldb *d, const ld_config *c, int64_t now, ld_rating_memo *memo, int64_t *submission, char *err,
                       size_t errlen);

#endif
