/* arena/base/utf8.c — names safe to show (contract in utf8.h): a strict UTF-8 decoder (no overlong forms, no
 * surrogates, nothing above U+10FFFF) and the code points refused. */
#include "utf8.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The next code point of s at *i (advanced), or -1 when the bytes there are not valid UTF-8. */
static int32_t next(const unsigned char *s, size_t *i)
{
    unsigned c = s[*i];
    int len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
    if (!len)
        return -1;
    uint32_t cp = len == 1 ? c : len == 2 ? c & 0x1f : len == 3 ? c & 0x0f : c & 0x07;
    for (int k = 1; k < len; k++) {
        if ((s[*i + (size_t)k] & 0xc0) != 0x80)
            return -1;
        cp = cp << 6 | (s[*i + (size_t)k] & 0x3f);
    }
    static const uint32_t least[5] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (cp < least[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return -1;
    *i += (size_t)len;
    return (int32_t)cp;
}

static bool invisible(uint32_t c)
{
    return c == 0x061c || c == 0x180e || (c >= 0x200b && c <= 0x200f) || (c >= 0x2028 && c <= 0x202e) ||
           (c >= 0x2060 && c <= 0x206f) || c == 0xfeff || (c >= 0xfff9 && c <= 0xfffb) ||
           (c >= 0xe0000 && c <= 0xe007f);
}

const char *utf8_unsafe(const char *text)
{
    static _Thread_local char why[64];
    const unsigned char *s = (const unsigned char *)text;
    for (size_t i = 0; s[i];) {
        int32_t c = next(s, &i);
        if (c < 0)
            return "not valid UTF-8";
        if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
            snprintf(why, sizeof why, "a control character (U+%04X)", (unsigned)c);
            return why;
        }
        if (invisible((uint32_t)c)) {
            snprintf(why, sizeof why, "an invisible formatting character (U+%04X)", (unsigned)c);
            return why;
        }
    }
    return NULL;
}
