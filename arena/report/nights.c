/* arena/report/nights.c — the index of nights: their summaries read, the page built (contract in nights.h). */
#include "nights.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "die.h"

static int by_night_desc(const void *a, const void *b)
{
    const nt_night *x = a, *y = b;
    int c = strcmp(y->night, x->night);
    return c ? c : strcmp(y->dir, x->dir);
}

/* One "key<TAB>value" line of a summary into r. */
static void summary_line(nt_night *r, char *line)
{
    line[strcspn(line, "\n")] = '\0';
    char *v = strchr(line, '\t');
    if (!v)
        return;
    *v++ = '\0';
    if (strcmp(line, "night") == 0)
        snprintf(r->night, sizeof r->night, "%s", v);
    else if (strcmp(line, "name") == 0)
        snprintf(r->name, sizeof r->name, "%s", v);
    else if (strcmp(line, "leader") == 0)
        snprintf(r->leader, sizeof r->leader, "%s", v);
    else if (strcmp(line, "league") == 0)
        r->league = atol(v);
    else if (strcmp(line, "games") == 0)
        r->games = atol(v);
    else if (strcmp(line, "forfeits") == 0)
        r->forfeits = atol(v);
    else if (strcmp(line, "warnings") == 0)
        r->warnings = atol(v);
    else if (strcmp(line, "agents") == 0)
        r->agents = atol(v);
    else if (strcmp(line, "failed") == 0)
        snprintf(r->failed, sizeof r->failed, "%s", v);
    else if (strcmp(line, "leader_elo") == 0)
        r->leader_elo = atof(v);
}

int nt_read(const char *dir, nt_nights *out)
{
    out->rows = NULL;
    out->n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof out->rows[0].dir)
            continue;
        char path[PATH_MAX + 300];
        snprintf(path, sizeof path, "%s/%s/summary.txt", dir, e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        if (out->n == cap) {
            cap = cap ? 2 * cap : 64;
            out->rows = die_check("report", realloc(out->rows, sizeof *out->rows * (size_t)cap));
        }
        nt_night *r = &out->rows[out->n++];
        memset(r, 0, sizeof *r);
        snprintf(r->dir, sizeof r->dir, "%s", e->d_name);
        char line[1024];
        while (fgets(line, sizeof line, f))
            summary_line(r, line);
        fclose(f);
        snprintf(path, sizeof path, "%s/%s/report.html", dir, e->d_name);
        r->html = access(path, R_OK) == 0;
    }
    closedir(d);
    if (out->n)
        qsort(out->rows, (size_t)out->n, sizeof *out->rows, by_night_desc);
    return 0;
}

void nt_free(nt_nights *x)
{
    free(x->rows);
    x->rows = NULL;
    x->n = 0;
}

void nt_page(const nt_nights *x, doc *d)
{
    doc_init(d, "Nightly leagues", NULL);
    doc_fact_int(d, "nights", x->n);
    char lead[64];
    snprintf(lead, sizeof lead, "%d night%s, newest first.", x->n, x->n == 1 ? "" : "s");
    doc_span_add(&d->lead, lead, NULL);
    doc_section_add(d, "nights", "", NULL);
    tb_table t;
    tb_init(&t, "nights", 8);
    static const char *const head[] = { "night", "league", "games", "agents", "forfeits", "leader", "elo",
                                        "warnings" };
    for (int c = 0; c < 8; c++)
        tb_column(&t, c, head[c], c == 2 || c == 3 || c == 4 || c == 6 || c == 7);
    for (int k = 0; k < x->n; k++) {
        const nt_night *r = &x->rows[k];
        char href[300];
        snprintf(href, sizeof href, "%s/%s", r->dir, r->html ? "report.html" : "report.md");
        tb_row(&t);
        /* a second run of one night has a directory of its own (NIGHT-2, ...): named by it */
        bool own = r->night[0] && strncmp(r->dir, r->night, strlen(r->night)) == 0 && strcmp(r->dir, r->night) != 0;
        tb_set(&t, 0, "%s", r->night[0] && !own ? r->night : r->dir);
        tb_link(&t, 0, href);
        if (r->failed[0] && r->league > 0)
            tb_set(&t, 1, "%s (%ld): FAILED: %s", r->name, r->league, r->failed);
        else if (r->failed[0])
            tb_set(&t, 1, "%s: FAILED: %s", r->name, r->failed);
        else
            tb_set(&t, 1, "%s (%ld)", r->name, r->league);
        tb_set(&t, 2, "%ld", r->games);
        tb_set(&t, 3, "%ld", r->agents);
        tb_set(&t, 4, "%ld", r->forfeits);
        tb_set(&t, 5, "%s", r->leader);
        tb_set_real(&t, 6, r->leader_elo, 0);
        tb_set(&t, 7, "%ld", r->warnings);
    }
    doc_table(d, &t);
}
