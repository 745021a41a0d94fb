/* arena/server/games_table.c — what several pages share (server_private.h): the table of a list of games, each
 * linked to its viewer and its players to their pages, with how it ended ("Black connected", or who forfeited and
 * why), and the status of a failed database call. */
#include <stdio.h>
#include <string.h>

#include "server_private.h"

void ws_games_section(doc *d, const char *id, const char *heading, const store_game_brief *g, int n, int limit)
{
    doc_section_add(d, id, heading, id);
    if (n == 0) {
        doc_para(d, NULL, "No games.");
        return;
    }
    tb_table t;
    tb_init(&t, heading, 7);
    static const char *const heads[] = { "game", "variant", "board", "Black", "White", "winner", "end" };
    for (int c = 0; c < 7; c++)
        tb_column(&t, c, heads[c], c == 0);
    char href[64];
    for (int i = 0; i < n && i < limit; i++) {
        tb_row(&t);
        tb_set(&t, 0, "%lld", (long long)g[i].id);
        snprintf(href, sizeof href, "/game/%lld", (long long)g[i].id);
        tb_link(&t, 0, href);
        tb_set(&t, 1, "%s", g[i].variant);
        tb_set(&t, 2, "%dx%d", g[i].rows, g[i].cols);
        tb_set(&t, 3, "%s", g[i].black_name);
        snprintf(href, sizeof href, "/agent/%lld", (long long)g[i].black);
        tb_link(&t, 3, href);
        tb_set(&t, 4, "%s", g[i].white_name);
        snprintf(href, sizeof href, "/agent/%lld", (long long)g[i].white);
        tb_link(&t, 4, href);
        bool black_won = g[i].winner == HX_BLACK;
        tb_set(&t, 5, "%s", black_won ? "Black" : "White");
        if (strcmp(g[i].reason, hx_end_names[HX_END_CONNECTED]) == 0)
            tb_set(&t, 6, "%s connected", black_won ? "Black" : "White");
        else /* every other end is the loser's forfeit */
            tb_set(&t, 6, "%s (%s) forfeited: %s%s%s", black_won ? "White" : "Black",
                   black_won ? g[i].white_name : g[i].black_name, g[i].reason, g[i].detail[0] ? ": " : "", g[i].detail);
    }
    doc_table(d, &t);
    if (n > limit)
        doc_para(d, "note", "The newest %d of %d games shown.", limit, n);
}

int ws_db_error(ws_req *q, char *err, size_t errlen)
{
    const char *why = store_error(q->s);
    snprintf(err, errlen, "%s: %s", q->cfg->db, why);
    return strstr(why, "interrupt") ? 503 : 500;
}
