/* tests/unit/test_report.c — the report library's document model and its three renderers: a small document
 * with hostile names (markup, quotes, backslashes, line breaks, control bytes, UTF-8) in its title, facts,
 * warnings, paragraphs, links, table cells and folded text comes out as a Markdown page with its table and
 * every markup character escaped, an HTML page in which no name becomes markup, and JSON that a strict
 * parser accepts and that holds the names exactly; the JSON's sections hold their tables only. A folded section
 * and a folded table are <details> in HTML only; a hash column shows 12 hex digits in HTML, the whole value
 * on demand and in Markdown and JSON. And giving up inside die_catch (nested too) returns the status and the
 * message instead of exiting; ng_load returns its errors so (the server calls it). A figure whose values round to
 * zero from below labels them "0", never "-0". */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "doc.h"
#include "nightly.h"
#include "plot.h"
#include "render.h"
#include "test_sys.h"
#include "test_util.h"

#define HOSTILE "<script>alert(\"x\")</script> back\\slash\nnew line & caf\xc3\xa9 \x01|*_[a](b)"

/* The document rendered by `render`, as a string (malloc'd). */
static char *rendered(void (*render)(const doc *, FILE *), const doc *d)
{
    /* static: with the stream's buffer pointer in a local, gcc -O3 takes the result for a pointer into the
     * frame (-Wdangling-pointer) */
    static char *text;
    static size_t len;
    text = NULL, len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    render(d, f);
    assert_int_equal(fclose(f), 0);
    char *out = text;
    text = NULL;
    return out;
}

static void build(doc *d)
{
    doc_init(d, "Report of " HOSTILE, "2026-11-20");
    d->warnings_section = true;
    doc_fact_int(d, "league", 7);
    doc_fact_text(d, "name", HOSTILE);
    doc_span_add(&d->lead, "lead; ", NULL);
    doc_span_add(&d->lead, "all nights", "../index.html?a=\"1\"&b=<2>");
    doc_warn(d, "agent %s forfeited", HOSTILE);
    doc_section_add(d, "agents", "Agents", "agents");
    doc_para(d, NULL, "about %s", HOSTILE);
    doc_para(d, "warning", "careful");
    tb_table t;
    tb_init(&t, "agents", 2);
    tb_column(&t, 0, "name", false);
    tb_column(&t, 1, "games", true);
    tb_row(&t);
    tb_set(&t, 0, "%s", HOSTILE);
    tb_set(&t, 1, "%d", 12);
    tb_row(&t);
    tb_set(&t, 0, "%s", "plain");
    tb_link(&t, 0, "logs/plain.log");
    tb_set_real(&t, 1, 3.25, 1);
    doc_table(d, &t);
    doc_figure(d, "ratings-pooled", "ratings of " HOSTILE);
    doc_list(d, "logs");
    doc_line *l = doc_item(d);
    doc_span_add(l, HOSTILE, NULL);
    doc_span_add(l, ": ", NULL);
    doc_span_add(l, "x.log", "logs/x.log");
    doc_fold(d, "config file", "[agent a]\ncommand = ``` " HOSTILE "\n");
    doc_section_add(d, "empty", "Nothing here", NULL);
    doc_span_add(&d->footer, "the end", NULL);
    doc_file(d, "report.html");
    doc_file(d, HOSTILE);
}

static void markdown_escapes_and_tabulates(void **state)
{
    (void)state;
    doc d;
    build(&d);
    char *md = rendered(render_md, &d);
    assert_non_null(strstr(md, "# Report of \\<script\\>alert(\"x\")\\</script\\> back\\\\slash\nnew line \\& caf\xc3\xa9"));
    assert_non_null(strstr(md, "## Warnings\n\n- **Warning:** agent \\<script\\>"));
    assert_non_null(strstr(md, "\n## Agents\n\n"));
    assert_non_null(strstr(md, "**Warning:** careful\n\n"));
    assert_non_null(strstr(md, "### agents\n\n| name | games |\n|---|---:|\n| \\<script\\>"));
    assert_non_null(strstr(md, "| [plain](logs/plain.log) | 3.2 |\n")); /* %.1f of 3.25 rounds to even */
    assert_non_null(strstr(md, "![ratings of \\<script\\>"));
    assert_non_null(strstr(md, "](ratings-pooled.svg)\n\n"));
    assert_non_null(strstr(md, ": [x.log](logs/x.log)\n"));
    assert_non_null(strstr(md, "config file:\n\n````\n[agent a]\ncommand = ``` <script>")); /* a longer fence */
    assert_non_null(strstr(md, "lead; [all nights]("));
    /* raw only inside the fence (code, shown as it is), escaped everywhere else */
    const char *raw = strstr(md, "<script>alert(\"x\")</script> back"), *fence = strstr(md, "````\n[agent a]");
    assert_non_null(raw);
    assert_true(raw > fence);
    assert_null(strstr(raw + 1, "<script>alert"));
    free(md);
    doc_free(&d);
}

static void html_escapes_every_text(void **state)
{
    (void)state;
    doc d;
    build(&d);
    char *html = rendered(render_html, &d);
    /* the only <script> is the one in the fold, escaped like everything else: none at all unescaped */
    assert_null(strstr(html, "<script>"));
    assert_non_null(strstr(html, "<title>Report of &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; back\\slash"));
    assert_non_null(strstr(html, "<h1>Report of &lt;script&gt;"));
    assert_non_null(strstr(html, "<small>2026-11-20</small></h1>"));
    assert_non_null(strstr(html, "<a href=\"../index.html?a=&quot;1&quot;&amp;b=&lt;2&gt;\">all nights</a>"));
    assert_non_null(strstr(html, "<nav><a href=\"#warnings\">warnings</a>\n<a href=\"#agents\">agents</a>\n</nav>"));
    assert_non_null(strstr(html, "<li class=\"warning\">agent &lt;script&gt;"));
    assert_non_null(strstr(html, "<section id=\"agents\">\n<h2>Agents</h2>\n<p>about &lt;script&gt;"));
    assert_non_null(strstr(html, "<p class=\"warning\">careful</p>"));
    assert_non_null(strstr(html, "<div class=\"scroll\">\n<table>\n<caption>agents</caption>"));
    assert_non_null(strstr(html, "<td>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; back\\slash\nnew line &amp; caf"));
    assert_non_null(strstr(html, "<td><a href=\"logs/plain.log\">plain</a></td><td class=\"num\">3.2</td>"));
    assert_non_null(strstr(html, "<img src=\"ratings-pooled.svg\" alt=\"ratings of &lt;script&gt;"));
    assert_non_null(strstr(html, "<ul class=\"logs\">\n<li>&lt;script&gt;"));
    assert_non_null(strstr(html, ": <a href=\"logs/x.log\">x.log</a></li>"));
    assert_non_null(strstr(html, "<details><summary>config file</summary><pre>[agent a]\ncommand = ``` &lt;script&gt;"));
    assert_non_null(strstr(html, "<section id=\"empty\">\n<h2>Nothing here</h2>\n</section>"));
    assert_non_null(strstr(html, "<footer><p class=\"note\">the end</p></footer>\n</body>\n</html>\n"));
    free(html);
    doc_free(&d);
}

static void json_is_strict_and_exact(void **state)
{
    (void)state;
    doc d;
    build(&d);
    char *json = rendered(render_json, &d);
    strict_json("render_json", json);
    assert_non_null(strstr(json, "{\"league\":7,\"name\":\"<script>alert(\\\"x\\\")</script> back\\\\slash\\u000anew line"
                                 " & caf\xc3\xa9 \\u0001|*_[a](b)\",\"sections\":{\"agents\":[{\"title\":\"agents\""));
    assert_non_null(strstr(json, "\"rows\":[{\"name\":\"<script>"));
    assert_non_null(strstr(json, "\"games\":12},{\"name\":\"plain\",\"games\":3.25}]"));
    assert_non_null(strstr(json, "\"empty\":[]}"));
    assert_non_null(strstr(json, ",\"warnings\":[\"agent <script>"));
    assert_non_null(strstr(json, ",\"files\":[\"report.html\",\"<script>"));
    assert_null(strstr(json, "about")); /* paragraphs are for people: the JSON carries the numbers */
    size_t n = strlen(json);
    assert_true(n > 2 && json[n - 1] == '\n' && json[n - 2] == '}');
    /* a round trip through Python gives the name back byte for byte */
    FILE *p = popen("python3 -c 'import json,sys; sys.stdout.buffer.write(json.load(sys.stdin)[\"name\"].encode())'"
                    " > /tmp/test-report-name.txt", "w");
    assert_non_null(p);
    fputs(json, p);
    assert_int_equal(pclose(p), 0);
    FILE *f = fopen("/tmp/test-report-name.txt", "rb");
    assert_non_null(f);
    char back[256] = "";
    size_t got = fread(back, 1, sizeof back - 1, f);
    fclose(f);
    unlink("/tmp/test-report-name.txt");
    assert_int_equal(got, strlen(HOSTILE));
    assert_memory_equal(back, HOSTILE, got);
    free(json);
    doc_free(&d);
}

static void empty_document_renders(void **state)
{
    (void)state;
    doc d;
    doc_init(&d, "Empty", NULL);
    char *md = rendered(render_md, &d), *html = rendered(render_html, &d), *json = rendered(render_json, &d);
    assert_string_equal(md, "# Empty\n\n");
    assert_null(strstr(html, "<nav>"));
    assert_null(strstr(html, "Warnings"));
    assert_string_equal(json, "{\"sections\":{},\"warnings\":[],\"files\":[]}\n");
    strict_json("empty document", json);
    free(md);
    free(html);
    free(json);
    doc_free(&d);
}

static void give_up_usage(void *arg)
{
    (void)arg;
    die_usage("report", "no such %s", "thing");
}

static void inner_then_fail(void *arg)
{
    char err[100];
    assert_int_equal(die_catch(give_up_usage, NULL, err, sizeof err), DIE_USAGE);
    assert_string_equal(err, "no such thing");
    *(int *)arg = 1; /* the outer work goes on after the inner one gave up */
    die_fail("report", "and then %d", 2);
}

static void giving_up_returns_instead_of_exiting(void **state)
{
    (void)state;
    char err[100];
    int reached = 0;
    assert_int_equal(die_catch(inner_then_fail, &reached, err, sizeof err), DIE_FAILED);
    assert_int_equal(reached, 1);
    assert_string_equal(err, "and then 2");
    /* ng_load on a database without that league: an error, and this process goes on */
    char dir[] = "/tmp/arena-report-test-XXXXXX", path[64], why[600];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/r.db", dir);
    store_db *s = store_open(path, NULL, why, sizeof why);
    assert_non_null(s);
    ng_night *n = calloc(1, sizeof *n);
    assert_non_null(n);
    assert_int_equal(ng_load(n, s, path, 5, NULL, 0, why, sizeof why), DIE_USAGE);
    if (!strstr(why, "no league 5"))
        fail_msg("ng_load said '%s'", why);
    free(n);
    store_close(s);
    assert_int_equal(sh_run("rm -rf '%s'", dir), 0);
}

/* A form: every name, label and value escaped; hidden fields without a label; multipart when it uploads; named in
 * Markdown, absent from JSON. A drawing is inlined as it is, its caption escaped. */
static void forms_escape_their_fields(void **state)
{
    (void)state;
    doc d;
    doc_init(&d, "t", NULL);
    doc_section_add(&d, "s", "S", NULL);
    doc_form(&d, "/ladder/submit?a=1&b=2", true, "Send <it>");
    doc_input(&d, "hidden", "csrf", NULL, "\"><script>alert(1)</script>");
    doc_input(&d, "file", "archive", "Archive <tar.gz>", NULL);
    char *html = rendered(render_html, &d), *md = rendered(render_md, &d), *json = rendered(render_json, &d);
    assert_non_null(strstr(html, "<form method=\"post\" action=\"/ladder/submit?a=1&amp;b=2\" "
                                 "enctype=\"multipart/form-data\">"));
    assert_non_null(strstr(html, "<input type=\"hidden\" name=\"csrf\" value=\"&quot;&gt;&lt;script&gt;"));
    assert_null(strstr(html, "<script>alert"));
    assert_non_null(strstr(html, "<label>Archive &lt;tar.gz&gt; <input type=\"file\" name=\"archive\"></label>"));
    assert_non_null(strstr(html, "<button type=\"submit\">Send &lt;it&gt;</button>"));
    assert_non_null(strstr(md, "a form posting to"));
    assert_null(strstr(json, "csrf"));
    doc_svg(&d, "<svg><line x1=\"0\"/></svg>", "a <curve>");
    free(html);
    html = rendered(render_html, &d);
    assert_non_null(strstr(html, "<figure><svg><line x1=\"0\"/></svg><figcaption>a &lt;curve&gt;</figcaption>"));
    free(html);
    free(md);
    free(json);
    doc_free(&d);
}

#define SHA "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

/* A folded section with a hash column, and a table folded under a figure. */
static void build_folded(doc *d)
{
    doc_init(d, "Folds", NULL);
    doc_section_add(d, "settings", "Run settings", "settings")->folded = true;
    tb_table t;
    tb_init(&t, "settings", 2);
    tb_column(&t, 0, "setting", false);
    tb_column(&t, 1, "value", false);
    tb_column_hash(&t, 1, 12);
    tb_row(&t);
    tb_set(&t, 0, "%s", "config SHA-256");
    tb_set(&t, 1, "%s", SHA);
    tb_row(&t);
    tb_set(&t, 0, "%s", "command");
    tb_set(&t, 1, "%s", "bin/random --seed 123456789012345"); /* long, not a hash: whole */
    doc_table(d, &t);
    doc_section_add(d, "matrices", "Win matrices", "matrices");
    doc_figure(d, "matrix-classical-3x3", "win matrix");
    tb_init(&t, "classical 3x3", 1);
    tb_column(&t, 0, "a<b", false);
    tb_row(&t);
    tb_set(&t, 0, "%s", "1-2");
    doc_table_folded(d, &t, "table: win matrix, <classical> 3x3");
}

static void folds_and_hashes(void **state)
{
    (void)state;
    doc d;
    build_folded(&d);
    char *md = rendered(render_md, &d), *html = rendered(render_html, &d), *json = rendered(render_json, &d);
    /* HTML: the section folded under its heading, the hash shortened with the whole on demand, the table folded */
    assert_non_null(strstr(html, "<section id=\"settings\">\n<details class=\"section\"><summary><h2>Run settings</h2>"
                                 "</summary>\n<div class=\"scroll\">"));
    assert_non_null(strstr(html, "</table>\n</div>\n</details>\n</section>"));
    assert_non_null(strstr(html, "<td><details class=\"hash\" title=\"" SHA "\"><summary>0123456789ab</summary>" SHA
                                 "</details></td>"));
    assert_non_null(strstr(html, "<td>bin/random --seed 123456789012345</td>"));
    assert_non_null(strstr(html, "<details class=\"table\"><summary>table: win matrix, &lt;classical&gt; 3x3</summary>"
                                 "\n<div class=\"scroll\">\n<table>\n<caption>classical 3x3</caption>"));
    assert_true(strstr(html, "<figure>") < strstr(html, "<details class=\"table\">"));
    /* Markdown and JSON: everything, the whole hash */
    assert_non_null(strstr(md, "## Run settings\n\n### settings\n\n| setting | value |\n|---|---|\n| config SHA-256 | " SHA
                               " |\n"));
    assert_non_null(strstr(md, "### classical 3x3\n\n| a\\<b |\n|---|\n| 1-2 |\n"));
    strict_json("folded document", json);
    assert_non_null(strstr(json, "\"value\":\"" SHA "\""));
    assert_non_null(strstr(json, "\"matrices\":[{\"title\":\"classical 3x3\""));
    assert_null(strstr(json, "<details"));
    free(md);
    free(html);
    free(json);
    doc_free(&d);
}

/* The figures' numbers that round to zero from below (-0.2, -0.4, -0.5) are labelled "0", never "-0": a ratings
 * figure drawn by gnuplot (point labels, axis) with a caption made by pl_whole. */
static void figures_never_say_minus_zero(void **state)
{
    (void)state;
    char w[16];
    assert_string_equal(pl_whole(w, sizeof w, -0.2, false), "0");
    assert_string_equal(pl_whole(w, sizeof w, -0.5, false), "0");
    assert_string_equal(pl_whole(w, sizeof w, -0.2, true), "0");
    assert_string_equal(pl_whole(w, sizeof w, 0.3, true), "0");
    assert_string_equal(pl_whole(w, sizeof w, -0.6, false), "-1");
    assert_string_equal(pl_whole(w, sizeof w, 12.4, true), "+12");
    assert_string_equal(pl_whole(w, sizeof w, -12.6, true), "-13");
    if (system("gnuplot --version >/dev/null 2>&1") != 0)
        skip(); /* make deps installs it */
    char dir[] = "/tmp/arena-plot-unit-XXXXXX", err[400], caption[64], path[128];
    assert_non_null(mkdtemp(dir));
    pl_plotter p;
    if (pl_open(&p, "test", dir, err, sizeof err) != 0)
        fail_msg("%s", err);
    const char *names[] = { "a", "b", "c", "d" };
    double elo[] = { -0.2, -0.4, 0.3, -0.5 }, lo[] = { -40.3, -0.45, -0.1, NAN }, hi[] = { 39.1, -0.3, 0.45, NAN };
    snprintf(caption, sizeof caption, "first-move advantage %s Elo", pl_whole(w, sizeof w, -0.3, true));
    assert_int_equal(pl_ratings(&p, "r", "ratings", caption, 4, names, elo, lo, hi), 0);
    pl_close(&p);
    snprintf(path, sizeof path, "cat '%s/r.svg'", dir);
    char *svg = sh_output(path);
    assert_non_null(strstr(svg, "first-move advantage 0 Elo"));
    int zeros = 0;
    for (const char *q = svg; (q = strstr(q, ">0<")) != NULL; q++)
        zeros++;
    if (zeros < 4 || strstr(svg, ">-0<") || strstr(svg, "-0 Elo"))
        fail_msg("the figure labels a value -0 (or not at all: %d labels \"0\"):\n%.4000s", zeros, svg);
    free(svg);
    snprintf(path, sizeof path, "rm -rf '%s'", dir);
    assert_int_equal(system(path), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(markdown_escapes_and_tabulates),
        cmocka_unit_test(html_escapes_every_text),
        cmocka_unit_test(forms_escape_their_fields),
        cmocka_unit_test(json_is_strict_and_exact),
        cmocka_unit_test(empty_document_renders),
        cmocka_unit_test(giving_up_returns_instead_of_exiting),
        cmocka_unit_test(folds_and_hashes),
        cmocka_unit_test(figures_never_say_minus_zero),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
