/* arena/base/tail.c — the end of a log file, regular files only (contract in tail.h). */
#include "tail.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int tail_read(const char *path, size_t max, char **out, size_t *len, int64_t *skipped, char *err, size_t errlen)
{
    *out = NULL;
    *len = 0;
    *skipped = 0;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int e = fd < 0 ? errno : 0;
        if (fd >= 0)
            close(fd);
        snprintf(err, errlen, "%s", e == ELOOP ? "a symbolic link" : e ? strerror(e) : "not a regular file");
        return -1;
    }
    off_t from = st.st_size > (off_t)max ? st.st_size - (off_t)max : 0;
    char *buf = malloc(max + 1);
    if (!buf) {
        close(fd);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    size_t n = 0;
    ssize_t got;
    while (n < max && (got = pread(fd, buf + n, max - n, from + (off_t)n)) > 0) /* it may grow meanwhile: bounded */
        n += (size_t)got;
    close(fd);
    buf[n] = '\0';
    *out = buf;
    *len = n;
    *skipped = from;
    return 0;
}
