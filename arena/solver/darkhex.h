/* arena/solver/darkhex.h — Hex and every Dark Hex variant as an efg_game (efg.h) for the solvers: the
 * state is an hx_game, actions are the legal attempts (unknown cells in ascending order, then the swap),
 * player 0 is Black, utility +1 when Black wins, and the key is the engine's perfect-recall key hash. */
#ifndef ARENA_SOLVER_DARKHEX_H
#define ARENA_SOLVER_DARKHEX_H

#include "efg.h"
#include "game.h"

typedef struct {
    hx_variant variant;
    int rows, cols;
    unsigned flags;   /* HX_SWAP_RULE */
} sv_darkhex;

/* Fills g to play the game described by p (p must outlive g). */
void sv_darkhex_game(efg_game *g, const sv_darkhex *p);

#endif
