/* arena/solver/classify.c — classifying one board of one dark variant (classify.h): the sure-win searches
 * of both players (surewin.h) with certificates (surecert.h), then for "neither" the double oracle
 * (doracle.h), the LP (seqform.h) or CFR+ with exact best responses (cfr.h, bestresponse.h) on the game
 * tree, or without it the walk's and the sequence-form double oracles (dowalk.h, doseq.h), all within one
 * time budget, with the peak memory each took; the first-move table (the double oracle
 * with Black's root action fixed, or the sure-win search); values read as fractions. */
#define _POSIX_C_SOURCE 200809L
#include "classify.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bestresponse.h"
#include "cfr.h"
#include "clock.h"
#include "darkhex.h"
#include "doracle.h"
#include "doseq.h"
#include "doseq_seed.h"
#include "dowalk_cert.h"
#include "infowalk.h"
#include "memguard.h"
#include "policy.h"
#include "seqform.h"
#include "surecert.h"
#include "surewin.h"
#include "valcert.h"
#include "valcert_blind.h"
#include "valcert_write.h"

#define CL_MAX_CERT_MOVES 20000000
#define CL_WALK_CELLS 9
#define CL_WALK_CELLS_REPORTS 8
#define CL_DO_SHARE (1.0 / 3)     /* of the budget left: the double oracle's; the LP gets half of the rest */
#define CL_CFR_MIN_SHARE (1.0 / 6) /* of the budget: CFR+'s least time, even past the deadline (CLP's time
                                   * limit counts CPU seconds: on a loaded machine the LP overruns its share) */
#define CL_RESTRICTED_NODES (1u << 24) /* the sequence oracle's restricted trees (whatever --max-nodes says of the
                                         * whole tree's): 16.8 million nodes, 320 MB */
#define CL_LP_CHECK_NODES 20000   /* trees this small get the LP as a cross-check of the double oracle */
#define CL_LP_CHECK_TOLERANCE 1e-9
#define CL_FRACTION_SLACK 1e-10

_Static_assert(CL_MAX_CELLS == SW_MAX_CELLS, "classify.h's CL_MAX_CELLS is the sure-win search's limit");

void cl_options_default(cl_options *o)
{
    *o = (cl_options){ .budget_s = 60, .memo_bytes = 4ull << 30, .max_nodes = 30000000, .out_dir = NULL };
}

bool cl_fraction(double lower, double upper, long *num, long *den)
{
    double lo = lower - CL_FRACTION_SLACK, hi = upper + CL_FRACTION_SLACK;
    if (!(lo <= hi) || !(fabs(lo) < 1e6) || !(fabs(hi) < 1e6))
        return false;
    for (long q = 1; q <= CL_FRACTION_MAX_DEN; q++) {
        double p = ceil(lo * (double)q); /* the smallest numerator at or above lo (its neighbour for rounding) */
        for (double k = p - 1; k <= p; k++)
            if (k / (double)q >= lo && k / (double)q <= hi) {
                *num = (long)k;
                *den = q;
                return true;
            }
    }
    return false;
}

const char *cl_outcome_name(cl_outcome o)
{
    static const char *names[] = { "black", "white", "neither", "open" };
    return o <= CL_OPEN ? names[o] : "?";
}

/* The process's peak resident memory in MB since the last reset (VmHWM; -1 when unknown). */
static double cl_peak_mb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    double kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %lf", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb < 0 ? -1 : kb / 1024;
}

/* Resets the peak to the current resident size (Linux clear_refs 5); harmless when not allowed. */
static void cl_reset_peak(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (f) {
        fputs("5", f);
        fclose(f);
    }
}

typedef struct {
    FILE *f;
    int cols;
    bool counted;
} cl_cert_writer;

static void cl_cert_line(const hx_event *ev, int n, int cell, void *user)
{
    cl_cert_writer *w = user;
    char history[SC_HISTORY_MAX], name[HX_CELL_NAME_MAX];
    sc_history(ev, n, w->cols, w->counted, history);
    hx_cell_name(cell, w->cols, name);
    fprintf(w->f, "%s %s\n", history, name);
}

/* Writes the certificate of player p's sure win (s holds its search) into o->out_dir. 0, or -1 with a note. */
static int cl_write_certificate(sw *s, int p, const cl_options *o, cl_row *row)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%dx%d-%s-%s.cert", o->out_dir, row->rows, row->cols, hx_variant_name(row->variant),
             p ? "white" : "black");
    cl_cert_writer w = { tmpfile(), row->cols, sc_reports_counted(row->variant) };
    if (!w.f) {
        snprintf(row->note, sizeof row->note, "cannot make a temporary file");
        return -1;
    }
    sw_key root = sw_root(s);
    int64_t moves = sw_walk_strategy(s, &root, CL_MAX_CERT_MOVES, cl_cert_line, &w);
    FILE *out = moves >= 0 ? fopen(path, "w") : NULL;
    if (out) {
        sc_write_header(out, row->variant, row->rows, row->cols, p, (uint64_t)moves);
        rewind(w.f);
        char buf[1 << 14];
        size_t got;
        while ((got = fread(buf, 1, sizeof buf, w.f)) > 0)
            fwrite(buf, 1, got, out);
    }
    fclose(w.f);
    if (moves < 0 || !out || fclose(out) != 0) {
        if (moves < 0)
            snprintf(row->note, sizeof row->note, "no certificate: more than %d moves (or out of time)", CL_MAX_CERT_MOVES);
        else
            snprintf(row->note, sizeof row->note, "%.200s: cannot write", path);
        return -1;
    }
    snprintf(row->note, sizeof row->note, "certificate %.190s (%lld moves)", path, (long long)moves);
    return 0;
}

/* The sure-win searches: sets the outcome (CL_NEITHER when neither wins surely). 0, or -1 with a note. */
static int cl_sure_wins(const cl_options *o, double deadline, cl_row *row)
{
    row->outcome = CL_NEITHER;
    for (int p = 0; p < 2; p++) {
        sw *s = sw_new(row->rows, row->cols, (sw_rules)sw_rules_of(row->variant), p);
        if (!s) {
            snprintf(row->note, sizeof row->note, "out of memory");
            return -1;
        }
        sw_set_limits(s, deadline, o->memo_bytes);
        sw_key root = sw_root(s);
        int r = sw_solve(s, &root, NULL);
        sw_stats st;
        sw_get_stats(s, &st);
        row->keys += st.keys;
        int rc = 0;
        if (r < 0) {
            row->outcome = CL_OPEN;
            snprintf(row->note, sizeof row->note, "%s's sure-win search stopped (%s) after %llu keys, %llu MB of memo",
                     p ? "White" : "Black", r == -2 ? "time budget" : "memory limit", (unsigned long long)st.keys,
                     (unsigned long long)(st.bytes >> 20));
        } else if (r == 1) {
            row->outcome = p ? CL_WHITE : CL_BLACK;
            row->exact = true;
            row->value = row->lower = row->upper = p ? -1 : 1;
            row->how = "sure-win search";
            if (o->out_dir)
                rc = cl_write_certificate(s, p, o, row);
        }
        sw_free(s);
        if (rc || r != 0)
            return rc;
    }
    return 0;
}

/* Writes a policy file bounding the value next to the certificates. */
static void cl_write_policy(const sv_tree *t, const double *probs, const char *algo, double exploitability,
                            const cl_options *o, cl_row *row)
{
    char path[4096], err[300];
    snprintf(path, sizeof path, "%s/%dx%d-%s.policy", o->out_dir, row->rows, row->cols, hx_variant_name(row->variant));
    pf_meta m = { .variant = row->variant, .rows = row->rows, .cols = row->cols, .keys = PF_KEYS_PERFECT,
                  .exploitability = exploitability };
    snprintf(m.algo, sizeof m.algo, "%s", algo);
    size_t len = strlen(row->note);
    if (pf_save_tree(t, probs, &m, path, err, sizeof err) != 0)
        snprintf(row->note + len, sizeof row->note - len, "; %.150s", err);
    else
        snprintf(row->note + len, sizeof row->note - len, "; policy %.180s", path);
    /* and the value certificate of the same strategies (valcert.h): the bounds they give in exact arithmetic */
    snprintf(path, sizeof path, "%s/%dx%d-%s.value", o->out_dir, row->rows, row->cols, hx_variant_name(row->variant));
    vw_options vo;
    vw_options_default(&vo);
    vo.max_states = CL_CHECK_MAX_STATES;
    vw_result vr;
    len = strlen(row->note);
    if (vw_write(t, probs, row->variant, row->rows, row->cols, &vo, path, &vr, err, sizeof err) != 0) {
        snprintf(row->note + len, sizeof row->note - len, "; no value certificate: %.120s", err);
        return;
    }
    if (vr.exact)
        snprintf(row->note + len, sizeof row->note - len, "; value certificate %.120s: %.40s", path, vr.lower);
    else
        snprintf(row->note + len, sizeof row->note - len, "; value certificate %.120s: [%.40s, %.40s]", path, vr.lower,
                 vr.upper);
    vw_result_free(&vr);
}

/* CFR+ on t until the deadline: the bounds [*lower, *upper] from exact best responses to its average
 * strategies (written into probs). */
static int cl_cfr_bounds(const sv_tree *t, double deadline, double *probs, double *lower, double *upper,
                         long *iterations)
{
    sv_cfr c;
    if (sv_cfr_init(&c, t, SV_CFR_PLUS) != 0)
        return -1;
    do
        sv_cfr_iterate(&c);
    while (clk_now() < deadline);
    sv_cfr_average(&c, probs);
    *iterations = c.iteration;
    sv_cfr_free(&c);
    sv_eval e;
    if (sv_evaluate(t, probs, &e) != 0)
        return -1;
    *lower = -e.br[1];
    *upper = e.br[0];
    return 0;
}

/* Bounds from exact best responses to the uniform policy on the information-state walk, on the boards and
 * variants where that walk is quick: at most CL_WALK_CELLS cells, or CL_WALK_CELLS_REPORTS in the variants
 * with reports (the opponent's states merge less: 3x3 -noisy/-flash take 1-5 minutes). */
static void cl_uniform_bounds(cl_row *row)
{
    iw_result r;
    char err[200];
    hx_variant v = row->variant;
    size_t len = strlen(row->note);
    bool reports = v != HX_CLASSICAL && v != HX_ABRUPT;
    if (row->rows * row->cols > (reports ? CL_WALK_CELLS_REPORTS : CL_WALK_CELLS) ||
        iw_evaluate(v, row->rows, row->cols, NULL, NULL, iw_default_threads(), NULL, NULL, &r, err, sizeof err) != 0) {
        snprintf(row->note + len, sizeof row->note - len, "; no value");
        return;
    }
    row->lower = -r.br[1];
    row->upper = r.br[0];
    row->how = "uniform";
    snprintf(row->note + len, sizeof row->note - len, "; bounds: best responses to the uniform policy");
}

/* The double oracle on t for at most `seconds` (checked between its iterations), Black's root action fixed
 * to index fix when fix >= 0. 0, or -1 with the reason in err. */
static int cl_oracle(const sv_tree *t, int fix, double seconds, double *root_values, double *policy, do_result *r,
                     char *err, size_t errlen)
{
    do_options d;
    do_options_default(&d);
    d.root_values = root_values;
    d.time_limit = seconds > 0.001 ? seconds : 0.001;
    if (fix >= 0) {
        d.fix_root = true;
        d.root_action = (uint16_t)fix;
    }
    return do_solve(t, &d, policy, r, err, errlen);
}

/* Appends to the row's note. */
static void cl_note(cl_row *row, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void cl_note(cl_row *row, const char *fmt, ...)
{
    size_t len = strlen(row->note);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(row->note + len, sizeof row->note - len, fmt, ap);
    va_end(ap);
}

/* On a small tree, Black's LP as a cross-check of the double oracle's exact value (noted either way). */
static void cl_lp_check(const sv_tree *t, double *probs, cl_row *row)
{
    if (t->n_nodes > CL_LP_CHECK_NODES)
        return;
    sf_options so;
    sf_options_default(&so);
    so.only = 0;
    so.solver = SF_CLP;
    sf_result r;
    char err[300];
    if (sf_solve(t, &so, probs, &r, err, sizeof err) != 0)
        cl_note(row, "; LP cross-check failed: %.100s", err);
    else if (fabs(r.value - row->value) <= CL_LP_CHECK_TOLERANCE)
        cl_note(row, "; the LP agrees");
    else
        cl_note(row, "; the LP DISAGREES (%.12f)", r.value);
}

/* Writes the value certificate of the tree-free oracles' mixtures (freed here) next to the certificates; first:
 * Black's fixed first cell of the game they are mixtures of (its `first` line), or -1. */
static void cl_write_mixtures(dw_mixture mix[2], int first, const char *path, cl_row *row)
{
    char err[300];
    vw_options vo;
    vw_options_default(&vo);
    vo.max_states = CL_CHECK_MAX_STATES;
    vo.first = first;
    vw_result vr;
    if (dw_write_certificate(row->variant, row->rows, row->cols, mix, &vo, path, &vr, err, sizeof err) != 0)
        cl_note(row, "; no value certificate: %.120s", err);
    else if (vr.exact)
        cl_note(row, "; value certificate %.120s: %.40s", path, vr.lower);
    else
        cl_note(row, "; value certificate %.120s: [%.40s, %.40s]", path, vr.lower, vr.upper);
    vw_result_free(&vr);
    dw_mixture_free(&mix[0]);
    dw_mixture_free(&mix[1]);
}

/* The row exact at the certified value text ("P/Q" or "P", value d): its fraction when it fits a long. */
static void cl_exact_at(cl_row *row, const char *text, double d, const char *how)
{
    row->exact = true;
    row->value = row->lower = row->upper = d;
    row->how = how;
    long num, den;
    if (sscanf(text, "%ld/%ld", &num, &den) == 2 && den > 0)
        row->num = num, row->den = den;
    else if (!strchr(text, '/') && sscanf(text, "%ld", &num) == 1)
        row->num = num, row->den = 1;
}

/* The value certificate at path when there is one (NULL, silently, when there is no such file), required to be
 * of variant v on the row's board and of the game after Black's first attempt at first (-1: the whole game);
 * anything else is named in the row's note after "; LABEL: " and gives NULL. */
static vc_cert *cl_load_at(cl_row *row, const char *label, const char *path, hx_variant v, int first)
{
    char err[700];
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno != ENOENT)
            cl_note(row, "; %s: %.200s: %.80s", label, path, strerror(errno));
        return NULL;
    }
    fclose(f);
    vc_cert *c = vc_load(path, err, sizeof err);
    if (!c) {
        cl_note(row, "; %s: %.300s", label, err);
        return NULL;
    }
    hx_variant cv;
    int rows, cols;
    uint64_t states[2];
    vc_describe(c, &cv, &rows, &cols, states);
    if (cv != v || rows != row->rows || cols != row->cols || vc_first(c) != first) {
        char at[HX_CELL_NAME_MAX], want[HX_CELL_NAME_MAX];
        if (vc_first(c) >= 0)
            hx_cell_name(vc_first(c), cols, at);
        if (first >= 0)
            hx_cell_name(first, row->cols, want);
        cl_note(row, "; %s: %.200s is a certificate of %dx%d %s%s%s, not of the %s%dx%d %s game%s%s", label, path, rows,
                cols, hx_variant_name(cv), vc_first(c) >= 0 ? " after Black's first attempt at " : "",
                vc_first(c) >= 0 ? at : "", first >= 0 ? "" : "whole ", row->rows, row->cols, hx_variant_name(v),
                first >= 0 ? " after Black's first attempt at " : "", first >= 0 ? want : "");
        vc_free(c);
        return NULL;
    }
    return c;
}

/* The same, of the whole game. */
static vc_cert *cl_load_of(cl_row *row, const char *label, const char *path, hx_variant v)
{
    return cl_load_at(row, label, path, v, -1);
}

/* The memory limit of a guarded certificate step (memguard.h): o->max_memory_mb, or by default what the kernel says
 * is available now less a reserve for the rest of the run, at least CL_MIN_GUARD_MB. */
#define CL_MIN_GUARD_MB 256.0
static double cl_guard_mb(const cl_options *o)
{
    if (o->max_memory_mb > 0)
        return o->max_memory_mb;
    double avail = mg_available_mb();
    return avail < 0 ? 0 : fmax(CL_MIN_GUARD_MB, avail * 0.9 - 512);
}

/* What a guarded step sends back: its outcome, the bounds it found, the exact lower bound as text when it is
 * short enough to be a fraction of longs ("" otherwise), and the reason when it failed. */
typedef struct {
    int res;
    double lower, upper;
    int exact;
    char lower_text[64];
    char why[700];
} cl_guarded;

static void cl_guarded_text(cl_guarded *g, const char *text)
{
    if (text && strlen(text) < sizeof g->lower_text)
        snprintf(g->lower_text, sizeof g->lower_text, "%s", text);
}

/* The full check of a kept certificate, in the guarded child. */
static int cl_check_step(void *ctx, void *out, size_t outlen)
{
    (void)outlen;
    cl_guarded *g = out;
    char *lo = NULL, *up = NULL;
    vc_report r;
    g->res = vc_check(ctx, 0, &lo, &up, &r);
    g->exact = lo && up && !strcmp(lo, up);
    cl_guarded_text(g, lo);
    snprintf(g->why, sizeof g->why, "%s", r.why);
    free(lo), free(up);
    return 0;
}

typedef struct {
    const vc_cert *base;
    hx_variant v;
    const char *path;
} cl_blind_ctx;

/* The report-blind certificate written and checked, in the guarded child. */
static int cl_blind_step(void *ctx, void *out, size_t outlen)
{
    (void)outlen;
    const cl_blind_ctx *b = ctx;
    cl_guarded *g = out;
    vw_options vo;
    vw_options_default(&vo);
    vo.max_states = CL_CHECK_MAX_STATES;
    vw_result vr;
    g->res = vb_write_blind(b->base, b->v, &vo, b->path, &vr, g->why, sizeof g->why);
    if (g->res == 0) {
        g->lower = vr.lower_d, g->upper = vr.upper_d, g->exact = vr.exact;
        cl_guarded_text(g, vr.lower);
        vw_result_free(&vr);
    }
    return 0;
}

/* The row's own value certificate left in o->out_dir (RxC-V.value: an earlier run's, or one put there), checked
 * in full by both exact best responses (no cap: 10-28 minutes on a 12-cell board): its bounds in kept[] and the
 * row's when narrower ("certificate"; the row exact when they meet), its attempts the sequence oracle's seed
 * (*seeded). 1 when verified, 0 when there is none or it is not this row's or it is refuted (the reason in the
 * note; the row's own certificate then takes its place), -1 when its check did not finish (undecided, or
 * stopped by the memory guard: the file stays as it is, the row's own certificate goes beside it as .new). The
 * check runs in a child under the memory limit (cl_guard_mb). */
static int cl_kept_at(const cl_options *o, cl_row *row, const char *path, int first, dw_mixture seed[2], double kept[2],
                      bool *seeded, long frac[2]);

static int cl_kept(const cl_options *o, cl_row *row, dw_mixture seed[2], double kept[2], bool *seeded)
{
    *seeded = false;
    if (!o->out_dir)
        return 0;
    char path[4096];
    snprintf(path, sizeof path, "%s/%dx%d-%s.value", o->out_dir, row->rows, row->cols, hx_variant_name(row->variant));
    return cl_kept_at(o, row, path, -1, seed, kept, seeded, NULL);
}

/* cl_kept for the certificate at path of the game after Black's first attempt at first (-1: the whole game). With
 * frac (not NULL, frac[1] set to -1 by the caller) the row's value is left as it is and an exact certificate's
 * fraction goes to frac[0]/frac[1] (frac[1] 0 when it does not fit a long), its value to kept[0] and kept[1]. */
static int cl_kept_at(const cl_options *o, cl_row *row, const char *path, int first, dw_mixture seed[2], double kept[2],
                      bool *seeded, long frac[2])
{
    *seeded = false;
    char err[700];
    vc_cert *c = cl_load_at(row, "certificate not used", path, row->variant, first);
    if (!c)
        return 0;
    if (first >= 0 && strrchr(path, '/')) /* a first-move table names its files briefly */
        path = strrchr(path, '/') + 1;
    cl_guarded g;
    mg_result m;
    if (mg_run(cl_check_step, c, cl_guard_mb(o), &g, sizeof g, &m) != 0) {
        cl_note(row, "; certificate %.200s not used, kept unchecked: its check %.150s", path, m.why);
        vc_free(c);
        return -1;
    }
    if (g.res != 1) {
        cl_note(row, "; certificate %.200s not used%s: %s: %.200s", path, g.res == 0 ? "" : ", kept unchecked",
                g.res == 0 ? "REFUTED" : "undecided", g.why);
        vc_free(c);
        return g.res == 0 ? 0 : -1;
    }
    vc_bounds(c, &kept[0], &kept[1]);
    cl_note(row, "; certificate %.200s verified: [%+.9f, %+.9f]", path, kept[0], kept[1]);
    if (g.exact && frac) { /* frac[1] was -1: now 0 or the denominator */
        frac[0] = 0, frac[1] = 0;
        if (sscanf(g.lower_text, "%ld/%ld", &frac[0], &frac[1]) != 2 || frac[1] <= 0)
            frac[1] = !strchr(g.lower_text, '/') && sscanf(g.lower_text, "%ld", &frac[0]) == 1;
    } else if (g.exact) {
        cl_exact_at(row, g.lower_text, kept[0], "certificate");
    } else {
        if (!frac && kept[1] - kept[0] < row->upper - row->lower)
            row->lower = kept[0], row->upper = kept[1], row->how = "certificate";
        if (ds_seed_from_certificate(c, seed, err, sizeof err) == 0)
            *seeded = true;
        else
            cl_note(row, "; no seed from it: %.200s", err);
    }
    vc_free(c);
    return 1;
}

/* After a row that started from its kept certificate (cl_kept, bounds kept[]): the certificate the row wrote at
 * fresh takes the kept one's place when its stated (and verified) interval is narrower; else it is removed. */
static void cl_keep_narrower(cl_row *row, const char *fresh, const char *path, const double kept[2])
{
    char err[700];
    vc_cert *c = vc_load(fresh, err, sizeof err);
    double l = -1, u = 1;
    if (c)
        vc_bounds(c, &l, &u), vc_free(c);
    if (c && u - l < kept[1] - kept[0] && rename(fresh, path) == 0) {
        cl_note(row, "; narrower: it replaces the kept certificate");
        return;
    }
    remove(fresh);
    cl_note(row, "; the kept certificate stays");
}

/* A -noisy or -flash row when o->out_dir holds its plain row's value certificate (RxC-classical.value or
 * RxC-abrupt.value: the plain row classified earlier in the same run writes it there, or it was put there):
 * that certificate's strategies played deaf to the reports (valcert_blind.h), written to RxC-V-blind.value
 * and checked. Their bounds become the row's when narrower ("report-blind"; exact when the reports are worth
 * nothing), and their attempts fill seed (doseq_seed.h). Returns 1 with seed filled, 2 when the row is
 * exact, 0 when there is no such certificate or it does not serve (the reason in the note). The writing and
 * checking run in a child under the memory limit (cl_guard_mb); a step stopped leaves no file. */
static int cl_report_blind(const cl_options *o, cl_row *row, dw_mixture seed[2])
{
    int pv = vb_plain_variant(row->variant);
    if (!o->out_dir || pv < 0)
        return 0;
    char plain[4096], path[4096], err[700];
    snprintf(plain, sizeof plain, "%s/%dx%d-%s.value", o->out_dir, row->rows, row->cols,
             hx_variant_name((hx_variant)pv));
    snprintf(path, sizeof path, "%s/%dx%d-%s-blind.value", o->out_dir, row->rows, row->cols,
             hx_variant_name(row->variant));
    vc_cert *base = cl_load_of(row, "report-blind", plain, (hx_variant)pv);
    if (!base)
        return 0;
    cl_blind_ctx b = { .base = base, .v = row->variant, .path = path };
    cl_guarded g;
    mg_result m;
    int rc = mg_run(cl_blind_step, &b, cl_guard_mb(o), &g, sizeof g, &m);
    vc_free(base);
    if (rc != 0 || g.res != 0) {
        if (rc != 0)
            remove(path); /* a file the killed step may have left half written */
        cl_note(row, "; report-blind: %.300s", rc != 0 ? m.why : g.why);
        return 0;
    }
    cl_note(row, "; report-blind certificate %.200s: [%+.9f, %+.9f]", path, g.lower, g.upper);
    int out = 0;
    if (g.exact) {
        cl_exact_at(row, g.lower_text, g.lower, "report-blind");
        out = 2;
    } else {
        if (g.upper - g.lower < row->upper - row->lower)
            row->lower = g.lower, row->upper = g.upper, row->how = "report-blind";
        vc_cert *c = vc_load(path, err, sizeof err);
        if (!c || ds_seed_from_certificate(c, seed, err, sizeof err) != 0)
            cl_note(row, "; no seed from it: %.200s", err);
        else
            out = 1;
        vc_free(c);
    }
    return out;
}

/* Without the tree: the row's kept certificate when there is one (cl_kept), else the report-blind certificate
 * when there is one (cl_report_blind), else the pure-strategy walk's double oracle (dowalk.h) for CL_DO_SHARE
 * of the time left; then the sequence-form double oracle (doseq.h) seeded with their attempts until the
 * deadline (with spread defaults, dw_options.spread, on the -flash boards); the value when its bounds meet,
 * else its interval when narrower than the row's. */
static void cl_tree_free_value(const cl_options *o, double deadline, cl_row *row)
{
    const char *why;
    dw_mixture seed[2] = { { 0 }, { 0 } }, mix[2] = { { 0 }, { 0 } };
    double kept[2];
    bool seeded;
    int has_kept = cl_kept(o, row, seed, kept, &seeded); /* a full check: no time limit of its own */
    int blind = has_kept == 1 ? seeded : cl_report_blind(o, row, seed); /* nor has a certificate's listing */
    double left = deadline - clk_now();
    if (row->exact || left < 0.01 || !dw_supported(row->variant, row->rows, row->cols, &why)) {
        dw_mixture_free(&seed[0]), dw_mixture_free(&seed[1]);
        return;
    }
    dw_options w;
    dw_options_default(&w);
    w.time_limit = left * CL_DO_SHARE;
    w.keep = seed;
    dw_result wr = { .lower = -1, .upper = 1 };
    char err[300];
    if (!blind && dw_solve(row->variant, row->rows, row->cols, &w, &wr, err, sizeof err) != 0) {
        cl_note(row, "; the walk's double oracle: %.100s", err);
        return;
    }
    w.time_limit = fmax(deadline - clk_now(), 0.01);
    w.keep = mix;
    w.spread = hx_variant_report(row->variant) == HX_REPORT_FLASH; /* see doseq.h: beaten outright otherwise */
    sf_options lp;
    sf_options_default(&lp);
    lp.solver = SF_CLP;
    double bounds[2] = { wr.lower, wr.upper };
    ds_result r;
    char path[4096] = "", fresh[4200] = "";
    if (o->out_dir) {
        snprintf(path, sizeof path, "%s/%dx%d-%s.value", o->out_dir, row->rows, row->cols, hx_variant_name(row->variant));
        snprintf(fresh, sizeof fresh, "%s%s", path, has_kept ? ".new" : ""); /* the kept one stays until beaten */
    }
    ds_exact x = { .certificate = o->out_dir ? fresh : NULL }; /* the value as a fraction once the bounds meet */
    vw_options_default(&x.vw);
    x.vw.max_states = CL_CHECK_MAX_STATES;
    if (ds_solve(row->variant, row->rows, row->cols, &w, &lp, CL_RESTRICTED_NODES, seed, bounds, &x, &r, err,
                 sizeof err) != 0) {
        cl_note(row, "; the sequence oracle: %.100s", err);
        dw_mixture_free(&seed[0]), dw_mixture_free(&seed[1]);
        return;
    }
    if (blind)
        cl_note(row, "; sequence oracle seeded by it: %d restricted games", r.iterations);
    else
        cl_note(row, "; walk %d + sequence oracle %d restricted games", wr.iterations, r.iterations);
    if (r.converged) {
        row->exact = true;
        row->value = (r.lower + r.upper) / 2;
        row->lower = r.lower, row->upper = r.upper;
        row->how = "sequence oracle";
    } else if (r.upper - r.lower < row->upper - row->lower) {
        row->lower = r.lower, row->upper = r.upper;
        row->how = "sequence-oracle bounds";
    }
    long num, den;
    if (x.value && sscanf(x.value, "%ld/%ld", &num, &den) == 2 && den > 0)
        row->num = num, row->den = den;
    else if (x.value && sscanf(x.value, "%ld", &num) == 1)
        row->num = num, row->den = 1;
    if (x.value)
        cl_note(row, "; exact %.60s (QSopt_ex)", x.value);
    else if (r.converged)
        cl_note(row, "; no exact fraction: %.100s", x.why);
    if (x.certified && x.cert.exact)
        cl_note(row, "; value certificate %.120s: %.40s", fresh, x.cert.lower);
    else if (o->out_dir && (r.converged || !strcmp(row->how, "sequence-oracle bounds")))
        cl_write_mixtures(mix, -1, fresh, row);
    if (has_kept == 1)
        cl_keep_narrower(row, fresh, path, kept);
    else if (has_kept < 0 && access(fresh, F_OK) == 0)
        cl_note(row, "; this run's certificate is %.200s, beside the unchecked one", fresh);
    ds_exact_free(&x);
    dw_mixture_free(&mix[0]), dw_mixture_free(&mix[1]);
}

/* The value of a board neither player wins surely, on its tree t (NULL: it did not fit): the double oracle
 * within CL_DO_SHARE of the time left, else the LP within half the time left, else CFR+ for the rest (at
 * least CL_CFR_MIN_SHARE of the budget); when none is exact, the narrower of the double oracle's and CFR+'s
 * intervals (both from exact best responses). */
static void cl_value(const cl_options *o, double deadline, const sv_tree *t, cl_row *row)
{
    row->lower = -1, row->upper = 1, row->how = "none";
    if (!t) {
        snprintf(row->note, sizeof row->note, "the game tree has more than %u nodes (or no time was left)", o->max_nodes);
        cl_uniform_bounds(row);
        cl_tree_free_value(o, deadline, row);
        return;
    }
    size_t na = t->n_actions ? t->n_actions : 1;
    double *probs = malloc(sizeof *probs * na), *do_probs = malloc(sizeof *do_probs * na);
    char err[300];
    if (!probs || !do_probs) {
        snprintf(row->note, sizeof row->note, "no value: out of memory");
        goto done;
    }
    snprintf(row->note, sizeof row->note, "tree %u nodes", t->n_nodes);
    do_result d;
    bool have_do = false;
    double share = (deadline - clk_now()) * CL_DO_SHARE, root_values[EFG_MAX_ACTIONS];
    if (share > 0.001) {
        if (cl_oracle(t, -1, share, root_values, do_probs, &d, err, sizeof err) != 0) {
            cl_note(row, "; double oracle: %.100s", err);
        } else if (d.converged) {
            row->exact = true;
            row->value = (d.lower + d.upper) / 2;
            row->lower = d.lower;
            row->upper = d.upper;
            row->how = "double oracle";
            if (t->nodes[0].player == 0) {
                const sv_infoset *root = &t->infosets[t->nodes[0].infoset];
                for (int a = 0; a < root->n; a++)
                    if (t->actions[root->offset + a] < CL_MAX_CELLS)
                        row->root_br[t->actions[root->offset + a]] = root_values[a];
                row->has_root_br = true;
            }
            cl_note(row, "; double oracle: %d restricted games, %u + %u pure strategies, %.1f s", d.iterations,
                    d.strategies[0], d.strategies[1], d.seconds);
            cl_lp_check(t, probs, row);
            if (o->out_dir)
                cl_write_policy(t, do_probs, "double-oracle", d.gap / 2, o, row);
            goto done;
        } else {
            have_do = true;
            row->lower = d.lower;
            row->upper = d.upper;
            row->how = "double oracle";
            cl_note(row, "; double oracle not done in %.0f s (%d restricted games)", share, d.iterations);
        }
    }
    sf_options so;
    sf_options_default(&so);
    so.only = 0;
    so.solver = SF_CLP; /* faster than GLPK on these LPs (bench_solver, docs/solver.md) */
    so.time_limit = (deadline - clk_now()) / 2;
    sf_result r;
    long iterations = 0;
    double lower, upper;
    if (so.time_limit > 0.001 && sf_solve(t, &so, probs, &r, err, sizeof err) == 0) {
        row->exact = true;
        row->value = row->lower = row->upper = r.value;
        row->how = "lp";
        cl_note(row, "; Black's LP (CLP) %u sequences, %d iterations", r.lp[0].sequences, r.lp[0].iterations);
        if (o->out_dir)
            cl_write_policy(t, probs, "seqform-lp", 0, o, row);
    } else if (cl_cfr_bounds(t, fmax(deadline, clk_now() + o->budget_s * CL_CFR_MIN_SHARE), probs, &lower, &upper,
                             &iterations) == 0) {
        cl_note(row, "; LP not done in %.0f s; %ld CFR+ iterations", so.time_limit, iterations);
        if (!have_do || upper - lower < row->upper - row->lower) {
            row->lower = lower;
            row->upper = upper;
            row->how = "cfr+ bounds";
            if (o->out_dir)
                cl_write_policy(t, probs, "cfr+", (upper - lower) / 2, o, row);
        } else if (o->out_dir) {
            cl_write_policy(t, do_probs, "double-oracle", (row->upper - row->lower) / 2, o, row);
        }
    } else if (have_do) {
        if (o->out_dir)
            cl_write_policy(t, do_probs, "double-oracle", (row->upper - row->lower) / 2, o, row);
    } else {
        snprintf(row->note, sizeof row->note, "no value: out of memory");
    }
done:
    free(probs);
    free(do_probs);
}

/* The value after Black's first cell without the tree: the sequence oracle with dw_options.first (spread
 * defaults as the row's own run on the -flash boards), until the deadline. With o->out_dir its certificate
 * RxC-V-first-CELL.value goes there (the exact one, or the interval of its best mixtures); one already there (an
 * earlier run's, or one of docs/certificates/first/ put there) is checked in full first (cl_kept_at): exact, it
 * is the cell's value ("certificate"); an interval, its bounds are the cell's until beaten, its attempts seed the
 * oracle, and the run's certificate replaces it only when narrower (cl_keep_narrower). */
static void cl_first_sequence(const cl_options *o, double deadline, cl_row *row, cl_first_move *m)
{
    dw_options w;
    dw_options_default(&w);
    w.first = m->cell;
    w.spread = hx_variant_report(row->variant) == HX_REPORT_FLASH;
    sf_options lp;
    sf_options_default(&lp);
    lp.solver = SF_CLP;
    char path[4096] = "", fresh[4200] = "", name[HX_CELL_NAME_MAX], err[300];
    hx_cell_name(m->cell, row->cols, name);
    dw_mixture seed[2] = { { 0 }, { 0 } }, mix[2] = { { 0 }, { 0 } };
    double kept[2] = { -1, 1 };
    bool seeded = false;
    int has_kept = 0;
    if (o->out_dir) {
        snprintf(path, sizeof path, "%s/%dx%d-%s-first-%s.value", o->out_dir, row->rows, row->cols,
                 hx_variant_name(row->variant), name);
        long frac[2] = { 0, -1 };
        has_kept = cl_kept_at(o, row, path, m->cell, seed, kept, &seeded, frac); /* a full check, no time limit */
        if (has_kept == 1 && frac[1] >= 0) { /* exact */
            *m = (cl_first_move){ .cell = m->cell, .exact = true, .value = kept[0], .lower = kept[0], .upper = kept[0],
                                  .how = "certificate", .num = frac[0], .den = frac[1] };
            return;
        }
        if (has_kept == 1)
            m->lower = kept[0], m->upper = kept[1], m->how = "certificate";
        snprintf(fresh, sizeof fresh, "%s%s", path, has_kept ? ".new" : ""); /* the kept one stays until beaten */
        w.keep = mix;
    }
    w.time_limit = fmax(deadline - clk_now(), 0.01);
    double bounds[2] = { -1, 1 };
    ds_exact x = { .certificate = o->out_dir ? fresh : NULL };
    vw_options_default(&x.vw);
    x.vw.max_states = CL_CHECK_MAX_STATES;
    ds_result r;
    if (ds_solve(row->variant, row->rows, row->cols, &w, &lp, CL_RESTRICTED_NODES, seeded ? seed : NULL,
                 seeded ? bounds : NULL, &x, &r, err, sizeof err) != 0) {
        dw_mixture_free(&seed[0]), dw_mixture_free(&seed[1]);
        return;
    }
    if (r.converged) {
        *m = (cl_first_move){ .cell = m->cell, .exact = true, .value = (r.lower + r.upper) / 2, .lower = r.lower,
                              .upper = r.upper, .how = "sequence oracle" };
        long num, den;
        if (x.value && sscanf(x.value, "%ld/%ld", &num, &den) == 2 && den > 0)
            m->num = num, m->den = den;
        else if (x.value && sscanf(x.value, "%ld", &num) == 1)
            m->num = num, m->den = 1;
        else if (!cl_fraction(m->lower, m->upper, &m->num, &m->den))
            m->den = 0;
    } else if (fmin(r.upper, 1) - fmax(r.lower, -1) < m->upper - m->lower) {
        m->lower = fmax(r.lower, -1), m->upper = fmin(r.upper, 1);
        m->how = "sequence-oracle bounds";
    }
    if (o->out_dir && !(x.certified && x.cert.exact) && (r.lower > -1 || r.upper < 1))
        cl_write_mixtures(mix, m->cell, fresh, row); /* the interval reached, for the next run to start from */
    if (has_kept == 1)
        cl_keep_narrower(row, fresh, path, kept);
    else if (has_kept < 0 && access(fresh, F_OK) == 0)
        cl_note(row, "; this run's certificate is %.200s, beside the unchecked one", fresh);
    ds_exact_free(&x);
    dw_mixture_free(&mix[0]), dw_mixture_free(&mix[1]);
}

/* The first-move table (o->first_moves) within a budget of its own: a sure win's from the sure-win searches
 * (White's: every cell loses; Black's: a cell keeps the win exactly when Black's search wins from the key
 * after it), an exact value's from the double oracle with Black's root action fixed to each cell in turn (for half
 * the cell's share; a cell it does not close then gets the sequence oracle below for the rest), or
 * without the tree (a value from the sequence oracle) from the sequence oracle with Black's first attempt fixed
 * (a cell after its image under the half-turn copies the image's). */
static void cl_first_moves(const cl_options *o, const sv_tree *t, cl_row *row)
{
    double t0 = clk_now(), deadline = t0 + (o->first_budget_s > 0 ? o->first_budget_s : o->budget_s);
    int cells = row->rows * row->cols;
    if (row->outcome == CL_WHITE) {
        for (int x = 0; x < cells; x++)
            row->first[row->n_first++] = (cl_first_move){ .cell = x, .exact = true, .value = -1, .lower = -1, .upper = -1,
                                                          .how = "sure-win search", .num = -1, .den = 1 };
    } else if (row->outcome == CL_BLACK) {
        sw *s = sw_new(row->rows, row->cols, (sw_rules)sw_rules_of(row->variant), 0);
        if (!s)
            return;
        sw_set_limits(s, deadline, o->memo_bytes);
        sw_key root = sw_root(s);
        for (int x = 0; x < cells; x++) {
            sw_key placed, collided;
            bool can_place, won, can_collide;
            int r = sw_after_attempt(s, &root, x, &placed, &can_place, &won, &collided, &can_collide);
            if (r >= 0)
                r = won ? 1 : sw_solve(s, &placed, NULL);
            cl_first_move *m = &row->first[row->n_first++];
            *m = (cl_first_move){ .cell = x, .lower = -1, .upper = 1, .how = "none", .no_sure_win = r == 0 };
            if (r == 1)
                *m = (cl_first_move){ .cell = x, .exact = true, .value = 1, .lower = 1, .upper = 1,
                                      .how = "sure-win search", .num = 1, .den = 1 };
        }
        sw_free(s);
    } else if (row->exact && !t && (!strcmp(row->how, "sequence oracle") || !strcmp(row->how, "certificate"))) {
        /* no tree: the sequence oracle for each cell not after its image (the half-turn, below) */
        int todo = 0;
        for (int x = 0; x < cells; x++)
            todo += x <= cells - 1 - x;
        for (int x = 0; x < cells; x++) {
            cl_first_move *m = &row->first[row->n_first++];
            *m = (cl_first_move){ .cell = x, .lower = -1, .upper = 1, .how = "none" };
            if (cells - 1 - x < x) {
                *m = row->first[cells - 1 - x];
                m->cell = x;
                continue;
            }
            cl_first_sequence(o, clk_now() + (deadline - clk_now()) / (todo > 0 ? todo : 1), row, m);
            todo--;
        }
    } else if (row->exact && t && t->n_nodes && t->nodes[0].player == 0) {
        /* The half-turn (r, c) -> (R-1-r, C-1-c), cell x -> cells-1-x, maps the game onto itself (both
         * players' sides and the neighbour relation are kept), so a cell's value is its image's: only the
         * cells not after their image are solved, and share the budget. */
        const sv_infoset *is = &t->infosets[t->nodes[0].infoset];
        int n = is->n < CL_MAX_CELLS ? is->n : CL_MAX_CELLS, todo = 0;
        for (int a = 0; a < n; a++)
            todo += t->actions[is->offset + a] <= cells - 1 - t->actions[is->offset + a];
        for (int a = 0; a < n; a++) {
            cl_first_move *m = &row->first[row->n_first++];
            int cell = t->actions[is->offset + a], image = cells - 1 - cell;
            *m = (cl_first_move){ .cell = cell, .lower = -1, .upper = 1, .how = "none", .has_br = row->has_root_br,
                                  .br = row->has_root_br ? row->root_br[cell] : 0 };
            if (image < cell) {
                for (int k = 0; k < row->n_first - 1; k++)
                    if (row->first[k].cell == image) {
                        *m = row->first[k];
                        m->cell = cell;
                        m->br = row->has_root_br ? row->root_br[cell] : 0;
                    }
                continue;
            }
            do_result d;
            char err[300];
            double share = (deadline - clk_now()) / (todo > 0 ? todo : 1), cell_end = clk_now() + share;
            int rc = o->first_sequence_only ? -1 : cl_oracle(t, a, share / 2, NULL, NULL, &d, err, sizeof err);
            todo--;
            if (rc == 0) {
                m->lower = d.lower;
                m->upper = d.upper;
                m->how = "double oracle";
                if (d.converged) {
                    m->exact = true;
                    m->value = (d.lower + d.upper) / 2;
                    if (!cl_fraction(m->lower, m->upper, &m->num, &m->den))
                        m->den = 0;
                }
            }
            /* not closed in half its share: the sequence oracle with Black's first attempt fixed for the rest
             * (with spread defaults on the -flash boards, where it closes cells the tree's oracle does not) */
            const char *why;
            if (!m->exact && dw_supported(row->variant, row->rows, row->cols, &why)) {
                cl_first_move q = { .cell = cell, .lower = -1, .upper = 1, .how = "none" };
                cl_first_sequence(o, cell_end, row, &q);
                if (q.exact || q.upper - q.lower < m->upper - m->lower) {
                    q.has_br = m->has_br, q.br = m->br;
                    *m = q;
                }
            }
        }
    }
    row->first_seconds = clk_now() - t0;
}

int cl_classify(int rows, int cols, hx_variant v, const cl_options *o, cl_row *row)
{
    *row = (cl_row){ .rows = rows, .cols = cols, .variant = v, .outcome = CL_OPEN, .lower = -1, .upper = 1, .how = "none" };
    if (sw_rules_of(v) < 0 || rows < 2 || cols < 2 || rows * cols > SW_MAX_CELLS) {
        snprintf(row->note, sizeof row->note, "only the dark variants on boards of at most %d cells", SW_MAX_CELLS);
        return -1;
    }
    cl_reset_peak();
    double t0 = clk_now(), deadline = t0 + o->budget_s;
    int rc = cl_sure_wins(o, deadline, row);
    sv_tree t;
    bool tree = false;
    if (!rc && row->outcome == CL_NEITHER) {
        sv_darkhex params = { .variant = v, .rows = rows, .cols = cols };
        efg_game g;
        sv_darkhex_game(&g, &params);
        tree = clk_now() < deadline && sv_tree_build(&t, &g, o->max_nodes, false) == 0;
        cl_value(o, deadline, tree ? &t : NULL, row);
    }
    if (row->exact && !row->den && !cl_fraction(row->lower, row->upper, &row->num, &row->den))
        row->den = 0; /* (a fraction the exact LP gave stands) */
    row->seconds = clk_now() - t0;
    row->peak_mb = cl_peak_mb();
    if (!rc && o->first_moves)
        cl_first_moves(o, tree ? &t : NULL, row);
    if (tree)
        sv_tree_free(&t);
    return rc;
}

cl_check cl_check_certificate(const char *path, uint64_t sample, int full_cells, char *msg, size_t msglen)
{
    return cl_check_certificate_cap(path, sample, full_cells, CL_CHECK_MAX_STATES, msg, msglen);
}

cl_check cl_check_certificate_cap(const char *path, uint64_t sample, int full_cells, uint64_t max_states, char *msg,
                                  size_t msglen)
{
    if (vc_is_value_file(path)) { /* a value certificate (valcert.h): its own exact checker, never sampled */
        int v = vc_check_file(path, max_states, msg, msglen);
        return v > 0 ? CL_CHECK_VERIFIED : v == 0 ? CL_CHECK_REFUTED : CL_CHECK_UNDECIDED;
    }
    char err[400];
    sc_cert *c = sc_load(path, err, sizeof err);
    if (!c) {
        size_t n = strlen(path); /* err is "PATH: why" or "PATH:LINE: why" */
        const char *why = !strncmp(err, path, n) ? err + n + (err[n] == ':') : err;
        snprintf(msg, msglen, "%s: undecided: %s%s", path, *why == ' ' ? "" : "line ", *why == ' ' ? why + 1 : why);
        return CL_CHECK_UNDECIDED;
    }
    hx_variant v;
    int rows, cols, player;
    sc_describe(c, &v, &rows, &cols, &player);
    sc_report r;
    double t0 = clk_now();
    bool full = !sample || rows * cols <= full_cells;
    int res = full ? sc_check_all(c, max_states, &r) : sc_check_sample(c, sample, 1, &r);
    double s = clk_now() - t0;
    int n = snprintf(msg, msglen, "%s: %dx%d %s %s: ", path, rows, cols, hx_variant_name(v), player ? "white" : "black");
    char *tail = msg + (n > 0 && (size_t)n < msglen ? (size_t)n : 0);
    size_t left = msglen - (size_t)(tail - msg);
    cl_check out;
    if (full && res == 1) {
        out = CL_CHECK_VERIFIED;
        snprintf(tail, left, "verified against every opponent behaviour (%llu histories, %llu states, %.2f s)",
                 (unsigned long long)r.histories, (unsigned long long)r.states, s);
    } else if (res == 1) {
        out = CL_CHECK_SAMPLED;
        snprintf(tail, left, "sampled: %llu games won, not verified (random opponents; %llu histories, %.2f s)",
                 (unsigned long long)r.games, (unsigned long long)r.histories, s);
    } else if (res == 0) {
        out = CL_CHECK_REFUTED;
        snprintf(tail, left, "REFUTED: %s (%s; %llu histories, %llu states, %.2f s)", r.why,
                 full ? "every opponent behaviour" : "random opponents", (unsigned long long)r.histories,
                 (unsigned long long)r.states, s);
    } else {
        out = CL_CHECK_UNDECIDED;
        snprintf(tail, left, "undecided: %s (every opponent behaviour; %llu histories, %llu states, %.2f s)", r.why,
                 (unsigned long long)r.histories, (unsigned long long)r.states, s);
    }
    sc_free(c);
    return out;
}
