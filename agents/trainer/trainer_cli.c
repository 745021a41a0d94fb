/* agents/trainer/trainer_cli.c — the trainer commands' shared plumbing (see trainer_cli.h). */
#include "trainer_cli.h"

#include "board.h"
#include "lcurve.h"
#include "game.h"
#include "clock.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <time.h>

static const char *program = "trainer";
static volatile sig_atomic_t stop_signal;

void tc_init(const char *name) { program = name; }

const char *tc_program(void) { return program; }

void tc_die(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", program);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(status);
}

void tc_options_done(int c, int optind_now, int argc, char **argv)
{
    if (c == ':')
        tc_die(2, "option '%s' needs a value (see '%s --help')", argv[optind_now - 1], program);
    if (c != -1)
        tc_die(2, "unknown option '%s' (see '%s --help')", argv[optind_now - 1], program);
    if (optind_now < argc)
        tc_die(2, "unexpected argument '%s' (see '%s --help')", argv[optind_now], program);
}

void tc_required(int ok, const char *what)
{
    if (!ok)
        tc_die(2, "%s are required (see '%s --help')", what, program);
}

void tc_playable(hx_variant v, int rows, int cols, unsigned flags)
{
    hx_game probe;
    if (hx_new(&probe, v, rows, cols, flags) != 0)
        tc_die(2, "cannot play %s on %dx%d%s", hx_variant_name(v), rows, cols, flags ? " with the swap rule" : "");
}

const char *tc_checkpoint_path(const char *given, const char *out, char *buf, size_t len)
{
    if (given)
        return given;
    snprintf(buf, len, "%s.ckpt", out);
    return buf;
}

static void on_signal(int sig) { stop_signal = sig; }

void tc_catch_stop(void)
{
    struct sigaction sa = { .sa_handler = on_signal };
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int tc_stopped(void) { return stop_signal; }

int tc_exit_status(void) { return stop_signal ? 128 + stop_signal : 0; }

long tc_long(const char *opt, const char *value, long min)
{
    char *end;
    errno = 0;
    long x = strtol(value, &end, 10);
    if (errno || end == value || *end || x < min)
        tc_die(2, "--%s: expected a whole number >= %ld, got '%s'", opt, min, value);
    return x;
}

double tc_real(const char *opt, const char *value, double lo, double hi)
{
    char *end;
    double x = strtod(value, &end);
    if (end == value || *end || !(x >= lo && x <= hi))
        tc_die(2, "--%s: expected a number from %g to %g, got '%s'", opt, lo, hi, value);
    return x;
}

hx_variant tc_variant(const char *value)
{
    int v = hx_variant_parse(value);
    if (v < 0)
        tc_die(2, "--variant: unknown variant '%s' (one of %s)", value, hx_variant_list());
    return (hx_variant)v;
}

void tc_board(const char *value, int *rows, int *cols)
{
    const char *why;
    if (!hx_board_parse(value, rows, cols, &why))
        tc_die(2, "--board '%s': %s", value, why);
}

FILE *tc_curve(const char *path, long upto, const char *header)
{
    char err[4200];
    FILE *f = sv_curve_open(path, upto, header, err, sizeof err);
    if (!f)
        tc_die(1, "--curve %s", err);
    return f;
}

double tc_eta(double done, double total, double elapsed, double limit, double rate)
{
    double eta = -1;
    if (total >= 0 && rate > 0)
        eta = (total - done) / rate;
    if (limit >= 0 && (eta < 0 || limit - elapsed < eta))
        eta = limit - elapsed;
    return eta > 0 ? eta : 0;
}

void tc_run_start(tc_run *r, const char *unit, const char *rate_unit, double done, double spent, double total,
                  double limit, int quiet)
{
    double now = clk_now();
    *r = (tc_run){ .unit = unit, .rate_unit = rate_unit, .total = total, .limit = limit, .t0 = now - spent,
                   .spent = spent, .start = done, .last_line = now, .last_ckpt = now, .quiet = quiet };
}

int tc_run_more(const tc_run *r, double done)
{
    return !tc_stopped() && (r->total < 0 || done < r->total) && (r->limit < 0 || tc_run_seconds(r) < r->limit);
}

double tc_run_seconds(const tc_run *r) { return clk_now() - r->t0; }

void tc_run_exclude(tc_run *r, double since) { r->t0 += clk_now() - since; }

int tc_run_progress(tc_run *r, double done, int force)
{
    double now = clk_now();
    if (r->quiet || !(force || now - r->last_line >= 2))
        return 0;
    double elapsed = now - r->t0, trained = elapsed - r->spent;
    double rate = (done - r->start) / (trained > 0 ? trained : 1e-9);
    fprintf(stderr, "%s %.0f  %.1f s  %.*f %s  ETA %.0f s", r->unit, done, elapsed, rate >= 100 ? 0 : 2, rate,
            r->rate_unit, tc_eta(done, r->total, elapsed, r->limit, rate));
    r->last_line = now;
    return 1;
}

int tc_run_checkpoint_due(const tc_run *r, long every) { return every > 0 && clk_now() - r->last_ckpt >= (double)every; }

void tc_run_checkpointed(tc_run *r) { r->last_ckpt = clk_now(); }

