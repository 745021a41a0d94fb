/* arena/coordinator/curvezmq.h — CurveZMQ for a coordinator that listens on tcp://: the key files written by `arena
 * keygen`, and the guard of the listening socket: it makes the socket a CURVE server with the coordinator's
 * key, admits through ZAP only the client keys it was told to allow (the coordinator's own bot processes,
 * each started with a fresh key pair), and logs every refused connection: plain (no CURVE), a client that
 * does not have the server's key, or an unknown client key.
 *
 * Key file (mode 0600): two lines "public = Z85" and "secret = Z85" (40 characters each); FILE.pub holds
 * the public key alone on a line (so `$(cat FILE.pub)` is the key), the part a bot's configuration pins;
 * cv_read_public also reads the older "public = Z85" form and a whole key file's public line. */
#ifndef ARENA_COORDINATOR_CURVEZMQ_H
#define ARENA_COORDINATOR_CURVEZMQ_H

#include <stdbool.h>
#include <stddef.h>

#include <zmq.h>

#define CV_KEY_LEN 40 /* a Z85-encoded 32-byte key */

typedef struct {
    char public_z85[CV_KEY_LEN + 1], secret_z85[CV_KEY_LEN + 1];
} cv_keypair;

/* A fresh key pair (zmq_curve_keypair). Returns 0, or -1 when libzmq has no CURVE. */
int cv_keygen(cv_keypair *k);

/* Writes `path` (mode 0600, refusing to replace an existing file unless `force`) and `path`.pub.
 * Returns 0, or -1 with the reason in err. */
int cv_write(const char *path, const cv_keypair *k, bool force, char *err, size_t errlen);

/* Reads a key file written by cv_write. Returns 0, or -1 with "FILE:LINE: what is wrong" in err. */
int cv_read(const char *path, cv_keypair *k, char *err, size_t errlen);

/* True when `text` is a Z85 key (40 characters of the Z85 alphabet). */
bool cv_valid_key(const char *text);

/* The public key in the file `path` (a .pub file, or a key file: its public line) into out. Returns 0, or -1 with
 * "PATH:LINE: ..." in err. */
int cv_read_public(const char *path, char out[CV_KEY_LEN + 1], char *err, size_t errlen);

typedef struct cv_guard cv_guard;

/* Sets up the guard of `router` (a ROUTER socket of context `ctx`, not yet bound): CURVE server options,
 * the ZAP handler (one per context) and a monitor of failed handshakes. Refused connections are appended
 * to `log_path`, one line each. Returns NULL with the reason in err. */
cv_guard *cv_guard_new(void *ctx, void *router, const cv_keypair *server, const char *log_path, char *err,
                       size_t errlen);

/* Allows / stops allowing a client's public key (Z85). */
void cv_allow(cv_guard *g, const char *public_z85);
void cv_revoke(cv_guard *g, const char *public_z85);

/* The guard's two sockets, to poll for ZMQ_POLLIN next to the router; then cv_serve() answers what came. */
void cv_poll_items(cv_guard *g, zmq_pollitem_t items[2]);
void cv_serve(cv_guard *g);

/* Connections refused so far. */
long cv_refused(const cv_guard *g);

/* Of them, those whose CURVE handshake failed because the client did not have this server's key (libzmq's
 * ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC on the server side: its HELLO does not open with the server's key). */
long cv_wrong_key(const cv_guard *g);

void cv_guard_free(cv_guard *g);

#endif
