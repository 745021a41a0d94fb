/* tests/unit/test_accept.c — content negotiation of `arena serve` (ws_accept_json, arena/server/accept.c): JSON
 * only when application/json's quality, from its most specific range (wildcards included), is above zero and
 * above text/html's; a tie, no header or no range for either is HTML; a range whose q is not a quality value
 * (RFC 9110: 0 to 1 with at most three decimals) is skipped. */
#include <stdio.h>
#include <string.h>

#include "server.h"
#include "test_util.h"

static const struct {
    const char *accept;
    bool json;
} cases[] = {
    { NULL, false },
    { "", false },
    { "application/json", true },
    { "text/html", false },
    { "application/json;q=0, text/html", false },
    { "application/json;q=0.5, text/html;q=0.4", true },
    { "*/*", false },
    { "application/*", true },
    { "text/html;q=0, application/json", true },
    { "text/html, application/json", false },                  /* a tie */
    { "application/json;q=0.5, text/html;q=0.5", false },      /* a tie */
    { "application/json;q=0.5", true },                        /* no range covers HTML */
    { "text/*;q=0.2, application/json;q=0.3", true },
    { "application/json;q=0.8, */*;q=0.9", false },            /* the specific range counts for JSON */
    { "application/json;q=0, */*", false },
    { "application/*;q=0, application/json;q=0.1", true },     /* the exact range over the wildcard */
    { "*/*;q=0.1, text/html;q=0", true },
    { " application/json ; q=0.7 , text/html;q=0.6", true },   /* spaces around the parts */
    { "APPLICATION/JSON;Q=0.9, text/html;q=0.8", true },       /* names and q in either case */
    { "application/json;charset=utf-8;q=0.9, text/html;q=0.8", true },
    { "application/json, text/plain;q=0.5", true },
    { "application/json;q=abc", false },                       /* malformed q: the range is skipped */
    { "application/json;q=nan", false },
    { "application/json;q=inf", false },
    { "application/json;q=0x1", false },
    { "application/json;q=1.0001", false },                    /* more than three decimals */
    { "application/json;q=1.5", false },
    { "application/json;q=-0.5", false },
    { "application/json;q=", false },
    { "application/json;q=.5", false },
    { "application/json;q=1.000, text/html;q=0.999", true },
    { "application/json;q=0.001, text/html;q=0", true },
    { "application/json;q=0.000", false },
    { "application/json, text/html;q=abc", true },             /* HTML's malformed range skipped */
    { "application", false },                                  /* no slash: not a range */
    { "application/jsonx", false },
    { "text/html;level=1;q=0.4, application/json;q=0.6", true },
};

static void each_header_as_expected(void **state)
{
    (void)state;
    int wrong = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bool got = ws_accept_json(cases[i].accept);
        if (got != cases[i].json) {
            fprintf(stderr, "Accept: %s -> %s, expected %s\n", cases[i].accept ? cases[i].accept : "(none)",
                    got ? "JSON" : "HTML", cases[i].json ? "JSON" : "HTML");
            wrong++;
        }
    }
    assert_int_equal(wrong, 0);
}

/* A header longer than a range's buffer, and many ranges: an answer, the one of its ranges. */
static void long_headers(void **state)
{
    (void)state;
    char h[8192];
    size_t k = 0;
    for (int i = 0; i < 300; i++)
        k += (size_t)snprintf(h + k, sizeof h - k, "text/x%d;q=0.1, ", i);
    snprintf(h + k, sizeof h - k, "application/json;q=0.2");
    assert_true(ws_accept_json(h));
    memset(h, 'a', sizeof h - 1);
    h[sizeof h - 1] = '\0';
    assert_false(ws_accept_json(h));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_header_as_expected),
        cmocka_unit_test(long_headers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
