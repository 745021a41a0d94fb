/* arena/ladder/enter.h — a bot version entering the ladder: the account's quotas checked (submissions in the last day,
 * bytes it keeps unpacked), the archive inspected and unpacked (submission.h) or a lab's program checked (local.h),
 * its variants and boards met by the ladder's, its name its owner's (the first account to submit a name owns it),
 * its version new, then recorded and queued: a placement (a gauntlet against the field, worker.h) or, when asked, an
 * SPRT test against the owner's version on the ladder (elo0, elo1). */
#ifndef ARENA_LADDER_ENTER_H
#define ARENA_LADDER_ENTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "accounts.h"
#include "ladder_ini.h"
#include "manifest.h"

typedef struct {
    bool sprt;                     /* a test against the version on the ladder instead of a placement */
    double elo0, elo1;
} ld_entry_opts;

/* Enters the archive in data (len bytes, named `name` in messages) for account `who`. Returns the submission's id,
 * 0 refused (quota, archive, manifest, name, version: err says why), -1 failure (err). */
int64_t ld_enter_archive(ldb *d, const ld_config *c, const ldb_account *who, const void *data, size_t len,
                         const char *name, const ld_entry_opts *o, int64_t now, char *err, size_t errlen);

/* Enters a lab's own program: "PROGRAM ARGS" from an allowed directory, with a name, version, variants and boards as
 * a manifest would give them. Same returns. Every try counts against submissions_per_day, refused ones too (each
 * costs the server an inspection). */
int64_t ld_enter_local(ldb *d, const ld_config *c, const ldb_account *who, const char *cmdline,
                       const ld_manifest *m, const ld_entry_opts *o, int64_t now, char *err, size_t errlen);

/* Retires a bot version: its owner's or an admin's to do. 1 done, 0 refused (err), -1 failure. */
int ld_retire(ldb *d, const ldb_account *who, int64_t submission, char *err, size_t errlen);

#endif
