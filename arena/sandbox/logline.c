/* arena/sandbox/logline.c — timestamped lines appended to log files. */
#include "logline.h"
#include "isotime.h"

#include <stdio.h>
#include <time.h>

size_t log_format(char *out, size_t n, const char *fmt, va_list ap)
{
    char stamp[ISO_LEN];
    iso_now(stamp);
    int used = snprintf(out, n - 1, "[arena %s] ", stamp);
    if (used < 0)
        used = 0;
    if ((size_t)used < n - 1) {
        int more = vsnprintf(out + used, n - 1 - (size_t)used, fmt, ap);
        used += more < 0 ? 0 : more;
    }
    size_t len = (size_t)used < n - 2 ? (size_t)used : n - 2;
    out[len++] = '\n';
    out[len] = '\0';
    return len;
}

void log_line(const char *path, const char *fmt, ...)
{
    FILE *f = fopen(path, "a");
    if (!f)
        return;
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    size_t len = log_format(line, sizeof line, fmt, ap);
    va_end(ap);
    fwrite(line, 1, len, f);
    fclose(f);
}
