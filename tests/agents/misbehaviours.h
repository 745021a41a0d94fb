/* tests/agents/misbehaviours.h — what each mode of the misbehave test bot must cost it, in one table for
 * the match and the league tests: the forfeit reason and a substring of the recorded detail, for games of
 * classical 4x4 with a 300 ms budget and a 1000 ms handshake, plus the limits the mode needs. */
#ifndef TESTS_MISBEHAVIOURS_H
#define TESTS_MISBEHAVIOURS_H

#include <stdbool.h>

typedef struct {
    const char *mode;
    const char *reason, *detail; /* NULL: more than one reason is right (see the mode) */
    const char *match_options;   /* added to arena match's options; NULL: none */
    const char *agent_lines;     /* added to its [agent] section in a league config */
    bool in_league;              /* also played in the league test */
} misbehaviour;

static const misbehaviour MISBEHAVIOURS[] = {
    { "crash", "crash", "killed by signal 6", NULL, "", true },
    { "exit", "crash", "exited with status 7", NULL, "", true },
    { "hang", "timeout", "no move within 300 ms", NULL, "", true },
    { "late", "timeout", "no move within 300 ms", NULL, "", true },
    { "garbage", "protocol_error", "MessagePack", NULL, "", true },
    { "illegal", "illegal", "the mover", NULL, "", true },
    { "offboard", "illegal", "off the 4x4 board", NULL, "", true },
    { "wrong-game", "protocol_error", "for game", NULL, "", true },
    { "twice", NULL, NULL, NULL, "", false }, /* out of turn, or illegal when its first attempt was rejected */
    { "no-hello", "timeout", "no hello within 1000 ms", NULL, "", true },
    { "bad-token", "timeout", "no hello within 1000 ms", NULL, "", true },
    { "bad-hello", "protocol_error", "hello: missing key", NULL, "", false },
    { "slow-start", "timeout", "no hello within 1000 ms", NULL, "", true },
    { "oversize", "protocol_error", "65636 bytes is over the limit of 65536", NULL, "", true },
    { "huge-frame", "protocol_error", "dropped by the transport", NULL, "", true }, /* ZeroMQ drops its connection */
    { "bomb", "protocol_error", "declares more than", NULL, "", true },
    { "flood", "protocol_error", "(flooding)", NULL, "", true },
    /* filling 256 MiB can take longer than 300 ms where the first touch of memory is slow (a fresh virtual
     * machine): its own budget in the match, its own league in the league test */
    { "eat", "crash", "(limit 256 MiB)", "--memory-mb 256 --move-time 3000", "memory_mb = 256\n", false },
    /* the CPU limit needs a budget longer than it: match only */
    { "burn", "crash", "CPU time limit 1 s", "--cpu-seconds 1 --move-time 8000", "", false },
    { "fork", "timeout", "no move within 300 ms", NULL, "", true },
    { "daemon", "crash", "killed by signal 6", NULL, "", true },
};
#define N_MISBEHAVIOURS (int)(sizeof MISBEHAVIOURS / sizeof MISBEHAVIOURS[0])

#endif
