/* agents/trainer/lcurve.c — reopening a trainer's CSV curve at its checkpoint (see curve.h). */
#define _GNU_SOURCE
#include "lcurve.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

FILE *sv_curve_open(const char *path, long upto, const char *header, char *err, size_t errlen)
{
    FILE *in = fopen(path, "r");
    char *kept = NULL;
    size_t kept_len = 0;
    if (in) {
        FILE *mem = open_memstream(&kept, &kept_len);
        char line[512];
        while (mem && fgets(line, sizeof line, in)) {
            char *end;
            long n = strtol(line, &end, 10);
            if (end == line || n <= upto)
                fputs(line, mem);
        }
        if (mem)
            fclose(mem);
        fclose(in);
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        free(kept);
        return NULL;
    }
    if (kept_len)
        fwrite(kept, 1, kept_len, f);
    else
        fputs(header, f);
    free(kept);
    fflush(f);
    return f;
}
