/* tests/e2e/test_pages.c — the lab's pages as one site, on the server and on disk: over a league of two nights
 * (walker, a random bot; bridge; quitter, a bot that crashes), every link reached from `/` of `arena serve` answers (pages, their
 * JSON twins, the viewer and its players' pages, the agents' logs, the index of nights), as the server's HTML gives them and as headless
 * Chromium sees them once the page's script has run; every agent name in the summary's tables is a link; the
 * report `arena report` writes, with its index of nights, links only files that exist (and sections that exist);
 * a report written outside a directory of nights does not link an index that is not there; and the summary
 * served and the report written hold the same figures (the same inline SVG drawings, links aside). */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "browser.h"
#include "serve_kit.h"
#include "test_sys.h"

static char tmp[64], bin[512], db[128], logs[128], errlog[128], nights[128], agents[1100];
static pid_t server;
static int port;

static int setup(void **state)
{
    (void)state;
    if (e2e_dirs(tmp, "arena-pages-test", bin) != 0)
        return -1;
    e2e_agents_dir(agents, sizeof agents);
    snprintf(db, sizeof db, "%s/p.db", tmp);
    snprintf(logs, sizeof logs, "%s/logs", tmp);
    snprintf(errlog, sizeof errlog, "%s/serve.err", tmp);
    snprintf(nights, sizeof nights, "%s/nights", tmp);
    char cfg[128];
    snprintf(cfg, sizeof cfg, "%s/p.ini", tmp);
    FILE *f = fopen(cfg, "w");
    if (!f)
        return -1;
    fprintf(f,
            "[league]\nname = pages\nvariants = classical, abrupt\nboards = 3x3\ngames = 4\nconcurrency = 2\n\n"
            "[agent walker]\ncommand = %s/random\nargs = --seed 1\n\n[agent bridge]\ncommand = %s/bridge\n\n"
            "[agent quitter]\ncommand = %s/misbehave\nargs = --mode exit\n",
            bin, bin, agents);
    if (fclose(f) != 0)
        return -1;
    for (int night = 20; night <= 21; night++)
        if (sh_run("'%s/arena' league '%s' --db '%s' --quiet --logs '%s' --new --date 2026-11-%d >/dev/null", bin, cfg,
                   db, logs, night) != 0)
            return -1;
    /* the report of the newest night, in a directory of nights with its index; the same bootstrap as the server */
    if (sh_run("'%s/arena' report --index '%s' >/dev/null 2>&1 || mkdir -p '%s'", bin, nights, nights) != 0 ||
        sh_run("'%s/arena' report --db '%s' --out '%s/2026-11-20' --logs '%s' --bootstrap 50 --league 1 >/dev/null",
               bin, db, nights, logs) != 0 ||
        sh_run("'%s/arena' report --index '%s' >/dev/null", bin, nights) != 0 ||
        sh_run("'%s/arena' report --db '%s' --out '%s/2026-11-21' --logs '%s' --bootstrap 50 >/dev/null", bin, db,
               nights, logs) != 0 ||
        sh_run("'%s/arena' report --index '%s' >/dev/null", bin, nights) != 0)
        return -1;
    /* the live feed ends after 2 s, so that Chromium's page settles (it waits for the network to be idle) */
    const char *extra[] = { "--logs", logs, "--bootstrap", "50", "--stream-s", "2", NULL };
    server = serve_start(bin, db, extra, errlog, &port);
    return server > 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return serve_teardown(server, tmp);
}

/* ---- links in HTML ---- */

/* The links (href and src attributes) of an HTML text, entities decoded, in *out (malloc'd strings). */
static int links_of(const char *html, char ***out)
{
    int n = 0, cap = 64;
    char **v = malloc(sizeof *v * (size_t)cap);
    assert_non_null(v);
    for (const char *p = html; (p = strpbrk(p, "hs")) != NULL; p++) {
        size_t skip = strncmp(p, "href=\"", 6) == 0 ? 6 : strncmp(p, "src=\"", 5) == 0 ? 5 : 0;
        if (!skip || (p > html && p[-1] != ' '))
            continue;
        const char *q = p + skip, *e = strchr(q, '"');
        if (!e)
            break;
        char *link = malloc((size_t)(e - q) + 1);
        assert_non_null(link);
        size_t k = 0;
        for (const char *c = q; c < e; c++) { /* &amp; &lt; &gt; &quot; &#39; */
            static const struct {
                const char *ent;
                char ch;
            } ents[] = { { "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' }, { "&quot;", '"' }, { "&#39;", '\'' } };
            bool done = false;
            for (size_t x = 0; !done && x < sizeof ents / sizeof ents[0]; x++)
                if (strncmp(c, ents[x].ent, strlen(ents[x].ent)) == 0) {
                    link[k++] = ents[x].ch;
                    c += strlen(ents[x].ent) - 1;
                    done = true;
                }
            if (!done)
                link[k++] = *c;
        }
        link[k] = '\0';
        if (n == cap)
            v = realloc(v, sizeof *v * (size_t)(cap *= 2));
        v[n++] = link;
        p = e;
    }
    *out = v;
    return n;
}

static void links_free(char **v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* `link` (as a page at `from` gives it) as a path of this server: absolute, its fragment cut; false for a link
 * elsewhere (another site) or to a part of the same page. */
static bool resolve(const char *from, const char *link, char *out, size_t n)
{
    if (link[0] == '#' || strstr(link, "://") || strncmp(link, "mailto:", 7) == 0)
        return false;
    if (link[0] == '/')
        snprintf(out, n, "%s", link);
    else {
        const char *slash = strrchr(from, '/');
        snprintf(out, n, "%.*s%s", (int)(slash - from + 1), from, link);
    }
    out[strcspn(out, "#")] = '\0';
    return true;
}

/* A percent-decoded copy of a path is what a browser asks for as it is: keep it encoded. */

typedef struct {
    char **paths;
    int n, cap;
} path_set;

static bool seen(path_set *s, const char *p)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->paths[i], p) == 0)
            return true;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 256;
        s->paths = realloc(s->paths, sizeof *s->paths * (size_t)s->cap);
        assert_non_null(s->paths);
    }
    s->paths[s->n++] = strdup(p);
    return false;
}

static void set_free(path_set *s)
{
    for (int i = 0; i < s->n; i++)
        free(s->paths[i]);
    free(s->paths);
}

/* Crawls the server from `/`: every page it links (at most `limit`), each answered 200; fails naming the first
 * that is not, and the page that links it. Returns the set of pages seen. */
static path_set crawl(int limit, int *html_pages, int *json_pages)
{
    path_set done = { 0 };
    char **queue = malloc(sizeof *queue * (size_t)limit * 4), **from = malloc(sizeof *from * (size_t)limit * 4);
    assert_non_null(queue);
    assert_non_null(from);
    int head = 0, tail = 0;
    queue[tail] = strdup("/"), from[tail++] = strdup("(start)");
    seen(&done, "/");
    *html_pages = *json_pages = 0;
    while (head < tail) {
        char *path = queue[head], *parent = from[head++];
        serve_reply r = serve_get(port, path);
        if (r.status != 200)
            fail_msg("%s (linked from %s) answered %d: %.200s", path, parent, r.status, r.body ? r.body : "");
        if (strstr(r.type, "application/json"))
            ++*json_pages;
        if (strstr(r.type, "text/html")) {
            ++*html_pages;
            char **v;
            int n = links_of(r.body, &v);
            for (int i = 0; i < n; i++) {
                char target[1024];
                if (!resolve(path, v[i], target, sizeof target) || seen(&done, target))
                    continue;
                if (tail == limit * 4)
                    fail_msg("more than %d links: the crawl is bounded", limit * 4);
                queue[tail] = strdup(target), from[tail++] = strdup(path);
            }
            links_free(v, n);
        }
        serve_reply_free(&r);
        if (head >= limit)
            break;
    }
    for (int i = 0; i < tail; i++)
        free(queue[i]), free(from[i]);
    free(queue);
    free(from);
    return done;
}

static bool in_set(const path_set *s, const char *p)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->paths[i], p) == 0)
            return true;
    return false;
}

static void every_link_from_the_summary_answers(void **state)
{
    (void)state;
    int html, json;
    path_set s = crawl(3000, &html, &json);
    /* the site: summary, nights, two leagues, three agents, their pairings, games, the JSON twins, logs */
    const char *must[] = { "/nights", "/league/1", "/league/2", "/agent/1", "/agent/2", "/agent/3", "/index.json",
                           "/league/2.json" };
    for (size_t i = 0; i < sizeof must / sizeof must[0]; i++)
        if (!in_set(&s, must[i]))
            fail_msg("nothing links %s (%d pages crawled)", must[i], s.n);
    bool pairing = false, game = false, log = false;
    for (int i = 0; i < s.n; i++) {
        pairing |= strncmp(s.paths[i], "/pairing/", 9) == 0;
        game |= strncmp(s.paths[i], "/game/", 6) == 0;
        log |= strstr(s.paths[i], "/logs/") != NULL;
    }
    assert_true(pairing);
    assert_true(game);
    assert_true(log);
    for (int i = 0; i < s.n; i++) { /* every document page links its JSON twin */
        const char *p = s.paths[i];
        size_t len = strlen(p);
        if (strstr(p, "/logs/") || (len > 5 && strcmp(p + len - 5, ".json") == 0))
            continue;
        char twin[1100];
        snprintf(twin, sizeof twin, "%s.json", strcmp(p, "/") == 0 ? "/index" : p);
        if (!in_set(&s, twin))
            fail_msg("%s does not link its JSON twin %s", p, twin);
    }
    print_message("%d pages crawled (%d HTML, %d JSON), every one 200\n", s.n, html, json);
    set_free(&s);
}

/* In the summary's tables, no agent's name is plain text: each is a link to its page. */
static void every_agent_name_is_a_link(void **state)
{
    (void)state;
    serve_reply r = serve_get(port, "/");
    assert_int_equal(r.status, 200);
    const char *names[] = { "walker", "bridge", "quitter" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char plain[64], linked[64];
        snprintf(plain, sizeof plain, "<td>%s</td>", names[i]);
        snprintf(linked, sizeof linked, "\">%s</a></td>", names[i]);
        if (strstr(r.body, plain))
            fail_msg("the summary names %s as plain text in a table cell", names[i]);
        assert_non_null(strstr(r.body, linked));
    }
    /* the viewer links its players and its league */
    serve_reply g = serve_get(port, "/game/1");
    assert_int_equal(g.status, 200);
    assert_non_null(strstr(g.body, "<a href=\"/agent/"));
    assert_non_null(strstr(g.body, "<a href=\"/league/1\">"));
    serve_reply_free(&g);
    /* and the heatmaps link their cells to the pairings */
    const char *svg = strstr(r.body, "<svg");
    assert_non_null(svg);
    assert_non_null(strstr(svg, "<a href=\"/pairing/"));
    serve_reply_free(&r);
}

/* The links the browser sees on the summary, its script run, are all among those that answered. */
static void chromium_sees_only_working_links(void **state)
{
    (void)state;
    BROWSER_OR_SKIP();
    int html, json;
    path_set ok = crawl(3000, &html, &json);
    const char *pages[] = { "/", "/league/2", "/agent/3", "/nights" };
    for (size_t k = 0; k < sizeof pages / sizeof pages[0]; k++) {
        char url[128];
        snprintf(url, sizeof url, "http://127.0.0.1:%d%s", port, pages[k]);
        char *dom = browser_dump_dom(url, 1280, 900);
        assert_non_null(dom);
        char **v;
        int n = links_of(dom, &v), checked = 0;
        for (int i = 0; i < n; i++) {
            char target[1024], *at = strstr(v[i], "127.0.0.1:");
            const char *link = v[i];
            if (at) /* the browser made it absolute */
                link = strchr(at, '/') ? strchr(at, '/') : "/";
            if (!resolve(pages[k], link, target, sizeof target))
                continue;
            if (!in_set(&ok, target))
                fail_msg("%s in Chromium links %s, which the crawl did not find answering", pages[k], target);
            checked++;
        }
        assert_true(checked > 5);
        links_free(v, n);
        free(dom);
    }
    set_free(&ok);
}

/* ---- the report on disk ---- */

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *text = read_all(f);
    fclose(f);
    return text;
}

/* Whether HTML text has an element with id `id`. */
static bool has_id(const char *html, const char *id)
{
    char attr[300];
    snprintf(attr, sizeof attr, "id=\"%s\"", id);
    return strstr(html, attr) != NULL;
}

/* Every link of the HTML file `path` (and of the HTML files it links, recursively) is a file that exists, or a
 * section of the page that exists; counts the files checked in *files. */
static void check_files(const char *path, path_set *done, int *files)
{
    if (seen(done, path))
        return;
    char *html = read_file(path);
    if (!html)
        fail_msg("%s: cannot be read", path);
    ++*files;
    char **v;
    int n = links_of(html, &v);
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    *strrchr(dir, '/') = '\0';
    for (int i = 0; i < n; i++) {
        const char *link = v[i];
        if (strstr(link, "://"))
            fail_msg("%s links another site: %s", path, link);
        if (link[0] == '#') {
            if (link[1] && !has_id(html, link + 1))
                fail_msg("%s links its section %s, which it does not have", path, link);
            continue;
        }
        if (link[0] == '/')
            fail_msg("%s links %s, an absolute path (on disk it leads nowhere)", path, link);
        char target[PATH_MAX + 600];
        snprintf(target, sizeof target, "%s/%s", dir, link);
        target[strcspn(target, "#")] = '\0';
        char real[PATH_MAX];
        if (!realpath(target, real) || access(real, R_OK) != 0)
            fail_msg("%s links %s: no such file", path, link);
        size_t len = strlen(real);
        if (len > 5 && strcmp(real + len - 5, ".html") == 0)
            check_files(real, done, files);
    }
    links_free(v, n);
    free(html);
}

static void the_report_links_only_what_exists(void **state)
{
    (void)state;
    char index[256], real[PATH_MAX];
    snprintf(index, sizeof index, "%s/index.html", nights);
    assert_non_null(realpath(index, real));
    path_set done = { 0 };
    int files = 0;
    check_files(real, &done, &files);
    assert_true(files >= 3); /* the index, two nights' pages (and the viewer pages of their forfeits) */
    set_free(&done);
    /* the page of a night links the index above it, and its JSON */
    char page[256];
    snprintf(page, sizeof page, "%s/2026-11-21/report.html", nights);
    char *html = read_file(page);
    assert_non_null(html);
    assert_non_null(strstr(html, "href=\"../index.html\""));
    assert_non_null(strstr(html, "href=\"report.json\""));
    free(html);
    /* written elsewhere, with no index above it: no link to one */
    char lone[128];
    snprintf(lone, sizeof lone, "%s/lone/here", tmp);
    assert_int_equal(sh_run("'%s/arena' report --db '%s' --out '%s' --logs '%s' --bootstrap 0 >/dev/null", bin, db,
                            lone, logs),
                     0);
    snprintf(page, sizeof page, "%s/report.html", lone);
    html = read_file(page);
    assert_non_null(html);
    assert_null(strstr(html, "../index.html"));
    free(html);
    snprintf(index, sizeof index, "%s/report.html", lone);
    assert_non_null(realpath(index, real));
    path_set again = { 0 };
    files = 0;
    check_files(real, &again, &files);
    set_free(&again);
}

/* ---- the same figures ---- */

/* The inline drawings of an HTML page, links taken out (the server links names, a file on disk does not), as one
 * text with a line per drawing; *n their count. */
static char *figures(const char *html, int *n)
{
    size_t cap = strlen(html) + 1, k = 0;
    char *out = malloc(cap);
    assert_non_null(out);
    *n = 0;
    for (const char *p = html; (p = strstr(p, "<svg")) != NULL;) {
        const char *e = strstr(p, "</svg>");
        assert_non_null(e);
        e += 6;
        for (const char *c = p; c < e;) {
            if (strncmp(c, "<a href=\"", 9) == 0) {
                c = strchr(c, '>') + 1;
                continue;
            }
            if (strncmp(c, "</a>", 4) == 0) {
                c += 4;
                continue;
            }
            if (strncmp(c, " fill=\"#2a5db0\"", 15) == 0) { /* a linked name's colour */
                c += 15;
                continue;
            }
            out[k++] = *c++;
        }
        out[k++] = '\n';
        ++*n;
        p = e;
    }
    out[k] = '\0';
    return out;
}

static void the_summary_and_the_report_hold_the_same_figures(void **state)
{
    (void)state;
    serve_reply r = serve_get(port, "/");
    assert_int_equal(r.status, 200);
    char page[256];
    snprintf(page, sizeof page, "%s/2026-11-21/report.html", nights);
    char *html = read_file(page);
    assert_non_null(html);
    int served_n, written_n;
    char *served = figures(r.body, &served_n), *written = figures(html, &written_n);
    /* pooled ratings, then per variant and board (two): a heatmap and ratings each, and the history */
    assert_int_equal(written_n, 1 + 2 + 2 + 1);
    assert_int_equal(served_n, written_n);
    if (strcmp(served, written) != 0) {
        size_t k = 0;
        while (served[k] == written[k])
            k++;
        fail_msg("the figures differ at byte %zu: served '%.80s', written '%.80s'", k, served + (k > 20 ? k - 20 : 0),
                 written + (k > 20 ? k - 20 : 0));
    }
    /* the figures are the league's: both nights in the history, every agent in the pooled ratings */
    assert_non_null(strstr(written, "2026-11-20"));
    assert_non_null(strstr(written, "quitter"));
    free(served);
    free(written);
    free(html);
    serve_reply_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_link_from_the_summary_answers),
        cmocka_unit_test(every_agent_name_is_a_link),
        cmocka_unit_test(chromium_sees_only_working_links),
        cmocka_unit_test(the_report_links_only_what_exists),
        cmocka_unit_test(the_summary_and_the_report_hold_the_same_figures),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
