/* arena/solver/surecert.c — sure-win certificates (surecert.h): the file format, and the checker that
 * replays one on the rules engine against every opponent behaviour (a belief-set search over true games)
 * or a random sample of them. Deliberately shares nothing with surewin.c but the file format. */
#define _POSIX_C_SOURCE 200809L
#include "surecert.h"

#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "mix.h"
#include "rng.h"

typedef struct {
    char *history; /* NULL: free slot */
    int cell;
} sc_entry;

struct sc_cert {
    hx_variant variant;
    int rows, cols, player;
    bool counted;
    sc_entry *table;
    uint64_t cap;
};

bool sc_reports_counted(hx_variant v) { return v == HX_ABRUPT_NOISY || v == HX_ABRUPT_FLASH; }

void sc_history(const hx_event *ev, int n, int cols, bool counted, char out[SC_HISTORY_MAX])
{
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        char name[HX_CELL_NAME_MAX];
        if (ev[i].kind == HX_EV_OPP_HIT || ev[i].kind == HX_EV_OPP_HIT_AT) {
            if (counted)
                len += (size_t)sprintf(out + len, "%s!", len ? "," : "");
            continue;
        }
        hx_cell_name(ev[i].cell, cols, name);
        len += (size_t)sprintf(out + len, "%s%c%s", len ? "," : "", ev[i].kind == HX_EV_PLACED ? '+' : 'x', name);
    }
    if (!len)
        strcpy(out, "-");
}

void sc_write_header(FILE *f, hx_variant v, int rows, int cols, int player, uint64_t moves)
{
    fprintf(f, "darkhex-surewin 1\nvariant %s\nboard %dx%d\nplayer %s\nreports %s\nmoves %llu\n",
            hx_variant_name(v), rows, cols, player ? "white" : "black", sc_reports_counted(v) ? "count" : "ignore",
            (unsigned long long)moves);
}

static uint64_t sc_hash(const char *s)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (; *s; s++)
        h = mix64(h ^ (unsigned char)*s);
    return h;
}

static sc_entry *sc_find(const sc_cert *c, const char *history)
{
    for (uint64_t j = sc_hash(history) & (c->cap - 1);; j = (j + 1) & (c->cap - 1))
        if (!c->table[j].history || !strcmp(c->table[j].history, history))
            return &c->table[j];
}

static int sc_lookup(const sc_cert *c, const char *history)
{
    const sc_entry *e = sc_find(c, history);
    return e->history ? e->cell : -1;
}

void sc_free(sc_cert *c)
{
    if (!c)
        return;
    for (uint64_t i = 0; i < c->cap; i++)
        free(c->table[i].history);
    free(c->table);
    free(c);
}

void sc_describe(const sc_cert *c, hx_variant *v, int *rows, int *cols, int *player)
{
    *v = c->variant, *rows = c->rows, *cols = c->cols, *player = c->player;
}

/* The header into c; 0 or the line number of the bad line. */
static int sc_header(FILE *f, sc_cert *c, unsigned long long *moves, const char **why)
{
    char name[32], reports[16];
    int version = 0;
    *why = "expected 'darkhex-surewin 1'";
    if (fscanf(f, "darkhex-surewin %d\n", &version) != 1 || version != 1)
        return 1;
    *why = "expected 'variant V' with a dark variant";
    if (fscanf(f, "variant %31s\n", name) != 1 || hx_variant_parse(name) < 0 || !hx_variant_dark(hx_variant_parse(name)))
        return 2;
    c->variant = (hx_variant)hx_variant_parse(name);
    *why = "expected 'board RxC'";
    if (fscanf(f, "board %dx%d\n", &c->rows, &c->cols) != 2 || c->rows < 2 || c->cols < 2 || c->rows > HX_MAX_SIDE ||
        c->cols > HX_MAX_SIDE)
        return 3;
    *why = "expected 'player black' or 'player white'";
    if (fscanf(f, "player %31s\n", name) != 1 || (strcmp(name, "black") && strcmp(name, "white")))
        return 4;
    c->player = !strcmp(name, "white");
    c->counted = sc_reports_counted(c->variant);
    *why = "expected 'reports count' (abrupt-noisy, abrupt-flash) or 'reports ignore' (the others)";
    if (fscanf(f, "reports %15s\n", reports) != 1 || strcmp(reports, c->counted ? "count" : "ignore"))
        return 5;
    *why = "expected 'moves N'";
    if (fscanf(f, "moves %llu\n", moves) != 1 || *moves > (1ull << 32))
        return 6;
    return 0;
}

sc_cert *sc_load(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open", path);
        return NULL;
    }
    sc_cert *c = calloc(1, sizeof *c);
    unsigned long long moves = 0;
    const char *why = "out of memory";
    int line = c ? sc_header(f, c, &moves, &why) : 1;
    if (!line) {
        for (c->cap = 16; c->cap < 2 * moves + 2; c->cap *= 2)
            ;
        if (!(c->table = calloc(c->cap, sizeof *c->table)))
            line = 7;
    }
    char *text = NULL;
    size_t size = 0;
    for (unsigned long long i = 0; !line && i < moves; i++) {
        line = (int)(7 + i);
        why = "expected 'HISTORY CELL'";
        ssize_t len = getline(&text, &size, f);
        if (len <= 0)
            break;
        if (text[len - 1] == '\n')
            text[--len] = 0;
        char *space = strchr(text, ' ');
        if (!space || space == text || (size_t)(space - text) >= SC_HISTORY_MAX)
            break;
        *space = 0;
        int x = hx_cell_parse(space + 1, c->rows, c->cols, &why);
        if (x < 0)
            break;
        sc_entry *e = sc_find(c, text);
        why = "a history listed twice";
        if (e->history)
            break;
        why = "out of memory";
        if (!(e->history = strdup(text)))
            break;
        e->cell = x;
        line = 0;
    }
    free(text);
    fclose(f);
    if (line) {
        snprintf(err, errlen, "%s:%d: %s", path, line, why);
        sc_free(c);
        return NULL;
    }
    return c;
}

/* ---- the belief-set search -------------------------------------------------------------------------- */

/* A true game and the player's history in it. */
typedef struct {
    hx_game g;
    char history[SC_HISTORY_MAX];
} sc_state;

typedef struct {
    const sc_cert *c;
    uint64_t max_states, carried;
    sc_report *r;
    bool too_large;
} sc_ctx;

typedef struct {
    sc_state *s;
    size_t n, cap;
} sc_list;

/* What tells two states apart for the future: the true board, both views, who moves, the history. */
static bool sc_same(const sc_state *a, const sc_state *b)
{
    const hx_game *x = &a->g, *y = &b->g;
    if (x->to_move != y->to_move || strcmp(a->history, b->history))
        return false;
    for (int i = 0; i < x->cells; i++)
        if (hx_owner(x, i) != hx_owner(y, i) || hx_view(x, 0, i) != hx_view(y, 0, i) || hx_view(x, 1, i) != hx_view(y, 1, i))
            return false;
    return true;
}

static uint64_t sc_state_hash(const sc_state *a)
{
    uint64_t h = sc_hash(a->history) ^ a->g.to_move;
    for (int i = 0; i < a->g.cells; i++)
        h = mix64(h ^ (uint64_t)(hx_owner(&a->g, i) | hx_view(&a->g, 0, i) << 2 | hx_view(&a->g, 1, i) << 4));
    return h;
}

/* Adds a copy of s to the list unless an equal state is in it (idx: an open-addressing index of the list,
 * sized by the caller). Returns false when memory runs out. */
static bool sc_add(sc_list *l, uint32_t **idx, uint64_t *icap, const sc_state *s)
{
    if ((l->n + 1) * 2 > *icap) {
        uint64_t cap = *icap ? *icap * 2 : 64;
        uint32_t *t = malloc(cap * sizeof *t);
        if (!t)
            return false;
        memset(t, 0xff, cap * sizeof *t);
        for (size_t i = 0; i < l->n; i++) {
            uint64_t j = sc_state_hash(&l->s[i]) & (cap - 1);
            while (t[j] != UINT32_MAX)
                j = (j + 1) & (cap - 1);
            t[j] = (uint32_t)i;
        }
        free(*idx);
        *idx = t, *icap = cap;
    }
    uint64_t j = sc_state_hash(s) & (*icap - 1);
    for (; (*idx)[j] != UINT32_MAX; j = (j + 1) & (*icap - 1))
        if (sc_same(&l->s[(*idx)[j]], s))
            return true;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        sc_state *t = realloc(l->s, cap * sizeof *t);
        if (!t)
            return false;
        l->s = t, l->cap = cap;
    }
    l->s[l->n] = *s;
    (*idx)[j] = (uint32_t)l->n++;
    return true;
}

static void sc_set_history(const sc_ctx *x, sc_state *s)
{
    hx_event ev[HX_MAX_EVENTS];
    int n = hx_events(&s->g, x->c->player, ev);
    sc_history(ev, n, x->c->cols, x->c->counted, s->history);
}

/* Plays the opponent's every legal attempt from s until the player is to move again; those states go to
 * `out`. 1 fine, 0 the opponent can win (why set), -1 out of memory. */
static int sc_opponent(sc_ctx *x, const sc_state *s, sc_list *out, uint32_t **idx, uint64_t *icap, sc_list *seen,
                       uint32_t **sidx, uint64_t *scap)
{
    int p = x->c->player;
    if (hx_winner(&s->g) == p)
        return 1;
    if (hx_winner(&s->g) == 1 - p) {
        snprintf(x->r->why, sizeof x->r->why, "the opponent wins after history %.150s", s->history);
        return 0;
    }
    if (hx_to_move(&s->g) == p)
        return sc_add(out, idx, icap, s) ? 1 : -1;
    size_t before = seen->n;
    if (!sc_add(seen, sidx, scap, s))
        return -1;
    if (seen->n == before)
        return 1; /* met already in this expansion */
    for (int cell = 0; cell < s->g.cells; cell++) {
        if (hx_check(&s->g, cell))
            continue;
        sc_state t;
        hx_copy(&t.g, &s->g);
        hx_attempt(&t.g, cell);
        sc_set_history(x, &t);
        int r = sc_opponent(x, &t, out, idx, icap, seen, sidx, scap);
        if (r <= 0)
            return r;
    }
    return 1;
}

static int by_history(const void *a, const void *b)
{
    return strcmp(((const sc_state *)a)->history, ((const sc_state *)b)->history);
}

/* The states of one history of the player (to move in each): 1 / 0 / -1 as sc_check_all. */
static int sc_walk(sc_ctx *x, sc_state *states, size_t n)
{
    x->r->histories++;
    x->r->states += n;
    x->carried += n;
    if (x->max_states && x->carried > x->max_states) {
        x->too_large = true;
        return -1;
    }
    int cell = sc_lookup(x->c, states[0].history);
    if (cell < 0 || hx_check(&states[0].g, cell)) {
        snprintf(x->r->why, sizeof x->r->why, "%s attempt for history %.150s", cell < 0 ? "no" : "an illegal",
                 states[0].history);
        return 0;
    }
    sc_list out = { 0 }, seen = { 0 };
    uint32_t *idx = NULL, *sidx = NULL;
    uint64_t icap = 0, scap = 0;
    int r = 1;
    for (size_t i = 0; i < n && r == 1; i++) {
        sc_state t;
        hx_copy(&t.g, &states[i].g);
        hx_attempt(&t.g, cell);
        sc_set_history(x, &t);
        r = sc_opponent(x, &t, &out, &idx, &icap, &seen, &sidx, &scap);
    }
    free(idx);
    free(sidx);
    free(seen.s);
    if (r == 1 && out.n)
        qsort(out.s, out.n, sizeof *out.s, by_history);
    for (size_t i = 0, j; r == 1 && i < out.n; i = j) {
        for (j = i + 1; j < out.n && !strcmp(out.s[j].history, out.s[i].history); j++)
            ;
        r = sc_walk(x, out.s + i, j - i);
    }
    free(out.s);
    return r;
}

int sc_check_all(const sc_cert *c, uint64_t max_states, sc_report *r)
{
    memset(r, 0, sizeof *r);
    sc_ctx x = { .c = c, .max_states = max_states, .r = r };
    sc_state start;
    if (hx_new(&start.g, c->variant, c->rows, c->cols, 0) != 0)
        return -1;
    sc_set_history(&x, &start);
    sc_list first = { 0 }, seen = { 0 };
    uint32_t *idx = NULL, *sidx = NULL;
    uint64_t icap = 0, scap = 0;
    int res = sc_opponent(&x, &start, &first, &idx, &icap, &seen, &sidx, &scap);
    free(idx);
    free(sidx);
    free(seen.s);
    if (res == 1 && first.n)
        res = sc_walk(&x, first.s, first.n);
    free(first.s);
    if (res == 1)
        snprintf(r->why, sizeof r->why, "every opponent behaviour loses");
    else if (res < 0)
        snprintf(r->why, sizeof r->why, x.too_large ? "more than %llu states" : "out of memory",
                 (unsigned long long)max_states);
    return res;
}

int sc_check_sample(const sc_cert *c, uint64_t games, uint64_t seed, sc_report *r)
{
    memset(r, 0, sizeof *r);
    rng_state rng;
    rng_seed(&rng, seed);
    sc_ctx x = { .c = c, .r = r };
    for (uint64_t i = 0; i < games; i++) {
        sc_state s;
        if (hx_new(&s.g, c->variant, c->rows, c->cols, 0) != 0)
            return 0;
        r->games++;
        while (!hx_over(&s.g)) {
            int cell;
            if (hx_to_move(&s.g) == c->player) {
                sc_set_history(&x, &s);
                r->histories++;
                cell = sc_lookup(c, s.history);
                if (cell < 0 || hx_check(&s.g, cell)) {
                    snprintf(r->why, sizeof r->why, "game %llu: %s attempt for history %.150s",
                             (unsigned long long)i, cell < 0 ? "no" : "an illegal", s.history);
                    return 0;
                }
            } else {
                uint16_t legal[HX_MAX_CELLS];
                int n = hx_legal(&s.g, legal);
                cell = legal[rng_below(&rng, (uint32_t)n)];
            }
            hx_attempt(&s.g, cell);
        }
        if (hx_winner(&s.g) != c->player) {
            sc_set_history(&x, &s);
            snprintf(r->why, sizeof r->why, "game %llu: the opponent wins after history %.150s", (unsigned long long)i,
                     s.history);
            return 0;
        }
    }
    snprintf(r->why, sizeof r->why, "%llu sampled games won", (unsigned long long)games);
    return 1;
}
