/* arena/server/page_league.c — `/league/ID`: the league's nightly page (as `arena report` builds it), opened by
 * its live progress while it runs and followed by its newest games, each linked to the game viewer. */
#include <stdio.h>
#include <stdlib.h>

#include "server_private.h"

int ws_page_league(ws_req *q, int64_t id, int64_t unused, doc *d, char *err, size_t errlen)
{
    (void)unused;
    store_league_brief b;
    int found = store_league_brief_get(q->s, id, &b);
    if (found < 0)
        return ws_db_error(q, err, errlen);
    if (found == 0) {
        snprintf(err, errlen, "no league %lld", (long long)id);
        return 404;
    }
    doc_init(d, "League", b.name);
    int st = 0, own = 0;
    if (b.planned - b.played - b.skipped > 0) {
        if ((st = ws_live_section(q, d, id, err, errlen)) != 0)
            return st;
        own = 1;
    }
    store_game_brief *g;
    int n;
    store_brief_filter f = { .league = id, .limit = WS_GAMES_LISTED };
    if (store_games_brief(q->s, &f, &g, &n) != 0)
        return ws_db_error(q, err, errlen);
    ws_games_section(d, "games", "Newest games", g, n, WS_GAMES_LISTED);
    free(g);
    if (b.played == 0) {
        doc_para(d, NULL, "League %lld '%s' has no games yet (%ld planned).", (long long)id, b.name, b.planned);
        return 0;
    }
    q->shared = ws_cache_league(q, id, b.played, b.skipped, &st, err, errlen);
    q->shared_at = own;
    return q->shared ? 0 : st;
}
