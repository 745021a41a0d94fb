/* arena/solver/checkpoint.h — trainer checkpoints: the information-state table with each action's regret
 * and strategy sum, the iteration count and the random state, written atomically so that a killed run
 * resumes from its last checkpoint. The same file serves trainers on built trees and sampling trainers;
 * it records what was trained (game, keys, algorithm) and a resume that does not match is refused. */
#ifndef ARENA_SOLVER_CHECKPOINT_H
#define ARENA_SOLVER_CHECKPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "gametree.h"

typedef struct {
    int variant, rows, cols;
    unsigned flags;
    int keys;               /* pf_keys */
    char algo[16];
    long iteration;
    uint64_t rng;
    double seconds;         /* training time so far */
} sv_ckpt_meta;

/* Writes t's information states with regret[] and sum[] (laid out like t->actions). 0, or -1 with a
 * message in err. */
int sv_ckpt_save(const char *path, const sv_ckpt_meta *m, const sv_tree *t, const float *regret,
                 const double *sum, char *err, size_t errlen);

/* Reads a checkpoint: its information states go into *t (a zeroed table, no nodes) and the arrays into
 * *regret and *sum (malloc'd, laid out like t->actions). 0, or -1 with a message naming the file. */
int sv_ckpt_load(const char *path, sv_ckpt_meta *m, sv_tree *t, float **regret, double **sum, char *err,
                 size_t errlen);

/* A trainer's resume: sv_ckpt_load(), then a check that the checkpoint is for the game, key scheme and
 * algorithm of `want` (variant, rows, cols, flags, keys, algo). 1 when there is no file at path, 0 when
 * loaded, -1 with a message naming the file (unreadable, corrupt, or for something else) in err. */
int sv_ckpt_resume(const char *path, const sv_ckpt_meta *want, sv_ckpt_meta *m, sv_tree *t, float **regret,
                   double **sum, char *err, size_t errlen);

/* Copies a loaded checkpoint's regret[] and sum[] (laid out like tab->actions) onto the information states
 * of a built tree t (into its own arrays, laid out like t->actions). 0 when the two hold exactly the same
 * information states with the same action counts; -1 otherwise (the arrays may be partly written). */
int sv_ckpt_onto_tree(const sv_tree *tab, const float *regret, const double *sum, const sv_tree *t,
                      float *t_regret, double *t_sum);

#endif
