/* arena/coordinator/logline.h — the coordinator's lines in log files (a bot's log, the connections log): appended one
 * at a time, each "[arena 2026-11-21T18:43:37.913Z] message". */
#ifndef ARENA_COORDINATOR_LOGLINE_H
#define ARENA_COORDINATOR_LOGLINE_H

/* Appends one line to the file at `path` (created when absent). A file that cannot be opened is skipped:
 * logs never stop a run. */
void log_line(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
