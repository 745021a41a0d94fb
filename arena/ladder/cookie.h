/* arena/ladder/cookie.h — the session cookie of the ladder's pages: `arena_session`, HttpOnly (no script reads it),
 * SameSite=Strict (no other site's page sends it), Path=/, for LD_SESSION_SECONDS, and Secure when the ladder is
 * served over TLS (a reverse proxy, docs/ladder.md); and finding a cookie in a request's Cookie header. */
#ifndef ARENA_LADDER_COOKIE_H
#define ARENA_LADDER_COOKIE_H

#include <stdbool.h>
#include <stddef.h>

#define LD_COOKIE "arena_session"

/* The Set-Cookie value for a session's secret (value "" with Max-Age=0: the cookie removed). Returns 0, or -1 when
 * out (n bytes) is too small. */
int ld_cookie_header(const char *value, bool secure, char *out, size_t n);

/* The value of cookie `name` in a Cookie header ("a=1; b=2") into out (n bytes): true when present and it fits. */
bool ld_cookie_get(const char *header, const char *name, char *out, size_t n);

#endif
