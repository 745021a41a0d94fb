/* arena/base/clock.h — the project's one monotonic clock: seconds since an arbitrary start, for
 * durations, deadlines, rates and ETAs (never for dates: arena/base/isotime.h has those). */
#ifndef ARENA_BASE_CLOCK_H
#define ARENA_BASE_CLOCK_H

/* Monotonic seconds (CLOCK_MONOTONIC, nanosecond resolution): never goes back, unaffected by the date. */
double clk_now(void);

#endif
