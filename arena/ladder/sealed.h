/* arena/ladder/sealed.h — the read-only trees unpacked submissions live in: sealing one (every directory 0555; files
 * keep the 0444 or 0555 they were written with) and removing one (its directories made writable on the way down).
 * Both walk with openat and O_NOFOLLOW from a directory descriptor, so a symbolic link is never followed (unpack.h
 * makes none, but a tree is never trusted for that). */
#ifndef ARENA_LADDER_SEALED_H
#define ARENA_LADDER_SEALED_H

#include <stddef.h>

/* Makes every directory under and including `path` 0555. Returns 0, or -1 with a reason in err. */
int ld_seal_tree(const char *path, char *err, size_t errlen);

/* Removes `path` and everything under it (a file or a symbolic link: just that). Returns 0 (also when it does not
 * exist), or -1 with a reason in err. */
int ld_remove_tree(const char *path, char *err, size_t errlen);

#endif
