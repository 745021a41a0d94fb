/* arena/base/url.c — the percent-encoding of a path segment (contract in url.h). */
#include "url.h"

#include <stdbool.h>
#include <string.h>

int url_encode(char *out, size_t size, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t k = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        bool plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                     (*p && strchr("-._~", *p));
        size_t need = plain ? 1 : 3;
        if (k + need >= size) {
            if (size)
                out[0] = '\0';
            return -1;
        }
        if (plain)
            out[k++] = (char)*p;
        else {
            out[k++] = '%';
            out[k++] = hex[*p >> 4];
            out[k++] = hex[*p & 15];
        }
    }
    if (k >= size) {
        if (size)
            out[0] = '\0';
        return -1;
    }
    out[k] = '\0';
    return (int)k;
}
