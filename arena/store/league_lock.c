/* arena/store/league_lock.c — the lock a league's coordinator holds while it plays the league, and its test
 * (contract in league_lock.h). */
#define _GNU_SOURCE /* flock */
#include "league_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

int store_league_lock_path(const char *db, int64_t league, char *out, size_t len)
{
    int n = snprintf(out, len, "%s.league-%lld.lock", db, (long long)league);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

int store_league_hold(const char *db, int64_t league, char *err, size_t errlen)
{
    char path[4096];
    if (store_league_lock_path(db, league, path, sizeof path) != 0) {
        snprintf(err, errlen, "%s: the path of the league's lock file is too long", db);
        return -1;
    }
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot create the league's lock file: %s", path, strerror(errno));
        return -1;
    }
    /* a reader's test holds a shared lock for an instant: wait that out, but not a file held for longer */
    int rc = -1;
    for (int tries = 0; tries < 500 && (rc = flock(fd, LOCK_EX | LOCK_NB)) != 0 && (errno == EWOULDBLOCK || errno == EINTR);
         tries++)
        nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
    if (rc != 0) {
        snprintf(err, errlen, "%s: cannot lock: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

void store_league_release(const char *db, int64_t league, int fd)
{
    if (fd < 0)
        return;
    char path[4096];
    if (store_league_lock_path(db, league, path, sizeof path) == 0)
        unlink(path); /* while still held: no reader finds the file unlocked while the league is played */
    close(fd);
}

int store_league_held(const char *db, int64_t league)
{
    char path[4096];
    if (store_league_lock_path(db, league, path, sizeof path) != 0) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? 0 : -1;
    int held;
    if (flock(fd, LOCK_SH | LOCK_NB) == 0) {
        flock(fd, LOCK_UN);
        held = 0;
    } else
        held = errno == EWOULDBLOCK ? 1 : -1;
    int e = errno;
    close(fd);
    errno = e;
    return held;
}
