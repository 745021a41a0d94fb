/* arena/report/die.c — the report library's exits (contract in die.h). */
#include "die.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void die_vexit(int status, const char *cmd, const char *fmt, va_list ap)
{
    fprintf(stderr, "arena %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    exit(status);
}

void die_fail(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    die_vexit(DIE_FAILED, cmd, fmt, ap);
}

void die_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    die_vexit(DIE_USAGE, cmd, fmt, ap);
}

void *die_check(const char *cmd, void *p)
{
    if (!p)
        die_fail(cmd, "out of memory");
    return p;
}
