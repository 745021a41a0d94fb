/* arena/coordinator/curvezmq.c — CurveZMQ key files, and the guard of a tcp:// listening socket: CURVE server options,
 * a ZAP handler (RFC 27) admitting only allowed client keys, a monitor of failed handshakes, and the log
 * of refused connections. */
#define _GNU_SOURCE
#include "curvezmq.h"
#include "logline.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_ALLOWED 256

struct cv_guard {
    void *zap, *monitor;
    char log_path[1024];
    char allowed[MAX_ALLOWED][CV_KEY_LEN + 1];
    int n_allowed;
    long refused;
    long wrong_key;                /* of them: the client did not have the server's key (a failed CURVE handshake) */
};

int cv_keygen(cv_keypair *k)
{
    memset(k, 0, sizeof *k);
    return zmq_curve_keypair(k->public_z85, k->secret_z85) == 0 ? 0 : -1;
}

bool cv_valid_key(const char *text)
{
    static const char alphabet[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";
    if (strlen(text) != CV_KEY_LEN)
        return false;
    for (const char *p = text; *p; p++)
        if (!strchr(alphabet, *p))
            return false;
    uint8_t raw[32];
    return zmq_z85_decode(raw, text) != NULL;
}

int cv_write(const char *path, const cv_keypair *k, bool force, char *err, size_t errlen)
{
    char pub[1100];
    if (snprintf(pub, sizeof pub, "%s.pub", path) >= (int)sizeof pub) {
        snprintf(err, errlen, "%s: path too long", path);
        return -1;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (force ? O_TRUNC : O_EXCL), 0600);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", path,
                 errno == EEXIST ? "exists (use --force to replace it)" : strerror(errno));
        return -1;
    }
    fchmod(fd, 0600);
    char text[256];
    int n = snprintf(text, sizeof text,
                     "# arena key pair (CurveZMQ): keep this file secret; %s.pub is the public part\n"
                     "public = %s\nsecret = %s\n",
                     path, k->public_z85, k->secret_z85);
    bool ok = n > 0 && n < (int)sizeof text && write(fd, text, (size_t)n) == n;
    ok = close(fd) == 0 && ok;
    FILE *f = ok ? fopen(pub, "w") : NULL;
    if (f) {
        ok = fprintf(f, "%s\n", k->public_z85) > 0; /* the key alone: $(cat FILE.pub) is the key */
        ok = fclose(f) == 0 && ok;
    }
    if (!ok || !f) {
        snprintf(err, errlen, "%s: cannot write: %s", f ? pub : path, strerror(errno));
        return -1;
    }
    return 0;
}

int cv_read(const char *path, cv_keypair *k, char *err, size_t errlen)
{
    memset(k, 0, sizeof *k);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    char line[512];
    int n = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        n++;
        char key[16], value[128];
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (sscanf(line, " %15[a-z] = %127s", key, value) != 2 ||
            (strcmp(key, "public") != 0 && strcmp(key, "secret") != 0)) {
            snprintf(err, errlen, "%s:%d: expected 'public = KEY' or 'secret = KEY'", path, n);
            rc = -1;
        } else if (!cv_valid_key(value)) {
            snprintf(err, errlen, "%s:%d: %s: not a Z85 key of %d characters", path, n, key, CV_KEY_LEN);
            rc = -1;
        } else {
            memcpy(key[0] == 'p' ? k->public_z85 : k->secret_z85, value, CV_KEY_LEN + 1);
        }
    }
    fclose(f);
    if (rc == 0 && (!k->public_z85[0] || !k->secret_z85[0])) {
        snprintf(err, errlen, "%s: %s key missing (a key file from 'arena keygen' has both)", path,
                 k->secret_z85[0] ? "public" : "secret");
        rc = -1;
    }
    if (rc == 0) { /* the two must belong together */
        char derived[CV_KEY_LEN + 1];
        if (zmq_curve_public(derived, k->secret_z85) != 0 || strcmp(derived, k->public_z85) != 0) {
            snprintf(err, errlen, "%s: the public key is not the secret key's", path);
            rc = -1;
        }
    }
    return rc;
}

int cv_read_public(const char *path, char out[CV_KEY_LEN + 1], char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    char line[512];
    int rc = -1, n = 0;
    bool bad = false;
    while (rc < 0 && !bad && fgets(line, sizeof line, f)) {
        n++;
        char *t = line + strspn(line, " \t"), *end = t + strlen(t);
        while (end > t && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
            *--end = '\0';
        char key[16], value[128];
        if (cv_valid_key(t)) /* the key alone (a key may begin with '#': this comes before comments) */
            memcpy(out, t, CV_KEY_LEN + 1), rc = 0;
        else if (t[0] == '#' || t[0] == '\0')
            continue;
        else if (sscanf(t, "%15[a-z] = %127s", key, value) == 2 && strcmp(key, "public") == 0 && cv_valid_key(value))
            memcpy(out, value, CV_KEY_LEN + 1), rc = 0;
        else
            bad = sscanf(t, "%15[a-z] =", key) != 1 || strcmp(key, "secret") != 0; /* a key file's secret line */
    }
    fclose(f);
    if (rc != 0)
        snprintf(err, errlen, "%s:%d: expected a public key (40 characters of Z85, alone or as 'public = KEY': "
                 "a .pub file from 'arena keygen')", path, n);
    return rc;
}

cv_guard *cv_guard_new(void *ctx, void *router, const cv_keypair *server, const char *log_path, char *err,
                       size_t errlen)
{
    if (!zmq_has("curve")) {
        snprintf(err, errlen, "this libzmq has no CURVE support");
        return NULL;
    }
    cv_guard *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    snprintf(g->log_path, sizeof g->log_path, "%s", log_path);
    int one = 1, zero = 0;
    g->zap = zmq_socket(ctx, ZMQ_REP);
    zmq_setsockopt(g->zap, ZMQ_LINGER, &zero, sizeof zero);
    if (zmq_bind(g->zap, "inproc://zeromq.zap.01") != 0) {
        snprintf(err, errlen, "cannot start the ZAP handler: %s", zmq_strerror(zmq_errno()));
        cv_guard_free(g);
        return NULL;
    }
    char mon[64];
    snprintf(mon, sizeof mon, "inproc://arena-monitor-%p", (void *)g);
    if (zmq_setsockopt(router, ZMQ_CURVE_SERVER, &one, sizeof one) != 0 ||
        zmq_setsockopt(router, ZMQ_CURVE_SECRETKEY, server->secret_z85, CV_KEY_LEN) != 0 ||
        zmq_setsockopt(router, ZMQ_ZAP_DOMAIN, "arena", 5) != 0 ||
        zmq_socket_monitor(router, mon,
                           ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL | ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL |
                               ZMQ_EVENT_HANDSHAKE_FAILED_AUTH) != 0) {
        snprintf(err, errlen, "cannot make the socket a CURVE server: %s", zmq_strerror(zmq_errno()));
        cv_guard_free(g);
        return NULL;
    }
    g->monitor = zmq_socket(ctx, ZMQ_PAIR);
    zmq_setsockopt(g->monitor, ZMQ_LINGER, &zero, sizeof zero);
    if (zmq_connect(g->monitor, mon) != 0) {
        snprintf(err, errlen, "cannot monitor the socket: %s", zmq_strerror(zmq_errno()));
        cv_guard_free(g);
        return NULL;
    }
    return g;
}

void cv_allow(cv_guard *g, const char *public_z85)
{
    if (g && g->n_allowed < MAX_ALLOWED)
        memcpy(g->allowed[g->n_allowed++], public_z85, CV_KEY_LEN + 1);
}

void cv_revoke(cv_guard *g, const char *public_z85)
{
    for (int i = 0; g && i < g->n_allowed; i++)
        if (strcmp(g->allowed[i], public_z85) == 0) {
            memcpy(g->allowed[i], g->allowed[--g->n_allowed], CV_KEY_LEN + 1);
            return;
        }
}

void cv_poll_items(cv_guard *g, zmq_pollitem_t items[2])
{
    items[0] = (zmq_pollitem_t){ g->zap, 0, ZMQ_POLLIN, 0 };
    items[1] = (zmq_pollitem_t){ g->monitor, 0, ZMQ_POLLIN, 0 };
}

/* Reads one multipart message into frames (each NUL-terminated, truncated to its buffer). */
static int read_frames(void *sock, char frames[][128], size_t lens[], int max)
{
    int n = 0, more = 1;
    size_t sz = sizeof more;
    while (more) {
        char buf[128];
        int got = zmq_recv(sock, buf, sizeof buf - 1, ZMQ_DONTWAIT);
        if (got < 0)
            return n ? n : -1;
        if (n < max) {
            size_t len = (size_t)got < sizeof buf - 1 ? (size_t)got : sizeof buf - 1;
            memcpy(frames[n], buf, len);
            frames[n][len] = '\0';
            lens[n] = len;
            n++;
        }
        zmq_getsockopt(sock, ZMQ_RCVMORE, &more, &sz);
    }
    return n;
}

static void answer_zap(cv_guard *g)
{
    char f[8][128];
    size_t len[8];
    int n = read_frames(g->zap, f, len, 8);
    if (n < 0)
        return;
    /* version, request id, domain, address, identity, mechanism, credentials... */
    bool ok = false;
    char key[CV_KEY_LEN + 1] = "";
    if (n >= 7 && strcmp(f[5], "CURVE") == 0 && len[6] == 32) {
        zmq_z85_encode(key, (const uint8_t *)f[6], 32);
        for (int i = 0; i < g->n_allowed && !ok; i++)
            ok = strcmp(g->allowed[i], key) == 0;
    }
    if (!ok) {
        g->refused++;
        log_line(g->log_path, "refused: %s: %s%s%s", n >= 4 ? f[3] : "?",
                 n >= 7 && strcmp(f[5], "CURVE") == 0 ? "unknown client key" : "not a CURVE client",
                 key[0] ? " " : "", key);
    }
    const char *reply[6] = { "1.0", n >= 2 ? f[1] : "", ok ? "200" : "400", ok ? "OK" : "unknown client key",
                             ok ? key : "", "" };
    size_t rlen[6] = { 3, n >= 2 ? len[1] : 0, 3, strlen(reply[3]), strlen(reply[4]), 0 };
    for (int i = 0; i < 6; i++)
        zmq_send(g->zap, reply[i], rlen[i], i < 5 ? ZMQ_SNDMORE : 0);
}

static void read_event(cv_guard *g)
{
    char f[2][128];
    size_t len[2];
    int n = read_frames(g->monitor, f, len, 2);
    if (n < 1 || len[0] < 6)
        return;
    uint16_t event;
    uint32_t value;
    memcpy(&event, f[0], 2);
    memcpy(&value, f[0] + 2, 4);
    const char *where = n >= 2 ? f[1] : "?";
    if (event == ZMQ_EVENT_HANDSHAKE_FAILED_AUTH)
        return; /* the ZAP handler logged it with the client's address */
    const char *why = value == ZMQ_PROTOCOL_ERROR_ZMTP_MECHANISM_MISMATCH ? "not a CURVE client (a plain connection)"
                      : value == ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC
                          ? "CURVE handshake failed (the client does not have this server's key)"
                      : event == ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL ? "the handshake did not complete"
                                                                      : "handshake failed";
    g->refused++;
    g->wrong_key += value == ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC;
    log_line(g->log_path, "refused: a connection to %s: %s (event 0x%x, 0x%x)", where, why, event, value);
}

void cv_serve(cv_guard *g)
{
    int ev = 0;
    size_t sz = sizeof ev;
    while (zmq_getsockopt(g->zap, ZMQ_EVENTS, &ev, &sz) == 0 && (ev & ZMQ_POLLIN))
        answer_zap(g);
    while (zmq_getsockopt(g->monitor, ZMQ_EVENTS, &ev, &sz) == 0 && (ev & ZMQ_POLLIN))
        read_event(g);
}

long cv_refused(const cv_guard *g) { return g ? g->refused : 0; }

long cv_wrong_key(const cv_guard *g) { return g ? g->wrong_key : 0; }

void cv_guard_free(cv_guard *g)
{
    if (!g)
        return;
    if (g->monitor)
        zmq_close(g->monitor);
    if (g->zap)
        zmq_close(g->zap);
    free(g);
}
