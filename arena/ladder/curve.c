/* arena/ladder/curve.c — an SPRT test's LLR curve drawn as SVG (curve.h). */
#define _GNU_SOURCE /* open_memstream */
#include "curve.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { W = 640, H = 240, LEFT = 48, RIGHT = 12, TOP = 12, BOTTOM = 28 };

typedef struct {
    double x0, x1, y0, y1;
} frame;

static double px(const frame *fr, double x)
{
    return LEFT + (x - fr->x0) / (fr->x1 - fr->x0) * (W - LEFT - RIGHT);
}

static double py(const frame *fr, double y)
{
    return TOP + (fr->y1 - y) / (fr->y1 - fr->y0) * (H - TOP - BOTTOM);
}

/* A dashed horizontal line at y with its value at the left. */
static void bound(FILE *f, const frame *fr, double y, const char *colour)
{
    fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-dasharray=\"6 4\"/>", LEFT,
            py(fr, y), W - RIGHT, py(fr, y), colour);
    fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%.2f</text>", LEFT - 4, py(fr, y) + 4, y);
}

char *ld_llr_svg(const long *pairs, const double *llr, int n, double lower, double upper)
{
    frame fr = { 0, n > 0 ? (double)pairs[n - 1] : 1, lower, upper };
    for (int i = 0; i < n; i++)
        if (isfinite(llr[i])) {
            fr.y0 = fmin(fr.y0, llr[i]);
            fr.y1 = fmax(fr.y1, llr[i]);
        }
    double pad = (fr.y1 - fr.y0) * 0.08 + 0.1;
    fr.y0 -= pad;
    fr.y1 += pad;
    if (fr.x1 <= fr.x0)
        fr.x1 = fr.x0 + 1;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"100%%\" "
               "style=\"max-width:%dpx\" role=\"img\">", W, H, W);
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#ccc\"/>", LEFT, TOP,
            W - LEFT - RIGHT, H - TOP - BOTTOM);
    bound(f, &fr, upper, "#2a7d2a");
    bound(f, &fr, lower, "#b22222");
    bound(f, &fr, 0, "#999");
    fputs("<polyline fill=\"none\" stroke=\"#1f4e9c\" stroke-width=\"2\" points=\"", f);
    fprintf(f, "%.1f,%.1f", px(&fr, 0), py(&fr, 0));
    for (int i = 0; i < n; i++)
        if (isfinite(llr[i]))
            fprintf(f, " %.1f,%.1f", px(&fr, (double)pairs[i]), py(&fr, llr[i]));
    fputs("\"/>", f);
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">%ld game pairs</text></svg>",
            W - RIGHT, H - 8, n > 0 ? pairs[n - 1] : 0L);
    fclose(f);
    return buf;
}
