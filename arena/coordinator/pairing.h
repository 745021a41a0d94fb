/* arena/coordinator/pairing.h — a league's results by pairing: two agents on one variant and board, with their game
 * tally, the pentanomial counts of their game pairs (ratings/pentanomial.h), how many of their games were
 * distinct, and, in an SPRT league, whether the test is decided. Fed game by game, from the store (a resumed
 * league) and as games finish. */
#ifndef ARENA_COORDINATOR_PAIRING_H
#define ARENA_COORDINATOR_PAIRING_H

#include <stdbool.h>
#include <stdint.h>

#include "pentanomial.h"
#include "variant.h"

typedef struct {
    hx_variant variant;
    int rows, cols;
    char a[64], b[64];             /* a: the pairing's first agent (the challenger in a gauntlet or SPRT) */
    long games, a_wins, b_wins;
    long a_wins_black, b_wins_black; /* wins with Black */
    pn_counts penta;               /* complete pairs, from a's side */
    int distinct;                  /* distinct games (colours and attempts), from pg_finish */
    pn_decision decision;          /* an SPRT's: PN_CONTINUE until decided */
    double llr;
    /* private */
    signed char *half;             /* per pair: a's points in its first finished game, -1: none yet */
    int n_half;
    uint64_t *seen;                /* one hash per game */
    long n_seen, cap_seen;
} pg_pairing;

typedef struct pg_table pg_table;

pg_table *pg_new(void);
void pg_free(pg_table *t);

/* The pairing of a and b (in this order) on v, rows x cols, made when new; NULL when out of memory. */
pg_pairing *pg_get(pg_table *t, hx_variant v, int rows, int cols, const char *a, const char *b);

/* The pairing if it exists (a and b in either order). */
pg_pairing *pg_find(pg_table *t, hx_variant v, int rows, int cols, const char *x, const char *y);

/* One finished game of pairing p: whether a had Black, whether a won, its pair (-1: none) and a hash of its
 * attempts (0: unknown, not counted for distinctness). Returns 0, or -1 out of memory. */
int pg_add(pg_pairing *p, bool a_black, bool a_won, int pair, uint64_t moves);

/* Counts the distinct games of every pairing (pairing.distinct). */
void pg_finish(pg_table *t);

int pg_count(const pg_table *t);
pg_pairing *pg_at(pg_table *t, int i);

#endif
