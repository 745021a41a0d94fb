/* arena/report/die.c — the report library's exits (contract in die.h). */
#include "die.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* Where the innermost die_catch of this thread returns to. */
typedef struct {
    jmp_buf env;
    int status;
    char *err;
    size_t errlen;
} die_trap;

static _Thread_local die_trap *trap;

int die_catch(void (*work)(void *arg), void *arg, char *err, size_t errlen)
{
    die_trap t = { .err = err, .errlen = errlen }, *volatile outer = trap;
    if (setjmp(t.env) != 0) {
        trap = outer;
        return t.status;
    }
    trap = &t;
    work(arg);
    trap = outer;
    return 0;
}

void die_vexit(int status, const char *cmd, const char *fmt, va_list ap)
{
    if (trap) {
        die_trap *t = trap;
        trap = NULL;
        t->status = status;
        vsnprintf(t->err, t->errlen, fmt, ap);
        longjmp(t->env, 1);
    }
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
