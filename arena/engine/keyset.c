/* arena/engine/keyset.c — open-addressing hash set of variable-length keys with exact comparison. */
#include "keyset.h"

#include <stdlib.h>
#include <string.h>

struct hx_keyset_entry {
    uint64_t hash;
    uint64_t offset; /* into codes; the entry is empty when len == 0 and hash == 0 */
    uint32_t len;
    uint32_t used;
};

void hx_keyset_init(hx_keyset *s)
{
    memset(s, 0, sizeof *s);
}

void hx_keyset_free(hx_keyset *s)
{
    free(s->slots);
    free(s->codes);
    memset(s, 0, sizeof *s);
}

static bool grow_slots(hx_keyset *s)
{
    size_t cap = s->capacity ? s->capacity * 2 : 1024;
    struct hx_keyset_entry *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return false;
    for (size_t i = 0; i < s->capacity; i++) {
        if (!s->slots[i].used)
            continue;
        size_t j = s->slots[i].hash & (cap - 1);
        while (slots[j].used)
            j = (j + 1) & (cap - 1);
        slots[j] = s->slots[i];
    }
    free(s->slots);
    s->slots = slots;
    s->capacity = cap;
    return true;
}

static bool reserve_codes(hx_keyset *s, size_t more)
{
    if (s->codes_used + more <= s->codes_cap)
        return true;
    size_t cap = s->codes_cap ? s->codes_cap : 4096;
    while (cap < s->codes_used + more)
        cap *= 2;
    uint16_t *codes = realloc(s->codes, cap * sizeof *codes);
    if (!codes)
        return false;
    s->codes = codes;
    s->codes_cap = cap;
    return true;
}

int hx_keyset_add(hx_keyset *s, uint64_t hash, const uint16_t *key, int len)
{
    if ((s->count + 1) * 4 > s->capacity * 3 && !grow_slots(s))
        return -1;
    size_t mask = s->capacity - 1, j = hash & mask;
    for (; s->slots[j].used; j = (j + 1) & mask) {
        const struct hx_keyset_entry *e = &s->slots[j];
        if (e->hash == hash && e->len == (uint32_t)len &&
            (len == 0 || memcmp(s->codes + e->offset, key, (size_t)len * sizeof *key) == 0))
            return 0;
    }
    if (len > 0) {
        if (!reserve_codes(s, (size_t)len))
            return -1;
        memcpy(s->codes + s->codes_used, key, (size_t)len * sizeof *key);
    }
    s->slots[j] = (struct hx_keyset_entry){ .hash = hash, .offset = s->codes_used, .len = (uint32_t)len, .used = 1 };
    s->codes_used += (size_t)len;
    s->count++;
    return 1;
}
