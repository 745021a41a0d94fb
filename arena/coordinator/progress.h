/* arena/coordinator/progress.h — progress of a long run on stderr: on a terminal, one line rewritten in place at most
 * five times a second (done/total, games per second, ETA, forfeits); otherwise a plain line every
 * `every` games (never when every is 0), so logs of unattended runs stay readable. */
#ifndef ARENA_COORDINATOR_PROGRESS_H
#define ARENA_COORDINATOR_PROGRESS_H

#include <stdbool.h>

typedef struct {
    long total, every, done, forfeits;
    double t0, last;
    bool tty, shown;
} progress_meter;

void progress_start(progress_meter *p, long total, long every, bool quiet);
/* One more game finished (forfeit: it ended by a forfeit). */
void progress_game(progress_meter *p, bool forfeit);
/* Clears the terminal line. */
void progress_end(progress_meter *p);

#endif
