/* arena/server/page_nights.c — `/nights`: every league, newest first (the WS_NIGHTS_LISTED newest), by night:
 * the server's index of nights, where the nightly pages' "all nights" leads (on disk, `arena report --index`). */
#include <stdio.h>
#include <stdlib.h>

#include "server_private.h"

int ws_page_nights(ws_req *q, int64_t unused_a, int64_t unused_b, doc *d, char *err, size_t errlen)
{
    (void)unused_a, (void)unused_b;
    store_league_brief *b;
    int n;
    if (store_leagues_recent(q->s, WS_NIGHTS_LISTED, &b, &n) != 0)
        return ws_db_error(q, err, errlen);
    doc_init(d, "All nights", NULL);
    doc_fact_int(d, "leagues", n);
    doc_span_add(&d->lead, "Every league, newest first, by its night; ", NULL);
    doc_span_add(&d->lead, "the morning summary", "/");
    doc_span_add(&d->lead, ".", NULL);
    doc_section_add(d, "nights", "Nights", NULL);
    if (n == 0) {
        doc_para(d, NULL, "No league yet.");
        free(b);
        return 0;
    }
    tb_table t;
    tb_init(&t, "leagues by night", 7);
    static const char *const heads[] = { "night", "league", "name", "games", "planned", "forfeits", "last game" };
    for (int c = 0; c < 7; c++)
        tb_column(&t, c, heads[c], c == 1 || (c >= 3 && c <= 5));
    char href[64];
    for (int i = 0; i < n; i++) {
        tb_row(&t);
        snprintf(href, sizeof href, "/league/%lld", (long long)b[i].id);
        tb_set(&t, 0, "%s", b[i].night);
        tb_set(&t, 1, "%lld", (long long)b[i].id);
        tb_link(&t, 1, href);
        tb_set(&t, 2, "%s", b[i].name);
        tb_link(&t, 2, href);
        tb_set(&t, 3, "%ld", b[i].played);
        tb_set(&t, 4, "%ld", b[i].planned - b[i].skipped);
        tb_set(&t, 5, "%ld", b[i].forfeits);
        tb_set(&t, 6, "%s", b[i].last_finished);
    }
    doc_table(d, &t);
    if (n == WS_NIGHTS_LISTED)
        doc_para(d, "note", "The newest %d leagues shown.", WS_NIGHTS_LISTED);
    free(b);
    return 0;
}
