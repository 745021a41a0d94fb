/* arena/coordinator/host.h — the agent host (`arena host`), the other half of the runner's host protocol
 * (runner.h, hostlink.h): on a machine other than the coordinator's, it connects out to a coordinator that
 * listens on tcp:// (CurveZMQ: the host's own key pair, the coordinator's public key pinned), announces the
 * agents it runs, starts one, sandboxed as the coordinator would, when the coordinator asks with a token,
 * relays each bot's connection to the coordinator as it is, kills bots when asked, and reports the ones that
 * exit (docs/distributed.md#bots-on-other-hosts). */
#ifndef ARENA_COORDINATOR_HOST_H
#define ARENA_COORDINATOR_HOST_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "agent.h"
#include "curvezmq.h"
#include "hostlink.h"

#define HS_MAX_AGENTS HL_MAX_AGENTS /* agents one host announces */
#define HS_MAX_BOTS 256             /* bots one host runs at once; a spawn beyond is reported as exited */

typedef struct {
    char name[HL_NAME_MAX];    /* the agent's name: its section in the coordinator's league config */
    ag_command command;        /* parsed with ag_command_parse(); command.sandbox.off runs it unsandboxed */
} hs_agent;

typedef struct {
    const char *endpoint;      /* the coordinator's tcp:// endpoint */
    const char *server_key;    /* the coordinator's public key (Z85), pinned */
    const cv_keypair *self;    /* this host's key pair */
    const char *key_file;      /* where self was read from: hidden from every bot's sandbox */
    const char *logs;          /* the bots' output, logs/NAME-N.log (made when missing; hidden from the bots) */
    const hs_agent *agents;
    int n_agents;              /* 1 to HS_MAX_AGENTS */
    volatile sig_atomic_t *stop; /* set (by a signal handler, ag_handle_signals()) to stop; never NULL */

    /* Called once, when the host has sent its first hello (it then runs until *stop). May be NULL. */
    void (*ready)(void *user);
    /* What happens, one line each (no newline): the coordinator answering ("connected to ...") or falling silent
     * for 3 s, each bot started ("started NAME: pid P, log L") or not, each bot's exit with its reason, and every
     * minute a summary ("running N bots; started S, exited E so far"). May be NULL. */
    void (*event)(void *user, const char *line);
    void *user;
} hs_config;

typedef struct {
    long started;              /* bots started */
    long exited;               /* bots reported as exited to the coordinator (those that failed to start too) */
} hs_totals;

typedef enum { HS_STOPPED = 0, HS_FAILED = 1 } hs_status;

/* Checks the sandbox (when an agent is sandboxed), makes the logs directory, binds the bots' private ipc
 * endpoint in a fresh /tmp/arena-host-XXXXXX, connects to the coordinator and serves it until *stop:
 * pings every 500 ms (repeating its hello until the coordinator first answers), reconnecting as ZeroMQ does
 * when the coordinator goes away and comes back. Then kills its bots and removes the private directory.
 * Returns HS_STOPPED with the totals in *totals, or HS_FAILED with a one-line reason in err ("--logs DIR:
 * ...", "cannot bind ...", "cannot connect to ..."); its bots are gone either way. */
hs_status hs_serve(const hs_config *cfg, hs_totals *totals, char *err, size_t errlen);

#endif
