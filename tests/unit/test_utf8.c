/* tests/unit/test_utf8.c — names safe to show (arena/base/utf8.h): plain and accented names pass; malformed UTF-8
 * (bad continuation, overlong, surrogate, past U+10FFFF), controls (C0, DEL, C1) and invisible formatting (the
 * bidi override U+202E that makes "evil\u202Egnp.exe" read as "evilexe.png", isolates, zero-width characters) are
 * refused, naming the code point; and a league config refuses such a name for a league or an agent, by line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "test_util.h"
#include "utf8.h"

static void names_safe_to_show(void **state)
{
    (void)state;
    const char *ok[] = { "random", "bridge-builder_2.0", "Gal\xc3\xa9", "\xe5\x9c\x8d\xe6\xa3\x8b", "\xf0\x9f\x99\x82",
                         "" };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (utf8_unsafe(ok[i]))
            fail_msg("'%s' refused: %s", ok[i], utf8_unsafe(ok[i]));
    const struct {
        const char *text, *why;
    } bad[] = {
        { "evil\xe2\x80\xaegnp.exe", "an invisible formatting character (U+202E)" },
        { "a\xe2\x81\xa6" "b", "an invisible formatting character (U+2066)" },
        { "zero\xe2\x80\x8bwidth", "an invisible formatting character (U+200B)" },
        { "mark\xe2\x80\x8f", "an invisible formatting character (U+200F)" },
        { "bom\xef\xbb\xbf", "an invisible formatting character (U+FEFF)" },
        { "bell\x07", "a control character (U+0007)" },
        { "del\x7f", "a control character (U+007F)" },
        { "c1\xc2\x9b", "a control character (U+009B)" },
        { "cut\xc3", "not valid UTF-8" },
        { "\xc0\xaf", "not valid UTF-8" },          /* an overlong '/' */
        { "\xed\xa0\x80", "not valid UTF-8" },      /* a surrogate */
        { "\xf4\x90\x80\x80", "not valid UTF-8" },  /* past U+10FFFF */
        { "\x80", "not valid UTF-8" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *why = utf8_unsafe(bad[i].text);
        if (!why || strcmp(why, bad[i].why) != 0)
            fail_msg("case %zu: %s, expected %s", i, why ? why : "accepted", bad[i].why);
    }
}

static void a_league_refuses_such_names(void **state)
{
    (void)state;
    const struct {
        const char *text, *why;
    } cases[] = {
        { "[league]\nname = n\xe2\x80\xaeght\nvariants = classical\nboards = 3x3\ngames = 2\n",
          "l.ini:2: [league] name: the name holds an invisible formatting character (U+202E)" },
        { "[league]\nname = n\nvariants = classical\nboards = 3x3\ngames = 2\n[agent a\xe2\x80\xae" "b]\ncommand = x\n",
          "l.ini:6: [agent ...]: an agent's name holds an invisible formatting character (U+202E)" },
        { "[league]\nname = n\nvariants = classical\nboards = 3x3\ngames = 2\n[agent a]\ncommand = x\n"
          "name = r\xc2\x85x\n",
          "l.ini:8: [agent a] name: the name holds a control character (U+0085)" },
    };
    cfg_league *c = calloc(1, sizeof *c);
    char err[1024];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_not_equal(cfg_parse(cases[i].text, strlen(cases[i].text), "l.ini", c, err, sizeof err), 0);
        if (!strstr(err, cases[i].why))
            fail_msg("case %zu: %s\nexpected: %s", i, err, cases[i].why);
    }
    free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_safe_to_show),
        cmocka_unit_test(a_league_refuses_such_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
