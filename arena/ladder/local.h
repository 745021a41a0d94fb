/* arena/ladder/local.h — a lab's own bot on the ladder: not an archive but a command line whose program lies inside
 * one of the directories LADDER.ini allows (`allowed_dirs`), after every symbolic link on the way is resolved (so a
 * link out of an allowed directory is refused). It runs like an archive's program (submission.h): a sandboxed league
 * agent whose directory is the program's, bound read-only. */
#ifndef ARENA_LADDER_LOCAL_H
#define ARENA_LADDER_LOCAL_H

#include <stddef.h>

#include "config.h"
#include "tarcheck.h"

typedef struct {
    char dir[4096];                /* the program's directory, resolved */
    char program[LD_PATH_MAX + 1]; /* its file name in dir */
    char args[CFG_COMMAND_MAX + 1];
} ld_local;

/* Checks "PROGRAM ARGS" (PROGRAM an absolute path) against the allowed directories. Returns 0, or -1 with one line in
 * err (not absolute, not a file, not executable, outside every allowed directory). */
int ld_local_command(const char *cmdline, const char *const *allowed, int n_allowed, ld_local *out, char *err,
                     size_t errlen);

#endif
