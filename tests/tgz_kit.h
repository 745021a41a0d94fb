/* tests/tgz_kit.h — tar.gz archives built in a test with libarchive's writer: ordinary bots, and the hostile
 * submissions the ladder must refuse (links, devices, traversal, bombs of zeros, floods of tiny files). An entry's
 * data is its text, or `zeros` bytes of zeros streamed in blocks (so a 1 GB entry never sits in memory). */
#ifndef TESTS_TGZ_KIT_H
#define TESTS_TGZ_KIT_H

#include <archive.h>
#include <archive_entry.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

typedef struct {
    const char *path;
    char type;                     /* 'f' file, 'd' directory, 'l' symbolic link, 'h' hard link, 'c' device, 'p' FIFO */
    unsigned mode;                 /* permission bits */
    const char *text;              /* a file's data, or a link's target */
    uint64_t zeros;                /* or this many zero bytes */
    size_t len;                    /* > 0: text holds this many bytes (a binary), not a string */
} tgz_entry;

static inline int tgz_add(struct archive *a, const tgz_entry *t)
{
    struct archive_entry *e = archive_entry_new();
    archive_entry_set_pathname(e, t->path);
    archive_entry_set_perm(e, t->mode ? t->mode : 0644);
    uint64_t size = t->type == 'f' ? (t->len ? t->len : t->text ? strlen(t->text) : t->zeros) : 0;
    static const unsigned types[] = { ['f'] = AE_IFREG, ['d'] = AE_IFDIR, ['l'] = AE_IFLNK, ['h'] = AE_IFREG,
                                      ['c'] = AE_IFCHR, ['p'] = AE_IFIFO };
    archive_entry_set_filetype(e, types[(unsigned char)t->type]);
    archive_entry_set_size(e, (la_int64_t)size);
    if (t->type == 'l')
        archive_entry_set_symlink(e, t->text);
    if (t->type == 'h')
        archive_entry_set_hardlink(e, t->text);
    if (t->type == 'c')
        archive_entry_set_rdev(e, makedev(1, 3));
    int rc = archive_write_header(a, e) == ARCHIVE_OK ? 0 : -1;
    archive_entry_free(e);
    if (rc == 0 && t->type == 'f' && t->text && size)
        rc = archive_write_data(a, t->text, size) == (la_ssize_t)size ? 0 : -1;
    static const char block[65536];
    for (uint64_t left = t->text ? 0 : size; rc == 0 && left;) {
        size_t k = left < sizeof block ? (size_t)left : sizeof block;
        rc = archive_write_data(a, block, k) == (la_ssize_t)k ? 0 : -1;
        left -= k;
    }
    return rc;
}

/* Writes the archive `path`: gzip over pax tar (gzip false: plain tar). `more` calls add further entries (may be
 * NULL). Returns 0 or -1. */
static inline int tgz_write(const char *path, bool gzip, const tgz_entry *entries, int n,
                            int (*more)(struct archive *a, void *user), void *user)
{
    struct archive *a = archive_write_new();
    int rc = (gzip ? archive_write_add_filter_gzip(a) : archive_write_add_filter_none(a)) == ARCHIVE_OK &&
                     archive_write_set_format_pax_restricted(a) == ARCHIVE_OK &&
                     archive_write_open_filename(a, path) == ARCHIVE_OK
                 ? 0
                 : -1;
    for (int i = 0; rc == 0 && i < n; i++)
        rc = tgz_add(a, &entries[i]);
    if (rc == 0 && more)
        rc = more(a, user);
    if (archive_write_close(a) != ARCHIVE_OK)
        rc = -1;
    archive_write_free(a);
    return rc;
}

#endif
