/* arena/sandbox/sandbox.h — bot processes and what bounds them: the one way the coordinator and an agent host start an
 * untrusted program. sb_start() makes a sandbox with the program's limits and starts the program in it, and returns its
 * pid; sb_bound() is the sandbox's verdict (whether the bot went past one of its bounds), asked while it runs and just
 * after it is reaped; sb_reap() reaps it and takes its sandbox down with everything left in it.
 *
 * What a sandboxed bot gets, each promise kept by one module of this library (docs/reliability.md lists them with
 * their tests):
 *
 *   what it sees     bwrap.h: namespaces of its own, a read-only system, its own files only, no network, a seccomp filter;
 *                    every writable mount bounded (/tmp and /dev/shm of tmp_mb) or read-only (/, /run, /dev)
 *   what it uses     cgroup.h: processes, memory (its tmpfs pages included), CPU time and an equal share of one CPU, for
 *                    the sandbox as a whole; rlimits per process: address space, CPU time, open files
 *   how it talks     gate.h: an endpoint of its own, relayed to the caller's socket, with at most 4 connections at once and
 *                    64 in all: no bot can make the caller run out of descriptors
 *   what it keeps    disk.h: its writable working directory, measured while it runs (disk_mb, files)
 *   who it is        uids.h: a uid of its own when the caller is root, so the kernel's per-user limits are its own
 *   what it writes   botlog.h: its output through a pipe the caller reads, up to log_mb
 *
 * A program with policy.off runs as a plain process (trusted bots only): the rlimits, a fresh environment, its
 * output through the caller's pipe and the process-group clean-up, nothing else.
 *
 * Every started process is remembered until it is reaped, so sb_kill_all() leaves no child behind; a bot is
 * killed by the kernel when the caller dies (even by SIGKILL). One thread. */
#ifndef ARENA_SANDBOX_SANDBOX_H
#define ARENA_SANDBOX_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define SB_UID 65534 /* nobody: who a bot sees itself as in its sandbox */
#define SB_GID 65534 /* nogroup */
#define SB_MAX_PATHS 16
#define SB_MAX_ENV 16
#define SB_ENDPOINT "ipc:///run/arena.sock" /* the endpoint a sandboxed bot is told */

/* The limits of a bot: per process (rlimits, set before exec and inherited by whatever it starts) and for its sandbox
 * as a whole. 0 = none. */
typedef struct {
    unsigned memory_mb;       /* RLIMIT_AS per process, and the sandbox's memory (its tmpfs pages included), MiB */
    unsigned cpu_seconds;     /* RLIMIT_CPU per process (SIGXCPU, then SIGKILL), and the sandbox's CPU time together */
    unsigned open_files;      /* RLIMIT_NOFILE */
    unsigned pids;            /* processes and threads of the sandbox at once */
    unsigned tmp_mb;          /* the size of the sandbox's private /tmp, MiB */
    unsigned log_mb;          /* what one process may write to its log, MiB; the rest is dropped (botlog.h) */
    unsigned disk_mb;         /* what a writable working directory may hold, MiB (disk.h); also each file's size */
    unsigned files;           /* entries a writable working directory may hold (disk.h) */
} sb_limits;

/* What an agent's config allows beyond the defaults. */
typedef struct {
    bool off;                       /* sandbox = off: a trusted bot, started as a plain process */
    bool network;                   /* network = true: the host's network (else none, not even loopback) */
    bool writable;                  /* writable = true: its working directory is writable (else read-only) */
    int n_read;
    char read[SB_MAX_PATHS][512];   /* read = ...: more paths it may read */
    int n_env;
    char env[SB_MAX_ENV][256];      /* env = ...: NAME (taken from the coordinator's environment) or NAME=value */
} sb_policy;

/* Who is at fault when a program cannot be started. */
typedef enum {
    SB_FAULT_NONE = 0,
    SB_FAULT_SETUP,  /* the config or the machine (a missing program, a path the sandbox may not show, no cgroup) */
    SB_FAULT_BOT,    /* the bot's own doing in an earlier process (a symbolic link it planted in its directory) */
} sb_fault;

/* One program to start. */
typedef struct {
    const char *exe;          /* the program, resolved (ag_command_parse) */
    char *const *argv;        /* its arguments, argv[0] as given; NULL-terminated */
    char *const *env;         /* its whole environment; NULL-terminated */
    const char *dir;          /* its working directory; "" = the caller's (shown empty in a sandbox) */
    const sb_policy *policy;
    const sb_limits *limits;
    const char *socket;       /* the caller's ipc socket (a path) a sandbox shows at SB_ENDPOINT; NULL: none */
    int out_fd;               /* its stdout and stderr (the write end of its log's pipe) */
} sb_spec;

/* Whether this machine can start sandboxes that are bounded as a whole: bwrap, a trial sandbox and a writable cgroup
 * hierarchy (checked once, then remembered). Returns 0, or -1 with a one-line reason naming the fix in err. */
int sb_available(char *err, size_t errlen);

/* Paths no bot may see whatever its config says (the database, the config, the logs): a sandbox that would show one
 * of them, or anything inside one, is refused. Up to SB_MAX_PATHS; copied. */
void sb_deny(const char *path);

/* Starts the program: stdin from /dev/null, stdout and stderr spec->out_fd, no other descriptor of the caller's open,
 * default signal dispositions and an empty signal mask, its limits set, in a process group of its own (its id is the
 * pid), SIGKILL as its parent-death signal; unless policy->off, as bwrap running it in its sandbox (bwrap.h) in a
 * cgroup of its own (cgroup.h), with its own endpoint relayed to spec->socket (gate.h), its writable directory
 * measured (disk.h), and, when the caller is root, as a uid of its own (uids.h; the processes of one writable
 * directory share one, which owns the directory while they live). Returns the pid once the program runs (its exec
 * succeeded), or -1 with the reason in err and whose fault it is in *fault (NULL: not told). */
pid_t sb_start(const sb_spec *spec, sb_fault *fault, char *err, size_t errlen);

/* The sandbox's verdict on its bot. */
typedef enum {
    SB_WITHIN = 0,  /* within its bounds (or not sandboxed) */
    SB_LIMIT,       /* it reached a limit of its sandbox as a whole: "pids limit 128 reached", "memory limit 256 MiB
                     * reached (peak 255 MiB)", "CPU time limit 1 s reached (the sandbox's processes together)", "disk
                     * limit 512 MiB reached (its directory holds 530 MiB)", "files limit 10000 reached (...)" */
    SB_TRANSPORT,   /* it misused its endpoint (gate.h): "opened more than 64 connections to the arena", "its
                     * connection was dropped by the transport: ..." */
} sb_verdict;

/* The verdict on the sandbox of `pid`, running or reaped by one of the last sb_reap() or sb_reap_pid() calls, with
 * the reason in why. Reads a few small files of its cgroup. */
sb_verdict sb_bound(pid_t pid, char *why, size_t n);

/* A descriptor to poll (POLLIN) that becomes readable when a sandbox may have a new verdict, so that the caller asks
 * sb_bound() at once rather than at its next look (it is cleared by sb_woken()); -1 while no sandbox has one to give. */
int sb_wake_fd(void);
void sb_woken(void);

/* SIGKILL to the process group of `pid` (the program and anything it started). */
void sb_kill(pid_t pid);

/* Makes this process the reaper of its descendants' orphans (PR_SET_CHILD_SUBREAPER), so a bot's children that left
 * its process group become ours when the bot dies, and are killed when it is reaped. */
void sb_adopt_orphans(void);

/* Reaps one exited child without blocking, taking its sandbox down (its cgroup and anything left in it). Returns its
 * pid and sets *status (a sandboxed bot killed by a signal is reported as killed by it, not as bwrap's exit status 128
 * + N) and *peak_kb (its peak resident memory in KiB, when not NULL), or 0 when none is left. Orphans adopted through
 * sb_adopt_orphans() are killed and reaped here without being returned. */
pid_t sb_reap(int *status, long *peak_kb);

/* Reaps `pid` when it has exited, as sb_reap(). Returns 1, or 0 when it is still running. */
int sb_reap_pid(pid_t pid, int *status, long *peak_kb);

/* Kills the process groups of all started, unreaped children and reaps them (waits at most ~1 s). */
void sb_kill_all(void);

/* Async-signal-safe: SIGKILL to the process group of every started, unreaped child (a signal handler's last act). */
void sb_kill_now(void);

/* bwrap exits with 128 + N when the bot was killed by signal N: N for such an exit status, 0 otherwise. */
int sb_signal_of(int exit_status);

#endif
