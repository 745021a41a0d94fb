/* arena/ladder/submission.c — a submission from its bytes to the league agent that runs it (submission.h). */
#include "submission.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unpack.h"
#include "variant.h"

void *ld_read_file(const char *path, uint64_t max, size_t *len, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(err, errlen, "%s: cannot read it: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: not a file", path);
        close(fd);
        return NULL;
    }
    char *buf = (uint64_t)st.st_size <= max ? malloc(max + 1) : NULL;
    size_t n = 0;
    for (ssize_t got = 1; buf && got > 0 && n <= max; n += (size_t)got)
        if ((got = read(fd, buf + n, max + 1 - n)) < 0)
            break;
    close(fd);
    if (!buf || n > max) {
        snprintf(err, errlen, "%s: over the limit of %llu bytes for an archive", path, (unsigned long long)max);
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

int ld_submit_archive(const void *data, size_t len, const char *name, const ld_limits *lim, const char *store,
                      ld_submission *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (ld_inspect(data, len, name, lim, &out->in, err, errlen) != 0)
        return -1;
    return ld_unpack(data, len, name, lim, out->in.sha256, store, out->dir, sizeof out->dir, err, errlen);
}

void ld_games_text(uint32_t variants, const cfg_games *boards, char *v, size_t vlen, char *b, size_t blen)
{
    size_t n = 0;
    v[0] = b[0] = '\0';
    for (int k = 0; k < HX_VARIANT_COUNT; k++)
        if (variants & (1u << k) && n < vlen)
            n += (size_t)snprintf(v + n, vlen - n, "%s%s", n ? ", " : "", hx_variant_name((hx_variant)k));
    n = 0;
    for (int i = 0; i < boards->n_boards && n < blen; i++)
        n += (size_t)snprintf(b + n, blen - n, "%s%dx%d", n ? ", " : "", boards->boards[i][0], boards->boards[i][1]);
}

int ld_agent_section(const char *section, const char *store_name, const char *dir, const char *program,
                     const char *args, uint32_t variants, const cfg_games *boards, char *out, size_t outlen)
{
    if (!ld_name_ok(section) || !store_name[0] || strlen(store_name) >= CFG_NAME_MAX ||
        strspn(store_name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") != strlen(store_name) || strpbrk(dir, "\n\r\"'\\ \t#;") || strchr(args, '\n') ||
        strchr(args, '\r') || strpbrk(program, "\n\r\"'\\ \t#;"))
        return -1;
    char v[512], b[512];
    ld_games_text(variants, boards, v, sizeof v, b, sizeof b);
    int n = snprintf(out, outlen,
                     "[agent %s]\nname = %s\ncommand = ./%s\nargs = %s\ndir = %s\nvariants = %s\nboards = %s\n"
                     "sandbox = on\nnetwork = false\nwritable = false\n\n",
                     section, store_name, program, args, dir, v, b);
    return n < 0 || (size_t)n >= outlen ? -1 : n;
}
