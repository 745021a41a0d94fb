/* tests/e2e/test_browser.c — the reports as a reader sees them, in a real browser (headless Chromium,
 * tests/browser.h): the nightly page of a small league of two nights renders (a screenshot that is not blank,
 * on a desktop and on a phone, with the heatmaps' colours on it) and its DOM has every section with its
 * content; a win-matrix SVG shows each cell in the colour of its value, with no smoothing — checked against a
 * heatmap drawn `with image`, which browsers smooth, so that the check is seen to fail where it must. */
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

static const char *const sections[] = { "warnings", "settings", "agents",   "ratings",  "changes",  "head-to-head",
                                        "matrices", "variants", "history",  "forfeits", "time-use", "repeats" };

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
             "[agent quitter]\ncommand = %s/misbehave\nargs = --mode exit\n",
             bin, bin, agents);
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
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
        char *s = section_of(dom, sections[i]);
        if (!s)
            fail_msg("the page has no section '%s':\n%.2000s", sections[i], dom);
        if (!strstr(s, "<h2>"))
            fail_msg("section '%s' has no heading", sections[i]);
        free(s);
    }
    /* what each section must hold, from this league */
    static const struct {
        const char *id, *part;
    } holds[] = {
        { "warnings", "forfeited" },
        { "settings", "time per move" },
        { "settings", "arena version" },
        { "settings", "2026-11-21" },
        { "agents", "--mode exit" },
        { "agents", "<td>1.0</td>" },
        { "ratings", "first-move advantage" },
        { "ratings", "<img src=\"ratings-pooled.svg\"" },
        { "changes", "<th class=\"num\">previous</th>" },
        { "head-to-head", "<th class=\"num\">los%</th>" },
        { "matrices", "<img src=\"matrix-abrupt-3x3.svg\"" },
        { "matrices", "<img src=\"matrix-classical-3x3.svg\"" },
        { "variants", "<img src=\"ratings-classical-3x3.svg\"" },
        { "history", "<img src=\"history.svg\"" },
        { "forfeits", "<a href=\"logs/league-nightly-quitter-" },
        { "forfeits", "<td>quitter</td>" },
        { "time-use", "<th class=\"num\">median</th>" },
        { "repeats", "repeat an earlier game" },
    };
    for (size_t i = 0; i < sizeof holds / sizeof holds[0]; i++) {
        char *s = section_of(dom, holds[i].id);
        assert_non_null(s);
        expect_in(holds[i].id, s, holds[i].part);
        free(s);
    }
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
    browser_image im;
    assert_int_equal(browser_image_read(png, &im), 0);
    double ink = browser_ink(&im);
    if (ink < 0.02)
        fail_msg("the desktop screenshot is blank: %.2f%% of it differs from the background", 100 * ink);
    if (find(&im, 0xb2182b).n < 400) /* the quitter's 0% cells */
        fail_msg("no heatmap cell on the desktop screenshot: the SVG images did not load");
    browser_image_free(&im);
    /* on a phone: the page fits, not blank */
    snprintf(png, sizeof png, "%s/phone.png", tmp);
    assert_int_equal(browser_screenshot(page, png, 390, 1600), 0);
    assert_int_equal(browser_image_read(png, &im), 0);
    ink = browser_ink(&im);
    if (ink < 0.02)
        fail_msg("the phone screenshot is blank: %.2f%% of it differs from the background", 100 * ink);
    browser_image_free(&im);

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(heatmap_cells_have_the_colour_of_their_value),
        cmocka_unit_test(nightly_page_renders_with_every_section),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
