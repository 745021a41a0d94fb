/* arena/sandbox/sandbox.c — bot processes (contract in sandbox.h): fork + limits + a sandbox's cgroup + exec into a
 * process group of its own, the registry of live children with their sandboxes, killing, reaping (with adopted
 * orphans) and the verdicts of sandboxes just reaped. */
#define _GNU_SOURCE /* close_range, pipe2, wait4, prctl */
#include "sandbox.h"
#include "bwrap.h"
#include "cgroup.h"
#include "disk.h"
#include "gate.h"
#include "sandbox_private.h"
#include "uids.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The uid of the sandboxes of one writable directory, shared while any of them lives (root only). */
typedef struct {
    dev_t dev;
    ino_t ino;
    uid_lease lease;
    int users;
} shared_uid;

/* Children started and not yet reaped, with their sandboxes. */
#define MAX_CHILDREN 1024
typedef struct {
    pid_t pid;
    bool sandboxed;
    cg_group group;     /* id -1: none */
    gt_gate *gate;      /* its endpoint, or NULL */
    dk_watch *disk;     /* its writable directory's watch, or NULL */
    uid_lease lease;    /* its own uid (lock -1: none, or shared) */
    shared_uid *shared; /* the uid of its writable directory, or NULL */
} child;
static child children[MAX_CHILDREN];
static int n_children;
static shared_uid shared[MAX_CHILDREN];
static int wake = -1; /* an eventfd a sandbox's verdict writes to (sb_wake_fd()) */

static child *find(pid_t pid)
{
    for (int i = 0; i < n_children; i++)
        if (children[i].pid == pid)
            return &children[i];
    return NULL;
}

int sb_available(char *err, size_t errlen)
{
    return bw_available(err, errlen) != 0 || cg_available(err, errlen) != 0 ? -1 : 0;
}

void sb_deny(const char *path)
{
    bw_deny(path);
}

bool sb_find_init(char *out, size_t n)
{
    const char *given = getenv("ARENA_INIT");
    if (given && *given)
        return snprintf(out, n, "%s", given) < (int)n && access(out, X_OK) == 0;
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0)
        return false;
    self[len] = '\0';
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = '\0';
    return snprintf(out, n, "%s/arena-init", self) < (int)n && access(out, X_OK) == 0;
}

int sb_signal_of(int exit_status)
{
    return exit_status > 128 && exit_status < 128 + 65 ? exit_status - 128 : 0;
}

/* ---- starting ---- */

/* In the child (async-signal-safe): joins the sandbox's cgroup, before anything of the sandbox starts. Moving a
 * process into a cgroup can wait on the kernel for a while, so first every descriptor of the caller's is closed but
 * those the child still needs (`keep`, and the sandbox's): a child of a coordinator killed meanwhile must not hold the
 * database (and its lock) for that while. */
static int enter_group(const cg_group *cg, int keep, const bw_command *sb)
{
    int kept[BW_MAX_FDS + 1], n = 0;
    kept[n++] = keep;
    for (int i = 0; sb && i < sb->n_fds; i++) { /* in order (insertion): close the gaps between them */
        int k = n++;
        for (; k > 0 && kept[k - 1] > sb->fds[i]; k--)
            kept[k] = kept[k - 1];
        kept[k] = sb->fds[i];
    }
    unsigned from = 3;
    for (int i = 0; i < n; i++) {
        if ((unsigned)kept[i] > from)
            close_range(from, (unsigned)kept[i] - 1, 0);
        from = (unsigned)kept[i] + 1;
    }
    close_range(from, ~0u, 0);
    return cg_enter(cg);
}

/* In the child: stdin from /dev/null, stdout and stderr the write end of the log's pipe (botlog.h), which the caller
 * reads: the bot cannot truncate, seek in or reopen its log file. Returns 0, or -1 (errno set). */
static int child_stdio(int out_fd)
{
    int out = out_fd < 3 ? fcntl(out_fd, F_DUPFD_CLOEXEC, 3) : out_fd; /* not overwritten by the dup2s below */
    int in = open("/dev/null", O_RDONLY);
    if (out < 0 || in < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
        return -1;
    return 0;
}

/* In the child: the per-process limits (the hard limit becomes the soft one: the bot cannot raise them). A file may
 * be as large as a writable directory's bound (or its /tmp), no larger. */
static int set_limits(const sb_limits *l, bool writable)
{
    unsigned fsize = writable && l->disk_mb ? (l->disk_mb > l->tmp_mb ? l->disk_mb : l->tmp_mb) : 0;
    const struct {
        int resource;
        rlim_t value;
    } limits[] = {
        { RLIMIT_AS, (rlim_t)l->memory_mb << 20 },
        { RLIMIT_CPU, (rlim_t)l->cpu_seconds },
        { RLIMIT_NOFILE, (rlim_t)l->open_files },
        { RLIMIT_FSIZE, (rlim_t)fsize << 20 },
    };
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        if (!limits[i].value)
            continue;
        struct rlimit rl;
        if (getrlimit(limits[i].resource, &rl) != 0)
            return -1;
        rl.rlim_cur = limits[i].value;
        if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < rl.rlim_cur)
            rl.rlim_cur = rl.rlim_max; /* cannot raise past the hard limit we were given */
        if (limits[i].resource == RLIMIT_CPU && (rl.rlim_max == RLIM_INFINITY || rl.rlim_max > rl.rlim_cur + 1))
            rl.rlim_max = rl.rlim_cur + 1; /* SIGXCPU at the limit, SIGKILL a second later */
        else if (limits[i].resource != RLIMIT_CPU)
            rl.rlim_max = rl.rlim_cur;
        if (setrlimit(limits[i].resource, &rl) != 0)
            return -1;
    }
    return 0;
}

/* In the child, between fork and exec: only async-signal-safe calls. Reports an errno through `fd`. With a sandbox
 * (sb != NULL), `exe` is bwrap and sb the descriptors it is handed. */
static void child_exec(const sb_spec *s, const char *exe, char *const argv[], pid_t parent, int fd,
                       const bw_command *sb, const cg_group *cg)
{
    static const int defaults[] = { SIGINT, SIGTERM, SIGPIPE, SIGCHLD, SIGXCPU, SIGXFSZ };
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
        sigaction(defaults[i], &dfl, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) /* the caller died before the line above */
        _exit(127);
    if (child_stdio(s->out_fd) != 0)
        goto failed;
    if (cg->id >= 0 && enter_group(cg, fd, sb) != 0)
        goto failed;
    if (!sb && s->dir[0] && chdir(s->dir) != 0)
        goto failed;
    if (set_limits(s->limits, sb && s->policy->writable && s->dir[0]) != 0)
        goto failed;
    /* nothing of the caller's (database, sockets, other bots' logs) stays open in the bot */
    unsigned first = 3;
    if (sb) { /* bwrap's descriptors at BW_FIRST_FD..., the error pipe above them; then the sandbox user */
        first = BW_FIRST_FD + (unsigned)sb->n_fds;
        int moved = fcntl(fd, F_DUPFD_CLOEXEC, (int)first);
        if (moved < 0 || bw_enter(sb) != 0)
            goto failed;
        fd = moved;
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) /* a change of uid clears it */
            goto failed;
    }
    if ((unsigned)fd > first)
        close_range(first, (unsigned)fd - 1, 0);
    close_range((unsigned)fd + 1, ~0u, 0);
    execve(exe, argv, s->env);
failed:;
    int e = errno;
    ssize_t w = write(fd, &e, sizeof e);
    (void)w;
    _exit(127);
}

/* For a program outside the system's directories (a per-user interpreter: pyenv's or conda's python3, a shim in a
 * home directory) that the system has too: a hint naming the system's, which every sandbox shows; else "". */
static const char *system_twin(const char *exe)
{
    static _Thread_local char hint[800];
    if (strncmp(exe, "/usr/", 5) == 0 || strncmp(exe, "/bin/", 5) == 0)
        return "";
    const char *base = strrchr(exe, '/');
    base = base ? base + 1 : exe;
    char twin[300];
    snprintf(twin, sizeof twin, "/usr/bin/%.200s", base);
    if (!*base || access(twin, X_OK) != 0)
        return "";
    snprintf(hint, sizeof hint, " (the system's %s is in every sandbox: give it by its path, e.g. '%s bot.py', "
             "instead of the one found first in PATH)", twin, twin);
    return hint;
}

/* The cgroup of a sandbox: its processes, its memory (with its /tmp) and its CPU time as a whole. */
static int make_group(const sb_spec *s, cg_group *g, char *err, size_t errlen)
{
    char why[1024];
    cg_limits l = { s->limits->pids, s->limits->memory_mb, s->limits->cpu_seconds };
    if (cg_available(why, sizeof why) != 0 || cg_create(&l, g, why, sizeof why) != 0) {
        snprintf(err, errlen, "cannot start '%s' in its sandbox: %s", s->exe, why);
        return -1;
    }
    return 0;
}

/* The eventfd verdicts write to. */
static int wake_fd(void)
{
    if (wake < 0)
        wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    return wake;
}

/* The endpoint of a new sandbox (gate.h), next to the caller's socket: only the sandbox's user may connect to it. */
static gt_gate *open_gate(const char *socket, uid_t uid, gid_t gid, char *err, size_t errlen)
{
    char dir[256];
    const char *slash = strrchr(socket, '/');
    if (!slash || slash - socket >= (long)sizeof dir) {
        snprintf(err, errlen, "'%s': not a socket in a directory", socket);
        return NULL;
    }
    snprintf(dir, sizeof dir, "%.*s", (int)(slash - socket), socket);
    return gt_open(dir, socket, uid, gid, wake_fd(), err, errlen);
}

/* Who a new sandbox runs as: the caller itself when it is not root; else a uid of its own (*lease), or for a writable
 * directory the uid its other live sandboxes share (*share), which then owns the directory's tree (dk_claim()). The
 * directory is measured either way. Returns 0, or -1 with the reason in err (*fault: whose it is). */
static int choose_user(const sb_spec *s, uid_t *uid, gid_t *gid, uid_lease *lease, shared_uid **share, sb_fault *fault,
                       char *err, size_t errlen)
{
    bool root = geteuid() == 0, writable = s->policy->writable && s->dir[0];
    *uid = root ? (uid_t)-1 : geteuid();
    *gid = root ? (gid_t)-1 : getegid();
    *share = NULL;
    lease->lock = -1;
    struct stat st;
    if (writable && root && stat(s->dir, &st) == 0) {
        shared_uid *free_slot = NULL;
        for (int i = 0; i < MAX_CHILDREN && !*share; i++)
            if (shared[i].users && shared[i].dev == st.st_dev && shared[i].ino == st.st_ino)
                *share = &shared[i];
            else if (!shared[i].users && !free_slot)
                free_slot = &shared[i];
        if (*share) {
            *uid = (*share)->lease.uid;
            *gid = (gid_t)*uid;
        } else if (free_slot) {
            char why[300];
            if (uid_take(&free_slot->lease, why, sizeof why) != 0) {
                snprintf(err, errlen, "cannot start '%s': %s", s->exe, why);
                return -1;
            }
            *free_slot = (shared_uid){ st.st_dev, st.st_ino, free_slot->lease, 0 };
            *share = free_slot;
            *uid = free_slot->lease.uid;
            *gid = (gid_t)*uid;
        }
    }
    if (root && !*share) {
        char why[300];
        if (uid_take(lease, why, sizeof why) != 0) {
            snprintf(err, errlen, "cannot start '%s': %s", s->exe, why);
            return -1;
        }
        *uid = lease->uid;
        *gid = (gid_t)lease->uid;
    }
    if (*share)
        (*share)->users++;
    if (writable) {
        dk_usage u;
        bool bots;
        char why[600];
        /* the first of a directory's sandboxes hands it to their uid; the others find it theirs already */
        bool hand = root && *share && (*share)->users == 1;
        if (dk_claim(s->dir, hand ? *uid : (uid_t)-1, *gid, s->limits->disk_mb, s->limits->files, &u, &bots, why,
                     sizeof why) != 0) {
            snprintf(err, errlen, "cannot start '%s': %s", s->exe, why);
            *fault = bots ? SB_FAULT_BOT : SB_FAULT_SETUP;
            return -1;
        }
    }
    return 0;
}

static void release_user(uid_lease *lease, shared_uid *share)
{
    uid_give(lease);
    if (share && --share->users == 0)
        uid_give(&share->lease);
}

pid_t sb_start(const sb_spec *s, sb_fault *fault, char *err, size_t errlen)
{
    sb_fault none;
    fault = fault ? fault : &none;
    *fault = SB_FAULT_SETUP;
    if (n_children == MAX_CHILDREN) {
        snprintf(err, errlen, "cannot start '%s': %d processes already", s->exe, MAX_CHILDREN);
        return -1;
    }
    bool in_sandbox = !s->policy->off;
    enum { MAX_WORDS = 64 + 3 + 3 * BW_MAX_FDS + 80 };
    static char *words[MAX_WORDS];
    static char word_store[64 * 1024];
    char *const *argv = s->argv;
    const char *exe = s->exe;
    bw_command sb = { 0 };
    gt_gate *gate = NULL;
    uid_lease lease = { .lock = -1 };
    shared_uid *share = NULL;
    cg_group cg = { .id = -1 };
    int pipefd[2] = { -1, -1 };
    if (in_sandbox) {
        char why[1024];
        uid_t uid;
        gid_t gid;
        if (choose_user(s, &uid, &gid, &lease, &share, fault, err, errlen) != 0)
            goto failed;
        if (s->socket && !(gate = open_gate(s->socket, uid, gid, why, sizeof why))) {
            snprintf(err, errlen, "cannot start '%s': %s", s->exe, why);
            goto failed;
        }
        if (bw_prepare(s->policy, s->limits, uid, gid, s->exe, s->argv, s->dir, gate ? gt_path(gate) : NULL, &sb,
                       words, MAX_WORDS, word_store, sizeof word_store, fault, why, sizeof why) != 0) {
            snprintf(err, errlen, "cannot start '%s' in its sandbox: %s%s", s->exe, why, system_twin(s->exe));
            goto failed;
        }
        *fault = SB_FAULT_SETUP;
        argv = words;
        exe = bw_path();
    }
    if (pipe2(pipefd, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "cannot start '%s': pipe: %s", s->exe, strerror(errno));
        goto failed;
    }
    if (in_sandbox && make_group(s, &cg, err, errlen) != 0)
        goto failed;
    pid_t parent = getpid(), pid = fork();
    if (pid == 0) {
        close(pipefd[0]);
        child_exec(s, exe, argv, parent, pipefd[1], in_sandbox ? &sb : NULL, &cg);
    }
    int fork_errno = errno;
    bw_release(&sb);
    close(pipefd[1]);
    pipefd[1] = -1;
    if (pid < 0) {
        snprintf(err, errlen, "cannot start '%s': fork: %s", s->exe, strerror(fork_errno));
        goto failed;
    }
    setpgid(pid, pid); /* also here, so that killing the group works before the child got to it */
    dk_watch *disk = NULL;
    if (in_sandbox && s->policy->writable && s->dir[0])
        disk = dk_watch_start(s->dir, &cg, s->limits->disk_mb, s->limits->files, wake_fd(), err, errlen);
    children[n_children++] = (child){ pid, in_sandbox, cg, gate, disk, lease, share };
    int child_errno = 0;
    ssize_t got;
    do /* EOF when exec succeeded (the pipe is close-on-exec), the errno when it did not */
        got = read(pipefd[0], &child_errno, sizeof child_errno);
    while (got < 0 && errno == EINTR);
    close(pipefd[0]);
    if (got == (ssize_t)sizeof child_errno) {
        int status;
        sb_kill(pid);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        child *c = find(pid);
        dk_unwatch(c->disk);
        cg_destroy(&c->group);
        gt_close(c->gate);
        release_user(&c->lease, c->shared);
        *c = children[--n_children];
        char interp[1024], arg[8];
        if ((child_errno == ENOENT || child_errno == EACCES) && !in_sandbox &&
            bw_interpreter(s->exe, interp, sizeof interp, arg, sizeof arg) == 1 && access(interp, X_OK) != 0)
            snprintf(err, errlen, "cannot start '%s': its interpreter %s (#! line): %s", s->exe, interp,
                     strerror(errno));
        else
            snprintf(err, errlen, "cannot start '%s': %s", s->exe, strerror(child_errno));
        return -1;
    }
    *fault = SB_FAULT_NONE;
    return pid;
failed:
    for (int i = 0; i < 2; i++)
        if (pipefd[i] >= 0)
            close(pipefd[i]);
    bw_release(&sb);
    cg_destroy(&cg);
    gt_close(gate);
    release_user(&lease, share);
    return -1;
}

int sb_wake_fd(void)
{
    return wake;
}

void sb_woken(void)
{
    uint64_t v;
    if (wake >= 0 && read(wake, &v, sizeof v) < 0)
        return;
}

/* ---- stopping and reaping ---- */

void sb_kill(pid_t pid)
{
    if (pid > 0) {
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL); /* in case it left its group */
    }
}

void sb_adopt_orphans(void)
{
    prctl(PR_SET_CHILD_SUBREAPER, 1);
}

/* Kills adopted orphans: children of ours that we did not start and that are not in our process group (what this
 * process starts itself, e.g. through popen, stays in its group). */
static void kill_strays(void)
{
    DIR *d = opendir("/proc");
    if (!d)
        return;
    pid_t self = getpid(), group = getpgrp();
    struct dirent *e;
    while ((e = readdir(d))) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 0 || pid == self || find((pid_t)pid) || pid == cg_watcher())
            continue;
        char path[64], buf[512];
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (n <= 0)
            continue;
        buf[n] = '\0';
        const char *p = strrchr(buf, ')'); /* "pid (comm) state ppid pgrp ..." */
        char state;
        long ppid, pgrp;
        if (!p || sscanf(p + 1, " %c %ld %ld", &state, &ppid, &pgrp) != 3 || ppid != self || pgrp == group)
            continue;
        kill(-(pid_t)pgrp, SIGKILL);
        kill((pid_t)pid, SIGKILL);
    }
    closedir(d);
}

/* What reaped sandboxes said of their bounds, for sb_bound() right after the reap. */
static struct {
    pid_t pid;
    sb_verdict verdict;
    char why[160];
} verdicts[8];
static int next_verdict;

/* The verdict on a live child's sandbox. */
static sb_verdict judge(const child *c, char *why, size_t n)
{
    if (c->group.id >= 0 && cg_exceeded(&c->group, why, n))
        return SB_LIMIT;
    if (c->disk && dk_verdict(c->disk, why, n))
        return SB_LIMIT;
    if (c->gate && gt_verdict(c->gate, why, n) != GT_FINE)
        return SB_TRANSPORT;
    return SB_WITHIN;
}

/* pid was reaped: its status as the bot's, and everything it left (its group, its cgroup, its endpoint) killed. */
static void reaped(pid_t pid, int *status)
{
    child *c = find(pid);
    if (!c)
        return;
    child gone = *c;
    *c = children[--n_children];
    int sig;
    if (gone.sandboxed && WIFEXITED(*status) && (sig = sb_signal_of(WEXITSTATUS(*status))) != 0)
        *status = sig; /* the wait status of a process killed by `sig` without a core dump */
    kill(-pid, SIGKILL); /* whatever it left running in its group */
    kill_strays();       /* and what it started outside of it */
    if (!gone.sandboxed)
        return;
    int v = next_verdict++ % (int)(sizeof verdicts / sizeof verdicts[0]);
    verdicts[v].pid = pid;
    verdicts[v].verdict = judge(&gone, verdicts[v].why, sizeof verdicts[v].why);
    dk_unwatch(gone.disk);
    cg_destroy(&gone.group);
    gt_close(gone.gate);
    release_user(&gone.lease, gone.shared);
}

sb_verdict sb_bound(pid_t pid, char *why, size_t n)
{
    child *c = find(pid);
    if (c)
        return judge(c, why, n);
    for (size_t v = 0; v < sizeof verdicts / sizeof verdicts[0]; v++)
        if (verdicts[v].pid == pid && pid > 0 && verdicts[v].verdict != SB_WITHIN) {
            snprintf(why, n, "%s", verdicts[v].why);
            return verdicts[v].verdict;
        }
    return SB_WITHIN;
}

pid_t sb_reap(int *status, long *peak_kb)
{
    for (;;) {
        struct rusage ru;
        pid_t pid = wait4(-1, status, WNOHANG, &ru);
        if (pid <= 0)
            return 0;
        if (!find(pid)) /* an adopted orphan */
            continue;
        reaped(pid, status);
        if (peak_kb)
            *peak_kb = ru.ru_maxrss;
        return pid;
    }
}

int sb_reap_pid(pid_t pid, int *status, long *peak_kb)
{
    struct rusage ru;
    if (pid <= 0 || wait4(pid, status, WNOHANG, &ru) != pid)
        return 0;
    reaped(pid, status);
    if (peak_kb)
        *peak_kb = ru.ru_maxrss;
    return 1;
}

void sb_kill_all(void)
{
    for (int i = 0; i < n_children; i++)
        sb_kill(children[i].pid);
    kill_strays();
    struct timespec tick = { 0, 10 * 1000 * 1000 };
    for (int tries = 0; n_children > 0 && tries < 100; tries++) {
        int status;
        while (sb_reap(&status, NULL) > 0)
            ;
        if (n_children > 0)
            nanosleep(&tick, NULL);
    }
}

void sb_kill_now(void)
{
    for (int i = 0; i < n_children; i++) /* kill() is async-signal-safe */
        kill(-children[i].pid, SIGKILL);
}
