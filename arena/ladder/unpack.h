/* arena/ladder/unpack.h — unpacking an inspected archive (inspect.h) into its content-addressed directory,
 * STORE/SHA256: written through a private directory (0700, STORE/.unpack-SHA256-PID-N) by openat from directory
 * descriptors with O_NOFOLLOW and O_EXCL (a path given twice is refused), every header checked again as it is read
 * (tarcheck.h) and every byte counted, files made 0444 (0555 with an execute bit), then every directory 0555, then
 * renamed into place at once — so STORE/SHA256 either does not exist or holds the whole archive, read-only. An archive
 * unpacked before is not unpacked again. Whatever fails leaves nothing behind. */
#ifndef ARENA_LADDER_UNPACK_H
#define ARENA_LADDER_UNPACK_H

#include <stddef.h>

#include "tarcheck.h"

/* Unpacks data (len bytes, named `name` in messages; its SHA-256 in hex is sha256) under the directory store (made,
 * 0755, when missing). The directory's path goes into dir. Returns 0, or -1 with one line in err. */
int ld_unpack(const void *data, size_t len, const char *name, const ld_limits *lim, const char *sha256,
              const char *store, char *dir, size_t dirlen, char *err, size_t errlen);

#endif
