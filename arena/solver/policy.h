/* arena/solver/policy.h — policy files (docs/policy-format.md): a versioned binary table of action
 * probabilities per information state, written by every trainer (CFR family, RCFR, RL) and read by the
 * policy bot and `arena exploit`. Loading maps the file read-only and validates all of it before use; a
 * corrupt, truncated or mismatched file gives one error message naming the file and the problem. */
#ifndef ARENA_SOLVER_POLICY_H
#define ARENA_SOLVER_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "gametree.h"

#define PF_VERSION 1

typedef enum { PF_KEYS_PERFECT = 0, PF_KEYS_VIEW = 1 } pf_keys;

typedef struct {
    hx_variant variant;
    int rows, cols;
    unsigned flags;           /* HX_SWAP_RULE */
    pf_keys keys;
    bool closed;              /* a state after a missing one (same player, same game) is played uniformly,
                               * listed or not (sampling trainers' files, where nothing follows a hole) */
    char algo[16];            /* the trainer's algorithm name, e.g. "cfr+" */
    uint64_t iterations;
    double exploitability;    /* NAN when not known */
} pf_meta;

/* One information state, as stored (16 bytes). Its actions are cells[offset .. offset + n - 1] with
 * probabilities probs[offset ..]. */
typedef struct {
    uint64_t key;             /* hx_key_hash() of the perfect-recall key, or hx_view_key() */
    uint32_t offset;
    uint8_t player;           /* 0 Black, 1 White */
    uint8_t reserved;         /* 0 */
    uint16_t n;               /* 1 .. cells + 1 */
} pf_entry;

typedef struct {
    pf_meta meta;
    const pf_entry *entries;  /* sorted by (key, player) */
    uint32_t n_entries, n_actions;
    const uint16_t *cells;    /* cell numbers, HX_SWAP for the swap */
    const float *probs;
    void *map;                /* the mapping (or NULL for a borrowed buffer) */
    size_t map_len;
} pf_policy;

/* Maps and validates a file. Returns 0, or -1 with a message "FILE: problem" in err. */
int pf_load(pf_policy *p, const char *path, char *err, size_t errlen);
/* Validates a policy held in memory (the buffer must outlive p, which borrows it). */
int pf_load_mem(pf_policy *p, const void *buf, size_t len, char *err, size_t errlen);
void pf_close(pf_policy *p);

/* The entry of (player, key), or -1. O(log entries). */
int64_t pf_find(const pf_policy *p, int player, uint64_t key);

/* One action of entry e drawn with the entry's probabilities divided by their sum (files sum to 1 within
 * 1e-3), u being uniform in [0, 1): the first action whose running sum passes u * sum; rounding past the
 * last action gives the last positive one. Returns its cell (HX_SWAP for the swap), or -1 when every
 * probability is 0. The caller checks the cell is legal where it plays it. */
int pf_sample(const pf_policy *p, int64_t e, double u);

/* "RxC variant, N information states, keys K, algo A, I iterations[, exploitability E]". */
void pf_describe(const pf_policy *p, char *out, size_t len);

/* Building a file: add every information state once (any order), then save. */
typedef struct pf_writer pf_writer;
pf_writer *pf_writer_new(const pf_meta *m);
/* probs are normalised on the way in (a zero row becomes uniform). Returns 0, or -1 when out of memory
 * or n is not in 1..HX_MAX_CELLS + 1. */
int pf_writer_add(pf_writer *w, int player, uint64_t key, int n, const uint16_t *cells, const double *probs);
void pf_writer_set_exploitability(pf_writer *w, double e);
/* Writes path atomically (a temporary file renamed over it). Returns 0, or -1 with a message in err
 * (duplicate information states are an error). */
int pf_writer_save(pf_writer *w, const char *path, char *err, size_t errlen);
void pf_writer_free(pf_writer *w);

/* Tree helpers. pf_save_tree() writes probs (laid out like t->actions) for every information state of t
 * (keyed as t is: perfect recall, or view keys when t->view_keys). pf_on_tree() fills out (laid out like
 * t->actions) from policies: Black's information states from `black`, White's from `white`, looked up by
 * the perfect-recall key or, for a file with view keys, by the view key of the state's histories. A state
 * missing from its file gets the uniform policy and is counted in missing[player]; in a closed file so do
 * (uncounted) the states after it. A listed state's probabilities are divided by their sum (files sum to
 * 1 within 1e-3; float32 thirds do not sum to 1 exactly). Both return 0, or -1
 * with a message (an entry that lists other actions than the game means a file for another game). */
int pf_save_tree(const sv_tree *t, const double *probs, const pf_meta *m, const char *path, char *err,
                 size_t errlen);
int pf_on_tree(const pf_policy *black, const pf_policy *white, const sv_tree *t, double *out, uint32_t missing[2],
               char *err, size_t errlen);

#endif
