/* arena/protocol/hostlink.h — the messages between a coordinator and an agent host (`arena host`), MessagePack
 * maps on the host's control connection (docs/distributed.md#bots-on-other-hosts): the host announces the agents
 * it runs (`host_hello`), the coordinator asks it to start one with a token (`spawn`) or to kill one (`kill`),
 * the host says when one exited (`exited`) and that it is alive (`host_ping`, every 500 ms). The bots' own
 * messages do not pass here: the host relays each bot's connection as it is (docs/protocol.md). */
#ifndef ARENA_PROTOCOL_HOSTLINK_H
#define ARENA_PROTOCOL_HOSTLINK_H

#include <stddef.h>
#include <stdint.h>

typedef enum { HL_HELLO, HL_SPAWN, HL_KILL, HL_EXITED, HL_PING, HL_TYPE_COUNT } hl_type;

#define HL_MAX_AGENTS 64
#define HL_NAME_MAX 64
#define HL_COMMAND_MAX 1024
#define HL_MAX_MESSAGE (HL_MAX_AGENTS * (HL_NAME_MAX + HL_COMMAND_MAX + 96) + 256)

typedef struct {
    char name[HL_NAME_MAX];        /* the agent's name, as the league config's section names it */
    char command[HL_COMMAND_MAX];  /* the command line the host runs */
    char sha256[65];               /* of its executable */
} hl_agent;

typedef struct {
    hl_type type;
    int n_agents;                  /* HL_HELLO */
    hl_agent agents[HL_MAX_AGENTS];
    char agent[HL_NAME_MAX];       /* HL_SPAWN */
    char token[33];                /* HL_SPAWN, HL_KILL, HL_EXITED */
    char detail[256];              /* HL_EXITED: how ("exited with status 3") */
} hl_msg;

/* Encodes m into buf (cap bytes). Returns the length, or 0 when it does not fit. */
size_t hl_encode(const hl_msg *m, uint8_t *buf, size_t cap);

/* Decodes a host message. Returns 0, or -1 when `data` is not one (another message, or malformed). */
int hl_decode(const uint8_t *data, size_t len, hl_msg *m);

#endif
