/* arena/base/tail.h — the end of a log file, read as a server may read a file it did not write: a regular file only
 * (a symbolic link is not followed, a FIFO or device never waited on), at most a bounded number of bytes. */
#ifndef ARENA_BASE_TAIL_H
#define ARENA_BASE_TAIL_H

#include <stddef.h>
#include <stdint.h>

/* The last `max` bytes of the regular file at path (opened O_NOFOLLOW | O_NONBLOCK, checked with fstat before a byte is
 * read) into *out (malloc'd, *len bytes, NUL after them), the bytes left out before them into *skipped. Returns 0, or
 * -1 with a short reason in err: "a symbolic link", "not a regular file", or the system's. */
int tail_read(const char *path, size_t max, char **out, size_t *len, int64_t *skipped, char *err, size_t errlen);

#endif
