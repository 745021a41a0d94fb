/* arena/sandbox/cgroup.c — the control groups of sandboxes: finding a writable hierarchy (cgroup v2 or v1),
 * this coordinator's parent group and its watcher, one group per sandbox with its limits, reading its
 * counters, and killing and removing groups (stale ones of dead coordinators included). */
#define _GNU_SOURCE /* close_range */
#include "cgroup.h"
#include "sandbox_private.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { C_PIDS = 1, C_MEMORY = 2, C_CPU = 4, C_CPUACCT = 8, MAX_HIER = 4, MAX_PENDING = 64 };

static int available;                 /* 0 not checked, 1 yes, -1 no */
static int version;                   /* 1 or 2 */
static char why_not[PATH_MAX + 512];
static int n_hier;
static unsigned controllers[MAX_HIER]; /* C_* of each hierarchy */
static char base[MAX_HIER][PATH_MAX];  /* this process's group in each hierarchy */
static char parent[MAX_HIER][PATH_MAX]; /* base/arena-PID-RANDOM: this coordinator's */
static int next_id;
static int pending[MAX_PENDING];      /* groups not removed yet */
static int n_pending;
static int life_fd = -1;              /* the write end of the watcher's pipe */
static pid_t watcher_pid, owner;

pid_t cg_watcher(void) { return watcher_pid; }

/* ---- reading and writing small files ---- */

/* Writes text to a control file. A write interrupted by a signal is tried again: the kernel gives up setting
 * a cgroup v1 memory limit with EINTR whenever a signal is pending for the writer (a child's SIGCHLD, say),
 * even on a group with nothing to reclaim. */
static int write_text(const char *path, const char *text)
{
    int fd;
    do
        fd = open(path, O_WRONLY | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    if (fd < 0)
        return -1;
    size_t len = strlen(text);
    ssize_t w;
    int tries = 0;
    do
        w = write(fd, text, len);
    while (w < 0 && errno == EINTR && ++tries < 100);
    int e = errno;
    close(fd);
    errno = e;
    return w == (ssize_t)len ? 0 : -1;
}

static bool read_text(const char *path, char *buf, size_t n)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t got = read(fd, buf, n - 1);
    close(fd);
    buf[got > 0 ? got : 0] = '\0';
    return got > 0;
}

/* The number after "key " at the start of a line of text; -1 when it is not there. */
static long long field(const char *text, const char *key)
{
    size_t k = strlen(key);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (strncmp(p, key, k) == 0 && p[k] == ' ')
            return strtoll(p + k + 1, NULL, 10);
    return -1;
}

/* ---- killing and removing ---- */

/* SIGKILL to every process of the group at dir until none is left (bounded: a fork bomb is bounded by
 * pids.max). Returns whether it is empty. */
static bool empty_group(const char *dir)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%.1100s/cgroup.kill", dir);
    write_text(path, "1"); /* v2, Linux 5.14 on: the kernel kills them all at once */
    snprintf(path, sizeof path, "%.1100s/cgroup.procs", dir);
    struct timespec tick = { 0, 1000 * 1000 };
    for (int round = 0; round < 2000; round++) {
        FILE *f = fopen(path, "re");
        if (!f)
            return errno == ENOENT;
        int n = 0;
        for (long pid; fscanf(f, "%ld", &pid) == 1; n++)
            kill((pid_t)pid, SIGKILL);
        fclose(f);
        if (n == 0)
            return true;
        nanosleep(&tick, NULL);
    }
    return false;
}

/* Empties and removes the group at dir and the groups below it (one level: a parent and its sandboxes). */
static bool remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        for (struct dirent *e; (e = readdir(d));) {
            char sub[PATH_MAX + 300];
            if (e->d_type != DT_DIR || e->d_name[0] == '.')
                continue;
            snprintf(sub, sizeof sub, "%.1100s/%.255s", dir, e->d_name);
            empty_group(sub);
            rmdir(sub);
        }
        closedir(d);
    }
    empty_group(dir);
    return rmdir(dir) == 0 || errno == ENOENT;
}

/* Groups arena-PID-* left by a coordinator that is gone (killed before its watcher could act, or its watcher
 * killed with it). */
static void sweep_stale(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        long pid;
        char rest[64], path[PATH_MAX + 300];
        if (e->d_type != DT_DIR || sscanf(e->d_name, "arena-%ld-%63s", &pid, rest) != 2 || pid <= 0)
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        snprintf(path, sizeof path, "%.1100s/%.255s", dir, e->d_name);
        remove_tree(path);
    }
    closedir(d);
}

static void group_dir(int h, int id, char *out, size_t n)
{
    snprintf(out, n, "%.1100s/sb-%d", parent[h], id);
}

/* Removes group id in every hierarchy; false when one is still busy. */
static bool remove_group(int id)
{
    char dir[PATH_MAX + 32];
    bool gone = true;
    for (int h = 0; h < n_hier; h++) {
        group_dir(h, id, dir, sizeof dir);
        empty_group(dir);
        if (rmdir(dir) != 0 && errno != ENOENT)
            gone = false;
    }
    return gone;
}

void cg_destroy(cg_group *g)
{
    for (int i = 0; i < n_pending;) /* earlier groups whose last process was not reaped yet */
        if (remove_group(pending[i]))
            pending[i] = pending[--n_pending];
        else
            i++;
    if (g->id < 0)
        return;
    if (!remove_group(g->id) && n_pending < MAX_PENDING)
        pending[n_pending++] = g->id;
    g->id = -1;
}

/* ---- finding the hierarchies ---- */

/* This process's group in the hierarchy of `controller` ("" for v2) from /proc/self/cgroup. */
static bool own_path(const char *controller, char *out, size_t n)
{
    FILE *f = fopen("/proc/self/cgroup", "re");
    char line[PATH_MAX + 128];
    bool found = false;
    while (f && !found && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *list = strchr(line, ':'), *path = list ? strchr(list + 1, ':') : NULL;
        if (!path)
            continue;
        *path++ = '\0';
        list++;
        if (!controller[0])
            found = strcmp(line, "0") == 0 && !*list;
        else
            for (char *tok = strtok(list, ","); tok && !found; tok = strtok(NULL, ","))
                found = strcmp(tok, controller) == 0;
        if (found)
            snprintf(out, n, "%s", path);
    }
    if (f)
        fclose(f);
    return found;
}

/* The mount point (and its root) of a cgroup2 file system (controller NULL) or of the v1 hierarchy of a
 * controller, from /proc/self/mountinfo. */
static bool mount_of(const char *controller, char *mnt, char *root, size_t n)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    char line[2 * PATH_MAX];
    bool found = false;
    while (f && !found && fgets(line, sizeof line, f)) {
        char r[PATH_MAX], m[PATH_MAX], type[64], opts[512];
        const char *dash = strstr(line, " - ");
        if (!dash || sscanf(line, "%*s %*s %*s %4095s %4095s", r, m) != 2 ||
            sscanf(dash + 3, "%63s %*s %511s", type, opts) != 2)
            continue;
        if (!controller) {
            found = strcmp(type, "cgroup2") == 0;
        } else if (strcmp(type, "cgroup") == 0) {
            for (char *tok = strtok(opts, ","); tok && !found; tok = strtok(NULL, ","))
                found = strcmp(tok, controller) == 0;
        }
        if (found) {
            snprintf(mnt, n, "%s", m);
            snprintf(root, n, "%s", r);
        }
    }
    if (f)
        fclose(f);
    return found;
}

/* base = the mount point + this process's path (relative to the mount's root). */
static bool locate(const char *controller, char *out, size_t n)
{
    char mnt[PATH_MAX], root[PATH_MAX], path[PATH_MAX];
    if (!mount_of(controller, mnt, root, sizeof mnt) || !own_path(controller ? controller : "", path, sizeof path))
        return false;
    size_t k = strlen(root);
    const char *rel = strcmp(root, "/") != 0 && strncmp(path, root, k) == 0 ? path + k : path;
    return snprintf(out, n, "%s%s", mnt, strcmp(rel, "/") == 0 ? "" : rel) < (int)n;
}

static bool find_v2(void)
{
    char ctl[512];
    if (!locate(NULL, base[0], sizeof base[0]) || access(base[0], W_OK) != 0)
        return false;
    snprintf(ctl, sizeof ctl, "%.400s/cgroup.controllers", base[0]);
    char text[512];
    if (!read_text(ctl, text, sizeof text))
        return false;
    static const char *const need[] = { "pids", "memory", "cpu" };
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
        const char *p = strstr(text, need[i]);
        size_t k = strlen(need[i]);
        if (!p || (p != text && p[-1] != ' ') || (p[k] && p[k] != ' ' && p[k] != '\n'))
            return false;
    }
    n_hier = 1;
    controllers[0] = C_PIDS | C_MEMORY | C_CPU | C_CPUACCT;
    version = 2;
    return true;
}

static bool find_v1(void)
{
    static const struct { const char *name; unsigned bit; } ctl[] = {
        { "pids", C_PIDS }, { "memory", C_MEMORY }, { "cpu", C_CPU }, { "cpuacct", C_CPUACCT },
    };
    n_hier = 0;
    for (size_t i = 0; i < sizeof ctl / sizeof ctl[0]; i++) {
        char dir[PATH_MAX];
        if (!locate(ctl[i].name, dir, sizeof dir) || access(dir, W_OK) != 0)
            return false;
        int h = 0;
        while (h < n_hier && strcmp(base[h], dir) != 0)
            h++;
        if (h == n_hier) { /* cpu and cpuacct are often one hierarchy */
            snprintf(base[h], sizeof base[h], "%s", dir);
            controllers[h] = 0;
            n_hier++;
        }
        controllers[h] |= ctl[i].bit;
    }
    version = 1;
    return true;
}

/* ---- the parent group and the watcher ---- */

/* At a normal exit: the watcher removes the (empty) groups; wait for it, so that nothing of this
 * coordinator is left when it has exited. */
static void at_exit(void)
{
    if (getpid() != owner || life_fd < 0)
        return;
    close(life_fd);
    life_fd = -1;
    struct timespec tick = { 0, 2 * 1000 * 1000 };
    for (int i = 0; i < 5000 && waitpid(watcher_pid, NULL, WNOHANG) == 0; i++)
        nanosleep(&tick, NULL);
}

/* bin/arena-init --cgroup-watch 3 DIR...: in a session of its own, nothing of ours open but the read end of
 * the pipe (fd 3) and /dev/null. */
static int start_watcher(char *err, size_t errlen)
{
    char init[PATH_MAX], fd_arg[] = "3";
    if (!sb_find_init(init, sizeof init)) {
        snprintf(err, errlen, "%s is missing (it is built and installed with arena)", init);
        return -1;
    }
    char *argv[MAX_HIER + 4] = { init, "--cgroup-watch", fd_arg };
    for (int h = 0; h < n_hier; h++)
        argv[3 + h] = parent[h];
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid == 0) { /* (both moved above 3 first: dup2 onto itself would keep close-on-exec) */
        int null = open("/dev/null", O_RDWR | O_CLOEXEC), life = fcntl(p[0], F_DUPFD_CLOEXEC, 10);
        int nul = null < 0 ? -1 : fcntl(null, F_DUPFD_CLOEXEC, 10);
        if (setsid() < 0 || life < 0 || nul < 0 || dup2(life, 3) != 3 || dup2(nul, 0) != 0 || dup2(nul, 1) != 1 ||
            dup2(nul, 2) != 2)
            _exit(127);
        close_range(4, ~0u, 0);
        char *env[] = { NULL };
        execve(init, argv, env);
        _exit(127);
    }
    close(p[0]);
    if (pid < 0) {
        close(p[1]);
        snprintf(err, errlen, "fork: %s", strerror(errno));
        return -1;
    }
    life_fd = p[1];
    watcher_pid = pid;
    owner = getpid();
    atexit(at_exit);
    return 0;
}

/* v2: a group that enables controllers for its children must hold no process itself: when this process's
 * own group holds it, it moves into a leaf of its own (arena-PID-RANDOM-main) first. */
static int enable_v2(const char *name, char *err, size_t errlen)
{
    char path[PATH_MAX + 64], leaf[PATH_MAX + 64];
    snprintf(path, sizeof path, "%.1100s/cgroup.subtree_control", base[0]);
    if (write_text(path, "+pids +memory +cpu") == 0)
        return 0;
    snprintf(leaf, sizeof leaf, "%.1100s/%.60s-main", base[0], name);
    if (errno == EBUSY && mkdir(leaf, 0755) == 0) {
        snprintf(leaf + strlen(leaf), sizeof leaf - strlen(leaf), "/cgroup.procs");
        if (write_text(leaf, "0") == 0 && write_text(path, "+pids +memory +cpu") == 0)
            return 0;
    }
    snprintf(err, errlen, "cannot enable the pids, memory and cpu controllers in %s: %s (other processes share "
             "its cgroup)", base[0], strerror(errno));
    return -1;
}

static int make_parent(char *err, size_t errlen)
{
    unsigned char raw[3] = { 0 };
    FILE *f = fopen("/dev/urandom", "rb");
    if (!f || fread(raw, 1, sizeof raw, f) != sizeof raw)
        raw[0] = (unsigned char)time(NULL), raw[1] = (unsigned char)clock();
    if (f)
        fclose(f);
    char name[64];
    snprintf(name, sizeof name, "arena-%ld-%02x%02x%02x", (long)getpid(), raw[0], raw[1], raw[2]);
    for (int h = 0; h < n_hier; h++)
        snprintf(parent[h], sizeof parent[h], "%.1100s/%.60s", base[h], name);
    if (version == 2 && enable_v2(name, err, errlen) != 0)
        return -1;
    if (start_watcher(err, errlen) != 0)
        return -1;
    for (int h = 0; h < n_hier; h++) {
        char ctl[PATH_MAX + 64];
        snprintf(ctl, sizeof ctl, "%.1100s/cgroup.subtree_control", parent[h]);
        if (mkdir(parent[h], 0755) != 0 || (version == 2 && write_text(ctl, "+pids +memory +cpu") != 0)) {
            snprintf(err, errlen, "cannot make the cgroup %.1100s: %s", parent[h], strerror(errno));
            return -1;
        }
    }
    return 0;
}

int cg_available(char *err, size_t errlen)
{
    if (available == 0) {
        char why[PATH_MAX + 256] = "";
        if (!find_v2() && !find_v1()) {
            snprintf(why, sizeof why, "no writable cgroup with the pids, memory and cpu controllers (cgroup v2: run "
                     "arena in a delegated cgroup, e.g. systemd-run --user --scope -p Delegate=yes arena ... (as root "
                     "without --user), or as a service with Delegate=yes; cgroup v1: run it as root)");
        } else {
            for (int h = 0; h < n_hier; h++)
                sweep_stale(base[h]);
            make_parent(why, sizeof why);
        }
        available = why[0] ? -1 : 1;
        snprintf(why_not, sizeof why_not, "cannot bound the sandboxes of bots: %s; or set sandbox = off for "
                 "trusted bots only", why);
    }
    if (available < 0)
        snprintf(err, errlen, "%s", why_not);
    return available > 0 ? 0 : -1;
}

/* ---- a sandbox's group ---- */

static int set_limits(int h, const char *dir, const cg_limits *l)
{
    char path[PATH_MAX + 64], value[64];
    unsigned c = controllers[h];
    if ((c & C_PIDS) && l->pids) {
        snprintf(path, sizeof path, "%.1100s/pids.max", dir);
        snprintf(value, sizeof value, "%u", l->pids);
        if (write_text(path, value) != 0)
            return -1;
    }
    if ((c & C_MEMORY) && l->memory_mb) {
        snprintf(path, sizeof path, "%.1100s/%s", dir, version == 2 ? "memory.max" : "memory.limit_in_bytes");
        snprintf(value, sizeof value, "%llu", (unsigned long long)l->memory_mb << 20);
        if (write_text(path, value) != 0)
            return -1;
        snprintf(path, sizeof path, "%.1100s/%s", dir, version == 2 ? "memory.swap.max" : "memory.memsw.limit_in_bytes");
        write_text(path, version == 2 ? "0" : value); /* no swap past it (where swap is accounted) */
    }
    if (c & C_CPU) { /* at most one CPU: a bot spinning many threads leaves the other cores to its opponent */
        snprintf(path, sizeof path, "%.1100s/%s", dir, version == 2 ? "cpu.max" : "cpu.cfs_quota_us");
        if (write_text(path, version == 2 ? "100000 100000" : "100000") != 0)
            return -1;
    }
    return 0;
}

int cg_create(const cg_limits *limits, cg_group *g, char *err, size_t errlen)
{
    *g = (cg_group){ .id = -1, .limits = *limits };
    if (available <= 0) {
        snprintf(err, errlen, "%s", available < 0 ? why_not : "internal: cg_available() not called");
        return -1;
    }
    int id = next_id++;
    for (int h = 0; h < n_hier; h++) {
        char dir[PATH_MAX + 32];
        group_dir(h, id, dir, sizeof dir);
        int made;
        do
            made = mkdir(dir, 0755);
        while (made != 0 && errno == EINTR);
        if (made != 0 || set_limits(h, dir, limits) != 0) {
            snprintf(err, errlen, "cgroup %.1100s: %s", dir, strerror(errno));
            g->id = id;
            cg_destroy(g);
            return -1;
        }
    }
    g->id = id;
    return 0;
}

/* dst + s, within cap (async-signal-safe). */
static size_t append(char *dst, size_t at, size_t cap, const char *s)
{
    while (*s && at + 1 < cap)
        dst[at++] = *s++;
    dst[at] = '\0';
    return at;
}

int cg_enter(const cg_group *g)
{
    char num[16], path[PATH_MAX + 64];
    int k = (int)sizeof num - 1;
    num[k] = '\0';
    unsigned v = (unsigned)g->id;
    do
        num[--k] = (char)('0' + v % 10);
    while ((v /= 10) && k > 0);
    for (int h = 0; h < n_hier; h++) {
        size_t at = append(path, 0, sizeof path, parent[h]);
        at = append(path, at, sizeof path, "/sb-");
        at = append(path, at, sizeof path, num + k);
        append(path, at, sizeof path, "/cgroup.procs");
        int fd = open(path, O_WRONLY | O_CLOEXEC);
        if (fd < 0)
            return -1;
        ssize_t w = write(fd, "0", 1);
        close(fd);
        if (w != 1)
            return -1;
    }
    return 0;
}

/* A counter file of g in the hierarchy holding controller c. */
static bool counters(const cg_group *g, unsigned c, const char *name, char *buf, size_t n)
{
    for (int h = 0; h < n_hier; h++)
        if (controllers[h] & c) {
            char path[PATH_MAX + 64];
            snprintf(path, sizeof path, "%.1100s/sb-%d/%.40s", parent[h], g->id, name);
            return read_text(path, buf, n);
        }
    return false;
}

bool cg_exceeded(const cg_group *g, char *why, size_t n)
{
    char text[1024];
    if (g->id < 0)
        return false;
    if (g->limits.pids && counters(g, C_PIDS, "pids.events", text, sizeof text) && field(text, "max") > 0) {
        snprintf(why, n, "pids limit %u reached", g->limits.pids);
        return true;
    }
    if (g->limits.memory_mb &&
        counters(g, C_MEMORY, version == 2 ? "memory.events" : "memory.oom_control", text, sizeof text) &&
        field(text, "oom_kill") > 0) {
        long long peak = 0;
        if (counters(g, C_MEMORY, version == 2 ? "memory.peak" : "memory.max_usage_in_bytes", text, sizeof text))
            peak = strtoll(text, NULL, 10);
        snprintf(why, n, "memory limit %u MiB reached (peak %lld MiB)", g->limits.memory_mb, (peak + (1 << 19)) >> 20);
        return true;
    }
    if (g->limits.cpu_seconds) {
        long long ns = -1;
        if (version == 1 && counters(g, C_CPUACCT, "cpuacct.usage", text, sizeof text))
            ns = strtoll(text, NULL, 10);
        else if (version == 2 && counters(g, C_CPU, "cpu.stat", text, sizeof text))
            ns = field(text, "usage_usec") * 1000;
        if (ns >= (long long)g->limits.cpu_seconds * 1000000000ll) {
            snprintf(why, n, "CPU time limit %u s reached (the sandbox's processes together)", g->limits.cpu_seconds);
            return true;
        }
    }
    return false;
}

int cg_procs(const cg_group *g, pid_t *out, int max)
{
    if (g->id < 0)
        return 0;
    for (int h = 0; h < n_hier; h++)
        if (controllers[h] & C_PIDS) {
            char path[PATH_MAX + 64];
            snprintf(path, sizeof path, "%.1100s/sb-%d/cgroup.procs", parent[h], g->id);
            FILE *f = fopen(path, "re");
            if (!f)
                return 0;
            int n = 0;
            long pid;
            while (n < max && fscanf(f, "%ld", &pid) == 1)
                out[n++] = (pid_t)pid;
            fclose(f);
            return n;
        }
    return 0;
}
