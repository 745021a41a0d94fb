/* arena/sandbox/logline.h — the coordinator's lines in log files (a bot's log, the connections log): appended one
 * at a time, each "[arena 2026-11-21T18:43:37.913Z] message". */
#ifndef ARENA_SANDBOX_LOGLINE_H
#define ARENA_SANDBOX_LOGLINE_H

#include <stdarg.h>
#include <stddef.h>

/* Appends one line to the file at `path` (created when absent). A file that cannot be opened is skipped:
 * logs never stop a run. */
void log_line(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The line log_line() writes, "[arena TIME] message\n", into out (n >= 2; a longer message is cut short, the
 * line still ends in its newline). Returns its length in bytes. */
size_t log_format(char *out, size_t n, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));

#endif
