/* arena/solver/pone.h — probability-one states of classical Dark Hex (pONE, docs/pone.md): the keys
 * (view, h) from which one player wins whatever the hidden stones are and whatever the opponent plays,
 * with the cell that keeps the win, and the count of such keys over every key reachable in a real game.
 *
 * Definition (for player P; the opponent is Q):
 * - A key is (own, seen, hidden): P's stones, the Q stones P has learned (by rejections), and the number
 *   of Q stones P has not seen. In classical the stone counts fix the mover: Black is to move iff both
 *   have as many stones, so the key says whether P or Q is to move.
 * - A consistent true board places the hidden stones on cells unknown to P such that Q has not already
 *   won (a board where Q had joined its sides would have ended the game). Given P's whole history the
 *   consistent boards are exactly these, so the key is all P needs to know.
 * - The key is pONE when P has a strategy on what it observes that wins against every consistent board
 *   and every Q play. Keys where P has already joined its sides are pONE; keys with Q to move are pONE
 *   when Q cannot win on its move from any consistent board and the key that follows (one more hidden
 *   stone, P to move) is pONE.
 * - Reachable keys: those some real classical game gives P (walked from the empty board).
 *
 * Boards of at most 64 cells (stones are bitsets, bit i = cell i). Results are memoised in the context,
 * so asking again (or asking the keys that follow) is cheap; memory grows with the keys met. */
#ifndef ARENA_SOLVER_PONE_H
#define ARENA_SOLVER_PONE_H

#include <stdbool.h>
#include <stdint.h>

#define SV_PONE_MAX_CELLS 64

typedef struct sv_pone sv_pone;

/* One key of player P. */
typedef struct {
    uint64_t own, seen; /* P's stones; Q's stones P has learned */
    int hidden;         /* Q's stones P has not seen */
} sv_pone_key;

/* A search context for `player` (0 Black, 1 White) on an R x C board. NULL when the board has more than
 * SV_PONE_MAX_CELLS cells or memory runs out. */
sv_pone *sv_pone_new(int rows, int cols, int player);
void sv_pone_free(sv_pone *s);

/* At most `nodes` new positions expanded per sv_pone_solve() call (0: no limit, the default). A call that
 * runs out returns -2; what it finished stays memoised. */
void sv_pone_set_budget(sv_pone *s, uint64_t nodes);

/* The memo: keys held and bytes allocated (24 bytes a slot, the table at most three quarters full). */
void sv_pone_memo(const sv_pone *s, uint64_t *keys, uint64_t *bytes);

/* Whether P is to move at k by the classical stone counts (Black iff the counts are equal). */
bool sv_pone_to_move(const sv_pone *s, const sv_pone_key *k);

/* Whether k is a key of a live or just-won game: disjoint sets on the board, the counts of a classical
 * game, Q not joined, and some consistent board (enough unknown cells for the hidden stones that leave Q
 * unjoined). Reachability from the empty board is not checked here. */
bool sv_pone_consistent(const sv_pone *s, const sv_pone_key *k);

/* Solves k: 1 pONE, 0 not, -1 k is not consistent (or memory ran out), -2 the budget ran out. On 1,
 * *cell (when not NULL) is the attempt that keeps the win when P is to move, or -1 when Q is to move or
 * P has already won. */
int sv_pone_solve(sv_pone *s, const sv_pone_key *k, int *cell);

/* Counts over the keys reachable in real games, by stones in the view (own + seen) and hidden count. */
typedef struct {
    uint64_t keys, pone;            /* reachable keys; pONE among them */
    uint64_t pone_to_move;          /* pONE keys with P to move (the others: Q to move or P already won) */
    uint64_t pone_won;              /* pONE keys where P has already won */
    uint64_t keys_by[SV_PONE_MAX_CELLS + 1][SV_PONE_MAX_CELLS + 1]; /* [stones][hidden] */
    uint64_t pone_by[SV_PONE_MAX_CELLS + 1][SV_PONE_MAX_CELLS + 1];
    uint64_t nodes;                 /* positions the solver expanded */
} sv_pone_counts;

/* Called for each reachable key, in no particular order, with its result (1/0) and winning cell. */
typedef void (*sv_pone_visit)(const sv_pone_key *k, int pone, int cell, void *user);

/* Walks every key reachable in a real game from the empty board, solving each. Returns 0, or -1 when
 * memory runs out. visit may be NULL. The budget is ignored. */
int sv_pone_enumerate(sv_pone *s, sv_pone_counts *out, sv_pone_visit visit, void *user);

/* Other conventions, for comparing with published counts (docs/pone.md "The literature"); boards of at
 * most SV_PONE_CONVENTION_MAX_CELLS cells, every (own, seen) split of the board enumerated:
 * - SV_PONE_ALL_CONSISTENT: every consistent key (sv_pone_consistent), reachable or not, solved as above.
 * - SV_PONE_THESIS: the thesis's SEARCH-PONE states: fewer than n stones in the view, h < n/2, the counts
 *   of a classical game with either player to move, evaluated by the thesis's recursion (wins decided by
 *   visible stones only; its branches taken when the hidden stones fit on the unknown cells).
 * - SV_PONE_THESIS_EXACT: the same states, solved as above (inconsistent ones count as not pONE).
 * The counts go to out (keys: the states enumerated). Returns 0, or -1 (board too large, out of memory). */
typedef enum { SV_PONE_ALL_CONSISTENT, SV_PONE_THESIS, SV_PONE_THESIS_EXACT } sv_pone_convention;
#define SV_PONE_CONVENTION_MAX_CELLS 16
int sv_pone_count_convention(sv_pone *s, sv_pone_convention c, sv_pone_counts *out);

#endif
