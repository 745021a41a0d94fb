/* arena/coordinator/agent.h — agent processes: a bot's command line (split like a shell would, without running one),
 * its executable's path and SHA-256 (the agent's identity), its resource limits, starting it (fork, limits,
 * exec) in a process group of its own with its output on a descriptor the caller gives (its log's pipe) and
 * nothing else of the coordinator's open, and stopping it with everything it started.
 *
 * Every started process is remembered until it is reaped, so ag_kill_all() leaves no child behind; the
 * signal handlers installed by ag_handle_signals() call it on a second SIGINT/SIGTERM. A bot is killed
 * by the kernel when the coordinator dies (even by SIGKILL). Descendants that leave the bot's process
 * group (setsid, setpgid) are found through ag_adopt_orphans() and killed with their group. */
#ifndef ARENA_COORDINATOR_AGENT_H
#define ARENA_COORDINATOR_AGENT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "sandbox.h"

#define AG_MAX_ARGS 64
#define AG_LINE_MAX 8200          /* bytes of a command line with its NUL (a league config's command and args of
                                   * 4096 characters each, and the space between them) */

/* Limits of a bot: set on the bot process before exec (setrlimit; inherited by whatever it starts), and of its
 * sandbox as a whole (pids, tmp_mb, log_mb; docs/reliability.md). 0 = none. */
typedef struct {
    unsigned memory_mb;       /* RLIMIT_AS: address space, MiB */
    unsigned cpu_seconds;     /* RLIMIT_CPU: CPU time of the process over its whole life (SIGXCPU, then SIGKILL) */
    unsigned open_files;      /* RLIMIT_NOFILE */
    unsigned pids;            /* processes and threads of the sandbox at once */
    unsigned tmp_mb;          /* the size of the sandbox's private /tmp, MiB */
    unsigned log_mb;          /* what one process may write to its log, MiB; the rest is dropped */
} ag_limits;

/* The defaults: 4096 MiB of address space (none in an arena built with AddressSanitizer, whose bots reserve
 * terabytes of address space for its shadow memory), no CPU-time limit (a bot process plays game after game;
 * the move budget bounds each move), 256 open files. */
#if defined(__SANITIZE_ADDRESS__)
#define AG_DEFAULT_MEMORY_MB 0u
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AG_DEFAULT_MEMORY_MB 0u
#endif
#endif
#ifndef AG_DEFAULT_MEMORY_MB
#define AG_DEFAULT_MEMORY_MB 4096u
#endif
#define AG_DEFAULT_CPU_SECONDS 0u
#define AG_DEFAULT_OPEN_FILES 256u
#define AG_DEFAULT_PIDS 128u
#define AG_DEFAULT_TMP_MB 64u
#define AG_DEFAULT_LOG_MB 16u

typedef struct {
    char line[AG_LINE_MAX];   /* the command as given */
    int argc;
    char *argv[AG_MAX_ARGS + 1];
    char exe[4096];           /* argv[0] resolved through PATH (or against dir) */
    char dir[512];            /* working directory of the process; "" = the caller's */
    char sha256[65];          /* lowercase hex of the executable's contents */
    ag_limits limits;         /* the defaults after ag_command_parse(); the caller may change them */
    sb_policy sandbox;        /* on, no network, read-only directory after ag_command_parse(); the caller may
                               * change it (sandbox.h) */
    char store[AG_LINE_MAX + AG_MAX_ARGS]; /* backing storage of argv */
} ag_command;

/* Splits `line` into words (single and double quotes, backslash escapes; no expansions), resolves the
 * executable (a name without '/' is looked up in PATH; a relative path is taken from `dir` when dir is
 * given) and hashes it. `dir` (NULL or "" for none) becomes the process's working directory. Returns 0,
 * or -1 with a one-line reason in err ("'bin/rando': no such file"). */
int ag_command_parse(const char *line, const char *dir, ag_command *c, char *err, size_t errlen);

/* Starts the command with `--endpoint endpoint` appended and an environment made from scratch: PATH, HOME,
 * LANG, the sanitizers' *SAN_OPTIONS when set, what c->sandbox.env names, ARENA_ENDPOINT, ARENA_TOKEN and the
 * NAME=value strings of `extra_env` (a NULL-terminated list, or NULL); stdin from /dev/null, stdout and stderr
 * the descriptor `out_fd` (the write end of its log's pipe, botlog.h: the coordinator appends what comes to the
 * log file, so the bot never holds the file), no other descriptor of the coordinator's open, default signal
 * dispositions, c->limits set, in a new process group (its id is the pid), and SIGKILL as its parent-death signal.
 * Unless c->sandbox.off, the process is bwrap running the command in its sandbox (sandbox.h; the caller has
 * checked sb_available() and cg_available()), in a cgroup of its own that it joins before bwrap starts
 * (cgroup.h: c->limits.pids, memory_mb for it and its /tmp of tmp_mb, cpu_seconds for all of it; removed
 * with everything left in it when the process is reaped), as SB_UID when the coordinator is root; an ipc:// endpoint is then bound into
 * the sandbox and the bot told SB_SOCKET. Returns the pid once the executable is running (exec succeeded),
 * or -1 with a reason in err (the exec's error, e.g. "cannot start 'x': Permission denied", or a path the
 * sandbox may not show). */
pid_t ag_spawn(const ag_command *c, const char *endpoint, const char *token, char *const extra_env[],
               int out_fd, char *err, size_t errlen);

/* SIGKILL to the process group of `pid` (the agent and anything it started). */
void ag_kill(pid_t pid);

/* Makes this process the reaper of its descendants' orphans (PR_SET_CHILD_SUBREAPER), so a bot's children
 * that left its process group become ours when the bot dies, and are killed when it is reaped. */
void ag_adopt_orphans(void);

/* Reaps one exited child without blocking. Returns its pid and sets *status (a sandboxed bot killed by a
 * signal is reported as killed by it, not as bwrap's exit status 128 + N) (and *peak_kb, the peak
 * resident memory of the process in KiB, when not NULL), or 0 when none is left. Orphans adopted through
 * ag_adopt_orphans() are killed and reaped here without being returned. */
pid_t ag_reap(int *status, long *peak_kb);

/* Reaps `pid` when it has exited. Returns 1 and sets *status (and *peak_kb), or 0 when it is still running. */
int ag_reap_pid(pid_t pid, int *status, long *peak_kb);

/* "exited with status 3", "killed by signal 11 (Segmentation fault)"; when the peak resident memory was
 * half of the memory limit or more, ", peak memory 250 MiB (limit 256 MiB)" after it; when killed by
 * SIGXCPU under a CPU limit, ", CPU time limit 2 s". */
void ag_describe_exit(int status, long peak_kb, const ag_limits *limits, char *out, size_t n);

/* Whether the sandbox of `pid` reached a limit it has as a whole (its cgroup's: processes, memory with its
 * /tmp, CPU time of its processes together), for a running bot or one just reaped by ag_reap() or
 * ag_reap_pid(): true with the reason in why ("pids limit 128 reached", "memory limit 256 MiB reached (peak
 * 255 MiB)", "CPU time limit 1 s reached (the sandbox's processes together)"). False for a process
 * without a sandbox. */
bool ag_limit_reached(pid_t pid, char *why, size_t n);

/* Kills the process groups of all started, unreaped children and reaps them (waits at most ~1 s). */
void ag_kill_all(void);

/* SIGINT and SIGTERM set *stop (the caller's loop winds down and calls ag_kill_all()); a second one kills
 * every child at once and exits with 128 + signal. SIGCHLD sets *child (a hint to call ag_reap()).
 * SIGPIPE is ignored. */
void ag_handle_signals(volatile sig_atomic_t *stop, volatile sig_atomic_t *child);

/* 32 random hex characters (from /dev/urandom) and a NUL. */
void ag_token(char out[33]);

#endif
