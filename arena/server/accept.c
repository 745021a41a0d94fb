/* arena/server/accept.c — content negotiation (contract in server.h, ws_accept_json): an Accept header's media
 * ranges with their quality (RFC 9110 12.5.1), weighing JSON against HTML for the pages drawn both ways. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "server.h"

/* A quality value (RFC 9110 12.4.2: "0" to "1" with at most three decimals, "1" only as 1, 1.0, 1.00 or 1.000) from
 * s to its end, trailing spaces allowed; -1 when s is not one (hex, "nan", ".5", 1.5, ...). */
static double qvalue(const char *s)
{
    if (s[0] != '0' && s[0] != '1')
        return -1;
    int thousandths = (s[0] - '0') * 1000, k = 1, scale = 100;
    if (s[k] == '.')
        for (k++; k <= 4 && s[k] >= '0' && s[k] <= '9'; k++, scale /= 10) {
            if (s[0] == '1' && s[k] != '0')
                return -1;
            thousandths += (s[k] - '0') * scale;
        }
    return s[k + (int)strspn(s + k, " \t")] ? -1 : thousandths / 1000.0; /* equal texts, equal qualities */
}

/* The quality an Accept header gives type/sub: that of its most specific matching range (an exact one, then
 * type/ *, then * / *), 0 when none matches. A range whose q is not a quality value is skipped. */
static double quality(const char *accept, const char *type, const char *sub)
{
    double best_q = 0;
    int best = 0;
    const char *p = accept;
    while (*p) {
        size_t n = strcspn(p, ",");
        char range[256];
        snprintf(range, sizeof range, "%.*s", (int)(n < sizeof range - 1 ? n : sizeof range - 1), p);
        p += n + (p[n] == ',');
        char *params = strchr(range, ';');
        if (params)
            *params++ = '\0';
        char *t = range + strspn(range, " \t"), *slash = strchr(t, '/');
        if (!slash)
            continue;
        *slash = '\0';
        char *s = slash + 1;
        s[strcspn(s, " \t")] = '\0';
        double q = 1;
        bool bad = false;
        for (char *param = params; param && *param;) {
            char *next = strchr(param, ';');
            if (next)
                *next++ = '\0';
            param += strspn(param, " \t");
            if ((param[0] == 'q' || param[0] == 'Q') && param[1] == '=') {
                q = qvalue(param + 2);
                bad = q < 0;
            }
            param = next;
        }
        int spec = strcasecmp(t, type) == 0 ? (strcasecmp(s, sub) == 0 ? 3 : strcmp(s, "*") == 0 ? 2 : 0)
                   : strcmp(t, "*") == 0 && strcmp(s, "*") == 0 ? 1 : 0;
        if (!bad && spec > best) {
            best = spec;
            best_q = q;
        }
    }
    return best_q;
}

bool ws_accept_json(const char *accept)
{
    if (!accept)
        return false;
    double json = quality(accept, "application", "json");
    return json > 0 && json > quality(accept, "text", "html");
}
