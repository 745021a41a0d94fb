/* arena/sandbox/disk.c — measuring writable directories (contract in disk.h): a walk that never follows a link and
 * holds at most DK_MAX_DEPTH directories open, the check that nothing moved while it walked, the removed files a
 * sandbox's processes still hold, and the watcher thread. */
#define _GNU_SOURCE /* fdopendir, openat2 */
#include "disk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* ---- the walk ---- */

typedef struct {
    char *path; /* relative to the root, "." for the root itself */
    struct timespec mtime;
} seen_dir;

typedef struct {
    uint64_t bytes, entries;
    uint64_t stop;     /* stop once entries pass this (0: never) */
    bool over, deep;   /* stopped at `stop`; found a directory deeper than DK_MAX_DEPTH */
    bool chown;
    uid_t uid;
    gid_t gid;
    bool record;       /* keep the directories seen, for steady() */
    seen_dir *dirs;
    size_t n_dirs, cap;
} tally;

static void forget_dirs(tally *t)
{
    for (size_t i = 0; i < t->n_dirs; i++)
        free(t->dirs[i].path);
    free(t->dirs);
    t->dirs = NULL;
    t->n_dirs = t->cap = 0;
}

static void note_dir(tally *t, const char *rel, const struct stat *st)
{
    if (!t->record)
        return;
    if (t->n_dirs == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        seen_dir *d = realloc(t->dirs, cap * sizeof *d);
        if (!d)
            return;
        t->dirs = d;
        t->cap = cap;
    }
    char *p = strdup(rel);
    if (p)
        t->dirs[t->n_dirs++] = (seen_dir){ p, st->st_mtim };
}

/* Walks the directory open at fd (its path `rel` from the root), which it closes. */
static void walk(int fd, const char *rel, int depth, tally *t)
{
    struct stat st;
    if (depth > DK_MAX_DEPTH) {
        t->deep = true;
        close(fd);
        return;
    }
    if (fstat(fd, &st) == 0)
        note_dir(t, rel, &st);
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return;
    }
    for (struct dirent *e; !t->over && !t->deep && (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue; /* gone meanwhile */
        if (t->chown)
            fchownat(dirfd(d), e->d_name, t->uid, t->gid, AT_SYMLINK_NOFOLLOW);
        t->entries++;
        t->bytes += (uint64_t)st.st_blocks * 512;
        if (t->stop && t->entries > t->stop) {
            t->over = true;
            break;
        }
        if (!S_ISDIR(st.st_mode))
            continue;
        int sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0)
            continue;
        size_t len = strlen(rel) + strlen(e->d_name) + 2;
        char *next = malloc(len);
        if (!next) {
            close(sub);
            continue;
        }
        snprintf(next, len, "%s/%s", rel, e->d_name);
        walk(sub, next, depth + 1, t);
        free(next);
    }
    closedir(d);
}

/* Opens rel below root without following any link on the way. */
static int open_beneath(int root, const char *rel)
{
    struct open_how how = { .flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC, .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH };
    long fd = syscall(SYS_openat2, root, rel, &how, sizeof how);
    if (fd < 0 && errno == ENOSYS)
        fd = openat(root, rel, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    return (int)fd;
}

/* Whether every directory the walk saw is still there, unchanged: a tree moved from a directory not yet walked into
 * one already walked would have escaped it. */
static bool steady(int root, const tally *t)
{
    for (size_t i = 0; i < t->n_dirs; i++) {
        int fd = open_beneath(root, t->dirs[i].path);
        struct stat st;
        bool same = fd >= 0 && fstat(fd, &st) == 0 && st.st_mtim.tv_sec == t->dirs[i].mtime.tv_sec &&
                    st.st_mtim.tv_nsec == t->dirs[i].mtime.tv_nsec;
        if (fd >= 0)
            close(fd);
        if (!same)
            return false;
    }
    return true;
}

/* Walks the tree at root (a descriptor it keeps open). */
static void tally_tree(int root, tally *t)
{
    int fd = fcntl(root, F_DUPFD_CLOEXEC, 0);
    if (fd >= 0) {
        struct stat st;
        if (fstat(fd, &st) == 0)
            t->bytes += (uint64_t)st.st_blocks * 512;
        walk(fd, ".", 0, t);
    }
}

/* Regular files on `dev` that the processes of g hold open or mapped after their last name was removed. */
static uint64_t removed_files(const cg_group *g, dev_t dev)
{
    static pid_t pids[1024];
    static ino_t seen[4096];
    int n = g ? cg_procs(g, pids, 1024) : 0, n_seen = 0;
    uint64_t bytes = 0;
    for (int i = 0; i < n; i++) {
        static const char *const kinds[] = { "fd", "map_files" };
        for (size_t k = 0; k < 2; k++) {
            char path[64];
            snprintf(path, sizeof path, "/proc/%d/%s", (int)pids[i], kinds[k]);
            DIR *d = opendir(path);
            if (!d)
                continue;
            for (struct dirent *e; (e = readdir(d));) {
                struct stat st;
                if (e->d_name[0] == '.' || fstatat(dirfd(d), e->d_name, &st, 0) != 0 || !S_ISREG(st.st_mode) ||
                    st.st_nlink != 0 || st.st_dev != dev)
                    continue;
                bool again = false;
                for (int s = 0; s < n_seen && !again; s++)
                    again = seen[s] == st.st_ino;
                if (again)
                    continue;
                if (n_seen < 4096)
                    seen[n_seen++] = st.st_ino;
                bytes += (uint64_t)st.st_blocks * 512;
            }
            closedir(d);
        }
    }
    return bytes;
}

int dk_measure(const char *dir, dk_usage *u)
{
    int root = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (root < 0)
        return -1;
    tally t = { 0 };
    tally_tree(root, &t);
    close(root);
    *u = (dk_usage){ t.bytes, t.entries };
    return 0;
}

static uint64_t mib(uint64_t bytes)
{
    return (bytes + (1 << 20) - 1) >> 20;
}

int dk_claim(const char *dir, uid_t uid, gid_t gid, unsigned disk_mb, unsigned files, dk_usage *u, bool *bots,
             char *err, size_t errlen)
{
    *bots = false;
    int root = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (root < 0) {
        snprintf(err, errlen, "its directory %s: %s", dir, strerror(errno));
        return -1;
    }
    tally t = { .stop = files, .chown = uid != (uid_t)-1, .uid = uid, .gid = gid };
    if (t.chown && fchown(root, uid, gid) != 0) {
        snprintf(err, errlen, "cannot hand its directory %s to its sandbox's user: %s", dir, strerror(errno));
        close(root);
        return -1;
    }
    tally_tree(root, &t);
    close(root);
    *u = (dk_usage){ t.bytes, t.entries };
    *bots = true; /* what it holds past its bound, its bots wrote (or the lab must make room) */
    if (t.over || (files && t.entries > files))
        snprintf(err, errlen, "its directory %s holds more than its files bound of %u entries: clear it", dir, files);
    else if (t.deep)
        snprintf(err, errlen, "its directory %s has directories nested deeper than %d: clear it", dir, DK_MAX_DEPTH);
    else if (disk_mb && t.bytes > (uint64_t)disk_mb << 20)
        snprintf(err, errlen, "its directory %s holds %llu MiB, more than its disk_mb of %u MiB: clear it", dir,
                 (unsigned long long)mib(t.bytes), disk_mb);
    else
        return 0;
    return -1;
}

/* ---- copying and removing a tree ---- */

typedef struct {
    uint64_t bytes, entries, max_bytes, max_entries;
    char *err;
    size_t errlen;
} copying;

static int copy_file(int from_dir, int to_dir, const char *name, const struct stat *st, copying *c)
{
    int in = openat(from_dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    int out = in < 0 ? -1 : openat(to_dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, st->st_mode & 0777);
    static char buf[1 << 16];
    ssize_t n = 0;
    while (out >= 0 && (n = read(in, buf, sizeof buf)) > 0) {
        c->bytes += (uint64_t)n;
        if (c->max_bytes && c->bytes > c->max_bytes) {
            snprintf(c->err, c->errlen, "holds more than its disk_mb of %llu MiB", (unsigned long long)(c->max_bytes >> 20));
            n = -2;
            break;
        }
        if (write(out, buf, (size_t)n) != n) {
            n = -1;
            break;
        }
    }
    if (n == -1 || in < 0 || out < 0)
        snprintf(c->err, c->errlen, "%s: %s", name, strerror(errno));
    if (in >= 0)
        close(in);
    if (out >= 0)
        close(out);
    return n == 0 && in >= 0 && out >= 0 ? 0 : -1;
}

static int copy_tree(int from, int to, int depth, copying *c)
{
    DIR *d = fdopendir(from);
    if (!d) {
        close(from);
        snprintf(c->err, c->errlen, "%s", strerror(errno));
        return -1;
    }
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));) {
        struct stat st;
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (c->max_entries && ++c->entries > c->max_entries) {
            snprintf(c->err, c->errlen, "holds more than its files bound of %llu entries",
                     (unsigned long long)c->max_entries);
            rc = -1;
        } else if (S_ISREG(st.st_mode)) {
            rc = copy_file(dirfd(d), to, e->d_name, &st, c);
        } else if (S_ISLNK(st.st_mode)) {
            char target[PATH_MAX];
            ssize_t n = readlinkat(dirfd(d), e->d_name, target, sizeof target - 1);
            if (n >= 0) {
                target[n] = '\0';
                if (symlinkat(target, to, e->d_name) != 0) {
                    snprintf(c->err, c->errlen, "%s: %s", e->d_name, strerror(errno));
                    rc = -1;
                }
            }
        } else if (S_ISDIR(st.st_mode)) {
            int sub_from = -1, sub_to = -1;
            if (depth >= DK_MAX_DEPTH) {
                snprintf(c->err, c->errlen, "has directories nested deeper than %d", DK_MAX_DEPTH);
                rc = -1;
            } else if (mkdirat(to, e->d_name, 0700) != 0 ||
                       (sub_to = openat(to, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0 ||
                       (sub_from = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
                snprintf(c->err, c->errlen, "%s: %s", e->d_name, strerror(errno));
                rc = -1;
            } else {
                rc = copy_tree(sub_from, sub_to, depth + 1, c);
                fchmod(sub_to, st.st_mode & 0777);
            }
            if (sub_to >= 0)
                close(sub_to);
        }
    }
    closedir(d);
    return rc;
}

int dk_copy(const char *src, const char *dst, unsigned disk_mb, unsigned files, char *err, size_t errlen)
{
    copying c = { .max_bytes = (uint64_t)disk_mb << 20, .max_entries = files, .err = err, .errlen = errlen };
    int from = open(src, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (from < 0) {
        snprintf(err, errlen, "%s: %s", src, strerror(errno));
        return -1;
    }
    int to = mkdir(dst, 0755) == 0 ? open(dst, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
    if (to < 0) {
        snprintf(err, errlen, "%s: %s", dst, strerror(errno));
        close(from);
        return -1;
    }
    int rc = copy_tree(from, to, 0, &c);
    close(to);
    if (rc != 0)
        dk_remove(dst);
    return rc;
}

static int remove_below(int dir, int depth)
{
    DIR *d = fdopendir(dir);
    if (!d) {
        close(dir);
        return -1;
    }
    int rc = 0;
    for (struct dirent *e; (e = readdir(d));) {
        struct stat st;
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            int sub = depth < 4 * DK_MAX_DEPTH ? openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                                               : -1;
            if (sub < 0 || remove_below(sub, depth + 1) != 0 || unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR) != 0)
                rc = -1;
        } else if (unlinkat(dirfd(d), e->d_name, 0) != 0) {
            rc = -1;
        }
    }
    closedir(d);
    return rc;
}

int dk_remove(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? 0 : -1;
    int rc = remove_below(fd, 0);
    return rmdir(dir) == 0 && rc == 0 ? 0 : -1;
}

/* ---- the watcher ---- */

struct dk_watch {
    char dir[PATH_MAX];
    cg_group group;
    unsigned disk_mb, files;
    int notify;
    double due;
    int unsteady;       /* walks in a row that saw something move */
    bool judged, busy, stopped;
    char why[200];
    dk_watch *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static dk_watch *watches;
static bool started;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The CPU time this thread has used: what a walk costs the machine, whatever else runs beside it. */
static double thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Measures w's directory (the lock not held); the verdict into why, "" when within its bounds. */
static void judge(dk_watch *w, char *why, size_t n)
{
    why[0] = '\0';
    int root = open(w->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (root < 0 || fstat(root, &st) != 0) {
        if (root >= 0)
            close(root);
        return; /* gone: nothing there to bound */
    }
    tally t = { 0 };
    bool calm = false;
    for (int attempt = 0; attempt < 2 && !calm; attempt++) {
        uint64_t bytes = t.bytes, entries = t.entries;
        forget_dirs(&t);
        t = (tally){ .stop = w->files, .record = true };
        tally_tree(root, &t);
        calm = t.over || t.deep || steady(root, &t);
        if (t.bytes < bytes) /* the larger of the two, when something moved */
            t.bytes = bytes;
        if (t.entries < entries)
            t.entries = entries;
    }
    forget_dirs(&t);
    close(root);
    t.bytes += removed_files(&w->group, st.st_dev);
    w->unsteady = calm ? 0 : w->unsteady + 1;
    if (t.over || (w->files && t.entries > w->files))
        snprintf(why, n, "files limit %u reached (its directory holds %s%llu entries)", w->files, t.over ? "over " : "",
                 (unsigned long long)t.entries);
    else if (t.deep)
        snprintf(why, n, "files limit reached (its directory nests directories deeper than %d)", DK_MAX_DEPTH);
    else if (w->disk_mb && t.bytes > (uint64_t)w->disk_mb << 20)
        snprintf(why, n, "disk limit %u MiB reached (its directory holds %llu MiB)", w->disk_mb,
                 (unsigned long long)mib(t.bytes));
    else if (w->unsteady >= DK_UNSTEADY)
        snprintf(why, n, "its directory kept changing while it was measured (%d walks in a row)", w->unsteady);
}

static void *watcher(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&lock);
    for (;;) {
        dk_watch *w = NULL;
        for (dk_watch *x = watches; x; x = x->next)
            if (!x->judged && (!w || x->due < w->due))
                w = x;
        double t = now();
        if (!w || w->due > t) {
            if (!w) {
                pthread_cond_wait(&changed, &lock);
            } else {
                double wait = w->due - t;
                struct timespec until;
                clock_gettime(CLOCK_REALTIME, &until);
                until.tv_sec += (time_t)wait;
                until.tv_nsec += (long)((wait - (double)(time_t)wait) * 1e9);
                if (until.tv_nsec >= 1000000000L) {
                    until.tv_sec++;
                    until.tv_nsec -= 1000000000L;
                }
                pthread_cond_timedwait(&changed, &lock, &until);
            }
            continue;
        }
        w->busy = true;
        pthread_mutex_unlock(&lock);
        char why[200];
        double t0 = thread_cpu();
        judge(w, why, sizeof why);
        double took = thread_cpu() - t0; /* CPU, not wall time: on a busy machine the wall time of a walk grows
                                          * with the wait for a core, and backing off by it would let a bot
                                          * create files unwatched for seconds */
        pthread_mutex_lock(&lock);
        w->busy = false;
        if (w->stopped) {
            free(w);
            continue;
        }
        double gap = DK_INTERVAL_MS / 1000.0;
        w->due = now() + (took * 10 > gap ? took * 10 : gap);
        if (why[0]) {
            snprintf(w->why, sizeof w->why, "%s", why);
            w->judged = true;
            uint64_t one = 1;
            ssize_t wr = write(w->notify, &one, sizeof one);
            (void)wr;
        }
    }
    return NULL;
}

dk_watch *dk_watch_start(const char *dir, const cg_group *g, unsigned disk_mb, unsigned files, int notify, char *err,
                         size_t errlen)
{
    dk_watch *w = calloc(1, sizeof *w);
    if (!w || snprintf(w->dir, sizeof w->dir, "%s", dir) >= (int)sizeof w->dir) {
        snprintf(err, errlen, "cannot watch %s: %s", dir, w ? "path too long" : "out of memory");
        free(w);
        return NULL;
    }
    w->group = *g;
    w->disk_mb = disk_mb;
    w->files = files;
    w->notify = notify;
    pthread_mutex_lock(&lock);
    if (!started) {
        pthread_t t;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        started = pthread_create(&t, &attr, watcher, NULL) == 0;
        pthread_attr_destroy(&attr);
        if (!started) {
            pthread_mutex_unlock(&lock);
            snprintf(err, errlen, "cannot start the watcher of writable directories");
            free(w);
            return NULL;
        }
    }
    w->due = now() + DK_INTERVAL_MS / 1000.0;
    w->next = watches;
    watches = w;
    pthread_cond_signal(&changed);
    pthread_mutex_unlock(&lock);
    return w;
}

bool dk_verdict(dk_watch *w, char *why, size_t n)
{
    pthread_mutex_lock(&lock);
    bool judged = w->judged;
    if (judged)
        snprintf(why, n, "%s", w->why);
    pthread_mutex_unlock(&lock);
    return judged;
}

void dk_unwatch(dk_watch *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&lock);
    for (dk_watch **p = &watches; *p; p = &(*p)->next)
        if (*p == w) {
            *p = w->next;
            break;
        }
    if (w->busy)
        w->stopped = true; /* the watcher frees it when its walk is over */
    else
        free(w);
    pthread_mutex_unlock(&lock);
}
