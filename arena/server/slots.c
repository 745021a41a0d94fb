/* arena/server/slots.c — the connection slots and their watchdog (contract in slots.h). */
#include "slots.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"

#define TICK_MS 250
#define RESERVE_WAIT_S 1.0         /* headers awaited this long at most while the reserve is in use */

struct ws_slot {
    int fd;
    char address[64];              /* the socket's peer */
    char client[64];               /* a stream's client (slots_stream) */
    sl_phase phase;
    double since;
    uint64_t body;
    bool shut, trusted;
    ws_slot *prev, *next;
};

struct ws_slots {
    ws_config c;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t watchdog;
    bool stop;
    ws_slot *head;
    sl_counts n;
};

/* Shuts down a registered slot's connection (its thread sees the end and closes it): under the lock. */
static void shut(ws_slot *x, long *counter)
{
    if (x->shut)
        return;
    x->shut = true;
    shutdown(x->fd, SHUT_RDWR);
    (*counter)++;
}

static void sweep(ws_slots *s)
{
    double now = clk_now();
    const ws_config *c = &s->c;
    bool reserve = s->n.open > c->max_connections - c->reserve; /* the reserve is in use */
    for (ws_slot *x = s->head; x; x = x->next) {
        double age = now - x->since;
        if (x->phase == SL_HEADERS && (age > c->header_s || (reserve && age > RESERVE_WAIT_S)))
            shut(x, age > c->header_s ? &s->n.closed_headers : &s->n.closed_reserve);
        else if (x->phase == SL_BODY && age > c->header_s + (double)x->body / (double)c->body_rate)
            shut(x, &s->n.closed_body);
        else if (x->phase == SL_REPLY && age > c->reply_s)
            shut(x, &s->n.closed_reply);
    }
}

static void *watch(void *arg)
{
    ws_slots *s = arg;
    pthread_mutex_lock(&s->lock);
    while (!s->stop) {
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);
        t.tv_nsec += TICK_MS * 1000000L;
        if (t.tv_nsec >= 1000000000L)
            t.tv_sec++, t.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&s->wake, &s->lock, &t);
        if (!s->stop)
            sweep(s);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

ws_slots *slots_new(const ws_config *c)
{
    ws_slots *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->c = *c;
    if (s->c.body_rate < 1)
        s->c.body_rate = 1;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->wake, NULL);
    if (pthread_create(&s->watchdog, NULL, watch, s) != 0) {
        pthread_mutex_destroy(&s->lock);
        pthread_cond_destroy(&s->wake);
        free(s);
        return NULL;
    }
    return s;
}

void slots_free(ws_slots *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->lock);
    s->stop = true;
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->watchdog, NULL);
    for (ws_slot *x = s->head, *next; x; x = next) {
        next = x->next;
        free(x);
    }
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->wake);
    free(s);
}

static void address_text(const struct sockaddr *a, char out[64])
{
    out[0] = '\0';
    if (a && a->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)a)->sin_addr, out, 64);
    else if (a && a->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)a)->sin6_addr, out, 64);
}

ws_slot *slots_open(ws_slots *s, int fd, const struct sockaddr *addr)
{
    ws_slot *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->fd = fd;
    address_text(addr, x->address);
    x->trusted = slots_trusted(&s->c, x->address);
    x->phase = SL_HEADERS;
    x->since = clk_now();
    pthread_mutex_lock(&s->lock);
    int same = 0;
    for (ws_slot *y = s->head; y && !x->trusted; y = y->next)
        same += strcmp(y->address, x->address) == 0;
    if (same >= s->c.per_ip) {
        s->n.refused_per_ip++;
        pthread_mutex_unlock(&s->lock);
        free(x);
        return NULL;
    }
    x->next = s->head;
    if (s->head)
        s->head->prev = x;
    s->head = x;
    s->n.open++;
    pthread_mutex_unlock(&s->lock);
    return x;
}

void slots_close(ws_slots *s, ws_slot *x)
{
    if (!x)
        return;
    pthread_mutex_lock(&s->lock);
    if (x->prev)
        x->prev->next = x->next;
    else
        s->head = x->next;
    if (x->next)
        x->next->prev = x->prev;
    s->n.open--;
    if (x->phase == SL_STREAM)
        s->n.streams--;
    pthread_mutex_unlock(&s->lock);
    free(x);
}

void slots_phase(ws_slots *s, ws_slot *x, sl_phase p)
{
    if (!x)
        return;
    pthread_mutex_lock(&s->lock);
    if (x->phase == SL_STREAM)
        s->n.streams--;
    x->phase = p;
    x->since = clk_now();
    x->body = 0;
    pthread_mutex_unlock(&s->lock);
}

void slots_body(ws_slots *s, ws_slot *x, size_t n)
{
    if (!x)
        return;
    pthread_mutex_lock(&s->lock);
    x->body += n;
    pthread_mutex_unlock(&s->lock);
}

int slots_stream(ws_slots *s, ws_slot *x, const char *client, char *err, size_t errlen)
{
    pthread_mutex_lock(&s->lock);
    int same = 0;
    for (ws_slot *y = s->head; y; y = y->next)
        same += y->phase == SL_STREAM && strcmp(y->client, client) == 0;
    int all = s->c.max_connections - s->c.reserve;
    if (same >= s->c.stream_per_ip || s->n.streams >= all) {
        s->n.refused_streams++;
        pthread_mutex_unlock(&s->lock);
        if (same >= s->c.stream_per_ip)
            snprintf(err, errlen, "%d live feeds from %s already (at most %d from one address): retry later", same,
                     client, s->c.stream_per_ip);
        else
            snprintf(err, errlen, "%d live feeds open, as many as the server serves at once: retry later", all);
        return 503;
    }
    if (x) {
        if (x->phase == SL_STREAM)
            s->n.streams--;
        x->phase = SL_STREAM;
        x->since = clk_now();
        snprintf(x->client, sizeof x->client, "%s", client);
    }
    s->n.streams++;
    pthread_mutex_unlock(&s->lock);
    return 0;
}

bool slots_memory_take(ws_slots *s, size_t n)
{
    pthread_mutex_lock(&s->lock);
    bool ok = s->n.body_memory + n <= s->c.body_memory;
    if (ok)
        s->n.body_memory += n;
    else
        s->n.refused_memory++;
    pthread_mutex_unlock(&s->lock);
    return ok;
}

void slots_memory_give(ws_slots *s, size_t n)
{
    pthread_mutex_lock(&s->lock);
    s->n.body_memory -= n <= s->n.body_memory ? n : s->n.body_memory;
    pthread_mutex_unlock(&s->lock);
}

const char *slots_address(const ws_slot *x)
{
    return x ? x->address : "";
}

/* An address in its canonical text (IPv4 or IPv6), or false. */
static bool canonical(const char *text, char out[64])
{
    unsigned char buf[16];
    if (inet_pton(AF_INET, text, buf) == 1)
        return inet_ntop(AF_INET, buf, out, 64) != NULL;
    if (inet_pton(AF_INET6, text, buf) == 1)
        return inet_ntop(AF_INET6, buf, out, 64) != NULL;
    return false;
}

bool slots_trusted(const ws_config *c, const char *address)
{
    char a[64];
    if (!canonical(address, a))
        return false;
    for (int i = 0; i < c->n_trusted; i++)
        if (strcmp(c->trusted[i], a) == 0)
            return true;
    return false;
}

void slots_client(const ws_config *c, const char *socket_address, const char *xff, char out[64])
{
    snprintf(out, 64, "%s", socket_address);
    if (!xff || !slots_trusted(c, socket_address))
        return;
    /* from the right: each proxy appends the address it was reached from; the first one not trusted is the client */
    char list[1024];
    size_t len = strlen(xff);
    snprintf(list, sizeof list, "%s", len >= sizeof list ? xff + len - (sizeof list - 1) : xff); /* its right end */
    for (;;) {
        char *comma = strrchr(list, ',');
        char *item = comma ? comma + 1 : list;
        item += strspn(item, " \t");
        size_t n = strcspn(item, " \t");
        item[n] = '\0';
        char a[64];
        if (!canonical(item, a))
            return; /* not an address: the proxy's own is all that is known */
        snprintf(out, 64, "%s", a);
        if (!slots_trusted(c, a) || !comma)
            return;
        *comma = '\0';
    }
}

sl_counts slots_counts(ws_slots *s)
{
    pthread_mutex_lock(&s->lock);
    sl_counts n = s->n;
    pthread_mutex_unlock(&s->lock);
    return n;
}
