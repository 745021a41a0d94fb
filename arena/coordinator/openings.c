/* arena/coordinator/openings.c — opening suites (see openings.h). */
#include "openings.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "game.h"
#include "mix.h"
#include "rng.h"

/* Plays the opening on a fresh hex game (every stone placed: perfect information). Returns 0, or -1 with why. */
static int play(const op_opening *o, int rows, int cols, hx_game *g, char *why, size_t whylen)
{
    if (hx_new(g, HX_HEX, rows, cols, 0) != 0) {
        snprintf(why, whylen, "no %dx%d board", rows, cols);
        return -1;
    }
    for (int i = 0; i < o->n; i++) {
        char name[HX_CELL_NAME_MAX];
        hx_cell_name(o->cells[i], cols, name);
        if (o->cells[i] >= rows * cols) {
            snprintf(why, whylen, "cell %d is off the %dx%d board", o->cells[i], rows, cols);
            return -1;
        }
        if (hx_over(g)) {
            snprintf(why, whylen, "%s connects before %s", hx_winner(g) == HX_BLACK ? "Black" : "White", name);
            return -1;
        }
        int rc = hx_attempt(g, o->cells[i]);
        if (rc != HX_PLACED) {
            snprintf(why, whylen, "%s is taken twice", name);
            return -1;
        }
    }
    if (hx_over(g)) {
        snprintf(why, whylen, "%s has already connected", hx_winner(g) == HX_BLACK ? "Black" : "White");
        return -1;
    }
    return 0;
}

bool op_valid(const op_opening *o, int rows, int cols, char *why, size_t whylen)
{
    static hx_game g;
    if (o->n < 0 || o->n > OP_MAX_STONES || o->n >= rows * cols) {
        snprintf(why, whylen, "%d stones: expected 0 to %d on %dx%d", o->n,
                 rows * cols - 1 < OP_MAX_STONES ? rows * cols - 1 : OP_MAX_STONES, rows, cols);
        return false;
    }
    return play(o, rows, cols, &g, why, whylen) == 0;
}

int op_parse(const char *text, int rows, int cols, op_opening *o, char *why, size_t whylen)
{
    o->n = 0;
    const char *p = text;
    for (;;) {
        p += strspn(p, " \t,");
        if (!*p)
            break;
        size_t len = strcspn(p, " \t,");
        char cell[16];
        if (len >= sizeof cell) {
            snprintf(why, whylen, "'%.*s' is not a cell", (int)(len < 20 ? len : 20), p);
            return -1;
        }
        memcpy(cell, p, len);
        cell[len] = '\0';
        const char *w;
        int c = hx_cell_parse(cell, rows, cols, &w);
        if (c < 0) {
            snprintf(why, whylen, "'%s': %s", cell, w);
            return -1;
        }
        if (o->n == OP_MAX_STONES) {
            snprintf(why, whylen, "more than %d stones", OP_MAX_STONES);
            return -1;
        }
        o->cells[o->n++] = (uint16_t)c;
        p += len;
    }
    return op_valid(o, rows, cols, why, whylen) ? 0 : -1;
}

void op_format(const op_opening *o, int cols, char *out, size_t outlen)
{
    size_t k = 0;
    out[0] = '\0';
    for (int i = 0; i < o->n && k < outlen; i++) {
        char name[HX_CELL_NAME_MAX];
        hx_cell_name(o->cells[i], cols, name);
        int w = snprintf(out + k, outlen - k, "%s%s", i ? " " : "", name);
        if (w < 0)
            break;
        k += (size_t)w;
    }
}

double op_black_share(const op_opening *o, int rows, int cols, int fills, uint64_t seed)
{
    static hx_game g;
    char why[128];
    if (fills <= 0 || play(o, rows, cols, &g, why, sizeof why) != 0)
        return 0.5;
    int cells = rows * cols, n_free = 0, black_left = (cells + 1) / 2;
    uint16_t free_cells[HX_MAX_CELLS];
    bool taken[HX_MAX_CELLS] = { false };
    for (int i = 0; i < o->n; i++) {
        taken[o->cells[i]] = true;
        if (i % 2 == 0)
            black_left--;
    }
    for (int c = 0; c < cells; c++)
        if (!taken[c])
            free_cells[n_free++] = (uint16_t)c;
    rng_state rng;
    rng_seed(&rng, seed);
    int black_wins = 0;
    static hx_game fill;
    for (int f = 0; f < fills; f++) {
        /* A random split of the free cells (Fisher-Yates), the first black_left to Black: the board is full, so
         * exactly one side connects; played in the hex variant, Black then White alternately, until it does. */
        for (int i = n_free - 1; i > 0; i--) {
            int j = (int)rng_below(&rng, (uint32_t)(i + 1));
            uint16_t t = free_cells[i];
            free_cells[i] = free_cells[j];
            free_cells[j] = t;
        }
        hx_copy(&fill, &g);
        int b = 0, w = black_left;
        while (!hx_over(&fill) && (b < black_left || w < n_free)) {
            int mover = hx_to_move(&fill);
            int cell = mover == HX_BLACK && b < black_left ? free_cells[b++] : w < n_free ? free_cells[w++] : -1;
            if (cell < 0 || hx_attempt(&fill, cell) < 0)
                break;
        }
        black_wins += hx_over(&fill) && hx_winner(&fill) == HX_BLACK;
    }
    return (double)black_wins / fills;
}

static bool same_position(const op_opening *a, const op_opening *b)
{
    if (a->n != b->n)
        return false;
    for (int i = 0; i < a->n; i++) { /* every cell of a is in b, by the same colour */
        bool found = false;
        for (int j = i % 2; j < b->n && !found; j += 2)
            found = a->cells[i] == b->cells[j];
        if (!found)
            return false;
    }
    return true;
}

/* Black's cells ascending, then White's, interleaved again: one order per position. */
static void canonical(op_opening *o)
{
    for (int colour = 0; colour < 2; colour++)
        for (int i = colour; i < o->n; i += 2)
            for (int j = i + 2; j < o->n; j += 2)
                if (o->cells[j] < o->cells[i]) {
                    uint16_t t = o->cells[i];
                    o->cells[i] = o->cells[j];
                    o->cells[j] = t;
                }
}

int op_random_suite(uint64_t seed, hx_variant v, int rows, int cols, int stones, int want, op_opening *out)
{
    int cells = rows * cols;
    if (stones < 0 || stones > OP_MAX_STONES || stones >= cells || want <= 0)
        return 0;
    rng_state rng;
    rng_seed(&rng, mix_stream(mix_stream(seed, 0x6f70656eu /* "open" */), (uint64_t)v * 1000003u +
                                                                             (uint64_t)rows * 1009u + (uint64_t)cols));
    if (stones == 0) {
        out[0].n = 0;
        return 1;
    }
    /* Candidates that lean too far are kept aside with their lean, to fill a suite that cannot be balanced. */
    int n = 0, n_aside = 0, draws = 0, max_draws = 200 * want + 2000;
    op_opening *aside = calloc((size_t)want, sizeof *aside);
    double *lean = calloc((size_t)want, sizeof *lean);
    if (!aside || !lean) {
        free(aside);
        free(lean);
        return 0;
    }
    char why[128];
    while (n < want && draws++ < max_draws) {
        op_opening o = { .n = stones };
        uint16_t pool[HX_MAX_CELLS];
        for (int c = 0; c < cells; c++)
            pool[c] = (uint16_t)c;
        for (int i = 0; i < stones; i++) { /* a partial Fisher-Yates draw of distinct cells */
            int j = i + (int)rng_below(&rng, (uint32_t)(cells - i));
            uint16_t t = pool[i];
            pool[i] = pool[j];
            pool[j] = t;
            o.cells[i] = pool[i];
        }
        canonical(&o);
        if (!op_valid(&o, rows, cols, why, sizeof why))
            continue;
        bool dup = false;
        for (int i = 0; i < n && !dup; i++)
            dup = same_position(&o, &out[i]);
        for (int i = 0; i < n_aside && !dup; i++)
            dup = same_position(&o, &aside[i]);
        if (dup)
            continue;
        double share = op_black_share(&o, rows, cols, 64, rng_next(&rng));
        if (share >= 0.25 && share <= 0.75)
            out[n++] = o;
        else if (n_aside < want) {
            lean[n_aside] = share < 0.5 ? 0.5 - share : share - 0.5;
            aside[n_aside++] = o;
        }
    }
    while (n < want && n_aside > 0) { /* the least unbalanced first */
        int best = 0;
        for (int i = 1; i < n_aside; i++)
            if (lean[i] < lean[best])
                best = i;
        out[n++] = aside[best];
        aside[best] = aside[--n_aside];
        lean[best] = lean[n_aside];
    }
    free(aside);
    free(lean);
    return n;
}

typedef struct {
    int variant;                   /* -1: every variant */
    int rows, cols;
    op_opening o;
} book_entry;

struct op_book {
    book_entry *e;
    int n, cap;
};

void op_book_free(op_book *b)
{
    if (b)
        free(b->e);
    free(b);
}

static op_book *book_fail(op_book *b, FILE *f, char *line)
{
    op_book_free(b);
    if (f)
        fclose(f);
    free(line);
    return NULL;
}

op_book *op_book_load(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    op_book *b = calloc(1, sizeof *b);
    if (!f || !b) {
        snprintf(err, errlen, "%s: cannot open: %s", path, f ? "out of memory" : strerror(errno));
        return book_fail(b, f, NULL);
    }
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0;
    while (getline(&line, &cap, f) >= 0) {
        lineno++;
        line[strcspn(line, "#;\r\n")] = '\0';
        char *p = line + strspn(line, " \t");
        if (!*p)
            continue;
        for (char *q = p; *q; q++)
            if (!isprint((unsigned char)*q) && *q != '\t') {
                snprintf(err, errlen, "%s:%d: a control or non-ASCII byte (\\x%02x)", path, lineno, (unsigned char)*q);
                return book_fail(b, f, line);
            }
        book_entry e = { .variant = -1 };
        char word[32];
        size_t len = strcspn(p, " \t");
        snprintf(word, sizeof word, "%.*s", (int)(len < 31 ? len : 31), p);
        const char *why;
        if (!hx_board_parse(word, &e.rows, &e.cols, &why)) {
            e.variant = hx_variant_parse(word);
            if (e.variant < 0) {
                snprintf(err, errlen, "%s:%d: '%s': expected a variant or a board such as 3x3", path, lineno, word);
                return book_fail(b, f, line);
            }
            p += len;
            p += strspn(p, " \t");
            len = strcspn(p, " \t");
            snprintf(word, sizeof word, "%.*s", (int)(len < 31 ? len : 31), p);
            if (!hx_board_parse(word, &e.rows, &e.cols, &why)) {
                snprintf(err, errlen, "%s:%d: '%s': expected a board such as 3x3 (%s)", path, lineno, word, why);
                return book_fail(b, f, line);
            }
        }
        p += len;
        char reason[160];
        if (op_parse(p, e.rows, e.cols, &e.o, reason, sizeof reason) != 0) {
            snprintf(err, errlen, "%s:%d: %s", path, lineno, reason);
            return book_fail(b, f, line);
        }
        if (b->n == b->cap) {
            int nc = b->cap ? 2 * b->cap : 64;
            book_entry *ne = nc <= 1000000 ? realloc(b->e, (size_t)nc * sizeof *ne) : NULL;
            if (!ne) {
                snprintf(err, errlen, "%s:%d: too many openings (at most 1000000)", path, lineno);
                return book_fail(b, f, line);
            }
            b->e = ne;
            b->cap = nc;
        }
        b->e[b->n++] = e;
    }
    if (ferror(f)) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return book_fail(b, f, line);
    }
    free(line);
    fclose(f);
    if (b->n == 0) {
        snprintf(err, errlen, "%s: no openings in the file", path);
        return book_fail(b, NULL, NULL);
    }
    return b;
}

int op_book_suite(const op_book *b, hx_variant v, int rows, int cols, op_opening *out, int max)
{
    int n = 0;
    for (int i = 0; i < b->n; i++) {
        const book_entry *e = &b->e[i];
        if ((e->variant < 0 || e->variant == (int)v) && e->rows == rows && e->cols == cols) {
            if (n < max && out)
                out[n] = e->o;
            n++;
        }
    }
    return n;
}
