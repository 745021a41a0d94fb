/* arena/report/plot.c — the reports' figures by gnuplot (contract in plot.h): each figure is a data file of
 * numbers and a driver script that sets the names and titles as gnuplot strings, then loads the figure's
 * script from scripts/ once per output format. */
#define _GNU_SOURCE /* mkdtemp */
#include "plot.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The directory holding matrix.gp: $ARENA_SCRIPTS, the installed share directory, or scripts/ up to three
 * levels above the program (bin/, build/san/bin/). */
static int find_scripts(char *out, size_t len)
{
    const char *env = getenv("ARENA_SCRIPTS");
    char probe[PATH_MAX + 32];
    if (env && *env) {
        snprintf(out, len, "%s", env);
        snprintf(probe, sizeof probe, "%s/matrix.gp", out);
        return access(probe, R_OK) == 0 ? 0 : -1;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return -1;
    exe[n] = '\0';
    const char *dir = dirname(exe);
    char up[16] = "";
    for (int level = 0; level <= 3; level++) {
        if (level == 0)
            snprintf(out, len, "%s/../share/darkhex-arena/scripts", dir);
        else {
            strcat(up, "/..");
            snprintf(out, len, "%s%s/scripts", dir, up);
        }
        snprintf(probe, sizeof probe, "%s/matrix.gp", out);
        if (access(probe, R_OK) == 0)
            return 0;
    }
    return -1;
}

/* mkdir -p */
static int make_dirs(const char *path)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *q = buf + 1; *q; q++)
        if (*q == '/') {
            *q = '\0';
            if (mkdir(buf, 0755) != 0 && errno != EEXIST)
                return -1;
            *q = '/';
        }
    return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* Runs gnuplot on a script; its stderr goes to ours. Returns its exit status, or -1. */
static int run_gnuplot(const char *script)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

const char *pl_whole(char *out, size_t len, double v, bool sign)
{
    snprintf(out, len, sign ? "%+.0f" : "%.0f", v);
    if (strcmp(out, "-0") == 0 || strcmp(out, "+0") == 0)
        snprintf(out, len, "0");
    return out;
}

int pl_open(pl_plotter *p, const char *cmd, const char *out, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->cmd = cmd;
    if (find_scripts(p->scripts, sizeof p->scripts) != 0) {
        snprintf(err, errlen, "the gnuplot scripts (matrix.gp) not found next to this program; set ARENA_SCRIPTS "
                              "to the scripts directory");
        return -1;
    }
    if (system("gnuplot --version >/dev/null 2>&1") != 0) {
        snprintf(err, errlen, "gnuplot not found (make deps installs gnuplot-nox)");
        return -1;
    }
    snprintf(p->out, sizeof p->out, "%s", out);
    if (make_dirs(p->out) != 0) {
        snprintf(err, errlen, "%s: %s", out, strerror(errno));
        return -1;
    }
    const char *t = getenv("TMPDIR");
    snprintf(p->tmp, sizeof p->tmp, "%s/arena-plot-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(p->tmp)) {
        snprintf(err, errlen, "%s: %s", p->tmp, strerror(errno));
        return -1;
    }
    return 0;
}

void pl_close(pl_plotter *p)
{
    for (int k = 1; k <= p->seq; k++) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/f%d.dat", p->tmp, k);
        unlink(path);
        snprintf(path, sizeof path, "%s/f%d.gp", p->tmp, k);
        unlink(path);
    }
    if (p->tmp[0])
        rmdir(p->tmp);
    for (int k = 0; k < p->n_files; k++)
        free(p->files[k]);
    memset(p, 0, sizeof *p);
}

void pl_file_name(char *out, size_t len, const char *prefix, const char *text)
{
    size_t n = (size_t)snprintf(out, len, "%s", prefix);
    for (const char *s = text; *s && n + 1 < len; s++) {
        char c = *s;
        bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                    c == '.' || c == '_';
        out[n++] = keep ? c : c == ' ' ? '-' : '_';
    }
    if (n < len)
        out[n] = '\0';
}

/* A gnuplot string literal: single quotes (no escapes inside but '' for a quote), control characters '?'. */
static void gp_string(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\'')
            fputs("''", f);
        else if (c < 0x20 || c == 0x7f)
            fputc('?', f);
        else
            fputc(c, f);
    }
    fputc('\'', f);
}

/* gnuplot's single-quoted strings take no escapes, so a line break in a title is written as a double-quoted
 * "\n" joined with '.' */
static void gp_text(FILE *f, const char *s)
{
    const char *nl;
    while (s && (nl = strchr(s, '\n'))) {
        char part[1024];
        snprintf(part, sizeof part, "%.*s", (int)(nl - s), s);
        gp_string(f, part);
        fputs(".\"\\n\".", f);
        s = nl + 1;
    }
    gp_string(f, s ? s : "");
}

static void gp_names(FILE *f, const char *var, int n, const char *const *names)
{
    fprintf(f, "array %s[%d]\n", var, n > 0 ? n : 1);
    for (int i = 0; i < n; i++) {
        fprintf(f, "%s[%d] = ", var, i + 1);
        gp_string(f, names[i]);
        fputc('\n', f);
    }
}

/* A new data file and driver script; returns the driver (its data file path in data). */
static FILE *begin(pl_plotter *p, char *data, size_t len, FILE **df)
{
    p->seq++;
    snprintf(data, len, "%s/f%d.dat", p->tmp, p->seq);
    *df = fopen(data, "w");
    char gp[PATH_MAX + 32];
    snprintf(gp, sizeof gp, "%s/f%d.gp", p->tmp, p->seq);
    FILE *f = fopen(gp, "w");
    if (!f || !*df) {
        if (f)
            fclose(f);
        if (*df)
            fclose(*df);
        return NULL;
    }
    fputs("# generated by arena: the figure's settings, then its script once per format\n", f);
    fputs("data = ", f);
    gp_string(f, data);
    fputc('\n', f);
    return f;
}

/* Ends the driver: one run of `script` per format, then gnuplot. */
static int finish(pl_plotter *p, FILE *f, FILE *df, const char *file, const char *script)
{
    static const char *const ext[] = { "svg", "png" };
    char path[PATH_MAX * 2];
    for (int k = 0; k < 2; k++) {
        snprintf(path, sizeof path, "%s/%s.%s", p->out, file, ext[k]);
        fputs("out = ", f);
        gp_string(f, path);
        fputs("\nload ", f);
        snprintf(path, sizeof path, "%s/%s", p->scripts, script);
        gp_string(f, path);
        fputs("\nunset output\nreset\n", f);
    }
    bool bad = ferror(f) || ferror(df);
    bad |= fclose(df) != 0;
    bad |= fclose(f) != 0;
    if (bad) {
        fprintf(stderr, "arena %s: %s: cannot write\n", p->cmd, p->tmp);
        return -1;
    }
    char gp[PATH_MAX + 32];
    snprintf(gp, sizeof gp, "%s/f%d.gp", p->tmp, p->seq);
    int status = run_gnuplot(gp);
    if (status != 0) {
        fprintf(stderr, "arena %s: gnuplot failed on %s (status %d)\n", p->cmd, file, status);
        return -1;
    }
    for (int k = 0; k < 2 && p->n_files < PL_MAX_FILES; k++) {
        snprintf(path, sizeof path, "%s.%s", file, ext[k]);
        p->files[p->n_files++] = strdup(path);
    }
    return 0;
}

int pl_ratings(pl_plotter *p, const char *file, const char *title, const char *caption, int n,
               const char *const *names, const double *elo, const double *lo, const double *hi)
{
    char data[PATH_MAX + 32];
    FILE *df, *f = begin(p, data, sizeof data, &df);
    if (!f)
        return -1;
    for (int i = 0; i < n; i++) {
        fprintf(df, "%d %.3f", i, elo[i]);
        if (isfinite(lo[i]) && isfinite(hi[i]))
            fprintf(df, " %.3f %.3f\n", lo[i], hi[i]);
        else
            fprintf(df, " %.3f %.3f\n", elo[i], elo[i]);
    }
    size_t longest = 1;
    for (int i = 0; i < n; i++)
        if (strlen(names[i]) > longest)
            longest = strlen(names[i]);
    /* the names run down at 30 degrees: half their length in lines below the axis */
    fprintf(f, "n = %d\nw = %d\nh = %d\nbm = %d\n", n, n > 8 ? 360 + 56 * n : 800, 420 + 7 * (int)longest,
            3 + (int)(longest + 2) / 3);
    gp_names(f, "names", n, names);
    fputs("title = ", f);
    gp_text(f, title);
    fputs("\ncaption = ", f);
    gp_text(f, caption ? caption : "");
    fputc('\n', f);
    return finish(p, f, df, file, "ratings.gp");
}

int pl_matrix(pl_plotter *p, const char *file, const char *title, int n, const char *const *names,
              const long *wins, const long *games)
{
    char data[PATH_MAX + 32];
    FILE *df, *f = begin(p, data, sizeof data, &df);
    if (!f)
        return -1;
    /* x (column), y (row), score %, wins, losses, text colour (white on the deep ends of the palette) */
    int cells = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            long g = games[i * n + j], w = wins[i * n + j];
            if (g <= 0)
                continue;
            double score = 100.0 * (double)w / (double)g;
            fprintf(df, "%d %d %.4f %ld %ld %d\n", j, i, score, w, g - w,
                    score < 22 || score > 78 ? 0xffffff : 0x222222);
            cells++;
        }
    if (cells == 0) /* an empty matrix still plots: one invisible point */
        fputs("0 0 NaN 0 0 0\n", df);
    int side = n > 6 ? 64 * n : 100 * n;
    fprintf(f, "n = %d\nw = %d\nh = %d\ncellfont = %d\n", n, 260 + side + 120, 200 + side, n > 10 ? 8 : n > 6 ? 9 : 11);
    gp_names(f, "names", n, names);
    fputs("title = ", f);
    gp_text(f, title);
    fputc('\n', f);
    return finish(p, f, df, file, "matrix.gp");
}

int pl_history(pl_plotter *p, const char *file, const char *title, int nx, const char *const *xlabels, int n,
               const char *const *names, const double *elo, const double *lo, const double *hi)
{
    char data[PATH_MAX + 32];
    FILE *df, *f = begin(p, data, sizeof data, &df);
    if (!f)
        return -1;
    /* one block per player (two blank lines between): x elo lower upper; a night without the player is a
     * blank line, so its line breaks there */
    for (int i = 0; i < n; i++) {
        if (i)
            fputs("\n\n", df);
        int points = 0;
        for (int x = 0; x < nx; x++) {
            double e = elo[i * nx + x], a = lo[i * nx + x], b = hi[i * nx + x];
            if (!isfinite(e)) {
                if (points)
                    fputc('\n', df);
                continue;
            }
            /* players side by side within a night, so that equal ratings do not hide each other */
            double dx = n > 1 ? 0.3 * ((double)i / (n - 1) - 0.5) : 0.0;
            fprintf(df, "%.4f %.3f %.3f %.3f\n", x + dx, e, isfinite(a) ? a : e, isfinite(b) ? b : e);
            points++;
        }
        if (!points)
            fputs("NaN NaN NaN NaN\n", df);
    }
    fprintf(f, "n = %d\nnx = %d\nw = %d\nh = 520\n", n, nx, nx > 12 ? 500 + 36 * nx : 940);
    gp_names(f, "names", n, names);
    gp_names(f, "nights", nx, xlabels);
    fputs("title = ", f);
    gp_text(f, title);
    fputc('\n', f);
    return finish(p, f, df, file, "history.gp");
}
