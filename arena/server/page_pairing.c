/* arena/server/page_pairing.c — `/pairing/A/B`: two agents against each other, from their newest
 * WS_AGENT_GAMES games together: a headline (who leads, by how much Elo with its 95% interval, the LOS, over how
 * many games), the head-to-head by variant and board, the pentanomial counts of their game pairs (the two games
 * of one opening with colours reversed, in a league's schedule) with the score, the Elo difference and the LOS
 * they give (ratings/pentanomial.h), and the games; a section with nothing to show is left out. Every agent
 * name of its text links to the agent's page. */
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

/* "NAME" linked to /agent/ID, at the end of l. */
static void agent_span(doc_line *l, int64_t id, const char *name)
{
    char href[64];
    snprintf(href, sizeof href, "/agent/%lld", (long long)id);
    doc_span_add(l, name, href);
}

static void head_to_head(doc *d, int64_t a, int64_t b, const char *an, const char *bn, const store_game_brief *g,
                         int n)
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
    doc_line *l = doc_para(d, NULL, "The games of ");
    agent_span(l, a, an);
    doc_span_add(l, " against ", NULL);
    agent_span(l, b, bn);
    doc_span_add(l, " by variant and board, from the side of ", NULL);
    agent_span(l, a, an);
    doc_span_add(l, ".", NULL);
    tb_table x;
    tb_init(&x, "head-to-head by variant and board", 6);
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

/* The pentanomial counts of the complete game pairs among g, from a's side, into *c. */
static void pair_counts(int64_t a, const store_game_brief *g, int n, pn_counts *c)
{
    store_game_brief *s = malloc(sizeof *s * (size_t)(n > 0 ? n : 1));
    *c = (pn_counts){ { 0 } };
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
            pn_add(c, points);
            i++;
        }
    free(s);
}

/* The pentanomial counts of the complete game pairs with what they give, from a's side; left out without pairs. */
static void pentanomial(doc *d, int64_t a, int64_t b, const char *an, const char *bn, const pn_counts *c,
                        const pn_summary *sum)
{
    if (!sum->pairs)
        return;
    doc_section_add(d, "pentanomial", "Game pairs (pentanomial)", "pairs");
    doc_line *l = doc_para(d, NULL, "The pairs of games (one opening, colours reversed) by the points ");
    agent_span(l, a, an);
    doc_span_add(l, " scored in them against ", NULL);
    agent_span(l, b, bn);
    doc_span_add(l, ".", NULL);
    tb_table t;
    tb_init(&t, "game pairs: points of the first agent", 10);
    static const char *const heads[] = { "pairs", "0", "0.5", "1", "1.5", "2", "score %", "Elo", "95% interval",
                                         "LOS %" };
    for (int k = 0; k < 10; k++)
        tb_column(&t, k, heads[k], true);
    tb_row(&t);
    tb_set(&t, 0, "%ld", sum->pairs);
    for (int k = 0; k < 5; k++)
        tb_set(&t, k + 1, "%ld", c->n[k]);
    tb_set_real(&t, 6, 100.0 * sum->score, 1);
    tb_set_real(&t, 7, sum->elo, 0);
    if (isfinite(sum->elo_lower) && isfinite(sum->elo_upper))
        tb_set(&t, 8, "%.0f .. %.0f", sum->elo_lower, sum->elo_upper);
    tb_set_real(&t, 9, 100.0 * sum->los, 1);
    doc_table(d, &t);
}

/* An Elo difference or bound as the headline gives it: to the unit ("0", never "-0"), "∞" and "-∞" when unbounded. */
static const char *elo_text(char out[24], double v)
{
    if (!isfinite(v))
        return v > 0 ? "\u221e" : "-\u221e";
    snprintf(out, 24, "%.0f", v);
    return strcmp(out, "-0") == 0 ? "0" : out;
}

/* The lead line: who leads, by how much and how sure, from the game pairs (a's side in s): "A leads B by 212 Elo
 * (95% interval 150..280), LOS 99.9%, over 120 games (71-49)", or "A and B are level: ..."; with its facts
 * (leader: the leading agent's id, null when level or unknown; elo_diff, elo_lo, elo_hi and los from the leader's
 * side, a's when level; null when unknown or unbounded). */
static void headline(doc *d, int64_t a, int64_t b, const char *an, const char *bn, long games, long a_wins,
                     const pn_summary *s, bool newest)
{
    doc_line *l = &d->lead;
    static const char *const keys[] = { "leader", "elo_diff", "elo_lo", "elo_hi", "los" };
    if (games == 0 || s->pairs == 0) {
        for (int k = 0; k < 5; k++)
            doc_fact_null(d, keys[k]);
        agent_span(l, a, an);
        doc_span_add(l, games ? " against " : " and ", NULL);
        agent_span(l, b, bn);
        char text[200];
        if (games)
            snprintf(text, sizeof text, ": %ld-%ld over %ld game%s, no complete game pair among them to give an Elo "
                                        "difference", a_wins, games - a_wins, games, games == 1 ? "" : "s");
        else
            snprintf(text, sizeof text, " have played no game against each other");
        doc_span_add(l, text, NULL);
        doc_span_add(l, newest ? " (their newest games)." : ".", NULL);
        return;
    }
    bool level = isfinite(s->elo) && fabs(s->elo) < 0.5, a_leads = level || s->elo > 0;
    int64_t lead = a_leads ? a : b, trail = a_leads ? b : a;
    const char *ln = a_leads ? an : bn, *tn = a_leads ? bn : an;
    double diff = a_leads ? s->elo : -s->elo, lo = a_leads ? s->elo_lower : -s->elo_upper,
           hi = a_leads ? s->elo_upper : -s->elo_lower, los = a_leads ? s->los : 1 - s->los;
    long wins = a_leads ? a_wins : games - a_wins;
    if (level)
        doc_fact_null(d, "leader");
    else
        doc_fact_int(d, "leader", lead);
    doc_fact_real(d, "elo_diff", diff, 1);
    doc_fact_real(d, "elo_lo", lo, 1);
    doc_fact_real(d, "elo_hi", hi, 1);
    doc_fact_real(d, "los", los, 4);
    char e[24], el[24], eh[24], text[400];
    agent_span(l, lead, ln);
    doc_span_add(l, level ? " and " : " leads ", NULL);
    agent_span(l, trail, tn);
    if (level)
        snprintf(text, sizeof text, " are level: %s Elo", elo_text(e, diff));
    else if (isfinite(diff))
        snprintf(text, sizeof text, " by %s Elo", elo_text(e, diff));
    else
        snprintf(text, sizeof text, ": every game pair won, the Elo difference unbounded");
    size_t k = strlen(text);
    k += (size_t)snprintf(text + k, sizeof text - k, " (95%% interval %s..%s), LOS %.1f%%, over %ld games (%ld-%ld",
                          elo_text(el, lo), elo_text(eh, hi), 100.0 * los, games, wins, games - wins);
    if (2 * s->pairs != games && k < sizeof text)
        k += (size_t)snprintf(text + k, sizeof text - k, "; the Elo from the %ld complete game pair%s among them",
                              s->pairs, s->pairs == 1 ? "" : "s");
    if (k < sizeof text)
        snprintf(text + k, sizeof text - k, ")%s.", newest ? ", their newest games" : "");
    doc_span_add(l, text, NULL);
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
    long a_wins = 0;
    for (int i = 0; i < n; i++)
        a_wins += (g[i].winner == HX_BLACK) == (g[i].black == a);
    pn_counts c;
    pn_summary sum;
    pair_counts(a, g, n, &c);
    pn_summarise(&c, 1.96, &sum);
    headline(d, a, b, x.name, y.name, n, a_wins, &sum, n == WS_AGENT_GAMES);
    if (n > 0) {
        head_to_head(d, a, b, x.name, y.name, g, n);
        pentanomial(d, a, b, x.name, y.name, &c, &sum);
        ws_games_section(d, "games", "Newest games", g, n, WS_GAMES_LISTED);
    }
    free(g);
    return 0;
}
