/* arena/coordinator/agent.c — agent processes: command-line splitting, executable identity (SHA-256 through libmd),
 * fork + limits (and a sandbox's cgroup) + exec into a process group of its own, killing, reaping (with adopted
 * orphans), and the registry of live children. */
#define _GNU_SOURCE /* close_range, pipe2, wait4, prctl */
#include "agent.h"
#include "cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sha2.h>

/* Children started and not yet reaped. */
#define MAX_CHILDREN 1024
static pid_t children[MAX_CHILDREN];
static bool sandboxed[MAX_CHILDREN];
static cg_group groups[MAX_CHILDREN]; /* a sandbox's cgroup (id -1: none) */
static int n_children;

static void remember(pid_t pid, bool in_sandbox, const cg_group *g)
{
    if (n_children < MAX_CHILDREN) {
        sandboxed[n_children] = in_sandbox;
        groups[n_children] = *g;
        children[n_children++] = pid;
    }
}

/* Forgets pid; returns whether it ran in a sandbox, and its cgroup in *g. */
static bool forget(pid_t pid, cg_group *g)
{
    *g = (cg_group){ .id = -1 };
    for (int i = 0; i < n_children; i++)
        if (children[i] == pid) {
            bool was = sandboxed[i];
            *g = groups[i];
            children[i] = children[--n_children];
            sandboxed[i] = sandboxed[n_children];
            groups[i] = groups[n_children];
            return was;
        }
    return false;
}

/* bwrap exits with 128 + N when the bot was killed by signal N: report that as the signal. */
static void bot_status(bool in_sandbox, int *status)
{
    int sig;
    if (in_sandbox && WIFEXITED(*status) && (sig = sb_signal_of(WEXITSTATUS(*status))) != 0)
        *status = sig; /* the wait status of a process killed by `sig` without a core dump */
}

static int split(const char *line, ag_command *c, char *err, size_t errlen)
{
    size_t used = 0;
    const char *p = line;
    c->argc = 0;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        if (c->argc == AG_MAX_ARGS) {
            snprintf(err, errlen, "'%s': more than %d words", line, AG_MAX_ARGS);
            return -1;
        }
        c->argv[c->argc++] = c->store + used;
        char quote = 0;
        for (; *p && (quote || (*p != ' ' && *p != '\t')); p++) {
            char ch = *p;
            if (quote && ch == quote) {
                quote = 0;
                continue;
            }
            if (!quote && (ch == '\'' || ch == '"')) {
                quote = ch;
                continue;
            }
            if (ch == '\\' && quote != '\'' && p[1])
                ch = *++p;
            if (used + 2 >= sizeof c->store) {
                snprintf(err, errlen, "'%.40s...': command too long", line);
                return -1;
            }
            c->store[used++] = ch;
        }
        if (quote) {
            snprintf(err, errlen, "'%s': unterminated %c quote", line, quote);
            return -1;
        }
        c->store[used++] = '\0';
    }
    c->argv[c->argc] = NULL;
    if (c->argc == 0) {
        snprintf(err, errlen, "empty command");
        return -1;
    }
    return 0;
}

static bool executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

static int resolve(ag_command *c, char *err, size_t errlen)
{
    const char *name = c->argv[0];
    if (strchr(name, '/')) {
        int n = name[0] != '/' && c->dir[0] ? snprintf(c->exe, sizeof c->exe, "%s/%s", c->dir, name)
                                             : snprintf(c->exe, sizeof c->exe, "%s", name);
        if (n >= (int)sizeof c->exe || !executable(c->exe)) {
            name = c->exe;
            struct stat st;
            snprintf(err, errlen, "'%s': %s", name,
                     access(name, F_OK)                             ? "no such file"
                     : stat(name, &st) == 0 && S_ISDIR(st.st_mode) ? "a directory, not a program"
                                                                    : "not an executable file");
            return -1;
        }
        return 0;
    }
    const char *path = getenv("PATH");
    for (const char *dir = path ? path : "/usr/bin:/bin"; *dir;) {
        size_t len = strcspn(dir, ":");
        if (snprintf(c->exe, sizeof c->exe, "%.*s/%s", (int)len, len ? dir : ".", name) < (int)sizeof c->exe &&
            executable(c->exe))
            return 0;
        dir += len + (dir[len] == ':');
    }
    snprintf(err, errlen, "'%s': not found in PATH", name);
    return -1;
}

int ag_command_parse(const char *line, const char *dir, ag_command *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    if (dir && snprintf(c->dir, sizeof c->dir, "%s", dir) >= (int)sizeof c->dir) {
        snprintf(err, errlen, "'%.40s...': directory name too long", dir);
        return -1;
    }
    if (snprintf(c->line, sizeof c->line, "%s", line) >= (int)sizeof c->line) {
        snprintf(err, errlen, "'%.40s...': command longer than %zu bytes", line, sizeof c->line - 1);
        return -1;
    }
    if (split(line, c, err, errlen) != 0 || resolve(c, err, errlen) != 0)
        return -1;
    c->limits = (ag_limits){ AG_DEFAULT_MEMORY_MB, AG_DEFAULT_CPU_SECONDS, AG_DEFAULT_OPEN_FILES, AG_DEFAULT_PIDS,
                             AG_DEFAULT_TMP_MB, AG_DEFAULT_LOG_MB };
    c->sandbox = (sb_policy){ 0 };
    if (!SHA256File(c->exe, c->sha256)) {
        snprintf(err, errlen, "'%s': cannot read: %s", c->exe, strerror(errno));
        return -1;
    }
    return 0;
}

/* In the child (async-signal-safe): joins the sandbox's cgroup, before anything of the sandbox starts. Moving a
 * process into a cgroup can wait on the kernel for a while, so first every descriptor of the coordinator's is
 * closed but those the child still needs (`keep`, and the sandbox's): a child of a coordinator killed meanwhile
 * must not hold the database (and its lock) for that while. */
static int enter_group(const cg_group *cg, int keep, const sb_command *sb)
{
    int kept[SB_MAX_FDS + 1], n = 0;
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

/* In the child: stdin from /dev/null, stdout and stderr the write end of the log's pipe (botlog.h), which the
 * coordinator reads: the bot cannot truncate, seek in or reopen its log file. Returns 0, or -1 (errno set). */
static int child_stdio(int out_fd)
{
    int out = out_fd < 3 ? fcntl(out_fd, F_DUPFD_CLOEXEC, 3) : out_fd; /* not overwritten by the dup2s below */
    int in = open("/dev/null", O_RDONLY);
    if (out < 0 || in < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
        return -1;
    return 0;
}

/* In the child, between fork and exec: only async-signal-safe calls. Reports an errno through `fd`. With a
 * sandbox (sb != NULL), `exe` is bwrap and sb the descriptors it is handed. */
static void child_exec(const ag_command *c, const char *exe, char *const argv[], char *const env[],
                       int out_fd, pid_t parent, int fd, const sb_command *sb, const cg_group *cg)
{
    static const int defaults[] = { SIGINT, SIGTERM, SIGPIPE, SIGCHLD, SIGXCPU };
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
    if (getppid() != parent) /* the coordinator died before the line above */
        _exit(127);
    if (child_stdio(out_fd) != 0)
        goto failed;
    if (cg->id >= 0 && enter_group(cg, fd, sb) != 0)
        goto failed;
    if (!sb && c->dir[0] && chdir(c->dir) != 0)
        goto failed;
    const struct {
        int resource;
        rlim_t value;
    } limits[] = {
        { RLIMIT_AS, (rlim_t)c->limits.memory_mb << 20 },
        { RLIMIT_CPU, (rlim_t)c->limits.cpu_seconds },
        { RLIMIT_NOFILE, (rlim_t)c->limits.open_files },
    };
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        if (!limits[i].value)
            continue;
        struct rlimit rl;
        if (getrlimit(limits[i].resource, &rl) != 0)
            goto failed;
        rl.rlim_cur = limits[i].value;
        if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < rl.rlim_cur)
            rl.rlim_cur = rl.rlim_max; /* cannot raise past the hard limit we were given */
        if (limits[i].resource == RLIMIT_CPU && (rl.rlim_max == RLIM_INFINITY || rl.rlim_max > rl.rlim_cur + 1))
            rl.rlim_max = rl.rlim_cur + 1; /* SIGXCPU at the limit, SIGKILL a second later */
        else if (limits[i].resource != RLIMIT_CPU)
            rl.rlim_max = rl.rlim_cur;
        if (setrlimit(limits[i].resource, &rl) != 0)
            goto failed;
    }
    /* nothing of the coordinator's (database, sockets, other bots' logs) stays open in the bot */
    unsigned first = 3;
    if (sb) { /* bwrap's descriptors at SB_FIRST_FD..., the error pipe above them; then the sandbox user */
        first = SB_FIRST_FD + (unsigned)sb->n_fds;
        int moved = fcntl(fd, F_DUPFD_CLOEXEC, (int)first);
        if (moved < 0 || sb_enter(sb) != 0)
            goto failed;
        fd = moved;
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) /* a change of uid clears it */
            goto failed;
    }
    if ((unsigned)fd > first)
        close_range(first, (unsigned)fd - 1, 0);
    close_range((unsigned)fd + 1, ~0u, 0);
    execve(exe, argv, env);
failed:;
    int e = errno;
    ssize_t w = write(fd, &e, sizeof e);
    (void)w;
    _exit(127);
}

/* The environment of a bot, made from scratch (into `store`). */
static int make_env(const ag_command *c, const char *endpoint, const char *token, char *const extra_env[],
                    char **env, int max, char *store, size_t storelen, char *err, size_t errlen)
{
    int n = 0;
    size_t used = 0;
    bool full = false;
#define PUT(...)                                                                                                       \
    do {                                                                                                               \
        int len_ = snprintf(store + used, storelen - used, __VA_ARGS__);                                               \
        if (len_ < 0 || (size_t)len_ >= storelen - used || n + 1 >= max)                                               \
            full = true;                                                                                               \
        else {                                                                                                         \
            env[n++] = store + used;                                                                                   \
            used += (size_t)len_ + 1;                                                                                  \
        }                                                                                                              \
    } while (0)
    const char *lang = getenv("LANG"), *home = getenv("HOME");
    PUT("PATH=/usr/local/bin:/usr/bin:/bin");
    if (c->sandbox.off)
        PUT("HOME=%s", home ? home : "/");
    else
        PUT("HOME=%s", c->sandbox.writable && c->dir[0] ? c->dir : "/tmp");
    PUT("LANG=%s", lang && *lang ? lang : "C.UTF-8");
    static const char *const sanitizers[] = { "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS" };
    for (size_t i = 0; i < sizeof sanitizers / sizeof sanitizers[0]; i++)
        if (getenv(sanitizers[i]))
            PUT("%s=%s", sanitizers[i], getenv(sanitizers[i]));
    for (int i = 0; i < c->sandbox.n_env; i++) {
        const char *e = c->sandbox.env[i], *v;
        if (strchr(e, '='))
            PUT("%s", e);
        else if ((v = getenv(e)))
            PUT("%s=%s", e, v);
    }
    PUT("ARENA_ENDPOINT=%s", endpoint);
    PUT("ARENA_TOKEN=%s", token);
    for (int i = 0; extra_env && extra_env[i]; i++)
        PUT("%s", extra_env[i]);
#undef PUT
    env[n] = NULL;
    if (full) {
        snprintf(err, errlen, "cannot start '%s': environment too large", c->exe);
        return -1;
    }
    return n;
}

/* The cgroup of a sandbox: its processes, its memory (with its /tmp) and its CPU time as a whole. */
static int make_group(const ag_command *c, cg_group *g, char *err, size_t errlen)
{
    char why[1024];
    cg_limits l = { c->limits.pids, c->limits.memory_mb, c->limits.cpu_seconds };
    if (cg_available(why, sizeof why) != 0 || cg_create(&l, g, why, sizeof why) != 0) {
        snprintf(err, errlen, "cannot start '%s' in its sandbox: %s", c->exe, why);
        return -1;
    }
    return 0;
}

pid_t ag_spawn(const ag_command *c, const char *endpoint, const char *token, char *const extra_env[],
               int out_fd, char *err, size_t errlen)
{
    /* In a sandbox an ipc socket is found at SB_SOCKET; the bot is told that endpoint. */
    bool in_sandbox = !c->sandbox.off, ipc = strncmp(endpoint, "ipc://", 6) == 0;
    const char *told = in_sandbox && ipc ? "ipc://" SB_SOCKET : endpoint;
    enum { MAX_ENV = SB_MAX_ENV + 16 };
    char *env[MAX_ENV], env_store[8192];
    if (make_env(c, told, token, extra_env, env, MAX_ENV, env_store, sizeof env_store, err, errlen) < 0)
        return -1;

    char *args[AG_MAX_ARGS + 3];
    int argc = 0;
    for (; argc < c->argc; argc++)
        args[argc] = c->argv[argc];
    args[argc++] = "--endpoint";
    args[argc++] = (char *)told;
    args[argc] = NULL;

    enum { MAX_WORDS = AG_MAX_ARGS + 3 * SB_MAX_FDS + 80 };
    static char *words[MAX_WORDS];
    static char word_store[64 * 1024];
    char *const *argv = args;
    const char *exe = c->exe;
    sb_command sb = { 0 };
    if (in_sandbox) {
        char why[1024];
        static sb_policy policy; /* the agent's, with the size of its /tmp */
        policy = c->sandbox;
        policy.tmp_mb = c->limits.tmp_mb;
        if (sb_prepare(&policy, c->exe, args, c->dir, ipc ? endpoint + 6 : NULL, &sb, words, MAX_WORDS,
                       word_store, sizeof word_store, why, sizeof why) != 0) {
            sb_release(&sb);
            snprintf(err, errlen, "cannot start '%s' in its sandbox: %s", c->exe, why);
            return -1;
        }
        argv = words;
        exe = sb_bwrap();
    }

    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "cannot start '%s': pipe: %s", c->exe, strerror(errno));
        sb_release(&sb);
        return -1;
    }
    cg_group cg = { .id = -1 };
    if (in_sandbox && make_group(c, &cg, err, errlen) != 0) {
        close(pipefd[0]);
        close(pipefd[1]);
        sb_release(&sb);
        return -1;
    }
    pid_t parent = getpid(), pid = fork();
    if (pid == 0) {
        close(pipefd[0]);
        child_exec(c, exe, argv, env, out_fd, parent, pipefd[1], in_sandbox ? &sb : NULL, &cg);
    }
    int fork_errno = errno;
    sb_release(&sb);
    close(pipefd[1]);
    if (pid < 0) {
        close(pipefd[0]);
        cg_destroy(&cg);
        snprintf(err, errlen, "cannot start '%s': fork: %s", c->exe, strerror(fork_errno));
        return -1;
    }
    setpgid(pid, pid); /* also here, so that killing the group works before the child got to it */
    remember(pid, in_sandbox, &cg);
    int child_errno = 0;
    ssize_t got;
    do /* EOF when exec succeeded (the pipe is close-on-exec), the errno when it did not */
        got = read(pipefd[0], &child_errno, sizeof child_errno);
    while (got < 0 && errno == EINTR);
    close(pipefd[0]);
    if (got == (ssize_t)sizeof child_errno) {
        int status;
        ag_kill(pid);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        forget(pid, &cg);
        cg_destroy(&cg);
        char interp[1024], arg[8];
        if ((child_errno == ENOENT || child_errno == EACCES) && !in_sandbox &&
            sb_interpreter(c->exe, interp, sizeof interp, arg, sizeof arg) == 1 && access(interp, X_OK) != 0)
            snprintf(err, errlen, "cannot start '%s': its interpreter %s (#! line): %s", c->exe, interp,
                     strerror(errno));
        else
            snprintf(err, errlen, "cannot start '%s': %s", c->exe, strerror(child_errno));
        return -1;
    }
    return pid;
}

void ag_kill(pid_t pid)
{
    if (pid > 0) {
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL); /* in case it left its group */
    }
}

void ag_adopt_orphans(void)
{
    prctl(PR_SET_CHILD_SUBREAPER, 1);
}

static bool known(pid_t pid)
{
    for (int i = 0; i < n_children; i++)
        if (children[i] == pid)
            return true;
    return false;
}

/* Kills adopted orphans: children of ours that we did not start and that are not in our process group
 * (what this process starts itself, e.g. through popen, stays in its group). */
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
        if (*end || pid <= 0 || pid == self || known((pid_t)pid) || pid == cg_watcher())
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

/* What reaped sandboxes' cgroups said of their limits, for ag_limit_reached() right after the reap. */
static struct {
    pid_t pid;
    char why[128];
} verdicts[8];
static int next_verdict;

/* pid was reaped: its status as the bot's, and everything it left (its group, its cgroup) killed. */
static void reaped(pid_t pid, int *status)
{
    cg_group cg;
    bot_status(forget(pid, &cg), status);
    kill(-pid, SIGKILL); /* whatever it left running in its group */
    kill_strays();       /* and what it started outside of it */
    if (cg.id < 0)
        return;
    int v = next_verdict++ % (int)(sizeof verdicts / sizeof verdicts[0]);
    verdicts[v].pid = pid;
    if (!cg_exceeded(&cg, verdicts[v].why, sizeof verdicts[v].why))
        verdicts[v].why[0] = '\0';
    cg_destroy(&cg);
}

bool ag_limit_reached(pid_t pid, char *why, size_t n)
{
    for (int i = 0; i < n_children; i++)
        if (children[i] == pid)
            return cg_exceeded(&groups[i], why, n);
    for (size_t v = 0; v < sizeof verdicts / sizeof verdicts[0]; v++)
        if (verdicts[v].pid == pid && pid > 0 && verdicts[v].why[0]) {
            snprintf(why, n, "%s", verdicts[v].why);
            return true;
        }
    return false;
}

pid_t ag_reap(int *status, long *peak_kb)
{
    for (;;) {
        struct rusage ru;
        pid_t pid = wait4(-1, status, WNOHANG, &ru);
        if (pid <= 0)
            return 0;
        if (!known(pid)) /* an adopted orphan */
            continue;
        reaped(pid, status);
        if (peak_kb)
            *peak_kb = ru.ru_maxrss;
        return pid;
    }
}

int ag_reap_pid(pid_t pid, int *status, long *peak_kb)
{
    struct rusage ru;
    if (pid <= 0 || wait4(pid, status, WNOHANG, &ru) != pid)
        return 0;
    reaped(pid, status);
    if (peak_kb)
        *peak_kb = ru.ru_maxrss;
    return 1;
}

void ag_describe_exit(int status, long peak_kb, const ag_limits *limits, char *out, size_t n)
{
    int used;
    if (WIFEXITED(status))
        used = snprintf(out, n, "exited with status %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        used = snprintf(out, n, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        used = snprintf(out, n, "stopped (status 0x%x)", status);
    if (used < 0 || (size_t)used >= n || !limits)
        return;
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU && limits->cpu_seconds)
        used += snprintf(out + used, n - (size_t)used, ", CPU time limit %u s", limits->cpu_seconds);
    else if (limits->memory_mb && peak_kb >= (long)limits->memory_mb * 512) /* half of the limit or more */
        snprintf(out + used, n - (size_t)used, ", peak memory %ld MiB (limit %u MiB)", (peak_kb + 1023) / 1024,
                 limits->memory_mb);
}

void ag_kill_all(void)
{
    for (int i = 0; i < n_children; i++)
        ag_kill(children[i]);
    kill_strays();
    struct timespec tick = { 0, 10 * 1000 * 1000 };
    for (int tries = 0; n_children > 0 && tries < 100; tries++) {
        int status;
        while (ag_reap(&status, NULL) > 0)
            ;
        if (n_children > 0)
            nanosleep(&tick, NULL);
    }
}

static volatile sig_atomic_t *stop_flag, *child_flag;

static void on_signal(int sig)
{
    if (sig == SIGCHLD) {
        if (child_flag)
            *child_flag = 1;
        return;
    }
    if (stop_flag && !*stop_flag) {
        *stop_flag = sig;
        return;
    }
    for (int i = 0; i < n_children; i++) /* kill() is async-signal-safe */
        kill(-children[i], SIGKILL);
    _exit(128 + sig);
}

void ag_handle_signals(volatile sig_atomic_t *stop, volatile sig_atomic_t *child)
{
    stop_flag = stop;
    child_flag = child;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGCHLD, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

void ag_token(char out[33])
{
    unsigned char raw[16];
    FILE *f = fopen("/dev/urandom", "rb");
    size_t got = f ? fread(raw, 1, sizeof raw, f) : 0;
    if (f)
        fclose(f);
    if (got != sizeof raw) { /* no /dev/urandom: time and pid, still unique per run */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ ((uint64_t)getpid() << 40);
        for (size_t i = 0; i < sizeof raw; i++, x = x * 6364136223846793005ull + 1442695040888963407ull)
            raw[i] = (unsigned char)(x >> 56);
    }
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(out + 2 * i, 3, "%02x", raw[i]);
}
