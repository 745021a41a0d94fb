/* arena/solver/policy.c — reading, validating and writing policy files (see policy.h and
 * docs/policy-format.md). The layout is little-endian: a 96-byte header, the entries, the cells (u16,
 * padded to 4 bytes), the probabilities (f32). */
#include "policy.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checksum.h"
#include "grow.h"
#include "variant.h"

#define MAGIC "DHXPOLCY"
enum { HEADER = 96, PROB_F32 = 1 };

/* Header fields by byte offset. */
enum {
    H_MAGIC = 0, H_VERSION = 8, H_HEADER = 12, H_VARIANT = 16, H_ROWS = 17, H_COLS = 18, H_FLAGS = 19,
    H_KEYS = 20, H_PROBS = 21, H_CLOSED = 22, H_ALGO = 24, H_ITER = 40, H_EXPL = 48, H_ENTRIES = 56, H_ACTIONS = 60,
    H_CHECKSUM = 64
};

static void fail(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && len)
        vsnprintf(err, len, fmt, ap);
    va_end(ap);
}

static size_t body_size(uint64_t entries, uint64_t actions)
{
    size_t cells = (size_t)actions * 2;
    return (size_t)entries * sizeof(pf_entry) + ((cells + 3) & ~(size_t)3) + (size_t)actions * 4;
}

static uint32_t rd32(const unsigned char *b) { uint32_t v; memcpy(&v, b, 4); return v; }
static uint64_t rd64(const unsigned char *b) { uint64_t v; memcpy(&v, b, 8); return v; }

int pf_load_mem(pf_policy *p, const void *buf, size_t len, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    const unsigned char *b = buf;
    if (len < HEADER || memcmp(b, MAGIC, 8) != 0) {
        fail(err, errlen, len < 8 || memcmp(b, MAGIC, 8) != 0 ? "not a policy file (bad magic)"
                                                               : "truncated header (%zu bytes)", len);
        return -1;
    }
    uint32_t version = rd32(b + H_VERSION);
    if (version != PF_VERSION) {
        fail(err, errlen, "format version %u, this program reads version %d", version, PF_VERSION);
        return -1;
    }
    if (rd32(b + H_HEADER) != HEADER || b[H_PROBS] != PROB_F32) {
        fail(err, errlen, "bad header (header size %u, probability format %u)", rd32(b + H_HEADER), b[H_PROBS]);
        return -1;
    }
    pf_meta *m = &p->meta;
    m->variant = (hx_variant)b[H_VARIANT];
    m->rows = b[H_ROWS];
    m->cols = b[H_COLS];
    m->flags = b[H_FLAGS];
    m->keys = (pf_keys)b[H_KEYS];
    m->closed = b[H_CLOSED] == 1;
    if (b[H_VARIANT] >= HX_VARIANT_COUNT || m->rows < HX_MIN_SIDE || m->rows > HX_MAX_SIDE || m->cols < HX_MIN_SIDE ||
        m->cols > HX_MAX_SIDE || m->flags > HX_SWAP_RULE || b[H_KEYS] > PF_KEYS_VIEW || b[H_CLOSED] > 1) {
        fail(err, errlen, "bad header (variant %u, board %ux%u, flags %u, keys %u, closed %u)", b[H_VARIANT],
             b[H_ROWS], b[H_COLS], b[H_FLAGS], b[H_KEYS], b[H_CLOSED]);
        return -1;
    }
    memcpy(m->algo, b + H_ALGO, sizeof m->algo);
    if (m->algo[sizeof m->algo - 1] != '\0') {
        fail(err, errlen, "bad header (algorithm name not terminated)");
        return -1;
    }
    m->iterations = rd64(b + H_ITER);
    memcpy(&m->exploitability, b + H_EXPL, 8);
    p->n_entries = rd32(b + H_ENTRIES);
    p->n_actions = rd32(b + H_ACTIONS);
    size_t want = HEADER + body_size(p->n_entries, p->n_actions);
    if (len != want) {
        fail(err, errlen, "size %zu bytes, the header announces %zu (%u information states, %u actions)", len, want,
             p->n_entries, p->n_actions);
        return -1;
    }
    if (sv_checksum(SV_CHECKSUM_SEED, b + HEADER, len - HEADER) != rd64(b + H_CHECKSUM)) {
        fail(err, errlen, "checksum mismatch (the file is corrupt)");
        return -1;
    }
    p->entries = (const pf_entry *)(const void *)(b + HEADER);
    p->cells = (const uint16_t *)(const void *)(b + HEADER + (size_t)p->n_entries * sizeof(pf_entry));
    p->probs = (const float *)(const void *)(b + HEADER + (size_t)p->n_entries * sizeof(pf_entry) +
                                             (((size_t)p->n_actions * 2 + 3) & ~(size_t)3));
    int cells = m->rows * m->cols;
    uint64_t offset = 0;
    for (uint32_t i = 0; i < p->n_entries; i++) {
        const pf_entry *e = &p->entries[i];
        if (e->player > 1 || e->n < 1 || e->n > cells + 1 || e->offset != offset || e->reserved) {
            fail(err, errlen, "information state %u: bad entry (player %u, %u actions, offset %u)", i, e->player,
                 e->n, e->offset);
            return -1;
        }
        if (i && (e->key < e[-1].key || (e->key == e[-1].key && e->player <= e[-1].player))) {
            fail(err, errlen, "information state %u: entries out of order or duplicated", i);
            return -1;
        }
        offset += e->n;
        if (offset > p->n_actions) {
            fail(err, errlen, "information state %u: actions beyond the table", i);
            return -1;
        }
        double sum = 0;
        for (uint32_t a = e->offset; a < offset; a++) {
            float q = p->probs[a];
            if (!(q >= 0 && q <= 1.0f) || (p->cells[a] >= cells && p->cells[a] != HX_SWAP)) {
                fail(err, errlen, "information state %u: bad action (cell %u, probability %g)", i, p->cells[a],
                     (double)q);
                return -1;
            }
            sum += q;
        }
        if (fabs(sum - 1) > 1e-3) {
            fail(err, errlen, "information state %u: probabilities sum to %g", i, sum);
            return -1;
        }
    }
    if (offset != p->n_actions) {
        fail(err, errlen, "%u actions announced, the entries use %llu", p->n_actions, (unsigned long long)offset);
        return -1;
    }
    return 0;
}

int pf_load(pf_policy *p, const char *path, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        fail(err, errlen, "%s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode) || st.st_size < HEADER) {
        fail(err, errlen, "%s: %s", path, S_ISREG(st.st_mode) ? "not a policy file (too short)" : "not a regular file");
        close(fd);
        return -1;
    }
    size_t len = (size_t)st.st_size;
    void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) {
        fail(err, errlen, "%s: mmap: %s", path, strerror(errno));
        return -1;
    }
    char why[200];
    if (pf_load_mem(p, map, len, why, sizeof why) != 0) {
        fail(err, errlen, "%s: %s", path, why);
        munmap(map, len);
        memset(p, 0, sizeof *p);
        return -1;
    }
    p->map = map;
    p->map_len = len;
    return 0;
}

void pf_close(pf_policy *p)
{
    if (p->map)
        munmap(p->map, p->map_len);
    memset(p, 0, sizeof *p);
}

int64_t pf_find(const pf_policy *p, int player, uint64_t key)
{
    uint32_t lo = 0, hi = p->n_entries;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const pf_entry *e = &p->entries[mid];
        if (e->key < key || (e->key == key && e->player < player))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < p->n_entries && p->entries[lo].key == key && p->entries[lo].player == player)
        return lo;
    return -1;
}

int pf_sample(const pf_policy *p, int64_t e, double u)
{
    const pf_entry *en = &p->entries[e];
    const float *pr = p->probs + en->offset;
    double total = 0, acc = 0;
    for (int a = 0; a < en->n; a++)
        total += pr[a];
    if (!(total > 0))
        return -1;
    u *= total;
    for (int a = 0; a < en->n; a++)
        if (u < (acc += pr[a]))
            return p->cells[en->offset + a];
    for (int a = en->n - 1; a >= 0; a--)
        if (pr[a] > 0)
            return p->cells[en->offset + a];
    return -1;
}

void pf_describe(const pf_policy *p, char *out, size_t len)
{
    const pf_meta *m = &p->meta;
    int n = snprintf(out, len, "%dx%d %s%s, %u information states, %s keys%s, %s, %llu iterations", m->rows,
                     m->cols, hx_variant_name(m->variant), m->flags & HX_SWAP_RULE ? " (swap)" : "", p->n_entries,
                     m->keys == PF_KEYS_VIEW ? "view" : "perfect-recall", m->closed ? " (closed)" : "",
                     m->algo[0] ? m->algo : "?",
                     (unsigned long long)m->iterations);
    if (n > 0 && (size_t)n < len && !isnan(m->exploitability))
        snprintf(out + n, len - (size_t)n, ", exploitability %.3g", m->exploitability);
}

/* Writing. */

struct pf_writer {
    pf_meta meta;
    pf_entry *entries;
    uint16_t *cells;
    float *probs;
    uint32_t n_entries, cap_entries, n_actions, cap_actions;
};

pf_writer *pf_writer_new(const pf_meta *m)
{
    pf_writer *w = calloc(1, sizeof *w);
    if (w)
        w->meta = *m;
    return w;
}

void pf_writer_set_exploitability(pf_writer *w, double e) { w->meta.exploitability = e; }

int pf_writer_add(pf_writer *w, int player, uint64_t key, int n, const uint16_t *cells, const double *probs)
{
    if (n < 1 || n > HX_MAX_CELLS + 1 || player < 0 || player > 1)
        return -1;
    if (w->n_entries == w->cap_entries) {
        uint32_t cap = grow_capacity(w->cap_entries, (uint64_t)w->n_entries + 1, 1024);
        if (!grow_resize(&w->entries, sizeof *w->entries, cap))
            return -1;
        w->cap_entries = cap;
    }
    if (w->n_actions + (uint64_t)n > w->cap_actions) {
        uint32_t cap = grow_capacity(w->cap_actions, (uint64_t)w->n_actions + (uint64_t)n, 4096);
        if (!grow_resize(&w->cells, sizeof *w->cells, cap) || !grow_resize(&w->probs, sizeof *w->probs, cap))
            return -1;
        w->cap_actions = cap;
    }
    double sum = 0;
    for (int a = 0; a < n; a++)
        sum += probs[a] > 0 ? probs[a] : 0;
    for (int a = 0; a < n; a++) {
        w->cells[w->n_actions + a] = cells[a];
        w->probs[w->n_actions + a] = (float)(sum > 0 ? (probs[a] > 0 ? probs[a] : 0) / sum : 1.0 / n);
    }
    w->entries[w->n_entries++] = (pf_entry){ .key = key, .offset = w->n_actions, .player = (uint8_t)player,
                                             .n = (uint16_t)n };
    w->n_actions += (uint32_t)n;
    return 0;
}

static int entry_cmp(const void *a, const void *b)
{
    const pf_entry *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (int)x->player - (int)y->player;
}

int pf_writer_save(pf_writer *w, const char *path, char *err, size_t errlen)
{
    /* Sort the entries and lay their actions out in the new order. */
    qsort(w->entries, w->n_entries, sizeof *w->entries, entry_cmp);
    for (uint32_t i = 1; i < w->n_entries; i++)
        if (w->entries[i].key == w->entries[i - 1].key && w->entries[i].player == w->entries[i - 1].player) {
            fail(err, errlen, "%s: information state %016llx of player %u added twice", path,
                 (unsigned long long)w->entries[i].key, w->entries[i].player);
            return -1;
        }
    size_t body = body_size(w->n_entries, w->n_actions);
    unsigned char *buf = calloc(1, HEADER + body);
    if (!buf) {
        fail(err, errlen, "%s: out of memory", path);
        return -1;
    }
    pf_entry *entries = (pf_entry *)(void *)(buf + HEADER);
    uint16_t *cells = (uint16_t *)(void *)(buf + HEADER + (size_t)w->n_entries * sizeof(pf_entry));
    float *probs = (float *)(void *)((unsigned char *)cells + (((size_t)w->n_actions * 2 + 3) & ~(size_t)3));
    uint32_t offset = 0;
    for (uint32_t i = 0; i < w->n_entries; i++) {
        pf_entry e = w->entries[i];
        memcpy(cells + offset, w->cells + e.offset, sizeof *cells * e.n);
        memcpy(probs + offset, w->probs + e.offset, sizeof *probs * e.n);
        e.offset = offset;
        entries[i] = e;
        offset += e.n;
    }
    const pf_meta *m = &w->meta;
    memcpy(buf + H_MAGIC, MAGIC, 8);
    uint32_t v32 = PF_VERSION;
    memcpy(buf + H_VERSION, &v32, 4);
    v32 = HEADER;
    memcpy(buf + H_HEADER, &v32, 4);
    buf[H_VARIANT] = (unsigned char)m->variant;
    buf[H_ROWS] = (unsigned char)m->rows;
    buf[H_COLS] = (unsigned char)m->cols;
    buf[H_FLAGS] = (unsigned char)m->flags;
    buf[H_KEYS] = (unsigned char)m->keys;
    buf[H_CLOSED] = m->closed ? 1 : 0;
    buf[H_PROBS] = PROB_F32;
    memcpy(buf + H_ALGO, m->algo, strnlen(m->algo, 15));
    memcpy(buf + H_ITER, &m->iterations, 8);
    memcpy(buf + H_EXPL, &m->exploitability, 8);
    memcpy(buf + H_ENTRIES, &w->n_entries, 4);
    memcpy(buf + H_ACTIONS, &w->n_actions, 4);
    uint64_t sum = sv_checksum(SV_CHECKSUM_SEED, buf + HEADER, body);
    memcpy(buf + H_CHECKSUM, &sum, 8);

    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(buf, 1, HEADER + body, f) == HEADER + body;
    ok = f && fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        fail(err, errlen, "%s: %s", path, strerror(errno));
        unlink(tmp);
        free(buf);
        return -1;
    }
    free(buf);
    return 0;
}

void pf_writer_free(pf_writer *w)
{
    if (!w)
        return;
    free(w->entries);
    free(w->cells);
    free(w->probs);
    free(w);
}

/* Tree helpers. */

int pf_save_tree(const sv_tree *t, const double *probs, const pf_meta *m, const char *path, char *err,
                 size_t errlen)
{
    pf_writer *w = pf_writer_new(m);
    int rc = w ? 0 : -1;
    for (uint32_t k = 0; rc == 0 && k < t->n_infosets; k++) {
        const sv_infoset *is = &t->infosets[k];
        rc = pf_writer_add(w, is->player, is->key, is->n, t->actions + is->offset, probs + is->offset);
    }
    if (rc != 0) {
        fail(err, errlen, "%s: out of memory", path);
        pf_writer_free(w);
        return -1;
    }
    rc = pf_writer_save(w, path, err, errlen);
    pf_writer_free(w);
    return rc;
}

/* Closed files: marks the information states of `player` that come after one missing from its file (they
 * are played uniformly, never looked up). Nodes are in depth-first order, each child after its parent, so
 * one pass carries "a state of this player was missing above" down the tree. Returns 0, or -1 when out
 * of memory. */
static int mark_after_missing(const pf_policy *p, const sv_tree *t, int player, uint8_t *after)
{
    uint8_t *below = calloc(t->n_nodes ? t->n_nodes : 1, 1);
    int8_t *miss = malloc(t->n_infosets ? t->n_infosets : 1);
    if (!below || !miss) {
        free(below);
        free(miss);
        return -1;
    }
    memset(miss, -1, t->n_infosets); /* -1: not looked up yet */
    for (uint32_t i = 0; i < t->n_nodes; i++) {
        const sv_node *nd = &t->nodes[i];
        uint8_t b = below[i];
        if (nd->player == player) {
            uint32_t k = nd->infoset;
            if (b)
                after[k] = 1;
            else if (miss[k] < 0)
                miss[k] = pf_find(p, player, t->infosets[k].key) < 0;
            b = b || miss[k] == 1;
        }
        for (uint32_t c = 0; c < nd->n; c++)
            below[nd->first + c] = b;
    }
    free(below);
    free(miss);
    return 0;
}

int pf_on_tree(const pf_policy *black, const pf_policy *white, const sv_tree *t, double *out, uint32_t missing[2],
               char *err, size_t errlen)
{
    missing[0] = missing[1] = 0;
    uint8_t *after = NULL; /* after[k]: a closed file's state after a missing one: uniform, not looked up */
    const pf_policy *pol[2] = { black, white };
    for (int pl = 0; pl < 2; pl++)
        if (pol[pl] && pol[pl]->meta.closed && pol[pl]->meta.keys == PF_KEYS_PERFECT && !t->view_keys) {
            if (!after && !(after = calloc(t->n_infosets ? t->n_infosets : 1, 1))) {
                fail(err, errlen, "out of memory");
                return -1;
            }
            if (mark_after_missing(pol[pl], t, pl, after) != 0) {
                free(after);
                fail(err, errlen, "out of memory");
                return -1;
            }
        }
    for (uint32_t k = 0; k < t->n_infosets; k++) {
        const sv_infoset *is = &t->infosets[k];
        const pf_policy *p = is->player == 0 ? black : white;
        double *o = out + is->offset;
        bool skip = after && after[k];
        int64_t e = p && !skip ? pf_find(p, is->player, p->meta.keys == PF_KEYS_VIEW ? is->view : is->key) : -1;
        if (e < 0) {
            for (int a = 0; a < is->n; a++)
                o[a] = 1.0 / is->n;
            missing[is->player] += !skip;
            continue;
        }
        const pf_entry *en = &p->entries[e];
        if (en->n != is->n) {
            fail(err, errlen, "information state %016llx of %s lists %u actions, the game has %u there",
                 (unsigned long long)is->key, is->player ? "White" : "Black", en->n, is->n);
            free(after);
            return -1;
        }
        double sum = 0; /* the state's probabilities are normalised as read */
        for (int a = 0; a < en->n; a++)
            sum += p->probs[en->offset + a];
        for (int a = 0; a < is->n; a++) {
            uint16_t cell = t->actions[is->offset + a];
            int j = a;
            if (p->cells[en->offset + j] != cell) /* the same actions, perhaps in another order */
                for (j = 0; j < en->n && p->cells[en->offset + j] != cell; j++)
                    ;
            if (j == en->n) {
                fail(err, errlen, "information state %016llx of %s has no action %u in the file",
                     (unsigned long long)is->key, is->player ? "White" : "Black", cell);
                free(after);
                return -1;
            }
            o[a] = p->probs[en->offset + j] / sum;
        }
    }
    free(after);
    return 0;
}
