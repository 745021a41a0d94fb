/* arena/base/url.h — text put into a URL: the percent-encoding of one path segment, so that a name of any bytes
 * becomes a link that a server decoding %XX reads back as the same name. */
#ifndef ARENA_BASE_URL_H
#define ARENA_BASE_URL_H

#include <stddef.h>

/* Writes s into out (size bytes, the NUL included) with every byte other than the unreserved A-Z a-z 0-9 - . _ ~
 * written as %XX (upper-case hex): spaces, quotes, markup, '%', '/', '?', '#', control bytes and UTF-8 alike. Returns
 * the length written, or -1 when it does not fit (out is then ""). */
int url_encode(char *out, size_t size, const char *s);

#endif
