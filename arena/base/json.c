/* arena/base/json.c — JSON string literals and numbers. */
#include "json.h"

#include <math.h>

void json_string(FILE *f, const char *s)
{
    putc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            putc(c, f);
    }
    putc('"', f);
}

void json_number(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.17g", v + 0.0);
    else
        fputs("null", f);
}

void json_fixed(FILE *f, double v, int decimals)
{
    if (isfinite(v))
        fprintf(f, "%.*f", decimals, v);
    else
        fputs("null", f);
}
