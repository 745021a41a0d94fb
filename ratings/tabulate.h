/* ratings/tabulate.h — result tables (ratings, win matrices) written as aligned text, Markdown, CSV, LaTeX,
 * JSON or an HTML fragment (<table> and a note; cells that read as numbers get class "num"). A table is a
 * title, column names and rows of text cells; cells that read as numbers become JSON numbers and empty
 * cells JSON null. Every format of the same table carries the same cells, except that a cell set with
 * tb_set_real() is written rounded in the formats for people and at full precision in JSON and CSV, and a
 * machine column (tb_column_csv()) is written in JSON and CSV only. Each format has its one writer. */
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

/* What a table is of (a variant, a board): a member of its JSON object and, in CSV, a leading column (in place
 * of the column "table", which holds the title when a table has no keys). An empty value is JSON null. */
typedef struct {
    const char *name;
    char value[96];
} tb_key;

#define TB_MAX_KEYS 4

typedef struct {
    char title[256];
    int cols, rows, cap;
    char *head[TB_MAX_COLS];
    bool right[TB_MAX_COLS];    /* right-aligned (numbers) */
    char **cells;               /* rows * cols, malloc'd strings */
    char **exact;               /* rows * cols: the full-precision text of tb_set_real() cells (JSON, CSV) */
    bool machine[TB_MAX_COLS];  /* written in JSON and CSV only */
    const char *csv_head[TB_MAX_COLS]; /* the column's name in CSV when not its name (e.g. "plus_minus") */
    tb_key keys[TB_MAX_KEYS];
    int n_keys;
    const char *preamble;       /* NULL, or a line before the first table of a sequence: text and md a line
                                 * and a blank line, tex a comment, html <p class="scope">; not in CSV and
                                 * JSON (which carry it otherwise) */
    char *json;                 /* NULL, or more members of the table's JSON object (raw JSON text without
                                 * the leading comma, e.g. "\"scope\":{...}"); malloc'd, freed by tb_free */
    char note[512];             /* a line under the table (text, md, tex) */
    const tb_caveat *caveat;    /* NULL for none; set after tb_init, on every table of a sequence */
    char **href;                /* NULL, or rows * cols: the link of a cell (tb_link), NULL for none */
    int hash[TB_MAX_COLS];      /* > 0: a hash column (tb_column_hash), its hex cells shortened in HTML */
} tb_table;

/* Parses text|md|csv|tex|json|html. Returns -1 for anything else. */
int tb_format_parse(const char *name);

void tb_init(tb_table *t, const char *title, int cols);
void tb_column(tb_table *t, int col, const char *name, bool right);
/* Starts a new row; then tb_set fills its cells (printf-style). */
void tb_row(tb_table *t);
void tb_set(tb_table *t, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Sets a number: text with `decimals` decimals (no "-0"), and in JSON and CSV the exact value ("%.17g").
 * A NaN or infinity leaves the cell empty (JSON null). */
void tb_set_real(tb_table *t, int col, double v, int decimals);
/* Makes cell `col` of the current row a link to href: in HTML <a href>, in Markdown [text](href); the other
 * formats write its text only. */
void tb_link(tb_table *t, int col, const char *href);
/* Names column `col` `csv` in CSV (NULL: its name); with machine_only, the column is written in JSON and
 * CSV only. */
void tb_column_csv(tb_table *t, int col, const char *csv, bool machine_only);
/* Makes column `col` a hash column: in HTML a cell of hex digits longer than `shown` is written as its first
 * `shown` characters with the whole value on demand (<details class="hash" title="FULL"><summary>), so that a
 * SHA-256 does not fill a phone's screen; every other format writes the whole value. */
void tb_column_hash(tb_table *t, int col, int shown);
/* Adds a key (tb_key) to the table. */
void tb_key_set(tb_table *t, const char *name, const char *value);
void tb_free(tb_table *t);

/* Writes one table. `first`/`last` say whether it opens or closes a sequence of tables (JSON array,
 * CSV header once per sequence of tables with the same columns). */
void tb_write(FILE *out, const tb_table *t, tb_format f, bool first, bool last);

#endif
