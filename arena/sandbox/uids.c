/* arena/sandbox/uids.c — the range of sandbox uids and the machine-wide leases on them (contract in uids.h). */
#include "uids.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static uid_t first;
static unsigned count;
static int range_read; /* 0 not yet, 1 read, -1 bad */
static char range_why[256];

static int read_range(char *err, size_t errlen)
{
    if (range_read == 0) {
        const char *v = getenv("ARENA_SANDBOX_UIDS");
        first = UID_DEFAULT_FIRST;
        count = UID_DEFAULT_COUNT;
        range_read = 1;
        if (v && *v) {
            char *end;
            unsigned long a = strtoul(v, &end, 10), b = *end == '-' ? strtoul(end + 1, &end, 10) : 0;
            if (*end || a < 1000 || b < a || b >= 4294967295ul || b - a >= (1ul << 24)) {
                snprintf(range_why, sizeof range_why, "ARENA_SANDBOX_UIDS '%s': expected FIRST-LAST, uids from 1000 "
                         "to 4294967294, at most 16777216 of them", v);
                range_read = -1;
            } else {
                first = (uid_t)a;
                count = (unsigned)(b - a + 1);
            }
        }
    }
    if (range_read < 0)
        snprintf(err, errlen, "%s", range_why);
    return range_read > 0 ? 0 : -1;
}

bool uid_sandboxed(uid_t uid)
{
    char err[sizeof range_why];
    return read_range(err, sizeof err) == 0 && uid >= first && uid - first < count;
}

/* The lock directory, root's and 0700, made when missing. Returns its descriptor, or -1 with the reason in err. */
static int lock_dir(char *err, size_t errlen)
{
    static int dir = -1;
    if (dir >= 0)
        return dir;
    if (mkdir(UID_LOCKS, 0700) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot make %s (the sandboxes' uid leases): %s", UID_LOCKS, strerror(errno));
        return -1;
    }
    int fd = open(UID_LOCKS, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_uid != 0 || (st.st_mode & 077)) {
        snprintf(err, errlen, "%s (the sandboxes' uid leases) %s", UID_LOCKS,
                 fd < 0 ? strerror(errno) : "is not root's own directory (mode 0700): remove it");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return dir = fd;
}

int uid_take(uid_lease *l, char *err, size_t errlen)
{
    l->lock = -1;
    int dir;
    if (read_range(err, errlen) != 0 || (dir = lock_dir(err, errlen)) < 0)
        return -1;
    /* from the first up: the lowest free uid, so that lock files are made only for as many sandboxes as ever lived
     * at once on the machine */
    for (unsigned k = 0; k < count; k++) {
        uid_t uid = first + (uid_t)k;
        char name[16];
        snprintf(name, sizeof name, "%u", (unsigned)uid);
        int fd = openat(dir, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0)
            continue;
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
            if (!getpwuid(uid)) { /* nobody's account */
                l->uid = uid;
                l->lock = fd;
                return 0;
            }
        }
        close(fd);
    }
    snprintf(err, errlen, "every uid of the sandboxes' range %u-%u is in use (ARENA_SANDBOX_UIDS)", (unsigned)first,
             (unsigned)(first + count - 1));
    return -1;
}

void uid_give(uid_lease *l)
{
    if (l->lock >= 0)
        close(l->lock); /* the kernel releases the flock */
    l->lock = -1;
}
