/* arena/base/isotime.c — UTC timestamps. */
#include "isotime.h"

#include <stdio.h>
#include <time.h>

void iso_now(char out[ISO_LEN])
{
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    size_t n = strftime(out, ISO_LEN, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out + n, ISO_LEN - n, ".%03ldZ", ts.tv_nsec / 1000000);
}
