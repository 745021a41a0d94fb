/* arena/ladder/pathset.c — an archive's paths, each given once (contract in pathset.h): an open-addressing hash set
 * of paths, each marked a file or a directory, growing at half full. */
#include "pathset.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *path;
    bool dir;
} slot;

struct ld_pathset {
    slot *s;
    size_t cap, n;
};

ld_pathset *ld_pathset_new(void)
{
    ld_pathset *p = calloc(1, sizeof *p);
    if (p && !(p->s = calloc(p->cap = 64, sizeof *p->s))) {
        free(p);
        return NULL;
    }
    return p;
}

void ld_pathset_free(ld_pathset *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->cap; i++)
        free(p->s[i].path);
    free(p->s);
    free(p);
}

static uint64_t hash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

/* The slot of the first n bytes of path: the one holding it, or the empty one where it would go. */
static slot *find(ld_pathset *p, const char *path, size_t n)
{
    for (size_t i = hash(path, n) & (p->cap - 1);; i = (i + 1) & (p->cap - 1))
        if (!p->s[i].path || (strlen(p->s[i].path) == n && memcmp(p->s[i].path, path, n) == 0))
            return &p->s[i];
}

static int grow(ld_pathset *p)
{
    ld_pathset bigger = { calloc(p->cap * 2, sizeof *p->s), p->cap * 2, p->n };
    if (!bigger.s)
        return -1;
    for (size_t i = 0; i < p->cap; i++)
        if (p->s[i].path)
            *find(&bigger, p->s[i].path, strlen(p->s[i].path)) = p->s[i];
    free(p->s);
    *p = bigger;
    return 0;
}

/* Puts the first n bytes of path in as a directory or file; the kind already there, or -1 new, or -2 no memory. */
static int put(ld_pathset *p, const char *path, size_t n, bool dir)
{
    if (2 * (p->n + 1) > p->cap && grow(p) != 0)
        return -2;
    slot *x = find(p, path, n);
    if (x->path)
        return x->dir;
    if (!(x->path = strndup(path, n)))
        return -2;
    x->dir = dir;
    p->n++;
    return -1;
}

int ld_pathset_add(ld_pathset *p, const char *path, bool dir, char *why, size_t whylen)
{
    size_t n = strlen(path);
    while (n > 0 && path[n - 1] == '/')
        n--;
    for (size_t k = 0; k < n; k++) /* each directory above it: never a file */
        if (path[k] == '/') {
            int had = put(p, path, k, true);
            if (had == -2 || had == 0) {
                snprintf(why, whylen, "%s", had == -2 ? "out of memory"
                                                      : "a path below a file of the archive (a file where a "
                                                        "directory must be)");
                return -1;
            }
        }
    int had = put(p, path, n, dir);
    if (had == -2 || (had >= 0 && !(dir && had == 1))) {
        snprintf(why, whylen, "%s", had == -2 ? "out of memory"
                                    : had == 0 && !dir ? "a path the archive gives twice"
                                    : dir ? "a directory where the archive has a file"
                                          : "a file where the archive has a directory");
        return -1;
    }
    return 0;
}
