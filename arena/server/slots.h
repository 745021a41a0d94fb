/* arena/server/slots.h — the server's connection slots (internal to arena/server): every open connection with the
 * address it came from, the phase of its request and since when, so that no client holds a slot longer than its
 * request needs. A watchdog thread (4 times a second) shuts down a connection whose request headers are not in
 * header_s seconds after it opened (or after its previous reply), whose body arrives slower than body_rate bytes a
 * second after a grace of header_s, or whose reply is not taken in reply_s; and while fewer than `reserve` slots are
 * free, one that has waited a second for its headers. Event streams are counted apart: stream_per_ip from one
 * client address and at most max_connections - reserve in all, so that streams and slow clients can never take the
 * reserve. A connection from an address already holding per_ip is closed as it opens (a trusted proxy's are not
 * counted: its clients are, by the address it forwards). The memory of request bodies is bounded in all.
 *
 * A slot is only ever shut down (shutdown(2)) under the registry's lock while it is registered; the server removes
 * it (slots_close) before libmicrohttpd closes its descriptor, so a descriptor number reused meanwhile is never
 * touched. */
#ifndef ARENA_SERVER_SLOTS_H
#define ARENA_SERVER_SLOTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "server.h"

typedef enum { SL_HEADERS, SL_BODY, SL_REPLY, SL_STREAM } sl_phase;

typedef struct ws_slot ws_slot;
typedef struct ws_slots ws_slots;

/* What the slots have done, for tests and the server's counters. */
typedef struct {
    long open, streams, refused_per_ip, refused_streams, closed_headers, closed_body, closed_reply, closed_reserve,
        refused_memory;
    size_t body_memory;
} sl_counts;

/* The registry and its watchdog thread, under c's limits (c is copied). NULL when out of memory or threads. */
ws_slots *slots_new(const ws_config *c);

/* Stops the watchdog and frees the registry (every slot closed first). */
void slots_free(ws_slots *s);

/* A connection opened on descriptor fd from addr: its slot, or NULL when its address holds per_ip already (the
 * caller then shuts it down) or out of memory. */
ws_slot *slots_open(ws_slots *s, int fd, const struct sockaddr *addr);

/* Its removal, before its descriptor is closed. */
void slots_close(ws_slots *s, ws_slot *slot);

/* The phase of its request from now: headers (waiting for the next), body, reply. */
void slots_phase(ws_slots *s, ws_slot *slot, sl_phase p);

/* n more bytes of its body arrived. */
void slots_body(ws_slots *s, ws_slot *slot, size_t n);

/* Its reply is an event stream for `client` (the address a trusted proxy forwarded, else the socket's): 0, or 503
 * with the reason in err when the client, or all, hold as many as allowed. Ended by slots_phase. */
int slots_stream(ws_slots *s, ws_slot *slot, const char *client, char *err, size_t errlen);

/* Takes n bytes of the bounded memory for request bodies: false when that would pass the bound. */
bool slots_memory_take(ws_slots *s, size_t n);
void slots_memory_give(ws_slots *s, size_t n);

/* The socket's address of a slot as text. */
const char *slots_address(const ws_slot *slot);

/* Whether text (an IPv4 or IPv6 address) is one of c's trusted proxies. */
bool slots_trusted(const ws_config *c, const char *address);

/* The client's address of a request that came from `socket_address` with the X-Forwarded-For header xff (NULL when
 * absent): the socket's address, unless it is a trusted proxy and xff names one, then the last address in xff that
 * is not itself a trusted proxy. Into out (64 bytes). */
void slots_client(const ws_config *c, const char *socket_address, const char *xff, char out[64]);

sl_counts slots_counts(ws_slots *s);

#endif
