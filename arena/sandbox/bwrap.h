/* arena/sandbox/bwrap.h — the sandbox every untrusted bot process runs in, built with bubblewrap
 * (bwrap): new user, pid, ipc, uts, cgroup and (unless the agent may use the network) net namespaces, no
 * further user namespaces, a new session, and a mount namespace holding a read-only system (/usr, /etc and
 * the /bin, /lib links), a private /tmp, /proc of its own pid namespace, a minimal /dev, its executable,
 * the files and directories its command line names (those that would show a hidden path are left out),
 * the paths its config lets it read, its working directory (writable
 * only if allowed) and the one ipc socket of the coordinator, at /run/arena.sock. Nothing else of the
 * machine is there: not the database, the config, the logs, other bots' files or processes, or the
 * coordinator. Process 1 is bin/arena-init, found next to the running program (or at $ARENA_INIT). Run
 * by root, the coordinator starts the sandbox as the unprivileged user SB_UID; the bot
 * sees itself as that user in any case. A seccomp filter refuses the system calls a bot has no use for
 * and that reach past the namespaces (ptrace, process_vm_*, keyrings, bpf, perf, userfaultfd, mount,
 * namespaces, module and reboot calls). Process 1 of the sandbox is bin/arena-init, which runs the bot and
 * exits with its status, so the bot's peak memory reaches the coordinator. docs/reliability.md has the
 * threat model. */
#ifndef ARENA_SANDBOX_BWRAP_H
#define ARENA_SANDBOX_BWRAP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "sandbox.h"

#define BW_SOCKET "/run/arena.sock" /* where the bot finds its endpoint (the ipc socket bound there) */
#define BW_INIT "/run/arena-init"   /* process 1 of the sandbox (bin/arena-init): reaps, reports the bot's status */

/* Whether this machine can start sandboxes: bwrap found and a trial sandbox ran (checked once, then
 * remembered). Returns 0, or -1 with a one-line reason naming the fix in err. */
int bw_available(char *err, size_t errlen);

/* The path of bwrap (after bw_available() succeeded). */
const char *bw_path(void);

/* Paths no bot may see whatever its config says (the database, the config, the logs): a bind of one of
 * them, or of anything inside one, is refused. Paths are copied; up to SB_MAX_PATHS. */
void bw_deny(const char *path);

#define BW_FIRST_FD 3 /* the child holds the descriptors of a prepared sandbox from here on */
#define BW_MAX_FDS 96  /* the seccomp filter, the socket, the directory, the program, its files, `read` */

/* What starts one sandboxed bot: bwrap's argument vector, and the descriptors it refers to. Every path
 * the bot is shown is resolved here one component at a time (O_PATH, O_NOFOLLOW, symbolic links followed by
 * hand) and handed over as a descriptor. bwrap, running as the sandbox user, mounts it through the path the
 * descriptor names, so that user must be able to walk to it (checked, see bw_prepare()). */
typedef struct {
    char **argv;                    /* in the caller's storage; argv[argc] = NULL */
    int argc;
    int fds[BW_MAX_FDS];            /* the child must hold fds[k] at BW_FIRST_FD + k when it execs bwrap */
    int n_fds;
    uid_t uid;                      /* who bwrap runs as, when the caller is root (uids.h) */
    gid_t gid;
} bw_command;

/* Prepares the sandbox that runs `argv` (argv[0] resolved to `exe`) under policy p, with `dir` as its
 * working directory ("" = the coordinator's, shown empty but for the files bound into it), the ipc socket
 * at `socket_path` (NULL: none) bound to SB_SOCKET, and the seccomp filter. Strings live in `store`, words
 * in `words` (capacity max). Returns 0, or -1 with a reason in err naming the path: one it may not see, a
 * missing file, too long, a symbolic link on the way in a directory a bot can write (its own writable
 * `dir`, or, when the coordinator is root, one the sandbox user may write to): such a link is never
 * followed; a file the sandbox user cannot reach (a directory on the way it may not search, by its mode
 * bits) or use (the program not executable, a script or a `read` path not readable); a script whose
 * interpreter (#! line) is missing, outside the sandbox (with the `read =` that would show it) or not
 * executable, or whose `#!/usr/bin/env NAME` names no program in the bot's PATH. bw_release() closes the
 * descriptors either way. *fault is SB_FAULT_BOT for a refused link the bot may have planted, SB_FAULT_SETUP for
 * the rest. */
int bw_prepare(const sb_policy *p, const sb_limits *l, uid_t uid, gid_t gid, const char *exe, char *const argv[],
               const char *dir, const char *socket_path, bw_command *out, char **words, int max, char *store,
               size_t storelen, sb_fault *fault, char *err, size_t errlen);
void bw_release(bw_command *c);

/* In the child, before it execs bwrap (async-signal-safe): puts the descriptors in place, leaves the
 * coordinator's working directory and, when the coordinator is root, becomes c->uid/c->gid with no
 * supplementary groups. The caller then closes every other descriptor from BW_FIRST_FD + c->n_fds on.
 * Returns 0 or -1 (errno set). */
int bw_enter(const bw_command *c);

/* Reads the #! line of a script: its interpreter into interp and the interpreter's first argument ("" when
 * none) into arg. Returns 1 for a script, 0 for another file, -1 when exe cannot be read (errno set). */
int bw_interpreter(const char *exe, char *interp, size_t n, char *arg, size_t argn);


#endif
