/* arena/solver/checkpoint.c — writing and reading trainer checkpoints (see checkpoint.h). Layout
 * (little-endian): magic "DHXCKPT1", then the meta fields, the counts, a checksum of the body; the body is
 * per information state {key u64, player u8, depth u8, n u16, 4 zero bytes}, then the actions (u16),
 * regrets (f32) and sums (f64) of all of them in order. */
#include "checkpoint.h"
#include "checksum.h"
#include "variant.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAGIC "DHXCKPT1"

typedef struct {
    char magic[8];
    int32_t variant, rows, cols, flags, keys;
    char algo[16];
    int64_t iteration;
    uint64_t rng;
    double seconds;
    uint32_t n_infosets, n_actions;
    uint64_t checksum;
} header;

typedef struct {
    uint64_t key;
    uint8_t player, depth;
    uint16_t n;
    uint32_t zero;
} record;

static void fail(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
}

int sv_ckpt_save(const char *path, const sv_ckpt_meta *m, const sv_tree *t, const float *regret,
                 const double *sum, char *err, size_t errlen)
{
    header h = { .variant = m->variant, .rows = m->rows, .cols = m->cols, .flags = (int32_t)m->flags,
                 .keys = m->keys, .iteration = m->iteration, .rng = m->rng, .seconds = m->seconds,
                 .n_infosets = t->n_infosets, .n_actions = t->n_actions };
    memcpy(h.magic, MAGIC, 8);
    memcpy(h.algo, m->algo, sizeof h.algo - 1);
    record *rec = malloc(sizeof *rec * (t->n_infosets ? t->n_infosets : 1));
    if (!rec) {
        fail(err, errlen, "%s: out of memory", path);
        return -1;
    }
    for (uint32_t k = 0; k < t->n_infosets; k++)
        rec[k] = (record){ .key = t->infosets[k].key, .player = t->infosets[k].player,
                           .depth = t->infosets[k].depth, .n = t->infosets[k].n };
    uint64_t c = SV_CHECKSUM_SEED;
    c = sv_checksum(c, rec, sizeof *rec * t->n_infosets);
    c = sv_checksum(c, t->actions, sizeof *t->actions * t->n_actions);
    c = sv_checksum(c, regret, sizeof *regret * t->n_actions);
    c = sv_checksum(c, sum, sizeof *sum * t->n_actions);
    h.checksum = c;
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    int ok = f && fwrite(&h, sizeof h, 1, f) == 1 &&
             fwrite(rec, sizeof *rec, t->n_infosets, f) == t->n_infosets &&
             fwrite(t->actions, sizeof *t->actions, t->n_actions, f) == t->n_actions &&
             fwrite(regret, sizeof *regret, t->n_actions, f) == t->n_actions &&
             fwrite(sum, sizeof *sum, t->n_actions, f) == t->n_actions && fflush(f) == 0 && fsync(fileno(f)) == 0;
    ok = f && fclose(f) == 0 && ok;
    free(rec);
    if (!ok || rename(tmp, path) != 0) {
        fail(err, errlen, "%s: %s", path, strerror(errno ? errno : EIO));
        unlink(tmp);
        return -1;
    }
    return 0;
}

int sv_ckpt_load(const char *path, sv_ckpt_meta *m, sv_tree *t, float **regret, double **sum, char *err,
                 size_t errlen)
{
    *regret = NULL;
    *sum = NULL;
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fail(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    header h;
    record *rec = NULL;
    uint16_t *actions = NULL;
    const char *why = NULL;
    if (fread(&h, sizeof h, 1, f) != 1 || memcmp(h.magic, MAGIC, 8) != 0 || h.algo[sizeof h.algo - 1] != '\0')
        why = "not a checkpoint file";
    else if (h.n_infosets > (1u << 30) || h.n_actions > (1u << 31))
        why = "bad header";
    if (!why) {
        rec = malloc(sizeof *rec * (h.n_infosets + 1));
        actions = malloc(sizeof *actions * (h.n_actions + 1));
        *regret = malloc(sizeof **regret * (h.n_actions + 1));
        *sum = malloc(sizeof **sum * (h.n_actions + 1));
        if (!rec || !actions || !*regret || !*sum)
            why = "out of memory";
    }
    if (!why && (fread(rec, sizeof *rec, h.n_infosets, f) != h.n_infosets ||
                 fread(actions, sizeof *actions, h.n_actions, f) != h.n_actions ||
                 fread(*regret, sizeof **regret, h.n_actions, f) != h.n_actions ||
                 fread(*sum, sizeof **sum, h.n_actions, f) != h.n_actions || fgetc(f) != EOF))
        why = "truncated or too long";
    if (!why) {
        uint64_t c = SV_CHECKSUM_SEED;
        c = sv_checksum(c, rec, sizeof *rec * h.n_infosets);
        c = sv_checksum(c, actions, sizeof *actions * h.n_actions);
        c = sv_checksum(c, *regret, sizeof **regret * h.n_actions);
        c = sv_checksum(c, *sum, sizeof **sum * h.n_actions);
        if (c != h.checksum)
            why = "checksum mismatch (the file is corrupt)";
    }
    uint32_t offset = 0;
    for (uint32_t k = 0; !why && k < h.n_infosets; k++) {
        if (rec[k].player > 1 || rec[k].n == 0 || offset + rec[k].n > h.n_actions ||
            sv_tree_intern(t, rec[k].player, rec[k].key, rec[k].depth, actions + offset, rec[k].n) != (int64_t)k)
            why = "bad or duplicated information state";
        offset += rec[k].n;
    }
    if (!why && offset != h.n_actions)
        why = "action count mismatch";
    fclose(f);
    free(rec);
    free(actions);
    if (why) {
        fail(err, errlen, "%s: %s", path, why);
        free(*regret);
        free(*sum);
        *regret = NULL;
        *sum = NULL;
        sv_tree_free(t);
        return -1;
    }
    *m = (sv_ckpt_meta){ .variant = h.variant, .rows = h.rows, .cols = h.cols, .flags = (unsigned)h.flags,
                         .keys = h.keys, .iteration = (long)h.iteration, .rng = h.rng, .seconds = h.seconds };
    memcpy(m->algo, h.algo, sizeof m->algo);
    return 0;
}

int sv_ckpt_resume(const char *path, const sv_ckpt_meta *want, sv_ckpt_meta *m, sv_tree *t, float **regret,
                   double **sum, char *err, size_t errlen)
{
    if (access(path, F_OK) != 0)
        return 1;
    if (sv_ckpt_load(path, m, t, regret, sum, err, errlen) != 0)
        return -1;
    if (m->variant == want->variant && m->rows == want->rows && m->cols == want->cols && m->flags == want->flags &&
        m->keys == want->keys && strcmp(m->algo, want->algo) == 0)
        return 0;
    fail(err, errlen, "%s: the checkpoint is for %dx%d %s%s, keys %s, algo %s", path, m->rows, m->cols,
         hx_variant_name((hx_variant)m->variant), m->flags ? " with swap" : "", m->keys ? "view" : "perfect",
         m->algo);
    free(*regret);
    free(*sum);
    *regret = NULL;
    *sum = NULL;
    sv_tree_free(t);
    return -1;
}

int sv_ckpt_onto_tree(const sv_tree *tab, const float *regret, const double *sum, const sv_tree *t,
                      float *t_regret, double *t_sum)
{
    if (tab->n_infosets != t->n_infosets)
        return -1;
    for (uint32_t k = 0; k < tab->n_infosets; k++) {
        const sv_infoset *is = &tab->infosets[k];
        int64_t j = sv_tree_find(t, is->player, is->key);
        if (j < 0 || t->infosets[j].n != is->n)
            return -1;
        memcpy(t_regret + t->infosets[j].offset, regret + is->offset, sizeof *regret * is->n);
        memcpy(t_sum + t->infosets[j].offset, sum + is->offset, sizeof *sum * is->n);
    }
    return 0;
}
