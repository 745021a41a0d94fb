/* arena/sandbox/botlog.h — the log of one bot process: the process's stdout and stderr are the write end of a
 * pipe, and the coordinator reads the other end and appends what comes to the log file itself, up to the
 * process's log_mb; past it, one line says so and the rest is read and dropped. The coordinator's own lines
 * about the process (bl_line) come after everything the process wrote before them, each on a line of its own.
 *
 * So a bot can write its log only through the pipe: it cannot exceed the cap, truncate the file, seek in it or
 * reopen it through /proc/self/fd (that reopens the pipe). The read end is non-blocking: no call here waits for
 * the bot, and bl_pump() reads at most BL_CHUNK bytes a call, so a flooding bot costs the caller a bounded
 * amount of work per turn of its loop. The write end is blocking: a bot whose output is not read yet waits,
 * as it would on a slow disk.
 *
 * The log file is opened for each append (O_APPEND) and closed at once: a log holds no descriptor between
 * reads. Both ends of the pipe are close-on-exec; the write end becomes the bot's stdout and stderr in
 * ag_spawn(). One thread: the read buffer is shared by all logs. */
#ifndef ARENA_SANDBOX_BOTLOG_H
#define ARENA_SANDBOX_BOTLOG_H

#include <stddef.h>
#include <stdint.h>

#define BL_CHUNK (64 * 1024)    /* bytes one bl_pump() reads at most */
#define BL_DRAIN (1024 * 1024)  /* bytes read at most before a line of the coordinator's, and at the end (a pipe
                                 * holds up to 1 MiB by default, /proc/sys/fs/pipe-max-size) */

typedef struct bl_log bl_log;

/* Creates (or appends to) the log at `path` and the pipe. `log_mb` is what the process may write, in MiB (0: no
 * limit). NULL with a one-line reason in err ("cannot open its log PATH: ...", "pipe: ...", "out of memory"). */
bl_log *bl_open(const char *path, unsigned log_mb, char *err, size_t errlen);

/* The write end, for the process's stdout and stderr (ag_spawn), until bl_close_writer(); then -1. */
int bl_writer(const bl_log *l);

/* Closes the coordinator's copy of the write end, once the process has it (after ag_spawn): the pipe then
 * ends when the process and whatever it started are gone. */
void bl_close_writer(bl_log *l);

/* The read end to poll for input (POLLIN; also readable at its end), or -1 once the pipe has ended. */
int bl_fd(const bl_log *l);

/* Reads what is in the pipe, at most `budget` bytes (at most BL_CHUNK a read), without blocking, and appends it
 * up to the cap. At the pipe's end (or a read error) the read end is closed. Returns the bytes read. */
size_t bl_pump(bl_log *l, size_t budget);

/* Appends the coordinator's line "[arena TIME] message" (logline.h), after reading what the process wrote so
 * far (at most BL_DRAIN bytes), on a line of its own even when the process's last line was not finished. Not
 * counted against the cap. */
void bl_line(bl_log *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The process is gone: reads what is left (at most BL_DRAIN bytes, without blocking) and closes the read end. */
void bl_finish(bl_log *l);

/* bl_finish(), then frees l. NULL is ignored. */
void bl_free(bl_log *l);

/* Bytes of the process's output in the log so far (at most the cap), and whether more was dropped. */
uint64_t bl_written(const bl_log *l);
int bl_capped(const bl_log *l);

#endif
