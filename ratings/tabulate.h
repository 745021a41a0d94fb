/* ratings/tabulate.h — result tables (ratings, win matrices) written as aligned text, Markdown, CSV, LaTeX,
 * JSON or an HTML fragment (<table> and a note; cells that read as numbers get class "num"). A table is a title, column names and rows of text cells; cells that read as numbers become JSON
 * numbers. Every format of the same table carries the same cells. */
#ifndef RATINGS_TABULATE_H
#define RATINGS_TABULATE_H

#include <stdbool.h>
#include <stdio.h>

typedef enum { TB_TEXT, TB_MD, TB_CSV, TB_TEX, TB_JSON, TB_HTML } tb_format;

#define TB_MAX_COLS 64

/* A caveat about some names that holds for a whole sequence of tables (the agents of the selected games that
 * played without a sandbox): in JSON, a key of every table object with the names as a list; after the last
 * table, in text and Markdown the line "label: NAME, NAME", in HTML that line as a paragraph of class "note",
 * in LaTeX as a comment; CSV, which has no comments, leaves it out. With n 0 the output is as without it. */
typedef struct {
    const char *key;            /* the JSON key */
    const char *label;
    const char *const *names;
    int n;
} tb_caveat;

typedef struct {
    char title[256];
    int cols, rows, cap;
    char *head[TB_MAX_COLS];
    bool right[TB_MAX_COLS];    /* right-aligned (numbers) */
    char **cells;               /* rows * cols, malloc'd strings */
    char note[512];             /* a line under the table (text, md, tex) */
    const tb_caveat *caveat;    /* NULL for none; set after tb_init, on every table of a sequence */
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
