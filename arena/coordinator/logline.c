/* arena/coordinator/logline.c — timestamped lines appended to log files. */
#include "logline.h"
#include "isotime.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

void log_line(const char *path, const char *fmt, ...)
{
    FILE *f = fopen(path, "a");
    if (!f)
        return;
    char stamp[ISO_LEN];
    iso_now(stamp);
    fprintf(f, "[arena %s] ", stamp);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
    fclose(f);
}
