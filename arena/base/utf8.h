/* arena/base/utf8.h — names safe to show: text a page, a table or a terminal draws as it reads, valid UTF-8 with no
 * control character (C0, DEL, C1) and no invisible formatting that reorders or hides what surrounds it (the bidi
 * controls U+202A..U+202E and U+2066..U+2069, the marks U+200E, U+200F and U+061C, zero-width characters, line and
 * paragraph separators, tags). */
#ifndef ARENA_BASE_UTF8_H
#define ARENA_BASE_UTF8_H

/* NULL when s is safe to show, else what is wrong with it ("not valid UTF-8", "a control character (U+0007)",
 * "an invisible formatting character (U+202E)"), in a static string. */
const char *utf8_unsafe(const char *s);

#endif
