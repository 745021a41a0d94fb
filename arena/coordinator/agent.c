/* arena/coordinator/agent.c — agents as commands: command-line splitting, executable identity (SHA-256 through libmd),
 * the bot's environment, starting it through the sandbox library, and the coordinator's signal handlers. */
#define _GNU_SOURCE /* strsignal */
#include "agent.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sha2.h>

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
    c->limits = (sb_limits){ AG_DEFAULT_MEMORY_MB, AG_DEFAULT_CPU_SECONDS, AG_DEFAULT_OPEN_FILES, AG_DEFAULT_PIDS,
                             AG_DEFAULT_TMP_MB, AG_DEFAULT_LOG_MB, AG_DEFAULT_DISK_MB, AG_DEFAULT_FILES };
    c->sandbox = (sb_policy){ 0 };
    if (!SHA256File(c->exe, c->sha256)) {
        snprintf(err, errlen, "'%s': cannot read: %s", c->exe, strerror(errno));
        return -1;
    }
    return 0;
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

pid_t ag_spawn(const ag_command *c, const char *endpoint, const char *token, char *const extra_env[],
               int out_fd, sb_fault *fault, char *err, size_t errlen)
{
    /* In a sandbox an ipc socket is found at SB_ENDPOINT; the bot is told that endpoint. */
    bool in_sandbox = !c->sandbox.off, ipc = strncmp(endpoint, "ipc://", 6) == 0;
    const char *told = in_sandbox && ipc ? SB_ENDPOINT : endpoint;
    enum { MAX_ENV = SB_MAX_ENV + 16 };
    char *env[MAX_ENV], env_store[8192];
    if (fault)
        *fault = SB_FAULT_SETUP;
    if (make_env(c, told, token, extra_env, env, MAX_ENV, env_store, sizeof env_store, err, errlen) < 0)
        return -1;
    char *args[AG_MAX_ARGS + 3];
    int argc = 0;
    for (; argc < c->argc; argc++)
        args[argc] = c->argv[argc];
    args[argc++] = "--endpoint";
    args[argc++] = (char *)told;
    args[argc] = NULL;
    sb_spec spec = { .exe = c->exe, .argv = args, .env = env, .dir = c->dir, .policy = &c->sandbox,
                     .limits = &c->limits, .socket = in_sandbox && ipc ? endpoint + 6 : NULL, .out_fd = out_fd };
    return sb_start(&spec, fault, err, errlen);
}

void ag_describe_exit(int status, long peak_kb, const sb_limits *limits, char *out, size_t n)
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
    else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXFSZ && limits->disk_mb)
        used += snprintf(out + used, n - (size_t)used, ", a file past its disk limit %u MiB", limits->disk_mb);
    else if (limits->memory_mb && peak_kb >= (long)limits->memory_mb * 512) /* half of the limit or more */
        snprintf(out + used, n - (size_t)used, ", peak memory %ld MiB (limit %u MiB)", (peak_kb + 1023) / 1024,
                 limits->memory_mb);
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
    sb_kill_now();
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
