/* arena/sandbox/disk.h — the bound of a bot's writable directory: what its sandbox may keep there (`disk_mb` MiB of
 * blocks and `files` entries) while it runs. The directory is on the host's disk and keeps what the bot writes from
 * one process to the next; nothing but a measure bounds it, so it is measured:
 *
 *   - at each start (dk_claim()): the tree, never following a link; a directory already past its bound is refused
 *     (the bot's doing: its games are forfeited until the lab clears it); when the caller is root every entry is
 *     handed to the sandbox's own uid (uids.h), so that the bot may write what it wrote before under another uid and
 *     no other sandbox may;
 *   - while it runs, by a watcher thread every DK_INTERVAL_MS (longer when a walk is slow, so that watching costs at
 *     most about a tenth of a CPU): the tree (st_blocks of every entry; a file with several links counts for each),
 *     and the files the sandbox's processes keep open or mapped after removing them (/proc/PID/fd and map_files of
 *     the processes of its cgroup), which take room on the disk without a name. A walk that sees a directory change
 *     while it measures starts again; DK_UNSTEADY walks in a row that do are a verdict of their own, as a bot could
 *     move a tree about to stay out of sight.
 *
 * A bot past a bound is killed (and forfeits) within about an interval of reaching it; each file it writes is also
 * capped at the bound by RLIMIT_FSIZE (sandbox.c), so one interval's writing stays within one file's size. */
#ifndef ARENA_SANDBOX_DISK_H
#define ARENA_SANDBOX_DISK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cgroup.h"

#define DK_INTERVAL_MS 100
#define DK_UNSTEADY 5
#define DK_MAX_DEPTH 64 /* directories deeper than this are past the bound */

/* What a directory holds. */
typedef struct {
    uint64_t bytes;   /* blocks of its entries (st_blocks), and of its sandbox's removed files still open or mapped */
    uint64_t entries; /* files, directories and links below it */
} dk_usage;

/* Measures `dir` at a sandbox's start; with uid != (uid_t)-1, makes uid:gid the owner of it and of every entry below
 * it (links themselves, never what they point to). Returns 0, or -1 with the reason in err: past its bound ("its
 * directory DIR holds 600 MiB, more than disk_mb 512: clear it"; *bots set), or it cannot be read. */
int dk_claim(const char *dir, uid_t uid, gid_t gid, unsigned disk_mb, unsigned files, dk_usage *u, bool *bots,
             char *err, size_t errlen);

typedef struct dk_watch dk_watch;

/* Watches `dir` for the sandbox of cgroup g (its processes' removed files) against disk_mb and files (0: none) until
 * dk_unwatch(); a verdict writes to the eventfd `notify`. NULL with the reason in err. */
dk_watch *dk_watch_start(const char *dir, const cg_group *g, unsigned disk_mb, unsigned files, int notify, char *err,
                         size_t errlen);

/* The watch's verdict: true with the reason in why ("disk limit 512 MiB reached (its directory holds 530 MiB)",
 * "files limit 10000 reached (its directory holds 10321 entries)", "its directory kept changing while it was
 * measured (5 walks in a row)"). */
bool dk_verdict(dk_watch *w, char *why, size_t n);

/* Stops watching; w is gone. NULL is ignored. */
void dk_unwatch(dk_watch *w);

/* Copies the tree at src into dst (made, 0755; it must not exist), never following a link (links are copied as links)
 * and leaving out what is neither a file, a directory nor a link; modes are kept but setuid, setgid and sticky bits.
 * At most disk_mb MiB and `files` entries (0: no bound). Returns 0, or -1 with the reason in err (dst is then removed). */
int dk_copy(const char *src, const char *dst, unsigned disk_mb, unsigned files, char *err, size_t errlen);

/* Removes the tree at dir, never following a link. Returns 0, or -1 (errno set). */
int dk_remove(const char *dir);

/* Measures dir now, as the watcher does (for tests and benchmarks): 0, or -1 (errno set). */
int dk_measure(const char *dir, dk_usage *u);

#endif
