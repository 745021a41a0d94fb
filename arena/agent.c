/* arena/agent.c — agent processes: command-line splitting, executable identity (SHA-256 through libmd),
 * posix_spawn into a process group of its own, killing, reaping, and the registry of live children. */
#define _GNU_SOURCE /* posix_spawn_file_actions_addchdir_np */
#include "agent.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sha2.h>

extern char **environ;

/* Children started and not yet reaped. */
#define MAX_CHILDREN 1024
static pid_t children[MAX_CHILDREN];
static int n_children;

static void remember(pid_t pid)
{
    if (n_children < MAX_CHILDREN)
        children[n_children++] = pid;
}

static void forget(pid_t pid)
{
    for (int i = 0; i < n_children; i++)
        if (children[i] == pid) {
            children[i] = children[--n_children];
            return;
        }
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
            snprintf(err, errlen, "'%s': %s", name, access(name, F_OK) ? "no such file" : "not an executable file");
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
    if (!SHA256File(c->exe, c->sha256)) {
        snprintf(err, errlen, "'%s': cannot read: %s", c->exe, strerror(errno));
        return -1;
    }
    return 0;
}

pid_t ag_spawn(const ag_command *c, const char *endpoint, const char *token, const char *log_path, char *err,
               size_t errlen)
{
    /* The environment: ours, with ARENA_ENDPOINT and ARENA_TOKEN replaced. */
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 3, sizeof *env);
    char ep[512], tok[128];
    snprintf(ep, sizeof ep, "ARENA_ENDPOINT=%s", endpoint);
    snprintf(tok, sizeof tok, "ARENA_TOKEN=%s", token);
    if (!env) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "ARENA_ENDPOINT=", 15) != 0 && strncmp(environ[i], "ARENA_TOKEN=", 12) != 0)
            env[k++] = environ[i];
    env[k++] = ep;
    env[k++] = tok;
    env[k] = NULL;

    char *argv[AG_MAX_ARGS + 3];
    int argc = 0;
    for (; argc < c->argc; argc++)
        argv[argc] = c->argv[argc];
    argv[argc++] = "--endpoint";
    argv[argc++] = (char *)endpoint;
    argv[argc] = NULL;

    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&fa);
    posix_spawnattr_init(&attr);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, log_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    if (c->dir[0])
        posix_spawn_file_actions_addchdir_np(&fa, c->dir);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGCHLD);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid;
    int rc = posix_spawn(&pid, c->exe, &fa, &attr, argv, env);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    free(env);
    if (rc != 0) {
        snprintf(err, errlen, "cannot start '%s': %s", c->exe, strerror(rc));
        return -1;
    }
    remember(pid);
    return pid;
}

void ag_kill(pid_t pid)
{
    if (pid > 0) {
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL); /* in case it left its group */
    }
}

pid_t ag_reap(int *status)
{
    pid_t pid = waitpid(-1, status, WNOHANG);
    if (pid <= 0)
        return 0;
    forget(pid);
    kill(-pid, SIGKILL); /* whatever it left running in its group */
    return pid;
}

int ag_reap_pid(pid_t pid, int *status)
{
    if (pid <= 0 || waitpid(pid, status, WNOHANG) != pid)
        return 0;
    forget(pid);
    kill(-pid, SIGKILL);
    return 1;
}

void ag_describe_exit(int status, char *out, size_t n)
{
    if (WIFEXITED(status))
        snprintf(out, n, "exited with status %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(out, n, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(out, n, "stopped (status 0x%x)", status);
}

void ag_kill_all(void)
{
    for (int i = 0; i < n_children; i++)
        ag_kill(children[i]);
    struct timespec tick = { 0, 10 * 1000 * 1000 };
    for (int tries = 0; n_children > 0 && tries < 100; tries++) {
        int status;
        while (ag_reap(&status) > 0)
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
