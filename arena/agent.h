/* arena/agent.h — agent processes: a bot's command line (split like a shell would, without running one),
 * its executable's path and SHA-256 (the agent's identity), starting it with posix_spawn in a process
 * group of its own with its output in a log file, and stopping it with everything it started.
 *
 * Every started process is remembered until it is reaped, so ag_kill_all() leaves no child behind; the
 * signal handlers installed by ag_handle_signals() call it on a second SIGINT/SIGTERM, and ag_cleanup()
 * is meant for the normal exit path. */
#ifndef ARENA_AGENT_H
#define ARENA_AGENT_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

#define AG_MAX_ARGS 64

typedef struct {
    char line[1024];          /* the command as given */
    int argc;
    char *argv[AG_MAX_ARGS + 1];
    char exe[4096];           /* argv[0] resolved through PATH (or against dir) */
    char dir[512];            /* working directory of the process; "" = the caller's */
    char sha256[65];          /* lowercase hex of the executable's contents */
    char store[2048];         /* backing storage of argv */
} ag_command;

/* Splits `line` into words (single and double quotes, backslash escapes; no expansions), resolves the
 * executable (a name without '/' is looked up in PATH; a relative path is taken from `dir` when dir is
 * given) and hashes it. `dir` (NULL or "" for none) becomes the process's working directory. Returns 0,
 * or -1 with a one-line reason in err ("'bin/rando': no such file"). */
int ag_command_parse(const char *line, const char *dir, ag_command *c, char *err, size_t errlen);

/* Starts the command with ARENA_ENDPOINT and ARENA_TOKEN set, `--endpoint endpoint` appended, stdin from
 * /dev/null and stdout+stderr appended to `log_path`, in a new process group (its id is the pid).
 * Returns the pid, or -1 with a reason in err. */
pid_t ag_spawn(const ag_command *c, const char *endpoint, const char *token, const char *log_path, char *err,
               size_t errlen);

/* SIGKILL to the process group of `pid` (the agent and anything it started). */
void ag_kill(pid_t pid);

/* Reaps one exited child without blocking. Returns its pid and sets *status, or 0 when none is left. */
pid_t ag_reap(int *status);

/* Reaps `pid` when it has exited. Returns 1 and sets *status, or 0 when it is still running. */
int ag_reap_pid(pid_t pid, int *status);

/* "exited with status 3", "killed by signal 11 (Segmentation fault)". */
void ag_describe_exit(int status, char *out, size_t n);

/* Kills the process groups of all started, unreaped children and reaps them (waits at most ~1 s). */
void ag_kill_all(void);

/* SIGINT and SIGTERM set *stop (the caller's loop winds down and calls ag_kill_all()); a second one kills
 * every child at once and exits with 128 + signal. SIGCHLD sets *child (a hint to call ag_reap()).
 * SIGPIPE is ignored. */
void ag_handle_signals(volatile sig_atomic_t *stop, volatile sig_atomic_t *child);

/* 32 random hex characters (from /dev/urandom) and a NUL. */
void ag_token(char out[33]);

#endif
