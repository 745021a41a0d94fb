/* arena/report/doc.c — building and freeing a report's document (contract in doc.h). */
#define _GNU_SOURCE /* vasprintf */

#include "doc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"

/* Room for one more element of `size` bytes in the array *p holding n. */
static void *more(void *p, int n, size_t size)
{
    return die_check("report", realloc(p, size * (size_t)(n + 1)));
}

static char *copy(const char *s)
{
    return s ? die_check("report", strdup(s)) : NULL;
}

static char *vformat(const char *fmt, va_list ap)
{
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0)
        die_fail("report", "out of memory");
    return s;
}

void doc_init(doc *d, const char *title, const char *subtitle)
{
    memset(d, 0, sizeof *d);
    d->title = copy(title);
    d->subtitle = copy(subtitle);
}

static void line_free(doc_line *l)
{
    for (int i = 0; i < l->n; i++) {
        free(l->spans[i].text);
        free(l->spans[i].href);
    }
    free(l->spans);
}

static void block_free(doc_block *b)
{
    free(b->cls);
    line_free(&b->line);
    if (b->kind == DOC_TABLE)
        tb_free(&b->table);
    free(b->file);
    free(b->alt);
    for (int i = 0; i < b->n_items; i++)
        line_free(&b->items[i]);
    free(b->items);
    free(b->summary);
    free(b->text);
    for (int i = 0; i < b->n_fields; i++) {
        free(b->fields[i].type);
        free(b->fields[i].name);
        free(b->fields[i].label);
        free(b->fields[i].value);
    }
    free(b->fields);
}

void doc_free(doc *d)
{
    for (int s = 0; s < d->n_sections; s++) {
        doc_section *x = &d->sections[s];
        for (int b = 0; b < x->n_blocks; b++)
            block_free(&x->blocks[b]);
        free(x->blocks);
        free(x->id);
        free(x->heading);
        free(x->nav);
    }
    free(d->sections);
    for (int i = 0; i < d->n_facts; i++) {
        free(d->facts[i].key);
        free(d->facts[i].value);
    }
    free(d->facts);
    for (int i = 0; i < d->n_warnings; i++)
        free(d->warnings[i]);
    free(d->warnings);
    for (int i = 0; i < d->n_files; i++)
        free(d->files[i]);
    free(d->files);
    line_free(&d->lead);
    line_free(&d->footer);
    free(d->alternate);
    free(d->title);
    free(d->subtitle);
    memset(d, 0, sizeof *d);
}

static void fact(doc *d, const char *key, const char *value, bool numeric)
{
    d->facts = more(d->facts, d->n_facts, sizeof *d->facts);
    d->facts[d->n_facts++] = (doc_fact){ copy(key), copy(value), numeric };
}

void doc_fact_text(doc *d, const char *key, const char *value)
{
    fact(d, key, value, false);
}

void doc_fact_int(doc *d, const char *key, long long value)
{
    char text[32];
    snprintf(text, sizeof text, "%lld", value);
    fact(d, key, text, true);
}

void doc_fact_real(doc *d, const char *key, double value, int decimals)
{
    char text[64];
    if (!isfinite(value) || fabs(value) > 1e15) {
        fact(d, key, "null", true);
        return;
    }
    snprintf(text, sizeof text, "%.*f", decimals < 0 ? 0 : decimals > 17 ? 17 : decimals, value);
    bool zero = strspn(text, "-0.") == strlen(text); /* "-0.0": written 0.0 */
    fact(d, key, zero && text[0] == '-' ? text + 1 : text, true);
}

void doc_fact_null(doc *d, const char *key)
{
    fact(d, key, "null", true);
}

void doc_warn(doc *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = vformat(fmt, ap);
    va_end(ap);
    d->warnings = more(d->warnings, d->n_warnings, sizeof *d->warnings);
    d->warnings[d->n_warnings++] = s;
}

void doc_alternate(doc *d, const char *href)
{
    free(d->alternate);
    d->alternate = copy(href);
}

void doc_file(doc *d, const char *name)
{
    d->files = more(d->files, d->n_files, sizeof *d->files);
    d->files[d->n_files++] = copy(name);
}

void doc_span_add(doc_line *l, const char *text, const char *href)
{
    l->spans = more(l->spans, l->n, sizeof *l->spans);
    l->spans[l->n++] = (doc_span){ copy(text), copy(href) };
}

doc_section *doc_section_add(doc *d, const char *id, const char *heading, const char *nav)
{
    d->sections = more(d->sections, d->n_sections, sizeof *d->sections);
    doc_section *x = &d->sections[d->n_sections++];
    *x = (doc_section){ .id = copy(id), .heading = copy(heading), .nav = copy(nav) };
    return x;
}

/* A new block of kind k at the end of the newest section (a section "" is started when there is none). */
static doc_block *block(doc *d, doc_kind k)
{
    if (!d->n_sections)
        doc_section_add(d, "", "", NULL);
    doc_section *x = &d->sections[d->n_sections - 1];
    x->blocks = more(x->blocks, x->n_blocks, sizeof *x->blocks);
    doc_block *b = &x->blocks[x->n_blocks++];
    memset(b, 0, sizeof *b);
    b->kind = k;
    return b;
}

doc_line *doc_para(doc *d, const char *cls, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = vformat(fmt, ap);
    va_end(ap);
    doc_block *b = block(d, DOC_PARA);
    b->cls = copy(cls);
    doc_span_add(&b->line, s, NULL);
    free(s);
    return &b->line;
}

void doc_table(doc *d, tb_table *t)
{
    doc_block *b = block(d, DOC_TABLE);
    b->table = *t;
    memset(t, 0, sizeof *t);
}

void doc_table_folded(doc *d, tb_table *t, const char *summary)
{
    doc_table(d, t);
    doc_section *x = &d->sections[d->n_sections - 1];
    x->blocks[x->n_blocks - 1].summary = copy(summary);
}

void doc_figure(doc *d, const char *file, const char *alt)
{
    doc_block *b = block(d, DOC_FIGURE);
    b->file = copy(file);
    b->alt = copy(alt);
}

void doc_list(doc *d, const char *cls)
{
    doc_block *b = block(d, DOC_LIST);
    b->cls = copy(cls);
}

doc_line *doc_item(doc *d)
{
    doc_section *x = &d->sections[d->n_sections - 1];
    doc_block *b = &x->blocks[x->n_blocks - 1];
    b->items = more(b->items, b->n_items, sizeof *b->items);
    b->items[b->n_items] = (doc_line){ 0 };
    return &b->items[b->n_items++];
}

void doc_fold(doc *d, const char *summary, const char *text)
{
    doc_block *b = block(d, DOC_FOLD);
    b->summary = copy(summary);
    b->text = copy(text);
}

void doc_svg_file(doc *d, const char *svg, const char *alt, const char *file)
{
    doc_block *b = block(d, DOC_SVG);
    b->text = copy(svg);
    b->alt = copy(alt);
    b->file = copy(file);
}

void doc_svg(doc *d, const char *svg, const char *alt)
{
    doc_svg_file(d, svg, alt, NULL);
}

void doc_form(doc *d, const char *action, bool multipart, const char *submit)
{
    doc_block *b = block(d, DOC_FORM);
    b->file = copy(action);
    b->summary = copy(submit);
    b->multipart = multipart;
}

void doc_input(doc *d, const char *type, const char *name, const char *label, const char *value)
{
    doc_section *x = &d->sections[d->n_sections - 1];
    doc_block *b = &x->blocks[x->n_blocks - 1];
    b->fields = more(b->fields, b->n_fields, sizeof *b->fields);
    b->fields[b->n_fields++] = (doc_field){ copy(type), copy(name), copy(label), copy(value) };
}
