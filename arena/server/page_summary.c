/* arena/server/page_summary.c — `/`: the morning summary (the nightly page of the newest league with games, as
 * `arena report` builds it), opened by the leagues running now (live) and followed by the newest leagues. */
#include <stdio.h>
#include <stdlib.h>

#include "server_private.h"

int ws_page_summary(ws_req *q, int64_t unused_a, int64_t unused_b, doc *d, char *err, size_t errlen)
{
    (void)unused_a, (void)unused_b;
    doc_init(d, "Dark Hex Arena", NULL);
    store_league_brief b;
    bool any;
    int st = ws_live_section(q, d, 0, err, errlen);
    if (st == 0)
        st = ws_recent_section(q, d, &b, &any, err, errlen);
    if (st)
        return st;
    if (!any) {
        doc_section_add(d, "summary", "Summary", NULL);
        doc_para(d, NULL, "No league has games yet.");
        return 0;
    }
    q->shared = ws_cache_league(q, b.id, b.played, b.skipped, &st, err, errlen);
    q->shared_at = 1; /* running leagues first, the newest leagues last */
    return q->shared ? 0 : st;
}
