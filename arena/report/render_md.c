/* arena/report/render_md.c — a document in Markdown (contract in render.h). */
#include "render.h"

#include <string.h>

/* Text with the characters that would start markup escaped. */
static void text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (strchr("\\`*_[]<>|#&", *s))
            fputc('\\', f);
        fputc(*s, f);
    }
}

static void line(FILE *f, const doc_line *l)
{
    for (int i = 0; i < l->n; i++) {
        if (!l->spans[i].href) {
            text(f, l->spans[i].text);
            continue;
        }
        fputc('[', f);
        text(f, l->spans[i].text);
        fputs("](", f);
        text(f, l->spans[i].href);
        fputc(')', f);
    }
}

/* Preformatted text in a fence longer than any run of backticks in it. */
static void fenced(FILE *f, const char *s)
{
    int longest = 0, run = 0;
    for (const char *c = s; *c; c++) {
        run = *c == '`' ? run + 1 : 0;
        longest = run > longest ? run : longest;
    }
    int fence = longest < 3 ? 3 : longest + 1;
    for (int k = 0; k < fence; k++)
        fputc('`', f);
    fprintf(f, "\n%s%s", s, s[0] && s[strlen(s) - 1] != '\n' ? "\n" : "");
    for (int k = 0; k < fence; k++)
        fputc('`', f);
    fputs("\n\n", f);
}

/* A figure's file, NAME.svg, as an image captioned by its alt text. */
static void image(FILE *f, const doc_block *b)
{
    fputs("![", f);
    text(f, b->alt);
    fputs("](", f);
    text(f, b->file);
    fputs(".svg)\n\n", f);
}

static void block(FILE *f, const doc_block *b)
{
    switch (b->kind) {
    case DOC_PARA:
        if (b->cls && strcmp(b->cls, "warning") == 0)
            fputs("**Warning:** ", f);
        line(f, &b->line);
        fputs("\n\n", f);
        break;
    case DOC_TABLE: /* a blank line after it, so that a heading or table that follows starts a block */
        tb_write(f, &b->table, TB_MD, true, true);
        fputc('\n', f);
        break;
    case DOC_FIGURE:
        image(f, b);
        break;
    case DOC_LIST:
        for (int i = 0; i < b->n_items; i++) {
            fputs("- ", f);
            line(f, &b->items[i]);
            fputc('\n', f);
        }
        if (b->n_items)
            fputc('\n', f);
        break;
    case DOC_FOLD:
        text(f, b->summary);
        fputs(":\n\n", f);
        fenced(f, b->text);
        break;
    case DOC_SVG: /* its counterpart as a file when there is one (a report's gnuplot figure), else its caption */
        if (b->file) {
            image(f, b);
            break;
        }
        text(f, b->alt);
        fputs(" (a drawing: see the HTML page)\n\n", f);
        break;
    case DOC_FORM: /* a page's action, named; it is taken in a browser */
        text(f, b->summary);
        fputs(": a form posting to ", f);
        text(f, b->file);
        fputs("\n\n", f);
        break;
    }
}

void render_md(const doc *d, FILE *f)
{
    fputs("# ", f);
    text(f, d->title);
    if (d->subtitle) {
        fputs(" (", f);
        text(f, d->subtitle);
        fputc(')', f);
    }
    fputs("\n\n", f);
    if (d->lead.n) {
        line(f, &d->lead);
        fputs("\n\n", f);
    }
    if (d->warnings_section) {
        fputs("## Warnings\n\n", f);
        if (!d->n_warnings)
            fputs("None.\n", f);
        for (int k = 0; k < d->n_warnings; k++) {
            fputs("- **Warning:** ", f);
            text(f, d->warnings[k]);
            fputc('\n', f);
        }
    }
    for (int s = 0; s < d->n_sections; s++) {
        const doc_section *x = &d->sections[s];
        if (x->heading[0]) {
            fputs("\n## ", f);
            text(f, x->heading);
            fputs("\n\n", f);
        }
        for (int b = 0; b < x->n_blocks; b++)
            block(f, &x->blocks[b]);
    }
    if (d->footer.n) {
        line(f, &d->footer);
        fputc('\n', f);
    }
}
