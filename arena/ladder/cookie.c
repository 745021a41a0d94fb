/* arena/ladder/cookie.c — the session cookie written and read (cookie.h). */
#include "cookie.h"

#include <stdio.h>
#include <string.h>

#include "accounts.h"

int ld_cookie_header(const char *value, bool secure, char *out, size_t n)
{
    int k = snprintf(out, n, "%s=%s; Path=/; HttpOnly; SameSite=Strict; Max-Age=%d%s", LD_COOKIE, value,
                     value[0] ? LD_SESSION_SECONDS : 0, secure ? "; Secure" : "");
    return k < 0 || (size_t)k >= n ? -1 : 0;
}

bool ld_cookie_get(const char *header, const char *name, char *out, size_t n)
{
    size_t len = strlen(name);
    for (const char *p = header; p && *p;) {
        p += strspn(p, " \t;");
        const char *end = p + strcspn(p, ";");
        if ((size_t)(end - p) > len && strncmp(p, name, len) == 0 && p[len] == '=') {
            size_t k = (size_t)(end - p) - len - 1;
            if (k >= n)
                return false;
            memcpy(out, p + len + 1, k);
            out[k] = '\0';
            return true;
        }
        p = *end ? end + 1 : NULL;
    }
    return false;
}
