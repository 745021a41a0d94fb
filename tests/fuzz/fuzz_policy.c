/* tests/fuzz/fuzz_policy.c — libFuzzer target for the policy-file loader of arena/solver (pf_load_mem in
 * arena/solver/policy.h, the check pf_load runs on a mapped file) on arbitrary bytes. Each input is
 * loaded twice from an aligned copy: as given, and with the header's checksum recomputed so that the
 * checks behind it are reached too. A refusal must give a reason; an accepted policy must keep every
 * promise of docs/policy-format.md (checked below), be found entry by entry by pf_find, and describe
 * itself with pf_describe, or the target aborts. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checksum.h"
#include "policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { HEADER = 96, CHECKSUM_AT = 64 };

static void violated(const char *what, uint32_t entry)
{
    fprintf(stderr, "fuzz_policy: %s (information state %u)\n", what, entry);
    abort();
}

static void check(const pf_policy *p, size_t len)
{
    const pf_meta *m = &p->meta;
    if ((unsigned)m->variant >= HX_VARIANT_COUNT)
        violated("variant out of range", 0);
    if (m->rows < HX_MIN_SIDE || m->rows > HX_MAX_SIDE || m->cols < HX_MIN_SIDE || m->cols > HX_MAX_SIDE)
        violated("board side outside 2..19", 0);
    if (m->flags > HX_SWAP_RULE || (m->keys != PF_KEYS_PERFECT && m->keys != PF_KEYS_VIEW))
        violated("flags or keys", 0);
    if (!memchr(m->algo, '\0', sizeof m->algo))
        violated("algorithm name not terminated", 0);
    uint64_t want = HEADER + 16 * (uint64_t)p->n_entries + ((2 * (uint64_t)p->n_actions + 3) & ~(uint64_t)3) +
                    4 * (uint64_t)p->n_actions;
    if (want != len)
        violated("file size is not the one the header announces", 0);
    int cells = m->rows * m->cols;
    uint64_t offset = 0;
    for (uint32_t i = 0; i < p->n_entries; i++) {
        const pf_entry *e = &p->entries[i];
        if (e->player > 1 || e->reserved || e->n < 1 || e->n > cells + 1)
            violated("bad player, reserved byte or action count", i);
        if (e->offset != offset)
            violated("offsets not consecutive", i);
        if (i && (e[-1].key > e->key || (e[-1].key == e->key && e[-1].player >= e->player)))
            violated("entries not sorted by (key, player) or duplicated", i);
        offset += e->n;
        if (offset > p->n_actions)
            violated("actions beyond the table", i);
        double sum = 0;
        for (uint64_t a = e->offset; a < offset; a++) {
            if (p->cells[a] >= cells && p->cells[a] != HX_SWAP)
                violated("cell off the board", i);
            if (!(p->probs[a] >= 0 && p->probs[a] <= 1))
                violated("probability outside [0, 1]", i);
            sum += p->probs[a];
        }
        if (fabs(sum - 1) > 1e-3)
            violated("probabilities do not sum to 1", i);
        if (pf_find(p, e->player, e->key) != (int64_t)i)
            violated("pf_find misses an entry", i);
    }
    if (offset != p->n_actions)
        violated("entries do not use every action", 0);
    char small[8], text[256];
    pf_describe(p, small, sizeof small);
    pf_describe(p, text, sizeof text);
    if (!memchr(small, '\0', sizeof small) || !memchr(text, '\0', sizeof text))
        violated("pf_describe did not terminate its text", 0);
}

static void load(const void *buf, size_t size)
{
    pf_policy p;
    char err[200];
    memset(err, 0x55, sizeof err);
    if (pf_load_mem(&p, buf, size, err, sizeof err) != 0) {
        if (!memchr(err, '\0', sizeof err) || !err[0])
            violated("refusal without a reason", 0);
        return;
    }
    check(&p, size);
    pf_close(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A policy is read in place (entries are 8-byte aligned in a mapped file): load from an aligned copy of
     * exactly the input's size, so reading past its end still trips ASan. */
    uint8_t *copy = calloc(1, size ? size : 1);
    if (!copy)
        return 0;
    if (size)
        memcpy(copy, data, size);
    load(copy, size);
    if (size >= HEADER) {
        uint64_t sum = sv_checksum(SV_CHECKSUM_SEED, copy + HEADER, size - HEADER);
        if (memcmp(copy + CHECKSUM_AT, &sum, 8) != 0) {
            memcpy(copy + CHECKSUM_AT, &sum, 8);
            load(copy, size);
        }
    }
    free(copy);
    return 0;
}
