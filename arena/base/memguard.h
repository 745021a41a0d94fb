/* arena/base/memguard.h — one step run in a forked child under a limit on the resident memory it adds: the parent
 * reads the child's private resident memory (/proc/PID/smaps_rollup: the pages it allocated or wrote since the
 * fork) every 10 ms, after a second every 100 ms (and never sooner than 20 times the last read's cost: a large
 * child's page tables take milliseconds to walk), and kills it past the limit, so a step that
 * would take the machine's memory stops alone and its caller goes on. The child's result comes back through a
 * pipe, as a fixed-size block (mg_run) or as a stream of any length (mg_run_stream, which can also stop the child at
 * a time limit); the child ends with _exit (no atexit handler, no stdio buffer flushed twice). */
#ifndef ARENA_BASE_MEMGUARD_H
#define ARENA_BASE_MEMGUARD_H

#include <stddef.h>
#include <stdio.h>

typedef enum {
    MG_DONE,   /* the step returned: its return value is mg_run's, its out block filled */
    MG_OVER,   /* killed: it added more than the limit */
    MG_LATE,   /* killed: it ran past its time limit (mg_run_stream) */
    MG_FAILED  /* the child died otherwise (a signal, an exit without its result), or fork or pipe failed */
} mg_status;

typedef struct {
    mg_status status;
    double peak_mb;   /* the most private resident memory it was seen to hold */
    double seconds;
    char why[160];    /* MG_OVER, MG_LATE and MG_FAILED: what happened, for a note */
} mg_result;

/* The step: runs in the child, fills out (outlen bytes, zeroed first) and returns a small integer. */
typedef int (*mg_step)(void *ctx, void *out, size_t outlen);

/* Runs step(ctx, out, outlen) in a child killed once it adds more than limit_mb resident MB (limit_mb <= 0: no
 * limit, still in a child). The caller's stdout and stderr are flushed first. Returns the step's value with
 * r->status MG_DONE and out filled, or -1 with r->status MG_OVER or MG_FAILED and r->why. */
int mg_run(mg_step step, void *ctx, double limit_mb, void *out, size_t outlen, mg_result *r);

/* A streaming step: runs in the child, writes its result to out (any length; the parent reads it as it comes, so
 * the pipe never fills) and returns a small integer. */
typedef int (*mg_stream_step)(void *ctx, FILE *out);

/* Runs step(ctx, out) in a child killed once it adds more than limit_mb resident MB or runs longer than limit_s
 * seconds (either <= 0: no such limit). Returns the step's value with r->status MG_DONE, *out (malloc'd, the
 * caller frees it; NUL-terminated beyond *outlen) and *outlen what it wrote; or -1 with r->status MG_OVER,
 * MG_LATE or MG_FAILED, r->why, and *out NULL. */
int mg_run_stream(mg_stream_step step, void *ctx, double limit_mb, double limit_s, char **out, size_t *outlen,
                  mg_result *r);

/* The memory the kernel says is available for new work (MemAvailable, /proc/meminfo) in MB, or -1. */
double mg_available_mb(void);

#endif
