/* tests/fuzz/fuzz_message.c — libFuzzer target for the coordinator's message decoder (pm_decode in
 * arena/protocol/protocol.h) on arbitrary bytes. A refusal must come with a one-line reason. A message that
 * decodes must encode again (pm_encode) within PM_MAX_MESSAGE, decode to the same message in every field
 * its type carries, and encode to the same bytes a second time; any difference aborts. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t enc1[PM_MAX_MESSAGE], enc2[PM_MAX_MESSAGE];
static pm_msg first, second;

static void die(const char *what, const pm_msg *m)
{
    fprintf(stderr, "fuzz_message: %s (type %s)\n", what, pm_type_name(m->type));
    abort();
}

/* The fields that a message of a's type carries on the wire; NULL when a and b agree on all of them. */
static const char *differs(const pm_msg *a, const pm_msg *b)
{
    if (a->type != b->type)
        return "type";
    switch (a->type) {
    case PM_HELLO:
        if (a->protocol != b->protocol)
            return "protocol";
        if (strcmp(a->token, b->token) || strcmp(a->name, b->name) || strcmp(a->version, b->version))
            return "token, name or version";
        if (a->variants != b->variants)
            return "variants";
        if (a->n_boards != b->n_boards || memcmp(a->boards, b->boards, (size_t)a->n_boards * sizeof a->boards[0]))
            return "boards";
        return NULL;
    case PM_GAME_START:
        if (a->game != b->game || a->variant != b->variant || a->rows != b->rows || a->cols != b->cols ||
            a->color != b->color || a->move_ms != b->move_ms || a->seed != b->seed || a->swap != b->swap)
            return "game_start fields";
        return NULL;
    case PM_TURN:
        if (a->has_clock != b->has_clock || a->has_opp_clock != b->has_opp_clock || a->clock_ms != b->clock_ms ||
            a->inc_ms != b->inc_ms || a->moves_to_go != b->moves_to_go || a->opp_clock_ms != b->opp_clock_ms)
            return "clocks";
        if (a->game != b->game || a->n_events != b->n_events)
            return "game or event count";
        for (int i = 0; i < a->n_events; i++)
            if (a->events[i].kind != b->events[i].kind || a->events[i].cell != b->events[i].cell)
                return "events";
        return NULL;
    case PM_MOVE:
        return a->game != b->game || a->cell != b->cell ? "move fields" : NULL;
    case PM_RESULT:
        if (a->game != b->game || a->cell != b->cell || a->outcome != b->outcome || a->won != b->won)
            return "result fields";
        return NULL;
    case PM_GAME_END:
        if (a->game != b->game || a->winner != b->winner || a->reason != b->reason || strcmp(a->detail, b->detail))
            return "game_end fields";
        if (a->n_cells != b->n_cells || memcmp(a->board, b->board, (size_t)a->n_cells))
            return "board";
        if (a->protocol != b->protocol || a->n_events != b->n_events) /* protocol 2: its events */
            return "game_end events";
        for (int i = 0; i < a->n_events; i++)
            if (a->events[i].kind != b->events[i].kind || a->events[i].cell != b->events[i].cell)
                return "game_end events";
        return NULL;
    case PM_PING:
    case PM_PONG:
        return a->nonce != b->nonce ? "nonce" : NULL;
    case PM_ERROR:
        return strcmp(a->message, b->message) ? "message" : NULL;
    case PM_SHUTDOWN:
        return NULL;
    case PM_TYPE_COUNT:
        break;
    }
    return "type out of range";
}

/* What the decoder promises about any message it accepts. */
static void check_ranges(const pm_msg *m)
{
    if ((unsigned)m->type >= PM_TYPE_COUNT)
        die("type out of range", m);
    if (m->n_boards < 0 || m->n_boards > PM_MAX_BOARDS || m->n_events < 0 || m->n_events > HX_MAX_EVENTS ||
        m->n_cells < 0 || m->n_cells > HX_MAX_CELLS)
        die("count out of range", m);
    if (!memchr(m->token, '\0', sizeof m->token) || !memchr(m->name, '\0', sizeof m->name) ||
        !memchr(m->version, '\0', sizeof m->version) || !memchr(m->detail, '\0', sizeof m->detail) ||
        !memchr(m->message, '\0', sizeof m->message))
        die("string not terminated", m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[256];
    memset(why, 0x55, sizeof why);
    if (pm_decode(data, size, &first, why, sizeof why) != 0) {
        if (!memchr(why, '\0', sizeof why) || why[0] == '\0')
            die("refusal without a reason", &first);
        return 0;
    }
    check_ranges(&first);

    size_t n1 = pm_encode(&first, enc1, sizeof enc1);
    if (n1 == 0)
        die("a decoded message does not encode within PM_MAX_MESSAGE", &first);
    if (pm_decode(enc1, n1, &second, why, sizeof why) != 0) {
        fprintf(stderr, "fuzz_message: re-encoded message refused: %s\n", why);
        die("round trip", &first);
    }
    const char *d = differs(&first, &second);
    if (d) {
        fprintf(stderr, "fuzz_message: round trip changed %s\n", d);
        die("round trip", &first);
    }
    size_t n2 = pm_encode(&second, enc2, sizeof enc2);
    if (n2 != n1 || memcmp(enc1, enc2, n1) != 0)
        die("encoding is not stable", &second);
    return 0;
}
