/* agents/trainer/loop.c — the trainers' shared training loop (see loop.h): resume, steps, evaluations,
 * curve rows, progress lines, checkpoints, the final evaluation and the write. */
#include "loop.h"

#include "clock.h"
#include "trainer_cli.h"

/* The loop's state between steps. */
typedef struct {
    const tc_trainer *tr;
    const tc_loop_options *o;
    void *ctx;
    const char *ckpt;
    FILE *curve;
    tc_run run;
    long evaluated_at; /* the count of the last evaluation that returned true (-1: none) */
} loop;

static void curve_row(loop *l, double seconds)
{
    if (!l->curve)
        return;
    l->tr->curve_row(l->ctx, l->curve, seconds);
    fflush(l->curve);
}

/* The evaluation due at count `n`, if any; true when one was made. */
static bool evaluate_due(loop *l, long n)
{
    if (l->o->eval_every <= 0 || n % l->o->eval_every != 0)
        return false;
    double since = clk_now();
    if (!l->tr->evaluate(l->ctx))
        return false;
    if (l->o->eval_off_clock)
        tc_run_exclude(&l->run, since);
    l->evaluated_at = n;
    curve_row(l, tc_run_seconds(&l->run));
    return true;
}

static void step(loop *l)
{
    l->tr->step(l->ctx);
    long n = l->tr->count(l->ctx);
    bool evaluated = evaluate_due(l, n);
    if (tc_run_progress(&l->run, (double)n, evaluated)) {
        l->tr->progress(l->ctx, evaluated);
        fputc('\n', stderr);
    }
    if (tc_run_checkpoint_due(&l->run, l->o->checkpoint_every)) {
        l->tr->save(l->ctx, l->ckpt, tc_run_seconds(&l->run));
        tc_run_checkpointed(&l->run);
    }
}

/* The final checkpoint, evaluation and curve row; returns what the write is told. */
static tc_loop_end finish(loop *l)
{
    tc_loop_end end = { .seconds = tc_run_seconds(&l->run) };
    l->tr->save(l->ctx, l->ckpt, end.seconds);
    long n = l->tr->count(l->ctx);
    end.evaluated = l->evaluated_at == n;
    if (!end.evaluated) {
        end.evaluated = l->tr->evaluate(l->ctx);
        if (end.evaluated)
            curve_row(l, end.seconds);
    }
    if (l->curve)
        fclose(l->curve);
    double trained = end.seconds - l->run.spent;
    end.rate = ((double)n - l->run.start) / (trained > 0 ? trained : 1e-9);
    return end;
}

void tc_loop_run(const tc_trainer *tr, const tc_loop_options *o, void *ctx)
{
    char ckpt[4096];
    loop l = { .tr = tr, .o = o, .ctx = ctx, .evaluated_at = -1,
               .ckpt = tc_checkpoint_path(o->checkpoint, o->out, ckpt, sizeof ckpt) };
    double spent = o->fresh ? 0 : tr->resume(ctx, l.ckpt);
    long n = tr->count(ctx);
    l.curve = o->curve ? tc_curve(o->curve, n, tr->curve_header) : NULL;
    tc_catch_stop();
    tc_run_start(&l.run, tr->unit, tr->rate_unit, (double)n, spent, (double)o->count, o->seconds, o->quiet);
    if (!o->quiet && n)
        fprintf(stderr, "%s: resumed from %s at %s %ld (%.1f s)\n", tc_program(), l.ckpt, tr->unit, n, spent);
    while (tc_run_more(&l.run, (double)tr->count(ctx)))
        step(&l);
    tc_loop_end end = finish(&l);
    tr->write(ctx, &end);
}
