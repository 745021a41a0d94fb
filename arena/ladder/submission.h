/* arena/ladder/submission.h — a bot handed to the ladder, as what a league runs: an archive inspected (inspect.h) and
 * only then unpacked (unpack.h), or a lab's own program from an allowed directory (local.h); either way it becomes an
 * [agent] section of a league config with `sandbox = on` and nothing more than the sandbox's defaults (no network, no
 * writable directory, no extra paths): its directory is bound read-only and nothing else of the machine is shown
 * (sandbox.h). A submission is never started any other way. */
#ifndef ARENA_LADDER_SUBMISSION_H
#define ARENA_LADDER_SUBMISSION_H

#include <stddef.h>
#include <stdint.h>

#include "inspect.h"

typedef struct {
    ld_inspected in;               /* its SHA-256, its manifest */
    char dir[4096];                /* where it is unpacked (read-only) */
} ld_submission;

/* Reads a file of at most max bytes into memory (malloc'd; *len its size), without trusting it to stay that size.
 * NULL with one line in err. */
void *ld_read_file(const char *path, uint64_t max, size_t *len, char *err, size_t errlen);

/* Inspects then unpacks the archive in data (len bytes, named `name` in messages) under the directory store.
 * Returns 0, or -1 with one line in err (nothing is written for an archive refused). */
int ld_submit_archive(const void *data, size_t len, const char *name, const ld_limits *lim, const char *store,
                      ld_submission *out, char *err, size_t errlen);

/* Writes variants as "classical, abrupt" into v and boards as "3x3, 4x4" into b (cut short when full). */
void ld_games_text(uint32_t variants, const cfg_games *boards, char *v, size_t vlen, char *b, size_t blen);

/* Writes the [agent SECTION] of a league config that runs the program `program` (relative to dir) with args from
 * the directory dir, stored under store_name, playing what `variants` and `boards` say: sandboxed with the defaults.
 * Returns the length written, or -1 when out is too small or a value would not read back as written (a newline,
 * a section that is not ld_name_ok, a store name of other characters or of CFG_NAME_MAX or more). */
int ld_agent_section(const char *section, const char *store_name, const char *dir, const char *program,
                     const char *args, uint32_t variants, const cfg_games *boards, char *out, size_t outlen);

#endif
