/* arena/ladder/jobsecret.c — each job's league secret from the ladder's (jobsecret.h). */
#include "jobsecret.h"

#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "session.h"

void ld_secret_hex(const uint8_t key[SEEDS_KEY_BYTES], char out[34])
{
    sodium_bin2hex(out, 33, key, SEEDS_KEY_BYTES);
    out[32] = '\n';
    out[33] = '\0';
}

int ld_secret_make(const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return errno == EEXIST ? 0 : (snprintf(err, errlen, "%s: cannot make the ladder's secret: %s", path,
                                                strerror(errno)), -1);
    uint8_t key[SEEDS_KEY_BYTES];
    char hex[34];
    randombytes_buf(key, sizeof key);
    ld_secret_hex(key, hex);
    sodium_memzero(key, sizeof key);
    int rc = write(fd, hex, 33) == 33 ? 0 : -1;
    close(fd);
    if (rc != 0)
        snprintf(err, errlen, "%s: cannot write the ladder's secret", path);
    return rc;
}

int ld_job_secret(const ld_config *c, int64_t job, uint8_t key[SEEDS_KEY_BYTES], char *err, size_t errlen)
{
    uint8_t ladder[SEEDS_KEY_BYTES];
    if (sodium_init() < 0 || ld_secret_make(c->secret, err, errlen) != 0 ||
        ss_read_secret(c->secret, ladder, err, errlen) != 0)
        return -1;
    char what[48];
    int n = snprintf(what, sizeof what, "ladder job %lld", (long long)job);
    crypto_generichash(key, SEEDS_KEY_BYTES, (const unsigned char *)what, (size_t)n, ladder, sizeof ladder);
    sodium_memzero(ladder, sizeof ladder);
    return 0;
}
