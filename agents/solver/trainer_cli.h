/* agents/solver/trainer_cli.h — what the trainer commands (cfr-train, rl-train) share: one error line and
 * exit status, a monotonic clock, SIGINT/SIGTERM turned into a flag checked between iterations, checked
 * numbers and games from options, curves opened or a clear exit, the ETA of a run bounded by a count
 * and/or seconds, and JSON strings. */
#ifndef AGENTS_SOLVER_TRAINER_CLI_H
#define AGENTS_SOLVER_TRAINER_CLI_H

#include <stdio.h>

#include "variant.h"

/* The program name that prefixes error lines ("cfr-train"). Call first. */
void tc_init(const char *program);

/* "PROGRAM: message" on stderr, then exit(status). */
_Noreturn void tc_die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Seconds on a monotonic clock. */
double tc_now(void);

/* From now on SIGINT and SIGTERM only set a flag; tc_stopped() returns the signal number (0: none). */
void tc_catch_stop(void);
int tc_stopped(void);

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

/* s as a JSON string, quotes included. */
void tc_json_string(FILE *f, const char *s);

#endif
