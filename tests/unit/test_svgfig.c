/* tests/unit/test_svgfig.c — the pages' inline figures (arena/report/svgfig.h): names and links escaped whatever
 * they hold (markup, quotes, control bytes), no value written "-0" (ticks and labels of values that round to
 * zero), the heatmap's colours at 0, 50 and 100% and a cell without games left blank, every drawing one <svg>
 * element with its viewBox and every element it opens closed. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "svgfig.h"

static const char *const hostile[] = { "<img src=x onerror=alert(1)>", "a\"b'c&d", "tab\there\x01" };

/* No raw markup from a name: none of the hostile strings appears as it is, and the drawing is balanced. */
static void well_formed(const char *svg)
{
    assert_non_null(svg);
    assert_int_equal(strncmp(svg, "<svg viewBox=\"0 0 ", 18), 0);
    assert_non_null(strstr(svg, "</svg>"));
    assert_null(strstr(svg, "<img"));
    assert_null(strstr(svg, "a\"b"));
    assert_null(strchr(svg, '\t'));
    assert_null(strchr(svg, '\x01'));
    assert_non_null(strstr(svg, "&lt;img src=x onerror=alert(1)&gt;"));
    assert_non_null(strstr(svg, "a&quot;b&#39;c&amp;d"));
    int open = 0, close = 0; /* <text ...> and </text> pair up */
    for (const char *p = svg; (p = strstr(p, "<text ")) != NULL; p++)
        open++;
    for (const char *p = svg; (p = strstr(p, "</text>")) != NULL; p++)
        close++;
    assert_int_equal(open, close);
    for (const char *p = svg; (p = strstr(p, ">-0<")) != NULL; p++)
        fail_msg("a value written -0: %.60s", p > svg + 30 ? p - 30 : svg);
    assert_null(strstr(svg, "(-0"));
    assert_null(strstr(svg, "..-0)"));
}

static void ratings_escape_names_and_never_say_minus_zero(void **state)
{
    (void)state;
    double elo[3] = { 0.3, -0.2, -0.49 }, lo[3] = { -0.4, -1.2, NAN }, hi[3] = { 1.1, 0.4, NAN };
    const char *href[3] = { "/agent/1?x=\"<>", NULL, NULL };
    char *svg = sv_ratings("title <b>", "caption & more", 3, hostile, elo, lo, hi, href);
    well_formed(svg);
    assert_non_null(strstr(svg, "href=\"/agent/1?x=&quot;&lt;&gt;\""));
    assert_non_null(strstr(svg, ">0 (0..+1)<")); /* 0.3 in -0.4..1.1 */
    free(svg);
}

static void a_heatmap_cell_has_the_colour_of_its_score(void **state)
{
    (void)state;
    assert_int_equal(sv_score_colour(0), 0xb2182b);
    assert_int_equal(sv_score_colour(50), 0xf7f7f7);
    assert_int_equal(sv_score_colour(100), 0x2166ac);
    assert_int_equal(sv_score_colour(-5), 0xb2182b);
    long wins[9] = { 0, 3, 0, 0, 0, 1, 2, 1, 0 }, games[9] = { 0, 3, 0, 3, 0, 2, 2, 2, 0 };
    const char *cells[9] = { NULL, "/pairing/1/2", NULL };
    char *svg = sv_matrix("m", 3, hostile, wins, games, NULL, cells);
    well_formed(svg);
    assert_non_null(strstr(svg, "fill=\"#2166ac\"")); /* 3-0 */
    assert_non_null(strstr(svg, "fill=\"#b2182b\"")); /* 0-3 */
    assert_non_null(strstr(svg, "fill=\"#f7f7f7\"")); /* 1-1 */
    assert_non_null(strstr(svg, ">3-0<"));
    assert_non_null(strstr(svg, "<a href=\"/pairing/1/2\">"));
    int rects = 0; /* the background, 6 cells with games, 3 blank (the diagonal and [0][2]) */
    for (const char *p = svg; (p = strstr(p, "<rect")) != NULL; p++)
        rects++;
    assert_int_equal(rects, 1 + 9);
    free(svg);
}

static void history_breaks_its_line_where_a_player_did_not_play(void **state)
{
    (void)state;
    const char *nights[3] = { "2026-11-20", "2026-11-21 #<3>", "2026-11-22" };
    double elo[9] = { 10, NAN, 12, -0.3, 0.2, -0.1, NAN, NAN, NAN }, lo[9], hi[9];
    for (int k = 0; k < 9; k++)
        lo[k] = elo[k] - 5, hi[k] = elo[k] + 5;
    char *svg = sv_history("h", 3, nights, 3, hostile, elo, lo, hi, NULL);
    well_formed(svg);
    int lines = 0;
    for (const char *p = svg; (p = strstr(p, "<polyline")) != NULL; p++)
        lines++;
    assert_int_equal(lines, 3); /* two pieces for the first player, one for the second, none for the third */
    assert_non_null(strstr(svg, "2026-11-21 #&lt;3&gt;"));
    free(svg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ratings_escape_names_and_never_say_minus_zero),
        cmocka_unit_test(a_heatmap_cell_has_the_colour_of_its_score),
        cmocka_unit_test(history_breaks_its_line_where_a_player_did_not_play),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
