/* arena/base/json.h — the JSON string and number writers: every program's --json output quotes text with them,
 * so an agent name, a path or a detail with quotes, backslashes or control bytes stays valid JSON, and writes
 * numbers with them, so a NaN or an infinity is null, never a token JSON does not have. */
#ifndef ARENA_BASE_JSON_H
#define ARENA_BASE_JSON_H

#include <stdio.h>

/* Writes s to f as a JSON string literal, quotes included: '"' and '\' escaped, bytes below 0x20 as
 * \u00XX; other bytes (UTF-8 included) as they are. */
void json_string(FILE *f, const char *s);

/* Writes v as a JSON number that reads back as the same double ("%.17g"; -0 as 0), or null when v is NaN or
 * infinite. */
void json_number(FILE *f, double v);

/* Writes v with `decimals` digits after the point ("%.*f"), or null when v is NaN or infinite. */
void json_fixed(FILE *f, double v, int decimals);

#endif
