/* arena/ladder/tarcheck.c — the header-by-header check of a submitted tar.gz (tarcheck.h): what libarchive reads is
 * refused at the first entry that is not a plain file or directory under a clean relative path, or that takes the
 * archive past its limits. */
#include "tarcheck.h"

#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <string.h>

#include "config.h"

struct ld_walk {
    struct archive *a;
    const ld_limits *lim;
    uint64_t declared;             /* sizes declared so far */
    uint64_t left;                 /* bytes of the current entry's data not read yet */
    uint64_t stream_cap;           /* decompressed tar bytes allowed */
};

void ld_limits_default(ld_limits *l)
{
    l->archive_bytes = 16u << 20;
    l->unpacked_bytes = 256u << 20;
    l->files = 10000;
}

/* Whether the decompressed stream has grown past what the limits allow: each entry's header, any pax or GNU long-name
 * header before it and its padding are bounded by a few kilobytes. */
static bool stream_over(const ld_walk *w)
{
    return (uint64_t)archive_filter_bytes(w->a, 0) > w->stream_cap;
}

long ld_walk_read(ld_walk *w, void *buf, size_t n, char *why, size_t whylen)
{
    la_ssize_t got = archive_read_data(w->a, buf, n);
    if (got < 0) {
        snprintf(why, whylen, "unreadable data: %s", archive_error_string(w->a));
        return -1;
    }
    if ((uint64_t)got > w->left || stream_over(w)) {
        snprintf(why, whylen, "more data than its header declares");
        return -1;
    }
    w->left -= (uint64_t)got;
    return (long)got;
}

/* Checks a path and normalises it into out (LD_PATH_MAX + 1 bytes). */
static int check_path(const char *p, char *out, char *why, size_t whylen)
{
    if (!p) {
        snprintf(why, whylen, "a path that is not text");
        return -1;
    }
    if (strlen(p) > LD_PATH_MAX) {
        snprintf(why, whylen, "a path longer than %d characters", LD_PATH_MAX);
        return -1;
    }
    for (const unsigned char *c = (const unsigned char *)p; *c; c++)
        if (*c < 0x20 || *c >= 0x7f || *c == '\\') {
            snprintf(why, whylen, "a path with a control character, a byte outside ASCII or a backslash");
            return -1;
        }
    if (p[0] == '/') {
        snprintf(why, whylen, "an absolute path");
        return -1;
    }
    while (p[0] == '.' && p[1] == '/')
        p += 2 + strspn(p + 2, "/");
    snprintf(out, LD_PATH_MAX + 1, "%s", p);
    size_t n = strlen(out);
    if (n && out[n - 1] == '/')
        out[--n] = '\0';
    if (n == 0 || strcmp(out, ".") == 0) {
        out[0] = '\0';
        return 0;
    }
    for (const char *c = out; c;) {
        const char *slash = strchr(c, '/');
        size_t k = slash ? (size_t)(slash - c) : strlen(c);
        if (k == 0 || (k == 1 && c[0] == '.') || (k == 2 && c[0] == '.' && c[1] == '.')) {
            snprintf(why, whylen, k == 2 ? "a path with a '..' component" : "a path with an empty or '.' component");
            return -1;
        }
        c = slash ? slash + 1 : NULL;
    }
    return 0;
}

/* What kind of entry it is: 0 for a file or a directory, else -1 with what it is. */
static int check_type(struct archive_entry *e, char *why, size_t whylen)
{
    unsigned type = archive_entry_filetype(e);
    const char *what = NULL;
    if (archive_entry_hardlink(e))
        what = "a hard link";
    else if (archive_entry_symlink(e) || type == AE_IFLNK)
        what = "a symbolic link";
    else if (type == AE_IFCHR || type == AE_IFBLK)
        what = "a device node";
    else if (type == AE_IFIFO)
        what = "a FIFO";
    else if (type == AE_IFSOCK)
        what = "a socket";
    else if (type != AE_IFREG && type != AE_IFDIR)
        what = "an entry that is neither a file nor a directory";
    else if (archive_entry_sparse_count(e) > 0)
        what = "a sparse file";
    if (!what)
        return 0;
    snprintf(why, whylen, "%s (only files and directories are allowed)", what);
    return -1;
}

/* The checks of one header; fills *out (path into pathbuf). */
static int check_entry(ld_walk *w, struct archive_entry *e, ld_entry *out, char *pathbuf, char *why, size_t whylen)
{
    if (check_path(archive_entry_pathname(e), pathbuf, why, whylen) != 0 || check_type(e, why, whylen) != 0)
        return -1;
    out->path = pathbuf;
    out->dir = archive_entry_filetype(e) == AE_IFDIR;
    out->exec = !out->dir && (archive_entry_perm(e) & 0111);
    la_int64_t size = archive_entry_size_is_set(e) ? archive_entry_size(e) : -1;
    if (size < 0 || (out->dir && size != 0)) {
        snprintf(why, whylen, "no size in its header");
        return -1;
    }
    out->size = (uint64_t)size;
    if (out->size > w->lim->unpacked_bytes - w->declared) {
        snprintf(why, whylen, "its %llu bytes take the archive past the limit of %llu bytes unpacked",
                 (unsigned long long)out->size, (unsigned long long)w->lim->unpacked_bytes);
        return -1;
    }
    w->declared += out->size;
    w->left = out->size;
    return 0;
}

/* Once the first header is read: gzip over tar, nothing else. */
static int check_format(struct archive *a, char *why, size_t whylen)
{
    if (archive_filter_count(a) != 2 || archive_filter_code(a, 0) != ARCHIVE_FILTER_GZIP) {
        snprintf(why, whylen, "not a gzip-compressed tar archive (.tar.gz)");
        return -1;
    }
    if ((archive_format(a) & ARCHIVE_FORMAT_BASE_MASK) != ARCHIVE_FORMAT_TAR) {
        snprintf(why, whylen, "not a tar archive inside the gzip stream");
        return -1;
    }
    return 0;
}

/* The walk over the headers of an opened archive; on a refusal, *entry says which (0: the archive as a whole). */
static int walk(ld_walk *w, ld_visit fn, void *user, long *entry, char *path, char *why, size_t whylen)
{
    struct archive_entry *e;
    for (*entry = 1;; ++*entry) {
        path[0] = '\0';
        int r = archive_read_next_header(w->a, &e);
        if (r == ARCHIVE_EOF)
            break;
        if (r != ARCHIVE_OK) {
            snprintf(why, whylen, "unreadable header: %s", archive_error_string(w->a));
            return -1;
        }
        if (*entry == 1 && check_format(w->a, why, whylen) != 0) {
            *entry = 0;
            return -1;
        }
        const char *raw = archive_entry_pathname(e);
        snprintf(path, LD_PATH_MAX + 1, "%s", raw ? raw : "");
        if (*entry > w->lim->files || stream_over(w)) {
            snprintf(why, whylen, *entry > w->lim->files ? "more than %ld entries" : "headers past the size limits",
                     w->lim->files);
            return -1;
        }
        ld_entry le;
        char norm[LD_PATH_MAX + 1];
        if (check_entry(w, e, &le, norm, why, whylen) != 0 || fn(user, w, &le, why, whylen) != 0)
            return -1;
    }
    *entry = 0;
    return 0;
}

int ld_walk_archive(const void *data, size_t len, const char *name, const ld_limits *lim, ld_visit fn, void *user,
                    char *err, size_t errlen)
{
    char why[512] = "", path[LD_PATH_MAX + 1] = "", msg[1024];
    if (len > lim->archive_bytes) {
        snprintf(msg, sizeof msg, "%s: %zu bytes, over the limit of %llu for an archive", name, len,
                 (unsigned long long)lim->archive_bytes);
        cfg_printable(msg, err, errlen);
        return -1;
    }
    ld_walk w = { .a = archive_read_new(), .lim = lim };
    w.stream_cap = lim->unpacked_bytes + ((uint64_t)lim->files + 2) * 8192;
    long entry = 0;
    int rc = -1;
    if (!w.a)
        snprintf(why, sizeof why, "out of memory");
    else if (archive_read_support_filter_gzip(w.a) != ARCHIVE_OK || archive_read_support_format_tar(w.a) != ARCHIVE_OK)
        snprintf(why, sizeof why, "libarchive cannot read tar.gz: %s", archive_error_string(w.a));
    else if (archive_read_open_memory(w.a, data, len) != ARCHIVE_OK)
        snprintf(why, sizeof why, "not a gzip-compressed tar archive (.tar.gz): %s", archive_error_string(w.a));
    else
        rc = walk(&w, fn, user, &entry, path, why, sizeof why);
    if (w.a)
        archive_read_free(w.a);
    if (rc == 0)
        return 0;
    if (entry > 0)
        snprintf(msg, sizeof msg, "%s: entry %ld%s%s%s: %s", name, entry, path[0] ? " '" : "", path,
                 path[0] ? "'" : "", why);
    else
        snprintf(msg, sizeof msg, "%s: %s", name, why);
    cfg_printable(msg, err, errlen);
    return -1;
}
