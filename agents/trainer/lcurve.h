/* agents/trainer/lcurve.h — the CSV learning curves the trainers append to (cfr-train, rl-train): a resumed
 * run keeps the rows up to its checkpoint and drops those a killed run wrote past it, so a curve never
 * holds one point twice. */
#ifndef AGENTS_TRAINER_LCURVE_H
#define AGENTS_TRAINER_LCURVE_H

#include <stddef.h>
#include <stdio.h>

/* Opens `path` for appending rows whose first column is a count (iteration, episode): rows with a count
 * above `upto` are dropped, and `header` (with its newline) is written to a new or empty file. Returns the
 * stream, or NULL with a message naming the file in err. */
FILE *sv_curve_open(const char *path, long upto, const char *header, char *err, size_t errlen);

#endif
