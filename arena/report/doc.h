/* arena/report/doc.h — the document model of a report: what a page says, built once and drawn by each
 * renderer (render.h: Markdown, HTML, JSON) so that every format of a page carries the same content. A
 * document has a title, facts (named values: the JSON object's members), a lead line, warnings, sections
 * (each an id, a heading and a list of blocks: paragraphs, tables, figures, lists, foldable text, forms), a footer
 * and the files it comes with. Every text is plain text, copied when added; the renderers escape it for
 * their format, so any name (quotes, markup, control bytes, UTF-8) is safe. */
#ifndef ARENA_REPORT_DOC_H
#define ARENA_REPORT_DOC_H

#include <stdbool.h>

#include "tabulate.h"

/* A piece of inline text, a link when href is not NULL. */
typedef struct {
    char *text, *href;
} doc_span;

/* A line of inline text: spans in order. */
typedef struct {
    doc_span *spans;
    int n;
} doc_line;

typedef enum {
    DOC_PARA,   /* a paragraph: line, cls ("note", "warning" or NULL) */
    DOC_TABLE,  /* a table (tabulate.h): its cells, note and caveat in every format; folded in HTML under
                 * `summary` when that is set (doc_table_folded) */
    DOC_FIGURE, /* an image: file (without extension: NAME.svg shown, NAME.png linked) and alt text */
    DOC_LIST,   /* a bulleted list: items, cls (its class in HTML) */
    DOC_FOLD,   /* preformatted text under a summary, folded in HTML */
    DOC_FORM,   /* a form posted to `file` (its action): fields, the submit button's label in summary, multipart
                 * when it uploads a file; HTML draws it, Markdown names it, JSON leaves it out */
    DOC_SVG,    /* a drawing made by the caller: SVG markup in `text` (written as it is: from numbers, every text in
                 * it escaped), its caption in `alt`; HTML inlines it, Markdown shows `file` (NAME.svg) when set,
                 * else gives the caption */
} doc_kind;

/* A field of a form: type "text", "password", "number", "file", "checkbox" or "hidden". */
typedef struct {
    char *type, *name, *label, *value;
} doc_field;

typedef struct {
    doc_kind kind;
    char *cls;
    doc_line line;            /* DOC_PARA */
    tb_table table;           /* DOC_TABLE, owned */
    char *file, *alt;         /* DOC_FIGURE */
    doc_line *items;          /* DOC_LIST */
    int n_items;
    char *summary, *text;     /* DOC_FOLD; summary also of a folded DOC_TABLE, and DOC_FORM's button */
    doc_field *fields;        /* DOC_FORM */
    int n_fields;
    bool multipart;           /* DOC_FORM */
} doc_block;

typedef struct {
    char *id, *heading, *nav; /* nav: its label in the page's navigation */
    bool folded;              /* in HTML, its blocks are folded under its heading (<details>): what a reader
                               * opens when needed (run settings, agents' hashes); other formats show them */
    doc_block *blocks;
    int n_blocks;
} doc_section;

/* A fact: a JSON member of the document (a number, or null, when numeric; else a string). */
typedef struct {
    char *key, *value;
    bool numeric;
} doc_fact;

typedef struct {
    char *title, *subtitle;   /* "Nightly league NAME", "2026-11-20" (may be NULL) */
    doc_fact *facts;
    int n_facts;
    doc_line lead;            /* the line under the title */
    char **warnings;
    int n_warnings;
    bool warnings_section;    /* a Warnings section opens the page (with "None." when there are none) */
    doc_section *sections;
    int n_sections;
    doc_line footer;          /* the line at its end; empty for none */
    char *alternate;          /* the page's JSON twin (a link at its end), NULL for none */
    char **files;             /* the files that come with it (JSON "files") */
    int n_files;
} doc;

/* An empty document titled `title` (subtitle may be NULL). Exits on out of memory, as every adder does. */
void doc_init(doc *d, const char *title, const char *subtitle);
void doc_free(doc *d);

/* A fact, as text or as a number (a 64-bit integer). */
void doc_fact_text(doc *d, const char *key, const char *value);
void doc_fact_int(doc *d, const char *key, long long value);
/* A real number with `decimals` digits after the point ("-0" written "0"); null when it is NaN or infinite. */
void doc_fact_real(doc *d, const char *key, double value, int decimals);
/* A fact without a value: null. */
void doc_fact_null(doc *d, const char *key);

/* Adds a warning (printf-style). */
void doc_warn(doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Sets the link to the page's JSON twin (d->alternate). */
void doc_alternate(doc *d, const char *href);

/* Adds a file name to d->files. */
void doc_file(doc *d, const char *name);

/* A span of text (href NULL) or a link, at the end of a line. */
void doc_span_add(doc_line *l, const char *text, const char *href);

/* Starts a section; the blocks below are added to the newest one. Set `folded` on the section returned to fold
 * it in HTML. */
doc_section *doc_section_add(doc *d, const char *id, const char *heading, const char *nav);

/* A paragraph of plain text (printf-style) in the newest section; cls NULL, "note" or "warning". Returns its
 * line, to which links may be added until the next block is added (the pointer moves with the blocks). */
doc_line *doc_para(doc *d, const char *cls, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A table: t is moved into the document (the caller no longer frees it). */
void doc_table(doc *d, tb_table *t);

/* A table folded in HTML under `summary` (the page shows the figure of the same numbers; the table is one click
 * away); Markdown and JSON carry it as any table. */
void doc_table_folded(doc *d, tb_table *t, const char *summary);

void doc_figure(doc *d, const char *file, const char *alt);

/* A list of class cls (may be NULL); doc_item adds an item to it (the newest block must be the list) and
 * returns its line, valid until the next item or block. */
void doc_list(doc *d, const char *cls);
doc_line *doc_item(doc *d);

void doc_fold(doc *d, const char *summary, const char *text);

/* A form posting to `action` (multipart/form-data when multipart, else urlencoded) with a submit button labelled
 * `submit`; doc_input adds a field to it (the newest block must be the form). value may be NULL. */
void doc_form(doc *d, const char *action, bool multipart, const char *submit);

/* An inline drawing (DOC_SVG): svg is written into HTML as it is, so it must be made from numbers only or with
 * every text escaped (svgfig.h). `file` (may be NULL): a file of the same figure (NAME, without .svg) that
 * Markdown shows in its place. */
void doc_svg(doc *d, const char *svg, const char *alt);
void doc_svg_file(doc *d, const char *svg, const char *alt, const char *file);
void doc_input(doc *d, const char *type, const char *name, const char *label, const char *value);

#endif
