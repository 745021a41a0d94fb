/* tests/e2e/test_browser.c — the reports as a reader sees them, in a real browser (headless Chromium,
 * tests/browser.h): the nightly page of a small league of two nights renders (a screenshot that is not blank,
 * on a desktop and on a phone, with the heatmaps' colours on it), its DOM has every section in the morning
 * summary's order with its content (warnings naming agent and cause, leaderboards with their change, folded
 * settings and agents, shortened hashes), and on a phone's first screen nothing scrolls sideways and no name is
 * broken; a win-matrix SVG shows each cell in the colour of its value, with no smoothing — checked against a
 * heatmap drawn `with image`, which browsers smooth, so that the check is seen to fail where it must; the game
 * viewer of a stored classical and abrupt game, stepped through with the keys and the slider, shows at every
 * attempt the three boards of the engine's replay of the stored transcript; it opens a finished game at its last
 * attempt and a forfeited one at the forfeit, an illegal attempt marked on the true board and the mover's view,
 * ?ply=N overriding, and on a phone it does not scroll sideways. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "browser.h"
#include "test_sys.h"
#include "test_util.h"

static char tmp[64], bin[512], agents[512];

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    if (e2e_dirs(tmp, "arena-browser-test", bin) != 0)
        return -1;
    const char *a = getenv("ARENA_TEST_AGENTS");
    snprintf(agents, sizeof agents, "%s", a ? a : "build/release/tests/agents");
    if (agents[0] != '/') {
        char cwd[256];
        if (!getcwd(cwd, sizeof cwd))
            return -1;
        char rel[512];
        snprintf(rel, sizeof rel, "%s", agents);
        snprintf(agents, sizeof agents, "%.250s/%.250s", cwd, rel);
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return e2e_cleanup(tmp);
}

/* ---- the heatmap's colours ---- */

/* The region of pixels of colour rgb (within 2 per channel): its bounding box and how many pixels. */
typedef struct {
    int x0, y0, x1, y1;
    long n;
} region;

static bool is(const browser_image *im, int x, int y, unsigned rgb)
{
    return x >= 0 && y >= 0 && x < im->w && y < im->h && browser_is(browser_pixel(im, x, y), rgb, 2);
}

static region find(const browser_image *im, unsigned rgb)
{
    region r = { im->w, im->h, -1, -1, 0 };
    for (int y = 0; y < im->h; y++)
        for (int x = 0; x < im->w; x++)
            if (is(im, x, y, rgb)) {
                r.n++;
                r.x0 = x < r.x0 ? x : r.x0;
                r.y0 = y < r.y0 ? y : r.y0;
                r.x1 = x > r.x1 ? x : r.x1;
                r.y1 = y > r.y1 ? y : r.y1;
            }
    return r;
}

/* The largest 4-connected block of pixels of colour rgb (a heatmap cell; the colour bar's end of that colour is
 * a thin strip). */
static region largest_block(const browser_image *im, unsigned rgb)
{
    size_t n = (size_t)im->w * (size_t)im->h;
    uint8_t *seen = calloc(n, 1);
    int *stack = malloc(sizeof *stack * n);
    assert_true(seen && stack);
    region best = { 0, 0, -1, -1, 0 };
    for (int y = 0; y < im->h; y++)
        for (int x = 0; x < im->w; x++) {
            if (seen[(size_t)y * im->w + x] || !is(im, x, y, rgb))
                continue;
            region r = { x, y, x, y, 0 };
            size_t top = 0;
            stack[top++] = y * im->w + x;
            seen[(size_t)y * im->w + x] = 1;
            while (top) {
                int k = stack[--top], px = k % im->w, py = k / im->w;
                r.n++;
                r.x0 = px < r.x0 ? px : r.x0;
                r.x1 = px > r.x1 ? px : r.x1;
                r.y0 = py < r.y0 ? py : r.y0;
                r.y1 = py > r.y1 ? py : r.y1;
                static const int d[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
                for (int q = 0; q < 4; q++) {
                    int nx = px + d[q][0], ny = py + d[q][1];
                    if (is(im, nx, ny, rgb) && !seen[(size_t)ny * im->w + nx]) {
                        seen[(size_t)ny * im->w + nx] = 1;
                        stack[top++] = ny * im->w + nx;
                    }
                }
            }
            if (r.n > best.n)
                best = r;
        }
    free(seen);
    free(stack);
    return best;
}

static bool same(const uint8_t *a, const uint8_t *b)
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

/* Leaving the block at (x, y) in direction (dx, dy): how many pixels until the colour is steady again (three
 * equal pixels in a row) and clearly another (a channel 40 or more away: the white gap around a cell, or the
 * background), at most 40. A cell's edge is a step (a pixel or two of anti-aliasing); a smoothed bitmap changes
 * colour gradually (in bands) over half a cell. */
static int edge_width(const browser_image *im, int x, int y, int dx, int dy, unsigned rgb)
{
    while (is(im, x, y, rgb))
        x += dx, y += dy;
    for (int t = 0; t < 40; t++, x += dx, y += dy) {
        int x2 = x + 2 * dx, y2 = y + 2 * dy;
        if (x2 < 0 || y2 < 0 || x2 >= im->w || y2 >= im->h)
            return t;
        const uint8_t *p = browser_pixel(im, x, y);
        if (same(p, browser_pixel(im, x + dx, y + dy)) && same(p, browser_pixel(im, x2, y2)) &&
            !browser_is(p, rgb, 39))
            return t;
    }
    return 40;
}

/* Whether the cell of colour rgb is drawn in that colour: a block of at least 40x40 pixels, 85% of its box of
 * the colour (the cell's text aside), with sharp edges on all four sides. */
static bool solid_cell(const browser_image *im, unsigned rgb, char *why, size_t len)
{
    region r = largest_block(im, rgb);
    if (r.n == 0) {
        snprintf(why, len, "no pixel of #%06x", rgb);
        return false;
    }
    int w = r.x1 - r.x0 + 1, h = r.y1 - r.y0 + 1;
    double fill = (double)r.n / ((double)w * h);
    /* the edges, scanned along lines a fifth into the block (clear of the text in its middle) */
    int e[4] = { edge_width(im, r.x0 + w / 2, r.y0 + h / 5, 1, 0, rgb), edge_width(im, r.x0 + w / 2, r.y0 + h / 5, -1, 0, rgb),
                 edge_width(im, r.x0 + w / 5, r.y0 + h / 2, 0, 1, rgb), edge_width(im, r.x0 + w / 5, r.y0 + h / 2, 0, -1, rgb) };
    int widest = 0;
    for (int k = 0; k < 4; k++)
        widest = e[k] > widest ? e[k] : widest;
    snprintf(why, len, "#%06x: a %dx%d block, %.0f%% of its box, edges %d, %d, %d, %d pixels wide", rgb, w, h,
             100 * fill, e[0], e[1], e[2], e[3]);
    return w >= 40 && h >= 40 && fill >= 0.85 && widest <= 4;
}

/* The SVG's size from its viewBox ("0 0 W H"). */
static void svg_size(const char *svg, int *w, int *h)
{
    const char *v = strstr(svg, "viewBox=\"");
    assert_non_null(v);
    assert_int_equal(sscanf(v, "viewBox=\"0 0 %d %d\"", w, h), 2);
}

static void render_svg(const char *svg_path, const char *png, browser_image *im)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "cat '%s'", svg_path);
    char *svg = sh_output(cmd);
    int w, h;
    svg_size(svg, &w, &h);
    free(svg);
    assert_int_equal(browser_screenshot(svg_path, png, w, h), 0);
    assert_int_equal(browser_image_read(png, im), 0);
    assert_int_equal(im->w, w);
}

static void heatmap_cells_have_the_colour_of_their_value(void **state)
{
    (void)state;
    BROWSER_OR_SKIP();
    /* a bot that always forfeits (it exits at its second attempt) against random: the matrix's two cells are
     * exactly 0% (#b2182b) and 100% (#2166ac) */
    char cfg[128], db[128], out[128], text[2048];
    snprintf(cfg, sizeof cfg, "%s/heat.ini", tmp);
    snprintf(db, sizeof db, "%s/heat.db", tmp);
    snprintf(out, sizeof out, "%s/heat", tmp);
    snprintf(text, sizeof text,
             "[league]\nname = heat\nvariants = classical\nboards = 3x3\ngames = 4\nopenings = none\n"
             "[agent random]\ncommand = %s/random\n[agent quitter]\ncommand = %s/misbehave\nargs = --mode exit\n",
             bin, agents);
    write_file(cfg, text);
    assert_int_equal(sh_run("'%s/arena' league '%s' --db '%s' --logs '%s/logs' --quiet >/dev/null", bin, cfg, db, tmp),
                     0);
    assert_int_equal(sh_run("'%s/arena' plot --db '%s' --out '%s' --bootstrap 0 >/dev/null", bin, db, out), 0);
    char svg[256], png[256], why[200];
    snprintf(svg, sizeof svg, "%s/matrix-classical-3x3.svg", out);
    snprintf(png, sizeof png, "%s/matrix.png", tmp);
    browser_image im;
    render_svg(svg, png, &im);
    if (!solid_cell(&im, 0xb2182b, why, sizeof why))
        fail_msg("the 0%% cell is not drawn in its colour: %s", why);
    if (!solid_cell(&im, 0x2166ac, why, sizeof why))
        fail_msg("the 100%% cell is not drawn in its colour: %s", why);
    browser_image_free(&im);

    /* the control: the same two values drawn as an embedded bitmap (`with image`), which the browser smooths;
     * the check must see it */
    char gp[256], data[256], control[256];
    snprintf(gp, sizeof gp, "%s/control.gp", tmp);
    snprintf(data, sizeof data, "%s/control.dat", tmp);
    snprintf(control, sizeof control, "%s/control.svg", tmp);
    write_file(data, "0 0 0\n1 0 100\n\n0 1 100\n1 1 0\n");
    snprintf(text, sizeof text,
             "set terminal svg size 580,400 dynamic background 'white'\nset output '%s'\nset cbrange [0:100]\n"
             "set palette defined (0 '#b2182b', 50 '#f7f7f7', 100 '#2166ac')\nunset colorbox\nset key off\n"
             "plot '%s' using 1:2:3 with image\n",
             control, data);
    write_file(gp, text);
    assert_int_equal(sh_run("gnuplot '%s' 2>/dev/null", gp), 0);
    render_svg(control, png, &im);
    if (solid_cell(&im, 0xb2182b, why, sizeof why) && solid_cell(&im, 0x2166ac, why, sizeof why))
        fail_msg("a smoothed heatmap passed the check (%s): the check cannot tell", why);
    browser_image_free(&im);
}

/* ---- the nightly page ---- */

/* The page's sections in their order: the morning summary first, settings and agents (folded) last. */
static const char *const sections[] = { "warnings", "leaderboards", "forfeits", "ratings",  "changes",
                                        "head-to-head", "matrices", "variants", "history", "time-use",
                                        "repeats",  "settings", "agents" };

/* The text of <section id="id"> ... </section> in the DOM (malloc'd), or NULL. */
static char *section_of(const char *dom, const char *id)
{
    char open[64];
    snprintf(open, sizeof open, "<section id=\"%s\">", id);
    const char *a = strstr(dom, open);
    if (!a)
        return NULL;
    const char *b = strstr(a, "</section>");
    if (!b)
        return NULL;
    return strndup(a, (size_t)(b - a));
}

static void expect_in(const char *what, const char *text, const char *part)
{
    if (!strstr(text, part))
        fail_msg("%s lacks '%s':\n%.3000s", what, part, text);
}

/* Run in the page of a phone's width (browser_phone_page): the page does not scroll sideways; on its first screen
 * no element sticks out and no table box scrolls sideways; the leaderboards start on it; every name in the
 * leaderboards, forfeits and head-to-head is on one line; the hashes show 12 hex digits and hold 64; settings
 * and agents are folded; each matrix's table is folded under its heatmap. Then a control: names forced to break
 * (a style put into the page) must be seen broken. One line per finding into <pre id="phone-check">. */
static const char phone_check[] =
    "var out = [], vw = w.innerWidth, vh = w.innerHeight;\n"
    "out.push('viewport ' + vw + 'x' + vh);\n"
    "if (d.documentElement.scrollWidth > vw) out.push('FAIL the page scrolls sideways: ' + d.documentElement.scrollWidth);\n"
    "d.body.querySelectorAll('*').forEach(function (e) {\n"
    "  var r = e.getBoundingClientRect();\n"
    "  if (r.top >= vh || r.width === 0) return;\n"
    "  var box = e.closest('.scroll');\n"
    "  if (box === e && e.scrollWidth > e.clientWidth + 1) out.push('FAIL a table scrolls sideways on the first screen: ' + e.textContent.trim().slice(0, 80));\n"
    "  if (!box && r.right > vw + 1) out.push('FAIL <' + e.tagName + '> sticks out on the first screen to ' + Math.round(r.right));\n"
    "});\n"
    "var lb = d.getElementById('leaderboards');\n"
    "if (lb && lb.getBoundingClientRect().top < vh) out.push('OK leaderboards on the first screen');\n"
    "function broken() {\n"
    "  var bad = [];\n"
    "  d.querySelectorAll('#leaderboards td:nth-child(2), #forfeits td:first-child, #head-to-head td:nth-child(-n+2)')\n"
    "   .forEach(function (td) {\n"
    "    var range = d.createRange(); range.selectNodeContents(td);\n"
    "    var tops = {}; Array.prototype.forEach.call(range.getClientRects(), function (x) { tops[Math.round(x.top)] = 1; });\n"
    "    if (Object.keys(tops).length > 1) bad.push(td.textContent);\n"
    "  });\n"
    "  return bad;\n"
    "}\n"
    "var names = d.querySelectorAll('#leaderboards td:nth-child(2)').length, bad = broken();\n"
    "if (!names) out.push('FAIL no names in the leaderboards');\n"
    "bad.forEach(function (n) { out.push('FAIL a name is broken: ' + n); });\n"
    "var hashes = d.querySelectorAll('#agents details.hash');\n"
    "hashes.forEach(function (h) {\n"
    "  var shown = h.querySelector('summary').textContent, full = h.getAttribute('title');\n"
    "  if (shown.length !== 12 || full.length !== 64 || full.indexOf(shown) !== 0) out.push('FAIL hash ' + shown + ' of ' + full);\n"
    "});\n"
    "if (hashes.length) out.push('OK hashes ' + hashes.length);\n"
    "['settings', 'agents'].forEach(function (id) {\n"
    "  if (d.querySelector('#' + id + ' > details.section:not([open])')) out.push('OK folded ' + id);\n"
    "});\n"
    "var figs = d.querySelectorAll('#matrices figure').length, tables = d.querySelectorAll('#matrices details.table table').length;\n"
    "if (figs > 0 && figs === tables && d.querySelectorAll('#matrices table').length === tables) out.push('OK matrices ' + figs);\n"
    "var style = d.createElement('style');\n"
    "style.textContent = 'td { white-space: normal !important; word-break: break-all !important; max-width: 2ch; }';\n"
    "d.head.appendChild(style);\n"
    "if (broken().length > 0) out.push('OK control');\n"
    "var pre = document.createElement('pre'); pre.id = 'phone-check'; pre.textContent = out.join('\\n');\n"
    "document.body.appendChild(pre);\n";

/* The text of <pre id="ID"> that a test's script wrote into the DOM, NUL-terminated in place; fails the test when
 * the script did not run. */
static char *pre_text(char *dom, const char *id)
{
    char open[64];
    snprintf(open, sizeof open, "<pre id=\"%s\">", id);
    char *a = strstr(dom, open);
    if (!a)
        fail_msg("the script writing '%s' did not run:\n%.2000s", id, dom);
    a += strlen(open);
    char *b = strstr(a, "</pre>");
    assert_non_null(b);
    *b = '\0';
    return a;
}

/* The phone check (phone_check) on the page that `harness` shows, a phone's first screen: fails on any finding. */
static void phone_first_screen(const char *harness)
{
    char check[300];
    snprintf(check, sizeof check, "%s.check.html", harness);
    assert_int_equal(browser_phone_page(check, "report.html", 390, 844, phone_check), 0);
    char *dom = browser_dump_dom(check, 800, 900);
    assert_non_null(dom);
    char *a = pre_text(dom, "phone-check");
    printf("%s\n", a);
    if (strstr(a, "FAIL"))
        fail_msg("the page on a phone: %s", a);
    static const char *const must[] = { "viewport 390x844", "OK leaderboards on the first screen", "OK hashes 4",
                                        "OK folded settings", "OK folded agents", "OK matrices 2", "OK control" };
    for (size_t i = 0; i < sizeof must / sizeof must[0]; i++)
        if (!strstr(a, must[i]))
            fail_msg("the phone check lacks '%s': %s", must[i], a);
    free(dom);
}

/* Every section of the page's DOM, in order, with its heading and what it must hold from the test's league. */
static void sections_hold_their_content(const char *dom)
{
    const char *prev = dom;
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
        char *s = section_of(dom, sections[i]);
        if (!s)
            fail_msg("the page has no section '%s':\n%.2000s", sections[i], dom);
        if (!strstr(s, "<h2>"))
            fail_msg("section '%s' has no heading", sections[i]);
        char open[64];
        snprintf(open, sizeof open, "<section id=\"%s\">", sections[i]);
        if (strstr(dom, open) < prev)
            fail_msg("section '%s' is out of order", sections[i]);
        prev = strstr(dom, open);
        free(s);
    }
    /* what each section must hold, from this league */
    static const struct {
        const char *id, *part;
    } holds[] = {
        { "warnings", "<li class=\"warning\">quitter forfeited " }, /* the agent and the cause */
        { "warnings", " games: crash " },
        { "leaderboards", "<caption>abrupt 3x3</caption>" },
        { "leaderboards", "<caption>classical 3x3</caption>" },
        { "leaderboards", "significant)</td>" }, /* the change since the first night, and whether it is significant */
        { "leaderboards", " since the previous night" }, /* the significant changes named, or none */
        { "ratings", "did not all play the same variants and boards (pone: 1 of 2" }, /* pone: classical only */
        { "settings", "<details class=\"section\"><summary><h2>Run settings</h2></summary>" },
        { "agents", "<details class=\"section\"><summary><h2>Agents</h2></summary>" },
        { "agents", "<details class=\"hash\" title=\"" },
        { "matrices", "<details class=\"table\"><summary>table: win matrix, abrupt 3x3</summary>" },
        { "settings", "time per move" },
        { "settings", "arena version" },
        { "settings", "2026-11-21" },
        { "agents", "--mode exit" },
        { "agents", "<td>1.0</td>" },
        { "ratings", "first-move advantage" },
        { "ratings", "<title>Elo, pooled (" },
        { "changes", "<th class=\"num\">previous</th>" },
        { "head-to-head", "<th class=\"num\">los%</th>" },
        { "matrices", "<title>Win matrix, abrupt 3x3 (" },
        { "matrices", "<title>Win matrix, classical 3x3 (" },
        { "variants", "<title>Elo, classical 3x3 (" },
        { "history", "<title>Rating history of 'nightly' (2 leagues" },
        { "forfeits", "<a href=\"logs/league-nightly-quitter-" },
        { "forfeits", "<td>quitter</td>" },
        { "forfeits", "<a href=\"games/game-" }, /* the latest forfeit's game, in the game viewer */
        { "time-use", "<th class=\"num\">median</th>" },
        { "repeats", "repeat an earlier game" },
    };
    for (size_t i = 0; i < sizeof holds / sizeof holds[0]; i++) {
        char *s = section_of(dom, holds[i].id);
        assert_non_null(s);
        expect_in(holds[i].id, s, holds[i].part);
        free(s);
    }
}

static void nightly_page_renders_with_every_section(void **state)
{
    (void)state;
    BROWSER_OR_SKIP();
    char cfg[128], db[128], nights[128], text[3072];
    snprintf(cfg, sizeof cfg, "%s/night.ini", tmp);
    snprintf(db, sizeof db, "%s/night.db", tmp);
    snprintf(nights, sizeof nights, "%s/nightly", tmp);
    snprintf(text, sizeof text,
             "[league]\nname = nightly\nvariants = classical, abrupt\nboards = 3x3\ngames = 4\nconcurrency = 2\n"
             "[agent random]\ncommand = %s/random\nargs = --seed 1\n[agent bridge]\ncommand = %s/bridge\n"
             "[agent pone]\ncommand = %s/pone\nargs = --seed 1\n"
             "[agent quitter]\ncommand = %s/misbehave\nargs = --mode exit\n",
             bin, bin, bin, agents);
    write_file(cfg, text);
    /* two nights: the second page compares with the first and its history has two points */
    for (int night = 20; night <= 21; night++) {
        assert_int_equal(sh_run("'%s/arena' league '%s' --db '%s' --logs '%s/logs' --quiet --new --date 2026-11-%d "
                                ">/dev/null",
                                bin, cfg, db, tmp, night),
                         0);
        assert_int_equal(sh_run("'%s/arena' report --db '%s' --out '%s/2026-11-%d' --logs '%s/logs' --bootstrap 50 "
                                ">/dev/null",
                                bin, db, nights, night, tmp),
                         0);
    }
    assert_int_equal(sh_run("'%s/arena' report --index '%s' >/dev/null", bin, nights), 0);
    char page[256];
    snprintf(page, sizeof page, "%s/2026-11-21/report.html", nights);

    char *dom = browser_dump_dom(page, 1280, 900);
    assert_non_null(dom);
    sections_hold_their_content(dom);
    /* the forfeited game's page: the viewer, at its last attempt */
    const char *link = strstr(dom, "<a href=\"games/game-");
    assert_non_null(link);
    char game[600];
    snprintf(game, sizeof game, "%s/2026-11-21/%.*s", nights, (int)(strchr(link + 9, '"') - link - 9), link + 9);
    char *viewer = browser_dump_dom(game, 1280, 900);
    assert_non_null(viewer);
    expect_in(game, viewer, "<svg class=\"board\" data-board=\"truth\"");
    expect_in(game, viewer, "by forfeit: crash");
    free(viewer);
    /* every image and link on the page is a file next to it (or a section, or the index above) */
    for (const char *p = dom; (p = strstr(p, " src=\"")) != NULL; p++) {
        char ref[200], file[600];
        const char *q = p + 6;
        snprintf(ref, sizeof ref, "%.*s", (int)(strchr(q, '"') - q), q);
        snprintf(file, sizeof file, "%s/2026-11-21/%s", nights, ref);
        if (strchr(ref, ':') || access(file, R_OK) != 0)
            fail_msg("the page shows '%s', not a file next to it", ref);
    }
    free(dom);

    /* the screenshot: not blank, and the heatmaps' colours are on it (the SVG images loaded) */
    char png[256];
    snprintf(png, sizeof png, "%s/desktop.png", tmp);
    assert_int_equal(browser_screenshot(page, png, 1280, 8000), 0);
    browser_image im = { 0 };
    assert_int_equal(browser_image_read(png, &im), 0);
    double ink = browser_ink(&im);
    if (ink < 0.02)
        fail_msg("the desktop screenshot is blank: %.2f%% of it differs from the background", 100 * ink);
    if (find(&im, 0xb2182b).n < 400) /* the quitter's 0% cells */
        fail_msg("no heatmap cell on the desktop screenshot: the inline drawings are not shown");

    browser_image_free(&im);
    /* on a phone (390 x 844): not blank, and the first screen fits */
    char harness[256];
    snprintf(harness, sizeof harness, "%s/2026-11-21/phone.html", nights);
    assert_int_equal(browser_phone_page(harness, "report.html", 390, 1600, NULL), 0);
    snprintf(png, sizeof png, "%s/phone.png", tmp);
    assert_int_equal(browser_screenshot(harness, png, 390, 1600), 0);
    assert_int_equal(browser_image_read(png, &im), 0);
    ink = browser_ink(&im);
    if (ink < 0.02)
        fail_msg("the phone screenshot is blank: %.2f%% of it differs from the background", 100 * ink);
    browser_image_free(&im);
    phone_first_screen(harness);

    /* the index of nights links both */
    char index[256];
    snprintf(index, sizeof index, "%s/index.html", nights);
    dom = browser_dump_dom(index, 1280, 900);
    assert_non_null(dom);
    expect_in("index.html", dom, "<a href=\"2026-11-21/report.html\">2026-11-21</a>");
    expect_in("index.html", dom, "<a href=\"2026-11-20/report.html\">2026-11-20</a>");
    assert_true(strstr(dom, "2026-11-21") < strstr(dom, "2026-11-20")); /* newest first */
    free(dom);
}

/* ---- the game viewer ---- */

/* Run in the viewer's page after its own script: steps through every attempt with the keys (Home, then → to
 * the end), then back to the start with the slider (its value and an input event), then End; after each step
 * it reads the three boards from the DOM (each polygon's data-stone, by data-cell) and the slider's value, and
 * writes every step as a line "TRUTH BLACK WHITE PLY" into <pre id="walk">, the three walks separated by "--". */
static const char walker[] =
    "<script>\n(function () {\n"
    "function board(b) { var s = [];\n"
    "  document.querySelectorAll('svg[data-board=' + b + '] polygon[data-cell]').forEach(function (p) {\n"
    "    s[+p.getAttribute('data-cell')] = p.getAttribute('data-stone'); });\n"
    "  return s.join(''); }\n"
    "var slider = document.getElementById('ply');\n"
    "function read() { return ['truth', 'black', 'white'].map(board).join(' ') + ' ' + slider.value; }\n"
    "function key(k) { document.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true })); }\n"
    "var n = +slider.max, keys = [], back = [];\n"
    "key('Home'); keys.push(read());\n"
    "for (var i = 0; i < n; i++) { key('ArrowRight'); keys.push(read()); }\n"
    "for (var k = n; k >= 0; k--) { slider.value = k; slider.dispatchEvent(new Event('input')); back.push(read()); }\n"
    "key('End');\n"
    "var pre = document.createElement('pre'); pre.id = 'walk';\n"
    "pre.textContent = keys.join('\\n') + '\\n--\\n' + back.reverse().join('\\n') + '\\n--\\n' + read();\n"
    "document.body.appendChild(pre);\n})();\n</script>\n";

/* One stored game replayed by the engine from the database's own rows (an independent read): after each attempt
 * k (line k; line 0 the empty board) the true board and both views as the viewer writes them ("TRUTH BLACK WHITE
 * k"). Returns the number of attempts; lines is malloc'd. */
static int engine_walk(const char *db, long id, char **lines)
{
    sqlite3 *d;
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_open_v2(db, &d, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT variant, rows, cols, swap FROM games WHERE id = %ld", id);
    assert_int_equal(sqlite3_prepare_v2(d, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    static hx_game g;
    int v = hx_variant_parse((const char *)sqlite3_column_text(st, 0));
    assert_true(v >= 0);
    assert_int_equal(hx_new(&g, (hx_variant)v, sqlite3_column_int(st, 1), sqlite3_column_int(st, 2),
                            sqlite3_column_int(st, 3) ? HX_SWAP_RULE : 0), 0);
    sqlite3_finalize(st);
    snprintf(sql, sizeof sql, "SELECT player, cell, outcome FROM attempts WHERE game_id = %ld ORDER BY n", id);
    assert_int_equal(sqlite3_prepare_v2(d, sql, -1, &st, NULL), SQLITE_OK);
    size_t cap = 1 << 16, len = 0;
    char *out = malloc(cap);
    assert_non_null(out);
    int n = 0;
    for (bool more = true; more;) {
        int cells = hx_cells(&g);
        assert_true(len + 4 * (size_t)cells + 16 < cap);
        for (int b = 0; b < 3; b++) {
            for (int i = 0; i < cells; i++) {
                int o = b == 0 ? hx_owner(&g, i) : hx_view(&g, b - 1, i);
                if (b > 0 && o != HX_VIEW_UNKNOWN) /* own or opponent, in absolute colours */
                    o = (o == HX_VIEW_OWN) == (b == 1) ? 1 : 2;
                out[len++] = "-bw"[o];
            }
            out[len++] = ' ';
        }
        len += (size_t)sprintf(out + len, "%d\n", n);
        more = sqlite3_step(st) == SQLITE_ROW;
        if (!more)
            break;
        const char *player = (const char *)sqlite3_column_text(st, 0), *cell = (const char *)sqlite3_column_text(st, 1);
        const char *outcome = (const char *)sqlite3_column_text(st, 2);
        assert_int_equal(hx_to_move(&g), player[0] == 'B' ? HX_BLACK : HX_WHITE);
        int c = cell_of(&g, cell), r = hx_attempt(&g, c);
        assert_true(r >= 0);
        assert_string_equal(hx_outcome_name(r), outcome);
        n++;
    }
    sqlite3_finalize(st);
    sqlite3_close(d);
    out[len] = '\0';
    *lines = out;
    return n;
}

/* The text of <pre id="walk"> in the DOM, split into its three walks (pointers into dom, NUL-terminated). */
static void walks(char *dom, char *part[3])
{
    char *a = pre_text(dom, "walk");
    for (int k = 0; k < 3; k++) {
        part[k] = a;
        char *sep = strstr(a, "\n--\n");
        if (k < 2) {
            assert_non_null(sep);
            *sep = '\0';
            a = sep + 4;
        }
    }
}

/* The viewer page of game `id` (arena show --format html), walked in the browser: every step's three boards equal
 * the engine's replay of the stored transcript, by the keys and by the slider; End shows the last attempt; ?ply=N
 * opens attempt N. */
static void walk_game(const char *db, long id)
{
    char page[256], walked[256];
    snprintf(page, sizeof page, "%s/game-%ld.html", tmp, id);
    snprintf(walked, sizeof walked, "%s/walk-%ld.html", tmp, id);
    assert_int_equal(sh_run("'%s/arena' show --db '%s' --format html %ld >'%s'", bin, db, id, page), 0);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "cat '%s'", page);
    char *html = sh_output(cmd), *body = strstr(html, "</body>");
    assert_non_null(body);
    FILE *f = fopen(walked, "w");
    assert_non_null(f);
    fprintf(f, "%.*s%s%s", (int)(body - html), html, walker, body);
    fclose(f);
    free(html);

    char *want;
    int n = engine_walk(db, id, &want);
    assert_true(n >= 3);
    char *dom = browser_dump_dom(walked, 1280, 900), *part[3];
    assert_non_null(dom);
    walks(dom, part);
    static const char *const how[] = { "the keys", "the slider" };
    for (int k = 0; k < 2; k++) {
        size_t len = strlen(want) - 1; /* without the last newline */
        if (strlen(part[k]) != len || strncmp(part[k], want, len) != 0)
            fail_msg("game %ld stepped with %s differs from the engine's replay\nviewer:\n%s\nengine:\n%s", id, how[k],
                     part[k], want);
    }
    const char *last = strrchr(want, '\n');
    while (last > want && last[-1] != '\n')
        last--;
    assert_int_equal(strncmp(part[2], last, strlen(part[2])), 0); /* End: the last attempt */
    free(dom);
    free(want);

    /* on a phone, from ?ply=2 in the address: attempt 2 shown, and the page does not scroll sideways */
    char harness[300], src[64];
    snprintf(harness, sizeof harness, "%s/phone-%ld.html", tmp, id);
    snprintf(src, sizeof src, "game-%ld.html?ply=2", id);
    assert_int_equal(browser_phone_page(harness, src, 390, 844,
                                        "var pre = document.createElement('pre'); pre.id = 'viewer-phone';\n"
                                        "pre.textContent = 'ply ' + d.body.getAttribute('data-ply') + '; ' +\n"
                                        "  d.getElementById('where').textContent + '; slider ' +\n"
                                        "  d.getElementById('ply').value + '; overflow ' +\n"
                                        "  Math.max(0, d.documentElement.scrollWidth - w.innerWidth);\n"
                                        "document.body.appendChild(pre);"),
                     0);
    dom = browser_dump_dom(harness, 800, 900);
    assert_non_null(dom);
    char expected[120];
    snprintf(expected, sizeof expected, "ply 2; attempt 2 of %d; slider 2; overflow 0", n);
    assert_string_equal(pre_text(dom, "viewer-phone"), expected);
    free(dom);
}

static void game_viewer_steps_through_the_stored_games(void **state)
{
    (void)state;
    BROWSER_OR_SKIP();
    char cfg[128], db[128], text[2048];
    snprintf(cfg, sizeof cfg, "%s/viewer.ini", tmp);
    snprintf(db, sizeof db, "%s/viewer.db", tmp);
    snprintf(text, sizeof text,
             "[league]\nname = viewer\nvariants = classical, abrupt\nboards = 4x4\ngames = 6\nopening_stones = 2\n"
             "[agent random]\ncommand = %s/random\n[agent other]\ncommand = %s/random\nargs = --seed 7\n",
             bin, bin);
    write_file(cfg, text);
    assert_int_equal(sh_run("'%s/arena' league '%s' --db '%s' --logs '%s/logs' --quiet >/dev/null", bin, cfg, db, tmp),
                     0);
    /* a game of each family with an attempt on a hidden stone, and the opening */
    static const char *const pick[] = { "classical' AND a.outcome = 'rejected", "abrupt' AND a.outcome = 'collision" };
    for (int k = 0; k < 2; k++) {
        char sql[400];
        snprintf(sql, sizeof sql, "SELECT coalesce(min(g.id), 0) FROM games g JOIN attempts a ON a.game_id = g.id "
                                  "WHERE g.opening > 0 AND g.variant = '%s'", pick[k]);
        long id = db_scalar(db, sql);
        if (id <= 0)
            fail_msg("no game for %s", pick[k]);
        walk_game(db, id);
    }
}

/* ---- where the viewer opens, and the forfeit's mark ---- */

/* Reads the viewer's state after its script ran (d: its document, w: its window), one finding a line into
 * <pre id="opened"> of the document this runs in: the ply shown (body, slider, #where), the class of #attempt,
 * the cells marked as the illegal attempt on each board, the sideways overflow, and whether the slider and the
 * buttons are inside the window, and the true board's box in the window ("truth-box X0 Y0 X1 Y1"). */
static const char opened_check[] =
    "var out = [], ids = ['first', 'prev', 'ply', 'next', 'last'], outside = [];\n"
    "out.push('ply ' + d.body.getAttribute('data-ply') + '; slider ' + d.getElementById('ply').value + '; ' +\n"
    "  d.getElementById('where').textContent);\n"
    "out.push('class ' + d.getElementById('attempt').className);\n"
    "['truth', 'black', 'white'].forEach(function (b) {\n"
    "  var cells = {};\n"
    "  d.querySelectorAll('svg[data-board=' + b + '] g.marks .illegal').forEach(function (e) {\n"
    "    cells[e.getAttribute('data-cell')] = 1; });\n"
    "  out.push(b + ' [' + Object.keys(cells).join(',') + ']');\n"
    "});\n"
    "out.push('overflow ' + Math.max(0, d.documentElement.scrollWidth - w.innerWidth));\n"
    "ids.forEach(function (id) { var r = d.getElementById(id).getBoundingClientRect();\n"
    "  if (r.left < 0 || r.right > w.innerWidth || r.width === 0) outside.push(id); });\n"
    "out.push(outside.length ? 'controls outside: ' + outside.join(' ') : 'controls inside');\n"
    "var box = d.querySelector('svg[data-board=truth]').getBoundingClientRect();\n"
    "out.push('truth-box ' + [box.left, box.top, box.right, box.bottom].map(Math.round).join(' '));\n"
    "var pre = document.createElement('pre'); pre.id = 'opened'; pre.textContent = out.join('\\n');\n"
    "document.body.appendChild(pre);\n";

/* A text column of the first row of `sql`, malloc'd. */
static char *db_text(const char *db, const char *sql)
{
    sqlite3 *d;
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_open_v2(db, &d, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(d, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    char *text = strdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(d);
    return text;
}

/* The viewer's page of game `id` (arena show --format html, no --ply) opened in the browser, `query` (e.g.
 * "?ply=1", or "") in its address, in a frame of width x 900 CSS pixels at the top left of the page `harness`
 * (256 bytes; may be NULL): the lines opened_check writes. */
static char *opened(const char *db, long id, const char *query, int width, char *harness)
{
    char page[256], own[256], src[300];
    if (!harness)
        harness = own;
    snprintf(page, sizeof page, "%s/open-%ld.html", tmp, id);
    assert_int_equal(sh_run("'%s/arena' show --db '%s' --format html %ld >'%s'", bin, db, id, page), 0);
    snprintf(harness, 256, "%s/open-%ld-%d-%s.html", tmp, id, width, query[0] ? "ply" : "start");
    snprintf(src, sizeof src, "open-%ld.html%s", id, query);
    assert_int_equal(browser_phone_page(harness, src, width, 900, opened_check), 0);
    char *dom = browser_dump_dom(harness, width + 100, 1000);
    assert_non_null(dom);
    char *text = strdup(pre_text(dom, "opened"));
    assert_non_null(text);
    free(dom);
    printf("game %ld%s at %d px:\n%s\n", id, query, width, text);
    return text;
}

static void expect_line(const char *what, const char *text, const char *line)
{
    if (!strstr(text, line))
        fail_msg("%s: no line '%s' in:\n%s", what, line, text);
}

/* A finished game opens at its last attempt; a game lost by an illegal attempt at that attempt, marked (outlined
 * and crossed) on the true board and the mover's view only; a crash at the last attempt before it, unmarked;
 * ?ply=N opens attempt N; on a phone (390 px) the page does not scroll sideways and the slider and buttons are
 * inside the window; on a desktop the mark's red is on the screenshot. */
static void game_viewer_opens_at_the_end_or_the_forfeit(void **state)
{
    (void)state;
    BROWSER_OR_SKIP();
    char cfg[128], db[128], text[4096];
    snprintf(cfg, sizeof cfg, "%s/forfeit.ini", tmp);
    snprintf(db, sizeof db, "%s/forfeit.db", tmp);
    snprintf(text, sizeof text,
             "[league]\nname = forfeit\nvariants = classical\nboards = 5x5\ngames = 2\nopening_stones = 2\n"
             "[agent random]\ncommand = %s/random\n[agent other]\ncommand = %s/random\nargs = --seed 7\n"
             "[agent illegal]\ncommand = %s/misbehave\nargs = --mode illegal\n"
             "[agent quitter]\ncommand = %s/misbehave\nargs = --mode exit\n",
             bin, bin, agents, agents);
    write_file(cfg, text);
    assert_int_equal(sh_run("'%s/arena' league '%s' --db '%s' --logs '%s/logs' --quiet >/dev/null 2>&1", bin, cfg, db,
                            tmp),
                     0);
    char sql[300], want[160];

    /* a game won by connection: its last attempt, no forfeit */
    long id = db_scalar(db, "SELECT coalesce(min(id), 0) FROM games WHERE reason = 'connected'");
    assert_true(id > 0);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM attempts WHERE game_id = %ld", id);
    long n = db_scalar(db, sql);
    char *got = opened(db, id, "", 1280, NULL);
    snprintf(want, sizeof want, "ply %ld; slider %ld; attempt %ld of %ld", n, n, n, n);
    expect_line("a connected game", got, want);
    assert_null(strstr(got, "forfeit"));
    expect_line("a connected game", got, "truth []");
    free(got);
    got = opened(db, id, "?ply=1", 1280, NULL);
    snprintf(want, sizeof want, "ply 1; slider 1; attempt 1 of %ld", n);
    expect_line("?ply=1", got, want);
    free(got);

    /* lost by an illegal attempt at a cell of the board: one frame more, the cell marked where it applies */
    id = db_scalar(db, "SELECT coalesce(min(id), 0) FROM games WHERE reason = 'illegal' AND detail GLOB '[a-e][1-5]:*'");
    assert_true(id > 0);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM attempts WHERE game_id = %ld", id);
    n = db_scalar(db, sql);
    snprintf(sql, sizeof sql, "SELECT winner || detail FROM games WHERE id = %ld", id);
    char *row = db_text(db, sql);
    int cell = (atoi(row + 2) - 1) * 5 + (row[1] - 'a');
    bool black_lost = row[0] == 'W';
    free(row);
    char harness[2][256];
    long red[2];
    for (int k = 0; k < 2; k++) { /* at the forfeit, then at ?ply=1 (the control: no mark) */
        got = opened(db, id, k ? "?ply=1" : "", 1280, harness[k]);
        if (k == 0) {
            snprintf(want, sizeof want, "ply %ld; slider %ld; attempt %ld of %ld", n + 1, n + 1, n + 1, n + 1);
            expect_line("an illegal attempt", got, want);
            expect_line("an illegal attempt", got, "class illegal forfeit");
            snprintf(want, sizeof want, "truth [%d]", cell);
            expect_line("an illegal attempt", got, want);
            snprintf(want, sizeof want, "%s [%d]", black_lost ? "black" : "white", cell);
            expect_line("an illegal attempt", got, want);
            expect_line("an illegal attempt", got, black_lost ? "white []" : "black []");
        } else { /* the address overrides; no mark at another attempt */
            snprintf(want, sizeof want, "ply 1; slider 1; attempt 1 of %ld", n + 1);
            expect_line("?ply=1", got, want);
            expect_line("?ply=1", got, "truth []");
        }
        /* the mark is seen: the red (#d50000) pixels in the true board's box on a desktop screenshot */
        int x0, y0, x1, y1;
        const char *b = strstr(got, "truth-box ");
        assert_non_null(b);
        assert_int_equal(sscanf(b, "truth-box %d %d %d %d", &x0, &y0, &x1, &y1), 4);
        free(got);
        char png[300];
        snprintf(png, sizeof png, "%.250s.png", harness[k]);
        assert_int_equal(browser_screenshot(harness[k], png, 1380, 1000), 0);
        browser_image im = { 0 };
        assert_int_equal(browser_image_read(png, &im), 0);
        red[k] = 0;
        for (int y = y0; y < y1 && y < im.h; y++)
            for (int x = x0; x < x1 && x < im.w; x++)
                red[k] += is(&im, x, y, 0xd50000);
        browser_image_free(&im);
    }
    printf("red pixels on the true board: %ld at the forfeit, %ld at attempt 1\n", red[0], red[1]);
    if (red[0] < 150 || red[1] > 10)
        fail_msg("the illegal attempt's mark is not seen on the true board: %ld red pixels at the forfeit, %ld at "
                 "attempt 1", red[0], red[1]);
    got = opened(db, id, "", 390, NULL); /* on a phone */
    expect_line("on a phone", got, "overflow 0");
    expect_line("on a phone", got, "controls inside");
    snprintf(want, sizeof want, "truth [%d]", cell);
    expect_line("on a phone", got, want);
    free(got);

    /* a crash: the last attempt before it, the forfeit said and nothing marked */
    id = db_scalar(db, "SELECT coalesce(min(id), 0) FROM games WHERE reason = 'crash'");
    assert_true(id > 0);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM attempts WHERE game_id = %ld", id);
    n = db_scalar(db, sql);
    got = opened(db, id, "", 1280, NULL);
    snprintf(want, sizeof want, "ply %ld; slider %ld; attempt %ld of %ld", n, n, n, n);
    expect_line("a crash", got, want);
    expect_line("a crash", got, " forfeit\n");
    expect_line("a crash", got, "truth []");
    free(got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(heatmap_cells_have_the_colour_of_their_value),
        cmocka_unit_test(nightly_page_renders_with_every_section),
        cmocka_unit_test(game_viewer_steps_through_the_stored_games),
        cmocka_unit_test(game_viewer_opens_at_the_end_or_the_forfeit),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
