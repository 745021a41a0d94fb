/* arena/ladder/curve.h — an SPRT test's LLR curve as an SVG drawing (doc.h's DOC_SVG) for a bot's page: the LLR
 * after each game pair as a line, the bounds of H0 (below) and H1 (above) dashed, the axes labelled with numbers.
 * Made from numbers only, so it can be inlined in a page as it is. */
#ifndef ARENA_LADDER_CURVE_H
#define ARENA_LADDER_CURVE_H

/* The drawing (malloc'd) of n points (pairs[i], llr[i]) between the bounds lower and upper; NULL out of memory. */
char *ld_llr_svg(const long *pairs, const double *llr, int n, double lower, double upper);

#endif
