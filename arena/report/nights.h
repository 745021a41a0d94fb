/* arena/report/nights.h — the index of the nights under a directory (docs/nightly.md): every subdirectory
 * with a summary.txt (written by ng_summary, or by scripts/nightly for a night that failed), newest first, as
 * a document (doc.h) with one table whose first cells link to each night's page. A night that failed (its summary
 * has `failed`) reads "NAME: FAILED: REASON"; a later run of the same night, in a directory of its own (NIGHT-2,
 * NIGHT-3, ...: scripts/nightly), is named by its directory. */
#ifndef ARENA_REPORT_NIGHTS_H
#define ARENA_REPORT_NIGHTS_H

#include <stdbool.h>

#include "doc.h"

typedef struct {
    char dir[256];
    char night[16], name[256], leader[128], failed[256];
    bool html;                 /* it has a report.html (a failed night has only report.md) */
    long league, games, forfeits, warnings, agents;
    double leader_elo;
} nt_night;

typedef struct {
    nt_night *rows;            /* newest first (by night, then directory name) */
    int n;
} nt_nights;

/* Reads the nights under dir. Returns 0, or -1 when dir cannot be read (errno set). */
int nt_read(const char *dir, nt_nights *out);
void nt_free(nt_nights *x);

/* The index page into d (doc_init'ed here). */
void nt_page(const nt_nights *x, doc *d);

#endif
