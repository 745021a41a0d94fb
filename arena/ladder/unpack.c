/* arena/ladder/unpack.c — writing a checked archive read-only into its content-addressed directory (unpack.h). */
#include "unpack.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sealed.h"

typedef struct {
    int root;                      /* the private directory being filled */
} unpack_state;

/* Opens (making it when mk) the directory path[0..n) under root: a descriptor, or -1 with errno set. */
static int open_dirs(int root, const char *path, size_t n, bool mk)
{
    int fd = dup(root);
    for (size_t at = 0; fd >= 0 && at < n;) {
        char part[LD_PATH_MAX + 1];
        size_t k = strcspn(path + at, "/");
        if (at + k > n)
            k = n - at;
        memcpy(part, path + at, k);
        part[k] = '\0';
        if (mk && mkdirat(fd, part, 0700) != 0 && errno != EEXIST) {
            close(fd);
            return -1;
        }
        int sub = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        close(fd);
        fd = sub;
        at += k + 1;
    }
    return fd;
}

static int write_file(int fd, ld_walk *w, const ld_entry *e, char *why, size_t whylen)
{
    char buf[65536];
    uint64_t done = 0;
    for (long got; (got = ld_walk_read(w, buf, sizeof buf, why, whylen)) != 0; done += (uint64_t)got) {
        if (got < 0)
            return -1;
        for (long at = 0; at < got;) {
            ssize_t n = write(fd, buf + at, (size_t)(got - at));
            if (n < 0) {
                snprintf(why, whylen, "cannot write: %s", strerror(errno));
                return -1;
            }
            at += n;
        }
    }
    if (done != e->size) {
        snprintf(why, whylen, "less data than its header declares");
        return -1;
    }
    if (fchmod(fd, e->exec ? 0555 : 0444) != 0) {
        snprintf(why, whylen, "cannot make it read-only: %s", strerror(errno));
        return -1;
    }
    return 0;
}

static int visit(void *user, ld_walk *w, const ld_entry *e, char *why, size_t whylen)
{
    unpack_state *st = user;
    if (!e->path[0])
        return 0;
    const char *slash = strrchr(e->path, '/');
    size_t parent_len = slash ? (size_t)(slash - e->path) : 0;
    int parent = e->dir ? open_dirs(st->root, e->path, strlen(e->path), true)
                        : open_dirs(st->root, e->path, parent_len, true);
    if (parent < 0) {
        snprintf(why, whylen, "cannot make its directory: %s", strerror(errno));
        return -1;
    }
    if (e->dir) {
        close(parent);
        return 0;
    }
    int fd = openat(parent, slash ? slash + 1 : e->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    int saved = errno;
    close(parent);
    if (fd < 0) {
        snprintf(why, whylen, saved == EEXIST ? "a path the archive gives twice" : "cannot create it: %s",
                 strerror(saved));
        return -1;
    }
    int rc = write_file(fd, w, e, why, whylen);
    close(fd);
    return rc;
}

/* The store made when missing, and a fresh private directory in it. */
static int make_private(const char *store, const char *sha256, char *tmp, size_t tmplen, char *err, size_t errlen)
{
    static atomic_long counter;
    struct stat st;
    if (mkdir(store, 0755) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: cannot make the submissions' directory: %s", store, strerror(errno));
        return -1;
    }
    if (stat(store, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: not a directory", store);
        return -1;
    }
    snprintf(tmp, tmplen, "%s/.unpack-%s-%ld-%ld", store, sha256, (long)getpid(), atomic_fetch_add(&counter, 1));
    if (mkdir(tmp, 0700) != 0) {
        snprintf(err, errlen, "%s: cannot make it: %s", tmp, strerror(errno));
        return -1;
    }
    return 0;
}

int ld_unpack(const void *data, size_t len, const char *name, const ld_limits *lim, const char *sha256,
              const char *store, char *dir, size_t dirlen, char *err, size_t errlen)
{
    char tmp[4096], why[512];
    if (strlen(sha256) != 64 || strspn(sha256, "0123456789abcdef") != 64) {
        snprintf(err, errlen, "%s: not a SHA-256 in hex", name);
        return -1;
    }
    if ((size_t)snprintf(dir, dirlen, "%s/%s", store, sha256) >= dirlen) {
        snprintf(err, errlen, "%s: a path too long for the submissions' directory", store);
        return -1;
    }
    struct stat st;
    if (lstat(dir, &st) == 0 && S_ISDIR(st.st_mode))
        return 0; /* renamed into place whole: unpacked before */
    if (make_private(store, sha256, tmp, sizeof tmp, err, errlen) != 0)
        return -1;
    unpack_state us = { open(tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) };
    int rc = us.root >= 0 ? ld_walk_archive(data, len, name, lim, visit, &us, err, errlen) : -1;
    if (us.root < 0)
        snprintf(err, errlen, "%s: cannot open it: %s", tmp, strerror(errno));
    if (us.root >= 0)
        close(us.root);
    if (rc == 0 && ld_seal_tree(tmp, err, errlen) != 0)
        rc = -1;
    if (rc == 0 && rename(tmp, dir) != 0) {
        if (errno != EEXIST && errno != ENOTEMPTY) { /* else another request unpacked the same archive first */
            snprintf(err, errlen, "%s: cannot rename it to %s: %s", tmp, dir, strerror(errno));
            rc = -1;
        }
    }
    ld_remove_tree(tmp, why, sizeof why);
    return rc;
}
