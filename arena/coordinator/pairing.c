/* arena/coordinator/pairing.c — results by pairing (see pairing.h). */
#include "pairing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mix.h"

struct pg_table {
    pg_pairing **p;                /* in the order they were made */
    int n, cap;
    int *slots;                    /* open addressing: index into p, -1 empty */
    int n_slots;
};

pg_table *pg_new(void)
{
    return calloc(1, sizeof(pg_table));
}

void pg_free(pg_table *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->n; i++) {
        free(t->p[i]->half);
        free(t->p[i]->seen);
        free(t->p[i]);
    }
    free(t->p);
    free(t->slots);
    free(t);
}

static uint64_t text_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3u;
    return h;
}

/* Independent of the order of x and y. */
static uint64_t key(hx_variant v, int rows, int cols, const char *x, const char *y)
{
    return mix64(text_hash(x) + text_hash(y) + mix64((uint64_t)v << 32 | (uint64_t)rows << 16 | (uint64_t)cols));
}

static bool matches(const pg_pairing *p, hx_variant v, int rows, int cols, const char *x, const char *y)
{
    return p->variant == v && p->rows == rows && p->cols == cols &&
           ((strcmp(p->a, x) == 0 && strcmp(p->b, y) == 0) || (strcmp(p->a, y) == 0 && strcmp(p->b, x) == 0));
}

pg_pairing *pg_find(pg_table *t, hx_variant v, int rows, int cols, const char *x, const char *y)
{
    if (t->n_slots == 0)
        return NULL;
    for (uint64_t h = key(v, rows, cols, x, y);; h++) {
        int i = t->slots[h & (uint64_t)(t->n_slots - 1)];
        if (i < 0)
            return NULL;
        if (matches(t->p[i], v, rows, cols, x, y))
            return t->p[i];
    }
}

static void place(pg_table *t, int i)
{
    const pg_pairing *p = t->p[i];
    for (uint64_t h = key(p->variant, p->rows, p->cols, p->a, p->b);; h++)
        if (t->slots[h & (uint64_t)(t->n_slots - 1)] < 0) {
            t->slots[h & (uint64_t)(t->n_slots - 1)] = i;
            return;
        }
}

pg_pairing *pg_get(pg_table *t, hx_variant v, int rows, int cols, const char *a, const char *b)
{
    pg_pairing *p = pg_find(t, v, rows, cols, a, b);
    if (p)
        return p;
    if (2 * (t->n + 1) > t->n_slots) { /* keep the table at most half full */
        int ns = t->n_slots ? 2 * t->n_slots : 64;
        int *slots = malloc((size_t)ns * sizeof *slots);
        if (!slots)
            return NULL;
        free(t->slots);
        t->slots = slots;
        t->n_slots = ns;
        for (int i = 0; i < ns; i++)
            slots[i] = -1;
        for (int i = 0; i < t->n; i++)
            place(t, i);
    }
    if (t->n == t->cap) {
        int nc = t->cap ? 2 * t->cap : 32;
        pg_pairing **np = realloc(t->p, (size_t)nc * sizeof *np);
        if (!np)
            return NULL;
        t->p = np;
        t->cap = nc;
    }
    p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->variant = v;
    p->rows = rows;
    p->cols = cols;
    snprintf(p->a, sizeof p->a, "%s", a);
    snprintf(p->b, sizeof p->b, "%s", b);
    t->p[t->n] = p;
    place(t, t->n++);
    return p;
}

int pg_add(pg_pairing *p, bool a_black, bool a_won, int pair, uint64_t moves)
{
    p->games++;
    if (a_won) {
        p->a_wins++;
        p->a_wins_black += a_black;
    } else {
        p->b_wins++;
        p->b_wins_black += !a_black;
    }
    if (pair >= 0) {
        if (pair >= p->n_half) {
            int nn = pair + 1 > 2 * p->n_half ? pair + 1 : 2 * p->n_half;
            signed char *nh = realloc(p->half, (size_t)nn);
            if (!nh)
                return -1;
            memset(nh + p->n_half, -1, (size_t)(nn - p->n_half));
            p->half = nh;
            p->n_half = nn;
        }
        if (p->half[pair] < 0)
            p->half[pair] = (signed char)a_won;
        else if (p->half[pair] < 2) {
            pn_add(&p->penta, (double)(p->half[pair] + a_won));
            p->half[pair] = 2; /* complete: a third game of this pair (none is planned) is not counted again */
        }
    }
    if (moves) {
        if (p->n_seen == p->cap_seen) {
            long nc = p->cap_seen ? 2 * p->cap_seen : 16;
            uint64_t *ns = realloc(p->seen, (size_t)nc * sizeof *ns);
            if (!ns)
                return -1;
            p->seen = ns;
            p->cap_seen = nc;
        }
        p->seen[p->n_seen++] = mix64(moves ^ (a_black ? 0x9e3779b97f4a7c15u : 0));
    }
    return 0;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

void pg_finish(pg_table *t)
{
    for (int i = 0; i < t->n; i++) {
        pg_pairing *p = t->p[i];
        qsort(p->seen, (size_t)p->n_seen, sizeof *p->seen, cmp_u64);
        int d = 0;
        for (long k = 0; k < p->n_seen; k++)
            d += k == 0 || p->seen[k] != p->seen[k - 1];
        p->distinct = d;
    }
}

int pg_count(const pg_table *t)
{
    return t->n;
}

pg_pairing *pg_at(pg_table *t, int i)
{
    return i >= 0 && i < t->n ? t->p[i] : NULL;
}
