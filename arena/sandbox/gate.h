/* arena/sandbox/gate.h — each sandbox's own endpoint. A sandbox is never shown the caller's ZeroMQ socket: it is shown
 * a unix socket of its own (bound at /run/arena.sock), whose connections a relay thread of this process accepts and
 * forwards, byte for byte in both directions, each over a connection of its own to the caller's ipc socket. The bot's
 * ZeroMQ library cannot tell the difference; the caller's ZeroMQ sees only the relay's connections. So what a bot
 * costs the caller is bounded whatever it does:
 *
 *   - at most GT_LIVE of its connections at once (one more is accepted and closed at once) and GT_TOTAL over its
 *     sandbox's life (past it, the verdict "opened more than 64 connections to the arena");
 *   - three descriptors per connection (the bot's, the relay's and libzmq's for the relay's) and 2 x GT_BUF bytes;
 *   - the gates together stay within a budget of descriptors: the process's open-file limit, raised to its hard limit
 *     at the first gt_open(), less a reserve for everything else. A connection past the budget is closed at once, so
 *     libzmq's ipc listener, which aborts the process when an accept() fails for want of descriptors, never meets
 *     the limit however many connections bots open.
 *
 * When the caller's end of a connection closes while the bot's is open, ZeroMQ dropped it: a frame over the caller's
 * maximum message size, or bytes that are not ZMTP (or a handshake that never finished). The verdict says so.
 *
 * The relay is one thread (epoll), started at the first gt_open(); the functions below are for one other thread. */
#ifndef ARENA_SANDBOX_GATE_H
#define ARENA_SANDBOX_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define GT_LIVE 4           /* connections of one sandbox at once */
#define GT_TOTAL 64         /* connections of one sandbox over its life */
#define GT_BUF (16 * 1024)  /* bytes buffered per connection and direction */
#define GT_RESERVE 2048     /* descriptors of the open-file limit left to everything but the gates */

typedef struct gt_gate gt_gate;

/* What a gate's bot did wrong, if anything. */
typedef enum { GT_FINE = 0, GT_FLOODED, GT_DROPPED } gt_verdict_kind;

/* Opens the endpoint of a new sandbox: a unix socket with an unguessable name in directory `dir` (the caller's private
 * directory), whose connections are relayed to the ipc socket `upstream` (a path). When this process is root the socket
 * belongs to uid:gid with mode 0600, so that only that sandbox's user may connect to it. A verdict on it writes to the
 * eventfd `notify`, so that the caller need not wait for its next look. NULL with the reason in err. */
gt_gate *gt_open(const char *dir, const char *upstream, uid_t uid, gid_t gid, int notify, char *err, size_t errlen);

/* The socket's path, to show in the sandbox. */
const char *gt_path(const gt_gate *g);

/* The gate's verdict: GT_FINE, or what went wrong with the reason in why ("opened more than 64 connections to the
 * arena", "its connection was dropped by the transport: a frame over the size limit, bytes that are not ZMTP, or a
 * failed handshake"). */
gt_verdict_kind gt_verdict(gt_gate *g, char *why, size_t n);

/* Closes the endpoint, its connections and the socket file; g is gone. NULL is ignored. */
void gt_close(gt_gate *g);

/* Descriptors the gates hold now (listeners and both ends of every relayed connection), and connections refused for
 * want of descriptors so far (for tests and benchmarks). */
unsigned gt_descriptors(void);
unsigned long gt_refused(void);

#endif
