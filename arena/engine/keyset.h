/* arena/engine/keyset.h — a set of information-state keys (sequences of uint16 codes), compared exactly.
 * Used to count distinct information states; grows as needed. */
#ifndef ARENA_ENGINE_KEYSET_H
#define ARENA_ENGINE_KEYSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    struct hx_keyset_entry *slots; /* open addressing, power-of-two capacity */
    size_t capacity, count;
    uint16_t *codes;               /* all stored keys, back to back */
    size_t codes_used, codes_cap;
} hx_keyset;

void hx_keyset_init(hx_keyset *s);
void hx_keyset_free(hx_keyset *s);

/* Adds the key (with its hx_key_hash()) if absent. Returns 1 when added, 0 when already present,
 * -1 when out of memory. */
int hx_keyset_add(hx_keyset *s, uint64_t hash, const uint16_t *key, int len);

static inline size_t hx_keyset_count(const hx_keyset *s) { return s->count; }

#endif
