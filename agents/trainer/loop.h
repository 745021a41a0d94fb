/* agents/trainer/loop.h — the training loop the trainer commands (cfr-train, rcfr-train, rl-train) share:
 * resume a checkpoint, reopen the curve, run steps (iterations, episodes) until the count or time budget is
 * reached or a stop signal arrives, evaluate every K steps and append a curve row, print progress lines with
 * rate and ETA, checkpoint every S seconds and at the end, evaluate the final policy, and write the output.
 * A trainer supplies what differs as callbacks on its own context. */
#ifndef AGENTS_TRAINER_LOOP_H
#define AGENTS_TRAINER_LOOP_H

#include <stdbool.h>
#include <stdio.h>

/* What the loop hands the trainer's final write. */
typedef struct {
    double seconds;  /* training seconds in all (a resumed run's included, evaluation set aside not) */
    double rate;     /* units per training second of this run (the resumed part not counted) */
    bool evaluated;  /* the context holds an evaluation of the final policy (evaluate() returned true for
                        the last count) */
} tc_loop_end;

/* What a trainer is to the loop: its words and callbacks, each given the context passed to tc_loop_run.
 * A callback that fails calls tc_die(); none returns an error. */
typedef struct {
    const char *unit, *rate_unit;  /* "iteration", "it/s": for progress lines and the resume message */
    const char *curve_header;      /* the CSV curve's first line, newline included */
    /* Units done so far, a resumed checkpoint's included. */
    long (*count)(const void *ctx);
    /* Loads the checkpoint at `path` if there is one; returns its training seconds (0: none). */
    double (*resume)(void *ctx, const char *path);
    /* One unit of training (an iteration, an episode). */
    void (*step)(void *ctx);
    /* Evaluates the current policy into the context; false when this trainer cannot (then no curve row). */
    bool (*evaluate)(void *ctx);
    /* Writes one curve row for the count and the context's last evaluation, at `seconds` of training. */
    void (*curve_row)(const void *ctx, FILE *curve, double seconds);
    /* Adds the trainer's fields to a progress line (without the newline); `evaluated`: an evaluation was
     * just made. */
    void (*progress)(const void *ctx, bool evaluated);
    /* Writes the checkpoint at `path`, recording `seconds` of training. */
    void (*save)(const void *ctx, const char *path, double seconds);
    /* Writes the output (the policy file) and the summary on stdout. */
    void (*write)(void *ctx, const tc_loop_end *end);
} tc_trainer;

/* The run's bounds and files, from the command line. */
typedef struct {
    long count;             /* stop at this many units in all (< 0: no bound) */
    double seconds;         /* stop at this many training seconds in all (< 0: no bound) */
    long eval_every;        /* evaluate when the count is a multiple of this (0: only at the end) */
    bool eval_off_clock;    /* evaluation time is set aside from training time */
    const char *out;        /* the output file: the checkpoint is OUT.ckpt unless `checkpoint` is given */
    const char *checkpoint; /* or NULL */
    long checkpoint_every;  /* seconds between checkpoints (0: only at the end) */
    const char *curve;      /* the CSV curve to append to, or NULL */
    bool fresh;             /* ignore (and replace) an existing checkpoint */
    bool quiet;             /* no progress lines or resume message */
} tc_loop_options;

/* Runs the training from the checkpoint (unless fresh) to the end: resume; curve reopened at the resumed
 * count; SIGINT/SIGTERM caught (tc_catch_stop); "PROGRAM: resumed from PATH at UNIT N (S s)" on stderr
 * unless quiet; steps while tc_run_more(); after each step, when the count is a multiple of eval_every,
 * evaluate() and, when it returns true, a curve row (flushed); a progress line when due (forced after an
 * evaluation); a checkpoint every checkpoint_every seconds; then the final checkpoint, evaluate() unless
 * the last step was evaluated (and a curve row when it returns true), the curve closed, and write().
 * The caller frees its context and returns tc_exit_status(). */
void tc_loop_run(const tc_trainer *tr, const tc_loop_options *o, void *ctx);

#endif
