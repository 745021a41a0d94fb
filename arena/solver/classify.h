/* arena/solver/classify.h — who wins a small board of a dark variant (docs/solved.md): Black surely, White
 * surely, or neither (then the value to Black: exact from the double oracle or the sequence-form LP, or an
 * interval certified by exact best responses, to the double oracle's or CFR+'s strategies; where the tree
 * does not fit, from the tree-free oracles of dowalk.h and doseq.h), within a time
 * budget; each sure win optionally written as a certificate (surecert.h), each value with the policy file
 * that bounds it; optionally the value after each of Black's first cells (the first-move table). */
#ifndef ARENA_SOLVER_CLASSIFY_H
#define ARENA_SOLVER_CLASSIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "variant.h"

typedef enum { CL_BLACK, CL_WHITE, CL_NEITHER, CL_OPEN } cl_outcome;

#define CL_MAX_CELLS 16      /* the largest board (SW_MAX_CELLS) */
#define CL_FRACTION_MAX_DEN 20000 /* cl_fraction's largest denominator */

typedef struct {
    double budget_s;      /* seconds for one board and variant, all stages together (the first-move table,
                           * when asked for, has a budget of its own: first_budget_s) */
    double first_budget_s;/* seconds for one row's first-move table, all cells (0: budget_s) */
    uint64_t memo_bytes;  /* largest sure-win memo (each player's) */
    uint32_t max_nodes;   /* largest game tree built for the double oracle, the LP and CFR+ */
    const char *out_dir;  /* certificates and policy files go here (NULL: none); a -noisy/-flash row whose
                           * board has its plain row's value certificate here (RxC-classical.value,
                           * RxC-abrupt.value) plays it deaf to the reports first, where the tree does not fit;
                           * a row whose own RxC-V.value is here starts from it once verified, and replaces it
                           * only with a narrower one */
    bool first_moves;     /* also the first-move table (cl_row.first) of the rows with an exact value */
    bool first_sequence_only; /* on a row with the tree, each first-move cell straight from the sequence oracle
                           * with Black's first attempt fixed (its whole share), not the tree's double oracle
                           * first: the fallback alone, to compare the two */
    double max_memory_mb; /* the kept certificate's check and the report-blind step each run in a child process
                           * killed once it adds this many resident MB (memguard.h; the row goes on without
                           * it, the note says so); 0 (default): what the kernel reports available when the
                           * step starts, less a tenth and 512 MB */
} cl_options;

/* Black's value in the game where Black's first attempt is fixed to one cell (and so known to White: the
 * most Black can guarantee when it always opens there). The half-turn of the board maps the game onto
 * itself: a cell's entry is its image's (computed once, for the first of the two). In the dark variants the board's value can exceed
 * the best of these (White does not see where Black opened: mixing the opening is worth something). */
typedef struct {
    int cell;             /* the cell index (r * cols + c) */
    bool exact;
    double value;         /* when exact */
    double lower, upper;  /* bounds (equal to value when exact) */
    const char *how;      /* "sure-win search", "double oracle", "sequence oracle", "sequence-oracle bounds" (the
                           * bounds of a run the budget stopped), "certificate" (the cell's certificate kept in
                           * out_dir, RxC-V-first-CELL.value, verified in full), "none" */
    bool no_sure_win;     /* on a board Black wins surely: the sure-win search showed this cell does not keep
                           * the win (the value is below 1; no bound closer is claimed) */
    long num, den;        /* value = num/den (cl_fraction), den 0 when none is found or not exact */
    bool has_br;          /* br is known (the board's value came from the double oracle) */
    double br;            /* Black's best-response value after this cell against White's equilibrium strategy
                           * found for the whole board: at most the board's value, equal on the best cells, and
                           * below it on every cell that no equilibrium of Black opens with */
} cl_first_move;

typedef struct {
    int rows, cols;
    hx_variant variant;
    cl_outcome outcome;
    bool exact;           /* value is exact: the double oracle's or the LP's (or +-1 for a sure win) */
    double value;         /* Black's value when exact */
    double lower, upper;  /* bounds on Black's value (equal to value when exact, up to the double oracle's
                           * tolerance 1e-10 when it gave the value: then its bounds) */
    const char *how;      /* "sure-win search", "double oracle", "lp", "cfr+ bounds", "sequence oracle",
                           * "sequence-oracle bounds", "report-blind" (a -noisy/-flash row: the plain row's
                           * certificate in out_dir played deaf to the reports), "certificate" (the row's
                           * own certificate found in out_dir, verified), "uniform", "none" */
    long num, den;        /* when exact: the value as the fraction num/den (cl_fraction); den 0 when none */
    double seconds, peak_mb;
    uint64_t keys;        /* sure-win memo keys, both players */
    char note[2048];      /* what was reached, what stopped it, files written (with the first-move table, the
                           * first-move certificates it started from, by file name) */
    int n_first;          /* entries in first (0 unless o->first_moves and the value is exact) */
    cl_first_move first[CL_MAX_CELLS]; /* in ascending cell order */
    double first_seconds; /* the first-move table's time */
    bool has_root_br;     /* root_br is known (the value came from the double oracle) */
    double root_br[CL_MAX_CELLS]; /* by cell: cl_first_move.br */
} cl_row;

void cl_options_default(cl_options *o);

/* Classifies the R x C board of dark variant v. Returns 0, or -1 with the reason in row->note (a file that
 * could not be written; an unsupported variant or board). */
int cl_classify(int rows, int cols, hx_variant v, const cl_options *o, cl_row *row);

/* The simplest fraction (smallest denominator, at most CL_FRACTION_MAX_DEN) in [lower - 1e-10, upper + 1e-10]:
 * true with *num / *den (den > 0), false when there is none. A reading of floating-point bounds, not a
 * proof: a value whose true denominator is larger may meet a simpler fraction within 1e-10 by chance
 * (about one value in 40 when that happens; docs/solved.md). */
bool cl_fraction(double lower, double upper, long *num, long *den);

/* "black", "white", "neither", "open". */
const char *cl_outcome_name(cl_outcome o);

/* What cl_check_certificate found. Only CL_CHECK_VERIFIED is a proof. */
typedef enum {
    CL_CHECK_VERIFIED,  /* won against every opponent behaviour (the full check) */
    CL_CHECK_SAMPLED,   /* won every sampled game: not verified */
    CL_CHECK_REFUTED,   /* a game it loses, an illegal attempt or a history it has no line for */
    CL_CHECK_UNDECIDED  /* a bad file, or the full check needed more than CL_CHECK_MAX_STATES states or memory */
} cl_check;

/* The full check gives up (CL_CHECK_UNDECIDED) past this many true game states, summed over histories (a
 * value certificate: histories walked by each best response), unless told otherwise. */
#define CL_CHECK_MAX_STATES 200000000ull

/* Checks a certificate file with the independent checker (surecert.h; a value certificate, first line
 * `darkhex-value`, with valcert.h's, whatever the sampling: "verified: value P/Q ..."). sample 0: against every opponent
 * behaviour, whatever the board. sample > 0 (sampling asked for): a certificate on a board of more than
 * full_cells cells is played instead against `sample` random opponents (seeded), SAMPLED when it wins them
 * all; boards of at most full_cells cells still get the full check. A one-line summary in msg: the path, the
 * board, then "verified ...", "sampled: N games won, not verified ...", "REFUTED: why ..." or
 * "undecided: why ...". */
cl_check cl_check_certificate(const char *path, uint64_t sample, int full_cells, char *msg, size_t msglen);
/* The same with the full check's cap given: max_states (0: none) in place of CL_CHECK_MAX_STATES. */
cl_check cl_check_certificate_cap(const char *path, uint64_t sample, int full_cells, uint64_t max_states, char *msg,
                                  size_t msglen);

#endif
