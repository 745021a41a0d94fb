/* arena/ladder/tarcheck.h — reading a submitted archive without trusting it (libarchive). Only gzip-compressed tar is
 * read (one gzip layer, a tar format: ustar, pax or GNU). Entries are checked one header at a time, before any of
 * their data is read, and the walk stops at the first that is refused:
 *   - a path that is absolute, has a ".." (or "." or empty) component, is longer than LD_PATH_MAX, or holds a
 *     control character, a byte outside ASCII or a backslash ("./" in front and '/' after a directory are dropped);
 *   - anything but a regular file or a directory: symbolic and hard links, devices, FIFOs, sockets; sparse files;
 *   - more entries than the limit, or sizes declared in headers adding up past the limit — so a 1 GB file of zeros
 *     that compresses to a few kilobytes is refused at its header, without inflating it;
 *   - more decompressed tar (headers, padding and data, as counted by the gzip filter) than the limits allow, and
 *     more data read than declared.
 * Whatever passes is handed to a visitor entry by entry; it may read the entry's data. */
#ifndef ARENA_LADDER_TARCHECK_H
#define ARENA_LADDER_TARCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LD_PATH_MAX 255            /* characters of a path inside an archive */

typedef struct {
    uint64_t archive_bytes;        /* the .tar.gz itself */
    uint64_t unpacked_bytes;       /* its files' sizes added up */
    long files;                    /* its entries: files and directories */
} ld_limits;

/* 16 MiB archives, 256 MiB unpacked, 10,000 entries. */
void ld_limits_default(ld_limits *l);

typedef struct {
    const char *path;              /* normalised (see above); "" for the archive's top directory itself ("./") */
    bool dir;
    bool exec;                     /* a file with an execute bit in its header */
    uint64_t size;                 /* as declared; 0 for a directory */
} ld_entry;

typedef struct ld_walk ld_walk;

/* A visitor: returns 0, or -1 with a reason in why to stop the walk there. */
typedef int (*ld_visit)(void *user, ld_walk *w, const ld_entry *e, char *why, size_t whylen);

/* Reads the next up to n bytes of the current entry's data: the count, 0 at its end, or -1 with a reason in why (the
 * archive is corrupt, or more data than declared). */
long ld_walk_read(ld_walk *w, void *buf, size_t n, char *why, size_t whylen);

/* Walks the archive in `data` (len bytes), named `name` in messages, calling fn for every entry that passes.
 * Returns 0, or -1 with one line in err: "NAME: why" or "NAME: entry N 'PATH': why". */
int ld_walk_archive(const void *data, size_t len, const char *name, const ld_limits *lim, ld_visit fn, void *user,
                    char *err, size_t errlen);

#endif
