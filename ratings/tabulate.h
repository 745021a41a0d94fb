/* ratings/tabulate.h — result tables (ratings, win matrices) written as aligned text, Markdown, CSV, LaTeX,
 * JSON or an HTML fragment (<table> and a note; cells that read as numbers get class "num"). A table is a title, column names and rows of text cells; cells that read as numbers become JSON
 * numbers. Every format of the same table carries the same cells. */
#ifndef RATINGS_TABULATE_H
#define RATINGS_TABULATE_H

#include <stdbool.h>
#include <stdio.h>

typedef enum { TB_TEXT, TB_MD, TB_CSV, TB_TEX, TB_JSON, TB_HTML } tb_format;

#define TB_MAX_COLS 64

typedef struct {
    char title[256];
    int cols, rows, cap;
    char *head[TB_MAX_COLS];
    bool right[TB_MAX_COLS];    /* right-aligned (numbers) */
    char **cells;               /* rows * cols, malloc'd strings */
    char note[512];             /* a line under the table (text, md, tex) */
} tb_table;

/* Parses text|md|csv|tex|json|html. Returns -1 for anything else. */
int tb_format_parse(const char *name);

void tb_init(tb_table *t, const char *title, int cols);
void tb_column(tb_table *t, int col, const char *name, bool right);
/* Starts a new row; then tb_set fills its cells (printf-style). */
void tb_row(tb_table *t);
void tb_set(tb_table *t, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void tb_free(tb_table *t);

/* Writes one table. `first`/`last` say whether it opens or closes a sequence of tables (JSON array,
 * CSV header once per sequence of tables with the same columns). */
void tb_write(FILE *out, const tb_table *t, tb_format f, bool first, bool last);

#endif
