/* agents/trainer/trainer_cli.h — what the trainer commands (cfr-train, rcfr-train, rl-train) share: one error
 * line and exit status, a monotonic clock, SIGINT/SIGTERM turned into a flag checked between iterations,
 * checked numbers and games from options, curves opened or a clear exit, the ETA of a run bounded by a
 * count and/or seconds, the clock of a training loop (its bounds, progress lines and checkpoint times),
 * and JSON strings. */
#ifndef AGENTS_TRAINER_TRAINER_CLI_H
#define AGENTS_TRAINER_TRAINER_CLI_H

#include <stdio.h>

#include "variant.h"

/* The program name that prefixes error lines ("cfr-train"). Call first. */
void tc_init(const char *program);
const char *tc_program(void);

/* "PROGRAM: message" on stderr, then exit(status). */
_Noreturn void tc_die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The command line's common refusals, each with "(see 'PROGRAM --help')": getopt_long's ':' (a missing
 * value) or '?' (an unknown option) for the option at argv[optind - 1]; an operand left after the options
 * (when optind < argc); required options missing (when !ok, naming `what`). */
void tc_options_done(int c, int optind_now, int argc, char **argv);
void tc_required(int ok, const char *what);

/* Exits 2 when the engine cannot play this game ("cannot play abrupt on 30x3"). */
void tc_playable(hx_variant v, int rows, int cols, unsigned flags);

/* The checkpoint path: `given`, or OUT.ckpt (in a buffer of the caller's, of `len` bytes). */
const char *tc_checkpoint_path(const char *given, const char *out, char *buf, size_t len);

/* From now on SIGINT and SIGTERM only set a flag; tc_stopped() returns the signal number (0: none). */
void tc_catch_stop(void);
int tc_stopped(void);

/* The exit status of a trainer that ran to its end: 0, or 128 + N when signal N stopped it. */
int tc_exit_status(void);

/* The value of option --opt: a whole number >= min, or a number in lo..hi; else tc_die(2, ...). */
long tc_long(const char *opt, const char *value, long min);
double tc_real(const char *opt, const char *value, double lo, double hi);

/* The values of --variant and --board; else tc_die(2, ...) naming the option and the accepted values. */
hx_variant tc_variant(const char *value);
void tc_board(const char *value, int *rows, int *cols);

/* sv_curve_open() (curve.h), or tc_die(1, ...) with its message. */
FILE *tc_curve(const char *path, long upto, const char *header);

/* Seconds left in a run at `done` units and `elapsed` seconds, going at `rate` units per second, that
 * stops at `total` units (< 0: no bound) or `limit` seconds (< 0: no bound), whichever comes first. */
double tc_eta(double done, double total, double elapsed, double limit, double rate);

/* The clock of a training loop that may have resumed: training seconds (a resumed run's included, time
 * set aside by tc_run_exclude() not), the bounds of the run, and when progress lines and checkpoints are
 * due. */
typedef struct {
    const char *unit, *rate_unit;  /* "iteration", "it/s" */
    double total, limit;           /* bounds: units (< 0: none), training seconds (< 0: none) */
    double t0;                     /* clk_now() when the training time was 0 */
    double spent, start;           /* the resumed run's seconds and units */
    double last_line, last_ckpt;
    int quiet;
} tc_run;

/* Starts the clock at `done` units of which `spent` seconds were trained before. */
void tc_run_start(tc_run *r, const char *unit, const char *rate_unit, double done, double spent, double total,
                  double limit, int quiet);

/* True while no stop signal came and the run is below both of its bounds. */
int tc_run_more(const tc_run *r, double done);

/* Training seconds so far. */
double tc_run_seconds(const tc_run *r);

/* The time since `since` (a clk_now() value), spent evaluating, is not training time. */
void tc_run_exclude(tc_run *r, double since);

/* When a progress line is due (`force`, or 2 s since the last; never when quiet), writes its start to
 * stderr ("iteration 40  3.1 s  12.9 it/s  ETA 5 s") and returns 1: the caller adds its own fields and
 * the newline. Else returns 0. */
int tc_run_progress(tc_run *r, double done, int force);

/* True when `every` seconds (> 0) have passed since the last checkpoint; tc_run_checkpointed() after
 * writing one. */
int tc_run_checkpoint_due(const tc_run *r, long every);
void tc_run_checkpointed(tc_run *r);

#endif
