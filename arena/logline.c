/* arena/logline.c — timestamped lines appended to log files. */
#include "logline.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

void log_line(const char *path, const char *fmt, ...)
{
    FILE *f = fopen(path, "a");
    if (!f)
        return;
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
    fprintf(f, "[arena %s.%03ldZ] ", stamp, ts.tv_nsec / 1000000);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
    fclose(f);
}
