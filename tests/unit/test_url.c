/* tests/unit/test_url.c — the percent-encoding of a name in a link (arena/base/url.h): the unreserved bytes kept,
 * every other byte (markup, quotes, '%', '/', '?', '#', spaces, control bytes, UTF-8) as %XX, and decoding the
 * result gives the name back; a buffer too small is refused whole, never cut. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "url.h"

/* %XX decoded, as a server does. */
static void decode(const char *in, char *out)
{
    size_t k = 0;
    for (size_t i = 0; in[i]; i++) {
        unsigned v;
        if (in[i] == '%' && sscanf(in + i + 1, "%2x", &v) == 1) {
            out[k++] = (char)v;
            i += 2;
        } else
            out[k++] = in[i];
    }
    out[k] = '\0';
}

static void names_round_trip(void **state)
{
    (void)state;
    char out[512], back[512];
    assert_int_equal(url_encode(out, sizeof out, "league-small_1.2~x-random-3.log"), 31);
    assert_string_equal(out, "league-small_1.2~x-random-3.log");
    assert_int_equal(url_encode(out, sizeof out, "h<b>l&\"x y"), 20);
    assert_string_equal(out, "h%3Cb%3El%26%22x%20y");
    static const char *const names[] = { "a%41b", "a/b?c#d", "caf\xc3\xa9 \x01\x7f'+=;:,@!$()*[]", "" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        int n = url_encode(out, sizeof out, names[i]);
        assert_int_equal(n, (int)strlen(out));
        assert_int_equal(strspn(out, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~%"),
                         strlen(out));
        decode(out, back);
        assert_string_equal(back, names[i]);
    }
}

static void too_small_is_refused(void **state)
{
    (void)state;
    char out[8];
    assert_int_equal(url_encode(out, sizeof out, "abcdefg"), 7);
    assert_int_equal(url_encode(out, sizeof out, "abcdefgh"), -1);
    assert_string_equal(out, "");
    assert_int_equal(url_encode(out, sizeof out, "abcde<"), -1); /* 5 + 3 bytes and the NUL: 9 */
    assert_string_equal(out, "");
    assert_int_equal(url_encode(out, sizeof out, "abcd<"), 7);   /* 4 + 3 and the NUL: 8 */
    assert_string_equal(out, "abcd%3C");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_round_trip),
        cmocka_unit_test(too_small_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
