/* arena/report/svgfig.h — the pages' figures as inline SVG, drawn from numbers by this module alone so that the
 * summary served by `arena serve` and the report written by `arena report` carry the same drawing: ratings with
 * their 95% intervals, a win matrix as a heatmap, a rating history. Every name and title is escaped here (XML
 * text and attributes: & < > " ' replaced, control bytes dropped), every link (href) too; numbers are written
 * with a fixed number of decimals and a value that rounds to zero is written "0", never "-0". Each drawing is
 * one <svg class="fig"> element (for an HTML page: no namespace, no reference to anything else) with a viewBox
 * and its width; the style sheet (style.c) scales it down to its box on a desktop and lets it scroll in its box
 * at its own size on a phone.
 * (The gnuplot figures of `arena plot`, files for papers, are plot.h's.) */
#ifndef ARENA_REPORT_SVGFIG_H
#define ARENA_REPORT_SVGFIG_H

/* Ratings, one row per player in the order given (best first): a point at elo[i] with its interval lo..hi
 * (NaN: none). href (may be NULL, or hold NULLs) links each name. Returns the SVG (malloc'd; NULL only when
 * memory runs out). */
char *sv_ratings(const char *title, const char *caption, int n, const char *const *names, const double *elo,
                 const double *lo, const double *hi, const char *const *href);

/* A win matrix: rows (in the order given) move first, columns second; wins[i * n + j] of games[i * n + j]
 * of row i against column j. Colour: the row's score (0% #b2182b, 50% #f7f7f7, 100% #2166ac, linear in RGB
 * between them); text: wins-losses and the score. A cell without games is left blank. name_href links the
 * names, cell_href[i * n + j] the cells (each may be NULL). */
char *sv_matrix(const char *title, int n, const char *const *names, const long *wins, const long *games,
                const char *const *name_href, const char *const *cell_href);

/* A rating history: nx nights on the x axis labelled xlabels, one line per player (colours in the legend)
 * with its intervals; elo, lo, hi are [player * nx + x], NaN where it did not play. */
char *sv_history(const char *title, int nx, const char *const *xlabels, int n, const char *const *names,
                 const double *elo, const double *lo, const double *hi, const char *const *href);

/* The colour of a score in 0..100 on the heatmap's scale, as 0xRRGGBB. */
unsigned sv_score_colour(double score);

#endif
