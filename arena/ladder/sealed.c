/* arena/ladder/sealed.c — sealing and removing read-only trees (sealed.h), recursively by directory descriptors. */
#include "sealed.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Calls itself on every subdirectory of the directory fd (which it closes); seal: chmod 0555 after the contents,
 * else chmod 0700 before them and unlink everything. Returns 0 or -1 with errno set. */
static int walk_dir(int fd, bool seal)
{
    if (!seal && fchmod(fd, 0700) != 0) {
        close(fd);
        return -1;
    }
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return -1;
    }
    int rc = 0;
    for (struct dirent *de; rc == 0 && (errno = 0, de = readdir(d));) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        int sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub >= 0)
            rc = walk_dir(sub, seal);
        else if (errno != ENOTDIR && errno != ELOOP)
            rc = -1;
        if (!seal && rc == 0)
            rc = unlinkat(dirfd(d), de->d_name, sub >= 0 ? AT_REMOVEDIR : 0);
    }
    if (rc == 0 && errno != 0)
        rc = -1;
    if (rc == 0 && seal)
        rc = fchmod(dirfd(d), 0555);
    int saved = errno;
    closedir(d);
    errno = saved;
    return rc;
}

int ld_seal_tree(const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 || walk_dir(fd, true) != 0) {
        snprintf(err, errlen, "%s: cannot make it read-only: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int ld_remove_tree(const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int rc;
    if (fd < 0)
        rc = errno == ENOENT ? 0 : (errno == ENOTDIR || errno == ELOOP) ? unlink(path) : -1;
    else
        rc = walk_dir(fd, false) == 0 ? rmdir(path) : -1;
    if (rc != 0)
        snprintf(err, errlen, "%s: cannot remove it: %s", path, strerror(errno));
    return rc;
}
