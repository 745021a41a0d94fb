/* arena/ladder/manifest.h — a submission's manifest: `ladder.ini` (or `manifest.ini`) at the top of its archive, INI
 * without sections (ini.h):
 *     name = mybot             letters, digits, '_', '-', '.'; up to 32 characters (the bot's name on the ladder)
 *     version = 1.2            the same characters (a new version of a bot replaces or tests against the last)
 *     command = ./bot --fast   the program, a path inside the archive, then its arguments
 *     variants = classical, abrupt      what it plays (config.h's lists; "all")
 *     boards = 3x3, 4x4
 * Every key is required and no other is allowed. The program is a relative path of letters, digits and "._+-/" with no
 * "." or ".." component; whether it is in the archive is for the caller (submission.h), which knows the archive. */
#ifndef ARENA_LADDER_MANIFEST_H
#define ARENA_LADDER_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

#include "tarcheck.h"
#include "config.h"

#define LD_NAME_MAX 32
#define LD_MANIFEST_MAX 65536      /* bytes of a manifest */

typedef struct {
    char name[LD_NAME_MAX + 1];
    char version[LD_NAME_MAX + 1];
    char program[LD_PATH_MAX + 1]; /* normalised: no "./" in front */
    char args[CFG_COMMAND_MAX + 1];
    uint32_t variants;             /* bit v: hx_variant v */
    cfg_games boards;
} ld_manifest;

/* Parses a manifest's text (len bytes, named `path` in messages). Returns 0, or -1 with "PATH:LINE: key: why" or
 * "PATH: key: missing" in err. */
int ld_manifest_parse(const char *text, size_t len, const char *path, ld_manifest *m, char *err, size_t errlen);

/* Whether s (a name or version) is 1..LD_NAME_MAX of letters, digits, '_', '-', '.', not starting with '.'. */
int ld_name_ok(const char *s);

#endif
