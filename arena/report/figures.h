/* arena/report/figures.h — every figure of one league, as `arena plot` and `arena report` draw it: ratings with
 * 95% intervals pooled and per variant and board (first-move advantage in the caption), a win-matrix heatmap
 * per variant and board ordered by that table's ratings, and the rating history of every league with the
 * same name, one point per nightly date. The numbers are those of `arena ratings` (standings.h). */
#ifndef ARENA_REPORT_FIGURES_H
#define ARENA_REPORT_FIGURES_H

#include <stdint.h>

#include "plot.h"
#include "store.h"

/* Draws the figures of league `league` of the open store s (its path `db`, for messages) into p's directory:
 * ratings-pooled, ratings-VARIANT-RxC, matrix-VARIANT-RxC and history (.png and .svg each). `bootstrap`
 * resamples for the intervals; `label` starts every title. Returns 0, or -1 (gnuplot failed; it said why).
 * Database errors exit through die_fail() (die.h). */
int fg_draw(pl_plotter *p, store_db *s, const char *db, int64_t league, int bootstrap, const char *label);

/* The name of a variant and board's figures: "classical-3x3" (file-name safe). */
void fg_group_file(char *out, size_t len, const char *prefix, const char *variant, const char *board);

#endif
