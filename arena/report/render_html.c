/* arena/report/render_html.c — a document as one self-contained HTML page, with the reports' style sheet (style.h)
 * inline (contract in render.h). */
#include "render.h"

#include <string.h>

#include "style.h"

void render_html_text(FILE *f, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
}

static void text(FILE *f, const char *s)
{
    render_html_text(f, s);
}

static void anchor(FILE *f, const char *href, const char *label)
{
    fputs("<a href=\"", f);
    text(f, href);
    fputs("\">", f);
    text(f, label);
    fputs("</a>", f);
}

static void line(FILE *f, const doc_line *l)
{
    for (int i = 0; i < l->n; i++)
        if (l->spans[i].href)
            anchor(f, l->spans[i].href, l->spans[i].text);
        else
            text(f, l->spans[i].text);
}

/* <TAG class="CLS"> (no class attribute when cls is NULL). */
static void open_tag(FILE *f, const char *tag, const char *cls)
{
    fprintf(f, "<%s", tag);
    if (cls) {
        fputs(" class=\"", f);
        text(f, cls);
        fputc('"', f);
    }
    fputc('>', f);
}

static void figure(FILE *f, const doc_block *b)
{
    fputs("<figure><a href=\"", f);
    text(f, b->file);
    fputs(".svg\"><img src=\"", f);
    text(f, b->file);
    fputs(".svg\" alt=\"", f);
    text(f, b->alt);
    fputs("\"></a><figcaption>", f);
    text(f, b->alt);
    fputs(" (<a href=\"", f);
    text(f, b->file);
    fputs(".png\">PNG</a>)</figcaption></figure>\n", f);
}

/* A form: hidden fields as they are, the others each in a label; posted to this server only. */
static void form(FILE *f, const doc_block *b)
{
    fputs("<form method=\"post\" action=\"", f);
    text(f, b->file);
    fputs(b->multipart ? "\" enctype=\"multipart/form-data\">\n" : "\">\n", f);
    for (int i = 0; i < b->n_fields; i++) {
        const doc_field *x = &b->fields[i];
        bool hidden = strcmp(x->type, "hidden") == 0;
        if (!hidden) {
            fputs("<label>", f);
            text(f, x->label ? x->label : x->name);
            fputc(' ', f);
        }
        fputs("<input type=\"", f);
        text(f, x->type);
        fputs("\" name=\"", f);
        text(f, x->name);
        if (x->value) {
            fputs("\" value=\"", f);
            text(f, x->value);
        }
        fputs(hidden ? "\">\n" : "\"></label>\n", f);
    }
    fputs("<button type=\"submit\">", f);
    text(f, b->summary);
    fputs("</button>\n</form>\n", f);
}

static void block(FILE *f, const doc_block *b)
{
    switch (b->kind) {
    case DOC_PARA:
        open_tag(f, "p", b->cls);
        line(f, &b->line);
        fputs("</p>\n", f);
        break;
    case DOC_TABLE:
        if (b->summary) {
            fputs("<details class=\"table\"><summary>", f);
            text(f, b->summary);
            fputs("</summary>\n", f);
        }
        fputs("<div class=\"scroll\">\n", f);
        tb_write(f, &b->table, TB_HTML, true, true);
        fputs("</div>\n", f);
        if (b->summary)
            fputs("</details>\n", f);
        break;
    case DOC_FIGURE: figure(f, b); break;
    case DOC_LIST:
        if (!b->n_items)
            break;
        open_tag(f, "ul", b->cls);
        fputc('\n', f);
        for (int i = 0; i < b->n_items; i++) {
            fputs("<li>", f);
            line(f, &b->items[i]);
            fputs("</li>\n", f);
        }
        fputs("</ul>\n", f);
        break;
    case DOC_FOLD:
        fputs("<details><summary>", f);
        text(f, b->summary);
        fputs("</summary><pre>", f);
        text(f, b->text);
        fputs("</pre></details>\n", f);
        break;
    case DOC_FORM: form(f, b); break;
    case DOC_SVG:
        fprintf(f, "<figure>%s<figcaption>", b->text);
        text(f, b->alt);
        fputs("</figcaption></figure>\n", f);
        break;
    }
}

/* The head, and the header: title, lead line, navigation. */
static void header(const doc *d, FILE *f)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
          f);
    text(f, d->title);
    if (d->subtitle) {
        fputs(" (", f);
        text(f, d->subtitle);
        fputc(')', f);
    }
    fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<header>\n<h1>", rp_style);
    text(f, d->title);
    if (d->subtitle) {
        fputs(" <small>", f);
        text(f, d->subtitle);
        fputs("</small>", f);
    }
    fputs("</h1>\n", f);
    if (d->lead.n) {
        fputs("<p>", f);
        line(f, &d->lead);
        fputs("</p>\n", f);
    }
    bool nav = d->warnings_section;
    for (int s = 0; s < d->n_sections; s++)
        nav |= d->sections[s].nav != NULL;
    if (nav) {
        fputs("<nav>", f);
        if (d->warnings_section)
            fputs("<a href=\"#warnings\">warnings</a>\n", f);
        for (int s = 0; s < d->n_sections; s++)
            if (d->sections[s].nav) {
                char href[300];
                snprintf(href, sizeof href, "#%s", d->sections[s].id);
                anchor(f, href, d->sections[s].nav);
                fputc('\n', f);
            }
        fputs("</nav>\n", f);
    }
    fputs("</header>\n", f);
}

static void warnings(const doc *d, FILE *f)
{
    fputs("<section id=\"warnings\">\n<h2>Warnings</h2>\n", f);
    if (!d->n_warnings)
        fputs("<p>None.</p>\n", f);
    else {
        fputs("<ul class=\"warnings\">\n", f);
        for (int k = 0; k < d->n_warnings; k++) {
            fputs("<li class=\"warning\">", f);
            text(f, d->warnings[k]);
            fputs("</li>\n", f);
        }
        fputs("</ul>\n", f);
    }
    fputs("</section>\n", f);
}

void render_html(const doc *d, FILE *f)
{
    header(d, f);
    if (d->warnings_section)
        warnings(d, f);
    for (int s = 0; s < d->n_sections; s++) {
        const doc_section *x = &d->sections[s];
        fputs("<section id=\"", f);
        text(f, x->id);
        fputs("\">\n", f);
        if (x->folded)
            fputs("<details class=\"section\"><summary>", f);
        if (x->heading[0]) {
            fputs("<h2>", f);
            text(f, x->heading);
            fputs("</h2>", f);
        }
        fputs(x->folded ? "</summary>\n" : "\n", f);
        for (int b = 0; b < x->n_blocks; b++)
            block(f, &x->blocks[b]);
        fputs(x->folded ? "</details>\n</section>\n" : "</section>\n", f);
    }
    if (d->footer.n || d->alternate) {
        fputs("<footer><p class=\"note\">", f);
        line(f, &d->footer);
        if (d->alternate) {
            fputs(d->footer.n ? " " : "", f);
            anchor(f, d->alternate, "This page as JSON");
            fputc('.', f);
        }
        fputs("</p></footer>\n", f);
    }
    fputs("</body>\n</html>\n", f);
}
