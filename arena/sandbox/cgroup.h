/* arena/sandbox/cgroup.h — the control groups that bound a bot's sandbox as a whole: one group per sandbox
 * for its processes and threads (pids), its memory with its children's and its private /tmp's (a tmpfs whose
 * pages are charged to the group), its CPU time (checked by the coordinator) and its share of the CPU (equal
 * for every sandbox, and at most one CPU each). cgroup v2 is used where this process's cgroup is a delegated
 * subtree (writable, with the pids, memory and cpu controllers); cgroup v1 where the pids, memory, cpu and
 * cpuacct hierarchies are mounted and writable (as root).
 *
 * Layout: a parent group per coordinator, arena-PID-RANDOM, in each hierarchy below this process's own
 * group, and a child sb-N per sandbox. The child process of a sandbox joins its groups before it execs
 * bwrap, so everything the bot starts is inside. A watcher process (bin/arena-init --cgroup-watch, in a
 * session of its own, started before the first group is made) holds the read end of a pipe whose write end
 * only the coordinator holds: when the coordinator dies, however (SIGKILL included), the watcher kills
 * every process in the coordinator's groups and removes them. At start-up, groups arena-PID-* of a PID that
 * is gone are removed the same way. */
#ifndef ARENA_SANDBOX_CGROUP_H
#define ARENA_SANDBOX_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The limits of one sandbox; 0 = none. */
typedef struct {
    unsigned pids;        /* processes and threads at once (pids.max) */
    unsigned memory_mb;   /* memory of its processes and its /tmp, MiB (memory.limit_in_bytes / memory.max) */
    unsigned cpu_seconds; /* CPU time of its processes together; cg_exceeded() says when it is used up */
} cg_limits;

/* One sandbox's group: id < 0 is none. */
typedef struct {
    int id;
    cg_limits limits;
} cg_group;

/* Whether sandboxes can be bounded: finds the hierarchy (v2, else v1), removes stale groups of dead
 * coordinators, starts the watcher and makes this coordinator's parent group (once; then remembered).
 * Returns 0, or -1 with a one-line reason naming the fix in err. */
int cg_available(char *err, size_t errlen);

/* Makes the group of a new sandbox with these limits (cg_available() succeeded). Returns 0, or -1 with a
 * reason in err. */
int cg_create(const cg_limits *limits, cg_group *g, char *err, size_t errlen);

/* In the child, between fork and exec (async-signal-safe): moves the calling process into g. Returns 0, or
 * -1 (errno set). */
int cg_enter(const cg_group *g);

/* Whether g reached one of its limits: the reason in why ("pids limit 128 reached", "memory limit 256 MiB
 * reached (peak 255 MiB)", "CPU time limit 1 s reached (the sandbox's processes together)"). Reads the
 * group's counters (a few small files). */
bool cg_exceeded(const cg_group *g, char *why, size_t n);

/* The processes (not threads) in g now, up to max, into out. Returns how many (0 when it cannot be read). Safe to call
 * from another thread while g lives. */
int cg_procs(const cg_group *g, pid_t *out, int max);

/* Kills every process left in g and removes it; g->id becomes -1. A group that cannot be removed yet (a
 * process not yet reaped) is retried on the next call and removed by the watcher at the end. */
void cg_destroy(cg_group *g);

/* The watcher's pid (0 before it is started): a child of this process that is none of its bots. */
pid_t cg_watcher(void);

#endif
