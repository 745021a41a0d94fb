/* arena/ladder/pathset.h — the paths an archive gives, as unpacking would make them: each file once, never a file
 * where a directory is (or is implied by a deeper path), never a directory where a file is. An archive that breaks
 * this is refused at inspection with the entry named, before anything is unpacked. */
#ifndef ARENA_LADDER_PATHSET_H
#define ARENA_LADDER_PATHSET_H

#include <stdbool.h>
#include <stddef.h>

typedef struct ld_pathset ld_pathset;

ld_pathset *ld_pathset_new(void);
void ld_pathset_free(ld_pathset *s);

/* Adds an entry (a directory when dir; a trailing '/' is ignored): 0, or -1 with why ("a path the archive gives
 * twice", "...") — or "out of memory". */
int ld_pathset_add(ld_pathset *s, const char *path, bool dir, char *why, size_t whylen);

#endif
