/* arena/base/json.h — the one JSON string writer: every program's --json output quotes text with it, so
 * an agent name, a path or a detail with quotes, backslashes or control bytes stays valid JSON. */
#ifndef ARENA_BASE_JSON_H
#define ARENA_BASE_JSON_H

#include <stdio.h>

/* Writes s to f as a JSON string literal, quotes included: '"' and '\' escaped, bytes below 0x20 as
 * \u00XX; other bytes (UTF-8 included) as they are. */
void json_string(FILE *f, const char *s);

#endif
