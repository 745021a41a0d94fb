/* arena/solver/classify.h — who wins a small board of a dark variant (docs/solved.md): Black surely, White
 * surely, or neither (then the value to Black: exact from the sequence-form LP, or an interval certified
 * by exact best responses to CFR+'s average strategies), within a time budget; each sure win optionally
 * written as a certificate (surecert.h), each value with the policy file that bounds it. */
#ifndef ARENA_SOLVER_CLASSIFY_H
#define ARENA_SOLVER_CLASSIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "variant.h"

typedef enum { CL_BLACK, CL_WHITE, CL_NEITHER, CL_OPEN } cl_outcome;

typedef struct {
    double budget_s;      /* seconds for one board and variant, all stages together */
    uint64_t memo_bytes;  /* largest sure-win memo (each player's) */
    uint32_t max_nodes;   /* largest game tree built for the LP and CFR+ */
    const char *out_dir;  /* certificates and policy files go here (NULL: none) */
} cl_options;

typedef struct {
    int rows, cols;
    hx_variant variant;
    cl_outcome outcome;
    bool exact;           /* value is the LP's (or +-1 for a sure win) */
    double value;         /* Black's value when exact */
    double lower, upper;  /* bounds on Black's value (equal to value when exact) */
    const char *how;      /* "sure-win search", "lp", "cfr+ bounds", "none" */
    double seconds, peak_mb;
    uint64_t keys;        /* sure-win memo keys, both players */
    char note[240];       /* what was reached, what stopped it, files written */
} cl_row;

void cl_options_default(cl_options *o);

/* Classifies the R x C board of dark variant v. Returns 0, or -1 with the reason in row->note (a file that
 * could not be written; an unsupported variant or board). */
int cl_classify(int rows, int cols, hx_variant v, const cl_options *o, cl_row *row);

/* "black", "white", "neither", "open". */
const char *cl_outcome_name(cl_outcome o);

/* What cl_check_certificate found. Only CL_CHECK_VERIFIED is a proof. */
typedef enum {
    CL_CHECK_VERIFIED,  /* won against every opponent behaviour (the full check) */
    CL_CHECK_SAMPLED,   /* won every sampled game: not verified */
    CL_CHECK_REFUTED,   /* a game it loses, an illegal attempt or a history it has no line for */
    CL_CHECK_UNDECIDED  /* a bad file, or the full check needed more than CL_CHECK_MAX_STATES states or memory */
} cl_check;

/* The full check gives up (CL_CHECK_UNDECIDED) past this many true game states, summed over histories. */
#define CL_CHECK_MAX_STATES 200000000ull

/* Checks a certificate file with the independent checker (surecert.h; a value certificate, first line
 * `darkhex-value`, with valcert.h's, whatever the sampling: "verified: value P/Q ..."). sample 0: against every opponent
 * behaviour, whatever the board. sample > 0 (sampling asked for): a certificate on a board of more than
 * full_cells cells is played instead against `sample` random opponents (seeded), SAMPLED when it wins them
 * all; boards of at most full_cells cells still get the full check. A one-line summary in msg: the path, the
 * board, then "verified ...", "sampled: N games won, not verified ...", "REFUTED: why ..." or
 * "undecided: why ...". */
cl_check cl_check_certificate(const char *path, uint64_t sample, int full_cells, char *msg, size_t msglen);

#endif
