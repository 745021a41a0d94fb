/* arena/ladder/ini.h — the INI text of a submission's manifest and of LADDER.ini: optional [section] headers,
 * `key = value` lines, comments (a line starting with '#' or ';', and after a value or a header a '#' or ';' that
 * follows a space, outside quotes, as in every config of the project: cfg_cut_comment), blank lines, a UTF-8 byte
 * order mark and CRLF line ends. Every key = value is handed to a callback with its section ("" before any header) and line. A NUL byte, a
 * line that is neither a header nor key = value, or a key repeated within its section is refused; so is whatever the
 * callback refuses. Errors are one printable line: "FILE:LINE: [section] key: why" (no "[section] " before any
 * header). Values are trimmed; a '#' or ';' inside a value (not after a space) is part of it. */
#ifndef ARENA_LADDER_INI_H
#define ARENA_LADDER_INI_H

#include <stddef.h>

#define INI_MAX_KEYS 256           /* key = value lines of one text */
#define INI_MAX_NAME 64            /* characters of a section or key name */

/* One key = value: returns 0, or -1 with a reason in why (without file, line or key: the parser adds them). */
typedef int (*ini_fn)(void *user, const char *section, const char *key, const char *value, int line, char *why,
                      size_t whylen);

/* Parses len bytes of text named `path` in messages. Returns 0, or -1 with the first problem in err. */
int ini_parse(const char *text, size_t len, const char *path, ini_fn fn, void *user, char *err, size_t errlen);

#endif
