/* arena/coordinator/agent.h — agents as commands: a bot's command line (split like a shell would, without running
 * one), its executable's path and SHA-256 (the agent's identity), its limits and sandbox policy with their defaults,
 * its environment, and starting it through the sandbox library (sandbox.h: the process, its limits and its sandbox).
 * Also the coordinator's signal handlers: the first SIGINT/SIGTERM winds a run down, a second kills every bot at
 * once. */
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
#define AG_DEFAULT_DISK_MB 512u   /* a writable working directory: MiB it may hold */
#define AG_DEFAULT_FILES 10000u   /* and entries */

typedef struct {
    char line[AG_LINE_MAX];   /* the command as given */
    int argc;
    char *argv[AG_MAX_ARGS + 1];
    char exe[4096];           /* argv[0] resolved through PATH (or against dir) */
    char dir[512];            /* working directory of the process; "" = the caller's */
    char sha256[65];          /* lowercase hex of the executable's contents */
    sb_limits limits;         /* the defaults after ag_command_parse(); the caller may change them (sandbox.h) */
    sb_policy sandbox;        /* on, no network, read-only directory after ag_command_parse(); the caller may
                               * change it (sandbox.h) */
    char store[AG_LINE_MAX + AG_MAX_ARGS]; /* backing storage of argv */
} ag_command;

/* Splits `line` into words (single and double quotes, backslash escapes; no expansions), resolves the
 * executable (a name without '/' is looked up in PATH; a relative path is taken from `dir` when dir is
 * given) and hashes it. `dir` (NULL or "" for none) becomes the process's working directory. Returns 0,
 * or -1 with a one-line reason in err ("'bin/rando': no such file"). */
int ag_command_parse(const char *line, const char *dir, ag_command *c, char *err, size_t errlen);

/* Starts the command (sb_start(), sandbox.h) with `--endpoint ENDPOINT` appended and an environment made from scratch:
 * PATH, HOME, LANG, the sanitizers' *SAN_OPTIONS when set, what c->sandbox.env names, ARENA_ENDPOINT, ARENA_TOKEN and
 * the NAME=value strings of `extra_env` (a NULL-terminated list, or NULL). ENDPOINT is `endpoint`, or for a sandboxed
 * bot of an ipc:// endpoint SB_ENDPOINT (the socket shown in its sandbox). Returns the pid, or -1 with the reason in err
 * and whose fault it is in *fault (NULL: not told). */
pid_t ag_spawn(const ag_command *c, const char *endpoint, const char *token, char *const extra_env[],
               int out_fd, sb_fault *fault, char *err, size_t errlen);

/* "exited with status 3", "killed by signal 11 (Segmentation fault)"; when the peak resident memory was
 * half of the memory limit or more, ", peak memory 250 MiB (limit 256 MiB)" after it; when killed by
 * SIGXCPU under a CPU limit, ", CPU time limit 2 s"; by SIGXFSZ (a file past RLIMIT_FSIZE, which a writable
 * directory's bound sets), ", a file past its disk limit 512 MiB". */
void ag_describe_exit(int status, long peak_kb, const sb_limits *limits, char *out, size_t n);

/* SIGINT and SIGTERM set *stop (the caller's loop winds down and calls ag_kill_all()); a second one kills
 * every child at once and exits with 128 + signal. SIGCHLD sets *child (a hint to call ag_reap()).
 * SIGPIPE is ignored. */
void ag_handle_signals(volatile sig_atomic_t *stop, volatile sig_atomic_t *child);

/* 32 random hex characters (from /dev/urandom) and a NUL. */
void ag_token(char out[33]);

#endif
