/* arena/sandbox/bwrap.c — bubblewrap command lines for bots, the trial run that tells whether this
 * machine can start them, the seccomp filter (libseccomp) and the hand-over of the ipc socket. */
#define _GNU_SOURCE /* memfd_create */
#include "bwrap.h"
#include "sandbox_private.h"
#include "uids.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char bwrap_path[PATH_MAX], init_path[PATH_MAX];
static int available = 0; /* 0 not checked, 1 yes, -1 no */
static int lifeline[2] = { -1, -1 };
static char unavailable_why[3 * PATH_MAX];
static char denied[SB_MAX_PATHS][PATH_MAX];
static int n_denied;
static bool planted; /* bw_prepare() refused a link a bot may have planted */
static uid_t user;   /* the sandbox's user and group, outside its namespace (bw_prepare()) */
static gid_t group;

const char *bw_path(void) { return bwrap_path; }

void bw_deny(const char *path)
{
    if (n_denied == SB_MAX_PATHS)
        return;
    char cwd[PATH_MAX];
    if (!realpath(path, denied[n_denied])) { /* not there yet (a log directory): where it will be */
        if (path[0] == '/' || !getcwd(cwd, sizeof cwd))
            snprintf(denied[n_denied], PATH_MAX, "%s", path);
        else
            snprintf(denied[n_denied], PATH_MAX, "%.2000s/%.2000s", cwd, path);
    }
    n_denied++;
}

/* ---- building the argument vector ---- */

typedef struct {
    char **out;
    int n, max;
    char *store;
    size_t used, cap;
    bool full;
    bw_command *cmd;
} words;

static void add(words *w, const char *s)
{
    size_t len = strlen(s) + 1;
    if (w->n + 1 >= w->max || w->used + len > w->cap) {
        w->full = true;
        return;
    }
    memcpy(w->store + w->used, s, len);
    w->out[w->n++] = w->store + w->used;
    w->used += len;
}

static void add3(words *w, const char *a, const char *b, const char *c)
{
    add(w, a);
    add(w, b);
    add(w, c);
}

/* Keeps fd (moved out of the low numbers the child will use) and returns the number the child holds it at. */
static int keep_fd(words *w, int fd)
{
    if (fd < 0)
        return -1;
    int high = fcntl(fd, F_DUPFD_CLOEXEC, BW_FIRST_FD + BW_MAX_FDS + 16);
    close(fd);
    if (high < 0 || w->cmd->n_fds == BW_MAX_FDS) {
        if (high >= 0)
            close(high);
        w->full = true;
        return -1;
    }
    w->cmd->fds[w->cmd->n_fds] = high;
    return BW_FIRST_FD + w->cmd->n_fds++;
}

static void add_fd_op(words *w, const char *op, int child_fd, const char *dest)
{
    char num[16];
    snprintf(num, sizeof num, "%d", child_fd);
    add3(w, op, num, dest);
}

/* True when a is b or lies inside b (paths without trailing slashes). */
static bool inside(const char *a, const char *b)
{
    size_t n = strlen(b);
    return strncmp(a, b, n) == 0 && (a[n] == '\0' || a[n] == '/' || (n == 1 && b[0] == '/'));
}

static const char *denied_by(const char *real)
{
    for (int i = 0; i < n_denied; i++)
        if (inside(real, denied[i]) || inside(denied[i], real))
            return denied[i];
    return NULL;
}

/* A path with no "." or ".." component, so that it can stand as a mount point as it is. */
static bool plain(const char *p)
{
    for (const char *s = p; *s;) {
        const char *e = strchr(s, '/');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if ((len == 1 && s[0] == '.') || (len == 2 && s[0] == '.' && s[1] == '.'))
            return false;
        s += len + (e != NULL);
    }
    return true;
}

static void absolute(const char *base, const char *path, char *out, size_t n)
{
    if (path[0] == '/')
        snprintf(out, n, "%s", path);
    else
        snprintf(out, n, "%s/%s", base, path);
}

/* Paths under the read-only system the sandbox shows anyway (or under its links). */
static bool system_path(const char *p)
{
    static const char *const sys[] = { "/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32" };
    for (size_t i = 0; i < sizeof sys / sizeof sys[0]; i++)
        if (inside(p, sys[i]))
            return true;
    return false;
}

/* ---- resolving a path without a bot's help ---- */

/* Whether a bot may have planted a symbolic link found in directory `dir_path` (stat dir): that is its own
 * writable working directory (`writable`, or NULL) or anything in it, or, when the coordinator is root, a
 * directory the sandbox user may write to (its own, or one open to it and not sticky, or a sticky one where
 * the link is its own). */
static bool bot_may_plant(const char *dir_path, const struct stat *dir, const struct stat *link, const char *writable)
{
    if (writable && inside(dir_path[0] ? dir_path : "/", writable))
        return true;
    if (geteuid() != 0)
        return false;
    /* any sandbox's user may have made it: one of the range's (uids.h), or nobody (the one sandbox user of old) */
    if (uid_sandboxed(dir->st_uid) || uid_sandboxed(link->st_uid) || dir->st_uid == SB_UID || link->st_uid == SB_UID)
        return true;
    bool group_of_one = uid_sandboxed((uid_t)dir->st_gid) || dir->st_gid == SB_GID;
    bool open_to_it = (group_of_one && (dir->st_mode & S_IWGRP)) || (dir->st_mode & S_IWOTH);
    return open_to_it && !(dir->st_mode & S_ISVTX);
}

/* Puts the next component of *todo into comp (empty at the end) and advances *todo. */
static void next_component(const char **todo, char *comp, size_t n)
{
    const char *s = *todo;
    while (*s == '/')
        s++;
    size_t len = strcspn(s, "/");
    snprintf(comp, n, "%.*s", (int)(len < n ? len : n - 1), s);
    *todo = s + len;
}

/* Follows the symbolic link `fd` (named comp, in directory real) met on the way: the rest of the walk
 * becomes its target followed by what was left. Returns 0, or -1 with the reason in err. */
static int follow_link(int fd, const char *path, const char *real, const char *comp, const struct stat *dir,
                       const struct stat *st, const char *writable, char *todo, const char **rest, char *err,
                       size_t errlen)
{
    char target[PATH_MAX], left[PATH_MAX];
    ssize_t n = readlinkat(fd, "", target, sizeof target - 1);
    if (n <= 0) {
        snprintf(err, errlen, "'%s': %s/%s: cannot read the link: %s", path, real, comp, strerror(errno));
        return -1;
    }
    target[n] = '\0';
    if (bot_may_plant(real, dir, st, writable)) {
        planted = true;
        snprintf(err, errlen, "'%s': %s/%s is a symbolic link (to %s) in a directory the bot can write: not "
                 "followed (a path a sandbox shows may not go through a link a bot could have planted)",
                 path, real, comp, target);
        return -1;
    }
    snprintf(left, sizeof left, "%s", *rest);
    if (snprintf(todo, PATH_MAX, "%s/%s", target, left) >= PATH_MAX) {
        snprintf(err, errlen, "'%s': %s", path, strerror(ENAMETOOLONG));
        return -1;
    }
    *rest = todo;
    return 0;
}

/* Resolves `abs` one component at a time (O_PATH, O_NOFOLLOW), following symbolic links by hand, and
 * refuses a link a bot may have planted (bot_may_plant()). Returns an O_PATH descriptor of what the path
 * names, with its real path in real, or -1 with the reason (naming `path`) in err. */
static int resolve(const char *path, const char *abs, const char *writable, char *real, size_t realn, char *err,
                   size_t errlen)
{
    char todo[PATH_MAX], comp[NAME_MAX + 1];
    const char *rest = abs;
    int cur = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC), links = 0;
    real[0] = '\0'; /* "" stands for "/" */
    while (cur >= 0) {
        next_component(&rest, comp, sizeof comp);
        if (!comp[0])
            break;
        if (strcmp(comp, ".") == 0)
            continue;
        struct stat dir, st;
        int fd = openat(cur, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0 || fstat(fd, &st) != 0 || fstat(cur, &dir) != 0) {
            snprintf(err, errlen, "'%s': %s", path, strerror(errno));
            if (fd >= 0)
                close(fd);
            goto failed;
        }
        if (strcmp(comp, "..") == 0) {
            char *slash = strrchr(real, '/');
            *(slash ? slash : real) = '\0';
        } else if (S_ISLNK(st.st_mode)) {
            if (++links > 40)
                snprintf(err, errlen, "'%s': %s", path, strerror(ELOOP));
            int rc = links > 40 ? -1 : follow_link(fd, path, real, comp, &dir, &st, writable, todo, &rest, err, errlen);
            close(fd);
            if (rc != 0)
                goto failed;
            if (todo[0] == '/') { /* an absolute target: from the root again */
                close(cur);
                cur = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
                real[0] = '\0';
            }
            continue;
        } else {
            size_t len = strlen(real);
            if (snprintf(real + len, realn - len, "/%s", comp) >= (int)(realn - len)) {
                close(fd);
                snprintf(err, errlen, "'%s': %s", path, strerror(ENAMETOOLONG));
                goto failed;
            }
        }
        close(cur);
        cur = fd;
    }
    if (cur < 0)
        snprintf(err, errlen, "'%s': %s", path, strerror(errno));
    else if (!real[0])
        snprintf(real, realn, "/");
    return cur;
failed:
    if (cur >= 0)
        close(cur);
    return -1;
}

/* ---- what the sandbox user can reach ---- */

/* The permission bits (r 4, w 2, x 1) the sandbox user has on st (by its mode: owner, group, others). */
static unsigned bw_perms(const struct stat *st)
{
    unsigned m = (unsigned)st->st_mode;
    return st->st_uid == user ? (m >> 6) & 7 : st->st_gid == group ? (m >> 3) & 7 : m & 7;
}

/* When the coordinator is root (the sandbox user is then another user): whether that user can walk to
 * `real` (search permission on every directory above it) and has the permissions `need` (4 read, 1
 * execute) on it. Returns 0, or -1 naming `path`, the file and the permission missing in err. */
static int bw_reachable(const char *path, const char *real, unsigned need, char *err, size_t errlen)
{
    if (geteuid() != 0)
        return 0;
    char at[PATH_MAX];
    struct stat st;
    for (const char *s = real; (s = strchr(s + 1, '/')) != NULL;) {
        snprintf(at, sizeof at, "%.*s", (int)(s - real), real);
        if (stat(at, &st) == 0 && !(bw_perms(&st) & 1)) {
            snprintf(err, errlen, "'%s': the sandbox's user (uid %u) cannot reach it: it may not search the "
                     "directory %s (mode %04o, owner uid %u, group %u)", path, (unsigned)user, at,
                     (unsigned)st.st_mode & 07777, (unsigned)st.st_uid, (unsigned)st.st_gid);
            return -1;
        }
    }
    if (stat(real, &st) == 0 && S_ISDIR(st.st_mode) && (need & 4))
        need |= 1;
    if (stat(real, &st) != 0 || (bw_perms(&st) & need) == need)
        return 0;
    snprintf(err, errlen, "'%s': not %s by the sandbox's user (uid %u): %s has mode %04o, owner uid %u, "
             "group %u", path, need & 4 ? (need & 1 ? (S_ISDIR(st.st_mode) ? "readable and searchable" :
             "readable and executable") : "readable") : "executable", (unsigned)user, real, (unsigned)st.st_mode & 07777,
             (unsigned)st.st_uid, (unsigned)st.st_gid);
    return -1;
}

/* Binds `path` (relative to base) read-only, or read-write, at the place the bot will look for it; `need`
 * is what the sandbox user must be able to do with it (bw_reachable()), `writable` the bot's writable
 * directory (or NULL). */
static int bind_path(words *w, const char *base, const char *path, bool rw, unsigned need, const char *writable, char *err,
                size_t errlen)
{
    char abs[PATH_MAX * 2], real[PATH_MAX];
    absolute(base, path, abs, sizeof abs);
    int fd = resolve(path, abs, writable, real, sizeof real, err, errlen);
    if (fd < 0)
        return -1;
    const char *d = denied_by(real);
    if (system_path(real) || strcmp(real, "/") == 0 || d || bw_reachable(path, real, need, err, errlen) != 0) {
        close(fd);
        if (system_path(real))
            return 0; /* visible already, read-only */
        if (strcmp(real, "/") == 0)
            snprintf(err, errlen, "'%s': a bot may not see the whole file system", path);
        else if (d)
            snprintf(err, errlen, "'%s': a bot may not see %s (the database, the config and the logs stay hidden)",
                     path, d);
        return -1;
    }
    int again = strcmp(abs, real) != 0 && plain(abs) && !system_path(abs) ? fcntl(fd, F_DUPFD_CLOEXEC, 0) : -1;
    if (writable && inside(real, writable)) {
        /* shown where it is through the writable directory already; no bind of its own, whose source bwrap
         * would look up by path while another process of the bot could swap a link in */
        close(fd);
    } else if ((fd = keep_fd(w, fd)) < 0) {
        if (again >= 0)
            close(again);
        snprintf(err, errlen, "'%s': too many paths to show", path);
        return -1;
    } else {
        add_fd_op(w, rw ? "--bind-fd" : "--ro-bind-fd", fd, real);
    }
    if (again >= 0) {
        if ((fd = keep_fd(w, again)) < 0) {
            snprintf(err, errlen, "'%s': too many paths to show", path);
            return -1;
        }
        add_fd_op(w, rw ? "--bind-fd" : "--ro-bind-fd", fd, abs);
    }
    return 0;
}

/* A file or a directory (other than "/") that exists. */
static bool existing(const char *base, const char *path)
{
    char abs[PATH_MAX * 2];
    absolute(base, path, abs, sizeof abs);
    struct stat st;
    return path[0] && stat(abs, &st) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode));
}

/* Whether showing path would show the whole file system or something no bot may see. */
static bool hides(const char *base, const char *path)
{
    char abs[PATH_MAX * 2], real[PATH_MAX];
    absolute(base, path, abs, sizeof abs);
    return !realpath(abs, real) || strcmp(real, "/") == 0 || denied_by(real);
}

static int seccomp_fd(bool network, char *err, size_t errlen);

/* bwrap, its namespaces and the bot's identity. */
static void add_namespaces(words *w, const sb_policy *p)
{
    add(w, bwrap_path);
    static const char *const ns[] = { "--die-with-parent", "--new-session", "--as-pid-1", "--unshare-user", "--unshare-pid",
                                      "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--disable-userns" };
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        add(w, ns[i]);
    if (!p->network)
        add(w, "--unshare-net");
    char id[16];
    snprintf(id, sizeof id, "%d", SB_UID);
    add(w, "--uid");
    add(w, id);
    snprintf(id, sizeof id, "%d", SB_GID);
    add(w, "--gid");
    add(w, id);
    add(w, "--hostname");
    add(w, "bot");
}

/* ---- the host's counters, frozen ----
 *
 * A sandbox's /proc is its own pid namespace's, but some of its files count for the whole machine: CPU time, load,
 * idle time, interrupts, context switches, memory, disk and pressure. Read while it waits, they would tell a bot
 * when its opponent thinks (how many times, in classical: what the rules hide, and what fair timing keeps out of the
 * clock). Each sandbox is shown copies taken once when this process made its first sandbox instead, so every
 * program that reads them (to count processors, or the memory there is) still finds them well formed. */

static const char *const frozen[] = { "stat", "loadavg", "uptime", "schedstat", "softirqs", "interrupts", "vmstat",
                                      "meminfo", "diskstats", "locks", "cpuinfo", "pressure/cpu", "pressure/io",
                                      "pressure/memory" };
static char frozen_dir[64];

static void remove_frozen(void)
{
    char path[128];
    for (size_t i = 0; i < sizeof frozen / sizeof frozen[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", frozen_dir, frozen[i]);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/pressure", frozen_dir);
    rmdir(path);
    rmdir(frozen_dir);
}

/* Copies of the counters into a directory of this process's (0711, the files 0444), made once and removed at exit;
 * directories of processes that are gone are removed first. Returns false when none could be made. */
static bool freeze_counters(void)
{
    if (frozen_dir[0])
        return true;
    DIR *d = opendir("/tmp");
    for (struct dirent *e; d && (e = readdir(d));) { /* arena-proc-PID-XXXXXX of a process that is gone */
        long pid;
        char rest[16];
        if (sscanf(e->d_name, "arena-proc-%ld-%15s", &pid, rest) == 2 && kill((pid_t)pid, 0) != 0 && errno == ESRCH) {
            snprintf(frozen_dir, sizeof frozen_dir, "/tmp/%.40s", e->d_name);
            remove_frozen();
        }
    }
    if (d)
        closedir(d);
    snprintf(frozen_dir, sizeof frozen_dir, "/tmp/arena-proc-%ld-XXXXXX", (long)getpid());
    if (!mkdtemp(frozen_dir) || chmod(frozen_dir, 0711) != 0) {
        frozen_dir[0] = '\0';
        return false;
    }
    char path[128];
    snprintf(path, sizeof path, "%s/pressure", frozen_dir);
    mkdir(path, 0711);
    static char buf[1 << 18];
    for (size_t i = 0; i < sizeof frozen / sizeof frozen[0]; i++) {
        char from[64];
        snprintf(from, sizeof from, "/proc/%s", frozen[i]);
        int in = open(from, O_RDONLY | O_CLOEXEC);
        ssize_t n = in < 0 ? -1 : read(in, buf, sizeof buf);
        if (in >= 0)
            close(in);
        snprintf(path, sizeof path, "%s/%s", frozen_dir, frozen[i]);
        int out = n < 0 ? -1 : open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
        if (out >= 0) {
            ssize_t wr = write(out, buf, (size_t)n);
            (void)wr;
            close(out);
        }
    }
    atexit(remove_frozen);
    return true;
}

/* The frozen copies over the live files of the sandbox's /proc. */
static void add_frozen(words *w)
{
    if (!freeze_counters())
        return;
    for (size_t i = 0; i < sizeof frozen / sizeof frozen[0]; i++) {
        char copy[128], live[64];
        struct stat st;
        snprintf(copy, sizeof copy, "%s/%s", frozen_dir, frozen[i]);
        snprintf(live, sizeof live, "/proc/%s", frozen[i]);
        if (stat(copy, &st) == 0 && stat(live, &st) == 0)
            add3(w, "--ro-bind", copy, live);
    }
}

/* The read-only system, /proc (its host-wide counters frozen), /dev, an empty /tmp and /dev/shm (of l->tmp_mb) and
 * /run. */
static void add_system(words *w, const sb_limits *l)
{
    add3(w, "--ro-bind", "/usr", "/usr");
    static const char *const links[] = { "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32" };
    for (size_t i = 0; i < sizeof links / sizeof links[0]; i++) {
        struct stat st;
        char target[PATH_MAX];
        ssize_t n;
        if (lstat(links[i], &st) != 0)
            continue;
        if (S_ISLNK(st.st_mode) && (n = readlink(links[i], target, sizeof target - 1)) > 0) {
            target[n] = '\0';
            add3(w, "--symlink", target, links[i]);
        } else if (S_ISDIR(st.st_mode)) {
            add3(w, "--ro-bind", links[i], links[i]);
        }
    }
    add3(w, "--ro-bind", "/etc", "/etc");
    add(w, "--proc");
    add(w, "/proc");
    add_frozen(w);
    add(w, "--dev");
    add(w, "/dev");
    /* /tmp and /dev/shm: the only writable tmpfs, each of tmp_mb, their pages charged to the sandbox's memory */
    static const char *const tmpfs[] = { "/tmp", "/dev/shm" };
    for (size_t i = 0; i < sizeof tmpfs / sizeof tmpfs[0]; i++) {
        if (l->tmp_mb) {
            char bytes[32];
            snprintf(bytes, sizeof bytes, "%llu", (unsigned long long)l->tmp_mb << 20);
            add(w, "--size");
            add(w, bytes);
        }
        add(w, "--tmpfs");
        add(w, tmpfs[i]);
    }
    add(w, "--remount-ro");
    add(w, "/dev");
    add(w, "--dir");
    add(w, "/run");
}

int bw_interpreter(const char *exe, char *interp, size_t n, char *arg, size_t argn)
{
    char line[PATH_MAX + 256];
    int fd = open(exe, O_RDONLY | O_CLOEXEC);
    ssize_t got = fd < 0 ? -1 : read(fd, line, sizeof line - 1);
    if (fd >= 0)
        close(fd);
    if (got < 0)
        return -1;
    line[got] = '\0';
    if (got < 3 || line[0] != '#' || line[1] != '!')
        return 0;
    line[strcspn(line, "\n")] = '\0';
    const char *s = line + 2 + strspn(line + 2, " \t");
    size_t len = strcspn(s, " \t");
    snprintf(interp, n, "%.*s", (int)len, s);
    s += len;
    s += strspn(s, " \t");
    snprintf(arg, argn, "%.*s", (int)strcspn(s, " \t"), s);
    return interp[0] ? 1 : 0;
}

/* Whether `real` is shown by a path the policy lets the bot read, or by its working directory. */
static bool shown(const sb_policy *p, const char *dir, const char *base, const char *real)
{
    char abs[PATH_MAX * 2], r[PATH_MAX];
    if (dir && dir[0] && inside(real, base))
        return true;
    for (int i = 0; i < p->n_read; i++) {
        absolute(base, p->read[i], abs, sizeof abs);
        if (realpath(abs, r) && inside(real, r))
            return true;
    }
    return false;
}

/* A script's interpreter (its #! line) must be in the sandbox and executable there; so must the program
 * `#!/usr/bin/env NAME` names, in the bot's PATH. Returns 0, or -1 naming the interpreter in err. */
static int check_interpreter(const sb_policy *p, const char *dir, const char *base, const char *exe, char *err,
                             size_t errlen)
{
    char interp[PATH_MAX], arg[256], real[PATH_MAX], what[PATH_MAX + 64];
    if (bw_interpreter(exe, interp, sizeof interp, arg, sizeof arg) != 1)
        return 0;
    snprintf(what, sizeof what, "interpreter %s of %s (its #! line)", interp, exe);
    if (interp[0] != '/' || !realpath(interp, real)) {
        snprintf(err, errlen, "%s: %s", what, interp[0] != '/' ? "not an absolute path" : "no such file");
        return -1;
    }
    if (!system_path(real) && !shown(p, dir, base, real)) {
        char *slash = strrchr(interp, '/');
        snprintf(err, errlen, "%s: not in the sandbox, which shows /usr, /etc and the agent's own paths "
                 "(read = %.*s would show it)", what, slash && slash != interp ? (int)(slash - interp) : 1, interp);
        return -1;
    }
    if (bw_reachable(what, real, 1, err, errlen) != 0)
        return -1;
    const char *name = strrchr(real, '/');
    if (strcmp(name ? name + 1 : real, "env") != 0 || !arg[0] || arg[0] == '-' || strchr(arg, '/'))
        return 0;
    static const char *const path[] = { "/usr/local/bin", "/usr/bin", "/bin" }; /* the bot's PATH (agent.c) */
    for (size_t i = 0; i < sizeof path / sizeof path[0]; i++) {
        char at[PATH_MAX];
        snprintf(at, sizeof at, "%s/%s", path[i], arg);
        if (access(at, X_OK) == 0 && realpath(at, real))
            return bw_reachable(at, real, 1, err, errlen);
    }
    snprintf(err, errlen, "'%s', which the #! line of %s runs through %s, is not in the sandbox's PATH "
             "(/usr/local/bin:/usr/bin:/bin)", arg, exe, interp);
    return -1;
}

/* Its working directory (base, the real path of dir), its program, the files its command line names, what its
 * config allows, and the ipc socket. A link met on the way to any of them in its writable directory is
 * refused (resolve()); the sandbox user must be able to reach each (bw_reachable()). */
static int add_paths(words *w, const sb_policy *p, const char *exe, char *const argv[], const char *dir,
                     const char *base, const char *socket_path, char *err, size_t errlen)
{
    const char *writable = p->writable && dir && dir[0] ? base : NULL;
    if (dir && dir[0]) {
        if (bind_path(w, "/", base, p->writable, 5, NULL, err, errlen) != 0)
            return -1;
    } else {
        add(w, "--dir");
        add(w, base);
    }
    char interp[8], arg[8];
    bool script = bw_interpreter(exe, interp, sizeof interp, arg, sizeof arg) == 1;
    if (bind_path(w, base, exe, false, script ? 5 : 1, writable, err, errlen) != 0 ||
        check_interpreter(p, dir, base, exe, err, errlen) != 0)
        return -1;
    /* what the command line names (a policy file, a directory of them), unless it would show something
     * hidden: then the bot just does not see it */
    for (int i = 1; argv[i]; i++)
        if (existing(base, argv[i]) && !hides(base, argv[i]) &&
            bind_path(w, base, argv[i], false, 0, writable, err, errlen) != 0)
            return -1;
    for (int i = 0; i < p->n_read; i++)
        if (bind_path(w, base, p->read[i], false, 4, writable, err, errlen) != 0)
            return -1;
    if (socket_path) {
        int fd = keep_fd(w, open(socket_path, O_PATH | O_CLOEXEC));
        if (fd < 0) {
            snprintf(err, errlen, "'%s': %s", socket_path, strerror(errno));
            return -1;
        }
        add_fd_op(w, "--bind-fd", fd, BW_SOCKET);
    }
    return 0;
}

/* The seccomp filter, process 1 (arena-init) with the coordinator's lifeline, the root made read-only (what was
 * made on it, /run and the empty working directory of a bot without one, with it), and the command itself. */
static int add_init(words *w, bool network, const char *exe, char *const argv[], char *err, size_t errlen)
{
    char id[16];
    int filter = keep_fd(w, seccomp_fd(network, err, errlen));
    if (filter < 0)
        return -1;
    add(w, "--seccomp");
    snprintf(id, sizeof id, "%d", filter);
    add(w, id);
    int init = keep_fd(w, open(init_path, O_PATH | O_CLOEXEC));
    if (init < 0) {
        snprintf(err, errlen, "'%s': %s", init_path, strerror(errno));
        return -1;
    }
    add_fd_op(w, "--ro-bind-fd", init, BW_INIT);
    add(w, "--remount-ro");
    add(w, "/");
    /* the coordinator's lifeline: a pipe whose write end only it holds (close-on-exec everywhere else) */
    if (lifeline[0] < 0 && pipe2(lifeline, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    int life = keep_fd(w, dup(lifeline[0]));
    if (life < 0) {
        snprintf(err, errlen, "too many descriptors");
        return -1;
    }
    add(w, "--");
    add(w, BW_INIT);
    add(w, "--lifeline");
    snprintf(id, sizeof id, "%d", life);
    add(w, id);
    char real[PATH_MAX];
    add(w, realpath(exe, real) ? real : exe);
    for (int i = 1; argv[i]; i++)
        add(w, argv[i]);
    return 0;
}

static int prepare(const sb_policy *p, const sb_limits *l, const char *exe, char *const argv[], const char *dir,
                   const char *socket_path, bw_command *cmd, char **out, int max, char *store, size_t storelen,
                   char *err, size_t errlen);

int bw_prepare(const sb_policy *p, const sb_limits *l, uid_t uid, gid_t gid, const char *exe, char *const argv[],
               const char *dir, const char *socket_path, bw_command *cmd, char **out, int max, char *store,
               size_t storelen, sb_fault *fault, char *err, size_t errlen)
{
    *cmd = (bw_command){ .argv = out, .uid = uid, .gid = gid };
    user = uid;
    group = gid;
    *fault = SB_FAULT_NONE;
    planted = false;
    int rc = prepare(p, l, exe, argv, dir, socket_path, cmd, out, max, store, storelen, err, errlen);
    if (rc != 0)
        *fault = planted ? SB_FAULT_BOT : SB_FAULT_SETUP;
    return rc;
}

static int prepare(const sb_policy *p, const sb_limits *l, const char *exe, char *const argv[], const char *dir,
                   const char *socket_path, bw_command *cmd, char **out, int max, char *store, size_t storelen,
                   char *err, size_t errlen)
{
    words w = { .out = out, .max = max, .store = store, .cap = storelen, .cmd = cmd };
    char base[PATH_MAX];
    if (dir && dir[0] ? !realpath(dir, base) : !getcwd(base, sizeof base)) {
        snprintf(err, errlen, "working directory '%s': %s", dir && dir[0] ? dir : ".", strerror(errno));
        return -1;
    }
    add_namespaces(&w, p);
    add_system(&w, l);
    if (add_paths(&w, p, exe, argv, dir, base, socket_path, err, errlen) != 0)
        return -1;
    add(&w, "--chdir");
    add(&w, base);
    if (add_init(&w, p->network, exe, argv, err, errlen) != 0)
        return -1;
    if (w.full) {
        snprintf(err, errlen, "sandbox command line too long");
        return -1;
    }
    out[w.n] = NULL;
    cmd->argc = w.n;
    return 0;
}

void bw_release(bw_command *c)
{
    for (int i = 0; i < c->n_fds; i++)
        close(c->fds[i]);
    c->n_fds = 0;
}

/* ---- seccomp ---- */

/* System calls a bot has no use for, refused with EPERM. Namespaces already confine ptrace and
 * process_vm_* to the bot's own processes (the sanitizers' leak checker needs ptrace on its threads), so
 * they stay allowed; keyrings are shared by a uid across namespaces, and the rest reach the kernel in ways
 * no game needs. */
static const char *const refused[] = {
    "keyctl", "add_key", "request_key", "bpf", "perf_event_open", "userfaultfd", "mount", "umount2",
    "pivot_root", "move_mount", "open_tree", "fsopen", "fsmount", "fsconfig", "fspick", "unshare", "setns",
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module", "reboot", "swapon",
    "swapoff", "acct", "quotactl", "name_to_handle_at", "open_by_handle_at", "ioperm", "iopl", "syslog",
    "io_uring_setup", "io_uring_enter", "io_uring_register", "fanotify_init", "lookup_dcookie", "vhangup",
    "settimeofday", "clock_settime", "adjtimex", "clock_adjtime",
};

/* Socket families: a bot needs AF_UNIX for its endpoint, and with the network the internet's (and netlink, which
 * name lookups use). The others (vsock, which no network namespace confines, packet, alg, bluetooth, ...) are refused
 * with EAFNOSUPPORT, as by a kernel without them. */
static bool family_allowed(int family, bool network)
{
    return family == AF_UNIX || (network && (family == AF_INET || family == AF_INET6 || family == AF_NETLINK));
}

static void *filters[2];       /* without and with the network */
static size_t filter_lens[2];

static int make_filter(bool network, char *err, size_t errlen)
{
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) {
        snprintf(err, errlen, "seccomp: cannot make a filter");
        return -1;
    }
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        int nr = seccomp_syscall_resolve_name(refused[i]);
        if (nr != __NR_SCMP_ERROR && seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0) != 0) {
            seccomp_release(ctx);
            snprintf(err, errlen, "seccomp: cannot refuse %s", refused[i]);
            return -1;
        }
    }
    static const int calls[] = { SCMP_SYS(socket), SCMP_SYS(socketpair) };
    for (size_t c = 0; c < sizeof calls / sizeof calls[0]; c++) {
        struct scmp_arg_cmp past = { .arg = 0, .op = SCMP_CMP_GE, .datum_a = AF_MAX, .datum_b = 0 };
        int rc = seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), calls[c], 1, &past);
        for (int family = 0; rc == 0 && family < AF_MAX; family++) {
            struct scmp_arg_cmp is = { .arg = 0, .op = SCMP_CMP_EQ, .datum_a = (scmp_datum_t)family, .datum_b = 0 };
            if (!family_allowed(family, network))
                rc = seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), calls[c], 1, &is);
        }
        if (rc != 0) {
            seccomp_release(ctx);
            snprintf(err, errlen, "seccomp: cannot refuse socket families");
            return -1;
        }
    }
    int fd = memfd_create("arena-seccomp", MFD_CLOEXEC);
    int rc = fd < 0 ? -1 : seccomp_export_bpf(ctx, fd);
    seccomp_release(ctx);
    off_t len = rc == 0 ? lseek(fd, 0, SEEK_END) : -1;
    void *filter = NULL;
    if (len > 0 && (filter = malloc((size_t)len)) && pread(fd, filter, (size_t)len, 0) == len) {
        filters[network] = filter;
        filter_lens[network] = (size_t)len;
    }
    if (fd >= 0)
        close(fd);
    if (!filter_lens[network]) {
        free(filter);
        snprintf(err, errlen, "seccomp: cannot export the filter");
        return -1;
    }
    return 0;
}

static int seccomp_fd(bool network, char *err, size_t errlen)
{
    if (!filters[network] && make_filter(network, err, errlen) != 0)
        return -1;
    /* A descriptor of its own per bot: bwrap reads it after exec, so two bots must not share an offset. */
    int fd = memfd_create("arena-seccomp", MFD_CLOEXEC);
    if (fd < 0 || pwrite(fd, filters[network], filter_lens[network], 0) != (ssize_t)filter_lens[network]) {
        snprintf(err, errlen, "seccomp: %s", strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

/* ---- can this machine start sandboxes? ---- */

static bool find_bwrap(void)
{
    const char *path = getenv("PATH");
    if (access("/usr/bin/bwrap", X_OK) == 0) {
        snprintf(bwrap_path, sizeof bwrap_path, "/usr/bin/bwrap");
        return true;
    }
    for (const char *d = path ? path : "/usr/bin:/bin"; *d;) {
        size_t len = strcspn(d, ":");
        if (len && snprintf(bwrap_path, sizeof bwrap_path, "%.*s/bwrap", (int)len, d) < (int)sizeof bwrap_path &&
            access(bwrap_path, X_OK) == 0)
            return true;
        d += len + (d[len] == ':');
    }
    bwrap_path[0] = '\0';
    return false;
}

/* Runs `true` in a sandbox as a bot would run; its error output (bwrap's complaint) goes to why. */
static bool trial(char *why, size_t whylen)
{
    char *argv[200], store[8192], err[PATH_MAX + 256];
    char *const cmd[] = { "true", NULL };
    sb_policy none = { 0 };
    sb_limits limits = { 0 };
    bw_command sc;
    const char *exe = access("/usr/bin/true", X_OK) == 0 ? "/usr/bin/true" : "/bin/true";
    sb_fault fault;
    if (bw_prepare(&none, &limits, geteuid() == 0 ? SB_UID : geteuid(), geteuid() == 0 ? SB_GID : getegid(), exe,
                   cmd, NULL, NULL, &sc, argv, 200, store, sizeof store, &fault, err, sizeof err) != 0) {
        bw_release(&sc);
        snprintf(why, whylen, "%s", err);
        return false;
    }
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0) {
        snprintf(why, whylen, "pipe: %s", strerror(errno));
        return false;
    }
    pid_t pid = fork();
    if (pid == 0) {
        dup2(pipefd[1], 2);
        if (bw_enter(&sc) != 0)
            _exit(126);
        char *env[] = { "PATH=/usr/bin:/bin", NULL };
        execve(bwrap_path, argv, env);
        _exit(127);
    }
    bw_release(&sc);
    close(pipefd[1]);
    char out[400] = "";
    ssize_t n = pid > 0 ? read(pipefd[0], out, sizeof out - 1) : -1;
    out[n > 0 ? n : 0] = '\0';
    out[strcspn(out, "\n")] = '\0';
    close(pipefd[0]);
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) {
        snprintf(why, whylen, "fork: %s", strerror(errno));
        return false;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return true;
    snprintf(why, whylen, "%s", out[0] ? out : WIFEXITED(status) && WEXITSTATUS(status) == 126
                                                  ? "cannot hand over the sandbox's descriptors or switch to its user"
                                                  : "bwrap failed");
    return false;
}

int bw_available(char *err, size_t errlen)
{
    if (available == 0) {
        char why[PATH_MAX + 256];
        if (!sb_find_init(init_path, sizeof init_path)) {
            available = -1;
            snprintf(unavailable_why, sizeof unavailable_why,
                     "cannot sandbox bots: %s is missing (it is built and installed with arena)", init_path);
        } else if (!find_bwrap()) {
            available = -1;
            snprintf(unavailable_why, sizeof unavailable_why,
                     "cannot sandbox bots: bwrap not found (install bubblewrap: apt-get install bubblewrap), or set "
                     "sandbox = off for trusted bots only");
        } else if (!trial(why, sizeof why)) {
            available = -1;
            bool userns = strstr(why, "namespace") || strstr(why, "uid map") || strstr(why, "not permitted");
            snprintf(unavailable_why, sizeof unavailable_why, "cannot sandbox bots: %s: %s%s, or set sandbox = off for "
                     "trusted bots only", bwrap_path, why,
                     userns ? " (unprivileged user namespaces must be allowed: sysctl user.max_user_namespaces=10000, "
                              "and on some kernels kernel.unprivileged_userns_clone=1)"
                            : "");
        } else {
            available = 1;
        }
    }
    if (available < 0)
        snprintf(err, errlen, "%s", unavailable_why);
    return available > 0 ? 0 : -1;
}

int bw_enter(const bw_command *c)
{
    for (int k = 0; k < c->n_fds; k++) /* the sources are all above BW_FIRST_FD + BW_MAX_FDS: no overlap */
        if (dup2(c->fds[k], BW_FIRST_FD + k) != BW_FIRST_FD + k)
            return -1;
    if (chdir("/") != 0)
        return -1;
    if (geteuid() == 0 && (setgroups(0, NULL) != 0 || setresgid(c->gid, c->gid, c->gid) != 0 ||
                           setresuid(c->uid, c->uid, c->uid) != 0))
        return -1;
    return 0;
}
