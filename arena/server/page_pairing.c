/* arena/server/page_pairing.c — `/pairing/A/B`: two agents against each other, from their newest
 * WS_AGENT_GAMES games together: the head-to-head by variant and board, the pentanomial counts of their game
 * pairs (the two games of one opening with colours reversed, in a league's schedule) with the score, the Elo
 * difference and the LOS they give (ratings/pentanomial.h), and the games. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts.h"
#include "pentanomial.h"
#include "server_private.h"

#define BOARDS 32

typedef struct {
    char variant[24];
    int rows, cols;
    long games, a_wins, a_black, a_black_wins;
} board_tally;

static void head_to_head(doc *d, int64_t a, const char *an, const char *bn, const store_game_brief *g, int n)
{
    board_tally t[BOARDS];
    int m = 0;
    for (int i = 0; i < n; i++) {
        int k = 0;
        while (k < m && !(strcmp(t[k].variant, g[i].variant) == 0 && t[k].rows == g[i].rows && t[k].cols == g[i].cols))
            k++;
        if (k == m) {
            if (m == BOARDS)
                continue;
            memset(&t[m], 0, sizeof t[m]);
            snprintf(t[m].variant, sizeof t[m].variant, "%s", g[i].variant);
            t[m].rows = g[i].rows;
            t[m++].cols = g[i].cols;
        }
        bool a_black = g[i].black == a, a_won = (g[i].winner == HX_BLACK) == a_black;
        t[k].games++;
        t[k].a_wins += a_won;
        t[k].a_black += a_black;
        t[k].a_black_wins += a_black && a_won;
    }
    doc_section_add(d, "head-to-head", "Head-to-head", "head-to-head");
    tb_table x;
    char title[300];
    snprintf(title, sizeof title, "%s against %s", an, bn);
    tb_init(&x, title, 6);
    static const char *const heads[] = { "variant", "board", "games", "won", "score %", "won as Black" };
    for (int c = 0; c < 6; c++)
        tb_column(&x, c, heads[c], c >= 2);
    for (int k = 0; k < m; k++) {
        tb_row(&x);
        tb_set(&x, 0, "%s", t[k].variant);
        tb_set(&x, 1, "%dx%d", t[k].rows, t[k].cols);
        tb_set(&x, 2, "%ld", t[k].games);
        tb_set(&x, 3, "%ld", t[k].a_wins);
        tb_set_real(&x, 4, 100.0 * (double)t[k].a_wins / (double)t[k].games, 1);
        tb_set(&x, 5, "%ld of %ld", t[k].a_black_wins, t[k].a_black);
    }
    doc_table(d, &x);
}

static int by_pair(const void *x, const void *y)
{
    const store_game_brief *a = x, *b = y;
    if (a->league != b->league)
        return a->league < b->league ? -1 : 1;
    return a->pair - b->pair;
}

/* The pentanomial counts of the complete game pairs, from a's side. */
static void pentanomial(doc *d, int64_t a, const store_game_brief *g, int n)
{
    store_game_brief *s = malloc(sizeof *s * (size_t)(n ? n : 1));
    pn_counts c = { { 0 } };
    int m = 0;
    for (int i = 0; s && i < n; i++)
        if (g[i].league > 0 && g[i].pair >= 0)
            s[m++] = g[i];
    if (s)
        qsort(s, (size_t)m, sizeof *s, by_pair);
    for (int i = 0; i + 1 < m; i++)
        if (s[i].league == s[i + 1].league && s[i].pair == s[i + 1].pair) {
            double points = 0;
            for (int k = i; k <= i + 1; k++)
                points += (s[k].winner == HX_BLACK) == (s[k].black == a);
            pn_add(&c, points);
            i++;
        }
    free(s);
    pn_summary sum;
    pn_summarise(&c, 1.96, &sum);
    doc_section_add(d, "pentanomial", "Game pairs (pentanomial)", "pairs");
    tb_table t;
    tb_init(&t, "game pairs: points of the first agent", 10);
    static const char *const heads[] = { "pairs", "0", "0.5", "1", "1.5", "2", "score %", "Elo", "95% interval",
                                         "LOS %" };
    for (int k = 0; k < 10; k++)
        tb_column(&t, k, heads[k], true);
    tb_row(&t);
    tb_set(&t, 0, "%ld", sum.pairs);
    for (int k = 0; k < 5; k++)
        tb_set(&t, k + 1, "%ld", c.n[k]);
    tb_set_real(&t, 6, 100.0 * sum.score, 1);
    tb_set_real(&t, 7, sum.elo, 0);
    if (isfinite(sum.elo_lower) && isfinite(sum.elo_upper))
        tb_set(&t, 8, "%.0f .. %.0f", sum.elo_lower, sum.elo_upper);
    tb_set_real(&t, 9, 100.0 * sum.los, 1);
    doc_table(d, &t);
    if (!sum.pairs)
        doc_para(d, "note", "No complete game pair among these games (pairs come from leagues with openings).");
}

int ws_page_pairing(ws_req *q, int64_t a, int64_t b, doc *d, char *err, size_t errlen)
{
    if (a == b) {
        snprintf(err, errlen, "a pairing needs two agents (got %lld twice)", (long long)a);
        return 400;
    }
    store_agent_row x, y;
    int fa = store_agent_get(q->s, a, &x), fb = fa == 1 ? store_agent_get(q->s, b, &y) : 0;
    if (fa < 0 || fb < 0)
        return ws_db_error(q, err, errlen);
    if (fa == 0 || fb == 0) {
        snprintf(err, errlen, "no agent %lld", (long long)(fa == 0 ? a : b));
        return 404;
    }
    store_game_brief *g;
    int n;
    store_brief_filter f = { .agent = a, .opponent = b, .limit = WS_AGENT_GAMES };
    if (store_games_brief(q->s, &f, &g, &n) != 0)
        return ws_db_error(q, err, errlen);
    char title[300];
    snprintf(title, sizeof title, "%s against %s", x.name, y.name);
    doc_init(d, title, NULL);
    doc_fact_int(d, "a", a);
    doc_fact_int(d, "b", b);
    doc_fact_int(d, "games", n);
    doc_line *l = &d->lead;
    char href[64];
    snprintf(href, sizeof href, "/agent/%lld", (long long)a);
    doc_span_add(l, x.name, href);
    doc_span_add(l, " against ", NULL);
    snprintf(href, sizeof href, "/agent/%lld", (long long)b);
    doc_span_add(l, y.name, href);
    if (n == WS_AGENT_GAMES)
        doc_span_add(l, " (their newest games)", NULL);
    head_to_head(d, a, x.name, y.name, g, n);
    pentanomial(d, a, g, n);
    ws_games_section(d, "games", "Newest games", g, n, WS_GAMES_LISTED);
    free(g);
    return 0;
}
