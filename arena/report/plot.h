/* arena/report/plot.h — the reports' figures, drawn by gnuplot from the scripts in scripts/ (ratings.gp,
 * matrix.gp, history.gp): each figure is written as NAME.png and NAME.svg. Data reaches gnuplot as numbers
 * only; every name and title is written by this module into a gnuplot string literal (quotes doubled,
 * control characters replaced, enhanced text off), so any agent name (commas, quotes, spaces, UTF-8)
 * survives. Matrix cells are drawn as rectangles, so no viewer smooths them. */
#ifndef ARENA_REPORT_PLOT_H
#define ARENA_REPORT_PLOT_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#define PL_MAX_FILES 512

typedef struct {
    const char *cmd;               /* for messages: "plot", "report" */
    char scripts[PATH_MAX];        /* the directory of the .gp scripts */
    char out[PATH_MAX];            /* the output directory */
    char tmp[PATH_MAX];            /* a private temporary directory, removed by pl_close */
    char *files[PL_MAX_FILES];     /* the files written, relative to out */
    int n_files, seq;
} pl_plotter;

/* Finds the scripts ($ARENA_SCRIPTS, else ../share/darkhex-arena/scripts next to this program, else the
 * source tree's scripts/ above it), checks that gnuplot runs, creates `out` and a temporary directory.
 * Returns 0, or -1 with the reason in err. */
int pl_open(pl_plotter *p, const char *cmd, const char *out, char *err, size_t errlen);
void pl_close(pl_plotter *p);

/* Ratings with 95% intervals, one point per player in the order given (best first); lo/hi may hold NaN (no
 * interval). `caption` (may be NULL) is a second title line: the first-move advantage. */
int pl_ratings(pl_plotter *p, const char *file, const char *title, const char *caption, int n,
               const char *const *names, const double *elo, const double *lo, const double *hi);

/* A win matrix as a heatmap: rows (in the order given) move first, columns second; wins[i * n + j] and
 * games[i * n + j] of row i against column j; a cell without games is left blank. Colour: the row's score
 * (0% #b2182b, 50% #f7f7f7, 100% #2166ac); text: wins-losses and the score. */
int pl_matrix(pl_plotter *p, const char *file, const char *title, int n, const char *const *names,
              const long *wins, const long *games);

/* Rating history: nx points on the x axis labelled xlabels (nightly dates, in order), one line per player
 * with error bars; elo, lo, hi are [player * nx + x], NaN where the player did not play. */
int pl_history(pl_plotter *p, const char *file, const char *title, int nx, const char *const *xlabels, int n,
               const char *const *names, const double *elo, const double *lo, const double *hi);

/* v as a whole number for a figure's text ("%.0f", or "%+.0f" when sign): a value that rounds to zero is "0", never
 * "-0" or "+0" (gnuplot's labels get the same from the scripts). Returns out. */
const char *pl_whole(char *out, size_t len, double v, bool sign);

/* A file name made of `text` for a figure ("ratings-classical-3x3"): letters, digits, '-', '.', '_' kept,
 * anything else '_'. */
void pl_file_name(char *out, size_t len, const char *prefix, const char *text);

#endif
