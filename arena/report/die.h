/* arena/report/die.h — how the report library gives up: the message "arena CMD: ..." on stderr and the exit
 * status every `arena` command uses for it (1 a failure of the system or database, 2 bad input), so a report
 * fails the same way from `arena report`, `arena ratings` or `arena plot`. A long-running caller (the server)
 * sets a trap first: then giving up returns to the trap with the message instead of exiting the process. */
#ifndef ARENA_REPORT_DIE_H
#define ARENA_REPORT_DIE_H

#include <stdarg.h>
#include <stddef.h>

/* The statuses: the same numbers as the CLI's CLI_FAILED and CLI_USAGE. */
enum { DIE_FAILED = 1, DIE_USAGE = 2 };

/* Prints "arena CMD: message" on stderr and exits with DIE_FAILED. */
_Noreturn void die_fail(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints "arena CMD: message" on stderr and exits with DIE_USAGE. */
_Noreturn void die_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The same for any status, with the message's arguments in ap (the CLI's errors go through it too). */
_Noreturn void die_vexit(int status, const char *cmd, const char *fmt, va_list ap);

/* Runs work(arg) so that giving up returns here instead of exiting: while it runs, die_fail, die_usage and
 * die_vexit (in this thread) write their message (without "arena CMD: ") into err and jump back. Returns 0 when
 * work returned, else the status it gave up with (DIE_FAILED, DIE_USAGE). What work had allocated is not freed:
 * it must keep its allocations where the caller frees them afterwards. Calls may nest. */
int die_catch(void (*work)(void *arg), void *arg, char *err, size_t errlen);

/* Exits through die_fail(cmd, "out of memory") when p is NULL; returns p. */
void *die_check(const char *cmd, void *p);

#endif
