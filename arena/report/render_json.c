/* arena/report/render_json.c — a document as one JSON object (contract in render.h). */
#include "render.h"

#include "json.h"

static void strings(FILE *f, const char *key, char *const *v, int n)
{
    fprintf(f, ",\"%s\":[", key);
    for (int i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        json_string(f, v[i]);
    }
    fputc(']', f);
}

void render_json(const doc *d, FILE *f)
{
    fputc('{', f);
    for (int i = 0; i < d->n_facts; i++) {
        json_string(f, d->facts[i].key);
        fputc(':', f);
        if (d->facts[i].numeric)
            fputs(d->facts[i].value, f);
        else
            json_string(f, d->facts[i].value);
        fputc(',', f);
    }
    fputs("\"sections\":{", f);
    for (int s = 0; s < d->n_sections; s++) {
        const doc_section *x = &d->sections[s];
        if (s)
            fputc(',', f);
        json_string(f, x->id);
        fputc(':', f);
        int tables = 0;
        for (int b = 0; b < x->n_blocks; b++)
            if (x->blocks[b].kind == DOC_TABLE) /* tabulate's array: "[" before the first, "," between */
                tb_write(f, &x->blocks[b].table, TB_JSON, tables++ == 0, false);
        fputs(tables ? "]" : "[]", f);
    }
    fputc('}', f);
    strings(f, "warnings", d->warnings, d->n_warnings);
    strings(f, "files", d->files, d->n_files);
    fputs("}\n", f);
}
