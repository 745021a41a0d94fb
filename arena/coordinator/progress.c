/* arena/coordinator/progress.c — the progress line of long runs (see progress.h). */
#include "progress.h"
#include "clock.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

void progress_start(progress_meter *p, long total, long every, bool quiet)
{
    *p = (progress_meter){ .total = total, .every = quiet ? 0 : every, .t0 = clk_now() };
    p->tty = !quiet && isatty(STDERR_FILENO);
}

static void line(progress_meter *p, double t, const char *end)
{
    double rate = p->done / (t - p->t0 > 1e-9 ? t - p->t0 : 1e-9);
    long eta = rate > 0 ? (long)((p->total - p->done) / rate + 0.5) : 0;
    fprintf(stderr, "%ld/%ld games  %.1f games/s  ETA %ld:%02ld:%02ld  forfeits %ld%s", p->done, p->total, rate,
            eta / 3600, eta / 60 % 60, eta % 60, p->forfeits, end);
}

void progress_game(progress_meter *p, bool forfeit)
{
    p->done++;
    p->forfeits += forfeit;
    double t = clk_now();
    if (p->tty) {
        if (t - p->last >= 0.2 || p->done == p->total) {
            fputc('\r', stderr);
            line(p, t, "\033[K");
            p->last = t;
            p->shown = true;
        }
    } else if (p->every > 0 && (p->done % p->every == 0 || p->done == p->total)) {
        line(p, t, "\n");
    }
}

void progress_end(progress_meter *p)
{
    if (p->tty && p->shown)
        fputs("\r\033[K", stderr);
    p->shown = false;
}
