/* ratings/tabulate.c — writing result tables in six formats (see table.h). */
#include "tabulate.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int tb_format_parse(const char *name)
{
    static const char *const names[] = { "text", "md", "csv", "tex", "json", "html" };
    for (int i = 0; i < 6; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    return -1;
}

void tb_init(tb_table *t, const char *title, int cols)
{
    memset(t, 0, sizeof *t);
    snprintf(t->title, sizeof t->title, "%s", title);
    t->cols = cols < TB_MAX_COLS ? cols : TB_MAX_COLS;
}

void tb_column(tb_table *t, int col, const char *name, bool right)
{
    free(t->head[col]);
    t->head[col] = strdup(name);
    t->right[col] = right;
}

void tb_row(tb_table *t)
{
    if (t->rows == t->cap) {
        int cap = t->cap ? 2 * t->cap : 16;
        char **c = realloc(t->cells, sizeof *c * (size_t)cap * (size_t)t->cols);
        if (!c)
            return;
        t->cells = c;
        t->cap = cap;
    }
    memset(t->cells + (size_t)t->rows * (size_t)t->cols, 0, sizeof *t->cells * (size_t)t->cols);
    t->rows++;
}

void tb_set(tb_table *t, int col, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char **cell = &t->cells[(size_t)(t->rows - 1) * (size_t)t->cols + (size_t)col];
    free(*cell);
    *cell = strdup(buf);
}

void tb_free(tb_table *t)
{
    for (int i = 0; i < t->rows * t->cols; i++)
        free(t->cells[i]);
    for (int c = 0; c < t->cols; c++)
        free(t->head[c]);
    free(t->cells);
    memset(t, 0, sizeof *t);
}

static const char *cell(const tb_table *t, int r, int c)
{
    const char *s = t->cells[(size_t)r * (size_t)t->cols + (size_t)c];
    return s ? s : "";
}

static bool numeric(const char *s)
{
    if (!*s)
        return false;
    char *end;
    strtod(s, &end);
    return *end == '\0' && strspn(s, "+-0123456789.eE") == strlen(s);
}

static void escaped(FILE *out, const char *s, tb_format f)
{
    for (; *s; s++) {
        char c = *s;
        if (f == TB_JSON && (c == '"' || c == '\\'))
            fputc('\\', out);
        if (f == TB_TEX && strchr("&%$#_{}", c))
            fputc('\\', out);
        if (f == TB_MD && c == '|')
            fputc('\\', out);
        if (f == TB_TEX && c == '~') {
            fputs("\\textasciitilde{}", out);
            continue;
        }
        if (f == TB_TEX && c == '\\') {
            fputs("\\textbackslash{}", out);
            continue;
        }
        if (f == TB_HTML && strchr("<>&\"", c)) {
            fputs(c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : "&quot;", out);
            continue;
        }
        fputc(c, out);
    }
}

static void csv_cell(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void write_text(FILE *out, const tb_table *t)
{
    int width[TB_MAX_COLS];
    for (int c = 0; c < t->cols; c++) {
        width[c] = (int)strlen(t->head[c] ? t->head[c] : "");
        for (int r = 0; r < t->rows; r++)
            if ((int)strlen(cell(t, r, c)) > width[c])
                width[c] = (int)strlen(cell(t, r, c));
    }
    fprintf(out, "%s\n", t->title);
    for (int r = -1; r < t->rows; r++) {
        for (int c = 0; c < t->cols; c++) {
            const char *s = r < 0 ? (t->head[c] ? t->head[c] : "") : cell(t, r, c);
            fprintf(out, "%s%*s", c ? "  " : "", t->right[c] ? width[c] : -width[c], s);
        }
        fputc('\n', out);
    }
    if (t->note[0])
        fprintf(out, "%s\n", t->note);
}

/* "label: NAME, NAME" in format f (escaped as its cells are), without a line end. */
static void caveat_line(FILE *out, const tb_caveat *v, tb_format f)
{
    escaped(out, v->label, f);
    fputs(": ", out);
    for (int i = 0; i < v->n; i++) {
        if (i)
            fputs(", ", out);
        escaped(out, v->names[i], f);
    }
}

/* The caveat after the last table of a sequence (JSON carries it in every table). */
static void write_caveat(FILE *out, const tb_caveat *v, tb_format f)
{
    switch (f) {
    case TB_TEXT:
    case TB_MD: fputc('\n', out); caveat_line(out, v, f); fputc('\n', out); break;
    case TB_TEX: fputs("\n% ", out); caveat_line(out, v, f); fputc('\n', out); break;
    case TB_HTML: fputs("<p class=\"note\">", out); caveat_line(out, v, f); fputs("</p>\n", out); break;
    case TB_CSV: /* no comments in CSV */
    case TB_JSON: break;
    }
}

void tb_write(FILE *out, const tb_table *t, tb_format f, bool first, bool last)
{
    const tb_caveat *v = t->caveat && t->caveat->n > 0 ? t->caveat : NULL;
    switch (f) {
    case TB_TEXT:
        if (!first)
            fputc('\n', out);
        write_text(out, t);
        break;
    case TB_MD:
        if (!first)
            fputc('\n', out);
        fprintf(out, "### ");
        escaped(out, t->title, f);
        fprintf(out, "\n\n|");
        for (int c = 0; c < t->cols; c++) {
            fputc(' ', out);
            escaped(out, t->head[c] ? t->head[c] : "", f);
            fputs(" |", out);
        }
        fprintf(out, "\n|");
        for (int c = 0; c < t->cols; c++)
            fputs(t->right[c] ? "---:|" : "---|", out);
        fputc('\n', out);
        for (int r = 0; r < t->rows; r++) {
            fputc('|', out);
            for (int c = 0; c < t->cols; c++) {
                fputc(' ', out);
                escaped(out, cell(t, r, c), f);
                fputs(" |", out);
            }
            fputc('\n', out);
        }
        if (t->note[0]) {
            fputc('\n', out);
            escaped(out, t->note, f);
            fputc('\n', out);
        }
        break;
    case TB_CSV:
        if (first) {
            fputs("table", out);
            for (int c = 0; c < t->cols; c++) {
                fputc(',', out);
                csv_cell(out, t->head[c] ? t->head[c] : "");
            }
            fputc('\n', out);
        }
        for (int r = 0; r < t->rows; r++) {
            csv_cell(out, t->title);
            for (int c = 0; c < t->cols; c++) {
                fputc(',', out);
                csv_cell(out, cell(t, r, c));
            }
            fputc('\n', out);
        }
        break;
    case TB_TEX:
        if (!first)
            fputc('\n', out);
        fprintf(out, "%% ");
        escaped(out, t->title, f);
        fprintf(out, "\n\\begin{tabular}{");
        for (int c = 0; c < t->cols; c++)
            fputc(t->right[c] ? 'r' : 'l', out);
        fprintf(out, "}\n\\hline\n");
        for (int r = -1; r < t->rows; r++) {
            for (int c = 0; c < t->cols; c++) {
                if (c)
                    fputs(" & ", out);
                escaped(out, r < 0 ? (t->head[c] ? t->head[c] : "") : cell(t, r, c), f);
            }
            fputs(" \\\\\n", out);
            if (r < 0)
                fputs("\\hline\n", out);
        }
        fprintf(out, "\\hline\n\\end{tabular}\n");
        if (t->note[0]) {
            fprintf(out, "%% ");
            escaped(out, t->note, f);
            fputc('\n', out);
        }
        break;
    case TB_HTML:
        fputs("<table>\n<caption>", out);
        escaped(out, t->title, f);
        fputs("</caption>\n", out);
        for (int r = -1; r < t->rows; r++) {
            fputs("<tr>", out);
            for (int c = 0; c < t->cols; c++) {
                const char *tag = r < 0 ? "th" : "td";
                fprintf(out, "<%s%s>", tag, t->right[c] ? " class=\"num\"" : "");
                escaped(out, r < 0 ? (t->head[c] ? t->head[c] : "") : cell(t, r, c), f);
                fprintf(out, "</%s>", tag);
            }
            fputs("</tr>\n", out);
        }
        fputs("</table>\n", out);
        if (t->note[0]) {
            fputs("<p class=\"note\">", out);
            escaped(out, t->note, f);
            fputs("</p>\n", out);
        }
        break;
    case TB_JSON:
        fputs(first ? "[" : ",", out);
        fputs("{\"title\":\"", out);
        escaped(out, t->title, f);
        fputs("\",\"rows\":[", out);
        for (int r = 0; r < t->rows; r++) {
            fputs(r ? ",{" : "{", out);
            for (int c = 0; c < t->cols; c++) {
                fprintf(out, "%s\"", c ? "," : "");
                escaped(out, t->head[c] ? t->head[c] : "", f);
                const char *s = cell(t, r, c);
                if (numeric(s)) {
                    fprintf(out, "\":%s", s[0] == '+' ? s + 1 : s);
                } else {
                    fputs("\":\"", out);
                    escaped(out, s, f);
                    fputc('"', out);
                }
            }
            fputc('}', out);
        }
        fputs("]", out);
        if (t->note[0]) {
            fputs(",\"note\":\"", out);
            escaped(out, t->note, f);
            fputc('"', out);
        }
        if (v) {
            fprintf(out, ",\"%s\":[", v->key);
            for (int i = 0; i < v->n; i++) {
                fputs(i ? ",\"" : "\"", out);
                escaped(out, v->names[i], f);
                fputc('"', out);
            }
            fputc(']', out);
        }
        fputc('}', out);
        if (last)
            fputs("]\n", out);
        break;
    }
    if (v && last)
        write_caveat(out, v, f);
}
