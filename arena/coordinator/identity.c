/* arena/coordinator/identity.c — an agent's identity from its program and the files it names (identity.h). */
#include "identity.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sha2.h>

/* `path` as the bot sees it from its working directory (dir, "" for the coordinator's). */
static void resolve(const ag_command *c, const char *path, char *out, size_t size)
{
    if (path[0] == '/' || !c->dir[0])
        snprintf(out, size, "%s", path);
    else
        snprintf(out, size, "%s/%s", c->dir, path);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds the regular files under directory `abs` (relative names from `rel`) to the running hash h: "REL SHA\n" each,
 * in name order; symbolic links are skipped. *count counts files against ID_MAX_DIR_FILES. */
static int hash_dir(SHA2_CTX *h, const char *abs, const char *rel, long *count, char *err, size_t errlen)
{
    DIR *d = opendir(abs);
    if (!d) {
        snprintf(err, errlen, "'%s': %s", abs, strerror(errno));
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (n == cap) {
            char **grown = realloc(names, sizeof *names * (cap = cap ? 2 * cap : 64));
            if (!grown)
                rc = -1;
            else
                names = grown;
        }
        if (rc == 0 && !(names[n++] = strdup(e->d_name)))
            rc = -1;
    }
    closedir(d);
    if (rc == 0 && n > 0) /* an empty directory has no list to sort (qsort of NULL is undefined) */
        qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        char child[PATH_MAX], sub[PATH_MAX], sha[SHA256_DIGEST_STRING_LENGTH];
        snprintf(child, sizeof child, "%s/%s", abs, names[i]);
        snprintf(sub, sizeof sub, "%s%s%s", rel, rel[0] ? "/" : "", names[i]);
        struct stat st;
        if (lstat(child, &st) != 0 || S_ISLNK(st.st_mode))
            continue;
        if (S_ISDIR(st.st_mode)) {
            rc = hash_dir(h, child, sub, count, err, errlen);
        } else if (S_ISREG(st.st_mode)) {
            if (++*count > ID_MAX_DIR_FILES) {
                snprintf(err, errlen, "'%s': more than %d files", abs, ID_MAX_DIR_FILES);
                rc = -1;
            } else if (!SHA256File(child, sha)) {
                snprintf(err, errlen, "'%s': cannot read: %s", child, strerror(errno));
                rc = -1;
            } else {
                SHA256Update(h, (const uint8_t *)sub, strlen(sub));
                SHA256Update(h, (const uint8_t *)" ", 1);
                SHA256Update(h, (const uint8_t *)sha, strlen(sha));
                SHA256Update(h, (const uint8_t *)"\n", 1);
            }
        }
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    if (rc != 0 && !err[0])
        snprintf(err, errlen, "'%s': out of memory", abs);
    return rc;
}

/* Hashes the file or directory `path` names into f; 1 when it names one, 0 when it is no existing path (an
 * ordinary argument), -1 on error. */
static int hash_path(const ag_command *c, const char *path, id_file *f, char *err, size_t errlen)
{
    char abs[PATH_MAX];
    struct stat st;
    resolve(c, path, abs, sizeof abs);
    if (!path[0] || stat(abs, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
        return 0;
    snprintf(f->path, sizeof f->path, "%s", path);
    if (S_ISREG(st.st_mode)) {
        if (SHA256File(abs, f->sha256))
            return 1;
        snprintf(err, errlen, "'%s': cannot read: %s", path, strerror(errno));
        return -1;
    }
    SHA2_CTX h;
    SHA256Init(&h);
    long count = 0;
    err[0] = '\0';
    if (hash_dir(&h, abs, "", &count, err, errlen) != 0)
        return -1;
    SHA256End(&h, f->sha256);
    return 1;
}

int id_hash(ag_command *c, id_files *out, char *err, size_t errlen)
{
    out->n = 0;
    int n_args = c->argc - 1 + c->sandbox.n_read;
    for (int i = 0; i < n_args; i++) {
        const char *path = i < c->argc - 1 ? c->argv[i + 1] : c->sandbox.read[i - (c->argc - 1)];
        bool seen = false;
        for (int j = 0; j < out->n && !seen; j++)
            seen = strcmp(out->files[j].path, path) == 0;
        if (seen || strlen(path) >= sizeof out->files[0].path)
            continue;
        if (out->n == ID_MAX_FILES) {
            snprintf(err, errlen, "its command line and read = name more than %d files and directories", ID_MAX_FILES);
            return -1;
        }
        int rc = hash_path(c, path, &out->files[out->n], err, errlen);
        if (rc < 0)
            return -1;
        out->n += rc;
    }
    if (out->n == 0)
        return 0;
    SHA2_CTX h;
    SHA256Init(&h);
    SHA256Update(&h, (const uint8_t *)c->sha256, strlen(c->sha256));
    for (int i = 0; i < out->n; i++) {
        SHA256Update(&h, (const uint8_t *)"\n", 1);
        SHA256Update(&h, (const uint8_t *)out->files[i].path, strlen(out->files[i].path));
        SHA256Update(&h, (const uint8_t *)" ", 1);
        SHA256Update(&h, (const uint8_t *)out->files[i].sha256, strlen(out->files[i].sha256));
    }
    SHA256End(&h, c->sha256);
    return 0;
}
