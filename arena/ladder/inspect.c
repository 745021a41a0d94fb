/* arena/ladder/inspect.c — a submitted archive inspected in one pass over its headers (inspect.h): the files it holds
 * (to find the manifest's program among them) and the manifest's text, read as the walk passes it. */
#include "inspect.h"

#include <sha2.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pathset.h"

typedef struct {
    char **exec;                   /* paths of the files with an execute bit */
    char **plain;                  /* and of the others */
    long n_exec, n_plain, cap_exec, cap_plain;
    char *manifest;                /* its text, or NULL */
    size_t manifest_len;
    char manifest_path[16];
    long entries;
    uint64_t bytes;
    ld_pathset *paths;             /* every path, each given once (pathset.h) */
} inspect_state;

static int keep_path(char ***list, long *n, long *cap, const char *path)
{
    if (*n == *cap) {
        long c = *cap ? *cap * 2 : 64;
        char **p = realloc(*list, (size_t)c * sizeof *p);
        if (!p)
            return -1;
        *list = p;
        *cap = c;
    }
    if (!((*list)[*n] = strdup(path)))
        return -1;
    ++*n;
    return 0;
}

static int read_manifest(inspect_state *st, ld_walk *w, const ld_entry *e, char *why, size_t whylen)
{
    if (st->manifest) {
        snprintf(why, whylen, "a second manifest (%s is the first): give one of ladder.ini and manifest.ini",
                 st->manifest_path);
        return -1;
    }
    if (e->size > LD_MANIFEST_MAX) {
        snprintf(why, whylen, "a manifest of %llu bytes, over the limit of %d", (unsigned long long)e->size,
                 LD_MANIFEST_MAX);
        return -1;
    }
    if (!(st->manifest = malloc(e->size + 1))) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    snprintf(st->manifest_path, sizeof st->manifest_path, "%s", e->path);
    for (long got; st->manifest_len < e->size; st->manifest_len += (size_t)got)
        if ((got = ld_walk_read(w, st->manifest + st->manifest_len, e->size - st->manifest_len, why, whylen)) <= 0) {
            if (got == 0)
                snprintf(why, whylen, "less data than its header declares");
            return -1;
        }
    st->manifest[st->manifest_len] = '\0';
    return 0;
}

static int visit(void *user, ld_walk *w, const ld_entry *e, char *why, size_t whylen)
{
    inspect_state *st = user;
    st->entries++;
    st->bytes += e->size;
    if (e->path[0] && ld_pathset_add(st->paths, e->path, e->dir, why, whylen) != 0)
        return -1;
    if (e->dir || !e->path[0])
        return 0;
    if (strcmp(e->path, "ladder.ini") == 0 || strcmp(e->path, "manifest.ini") == 0)
        return read_manifest(st, w, e, why, whylen);
    if (e->exec ? keep_path(&st->exec, &st->n_exec, &st->cap_exec, e->path)
                : keep_path(&st->plain, &st->n_plain, &st->cap_plain, e->path)) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    return 0;
}

static bool listed(char **list, long n, const char *path)
{
    for (long i = 0; i < n; i++)
        if (strcmp(list[i], path) == 0)
            return true;
    return false;
}

/* The manifest parsed and its program found among the archive's executable files. */
static int check_manifest(inspect_state *st, const char *name, ld_manifest *m, char *err, size_t errlen)
{
    char where[600];
    if (!st->manifest) {
        snprintf(err, errlen, "%.400s: no ladder.ini or manifest.ini at the top of the archive", name);
        return -1;
    }
    snprintf(where, sizeof where, "%.400s:%s", name, st->manifest_path);
    if (ld_manifest_parse(st->manifest, st->manifest_len, where, m, err, errlen) != 0)
        return -1;
    if (listed(st->exec, st->n_exec, m->program))
        return 0;
    snprintf(err, errlen, "%s: command: '%s' %s", where, m->program,
             listed(st->plain, st->n_plain, m->program) ? "has no execute bit in the archive"
                                                        : "is not a file of the archive (the program must be in it)");
    return -1;
}

static void free_state(inspect_state *st)
{
    for (long i = 0; i < st->n_exec; i++)
        free(st->exec[i]);
    for (long i = 0; i < st->n_plain; i++)
        free(st->plain[i]);
    free(st->exec);
    free(st->plain);
    free(st->manifest);
    ld_pathset_free(st->paths);
}

int ld_inspect(const void *data, size_t len, const char *name, const ld_limits *lim, ld_inspected *out, char *err,
               size_t errlen)
{
    memset(out, 0, sizeof *out);
    inspect_state st = { .paths = ld_pathset_new() };
    if (!st.paths) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = ld_walk_archive(data, len, name, lim, visit, &st, err, errlen);
    if (rc == 0)
        rc = check_manifest(&st, name, &out->manifest, err, errlen);
    if (rc == 0) {
        out->entries = st.entries;
        out->bytes = st.bytes;
        SHA256Data(data, len, out->sha256);
    }
    free_state(&st);
    return rc;
}
