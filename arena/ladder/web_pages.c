/* arena/ladder/web_pages.c — the ladder's pages as documents (web.h): the ladder, a bot, the queue, the forms. */
#define _GNU_SOURCE /* open_memstream */
#include "web_private.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "browse.h"
#include "query.h"
#include "curve.h"
#include "pentanomial.h"
#include "standing.h"
#include "store.h"
#include "tail.h"

/* The links every page leads with. */
static void lead(ld_req *rq, doc *d)
{
    doc_span_add(&d->lead, "ladder", "/ladder");
    doc_span_add(&d->lead, " · ", NULL);
    doc_span_add(&d->lead, "queue", "/ladder/queue");
    doc_span_add(&d->lead, " · ", NULL);
    doc_span_add(&d->lead, rq->known ? rq->who.name : "log in", rq->known ? "/ladder/me" : "/ladder/login");
}

static void ratings_table(doc *d, const ld_table *t)
{
    tb_table tb;
    tb_init(&tb, t->group, 7);
    const char *cols[] = { "#", "bot", "version", "owner", "Elo", "95% interval", "games" };
    for (int c = 0; c < 7; c++)
        tb_column(&tb, c, cols[c], c == 0 || c >= 4);
    for (int i = 0; i < t->n; i++) {
        const ld_row *row = &t->rows[i];
        char href[80];
        tb_row(&tb);
        tb_set(&tb, 0, "%d", i + 1);
        tb_set(&tb, 1, "%s", row->name);
        snprintf(href, sizeof href, "/ladder/bot/%s", row->name);
        tb_link(&tb, 1, href);
        tb_set(&tb, 2, "%s", row->version);
        tb_set(&tb, 3, "%s", row->owner);
        tb_set_real(&tb, 4, row->elo, 0);
        if (isfinite(row->lo) && isfinite(row->hi))
            tb_set(&tb, 5, "[%.0f, %.0f]", row->lo, row->hi);
        else
            tb_set(&tb, 5, "%s", "(placing)");
        tb_set(&tb, 6, "%ld", row->games);
    }
    doc_table(d, &tb);
}

int ld_page_ladder(ld_req *rq, doc *d, char *err, size_t errlen)
{
    ld_table *t = calloc(LD_MAX_TABLES, sizeof *t);
    int n = t ? ld_standings(rq->d, &rq->w->cfg, 200, t, err, errlen) : -1;
    if (n < 0) {
        free(t);
        return 500;
    }
    lead(rq, d);
    for (int k = 0; k < n; k++) {
        char id[64];
        snprintf(id, sizeof id, "ladder-%d", k);
        doc_section_add(d, id, t[k].group, t[k].group);
        if (!t[k].n)
            doc_para(d, "note", "No bot on this ladder yet.");
        else
            ratings_table(d, &t[k]);
        doc_para(d, "note", "Elo: Bradley–Terry over every ladder game of this variant and board, anchored at the "
                            "pool's mean; the interval is the bootstrap's 95%%.");
    }
    doc_fact_int(d, "tables", n);
    free(t);
    return 0;
}

/* The versions of a bot, newest first. */
static void versions_table(doc *d, const ldb_submission *s, int n)
{
    tb_table tb;
    tb_init(&tb, "versions", 6);
    const char *cols[] = { "version", "state", "mode", "submitted", "note", "log" };
    for (int c = 0; c < 6; c++)
        tb_column(&tb, c, cols[c], false);
    for (int i = 0; i < n; i++) {
        char when[32], href[64];
        time_t t = (time_t)s[i].created;
        strftime(when, sizeof when, "%Y-%m-%d %H:%M", gmtime(&t));
        tb_row(&tb);
        tb_set(&tb, 0, "%s", s[i].version);
        tb_set(&tb, 1, "%s", s[i].state);
        tb_set(&tb, 2, "%s", s[i].mode);
        tb_set(&tb, 3, "%s", when);
        tb_set(&tb, 4, "%s", s[i].note);
        tb_set(&tb, 5, "%s", "log (owner only)");
        snprintf(href, sizeof href, "/ladder/log/%lld", (long long)s[i].id);
        tb_link(&tb, 5, href);
    }
    doc_table(d, &tb);
}

/* The games of a job that were forfeited: who lost them and why (the end reason and its detail). */
static void forfeits_table(doc *d, const store_game_brief *g, int n)
{
    tb_table tb;
    tb_init(&tb, "forfeits", 4);
    const char *cols[] = { "game", "forfeited by", "reason", "detail" };
    for (int c = 0; c < 4; c++)
        tb_column(&tb, c, cols[c], c == 0);
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (strcmp(g[i].reason, "connected") == 0)
            continue;
        char href[64];
        tb_row(&tb);
        tb_set(&tb, 0, "%lld", (long long)g[i].id);
        snprintf(href, sizeof href, "/game/%lld", (long long)g[i].id);
        tb_link(&tb, 0, href);
        tb_set(&tb, 1, "%s", g[i].winner == 0 ? g[i].white_name : g[i].black_name);
        tb_set(&tb, 2, "%s", g[i].reason);
        tb_set(&tb, 3, "%s", g[i].detail);
        k++;
    }
    if (k)
        doc_table(d, &tb);
    else {
        tb_free(&tb);
        doc_para(d, "note", "No forfeits among its newest games.");
    }
}

/* The jobs of submission s: each one's league, games (linked to the viewer), forfeits with reason, SPRT curve. */
static void jobs_sections(ld_req *rq, doc *d, const ldb_submission *s, store_db *st)
{
    ldb_job jobs[64];
    int n = ldb_jobs(rq->d, true, jobs, 64);
    for (int i = 0; i < n; i++) {
        if (jobs[i].submission != s->id || !jobs[i].league)
            continue;
        char id[64], heading[160], href[64];
        snprintf(id, sizeof id, "job-%lld", (long long)jobs[i].id);
        snprintf(heading, sizeof heading, "%s %s: %s (%s)", s->version, jobs[i].kind, jobs[i].note, jobs[i].state);
        doc_section_add(d, id, heading, NULL);
        snprintf(href, sizeof href, "/league/%lld", (long long)jobs[i].league);
        doc_span_add(doc_para(d, NULL, "Played in "), "its league", href);
        long pairs[512];
        double llr[512];
        int m = strcmp(jobs[i].kind, "sprt") == 0 ? ldb_llr(rq->d, jobs[i].id, pairs, llr, 512) : 0;
        if (m > 0) {
            tb_table tb;
            tb_init(&tb, "SPRT: LLR after each game pair", 2);
            tb_column(&tb, 0, "pairs", true);
            tb_column(&tb, 1, "LLR", true);
            for (int k = 0; k < m; k++) {
                tb_row(&tb);
                tb_set(&tb, 0, "%ld", pairs[k]);
                tb_set_real(&tb, 1, llr[k], 3);
            }
            doc_table(d, &tb);
            double lo, hi;
            pn_bounds(&(pn_sprt){ s->elo0, s->elo1, 0.05, 0.05 }, &lo, &hi);
            char *svg = ld_llr_svg(pairs, llr, m, lo, hi);
            if (svg)
                doc_svg(d, svg, "The SPRT's LLR after each game pair, between the bounds of H0 (below) and H1 "
                                "(above)");
            free(svg);
        }
        store_game_brief *g = NULL;
        int ng = 0;
        if (st && store_games_brief(st, &(store_brief_filter){ .league = jobs[i].league, .limit = 50 }, &g, &ng) == 0) {
            forfeits_table(d, g, ng);
            tb_table tb;
            tb_init(&tb, "games (newest first)", 5);
            const char *cols[] = { "game", "black", "white", "winner", "end" };
            for (int c = 0; c < 5; c++)
                tb_column(&tb, c, cols[c], c == 0);
            for (int k = 0; k < ng; k++) {
                char gh[64];
                tb_row(&tb);
                tb_set(&tb, 0, "%lld", (long long)g[k].id);
                snprintf(gh, sizeof gh, "/game/%lld", (long long)g[k].id);
                tb_link(&tb, 0, gh);
                tb_set(&tb, 1, "%s", g[k].black_name);
                tb_set(&tb, 2, "%s", g[k].white_name);
                tb_set(&tb, 3, "%s", g[k].winner == 0 ? "Black" : "White");
                tb_set(&tb, 4, "%s%s%s", g[k].reason, g[k].detail[0] ? ": " : "", g[k].detail);
            }
            doc_table(d, &tb);
        }
        free(g);
    }
}

int ld_page_bot(ld_req *rq, const char *name, doc *d, char *err, size_t errlen)
{
    enum { MAX = 64 };
    ldb_submission *s = calloc(MAX, sizeof *s);
    int n = s ? ldb_submissions(rq->d, "", name, s, MAX) : -1;
    if (n <= 0) {
        snprintf(err, errlen, n < 0 ? "%s" : "no bot '%s' on this ladder", n < 0 ? ldb_error(rq->d) : name);
        free(s);
        return n < 0 ? 500 : 404;
    }
    free(d->title);
    d->title = strdup(name);
    lead(rq, d);
    doc_fact_text(d, "bot", name);
    doc_fact_text(d, "owner", s[0].owner);
    doc_section_add(d, "versions", "Versions", "versions");
    doc_para(d, NULL, "Owner: %s.", s[0].owner);
    versions_table(d, s, n);
    char e[300];
    store_db *st = store_open_readonly(rq->w->cfg.db, e, sizeof e);
    for (int i = 0; i < n; i++)
        jobs_sections(rq, d, &s[i], st);
    if (st)
        store_close(st);
    free(s);
    return 0;
}

/* How far a running job's league has played (from the results database): its games played and planned, and the
 * seconds a game has taken so far; false when its league is not there yet. */
static bool progress(store_db *st, const ldb_job *j, int64_t now, long *played, long *left, double *per_game)
{
    char name[64];
    snprintf(name, sizeof name, "ladder-%s-%lld", j->kind, (long long)j->id);
    int64_t id = st ? store_league_find(st, name) : 0;
    store_league_brief b;
    if (id <= 0 || store_league_brief_get(st, id, &b) != 1)
        return false;
    *played = b.played;
    *left = b.planned - b.played - b.skipped;
    *per_game = b.played > 0 && now > j->started ? (double)(now - j->started) / (double)b.played : 0;
    return true;
}

int ld_page_queue(ld_req *rq, doc *d, char *err, size_t errlen)
{
    ldb_job j[64];
    int n = ldb_jobs(rq->d, false, j, 64);
    if (n < 0) {
        snprintf(err, errlen, "%s", ldb_error(rq->d));
        return 500;
    }
    lead(rq, d);
    doc_section_add(d, "queue", "Queued and running", NULL);
    tb_table tb;
    tb_init(&tb, "jobs", 7);
    const char *cols[] = { "job", "kind", "bot", "state", "where", "games", "ends in about" };
    for (int c = 0; c < 7; c++)
        tb_column(&tb, c, cols[c], c == 0 || c >= 5);
    const ld_config *c = &rq->w->cfg;
    char e[300];
    store_db *st = store_open_readonly(c->db, e, sizeof e);
    /* seconds a game takes: as the running job goes, else a guess of 20 moves at half the time a move */
    double per_game = (double)c->move_ms / 1000.0 * 10 / (c->concurrency ? c->concurrency : 1), ahead = 0;
    for (int i = 0; i < n; i++) {
        ldb_submission *s = calloc(1, sizeof *s);
        bool found = s && ldb_submission_get(rq->d, j[i].submission, s) == 1;
        long played = 0, left = j[i].games;
        double pace = 0;
        bool running = strcmp(j[i].state, "running") == 0 && progress(st, &j[i], rq->now, &played, &left, &pace);
        if (running && pace > 0)
            per_game = pace;
        ahead += (double)left * per_game;
        tb_row(&tb);
        tb_set(&tb, 0, "%lld", (long long)j[i].id);
        tb_set(&tb, 1, "%s", j[i].kind);
        tb_set(&tb, 2, "%s %s", found ? s->name : "?", found ? s->version : "");
        tb_set(&tb, 3, "%s", j[i].state);
        tb_set(&tb, 4, "%s", j[i].runner[0] ? j[i].runner : ld_runner_name(c->runner));
        if (running)
            tb_set(&tb, 5, "%ld of %ld", played, played + left);
        else
            tb_set(&tb, 5, "up to %lld", (long long)j[i].games);
        tb_set(&tb, 6, "%.0f min", ceil(ahead / 60));
        free(s);
    }
    if (st)
        store_close(st);
    doc_table(d, &tb);
    doc_para(d, "note", "The end of each job is estimated from the pace of the one running (else from the time a "
                        "move), its games left and those of the jobs before it.");
    doc_fact_int(d, "queued", n);
    return 0;
}

int ld_page_login(ld_req *rq, doc *d, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    lead(rq, d);
    doc_section_add(d, "login", "Log in", NULL);
    doc_form(d, "/ladder/login", false, "Log in");
    doc_input(d, "text", "name", "Name", NULL);
    doc_input(d, "password", "password", "Password", NULL);
    doc_section_add(d, "signup", "Sign up", NULL);
    doc_para(d, "note", "%s", rq->w->cfg.approval ? "An admin approves new accounts before they can log in."
                                                   : "New accounts can log in at once.");
    doc_form(d, "/ladder/signup", false, "Sign up");
    doc_input(d, "text", "name", "Name", NULL);
    doc_input(d, "password", "password", "Password (8 or more characters)", NULL);
    return 0;
}

/* The account's bots with a retire form each. */
static void my_bots(ld_req *rq, doc *d)
{
    enum { MAX = 64 };
    ldb_submission *s = calloc(MAX, sizeof *s);
    int n = s ? ldb_submissions(rq->d, "", NULL, s, MAX) : 0;
    doc_section_add(d, "bots", "Your bots", NULL);
    for (int i = 0; i < n; i++) {
        if (s[i].account != rq->who.id)
            continue;
        char href[64], id[32];
        snprintf(href, sizeof href, "/ladder/bot/%s", s[i].name);
        doc_span_add(doc_para(d, NULL, "%s %s: %s ", s[i].name, s[i].version, s[i].state), "page", href);
        if (strcmp(s[i].state, "retired") == 0 || strcmp(s[i].state, "failed") == 0)
            continue;
        snprintf(id, sizeof id, "%lld", (long long)s[i].id);
        doc_form(d, "/ladder/retire", false, "Retire");
        doc_input(d, "hidden", "csrf", NULL, rq->csrf);
        doc_input(d, "hidden", "id", NULL, id);
    }
    free(s);
}

/* A form of one button posting `action` with the session's form token and one hidden field. */
static void button(ld_req *rq, doc *d, const char *action, const char *label, const char *field, const char *value)
{
    char to[64];
    snprintf(to, sizeof to, "/ladder/%s", action);
    doc_form(d, to, false, label);
    doc_input(d, "hidden", "csrf", NULL, rq->csrf);
    doc_input(d, "hidden", field, NULL, value);
}

/* The account's API tokens (made when, expiring when) with a revoke button each, and a form for a new one. */
static void my_tokens(ld_req *rq, doc *d)
{
    ldb_token t[32];
    int n = ldb_tokens(rq->d, rq->who.id, rq->now, t, 32);
    doc_section_add(d, "api", "API tokens", NULL);
    for (int i = 0; i < n; i++) {
        char id[32], made[32], ends[32];
        snprintf(id, sizeof id, "%lld", (long long)t[i].id);
        strftime(made, sizeof made, "%Y-%m-%d %H:%M UTC", gmtime(&(time_t){ (time_t)t[i].created }));
        strftime(ends, sizeof ends, "%Y-%m-%d", gmtime(&(time_t){ (time_t)t[i].expires }));
        doc_para(d, NULL, "Token %s, made %s, expires %s", id, made, ends);
        button(rq, d, "revoke", "Revoke", "id", id);
    }
    if (n == 0)
        doc_para(d, "note", "None. A token expires after %d days; one is shown once, when it is made.",
                 LD_TOKEN_SECONDS / 86400);
    doc_form(d, "/ladder/token", false, "New token");
    doc_input(d, "hidden", "csrf", NULL, rq->csrf);
}

/* An admin's view of the accounts: each with what may be done to it. */
static void accounts(ld_req *rq, doc *d)
{
    enum { MAX = 200 };
    ldb_account *a = calloc(MAX, sizeof *a);
    int n = a ? ldb_accounts(rq->d, a, MAX) : 0;
    doc_section_add(d, "accounts", "Accounts", NULL);
    for (int i = 0; i < n; i++) {
        if (a[i].deleted)
            continue;
        doc_para(d, NULL, "%s: %s%s%s%s", a[i].name, a[i].admin ? "admin" : a[i].approved ? "approved" : "waiting",
                 a[i].address[0] ? ", signed up from " : "", a[i].address, "");
        if (!a[i].approved) {
            button(rq, d, "approve", "Approve", "name", a[i].name);
            button(rq, d, "reject", "Reject", "name", a[i].name);
        } else if (a[i].id != rq->who.id) {
            button(rq, d, "reset", "Reset the password", "name", a[i].name);
            button(rq, d, "delete", "Delete", "name", a[i].name);
        }
    }
    doc_para(d, "note", "Admins are made from the command line: arena ladder admin add NAME.");
    free(a);
}

int ld_page_me(ld_req *rq, doc *d, char *err, size_t errlen)
{
    if (!rq->known || rq->via_token) {
        snprintf(err, errlen, "log in first: /ladder/login");
        return 401;
    }
    free(d->title);
    d->title = strdup(rq->who.name);
    lead(rq, d);
    doc_section_add(d, "submit", "Submit a bot", NULL);
    doc_para(d, "note", "A tar.gz with ladder.ini (name, version, command, variants, boards) and the program it names.");
    doc_form(d, "/ladder/submit", true, "Submit");
    doc_input(d, "hidden", "csrf", NULL, rq->csrf);
    doc_input(d, "file", "archive", "Archive (.tar.gz)", NULL);
    doc_input(d, "checkbox", "sprt", "Test against the version on the ladder (SPRT)", "1");
    doc_input(d, "number", "elo0", "elo0", "0");
    doc_input(d, "number", "elo1", "elo1", "10");
    my_bots(rq, d);
    my_tokens(rq, d);
    if (rq->who.admin)
        accounts(rq, d);
    doc_section_add(d, "logout", "Log out", NULL);
    doc_form(d, "/ladder/logout", false, "Log out");
    doc_input(d, "hidden", "csrf", NULL, rq->csrf);
    return 0;
}

/* Appends the last 16 KiB of a log file to f (a regular file only: never a link or a FIFO). */
static void tail(FILE *f, const char *path)
{
    char *text, why[128];
    size_t n;
    int64_t skipped;
    if (tail_read(path, 16384, &text, &n, &skipped, why, sizeof why) != 0)
        return;
    fprintf(f, "==> %s <==\n", strrchr(path, '/') + 1);
    fwrite(text, 1, n, f);
    fputc('\n', f);
    free(text);
}

void ld_page_log(ld_req *rq, int64_t submission, ws_ext_reply *r)
{
    ldb_submission *s = calloc(1, sizeof *s);
    int found = s ? ldb_submission_get(rq->d, submission, s) : -1;
    if (found != 1 || !rq->known || (s->account != rq->who.id && !rq->who.admin)) {
        ld_web_error(rq, r, found != 1 ? 404 : !rq->known ? 401 : 403,
                     found != 1 ? "no such submission" : "a bot's logs are its owner's to read");
        free(s);
        return;
    }
    char *buf = NULL, tag[48];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    snprintf(tag, sizeof tag, "-s%lld-", (long long)submission);
    DIR *dir = f ? opendir(rq->w->cfg.logs) : NULL;
    for (struct dirent *job; dir && (job = readdir(dir));) {
        char sub[1200];
        if (strncmp(job->d_name, "job-", 4) != 0)
            continue;
        snprintf(sub, sizeof sub, "%s/%s", rq->w->cfg.logs, job->d_name);
        DIR *jd = opendir(sub);
        for (struct dirent *e; jd && (e = readdir(jd));)
            if (strstr(e->d_name, tag)) {
                char p[2600];
                snprintf(p, sizeof p, "%s/%s", sub, e->d_name);
                tail(f, p);
            }
        if (jd)
            closedir(jd);
    }
    if (dir)
        closedir(dir);
    if (f)
        fclose(f);
    r->status = 200;
    r->type = "text/plain; charset=utf-8";
    r->body = buf;
    r->len = len;
    free(s);
}
