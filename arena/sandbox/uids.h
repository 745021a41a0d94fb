/* arena/sandbox/uids.h — a uid of its own for each sandbox. The kernel counts some resources per user across every
 * namespace (inotify instances and watches, pipe buffers, pending signals, message queues, processes): sandboxes that
 * share a uid share those limits, and one bot could take them all from the others, and from any process of that user
 * on the host. So a caller that is root starts each sandbox as a uid of a reserved range that no account, no other
 * sandbox and no process of the host uses while the sandbox lives (its gid is the same number). Inside its user
 * namespace the bot still sees itself as nobody (65534).
 *
 * The range is ARENA_SANDBOX_UIDS=FIRST-LAST (default 2100000000-2100065535: above every range systemd hands out for
 * users and containers, below its "foreign" range and 2^31); a lab reserves it by giving no account or container
 * those ids. Which uid a sandbox holds is known machine-wide: a lock file per uid in /run/arena-uids (root's, 0700),
 * flock'ed by its holder for as long as the sandbox lives and released by the kernel however the holder ends, so that
 * coordinators, agent hosts and ladder workers of one machine never hand out the same uid twice. A uid some account
 * has (getpwuid) is skipped. A caller that is not root runs every sandbox as itself (an unprivileged user namespace
 * maps only its own uid): those limits are then shared with its user. */
#ifndef ARENA_SANDBOX_UIDS_H
#define ARENA_SANDBOX_UIDS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define UID_DEFAULT_FIRST 2100000000u
#define UID_DEFAULT_COUNT 65536u
#define UID_LOCKS "/run/arena-uids"

/* A uid held by a sandbox: uid, and the lock file that says so (-1 when none is held). */
typedef struct {
    uid_t uid;
    int lock;
} uid_lease;

/* Takes a free uid of the range. Returns 0, or -1 with the reason in err (a bad ARENA_SANDBOX_UIDS, no lock directory,
 * every uid of the range taken). Root only. */
int uid_take(uid_lease *l, char *err, size_t errlen);

/* Gives the uid back (its sandbox is gone); l->lock becomes -1. A lease without a lock is ignored. */
void uid_give(uid_lease *l);

/* Whether uid is one of the range's (a file it owns was made in a sandbox). */
bool uid_sandboxed(uid_t uid);

#endif
