/* arena/report/svgfig.c — inline SVG figures of the pages (contract in svgfig.h): ratings, win matrix, rating
 * history; names and links escaped here, numbers never written "-0". */
#define _GNU_SOURCE /* open_memstream */
#include "svgfig.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FONT "font-family=\"system-ui,sans-serif\""

/* Text and attribute values: & < > " ' escaped, control bytes dropped. */
static void xml(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default:
            if (c >= 0x20 && c != 0x7f)
                fputc(c, f);
        }
    }
}

/* v with `dec` decimals, "0" (never "-0") when it rounds to zero; `sign` adds '+' to a positive value. */
static const char *num(char out[32], double v, int dec, bool sign)
{
    double unit = 0.5 * pow(10, -dec);
    if (!isfinite(v))
        snprintf(out, 32, "?");
    else if (fabs(v) < unit)
        snprintf(out, 32, "0");
    else
        snprintf(out, 32, sign ? "%+.*f" : "%.*f", dec, v);
    return out;
}

/* Opens an <svg> of w x h (a viewBox, shown at its width, scaled down to its box) with its accessible title. */
static FILE *begin(char **buf, size_t *len, int w, int h, const char *title)
{
    FILE *f = open_memstream(buf, len);
    if (!f)
        return NULL;
    fprintf(f, "<svg viewBox=\"0 0 %d %d\" width=\"%d\" class=\"fig\" role=\"img\" " FONT " font-size=\"12\"><title>",
            w, h, w);
    xml(f, title);
    fputs("</title><rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>", f);
    return f;
}

/* Closes the drawing: the text of the stream opened on *buf, NULL when memory ran out. */
static char *end(FILE *f, char **buf)
{
    fputs("</svg>", f);
    if (fclose(f) != 0) {
        free(*buf);
        return NULL;
    }
    return *buf;
}

/* A text at (x, y); anchor "start", "middle" or "end"; extra attributes (may be ""); linked when href. */
static void label(FILE *f, double x, double y, const char *anchor, const char *extra, const char *s, const char *href)
{
    if (href) {
        fputs("<a href=\"", f);
        xml(f, href);
        fputs("\">", f);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s%s%s>", x, y, anchor, extra[0] ? " " : "", extra,
            href ? " fill=\"#2a5db0\"" : "");
    xml(f, s);
    fputs("</text>", f);
    if (href)
        fputs("</a>", f);
}

/* Width in pixels of a text of 12px (about 7 per character, counting UTF-8 characters). */
static double text_width(const char *s)
{
    int n = 0;
    for (; s && *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return 7.0 * n;
}

static double longest(int n, const char *const *names)
{
    double w = 0;
    for (int i = 0; i < n; i++)
        if (text_width(names[i]) > w)
            w = text_width(names[i]);
    return w;
}

/* Ticks of a "nice" step (1, 2 or 5 times a power of ten) covering [lo, hi], about `want` of them: the axis'
 * range widened to whole steps in *lo and *hi, the step returned. */
static double ticks(double *lo, double *hi, int want)
{
    if (!(*hi > *lo)) {
        *lo -= 50;
        *hi += 50;
    }
    double raw = (*hi - *lo) / want, p = pow(10, floor(log10(raw))), step = p;
    if (raw > 5 * p)
        step = 10 * p;
    else if (raw > 2 * p)
        step = 5 * p;
    else if (raw > p)
        step = 2 * p;
    *lo = floor(*lo / step) * step;
    *hi = ceil(*hi / step) * step;
    return step;
}

/* The least and the greatest finite value of the n points and their intervals into *a and *b (-100..100 when
 * there is none). */
static void extent(int n, const double *elo, const double *lo, const double *hi, double *a, double *b)
{
    *a = INFINITY, *b = -INFINITY;
    for (int i = 0; i < n; i++) {
        double v[3] = { elo[i], lo[i], hi[i] };
        for (int k = 0; k < 3; k++)
            if (isfinite(v[k])) {
                *a = fmin(*a, v[k]);
                *b = fmax(*b, v[k]);
            }
    }
    if (!isfinite(*a))
        *a = -100, *b = 100;
}

static int decimals(double step)
{
    return step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
}

char *sv_ratings(const char *title, const char *caption, int n, const char *const *names, const double *elo,
                 const double *lo, const double *hi, const char *const *href)
{
    double names_w = fmin(fmax(longest(n, names) + 16, 80), 280), value_w = 150;
    int w = 760, row = 22, top = caption && caption[0] ? 50 : 34, h = top + row * (n > 0 ? n : 1) + 36;
    double a, b;
    extent(n, elo, lo, hi, &a, &b);
    double step = ticks(&a, &b, 6), x0 = names_w, x1 = w - value_w;
#define X(v) (x0 + ((v) - a) / (b - a) * (x1 - x0))
    char *buf = NULL, t[32], u[32], s[32];
    size_t len = 0;
    FILE *f = begin(&buf, &len, w, h, title);
    if (!f)
        return NULL;
    label(f, 8, 18, "start", "font-size=\"14\" font-weight=\"bold\"", title, NULL);
    if (caption && caption[0])
        label(f, 8, 36, "start", "fill=\"#555\"", caption, NULL);
    double bottom = top + row * (n > 0 ? n : 1);
    for (double k = 0, v = a; v <= b + step / 2; v = a + ++k * step) {
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>", X(v), top - 4, X(v),
                bottom, fabs(v) < step / 2 ? "#999" : "#e4e4e4");
        label(f, X(v), bottom + 16, "middle", "fill=\"#555\"", num(t, v, decimals(step), false), NULL);
    }
    label(f, (x0 + x1) / 2, bottom + 32, "middle", "fill=\"#555\"", "Elo (95% interval)", NULL);
    for (int i = 0; i < n; i++) {
        double y = top + row * i + row / 2.0;
        if (i % 2)
            fprintf(f, "<rect x=\"0\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"#f6f8fb\"/>", y - row / 2.0, w, row);
        label(f, x0 - 8, y + 4, "end", "", names[i], href ? href[i] : NULL);
        bool iv = isfinite(lo[i]) && isfinite(hi[i]);
        if (iv)
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#2166ac\" stroke-width=\"2\"/>",
                    X(lo[i]), y, X(hi[i]), y);
        if (isfinite(elo[i]))
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"#2166ac\"/>", X(elo[i]), y);
        char value[100];
        if (iv)
            snprintf(value, sizeof value, "%s (%s..%s)", num(t, elo[i], 0, true), num(u, lo[i], 0, true),
                     num(s, hi[i], 0, true));
        else
            snprintf(value, sizeof value, "%s", num(t, elo[i], 0, true));
        label(f, x1 + 10, y + 4, "start", "", value, NULL);
    }
#undef X
    return end(f, &buf);
}

unsigned sv_score_colour(double score)
{
    static const double stop[3][3] = { { 0xb2, 0x18, 0x2b }, { 0xf7, 0xf7, 0xf7 }, { 0x21, 0x66, 0xac } };
    double s = fmin(fmax(score, 0), 100) / 50;
    int k = s >= 1 ? 1 : 0;
    double t = s - k;
    unsigned out = 0;
    for (int c = 0; c < 3; c++)
        out = out << 8 | (unsigned)lround(stop[k][c] + (stop[k + 1][c] - stop[k][c]) * t);
    return out;
}

char *sv_matrix(const char *title, int n, const char *const *names, const long *wins, const long *games,
                const char *const *name_href, const char *const *cell_href)
{
    int cell = n <= 6 ? 72 : n <= 10 ? 56 : 44;
    double names_w = fmin(fmax(longest(n, names) + 16, 60), 240);
    double head = fmin(fmax(longest(n, names) * 0.6 + 16, 40), 150); /* the columns' names at 35 degrees */
    double x0 = names_w, y0 = 30 + head;
    int w = (int)ceil(x0 + cell * n + 20), h = (int)ceil(y0 + cell * n + 24);
    if (w < 400) /* the note under it */
        w = 400;
    char *buf = NULL, t[32];
    size_t len = 0;
    FILE *f = begin(&buf, &len, w, h, title);
    if (!f)
        return NULL;
    label(f, 8, 18, "start", "font-size=\"14\" font-weight=\"bold\"", title, NULL);
    for (int j = 0; j < n; j++) {
        double x = x0 + cell * j + cell / 2.0, y = y0 - 6;
        char rot[64];
        snprintf(rot, sizeof rot, "transform=\"rotate(-35 %.1f %.1f)\"", x, y);
        label(f, x, y, "start", rot, names[j], name_href ? name_href[j] : NULL);
    }
    for (int i = 0; i < n; i++) {
        double y = y0 + cell * i;
        label(f, x0 - 8, y + cell / 2.0 + 4, "end", "", names[i], name_href ? name_href[i] : NULL);
        for (int j = 0; j < n; j++) {
            double x = x0 + cell * j;
            long g = games[i * n + j], won = wins[i * n + j];
            if (g <= 0) {
                fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"#fff\" stroke=\"#ddd\"/>", x,
                        y, cell, cell);
                continue;
            }
            double score = 100.0 * (double)won / (double)g;
            const char *href = cell_href ? cell_href[i * n + j] : NULL;
            if (href) {
                fputs("<a href=\"", f);
                xml(f, href);
                fputs("\">", f);
            }
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"#%06x\" stroke=\"#fff\" "
                       "shape-rendering=\"crispEdges\"><title>",
                    x, y, cell, cell, sv_score_colour(score));
            xml(f, names[i]);
            fprintf(f, " (Black) against ");
            xml(f, names[j]);
            fprintf(f, ": %ld-%ld</title></rect>", won, g - won);
            const char *ink = score < 22 || score > 78 ? "#fff" : "#222";
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"%s\" font-size=\"%d\">%ld-%ld</text>",
                    x + cell / 2.0, y + cell / 2.0 - 1, ink, cell >= 56 ? 13 : 11, won, g - won);
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"%s\" font-size=\"10\">%s%%</text>",
                    x + cell / 2.0, y + cell / 2.0 + 13, ink, num(t, score, 0, false));
            if (href)
                fputs("</a>", f);
        }
    }
    label(f, x0, h - 6, "start", "fill=\"#555\" font-size=\"11\"",
          "rows move first (Black); cells: the row's wins-losses and score", NULL);
    return end(f, &buf);
}

/* Line colours of the history, then dashes when they run out. */
static const char *const colours[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                       "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22" };
#define N_COLOURS (int)(sizeof colours / sizeof colours[0])

char *sv_history(const char *title, int nx, const char *const *xlabels, int n, const char *const *names,
                 const double *elo, const double *lo, const double *hi, const char *const *href)
{
    int left = 64, right = 20, top = 34, plot_h = 240, labels_h = 84, entry_w = 190;
    int w = nx > 12 ? 200 + 44 * nx : 760, per_row = (w - left) / entry_w;
    if (per_row < 1)
        per_row = 1;
    int legend_rows = (n + per_row - 1) / per_row, h = top + plot_h + labels_h + 20 * legend_rows + 10;
    double a, b;
    extent(n * nx, elo, lo, hi, &a, &b);
    double step = ticks(&a, &b, 5), x0 = left + 20, x1 = w - right - 20, y0 = top, y1 = top + plot_h;
    double gap = nx > 1 ? (x1 - x0) / (nx - 1) : 0;
    /* players side by side within a night (at most 6 px apart), so that equal ratings do not hide each other */
    double spread = n > 1 ? fmin(0.3 * (gap > 0 ? gap : 40), 6.0 * (n - 1)) : 0;
#define PX(x, i) ((nx > 1 ? x0 + gap * (x) : (x0 + x1) / 2) + (n > 1 ? spread * ((double)(i) / (n - 1) - 0.5) : 0))
#define PY(v) (y1 - ((v) - a) / (b - a) * (y1 - y0))
    char *buf = NULL, t[32];
    size_t len = 0;
    FILE *f = begin(&buf, &len, w, h, title);
    if (!f)
        return NULL;
    label(f, 8, 18, "start", "font-size=\"14\" font-weight=\"bold\"", title, NULL);
    for (double k = 0, v = a; v <= b + step / 2; v = a + ++k * step) {
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\"/>", left, PY(v), w - right, PY(v),
                fabs(v) < step / 2 ? "#999" : "#e4e4e4");
        label(f, left - 6, PY(v) + 4, "end", "fill=\"#555\"", num(t, v, decimals(step), false), NULL);
    }
    for (int x = 0; x < nx; x++) {
        double px = nx > 1 ? x0 + gap * x : (x0 + x1) / 2;
        char rot[64];
        snprintf(rot, sizeof rot, "transform=\"rotate(-30 %.1f %.1f)\" fill=\"#555\"", px, y1 + 16);
        label(f, px, y1 + 16, "end", rot, xlabels[x], NULL);
    }
    for (int i = 0; i < n; i++) {
        const char *c = colours[i % N_COLOURS], *dash = i >= N_COLOURS ? " stroke-dasharray=\"5 3\"" : "";
        bool open = false;
        for (int x = 0; x < nx; x++) { /* the line, broken where the player did not play */
            double v = elo[i * nx + x];
            if (!isfinite(v)) {
                if (open)
                    fputs("\"/>", f);
                open = false;
                continue;
            }
            if (!open)
                fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"", c, dash);
            fprintf(f, "%s%.1f,%.1f", open ? " " : "", PX(x, i), PY(v));
            open = true;
        }
        if (open)
            fputs("\"/>", f);
        for (int x = 0; x < nx; x++) {
            double v = elo[i * nx + x], l = lo[i * nx + x], u = hi[i * nx + x];
            if (!isfinite(v))
                continue;
            if (isfinite(l) && isfinite(u))
                fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>", PX(x, i), PY(l),
                        PX(x, i), PY(u), c);
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>", PX(x, i), PY(v), c);
            xml(f, names[i]);
            fputs(", ", f);
            xml(f, xlabels[x]);
            fprintf(f, ": %s</title></circle>", num(t, v, 0, true));
        }
        double lx = left + entry_w * (i % per_row), ly = top + plot_h + labels_h + 20 * (i / per_row);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"%s/>", lx,
                ly, lx + 22, ly, c, dash);
        label(f, lx + 28, ly + 4, "start", "", names[i], href ? href[i] : NULL);
    }
#undef PX
#undef PY
    return end(f, &buf);
}
