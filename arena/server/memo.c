/* arena/server/memo.c — values computed once and shared by the requests that need them (contract in
 * server_private.h): each kept under a key (an id and the counts it was computed from), least recently used
 * first out, freed only when no request holds it. One request computes the value of an id at a time: the others
 * wait for it, or, when they may, take the newest value of that id already there. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server_private.h"

struct ws_memo_node {
    ws_memo_key key;
    void *value;                   /* NULL while being computed */
    int refs;                      /* requests holding it (its computer included) */
    unsigned long used;
    ws_memo_node *next;
};

struct ws_memo {
    pthread_mutex_t lock;
    pthread_cond_t done;
    ws_memo_node *head;
    int n, cap;
    unsigned long clock;
    void (*free_value)(void *);
};

ws_memo *ws_memo_new(int capacity, void (*free_value)(void *))
{
    ws_memo *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->cap = capacity;
    m->free_value = free_value;
    pthread_mutex_init(&m->lock, NULL);
    pthread_cond_init(&m->done, NULL);
    return m;
}

void ws_memo_free(ws_memo *m)
{
    if (!m)
        return;
    for (ws_memo_node *e = m->head, *next; e; e = next) {
        next = e->next;
        if (e->value)
            m->free_value(e->value);
        free(e);
    }
    pthread_mutex_destroy(&m->lock);
    pthread_cond_destroy(&m->done);
    free(m);
}

static bool same(const ws_memo_key *a, const ws_memo_key *b)
{
    return a->id == b->id && memcmp(a->v, b->v, sizeof a->v) == 0;
}

static void unlink_node(ws_memo *m, ws_memo_node *x)
{
    for (ws_memo_node **p = &m->head; *p; p = &(*p)->next)
        if (*p == x) {
            *p = x->next;
            m->n--;
            return;
        }
}

/* Drops, under the lock, the computed values nobody holds: older values of `id` (any id when id < 0: none),
 * then the least recently used while there are more than the capacity. */
static void trim(ws_memo *m, int64_t id, const ws_memo_node *keep)
{
    for (ws_memo_node **p = &m->head; *p;) {
        ws_memo_node *e = *p;
        if (e != keep && e->key.id == id && e->value && e->refs == 0) {
            *p = e->next;
            m->n--;
            m->free_value(e->value);
            free(e);
        } else
            p = &e->next;
    }
    while (m->n > m->cap) {
        ws_memo_node *lru = NULL;
        for (ws_memo_node *e = m->head; e; e = e->next)
            if (e->value && e->refs == 0 && (!lru || e->used < lru->used))
                lru = e;
        if (!lru)
            return; /* all held or being computed: trimmed when released */
        unlink_node(m, lru);
        m->free_value(lru->value);
        free(lru);
    }
}

const void *ws_memo_get(ws_memo *m, ws_memo_key key, bool stale_ok, ws_memo_compute_fn *compute, void *arg,
                        ws_memo_node **hold, int *status, char *err, size_t errlen)
{
    pthread_mutex_lock(&m->lock);
    ws_memo_node *older;
    for (;;) {
        ws_memo_node *exact = NULL, *computing = NULL;
        older = NULL;
        for (ws_memo_node *e = m->head; e; e = e->next) {
            if (e->key.id != key.id)
                continue;
            if (!e->value)
                computing = e;
            else if (same(&e->key, &key))
                exact = e;
            else if (!older || e->used > older->used)
                older = e;
        }
        ws_memo_node *take = exact ? exact : computing && stale_ok ? older : NULL;
        if (take) {
            take->refs++;
            take->used = ++m->clock;
            pthread_mutex_unlock(&m->lock);
            *hold = take;
            *status = 0;
            return take->value;
        }
        if (!computing)
            break;
        pthread_cond_wait(&m->done, &m->lock); /* another request computes this id: its value may be ours */
    }
    ws_memo_node *x = calloc(1, sizeof *x);
    if (!x) {
        pthread_mutex_unlock(&m->lock);
        snprintf(err, errlen, "out of memory");
        *status = 500;
        return NULL;
    }
    x->key = key;
    x->refs = 1;
    x->next = m->head;
    m->head = x;
    m->n++;
    if (older)
        older->refs++; /* what the computation may start from, held while it runs */
    pthread_mutex_unlock(&m->lock);
    void *value = NULL;
    *status = compute(arg, older ? older->value : NULL, &value, err, errlen);
    pthread_mutex_lock(&m->lock);
    if (older)
        older->refs--;
    if (*status != 0 || !value) {
        if (*status == 0) {
            snprintf(err, errlen, "out of memory");
            *status = 500;
        }
        unlink_node(m, x);
        free(x);
        x = NULL;
    } else {
        x->value = value;
        x->used = ++m->clock;
        trim(m, key.id, x);
    }
    pthread_cond_broadcast(&m->done);
    pthread_mutex_unlock(&m->lock);
    *hold = x;
    return x ? x->value : NULL;
}

void ws_memo_release(ws_memo *m, ws_memo_node *hold)
{
    if (!hold)
        return;
    pthread_mutex_lock(&m->lock);
    hold->refs--;
    trim(m, -1, NULL);
    pthread_mutex_unlock(&m->lock);
}
