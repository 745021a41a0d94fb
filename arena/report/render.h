/* arena/report/render.h — the three renderers of a document (doc.h), one file each: Markdown
 * (render_md.c), a self-contained HTML page (render_html.c: one style sheet inline, no scripts, no
 * network) and JSON (render_json.c). Each writes the whole document to a FILE and escapes every text for its
 * format. */
#ifndef ARENA_REPORT_RENDER_H
#define ARENA_REPORT_RENDER_H

#include <stdio.h>

#include "doc.h"

/* "# TITLE (SUBTITLE)", the lead line, the warnings (when d->warnings_section), each section as "## HEADING"
 * with its blocks (tables as tabulate's Markdown, figures as images of NAME.svg, folds as fenced text) and
 * the footer. Markup characters in text are escaped. */
void render_md(const doc *d, FILE *f);

/* A page: head with the title and the style, a header (h1, the lead line, a nav of the sections that have a
 * nav label), <section id="warnings"> (when d->warnings_section: <ul class="warnings"> of
 * <li class="warning">, or "None."), one <section id=ID> per section (tables in <div class="scroll">,
 * figures as <figure> with the SVG shown and the PNG linked, lists as <ul class=CLS>, folds as <details>),
 * and a <footer>. Every text and attribute is escaped. */
void render_html(const doc *d, FILE *f);

/* Text or an attribute value for HTML, escaped (< > & "), as render_html writes every text. */
void render_html_text(FILE *f, const char *s);

/* One JSON object: the facts as members (numbers or strings), "sections": an object of each section's id to
 * the array of its tables (tabulate's JSON objects), "warnings" (strings) and "files" (strings); then a
 * newline. Valid JSON for any text. */
void render_json(const doc *d, FILE *f);

/* Every format a document is rendered in, by its file extension: "md", "html", "json". A new format is one
 * renderer file and one entry in render.c's table; `arena report` writes report.EXT for each. */
typedef struct {
    const char *ext;
    void (*render)(const doc *d, FILE *f);
} render_format;

extern const render_format render_formats[];
extern const int render_n_formats;

/* The format of extension `ext`, NULL when there is none. */
const render_format *render_find(const char *ext);

#endif
