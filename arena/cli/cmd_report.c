/* arena/cli/cmd_report.c — `arena report`: the nightly page of one league, written as report.html (one
 * self-contained HTML file; its figures are SVG files next to it), report.md and report.json, with every
 * figure (figures.h) and the logs of the agents that forfeited; and `arena report --index DIR`, the index of
 * the nights under DIR (docs/nightly.md). */
#define _GNU_SOURCE /* open_memstream, strcasestr */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <time.h>
#include <unistd.h>

#include "board.h"
#include "cli.h"
#include "cli_db.h"
#include "commands.h"
#include "config.h"
#include "mode.h"
#include "facts.h"
#include "figures.h"
#include "json.h"
#include "query.h"
#include "result.h"
#include "standings.h"
#include "store.h"
#include "variant.h"

static const char report_help[] =
    "usage: arena report [--db PATH] [--league L] [--out DIR] [--logs DIR] [--night YYYY-MM-DD]\n"
    "                    [--bootstrap N] [--format text|json]\n"
    "       arena report --index DIR [--format text|json]\n\n"
    "Writes the report of a league into DIR: report.html (one self-contained page: no network, its figures\n"
    "are the SVG files next to it; readable on a phone and a desktop), report.md, report.json (every number\n"
    "of the page), summary.txt (one line per fact, for the index), the figures of 'arena plot' (PNG and SVG)\n"
    "and logs/ (the output of the agents that forfeited). The page's sections: warnings, run settings,\n"
    "agents (command, version, program hash), ratings with intervals and first-move advantages, change since\n"
    "the previous league of the same name, head-to-head with LOS, win matrices in rating order, ratings per\n"
    "variant and board, rating history, forfeits per agent with their logs, time use per agent, repeated\n"
    "games. --index writes DIR/index.html: every night under DIR (subdirectories with a summary.txt), newest\n"
    "first, with links to their pages.\n\n"
    "  --db PATH          results database (default results/arena.db)\n"
    "  --league L         an id or a name (its newest league); default: the newest league with games\n"
    "  --out DIR          where to write (default results/nightly/NIGHT)\n"
    "  --logs DIR         the league's agent logs (default results/logs, as 'arena league')\n"
    "  --night D          the night the report is of (default: the league's, 'arena league --date')\n"
    "  --bootstrap N      resamples for intervals and LOS (default 1000, as 'arena ratings')\n"
    "  --index DIR        write DIR/index.html instead\n"
    "  --format F         what is printed: text (the files written) or json; --json is --format json\n\n"
    "Exit status: 0 done, 1 failure (database, gnuplot, disk), 2 bad input.\n";

/* Share of a pairing's games that repeat an earlier game move for move above which the page warns. */
#define REPEAT_WARN 0.10
#define LOG_TAIL (256 * 1024)

typedef struct {
    store_agent_row info;
    bool unsandboxed;
    long forfeits[HX_END_COUNT], forfeit_total;
    char detail[200];          /* the latest forfeit's reason and detail */
    double *ms;                /* thinking times of its timed attempts */
    long n_ms, cap_ms, timed_games;
    double seconds;            /* sum over its games of its thinking time */
    char section[CFG_NAME_MAX]; /* its config section (its logs' name), "" when unknown */
    char logs[8][256];         /* log files copied, relative to the report */
    int n_logs;
} agent;

typedef struct {
    const char *db, *out, *logs;
    int bootstrap;
    bool json;
    st_report *r;
    st_selection pooled;
    store_league_facts facts;
    cfg_league *cfg;           /* the stored config, parsed; NULL when it does not parse now */
    char night[16];
    int64_t prev;              /* the previous league of the series, 0: none */
    st_report *pr;
    st_selection prev_fit;
    bool have_prev;
    agent *agents;             /* [r->n_players] */
    long total_games, forfeits, repeated;
    char warnings[8][400];
    int n_warnings;
    FILE *md, *html, *js;
    bool js_first_table;
    pl_plotter plot;
} page;

/* ---- small writers ---- */

static void html_text(FILE *f, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
}

/* Markdown text: the characters that would start markup escaped. */
static void md_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (strchr("\\`*_[]<>|#&", *s))
            fputc('\\', f);
        fputc(*s, f);
    }
}

static void section_begin(page *p, const char *id, const char *heading, bool first)
{
    fprintf(p->md, "\n## %s\n\n", heading);
    fprintf(p->html, "<section id=\"%s\">\n<h2>%s</h2>\n", id, heading);
    fprintf(p->js, "%s\"%s\":[", first ? "" : ",", id);
    p->js_first_table = true;
}

static void section_end(page *p)
{
    fputs("</section>\n", p->html);
    fputc(']', p->js);
}

static void para(page *p, const char *cls, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void para(page *p, const char *cls, const char *fmt, ...)
{
    char text[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (cls && strcmp(cls, "warning") == 0)
        fputs("**Warning:** ", p->md);
    md_text(p->md, text);
    fputs("\n\n", p->md);
    fprintf(p->html, "<p%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
    html_text(p->html, text);
    fputs("</p>\n", p->html);
}

/* A table in all three documents; freed. */
static void table(page *p, tb_table *t)
{
    tb_write(p->md, t, TB_MD, true, true);
    fputs("<div class=\"scroll\">\n", p->html);
    tb_write(p->html, t, TB_HTML, true, true);
    fputs("</div>\n", p->html);
    if (!p->js_first_table)
        fputc(',', p->js);
    /* one table object: tb_write's array of one, without its brackets */
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        cli_fail("report", "out of memory");
    tb_write(m, t, TB_JSON, true, true);
    fclose(m);
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ']'))
        text[--len] = '\0';
    fputs(text + (text[0] == '[' ? 1 : 0), p->js);
    free(text);
    p->js_first_table = false;
    tb_free(t);
}

static void figure(page *p, const char *file, const char *alt);

/* The figure of group g: PREFIX-VARIANT-RxC, described as "WHAT, VARIANT RxC". */
static void group_figure(page *p, int g, const char *prefix, const char *what)
{
    char file[128], alt[200];
    fg_group_file(file, sizeof file, prefix, p->r->groups[g].variant, p->r->groups[g].board);
    snprintf(alt, sizeof alt, "%s, %s", what, p->r->groups[g].name);
    figure(p, file, alt);
}

/* A figure: its SVG shown, its PNG linked; left out when it was not drawn. */
static void figure(page *p, const char *file, const char *alt)
{
    char path[PATH_MAX + 300];
    snprintf(path, sizeof path, "%s/%s.svg", p->out, file);
    if (access(path, R_OK) != 0)
        return;
    fprintf(p->md, "![%s](%s.svg)\n\n", alt, file);
    fprintf(p->html, "<figure><a href=\"%s.svg\"><img src=\"%s.svg\" alt=\"", file, file);
    html_text(p->html, alt);
    fprintf(p->html, "\"></a><figcaption>");
    html_text(p->html, alt);
    fprintf(p->html, " (<a href=\"%s.png\">PNG</a>)</figcaption></figure>\n", file);
}

static void warn(page *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(page *p, const char *fmt, ...)
{
    if (p->n_warnings == (int)(sizeof p->warnings / sizeof p->warnings[0]))
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->warnings[p->n_warnings++], sizeof p->warnings[0], fmt, ap);
    va_end(ap);
}

/* ---- gathering ---- */

static int player_of(const st_report *r, int64_t agent_id)
{
    for (int i = 0; i < r->n_players; i++)
        if (r->players[i].id == agent_id)
            return i;
    return -1;
}

static void add_ms(agent *a, double ms)
{
    if (a->n_ms == a->cap_ms) {
        a->cap_ms = a->cap_ms ? 2 * a->cap_ms : 256;
        a->ms = realloc(a->ms, sizeof *a->ms * (size_t)a->cap_ms);
        if (!a->ms)
            cli_fail("report", "out of memory");
    }
    a->ms[a->n_ms++] = ms;
}

/* Forfeits, sandbox flags and thinking times, from every game of the league and its attempts. */
static void gather_games(page *p, store_db *s)
{
    st_report *r = p->r;
    store_filter f = { .league = p->facts.id };
    store_games *q = store_query(s, &f);
    if (!q)
        cli_fail("report", "%s: %s", p->db, store_error(s));
    store_game_row row;
    int rc;
    while ((rc = store_games_next(q, &row)) == 1) {
        int b = player_of(r, row.black_id), w = player_of(r, row.white_id);
        if (b < 0 || w < 0)
            continue;
        p->total_games++;
        p->agents[b].unsandboxed |= row.black_unsandboxed;
        p->agents[w].unsandboxed |= row.white_unsandboxed;
        if (strcmp(row.reason, "connected") != 0) {
            agent *loser = &p->agents[row.winner == HX_BLACK ? w : b];
            for (int k = 0; k < HX_END_COUNT; k++)
                if (strcmp(row.reason, hx_end_names[k]) == 0)
                    loser->forfeits[k]++;
            loser->forfeit_total++;
            p->forfeits++;
            snprintf(loser->detail, sizeof loser->detail, "game %lld: %s%s%.150s", (long long)row.id, row.reason,
                     row.detail[0] ? ": " : "", row.detail);
        }
        store_transcript *t = store_transcript_open(s, row.id);
        if (!t)
            cli_fail("report", "%s: %s", p->db, store_error(s));
        store_attempt_row a;
        double think[2] = { 0, 0 };
        bool timed[2] = { false, false };
        while ((rc = store_transcript_next(t, &a)) == 1) {
            if (!isfinite(a.ms))
                continue;
            int c = a.player == HX_BLACK ? 0 : 1;
            add_ms(&p->agents[c == 0 ? b : w], a.ms);
            think[c] += a.ms / 1000.0;
            timed[c] = true;
        }
        store_transcript_end(t);
        if (rc != 0)
            cli_fail("report", "%s: %s", p->db, store_error(s));
        for (int c = 0; c < 2; c++)
            if (timed[c]) {
                agent *x = &p->agents[c == 0 ? b : w];
                x->seconds += think[c];
                x->timed_games++;
            }
    }
    store_games_end(q);
    if (rc != 0)
        cli_fail("report", "%s: %s", p->db, store_error(s));
}

/* The stored config, parsed again (for the run settings and the agents' log names). */
static void parse_config(page *p)
{
    static cfg_league cfg;
    char err[512];
    if (cfg_parse(p->facts.config, strlen(p->facts.config), "(stored config)", &cfg, err, sizeof err) == 0)
        p->cfg = &cfg;
    if (!p->cfg)
        return;
    for (int i = 0; i < p->r->n_players; i++)
        for (int a = 0; a < cfg.n_agents; a++)
            if (strcmp(cfg.agents[a].store_name, p->agents[i].info.name) == 0)
                snprintf(p->agents[i].section, sizeof p->agents[i].section, "%s", cfg.agents[a].name);
}

/* Copies the last LOG_TAIL bytes of `from` to `to`. */
static int copy_tail(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb");
    if (!in)
        return -1;
    FILE *out = fopen(to, "wb");
    if (!out) {
        fclose(in);
        return -1;
    }
    if (fseek(in, 0, SEEK_END) == 0) {
        long size = ftell(in);
        if (size > LOG_TAIL) {
            fseek(in, size - LOG_TAIL, SEEK_SET);
            fprintf(out, "[... the first %ld bytes left out ...]\n", size - LOG_TAIL);
        } else
            fseek(in, 0, SEEK_SET);
    }
    char buf[65536];
    size_t n;
    int rc = 0;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            rc = -1;
    fclose(in);
    if (fclose(out) != 0)
        rc = -1;
    return rc;
}

/* The logs of the agents that forfeited (league-NAME-SECTION-N.log), copied into OUT/logs. */
static void copy_logs(page *p)
{
    DIR *d = opendir(p->logs);
    if (!d)
        return;
    char dir[PATH_MAX + 8];
    snprintf(dir, sizeof dir, "%s/logs", p->out);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        for (int i = 0; i < p->r->n_players; i++) {
            agent *a = &p->agents[i];
            if (!a->forfeit_total || !a->section[0] || a->n_logs == (int)(sizeof a->logs / sizeof a->logs[0]))
                continue;
            char prefix[600];
            snprintf(prefix, sizeof prefix, "league-%s-%s-", p->facts.name, a->section);
            size_t pl = strlen(prefix), nl = strlen(e->d_name);
            if (strncmp(e->d_name, prefix, pl) != 0 || nl < pl + 5 || strcmp(e->d_name + nl - 4, ".log") != 0 ||
                strspn(e->d_name + pl, "0123456789") != nl - pl - 4)
                continue;
            char from[PATH_MAX * 2], to[PATH_MAX * 2];
            snprintf(from, sizeof from, "%s/%s", p->logs, e->d_name);
            mkdir(dir, 0755);
            snprintf(to, sizeof to, "%s/%s", dir, e->d_name);
            if (copy_tail(from, to) == 0)
                snprintf(a->logs[a->n_logs++], sizeof a->logs[0], "logs/%.240s", e->d_name);
        }
    }
    closedir(d);
}

/* Games that repeat an earlier game of the same pairing, colours and board move for move. */
typedef struct {
    int variant, rows, cols;
    char black[64], white[64];
    uint64_t moves;
} game_key;

static int by_key(const void *a, const void *b)
{
    const game_key *x = a, *y = b;
    int c = x->variant - y->variant;
    if (!c)
        c = x->rows - y->rows;
    if (!c)
        c = x->cols - y->cols;
    if (!c)
        c = strcmp(x->black, y->black);
    if (!c)
        c = strcmp(x->white, y->white);
    if (!c)
        c = x->moves < y->moves ? -1 : x->moves > y->moves;
    return c;
}

static void repeats_section(page *p, store_db *s)
{
    store_league_game *g = NULL;
    int n = 0;
    if (store_league_games(s, p->facts.id, &g, &n) != 0)
        cli_fail("report", "%s: %s", p->db, store_error(s));
    game_key *k = calloc((size_t)(n ? n : 1), sizeof *k);
    if (!k)
        cli_fail("report", "out of memory");
    for (int i = 0; i < n; i++) {
        k[i] = (game_key){ (int)g[i].variant, g[i].rows, g[i].cols, "", "", g[i].moves };
        snprintf(k[i].black, sizeof k[i].black, "%s", g[i].black);
        snprintf(k[i].white, sizeof k[i].white, "%s", g[i].white);
    }
    free(g);
    qsort(k, (size_t)n, sizeof *k, by_key);
    tb_table t;
    tb_init(&t, "pairings whose games repeat (same players, colours, variant, board and moves)", 7);
    static const char *const head[] = { "variant", "board", "black", "white", "games", "distinct", "repeated%" };
    for (int c = 0; c < 7; c++)
        tb_column(&t, c, head[c], c >= 4);
    long flagged = 0;
    for (int i = 0; i < n;) {
        int j = i, distinct = 0;
        for (; j < n && k[j].variant == k[i].variant && k[j].rows == k[i].rows && k[j].cols == k[i].cols &&
               strcmp(k[j].black, k[i].black) == 0 && strcmp(k[j].white, k[i].white) == 0;
             j++)
            distinct += j == i || k[j].moves != k[j - 1].moves;
        int games = j - i, rep = games - distinct;
        p->repeated += rep;
        if (rep > 0) {
            tb_row(&t);
            tb_set(&t, 0, "%s", hx_variant_name((hx_variant)k[i].variant));
            tb_set(&t, 1, "%dx%d", k[i].rows, k[i].cols);
            tb_set(&t, 2, "%s", k[i].black);
            tb_set(&t, 3, "%s", k[i].white);
            tb_set(&t, 4, "%d", games);
            tb_set(&t, 5, "%d", distinct);
            tb_set_real(&t, 6, 100.0 * rep / games, 1);
            flagged += (double)rep / games > REPEAT_WARN;
        }
        i = j;
    }
    free(k);
    if (flagged)
        warn(p, "%ld pairing%s repeated more than %.0f%% of their games move for move (%ld of %d games repeat an "
                "earlier one): the results count those games more than once; use openings (docs/leagues.md)",
             flagged, flagged == 1 ? "" : "s", 100 * REPEAT_WARN, p->repeated, n);
    section_begin(p, "repeats", "Repeated games", false);
    para(p, NULL, "%ld of %d games repeat an earlier game of the same pairing move for move (agents named by their "
                  "config sections).",
         p->repeated, n);
    if (t.rows > 0)
        table(p, &t);
    else
        tb_free(&t);
    section_end(p);
}

/* ---- sections ---- */

static void settings_section(page *p)
{
    section_begin(p, "settings", "Run settings", true);
    tb_table t;
    tb_init(&t, "settings", 2);
    tb_column(&t, 0, "setting", false);
    tb_column(&t, 1, "value", false);
#define ROW(k, ...) (tb_row(&t), tb_set(&t, 0, "%s", k), tb_set(&t, 1, __VA_ARGS__))
    const store_league_facts *f = &p->facts;
    ROW("league", "%lld '%s'", (long long)f->id, f->name);
    ROW("night", "%s", p->night);
    ROW("arena version", "%s", ARENA_VERSION);
    ROW("seed", "%llu", (unsigned long long)f->seed);
    ROW("config SHA-256", "%s", f->config_sha256);
    ROW("games", "%ld played of %ld planned (%ld skipped by SPRT)", f->played, f->planned, f->skipped);
    ROW("sittings", "%ld", f->runs);
    ROW("first game started", "%s", f->first_started);
    ROW("last game finished", "%s", f->last_finished);
    if (p->cfg) {
        const cfg_league *c = p->cfg;
        ROW("mode", "%s", c->mode->name);
        char list[512] = "";
        for (int v = 0; v < HX_VARIANT_COUNT; v++)
            if (c->games.variants & (1u << v))
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", list[0] ? ", " : "",
                         hx_variant_name((hx_variant)v));
        ROW("variants", "%s", list);
        list[0] = '\0';
        for (int b = 0; b < c->games.n_boards; b++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%dx%d", list[0] ? ", " : "",
                     c->games.boards[b][0], c->games.boards[b][1]);
        ROW("boards", "%s", list[0] ? list : "as the agents announce");
        ROW("games per pairing", "%d per variant and board", c->per_pairing);
        ROW("time per move", "%u ms", c->move_ms);
        ROW("concurrency", "%d games at once", c->concurrency);
        ROW("openings", "%s%s", c->openings, strcmp(c->openings, "random") == 0 ? "" : "");
        if (strcmp(c->openings, "random") == 0)
            ROW("opening stones", "%d", c->opening_stones);
        ROW("swap rule", "%s", c->swap ? "on (hex, square boards)" : "off");
        ROW("sandbox", "%s", c->sandbox ? "on" : "off by default (see the agents)");
    } else
        ROW("config", "%s", "the stored config does not parse with this arena; its text is below");
#undef ROW
    table(p, &t);
    fputs("<details><summary>config file</summary><pre>", p->html);
    html_text(p->html, p->facts.config);
    fputs("</pre></details>\n", p->html);
    section_end(p);
}

static void agents_section(page *p)
{
    section_begin(p, "agents", "Agents", false);
    tb_table t;
    tb_init(&t, "agents of this league", 8);
    static const char *const head[] = { "name", "version", "command", "sha256", "sandbox", "games", "forfeits",
                                        "first seen" };
    for (int c = 0; c < 8; c++)
        tb_column(&t, c, head[c], c == 5 || c == 6);
    for (int k = 0; k < p->pooled.m; k++) {
        int i = p->pooled.rank[k];
        const agent *a = &p->agents[i];
        tb_row(&t);
        tb_set(&t, 0, "%s", p->r->players[i].name);
        tb_set(&t, 1, "%s", a->info.version);
        tb_set(&t, 2, "%s", a->info.command);
        tb_set(&t, 3, "%s", a->info.sha256);
        tb_set(&t, 4, "%s", a->unsandboxed ? "OFF" : "on");
        tb_set(&t, 5, "%ld", p->pooled.games[i]);
        tb_set(&t, 6, "%ld", a->forfeit_total);
        tb_set(&t, 7, "%s", a->info.first_seen);
    }
    table(p, &t);
    section_end(p);
}

static void ratings_section(page *p)
{
    st_report *r = p->r;
    section_begin(p, "ratings", "Ratings", false);
    para(p, NULL, "Bradley-Terry Elo with a first-move advantage per variant and board, pooled over the league's "
                  "games; 95%% intervals and LOS from %d bootstrap resamples (docs/ratings.md).",
         p->bootstrap);
    tb_table t;
    st_ratings_table(r, -1, &p->pooled, &t);
    t.caveat = &r->caveat;
    table(p, &t);
    tb_init(&t, "first-move advantage by variant and board", 5);
    static const char *const head[] = { "variant", "board", "elo", "lower", "upper" };
    for (int c = 0; c < 5; c++)
        tb_column(&t, c, head[c], c >= 2);
    for (int g = 0; g < r->n_groups; g++) {
        tb_row(&t);
        tb_set(&t, 0, "%s", r->groups[g].variant);
        tb_set(&t, 1, "%s", r->groups[g].board);
        tb_set_real(&t, 2, p->pooled.f.adv[g], 0);
        if (p->pooled.f.resamples) {
            tb_set_real(&t, 3, p->pooled.f.adv_lo[g], 0);
            tb_set_real(&t, 4, p->pooled.f.adv_hi[g], 0);
        }
    }
    table(p, &t);
    figure(p, "ratings-pooled", "pooled ratings with 95% intervals");
    section_end(p);
}

static void changes_section(page *p)
{
    section_begin(p, "changes", "Change since the previous night", false);
    if (!p->have_prev) {
        para(p, NULL, "No earlier league named '%s' has games: nothing to compare with.", p->facts.name);
        section_end(p);
        return;
    }
    para(p, NULL, "Against league %lld (night %s): pooled Elo of each league on its own games, matched by name.",
         (long long)p->prev, p->pr->leagues[0].night[0] ? p->pr->leagues[0].night : "?");
    tb_table t;
    tb_init(&t, "change since the previous night", 6);
    static const char *const head[] = { "name", "elo", "previous", "change", "rank", "previous rank" };
    for (int c = 0; c < 6; c++)
        tb_column(&t, c, head[c], c >= 1);
    const st_selection *x = &p->pooled, *y = &p->prev_fit;
    for (int k = 0; k < x->m; k++) {
        int i = x->rank[k], j = -1, prev_rank = 0;
        for (int q = 0; q < y->m && j < 0; q++)
            if (strcmp(p->pr->players[y->rank[q]].name, p->r->players[i].name) == 0)
                j = y->rank[q], prev_rank = q + 1;
        tb_row(&t);
        tb_set(&t, 0, "%s", p->r->players[i].name);
        tb_set_real(&t, 1, x->f.elo[i], 0);
        if (j >= 0) {
            tb_set_real(&t, 2, y->f.elo[j], 0);
            tb_set(&t, 3, "%+.0f", x->f.elo[i] - y->f.elo[j]);
            tb_set(&t, 5, "%d", prev_rank);
        } else
            tb_set(&t, 3, "%s", "new");
        tb_set(&t, 4, "%d", k + 1);
    }
    for (int q = 0; q < y->m; q++) { /* agents of the previous night that did not play tonight */
        int j = y->rank[q];
        bool here = false;
        for (int k = 0; k < x->m && !here; k++)
            here = strcmp(p->pr->players[j].name, p->r->players[x->rank[k]].name) == 0;
        if (here)
            continue;
        tb_row(&t);
        tb_set(&t, 0, "%s", p->pr->players[j].name);
        tb_set_real(&t, 2, y->f.elo[j], 0);
        tb_set(&t, 3, "%s", "absent");
        tb_set(&t, 5, "%d", q + 1);
    }
    table(p, &t);
    section_end(p);
}

static void head_to_head_section(page *p)
{
    st_report *r = p->r;
    const st_selection *x = &p->pooled;
    int n = r->n_players;
    long *games = calloc((size_t)n * (size_t)n, sizeof *games), *wins = calloc((size_t)n * (size_t)n, sizeof *wins);
    if (!games || !wins)
        cli_fail("report", "out of memory");
    for (long i = 0; i < r->n_results; i++) { /* [a * n + b]: a's games and wins against b, either colour */
        const st_result *y = &r->results[i];
        int a = y->black, b = y->white;
        games[a * n + b]++, games[b * n + a]++;
        wins[(y->winner == HX_BLACK ? a : b) * n + (y->winner == HX_BLACK ? b : a)]++;
    }
    section_begin(p, "head-to-head", "Head-to-head", false);
    para(p, NULL, "Every pair that met, both colours and every variant and board together, the better rated first. "
                  "Elo difference and LOS (likelihood that the first is the stronger) from the pooled fit.");
    tb_table t;
    tb_init(&t, "head-to-head", 8);
    static const char *const head[] = { "agent", "opponent", "games", "wins", "losses", "score%", "elo diff",
                                        "los%" };
    for (int c = 0; c < 8; c++)
        tb_column(&t, c, head[c], c >= 2);
    for (int k = 0; k < x->m; k++)
        for (int q = k + 1; q < x->m; q++) {
            int a = x->rank[k], b = x->rank[q];
            long g = games[a * n + b];
            if (!g)
                continue;
            tb_row(&t);
            tb_set(&t, 0, "%s", r->players[a].name);
            tb_set(&t, 1, "%s", r->players[b].name);
            tb_set(&t, 2, "%ld", g);
            tb_set(&t, 3, "%ld", wins[a * n + b]);
            tb_set(&t, 4, "%ld", wins[b * n + a]);
            tb_set_real(&t, 5, 100.0 * (double)wins[a * n + b] / (double)g, 1);
            tb_set_real(&t, 6, x->f.elo[a] - x->f.elo[b], 0);
            if (x->f.resamples)
                tb_set_real(&t, 7, 100.0 * rt_los(&x->f, n, a, b), 1);
        }
    free(games);
    free(wins);
    table(p, &t);
    section_end(p);
}

static void matrices_section(page *p)
{
    st_report *r = p->r;
    section_begin(p, "matrices", "Win matrices", false);
    para(p, NULL, "Rows move first (Black), columns second (White), both in the order of that variant and board's "
                  "ratings; each cell is the row's wins-losses, so it says how many games it rests on.");
    for (int g = 0; g < r->n_groups; g++) {
        int order[ST_MAX_PLAYERS], m = st_order(r, g, order);
        if (!m)
            continue;
        long *w = calloc((size_t)m * (size_t)m, sizeof *w), *games = calloc((size_t)m * (size_t)m, sizeof *games);
        if (!w || !games)
            cli_fail("report", "out of memory");
        st_counts(r, g, order, m, w, games);
        tb_table t;
        st_matrix_table(r, g, order, m, w, games, false, &t);
        t.caveat = &r->caveat;
        free(w);
        free(games);
        table(p, &t);
        group_figure(p, g, "matrix-", "win matrix");
    }
    section_end(p);
}

static void variants_section(page *p)
{
    st_report *r = p->r;
    section_begin(p, "variants", "Ratings by variant and board", false);
    for (int g = 0; g < r->n_groups; g++) {
        static st_selection x;
        if (!st_fit(r, g, -1, &x))
            continue;
        tb_table t;
        st_ratings_table(r, g, &x, &t);
        t.caveat = &r->caveat;
        st_selection_free(&x);
        table(p, &t);
        group_figure(p, g, "ratings-", "ratings");
    }
    section_end(p);
}

static void history_section(page *p)
{
    section_begin(p, "history", "Rating history", false);
    para(p, NULL, "The pooled rating of every league named '%s', one point per night, with 95%% intervals; each "
                  "league is fitted on its own games.",
         p->facts.name);
    figure(p, "history", "rating history");
    section_end(p);
}

static void forfeits_section(page *p)
{
    st_report *r = p->r;
    section_begin(p, "forfeits", "Forfeits", false);
    if (!p->forfeits)
        para(p, NULL, "No game was forfeited.");
    tb_table t;
    tb_init(&t, "forfeits by agent and reason", 3 + HX_END_COUNT - 1);
    tb_column(&t, 0, "agent", false);
    tb_column(&t, 1, "forfeits", true);
    for (int k = 1; k < HX_END_COUNT; k++)
        tb_column(&t, 1 + k, hx_end_names[k], true);
    tb_column(&t, 1 + HX_END_COUNT, "latest", false);
    for (int k = 0; k < p->pooled.m; k++) {
        int i = p->pooled.rank[k];
        const agent *a = &p->agents[i];
        if (!a->forfeit_total)
            continue;
        tb_row(&t);
        tb_set(&t, 0, "%s", r->players[i].name);
        tb_set(&t, 1, "%ld", a->forfeit_total);
        for (int q = 1; q < HX_END_COUNT; q++)
            tb_set(&t, 1 + q, "%ld", a->forfeits[q]);
        tb_set(&t, 1 + HX_END_COUNT, "%s", a->detail);
    }
    if (t.rows)
        table(p, &t);
    else
        tb_free(&t);
    bool any = false;
    for (int k = 0; k < p->pooled.m; k++) {
        const agent *a = &p->agents[p->pooled.rank[k]];
        if (!a->forfeit_total)
            continue;
        if (!any)
            fputs("<ul class=\"logs\">\n", p->html);
        any = true;
        fputs("<li>", p->html);
        html_text(p->html, r->players[p->pooled.rank[k]].name);
        fputs(": ", p->html);
        fputs("- ", p->md);
        md_text(p->md, r->players[p->pooled.rank[k]].name);
        fputs(": ", p->md);
        if (!a->n_logs) {
            fputs("no log found", p->html);
            fputs("no log found", p->md);
        }
        for (int q = 0; q < a->n_logs; q++) {
            fprintf(p->html, "%s<a href=\"", q ? ", " : "");
            html_text(p->html, a->logs[q]);
            fputs("\">", p->html);
            html_text(p->html, a->logs[q] + 5);
            fputs("</a>", p->html);
            fprintf(p->md, "%s[%s](%s)", q ? ", " : "", a->logs[q] + 5, a->logs[q]);
        }
        fputs("</li>\n", p->html);
        fputs("\n", p->md);
    }
    if (any) {
        fputs("</ul>\n", p->html);
        fputs("\n", p->md);
    }
    section_end(p);
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double quantile(const double *v, long n, double q)
{
    long k = (long)ceil(q * (double)n) - 1;
    return v[k < 0 ? 0 : k >= n ? n - 1 : k];
}

static void time_section(page *p)
{
    st_report *r = p->r;
    section_begin(p, "time-use", "Time use", false);
    unsigned budget = p->cfg ? p->cfg->move_ms : 0;
    if (budget)
        para(p, NULL, "Thinking time per attempt (from the turn sent to the move received, in ms) against a budget "
                      "of %u ms per move.",
             budget);
    else
        para(p, NULL, "Thinking time per attempt (from the turn sent to the move received, in ms).");
    tb_table t;
    tb_init(&t, "thinking time per attempt, ms", 9);
    static const char *const head[] = { "agent", "attempts", "mean", "median", "p95", "max", "max/budget%",
                                        "per game s", "over 80%" };
    for (int c = 0; c < 9; c++)
        tb_column(&t, c, head[c], c >= 1);
    for (int k = 0; k < p->pooled.m; k++) {
        int i = p->pooled.rank[k];
        agent *a = &p->agents[i];
        tb_row(&t);
        tb_set(&t, 0, "%s", r->players[i].name);
        tb_set(&t, 1, "%ld", a->n_ms);
        if (!a->n_ms)
            continue;
        qsort(a->ms, (size_t)a->n_ms, sizeof *a->ms, by_double);
        double sum = 0;
        long over = 0;
        for (long q = 0; q < a->n_ms; q++) {
            sum += a->ms[q];
            over += budget && a->ms[q] > 0.8 * budget;
        }
        tb_set_real(&t, 2, sum / (double)a->n_ms, 2);
        tb_set_real(&t, 3, quantile(a->ms, a->n_ms, 0.5), 2);
        tb_set_real(&t, 4, quantile(a->ms, a->n_ms, 0.95), 2);
        tb_set_real(&t, 5, a->ms[a->n_ms - 1], 2);
        if (budget)
            tb_set_real(&t, 6, 100.0 * a->ms[a->n_ms - 1] / budget, 1);
        if (a->timed_games)
            tb_set_real(&t, 7, a->seconds / (double)a->timed_games, 3);
        if (budget)
            tb_set(&t, 8, "%ld", over);
    }
    table(p, &t);
    section_end(p);
}

/* ---- the page ---- */

static const char page_style[] =
    "<style>\n"
    ":root { color-scheme: light; }\n"
    "body { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; margin: 0 auto; padding: 0.8em;\n"
    "       max-width: 72em; color: #1b1b1b; background: #fff; line-height: 1.4; }\n"
    "h1 { font-size: 1.5em; margin: 0.3em 0; } h2 { font-size: 1.2em; margin-top: 1.6em;\n"
    "     border-bottom: 1px solid #ddd; }\n"
    "nav { font-size: 0.9em; } nav a { margin-right: 0.8em; white-space: nowrap; }\n"
    ".scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; max-width: 100%; }\n"
    "table { border-collapse: collapse; margin: 0.8em 0 0.3em; font-size: 0.9em; }\n"
    "caption { text-align: left; font-weight: bold; padding-bottom: 0.3em; }\n"
    "th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; vertical-align: top; }\n"
    "th { background: #f0f0f0; } td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }\n"
    "td { overflow-wrap: anywhere; min-width: 7ch; max-width: 32em; } td.num { white-space: nowrap; min-width: 0; }\n"
    "td:first-child { overflow-wrap: normal; white-space: nowrap; }\n"
    "p.note, p.scope { color: #555; font-size: 0.85em; margin-top: 0; }\n"
    "p.warning, li.warning { background: #fff3cd; border-left: 4px solid #e0a800; padding: 0.4em 0.6em; }\n"
    "ul.warnings { list-style: none; padding: 0; }\n"
    "figure { margin: 1em 0; } figure img { width: 100%; max-width: 900px; height: auto; border: 1px solid #eee; }\n"
    "figcaption { font-size: 0.85em; color: #555; }\n"
    "pre { overflow-x: auto; background: #f7f7f7; padding: 0.5em; font-size: 0.85em; }\n"
    "@media (max-width: 40em) { body { padding: 0.4em; } table { font-size: 0.8em; } }\n"
    "</style>\n";

static const struct {
    const char *id, *label;
} nav[] = {
    { "warnings", "warnings" }, { "settings", "settings" },   { "agents", "agents" },
    { "ratings", "ratings" },   { "changes", "change" },      { "head-to-head", "head-to-head" },
    { "matrices", "matrices" }, { "variants", "by variant" }, { "history", "history" },
    { "forfeits", "forfeits" }, { "time-use", "time use" },   { "repeats", "repeats" },
};

static FILE *open_out(const page *p, const char *name)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", p->out, name);
    FILE *f = fopen(path, "w");
    if (!f)
        cli_fail("report", "%s: %s", path, strerror(errno));
    return f;
}

static void close_out(const page *p, FILE *f, const char *name)
{
    if (ferror(f) | (fclose(f) != 0))
        cli_fail("report", "%s/%s: cannot write (disk full?)", p->out, name);
}

static void write_page(page *p, store_db *s)
{
    p->md = open_out(p, "report.md.tmp");
    p->html = open_out(p, "report.html.tmp");
    p->js = open_out(p, "report.json.tmp");
    char *body = NULL, *mdbody = NULL;
    size_t body_len = 0, md_len = 0;
    /* the sections go to memory first: the warnings they raise open the page */
    FILE *html = p->html, *md = p->md;
    p->html = open_memstream(&body, &body_len);
    p->md = open_memstream(&mdbody, &md_len);
    if (!p->html || !p->md)
        cli_fail("report", "out of memory");
    fprintf(p->js, "{\"league\":%lld,\"name\":", (long long)p->facts.id);
    json_string(p->js, p->facts.name);
    fputs(",\"night\":", p->js);
    json_string(p->js, p->night);
    fprintf(p->js, ",\"games\":%ld,\"planned\":%ld,\"forfeits\":%ld,\"bootstrap\":%d,\"sections\":{", p->total_games,
            p->facts.planned, p->forfeits, p->bootstrap);
    settings_section(p);
    agents_section(p);
    ratings_section(p);
    changes_section(p);
    head_to_head_section(p);
    matrices_section(p);
    variants_section(p);
    history_section(p);
    forfeits_section(p);
    time_section(p);
    repeats_section(p, s);
    fclose(p->html);
    fclose(p->md);
    p->html = html;
    p->md = md;
    fputs("}", p->js);

    if (p->forfeits)
        warn(p, "%ld game%s forfeited (see Forfeits)", p->forfeits, p->forfeits == 1 ? " was" : "s were");
    if (p->r->caveat.n > 0) { /* as every report names them */
        char names[300] = "";
        for (int k = 0; k < p->r->caveat.n; k++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? ", " : "",
                     p->r->caveat.names[k]);
        warn(p, "%s: %s", CLI_UNSANDBOXED, names);
    }
    if (p->facts.played + p->facts.skipped < p->facts.planned)
        warn(p, "the league is unfinished: %ld of %ld planned games played", p->facts.played, p->facts.planned);
    fputs(",\"warnings\":[", p->js);
    for (int k = 0; k < p->n_warnings; k++) {
        if (k)
            fputc(',', p->js);
        json_string(p->js, p->warnings[k]);
    }
    fputs("],\"files\":[\"report.html\",\"report.md\",\"report.json\"", p->js);
    for (int k = 0; k < p->plot.n_files; k++) {
        fputc(',', p->js);
        json_string(p->js, p->plot.files[k]);
    }
    fputs("]}\n", p->js);

    /* HTML: head, title block, warnings, the sections */
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>Nightly league ",
          p->html);
    html_text(p->html, p->facts.name);
    fprintf(p->html, " (%s)</title>\n%s</head>\n<body>\n<header>\n<h1>Nightly league ", p->night, page_style);
    html_text(p->html, p->facts.name);
    fprintf(p->html, " <small>%s</small></h1>\n<p>league %lld: %ld games, %ld forfeit%s, %d agents; arena %s; "
                     "<a href=\"../index.html\">all nights</a></p>\n<nav>",
            p->night, (long long)p->facts.id, p->total_games, p->forfeits, p->forfeits == 1 ? "" : "s",
            p->pooled.m, ARENA_VERSION);
    for (size_t k = 0; k < sizeof nav / sizeof nav[0]; k++)
        fprintf(p->html, "<a href=\"#%s\">%s</a>\n", nav[k].id, nav[k].label);
    fputs("</nav>\n</header>\n<section id=\"warnings\">\n<h2>Warnings</h2>\n", p->html);
    fprintf(p->md, "# Nightly league ");
    md_text(p->md, p->facts.name);
    fprintf(p->md, " (%s)\n\nleague %lld: %ld games, %ld forfeits, %d agents; arena %s\n\n## Warnings\n\n", p->night,
            (long long)p->facts.id, p->total_games, p->forfeits, p->pooled.m, ARENA_VERSION);
    if (!p->n_warnings) {
        fputs("<p>None.</p>\n", p->html);
        fputs("None.\n", p->md);
    } else {
        fputs("<ul class=\"warnings\">\n", p->html);
        for (int k = 0; k < p->n_warnings; k++) {
            fputs("<li class=\"warning\">", p->html);
            html_text(p->html, p->warnings[k]);
            fputs("</li>\n", p->html);
            fputs("- **Warning:** ", p->md);
            md_text(p->md, p->warnings[k]);
            fputc('\n', p->md);
        }
        fputs("</ul>\n", p->html);
    }
    fputs("</section>\n", p->html);
    fwrite(body, 1, body_len, p->html);
    fwrite(mdbody, 1, md_len, p->md);
    free(body);
    free(mdbody);
    fputs("<footer><p class=\"note\">Written by arena report ", p->html);
    fputs(ARENA_VERSION, p->html);
    fputs("; every number is also in <a href=\"report.json\">report.json</a>.</p></footer>\n</body>\n</html>\n",
          p->html);
    close_out(p, p->md, "report.md.tmp");
    close_out(p, p->html, "report.html.tmp");
    close_out(p, p->js, "report.json.tmp");
    static const char *const names[] = { "report.md", "report.html", "report.json" };
    for (int k = 0; k < 3; k++) { /* a reader never sees half a page */
        char from[PATH_MAX + 64], to[PATH_MAX + 64];
        snprintf(from, sizeof from, "%s/%s.tmp", p->out, names[k]);
        snprintf(to, sizeof to, "%s/%s", p->out, names[k]);
        if (rename(from, to) != 0)
            cli_fail("report", "%s: %s", to, strerror(errno));
    }
    /* the index's facts about this night */
    FILE *f = open_out(p, "summary.txt");
    char leader[128];
    snprintf(leader, sizeof leader, "%s", p->pooled.m ? p->r->players[p->pooled.rank[0]].name : "");
    for (char *c = leader; *c; c++) /* one value per line: a name from a bot's hello may hold anything */
        if ((unsigned char)*c < 0x20)
            *c = ' ';
    fprintf(f, "night\t%s\nleague\t%lld\nname\t%s\ngames\t%ld\nplanned\t%ld\nforfeits\t%ld\nagents\t%d\n"
               "leader\t%s\nleader_elo\t%.0f\nwarnings\t%d\n",
            p->night, (long long)p->facts.id, p->facts.name, p->total_games, p->facts.planned, p->forfeits,
            p->pooled.m, leader, p->pooled.m ? p->pooled.f.elo[p->pooled.rank[0]] : 0.0, p->n_warnings);
    close_out(p, f, "summary.txt");
}

/* ---- the index of nights ---- */

typedef struct {
    char dir[256];
    char night[16], name[256], leader[128], failed[256];
    bool html;                 /* it has a report.html (a failed night has only report.md) */
    long league, games, forfeits, warnings, agents;
    double leader_elo;
} night_row;

static int by_night_desc(const void *a, const void *b)
{
    const night_row *x = a, *y = b;
    int c = strcmp(y->night, x->night);
    return c ? c : strcmp(y->dir, x->dir);
}

static int write_index(const char *dir, bool json)
{
    DIR *d = opendir(dir);
    if (!d)
        cli_usage_error("report", "--index %s: %s", dir, strerror(errno));
    night_row *rows = NULL;
    int n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof rows[0].dir)
            continue;
        char path[PATH_MAX + 300];
        snprintf(path, sizeof path, "%s/%s/summary.txt", dir, e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            rows = realloc(rows, sizeof *rows * (size_t)cap);
            if (!rows)
                cli_fail("report", "out of memory");
        }
        night_row *r = &rows[n++];
        memset(r, 0, sizeof *r);
        snprintf(r->dir, sizeof r->dir, "%s", e->d_name);
        char line[1024];
        while (fgets(line, sizeof line, f)) {
            line[strcspn(line, "\n")] = '\0';
            char *v = strchr(line, '\t');
            if (!v)
                continue;
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
        fclose(f);
        snprintf(path, sizeof path, "%s/%s/report.html", dir, e->d_name);
        r->html = access(path, R_OK) == 0;
    }
    closedir(d);
    qsort(rows, (size_t)n, sizeof *rows, by_night_desc);
    char path[PATH_MAX + 32], tmp[PATH_MAX + 40];
    snprintf(path, sizeof path, "%s/index.html", dir);
    snprintf(tmp, sizeof tmp, "%s/index.html.tmp", dir);
    FILE *f = fopen(tmp, "w");
    if (!f)
        cli_fail("report", "%s: %s", tmp, strerror(errno));
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
               "<title>Nightly leagues</title>\n%s</head>\n<body>\n<h1>Nightly leagues</h1>\n"
               "<p>%d night%s, newest first.</p>\n<section id=\"nights\">\n<div class=\"scroll\">\n<table>\n"
               "<tr><th>night</th><th>league</th><th class=\"num\">games</th><th class=\"num\">agents</th>"
               "<th class=\"num\">forfeits</th><th>leader</th><th class=\"num\">elo</th>"
               "<th class=\"num\">warnings</th></tr>\n",
            page_style, n, n == 1 ? "" : "s");
    for (int k = 0; k < n; k++) {
        night_row *r = &rows[k];
        fputs("<tr><td><a href=\"", f);
        html_text(f, r->dir);
        fputs(r->html ? "/report.html\">" : "/report.md\">", f);
        html_text(f, r->night[0] ? r->night : r->dir);
        fputs("</a></td><td>", f);
        html_text(f, r->name);
        if (r->failed[0]) {
            fputs(": <strong>failed</strong> (", f);
            html_text(f, r->failed);
            fputs(")", f);
        }
        fprintf(f, " (%ld)</td><td class=\"num\">%ld</td><td class=\"num\">%ld</td><td class=\"num\">%ld</td><td>",
                r->league, r->games, r->agents, r->forfeits);
        html_text(f, r->leader);
        fprintf(f, "</td><td class=\"num\">%.0f</td><td class=\"num\">%ld</td></tr>\n", r->leader_elo, r->warnings);
    }
    fputs("</table>\n</div>\n</section>\n</body>\n</html>\n", f);
    if (ferror(f) | (fclose(f) != 0))
        cli_fail("report", "%s: cannot write (disk full?)", tmp);
    if (rename(tmp, path) != 0)
        cli_fail("report", "%s: %s", path, strerror(errno));
    if (json) {
        fputs("{\"index\":", stdout);
        json_string(stdout, path);
        printf(",\"nights\":%d}\n", n);
    } else
        printf("%s (%d night%s)\n", path, n, n == 1 ? "" : "s");
    free(rows);
    return CLI_OK;
}

/* ---- the command ---- */

int cmd_report(int argc, char **argv)
{
    enum { O_OUT = CLI_O_OWN, O_LOGS, O_NIGHT, O_BOOT, O_INDEX };
    static const struct option options[] = {
        CLI_DB_OPTIONS,
        { "league", required_argument, 0, CLI_O_LEAGUE }, { "out", required_argument, 0, O_OUT },
        { "logs", required_argument, 0, O_LOGS },         { "night", required_argument, 0, O_NIGHT },
        { "bootstrap", required_argument, 0, O_BOOT },    { "index", required_argument, 0, O_INDEX },
        { 0, 0, 0, 0 },
    };
    static page pg;
    page *p = &pg;
    memset(p, 0, sizeof *p);
    p->db = STORE_DEFAULT_PATH;
    p->logs = "results/logs";
    p->bootstrap = ST_BOOTSTRAP;
    const char *league = NULL, *night = NULL, *index = NULL;
    for (int c; (c = cli_getopt("report", argc, argv, options)) != -1;) {
        switch (c) {
        case CLI_O_DB: p->db = optarg; break;
        case CLI_O_LEAGUE: league = optarg; break;
        case O_OUT: p->out = optarg; break;
        case O_LOGS: p->logs = optarg; break;
        case O_NIGHT: night = cli_date("report", "--night", optarg); break;
        case O_BOOT: p->bootstrap = (int)cli_count("report", "--bootstrap", optarg, 0, 100000); break;
        case O_INDEX: index = optarg; break;
        case CLI_O_JSON: p->json = true; break;
        case CLI_O_FORMAT:
            if (strcmp(optarg, "json") != 0 && strcmp(optarg, "text") != 0)
                cli_usage_error("report", "--format '%s': expected text or json", optarg);
            p->json = strcmp(optarg, "json") == 0;
            break;
        case CLI_O_HELP: fputs(report_help, stdout); return CLI_OK;
        default: cli_usage_error("report", "option '%s' does not apply to 'arena report' (see --help)", argv[optind - 1]);
        }
    }
    if (optind < argc)
        cli_usage_error("report", "unexpected argument '%s' (see 'arena report --help')", argv[optind]);
    if (index)
        return write_index(index, p->json);

    /* the league: named, or the newest with games */
    store_db *s = cli_open_db("report", p->db);
    int64_t id = 0;
    if (league)
        id = cli_league_id("report", s, p->db, league);
    else {
        int64_t run;
        if (store_newest_with_games(s, &id, &run) != 0)
            cli_fail("report", "%s: %s", p->db, store_error(s));
        if (id <= 0)
            cli_usage_error("report", "%s: no league with games (run 'arena league' first)", p->db);
    }
    int found = store_league_facts_get(s, id, &p->facts);
    if (found < 0)
        cli_fail("report", "%s: %s", p->db, store_error(s));
    if (found == 0)
        cli_usage_error("report", "%s: no league %lld", p->db, (long long)id);
    if (p->facts.played == 0)
        cli_usage_error("report", "%s: league %lld '%s' has no games yet", p->db, (long long)id, p->facts.name);
    store_league_row lr;
    if (store_league_get(s, id, &lr) != 1)
        cli_fail("report", "%s: %s", p->db, store_error(s));
    snprintf(p->night, sizeof p->night, "%s", night ? night : lr.night);
    char outdir[PATH_MAX];
    if (!p->out) {
        snprintf(outdir, sizeof outdir, "results/nightly/%.15s", p->night);
        p->out = outdir;
    }

    /* this league's standings, and the previous league's */
    char ids[32];
    snprintf(ids, sizeof ids, "%lld", (long long)id);
    p->r = calloc(1, sizeof *p->r);
    if (!p->r)
        cli_fail("report", "out of memory");
    *p->r = (st_report){ .cmd = "report", .db = p->db, .bootstrap = p->bootstrap, .prior = 1, .seed = 1 };
    p->r->filter.league = ids;
    st_load(p->r);
    if (!st_fit(p->r, -1, -1, &p->pooled))
        cli_fail("report", "league %lld: no games", (long long)id);
    p->prev = store_league_previous(s, id);
    if (p->prev < 0)
        cli_fail("report", "%s: %s", p->db, store_error(s));
    char prev_ids[32];
    if (p->prev > 0) {
        snprintf(prev_ids, sizeof prev_ids, "%lld", (long long)p->prev);
        p->pr = calloc(1, sizeof *p->pr);
        if (!p->pr)
            cli_fail("report", "out of memory");
        *p->pr = (st_report){ .cmd = "report", .db = p->db, .bootstrap = 0, .prior = 1, .seed = 1, .history = true };
        p->pr->filter.league = prev_ids;
        p->pr->filter.f.league = 0;
        st_load(p->pr);
        /* the history holds the whole series: keep the previous league's games only */
        int keep = -1;
        for (int l = 0; l < p->pr->n_leagues; l++)
            if (p->pr->leagues[l].id == p->prev)
                keep = l;
        p->have_prev = keep >= 0 && st_fit(p->pr, -1, keep, &p->prev_fit);
        if (keep > 0)
            p->pr->leagues[0] = p->pr->leagues[keep];
    }
    p->agents = calloc((size_t)p->r->n_players, sizeof *p->agents);
    if (!p->agents)
        cli_fail("report", "out of memory");
    for (int i = 0; i < p->r->n_players; i++)
        if (store_agent_get(s, p->r->players[i].id, &p->agents[i].info) < 0)
            cli_fail("report", "%s: %s", p->db, store_error(s));
    gather_games(p, s);
    parse_config(p);

    /* figures, logs, then the page */
    char err[PATH_MAX + 200];
    if (pl_open(&p->plot, "report", p->out, err, sizeof err) != 0)
        cli_fail("report", "%s", err);
    if (fg_draw(&p->plot, p->db, id, p->bootstrap, p->facts.name) != 0)
        cli_fail("report", "league %lld: the figures were not all written", (long long)id);
    copy_logs(p);
    write_page(p, s);
    store_close(s);

    if (p->json) {
        printf("{\"league\":%lld,\"night\":", (long long)id);
        json_string(stdout, p->night);
        fputs(",\"out\":", stdout);
        json_string(stdout, p->out);
        printf(",\"games\":%ld,\"forfeits\":%ld,\"warnings\":%d,\"report\":", p->total_games, p->forfeits,
               p->n_warnings);
        char html[PATH_MAX + 16];
        snprintf(html, sizeof html, "%s/report.html", p->out);
        json_string(stdout, html);
        puts("}");
    } else
        printf("%s/report.html (league %lld, night %s: %ld games, %ld forfeits, %d warning%s)\n", p->out,
               (long long)id, p->night, p->total_games, p->forfeits, p->n_warnings, p->n_warnings == 1 ? "" : "s");

    pl_close(&p->plot);
    for (int i = 0; i < p->r->n_players; i++)
        free(p->agents[i].ms);
    free(p->agents);
    st_selection_free(&p->pooled);
    free(p->r->results);
    free(p->r->sc.json);
    free(p->r);
    if (p->pr) {
        if (p->have_prev)
            st_selection_free(&p->prev_fit);
        free(p->pr->results);
        free(p->pr->sc.json);
        free(p->pr);
    }
    store_league_facts_free(&p->facts);
    return CLI_OK;
}
