/* arena/server/page_summary.c — `/`: the morning summary (the nightly page of the newest league with games, as
 * `arena report` builds it), opened by the leagues running now (live) and followed by the newest leagues. */
#include <stdio.h>
#include <stdlib.h>

#include "query.h"
#include "server_private.h"

/* The newest leagues, each linked to its page. */
static int recent(sv_req *q, doc *d, char *err, size_t errlen)
{
    store_league_brief *b;
    int n;
    if (store_leagues_recent(q->s, SV_RECENT_LEAGUES, &b, &n) != 0)
        return sv_db_error(q, err, errlen);
    doc_section_add(d, "leagues", "Leagues", "leagues");
    tb_table t;
    tb_init(&t, "newest leagues", 6);
    static const char *const heads[] = { "league", "name", "night", "games", "forfeits", "last game" };
    for (int c = 0; c < 6; c++)
        tb_column(&t, c, heads[c], c == 0 || c == 4);
    char href[64];
    for (int i = 0; i < n; i++) {
        tb_row(&t);
        snprintf(href, sizeof href, "/league/%lld", (long long)b[i].id);
        tb_set(&t, 0, "%lld", (long long)b[i].id);
        tb_link(&t, 0, href);
        tb_set(&t, 1, "%s", b[i].name);
        tb_link(&t, 1, href);
        tb_set(&t, 2, "%s", b[i].night);
        tb_set(&t, 3, "%ld / %ld", b[i].played, b[i].planned - b[i].skipped);
        tb_set(&t, 4, "%ld", b[i].forfeits);
        tb_set(&t, 5, "%s", b[i].last_finished);
    }
    free(b);
    doc_table(d, &t);
    return 0;
}

int sv_page_summary(sv_req *q, int64_t unused_a, int64_t unused_b, doc *d, char *err, size_t errlen)
{
    (void)unused_a, (void)unused_b;
    doc_init(d, "Dark Hex Arena", NULL);
    int st = sv_live_section(q, d, 0, err, errlen);
    if (st == 0)
        st = recent(q, d, err, errlen);
    if (st)
        return st;
    int64_t league = 0, run = 0;
    if (store_newest_with_games(q->s, &league, &run) != 0)
        return sv_db_error(q, err, errlen);
    if (league <= 0) {
        doc_section_add(d, "summary", "Summary", NULL);
        doc_para(d, NULL, "No league has games yet.");
        return 0;
    }
    store_league_brief b;
    int found = store_league_brief_get(q->s, league, &b);
    if (found != 1)
        return found < 0 ? sv_db_error(q, err, errlen) : 404;
    q->shared = sv_cache_league(q, league, b.played, b.skipped, &st, err, errlen);
    q->shared_at = 1; /* running leagues first, the newest leagues last */
    return q->shared ? 0 : st;
}
