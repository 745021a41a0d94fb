/* arena/ladder/inspect.h — the whole check of a submitted archive before anything of it is written: every header
 * (tarcheck.h), exactly one manifest at its top (`ladder.ini` or `manifest.ini`, manifest.h), and the manifest's
 * program a file of the archive with an execute bit (so a command naming /bin/sh, a program of another archive or a
 * path outside this one is refused). Also the archive's SHA-256, the name of the directory it unpacks to. */
#ifndef ARENA_LADDER_INSPECT_H
#define ARENA_LADDER_INSPECT_H

#include <stddef.h>
#include <stdint.h>

#include "tarcheck.h"
#include "manifest.h"

typedef struct {
    char sha256[65];               /* lowercase hex of the archive's bytes */
    ld_manifest manifest;
    long entries;                  /* files and directories */
    uint64_t bytes;                /* their sizes added up */
} ld_inspected;

/* Inspects the archive in data (len bytes, named `name` in messages). Returns 0, or -1 with one line in err. */
int ld_inspect(const void *data, size_t len, const char *name, const ld_limits *lim, ld_inspected *out, char *err,
               size_t errlen);

#endif
