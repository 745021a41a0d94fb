/* arena/solver/valcert.c — value certificates (valcert.h): the file format, and the checker that computes
 * both players' exact best responses in GMP rationals on the rules engine. Deliberately shares nothing with
 * the solvers (gametree.c, bestresponse.c, seqform.c, doracle.c): it walks true games with game.h, groups
 * them by the best-responding player's history of what it was told, and reads the opponent's strategy by
 * that opponent's history text. */
#define _POSIX_C_SOURCE 200809L
#include "valcert.h"

#include <stdio.h> /* before gmp.h, which then declares its FILE functions */
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "board.h"
#include "clock.h"
#include "mix.h"

typedef struct {
    char *history;
    uint8_t player;
    uint16_t n;
    uint16_t *cells;
    mpq_t *probs;
} vc_entry;

struct vc_cert {
    hx_variant variant;
    int rows, cols;
    mpq_t lower, upper;
    int first;          /* Black's first attempt fixed to this cell, or -1 (free) */
    vc_entry *entries;  /* in the order first added */
    uint32_t n_entries, entries_cap;
    uint32_t *slots;    /* open addressing: entry index + 1 (0 empty) */
    uint32_t cap;
    uint64_t count[2];
};

void vc_history(const hx_event *ev, int n, int cols, char out[VC_HISTORY_MAX])
{
    size_t len = 0; /* built by hand: the checker writes one for every history it walks */
    for (int i = 0; i < n; i++) {
        if (len)
            out[len++] = ',';
        if (ev[i].kind == HX_EV_OPP_HIT) {
            out[len++] = '!';
            continue;
        }
        out[len++] = ev[i].kind == HX_EV_PLACED ? '+' : ev[i].kind == HX_EV_OPP_HIT_AT ? '!' : 'x';
        hx_cell_name(ev[i].cell, cols, out + len);
        len += strlen(out + len);
    }
    if (!len)
        out[len++] = '-';
    out[len] = '\0';
}

bool vc_is_value_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char line[16] = "";
    bool yes = fgets(line, sizeof line, f) && !strncmp(line, "darkhex-value", 13);
    fclose(f);
    return yes;
}

/* ---- the table ---------------------------------------------------------------------------------------- */

static uint64_t vc_hash(int player, const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull ^ (uint64_t)player; /* FNV-1a over the text, then one full mix */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return mix64(h);
}

/* The slot of (player, history): holding its entry, or empty. */
static uint32_t *vc_slot(const vc_cert *c, int player, const char *history)
{
    for (uint64_t j = vc_hash(player, history) & (c->cap - 1);; j = (j + 1) & (c->cap - 1)) {
        uint32_t *s = &c->slots[j];
        if (!*s)
            return s;
        const vc_entry *e = &c->entries[*s - 1];
        if (e->player == player && !strcmp(e->history, history))
            return s;
    }
}

static const vc_entry *vc_find(const vc_cert *c, int player, const char *history)
{
    uint32_t s = *vc_slot(c, player, history);
    return s ? &c->entries[s - 1] : NULL;
}

static void vc_entry_clear(vc_entry *e)
{
    for (int k = 0; k < e->n; k++)
        mpq_clear(e->probs[k]);
    free(e->probs);
    free(e->cells);
    e->probs = NULL, e->cells = NULL, e->n = 0;
}

vc_cert *vc_new(hx_variant v, int rows, int cols)
{
    if ((int)v < 0 || (int)v >= HX_VARIANT_COUNT || !hx_variant_dark(v) || rows < HX_MIN_SIDE || cols < HX_MIN_SIDE ||
        rows > HX_MAX_SIDE || cols > HX_MAX_SIDE)
        return NULL;
    vc_cert *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->variant = v, c->rows = rows, c->cols = cols, c->first = -1;
    mpq_inits(c->lower, c->upper, NULL);
    mpq_set_si(c->lower, -1, 1);
    mpq_set_si(c->upper, 1, 1);
    c->cap = 64;
    if (!(c->slots = calloc(c->cap, sizeof *c->slots))) {
        vc_free(c);
        return NULL;
    }
    return c;
}

void vc_free(vc_cert *c)
{
    if (!c)
        return;
    for (uint32_t i = 0; i < c->n_entries; i++) {
        vc_entry_clear(&c->entries[i]);
        free(c->entries[i].history);
    }
    free(c->entries);
    free(c->slots);
    mpq_clears(c->lower, c->upper, NULL);
    free(c);
}

void vc_describe(const vc_cert *c, hx_variant *v, int *rows, int *cols, uint64_t states[2])
{
    *v = c->variant, *rows = c->rows, *cols = c->cols;
    states[0] = c->count[0], states[1] = c->count[1];
}

uint32_t vc_state_count(const vc_cert *c)
{
    return c->n_entries;
}

int vc_state(const vc_cert *c, uint32_t i, int *player, const char **history, const uint16_t **cells,
             double *probs)
{
    if (i >= c->n_entries)
        return -1;
    const vc_entry *e = &c->entries[i];
    *player = e->player, *history = e->history, *cells = e->cells;
    for (int k = 0; k < e->n; k++)
        probs[k] = mpq_get_d(e->probs[k]);
    return e->n;
}

int vc_set_first(vc_cert *c, int cell)
{
    if (cell < -1 || cell >= c->rows * c->cols)
        return -1;
    c->first = cell;
    return 0;
}

int vc_first(const vc_cert *c)
{
    return c->first;
}

vc_cert *vc_merge(const vc_cert *black, const vc_cert *white, char *err, size_t errlen)
{
    if (black->variant != white->variant || black->rows != white->rows || black->cols != white->cols ||
        black->first != white->first) {
        snprintf(err, errlen, "Black's certificate is of %dx%d %s%s, White's of %dx%d %s%s", black->rows,
                 black->cols, hx_variant_name(black->variant), black->first >= 0 ? " with a first cell" : "",
                 white->rows, white->cols, hx_variant_name(white->variant),
                 white->first >= 0 ? " with a first cell" : "");
        return NULL;
    }
    vc_cert *c = vc_new(black->variant, black->rows, black->cols);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    c->first = black->first;
    mpq_set(c->lower, black->lower);
    mpq_set(c->upper, white->upper);
    char *text[HX_MAX_CELLS] = { 0 };
    for (int p = 0; p < 2; p++) {
        const vc_cert *from = p ? white : black;
        for (uint32_t i = 0; i < from->n_entries; i++) {
            const vc_entry *e = &from->entries[i];
            if (e->player != p)
                continue;
            int k = 0, rc = -1;
            while (k < e->n && (text[k] = mpq_get_str(NULL, 10, e->probs[k])))
                k++;
            if (k < e->n)
                snprintf(err, errlen, "out of memory");
            else
                rc = vc_add(c, p, e->history, e->n, e->cells, (const char *const *)text, err, errlen);
            for (int j = 0; j < k; j++)
                free(text[j]), text[j] = NULL;
            if (rc != 0) {
                vc_free(c);
                return NULL;
            }
        }
    }
    return c;
}

void vc_bounds(const vc_cert *c, double *lower, double *upper)
{
    *lower = mpq_get_d(c->lower), *upper = mpq_get_d(c->upper);
}

/* A rational "P/Q", "P" (and a leading '-' when allowed) into q, canonical. false on anything else. */
static bool vc_parse_q(mpq_t q, const char *s, bool negative_ok)
{
    const char *p = s;
    if (*p == '-' && negative_ok)
        p++;
    size_t a = strspn(p, "0123456789");
    if (!a)
        return false;
    p += a;
    if (*p == '/') {
        size_t b = strspn(p + 1, "0123456789");
        if (!b || p[1 + b])
            return false;
    } else if (*p) {
        return false;
    }
    if (mpq_set_str(q, s, 10) != 0 || !mpz_sgn(mpq_denref(q)))
        return false;
    mpq_canonicalize(q);
    return true;
}

/* Whether a history is well formed for this board (the events' syntax; whether it can happen is the
 * checker's business: a history that never happens is never looked up). */
static bool vc_history_ok(const vc_cert *c, const char *h)
{
    if (!strcmp(h, "-"))
        return true;
    char buf[VC_HISTORY_MAX];
    if (strlen(h) >= sizeof buf || !*h)
        return false;
    strcpy(buf, h);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        const char *why;
        if (!strcmp(tok, "!"))
            continue;
        if ((*tok != '+' && *tok != 'x' && *tok != '!') || hx_cell_parse(tok + 1, c->rows, c->cols, &why) < 0)
            return false;
    }
    return h[strlen(h) - 1] != ',' && !strstr(h, ",,") && h[0] != ',';
}

int vc_add(vc_cert *c, int player, const char *history, int n, const uint16_t *cells, const char *const *probs,
           char *err, size_t errlen)
{
    int cells_n = c->rows * c->cols;
    if (player != 0 && player != 1) {
        snprintf(err, errlen, "player %d is not black or white", player);
        return -1;
    }
    if (!vc_history_ok(c, history)) {
        snprintf(err, errlen, "bad history '%.200s'", history);
        return -1;
    }
    if (n < 1 || n > cells_n) {
        snprintf(err, errlen, "history %.200s: %d attempts listed (1 to %d)", history, n, cells_n);
        return -1;
    }
    vc_entry e = { .player = (uint8_t)player, .n = (uint16_t)n };
    e.cells = malloc(sizeof *e.cells * (size_t)n);
    e.probs = malloc(sizeof *e.probs * (size_t)n);
    if (!e.cells || !e.probs) {
        free(e.cells), free(e.probs);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int k = 0; k < n; k++)
        mpq_init(e.probs[k]);
    mpq_t sum;
    mpq_init(sum);
    int bad = 0;
    for (int k = 0; k < n && !bad; k++) {
        char name[HX_CELL_NAME_MAX];
        e.cells[k] = cells[k];
        if (cells[k] >= cells_n) {
            snprintf(err, errlen, "history %.200s: cell %d is not on the board", history, cells[k]);
            bad = 1;
            break;
        }
        hx_cell_name(cells[k], c->cols, name);
        for (int j = 0; j < k && !bad; j++)
            if (cells[j] == cells[k]) {
                snprintf(err, errlen, "history %.200s: %s listed twice", history, name);
                bad = 1;
            }
        if (!bad && !vc_parse_q(e.probs[k], probs[k], false)) {
            snprintf(err, errlen, "history %.200s: %s: '%.60s' is not a rational P/Q >= 0", history, name, probs[k]);
            bad = 1;
        }
        if (!bad)
            mpq_add(sum, sum, e.probs[k]);
    }
    if (!bad && mpq_cmp_ui(sum, 1, 1) != 0) {
        char *s = mpq_get_str(NULL, 10, sum);
        snprintf(err, errlen, "history %.200s: the probabilities sum to %.80s, not 1", history, s ? s : "?");
        free(s);
        bad = 1;
    }
    mpq_clear(sum);
    if (bad) {
        vc_entry_clear(&e);
        return -1;
    }
    uint32_t *slot = vc_slot(c, player, history);
    if (*slot) { /* replace */
        vc_entry *old = &c->entries[*slot - 1];
        vc_entry_clear(old);
        old->n = e.n, old->cells = e.cells, old->probs = e.probs;
        return 0;
    }
    if (!(e.history = strdup(history)))
        goto oom;
    if (c->n_entries == c->entries_cap) {
        uint32_t cap = c->entries_cap ? c->entries_cap * 2 : 64;
        vc_entry *t = realloc(c->entries, sizeof *t * cap);
        if (!t)
            goto oom;
        c->entries = t, c->entries_cap = cap;
    }
    if ((uint64_t)(c->n_entries + 1) * 2 > c->cap) {
        uint32_t cap = c->cap * 2, *t = calloc(cap, sizeof *t);
        if (!t)
            goto oom;
        free(c->slots);
        c->slots = t, c->cap = cap;
        for (uint32_t i = 0; i < c->n_entries; i++)
            *vc_slot(c, c->entries[i].player, c->entries[i].history) = i + 1;
        slot = vc_slot(c, player, history);
    }
    c->entries[c->n_entries] = e;
    *slot = ++c->n_entries;
    c->count[player]++;
    return 0;
oom:
    free(e.history);
    vc_entry_clear(&e);
    snprintf(err, errlen, "out of memory");
    return -1;
}

int vc_set_bounds(vc_cert *c, const char *lower, const char *upper, char *err, size_t errlen)
{
    mpq_t lo, up;
    mpq_inits(lo, up, NULL);
    int r = -1;
    if (!vc_parse_q(lo, lower, true))
        snprintf(err, errlen, "lower '%.60s' is not a rational P/Q", lower);
    else if (!vc_parse_q(up, upper, true))
        snprintf(err, errlen, "upper '%.60s' is not a rational P/Q", upper);
    else {
        mpq_set(c->lower, lo);
        mpq_set(c->upper, up);
        r = 0;
    }
    mpq_clears(lo, up, NULL);
    return r;
}

static void vc_write_q(FILE *f, const mpq_t q)
{
    char *text = mpq_get_str(NULL, 10, q);
    fputs(text ? text : "?", f); /* "?": out of memory, refused when read back */
    free(text);
}

int vc_save(const vc_cert *c, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "%s: cannot write", path);
        return -1;
    }
    fprintf(f, "darkhex-value 1\nvariant %s\nboard %dx%d\n", hx_variant_name(c->variant), c->rows, c->cols);
    if (c->first >= 0) {
        char name[HX_CELL_NAME_MAX];
        hx_cell_name(c->first, c->cols, name);
        fprintf(f, "first %s\n", name);
    }
    fprintf(f, "lower ");
    vc_write_q(f, c->lower);
    fprintf(f, "\nupper ");
    vc_write_q(f, c->upper);
    fprintf(f, "\nstates %u\n", c->n_entries);
    for (uint32_t i = 0; i < c->n_entries; i++) {
        const vc_entry *e = &c->entries[i];
        fprintf(f, "%s %s", e->player ? "white" : "black", e->history);
        for (int k = 0; k < e->n; k++) {
            char name[HX_CELL_NAME_MAX];
            hx_cell_name(e->cells[k], c->cols, name);
            fprintf(f, " %s=", name);
            vc_write_q(f, e->probs[k]);
        }
        fputc('\n', f);
    }
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad) {
        snprintf(err, errlen, "%s: write failed", path);
        return -1;
    }
    return 0;
}

/* One line of the file, without its newline; false at the end of the file. */
static bool vc_getline(FILE *f, char **text, size_t *size)
{
    ssize_t len = getline(text, size, f);
    if (len <= 0)
        return false;
    if ((*text)[len - 1] == '\n')
        (*text)[--len] = 0;
    return true;
}

/* A header line "NAME VALUE" into value; false when the line is not that. */
static bool vc_header_line(FILE *f, char **text, size_t *size, const char *name, char *value, size_t vlen)
{
    if (!vc_getline(f, text, size))
        return false;
    size_t n = strlen(name);
    if (strncmp(*text, name, n) || (*text)[n] != ' ' || !(*text)[n + 1] || strlen(*text + n + 1) >= vlen ||
        strchr(*text + n + 1, ' '))
        return false;
    strcpy(value, *text + n + 1);
    return true;
}

/* A state line "PLAYER HISTORY CELL=P/Q ..." into c; 0 or -1 with why. */
static int vc_state_line(vc_cert *c, char *text, char *why, size_t whylen)
{
    char *save = NULL, *who = strtok_r(text, " ", &save), *history = strtok_r(NULL, " ", &save);
    if (!who || (strcmp(who, "black") && strcmp(who, "white")) || !history) {
        snprintf(why, whylen, "expected 'black|white HISTORY CELL=P/Q ...'");
        return -1;
    }
    uint16_t cells[HX_MAX_CELLS];
    const char *probs[HX_MAX_CELLS];
    int n = 0;
    for (char *tok = strtok_r(NULL, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq || n == c->rows * c->cols) {
            snprintf(why, whylen, "history %.200s: expected CELL=P/Q, not '%.40s'", history, tok);
            return -1;
        }
        *eq = 0;
        const char *cwhy;
        int x = hx_cell_parse(tok, c->rows, c->cols, &cwhy);
        if (x < 0) {
            snprintf(why, whylen, "history %.200s: cell '%.20s': %s", history, tok, cwhy);
            return -1;
        }
        cells[n] = (uint16_t)x;
        probs[n++] = eq + 1;
    }
    if (!n) {
        snprintf(why, whylen, "history %.200s: no attempt listed", history);
        return -1;
    }
    int player = !strcmp(who, "white");
    if (vc_find(c, player, history)) {
        snprintf(why, whylen, "%s history %.200s listed twice", who, history);
        return -1;
    }
    return vc_add(c, player, history, n, cells, probs, why, whylen);
}

vc_cert *vc_load(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open", path);
        return NULL;
    }
    char *text = NULL, value[256], why[600] = "";
    size_t size = 0;
    int line = 1, rows = 0, cols = 0, v = -1;
    unsigned long long states = 0;
    vc_cert *c = NULL;
    char *lower = NULL;
    if (!vc_header_line(f, &text, &size, "darkhex-value", value, sizeof value) || strcmp(value, "1")) {
        snprintf(why, sizeof why, "expected 'darkhex-value 1'");
        goto bad;
    }
    line++;
    if (!vc_header_line(f, &text, &size, "variant", value, sizeof value) || (v = hx_variant_parse(value)) < 0 ||
        !hx_variant_dark((hx_variant)v)) {
        snprintf(why, sizeof why, "expected 'variant V' with a dark variant");
        goto bad;
    }
    line++;
    char tail;
    if (!vc_header_line(f, &text, &size, "board", value, sizeof value) ||
        sscanf(value, "%dx%d%c", &rows, &cols, &tail) != 2 || rows < HX_MIN_SIDE || cols < HX_MIN_SIDE ||
        rows > HX_MAX_SIDE || cols > HX_MAX_SIDE) {
        snprintf(why, sizeof why, "expected 'board RxC'");
        goto bad;
    }
    if (!(c = vc_new((hx_variant)v, rows, cols))) {
        snprintf(why, sizeof why, "out of memory");
        goto bad;
    }
    line++;
    bool got = vc_getline(f, &text, &size);
    if (got && !strncmp(text, "first ", 6)) { /* optional: Black's first attempt fixed */
        const char *cwhy = "no cell";
        int x = strchr(text + 6, ' ') ? -1 : hx_cell_parse(text + 6, rows, cols, &cwhy);
        if (x < 0) {
            snprintf(why, sizeof why, "expected 'first CELL': cell '%.20s': %s", text + 6, cwhy);
            goto bad;
        }
        c->first = x;
        line++;
        got = vc_getline(f, &text, &size);
    }
    /* the bounds may be long (exact rationals of an interval): read as whole lines */
    if (!got || strncmp(text, "lower ", 6) || !text[6] || strchr(text + 6, ' ') || !(lower = strdup(text + 6))) {
        snprintf(why, sizeof why, "expected 'lower P/Q'");
        goto bad;
    }
    line++;
    if (!vc_getline(f, &text, &size) || strncmp(text, "upper ", 6) || !text[6] || strchr(text + 6, ' ')) {
        snprintf(why, sizeof why, "expected 'upper P/Q'");
        goto bad;
    }
    if (vc_set_bounds(c, lower, text + 6, why, sizeof why) != 0) {
        line -= strncmp(why, "lower", 5) == 0;
        goto bad;
    }
    line++;
    if (!vc_header_line(f, &text, &size, "states", value, sizeof value) || sscanf(value, "%llu%c", &states, &tail) != 1 ||
        states > (1ull << 31)) {
        snprintf(why, sizeof why, "expected 'states N'");
        goto bad;
    }
    for (unsigned long long i = 0; i < states; i++) {
        line++;
        if (!vc_getline(f, &text, &size)) {
            snprintf(why, sizeof why, "the file ends after %llu of %llu states", i, states);
            goto bad;
        }
        if (vc_state_line(c, text, why, sizeof why) != 0)
            goto bad;
    }
    line++;
    if (vc_getline(f, &text, &size)) {
        snprintf(why, sizeof why, "more lines than 'states %llu' says", states);
        goto bad;
    }
    free(text);
    free(lower);
    fclose(f);
    return c;
bad:
    snprintf(err, errlen, "%s:%d: %s", path, line, why);
    free(text);
    free(lower);
    fclose(f);
    vc_free(c);
    return NULL;
}

/* ---- the checker: exact best responses ----------------------------------------------------------------- */

/* A true history, as its attempts, with the opponent's reach weight and the best responder's history. */
typedef struct {
    mpq_t w;
    char *history;
    uint16_t n;
    uint16_t *moves;
} vc_hist;

typedef struct {
    vc_hist *h;
    size_t n, cap;
} vc_list;

typedef struct {
    const vc_cert *c;
    int p;               /* the best-responding player */
    uint64_t max_states;
    vc_report *r;
    bool too_large;
} vc_ctx;

static void vc_list_free(vc_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        mpq_clear(l->h[i].w);
        free(l->h[i].history);
        free(l->h[i].moves);
    }
    free(l->h);
    l->h = NULL, l->n = l->cap = 0;
}

static void vc_player_history(const vc_cert *c, const hx_game *g, int player, char out[VC_HISTORY_MAX])
{
    hx_event ev[HX_MAX_EVENTS];
    int n = hx_events(g, player, ev);
    vc_history(ev, n, c->cols, out);
}

static bool vc_push(vc_ctx *x, vc_list *l, const hx_game *g, const mpq_t w)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        vc_hist *t = realloc(l->h, sizeof *t * cap);
        if (!t)
            return false;
        l->h = t, l->cap = cap;
    }
    vc_hist *h = &l->h[l->n];
    char text[VC_HISTORY_MAX];
    vc_player_history(x->c, g, x->p, text);
    h->n = (uint16_t)hx_num_attempts(g);
    h->moves = malloc(sizeof *h->moves * (h->n ? h->n : 1));
    h->history = strdup(text);
    if (!h->moves || !h->history) {
        free(h->moves), free(h->history);
        return false;
    }
    for (int i = 0; i < h->n; i++)
        h->moves[i] = (uint16_t)hx_move_at(g, i).cell;
    mpq_init(h->w);
    mpq_set(h->w, w);
    l->n++;
    return true;
}

static void vc_replay(const vc_cert *c, const vc_hist *h, hx_game *g)
{
    hx_new(g, c->variant, c->rows, c->cols, 0);
    for (int i = 0; i < h->n; i++)
        hx_attempt(g, h->moves[i]);
}

/* From g (reached with the opponent's weight w): the opponent's stated play until the best responder is to
 * move (those histories go to `out`) or the game ends (w times the best responder's utility added to
 * total). 1 fine, 0 refuted (why set), -1 the cap or out of memory. */
static int vc_expand(vc_ctx *x, const hx_game *g, const mpq_t w, mpq_t total, vc_list *out)
{
    x->r->histories++;
    if (x->max_states && x->r->histories > x->max_states) {
        x->too_large = true;
        return -1;
    }
    int p = x->p;
    if (hx_over(g)) {
        if (hx_winner(g) == p)
            mpq_add(total, total, w);
        else
            mpq_sub(total, total, w);
        return 1;
    }
    if (hx_to_move(g) == p)
        return vc_push(x, out, g, w) ? 1 : -1;
    int o = 1 - p;
    char text[VC_HISTORY_MAX];
    vc_player_history(x->c, g, o, text);
    const vc_entry *e = vc_find(x->c, o, text);
    if (!e) {
        char *s = mpq_get_str(NULL, 10, w);
        snprintf(x->r->why, sizeof x->r->why,
                 "%s's strategy has no state for its history %.150s, which its own play reaches (with probability "
                 "%.40s) against a %s behaviour",
                 o ? "White" : "Black", text, s ? s : "?", p ? "White" : "Black");
        free(s);
        return 0;
    }
    if (o == 0 && x->c->first >= 0 && hx_num_attempts(g) == 0)
        for (int k = 0; k < e->n; k++)
            if (mpq_sgn(e->probs[k]) && e->cells[k] != x->c->first) {
                char name[HX_CELL_NAME_MAX], fixed[HX_CELL_NAME_MAX];
                hx_cell_name(e->cells[k], x->c->cols, name);
                hx_cell_name(x->c->first, x->c->cols, fixed);
                snprintf(x->r->why, sizeof x->r->why,
                         "Black's strategy opens at %s, but the certificate fixes Black's first attempt at %s", name,
                         fixed);
                return 0;
            }
    mpq_t w2;
    mpq_init(w2);
    int r = 1;
    for (int k = 0; k < e->n && r == 1; k++) {
        if (!mpq_sgn(e->probs[k]))
            continue;
        if (hx_check(g, e->cells[k])) {
            char name[HX_CELL_NAME_MAX];
            hx_cell_name(e->cells[k], x->c->cols, name);
            snprintf(x->r->why, sizeof x->r->why, "%s's strategy attempts %s at its history %.150s: %s",
                     o ? "White" : "Black", name, text, hx_strerror(hx_check(g, e->cells[k])));
            r = 0;
            break;
        }
        hx_game t;
        hx_copy(&t, g);
        hx_attempt(&t, e->cells[k]);
        mpq_mul(w2, w, e->probs[k]);
        r = vc_expand(x, &t, w2, total, out);
    }
    mpq_clear(w2);
    return r;
}

static int by_history(const void *a, const void *b)
{
    return strcmp(((const vc_hist *)a)->history, ((const vc_hist *)b)->history);
}

static int vc_group(vc_ctx *x, const vc_hist *s, size_t n, mpq_t value);

/* The histories of `out` grouped by the best responder's history, each group's best-response value added
 * to total. */
static int vc_groups(vc_ctx *x, vc_list *out, mpq_t total)
{
    if (out->n > 1)
        qsort(out->h, out->n, sizeof *out->h, by_history);
    mpq_t v;
    mpq_init(v);
    int r = 1;
    for (size_t i = 0, j; r == 1 && i < out->n; i = j) {
        for (j = i + 1; j < out->n && !strcmp(out->h[j].history, out->h[i].history); j++)
            ;
        r = vc_group(x, out->h + i, j - i, v);
        if (r == 1)
            mpq_add(total, total, v);
    }
    mpq_clear(v);
    return r;
}

/* One information state of the best responder (n histories, it to move in each): the most, over its
 * attempts, of the sum over the histories of weight times continuation value. */
static int vc_group(vc_ctx *x, const vc_hist *s, size_t n, mpq_t value)
{
    x->r->infosets++;
    hx_game *games = malloc(sizeof *games * n);
    if (!games)
        return -1;
    for (size_t i = 0; i < n; i++)
        vc_replay(x->c, &s[i], &games[i]);
    uint16_t legal[HX_MAX_CELLS + 1];
    int m = hx_legal(&games[0], legal), r = 1;
    if (x->p == 0 && x->c->first >= 0 && hx_num_attempts(&games[0]) == 0) { /* Black's opening is fixed */
        legal[0] = (uint16_t)x->c->first;
        m = 1;
    }
    mpq_t total;
    mpq_init(total);
    for (int a = 0; a < m && r == 1; a++) {
        mpq_set_ui(total, 0, 1);
        vc_list out = { 0 };
        for (size_t i = 0; i < n && r == 1; i++) {
            hx_game t;
            hx_copy(&t, &games[i]);
            hx_attempt(&t, legal[a]);
            r = vc_expand(x, &t, s[i].w, total, &out);
        }
        if (r == 1)
            r = vc_groups(x, &out, total);
        vc_list_free(&out);
        if (r == 1 && (a == 0 || mpq_cmp(total, value) > 0))
            mpq_set(value, total);
    }
    mpq_clear(total);
    free(games);
    return r;
}

int vc_best_response(const vc_cert *c, int player, uint64_t max_states, char **value, vc_report *r)
{
    memset(r, 0, sizeof *r);
    *value = NULL;
    vc_ctx x = { .c = c, .p = player, .max_states = max_states, .r = r };
    hx_game g;
    if (hx_new(&g, c->variant, c->rows, c->cols, 0) != 0)
        return -1;
    mpq_t w, total;
    mpq_inits(w, total, NULL);
    mpq_set_ui(w, 1, 1);
    vc_list out = { 0 };
    int res = vc_expand(&x, &g, w, total, &out);
    if (res == 1)
        res = vc_groups(&x, &out, total);
    vc_list_free(&out);
    if (res == 1 && !(*value = mpq_get_str(NULL, 10, total)))
        res = -1;
    if (res < 0)
        snprintf(r->why, sizeof r->why, x.too_large ? "more than %llu histories" : "out of memory",
                 (unsigned long long)max_states);
    mpq_clears(w, total, NULL);
    return res;
}

int vc_check(const vc_cert *c, uint64_t max_states, char **lower, char **upper, vc_report *r)
{
    *lower = *upper = NULL;
    vc_report rb, rw;
    char *bv = NULL, *wv = NULL;
    int res = vc_best_response(c, 0, max_states, &bv, &rb);
    if (res == 1)
        res = vc_best_response(c, 1, max_states, &wv, &rw);
    else
        memset(&rw, 0, sizeof rw);
    memset(r, 0, sizeof *r);
    r->histories = rb.histories + rw.histories;
    r->infosets = rb.infosets + rw.infosets;
    if (res != 1) {
        snprintf(r->why, sizeof r->why, "%s", bv ? rw.why : rb.why);
        free(bv), free(wv);
        return res;
    }
    mpq_t up, lo;
    mpq_inits(up, lo, NULL);
    mpq_set_str(up, bv, 10);
    mpq_set_str(lo, wv, 10);
    mpq_neg(lo, lo);
    *upper = bv;
    *lower = mpq_get_str(NULL, 10, lo);
    free(wv);
    res = 1;
    if (!*lower) {
        res = -1;
        snprintf(r->why, sizeof r->why, "out of memory");
    } else if (mpq_cmp(lo, c->lower) != 0 || mpq_cmp(up, c->upper) != 0) {
        bool bad_lower = mpq_cmp(lo, c->lower) != 0;
        const mpq_t *stated = bad_lower ? &c->lower : &c->upper;
        char *s = mpq_get_str(NULL, 10, *stated);
        snprintf(r->why, sizeof r->why, "%s %.100s (%s), not the stated %s %.100s",
                 bad_lower ? "Black's strategy guarantees Black" : "White's strategy holds Black to",
                 bad_lower ? *lower : *upper,
                 bad_lower ? "minus White's best-response value" : "Black's best-response value",
                 bad_lower ? "lower" : "upper", s ? s : "?");
        free(s);
        res = 0;
    }
    mpq_clears(up, lo, NULL);
    return res;
}

/* A rational for a one-line summary: itself, or its length when too long to read. */
static const char *vc_short(const char *q, char *buf, size_t n)
{
    if (strlen(q) <= 80)
        return q;
    snprintf(buf, n, "(a rational of %zu characters)", strlen(q));
    return buf;
}

int vc_check_file(const char *path, uint64_t max_states, char *msg, size_t msglen)
{
    char err[700];
    vc_cert *c = vc_load(path, err, sizeof err);
    if (!c) {
        size_t n = strlen(path); /* err is "PATH:LINE: why" or "PATH: why" */
        const char *why = !strncmp(err, path, n) ? err + n + (err[n] == ':') : err;
        snprintf(msg, msglen, "%s: undecided: %s%s", path, *why == ' ' ? "" : "line ", *why == ' ' ? why + 1 : why);
        return -1;
    }
    double t0 = clk_now();
    char *lower = NULL, *upper = NULL;
    vc_report r;
    int res = vc_check(c, max_states, &lower, &upper, &r);
    double s = clk_now() - t0;
    char opening[64] = "";
    if (c->first >= 0) {
        char name[HX_CELL_NAME_MAX];
        hx_cell_name(c->first, c->cols, name);
        snprintf(opening, sizeof opening, " after Black's first attempt at %s", name);
    }
    int n = snprintf(msg, msglen, "%s: %dx%d %s value%s: ", path, c->rows, c->cols, hx_variant_name(c->variant),
                     opening);
    char *tail = msg + (n > 0 && (size_t)n < msglen ? (size_t)n : 0);
    size_t left = msglen - (size_t)(tail - msg);
    char counts[200];
    snprintf(counts, sizeof counts, "%llu Black and %llu White states listed; %llu histories walked, %.2f s",
             (unsigned long long)c->count[0], (unsigned long long)c->count[1], (unsigned long long)r.histories, s);
    if (res == 1) {
        mpq_t lo, up;
        mpq_inits(lo, up, NULL);
        mpq_set_str(lo, lower, 10);
        mpq_set_str(up, upper, 10);
        char b1[64], b2[64];
        if (!mpq_cmp(lo, up))
            snprintf(tail, left, "verified: value %s (= %+.12f) (%s)", vc_short(lower, b1, sizeof b1), mpq_get_d(lo),
                     counts);
        else
            snprintf(tail, left, "verified: value in [%s, %s] (= [%+.12f, %+.12f]) (%s)",
                     vc_short(lower, b1, sizeof b1), vc_short(upper, b2, sizeof b2), mpq_get_d(lo), mpq_get_d(up),
                     counts);
        mpq_clears(lo, up, NULL);
    } else if (res == 0) {
        snprintf(tail, left, "REFUTED: %s (%s)", r.why, counts);
    } else {
        snprintf(tail, left, "undecided: %s (%s)", r.why, counts);
    }
    free(lower), free(upper);
    vc_free(c);
    return res;
}
