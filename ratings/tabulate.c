/* ratings/tabulate.c — result tables and their six writers, one function per format (see tabulate.h). */
#include "tabulate.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

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
        char **e = realloc(t->exact, sizeof *e * (size_t)cap * (size_t)t->cols);
        if (!e)
            return;
        t->exact = e;
        if (t->href) {
            char **h = realloc(t->href, sizeof *h * (size_t)cap * (size_t)t->cols);
            if (!h)
                return;
            t->href = h;
        }
        t->cap = cap;
    }
    memset(t->cells + (size_t)t->rows * (size_t)t->cols, 0, sizeof *t->cells * (size_t)t->cols);
    memset(t->exact + (size_t)t->rows * (size_t)t->cols, 0, sizeof *t->exact * (size_t)t->cols);
    if (t->href)
        memset(t->href + (size_t)t->rows * (size_t)t->cols, 0, sizeof *t->href * (size_t)t->cols);
    t->rows++;
}

void tb_set(tb_table *t, int col, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    size_t at = (size_t)(t->rows - 1) * (size_t)t->cols + (size_t)col;
    free(t->cells[at]);
    t->cells[at] = strdup(buf);
    free(t->exact[at]);
    t->exact[at] = NULL;
}

void tb_set_real(tb_table *t, int col, double v, int decimals)
{
    if (!isfinite(v)) {
        tb_set(t, col, "%s", "");
        return;
    }
    char text[64];
    snprintf(text, sizeof text, "%.*f", decimals, v);
    if (text[0] == '-' && strspn(text + 1, "0.") == strlen(text + 1)) /* no "-0": a sign where there is none */
        memmove(text, text + 1, strlen(text));
    tb_set(t, col, "%s", text);
    snprintf(text, sizeof text, "%.17g", v + 0.0);
    t->exact[(size_t)(t->rows - 1) * (size_t)t->cols + (size_t)col] = strdup(text);
}

void tb_link(tb_table *t, int col, const char *href)
{
    if (!t->href) {
        t->href = calloc((size_t)t->cap * (size_t)t->cols, sizeof *t->href);
        if (!t->href)
            return;
    }
    size_t at = (size_t)(t->rows - 1) * (size_t)t->cols + (size_t)col;
    free(t->href[at]);
    t->href[at] = strdup(href);
}

void tb_column_csv(tb_table *t, int col, const char *csv, bool machine_only)
{
    t->csv_head[col] = csv;
    t->machine[col] = machine_only;
}

void tb_column_hash(tb_table *t, int col, int shown)
{
    t->hash[col] = shown;
}

void tb_key_set(tb_table *t, const char *name, const char *value)
{
    if (t->n_keys == TB_MAX_KEYS)
        return;
    t->keys[t->n_keys].name = name;
    snprintf(t->keys[t->n_keys].value, sizeof t->keys[0].value, "%s", value);
    t->n_keys++;
}

void tb_free(tb_table *t)
{
    for (int i = 0; i < t->rows * t->cols; i++) {
        free(t->cells[i]);
        free(t->exact[i]);
        if (t->href)
            free(t->href[i]);
    }
    free(t->href);
    for (int c = 0; c < t->cols; c++)
        free(t->head[c]);
    free(t->cells);
    free(t->exact);
    free(t->json);
    memset(t, 0, sizeof *t);
}

static const char *cell(const tb_table *t, int r, int c)
{
    const char *s = t->cells[(size_t)r * (size_t)t->cols + (size_t)c];
    return s ? s : "";
}

/* The cell as JSON and CSV write it: its exact value when it has one. */
static const char *exact_cell(const tb_table *t, int r, int c)
{
    const char *s = t->exact[(size_t)r * (size_t)t->cols + (size_t)c];
    return s ? s : cell(t, r, c);
}

static const char *head(const tb_table *t, int c)
{
    return t->head[c] ? t->head[c] : "";
}

static bool numeric(const char *s)
{
    if (!*s)
        return false;
    char *end;
    strtod(s, &end);
    return *end == '\0' && strspn(s, "+-0123456789.eE") == strlen(s);
}

/* Text in format f: markup characters escaped (JSON strings are written by json_string(), quotes included). */
static void escaped(FILE *out, const char *s, tb_format f)
{
    for (; *s; s++) {
        char c = *s;
        if (f == TB_TEX && strchr("&%$#_{}", c))
            fputc('\\', out);
        if (f == TB_MD && strchr("|\\<>*_`[]&", c)) /* markup characters in names are shown, not obeyed */
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

/* One CSV field (RFC 4180): quoted, with quotes doubled, when it holds a comma, a quote or a line break. */
static void csv_cell(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
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

static void write_text(FILE *out, const tb_table *t, bool first, bool last)
{
    (void)last;
    if (!first)
        fputc('\n', out);
    int width[TB_MAX_COLS];
    for (int c = 0; c < t->cols; c++) {
        width[c] = (int)strlen(head(t, c));
        for (int r = 0; r < t->rows; r++)
            if ((int)strlen(cell(t, r, c)) > width[c])
                width[c] = (int)strlen(cell(t, r, c));
    }
    fprintf(out, "%s\n", t->title);
    for (int r = -1; r < t->rows; r++) {
        bool lead = false;
        for (int c = 0; c < t->cols; c++) {
            if (t->machine[c])
                continue;
            const char *s = r < 0 ? head(t, c) : cell(t, r, c);
            fprintf(out, "%s%*s", lead ? "  " : "", t->right[c] ? width[c] : -width[c], s);
            lead = true;
        }
        fputc('\n', out);
    }
    if (t->note[0])
        fprintf(out, "%s\n", t->note);
}

/* A JSON value: null for empty text, a number for text that reads as one, else a string. */
static void json_value(FILE *out, const char *s)
{
    if (!*s)
        fputs("null", out);
    else if (numeric(s))
        fputs(s[0] == '+' ? s + 1 : s, out);
    else
        json_string(out, s);
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

/* The preamble (tb_table.preamble) before the first table of a sequence. */
static void write_preamble(FILE *out, const char *line, tb_format f)
{
    switch (f) {
    case TB_TEXT: fprintf(out, "%s\n\n", line); break;
    case TB_MD: escaped(out, line, f); fputs("\n\n", out); break;
    case TB_TEX: fputs("% ", out); escaped(out, line, f); fputs("\n\n", out); break;
    case TB_HTML: fputs("<p class=\"scope\">", out); escaped(out, line, f); fputs("</p>\n", out); break;
    case TB_CSV:
    case TB_JSON: break;
    }
}

/* A cell in a format for people: `r` -1 is the header. Machine columns are left out by the callers. */
static const char *shown(const tb_table *t, int r, int c)
{
    return r < 0 ? head(t, c) : cell(t, r, c);
}

static void write_md(FILE *out, const tb_table *t, bool first, bool last)
{
    (void)last;
    if (!first)
        fputc('\n', out);
    fprintf(out, "### ");
    escaped(out, t->title, TB_MD);
    fprintf(out, "\n\n");
    for (int r = -2; r < t->rows; r++) {
        fputc('|', out);
        for (int c = 0; c < t->cols; c++) {
            if (t->machine[c])
                continue;
            if (r == -1) {
                fputs(t->right[c] ? "---:|" : "---|", out);
                continue;
            }
            const char *href = r >= 0 && t->href ? t->href[(size_t)r * (size_t)t->cols + (size_t)c] : NULL;
            fputs(href ? " [" : " ", out);
            escaped(out, shown(t, r == -2 ? -1 : r, c), TB_MD);
            if (href) {
                fputs("](", out);
                escaped(out, href, TB_MD);
                fputc(')', out);
            }
            fputs(" |", out);
        }
        fputc('\n', out);
    }
    if (t->note[0]) {
        fputc('\n', out);
        escaped(out, t->note, TB_MD);
        fputc('\n', out);
    }
}

static void write_csv(FILE *out, const tb_table *t, bool first, bool last)
{
    (void)last;
    if (first) {
        if (t->n_keys == 0)
            fputs("table", out);
        for (int k = 0; k < t->n_keys; k++) {
            if (k)
                fputc(',', out);
            csv_cell(out, t->keys[k].name);
        }
        for (int c = 0; c < t->cols; c++) {
            fputc(',', out);
            csv_cell(out, t->csv_head[c] ? t->csv_head[c] : head(t, c));
        }
        fputc('\n', out);
    }
    for (int r = 0; r < t->rows; r++) {
        if (t->n_keys == 0)
            csv_cell(out, t->title);
        for (int k = 0; k < t->n_keys; k++) {
            if (k)
                fputc(',', out);
            csv_cell(out, t->keys[k].value);
        }
        for (int c = 0; c < t->cols; c++) {
            fputc(',', out);
            csv_cell(out, exact_cell(t, r, c));
        }
        fputc('\n', out);
    }
}

static void write_tex(FILE *out, const tb_table *t, bool first, bool last)
{
    (void)last;
    if (!first)
        fputc('\n', out);
    fprintf(out, "%% ");
    escaped(out, t->title, TB_TEX);
    fprintf(out, "\n\\begin{tabular}{");
    for (int c = 0; c < t->cols; c++)
        if (!t->machine[c])
            fputc(t->right[c] ? 'r' : 'l', out);
    fprintf(out, "}\n\\hline\n");
    for (int r = -1; r < t->rows; r++) {
        bool lead = false;
        for (int c = 0; c < t->cols; c++) {
            if (t->machine[c])
                continue;
            if (lead)
                fputs(" & ", out);
            escaped(out, shown(t, r, c), TB_TEX);
            lead = true;
        }
        fputs(" \\\\\n", out);
        if (r < 0)
            fputs("\\hline\n", out);
    }
    fprintf(out, "\\hline\n\\end{tabular}\n");
    if (t->note[0]) {
        fprintf(out, "%% ");
        escaped(out, t->note, TB_TEX);
        fputc('\n', out);
    }
}

/* A cell of the HTML table: its text, in a link when it has one. */
static void html_cell(FILE *out, const tb_table *t, int r, int c)
{
    const char *href = r >= 0 && t->href ? t->href[(size_t)r * (size_t)t->cols + (size_t)c] : NULL;
    if (href) {
        fputs("<a href=\"", out);
        escaped(out, href, TB_HTML);
        fputs("\">", out);
    }
    const char *text = shown(t, r, c);
    int n = r >= 0 ? t->hash[c] : 0;
    if (n > 0 && (int)strlen(text) > n && text[strspn(text, "0123456789abcdefABCDEF")] == '\0')
        fprintf(out, "<details class=\"hash\" title=\"%s\"><summary>%.*s</summary>%s</details>", text, n, text, text);
    else
        escaped(out, text, TB_HTML);
    if (href)
        fputs("</a>", out);
}

static void write_html(FILE *out, const tb_table *t, bool first, bool last)
{
    (void)first, (void)last;
    fputs("<table>\n<caption>", out);
    escaped(out, t->title, TB_HTML);
    fputs("</caption>\n", out);
    for (int r = -1; r < t->rows; r++) {
        fputs("<tr>", out);
        for (int c = 0; c < t->cols; c++) {
            if (t->machine[c])
                continue;
            const char *tag = r < 0 ? "th" : "td";
            fprintf(out, "<%s%s>", tag, t->right[c] ? " class=\"num\"" : "");
            html_cell(out, t, r, c);
            fprintf(out, "</%s>", tag);
        }
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
    if (t->note[0]) {
        fputs("<p class=\"note\">", out);
        escaped(out, t->note, TB_HTML);
        fputs("</p>\n", out);
    }
}

/* One row of the JSON table: an object keyed by the column names. */
static void json_row(FILE *out, const tb_table *t, int r)
{
    fputs(r ? ",{" : "{", out);
    for (int c = 0; c < t->cols; c++) {
        if (c)
            fputc(',', out);
        json_string(out, head(t, c));
        fputc(':', out);
        const char *s = exact_cell(t, r, c);
        if (t->right[c] || !*s)
            json_value(out, s);
        else /* a text column (a name) is a string even when it reads as a number */
            json_string(out, s);
    }
    fputc('}', out);
}

static void write_json(FILE *out, const tb_table *t, bool first, bool last)
{
    const tb_caveat *v = t->caveat && t->caveat->n > 0 ? t->caveat : NULL;
    fputs(first ? "[" : ",", out);
    fputs("{\"title\":", out);
    json_string(out, t->title);
    for (int k = 0; k < t->n_keys; k++) {
        fputc(',', out);
        json_string(out, t->keys[k].name);
        fputc(':', out);
        if (t->keys[k].value[0])
            json_string(out, t->keys[k].value);
        else
            fputs("null", out);
    }
    fputs(",\"rows\":[", out);
    for (int r = 0; r < t->rows; r++)
        json_row(out, t, r);
    fputs("]", out);
    if (t->note[0]) {
        fputs(",\"note\":", out);
        json_string(out, t->note);
    }
    if (t->json && t->json[0]) {
        fputc(',', out);
        fputs(t->json, out);
    }
    if (v) {
        fputc(',', out);
        json_string(out, v->key);
        fputs(":[", out);
        for (int i = 0; i < v->n; i++) {
            if (i)
                fputc(',', out);
            json_string(out, v->names[i]);
        }
        fputc(']', out);
    }
    fputc('}', out);
    if (last)
        fputs("]\n", out);
}

/* The writers, in the order of tb_format. */
static void (*const writers[])(FILE *, const tb_table *, bool, bool) = {
    [TB_TEXT] = write_text, [TB_MD] = write_md,     [TB_CSV] = write_csv,
    [TB_TEX] = write_tex,   [TB_JSON] = write_json, [TB_HTML] = write_html,
};

void tb_write(FILE *out, const tb_table *t, tb_format f, bool first, bool last)
{
    const tb_caveat *v = t->caveat && t->caveat->n > 0 ? t->caveat : NULL;
    if (first && t->preamble)
        write_preamble(out, t->preamble, f);
    writers[f](out, t, first, last);
    if (v && last)
        write_caveat(out, v, f);
}
