/* arena/store/league_lock.h — whether a league is being played now: its coordinator holds an exclusive flock(2) on
 * the league's lock file, DB.league-ID.lock next to the results database, for as long as it plays the league. The
 * kernel releases the lock however the coordinator ends (exit, SIGKILL, a crash), so a reader (`arena serve`) tells
 * a league being played from one whose coordinator is gone by the lock alone, never by how recent its last game
 * is. The file is removed when its coordinator ends normally; one left by a killed coordinator is unlocked (so:
 * not running) and is taken again when the league is resumed. */
#ifndef ARENA_STORE_LEAGUE_LOCK_H
#define ARENA_STORE_LEAGUE_LOCK_H

#include <stddef.h>
#include <stdint.h>

/* The lock file's path for league `league` of the database at `db`: "DB.league-ID.lock". Returns 0, or -1 when it
 * does not fit in len bytes. */
int store_league_lock_path(const char *db, int64_t league, char *out, size_t len);

/* Takes the lock of league `league` (the caller has claimed the database, store_claim, so no other coordinator
 * plays it): the file is created when absent and locked exclusively, waiting out a reader's momentary test (up to 5 s). The
 * descriptor is close-on-exec (no bot inherits the lock). Returns it, or -1 with the reason in err. */
int store_league_hold(const char *db, int64_t league, char *err, size_t errlen);

/* Ends a hold: the file is removed, then the descriptor closed (the lock released). fd < 0: nothing. */
void store_league_release(const char *db, int64_t league, int fd);

/* Whether league `league` is being played now: 1 its lock is held, 0 it is not (no lock file, or nobody holds
 * it), -1 the file cannot be tested (errno). The test takes a shared lock without waiting and drops it at once: it
 * never takes the lock from a holder, and a coordinator taking it meanwhile only waits for that instant. */
int store_league_held(const char *db, int64_t league);

#endif
