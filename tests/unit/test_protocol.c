/* tests/unit/test_protocol.c — protocol messages: every type survives encode/decode, unknown keys are
 * ignored, and malformed or hostile input is refused with a reason before anything is allocated; and the agent
 * host's messages (hostlink.h). */
#include <msgpack.h>

#include "hostlink.h"
#include "test_wire.h"

static uint8_t buf[PM_MAX_MESSAGE + 16];
static char why[256];

static void every_type_round_trips(void **state)
{
    (void)state;
    static pm_msg m, d;
    memset(&m, 0, sizeof m);
    m.type = PM_HELLO;
    m.protocol = PM_VERSION;
    strcpy(m.token, "0123abcd");
    strcpy(m.name, "random");
    strcpy(m.version, "1.2");
    m.variants = 1u << HX_CLASSICAL | 1u << HX_ABRUPT_FLASH;
    m.n_boards = 2;
    m.boards[0][0] = 5, m.boards[0][1] = 5, m.boards[1][0] = 3, m.boards[1][1] = 11;
    through_wire(&m, &d);
    assert_int_equal(d.protocol, PM_VERSION);
    assert_string_equal(d.token, "0123abcd");
    assert_string_equal(d.name, "random");
    assert_string_equal(d.version, "1.2");
    assert_int_equal(d.variants, m.variants);
    assert_int_equal(d.n_boards, 2);
    assert_int_equal(d.boards[1][1], 11);

    m.variants = 0, m.n_boards = 0; /* none listed: every variant, any board */
    through_wire(&m, &d);
    assert_int_equal(d.variants, (1u << HX_VARIANT_COUNT) - 1);
    assert_int_equal(d.n_boards, 0);

    memset(&m, 0, sizeof m);
    m.type = PM_GAME_START, m.game = 1ull << 40, m.variant = HX_ABRUPT_NOISY, m.rows = 3, m.cols = 19;
    m.color = HX_WHITE, m.move_ms = 250, m.seed = UINT64_MAX, m.swap = true;
    through_wire(&m, &d);
    assert_true(d.game == m.game && d.seed == UINT64_MAX);
    assert_int_equal(d.variant, HX_ABRUPT_NOISY);
    assert_int_equal(d.rows, 3);
    assert_int_equal(d.cols, 19);
    assert_int_equal(d.color, HX_WHITE);
    assert_int_equal(d.move_ms, 250);
    assert_true(d.swap);

    memset(&m, 0, sizeof m);
    m.type = PM_TURN, m.game = 7, m.n_events = 3;
    m.events[0] = (hx_event){ HX_EV_REJECTED, 4 };
    m.events[1] = (hx_event){ HX_EV_OPP_HIT, 0 };
    m.events[2] = (hx_event){ HX_EV_OPP_HIT_AT, 360 };
    through_wire(&m, &d);
    assert_int_equal(d.n_events, 3);
    assert_memory_equal(d.events, m.events, 3 * sizeof m.events[0]);

    memset(&m, 0, sizeof m);
    m.type = PM_MOVE, m.game = 7, m.cell = HX_SWAP;
    through_wire(&m, &d);
    assert_int_equal(d.cell, HX_SWAP);
    m.cell = 12;
    through_wire(&m, &d);
    assert_int_equal(d.cell, 12);

    memset(&m, 0, sizeof m);
    m.type = PM_RESULT, m.game = 9, m.cell = 3, m.outcome = HX_COLLISION, m.won = false;
    through_wire(&m, &d);
    assert_int_equal(d.outcome, HX_COLLISION);
    assert_false(d.won);

    memset(&m, 0, sizeof m);
    m.type = PM_GAME_END, m.game = 9, m.winner = HX_WHITE, m.reason = HX_END_ILLEGAL, m.n_cells = 4;
    strcpy(m.detail, "cell a1 already known");
    m.board[0] = 1, m.board[3] = 2;
    through_wire(&m, &d);
    assert_int_equal(d.winner, HX_WHITE);
    assert_int_equal(d.reason, HX_END_ILLEGAL);
    assert_string_equal(d.detail, m.detail);
    assert_int_equal(d.n_cells, 4);
    assert_memory_equal(d.board, m.board, 4);
    assert_int_equal(d.protocol, 0); /* protocol 1: no events key */
    assert_int_equal(d.n_events, 0);
    size_t v1 = pm_encode(&m, buf, sizeof buf);
    m.protocol = 2; /* protocol 2: what the player was not yet told, e.g. its winning stone */
    m.n_events = 2;
    m.events[0] = (hx_event){ HX_EV_PLACED, 2 };
    m.events[1] = (hx_event){ HX_EV_OPP_HIT, 0 };
    through_wire(&m, &d);
    assert_int_equal(d.protocol, 2);
    assert_int_equal(d.n_events, 2);
    assert_memory_equal(d.events, m.events, 2 * sizeof m.events[0]);
    assert_true(pm_encode(&m, buf, sizeof buf) > v1);
    m.n_events = 0; /* nothing left to tell: the key is there, empty */
    through_wire(&m, &d);
    assert_int_equal(d.protocol, 2);
    assert_int_equal(d.n_events, 0);

    for (int t = PM_PING; t <= PM_ERROR; t++) {
        memset(&m, 0, sizeof m);
        m.type = (pm_type)t, m.nonce = 99;
        strcpy(m.message, "hello there");
        through_wire(&m, &d);
        if (t == PM_PING || t == PM_PONG)
            assert_true(d.nonce == 99);
        if (t == PM_ERROR)
            assert_string_equal(d.message, "hello there");
    }
    assert_int_equal(pm_encode(&m, buf, 3), 0); /* does not fit */
}

/* Builds a message with msgpack-c directly, as a foreign bot would. */
typedef struct {
    msgpack_sbuffer sb;
    msgpack_packer pk;
} raw;

static void raw_init(raw *r)
{
    msgpack_sbuffer_init(&r->sb);
    msgpack_packer_init(&r->pk, &r->sb, msgpack_sbuffer_write);
}

static void raw_str(raw *r, const char *s)
{
    msgpack_pack_str(&r->pk, strlen(s));
    msgpack_pack_str_body(&r->pk, s, strlen(s));
}

/* Starts a map of `entries` pairs whose first pair is key: value (both strings). */
static void raw_begin(raw *r, size_t entries, const char *key, const char *value)
{
    raw_init(r);
    msgpack_pack_map(&r->pk, entries);
    raw_str(r, key);
    raw_str(r, value);
}

static void raw_int(raw *r, const char *key, int64_t value)
{
    raw_str(r, key);
    msgpack_pack_int64(&r->pk, value);
}

static int raw_decode(raw *r, pm_msg *m)
{
    int rc = pm_decode((const uint8_t *)r->sb.data, r->sb.size, m, why, sizeof why);
    msgpack_sbuffer_destroy(&r->sb);
    return rc;
}

static void unknown_keys_are_ignored(void **state)
{
    (void)state;
    static pm_msg m;
    raw r;
    raw_begin(&r, 4, "comment", "anything");
    raw_str(&r, "type"), raw_str(&r, "move");
    raw_int(&r, "cell", 5);
    raw_int(&r, "game", 2);
    assert_int_equal(raw_decode(&r, &m), 0);
    assert_int_equal(m.type, PM_MOVE);
    assert_int_equal(m.cell, 5);
}

static void expect_refused(const uint8_t *data, size_t len, const char *says)
{
    static pm_msg m;
    if (pm_decode(data, len, &m, why, sizeof why) == 0)
        fail_msg("accepted, expected '%s'", says);
    if (!strstr(why, says))
        fail_msg("reason '%s', expected '%s'", why, says);
}

/* Whether the encoded bytes hold the string s. */
static bool has(const uint8_t *bytes, size_t n, const char *s)
{
    size_t k = strlen(s);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(bytes + i, s, k) == 0)
            return true;
    return false;
}

/* game_start's opening keys: round trip in hex (seen) and a dark variant (hidden), absent without an opening, and
 * refused when they are not what an opening can tell a player. */
static void opening_keys_round_trip(void **state)
{
    (void)state;
    static pm_msg m, d;
    static uint8_t bytes[PM_MAX_MESSAGE];
    memset(&m, 0, sizeof m);
    m.type = PM_GAME_START, m.game = 3, m.variant = HX_HEX, m.rows = 19, m.cols = 19, m.color = HX_WHITE;
    m.move_ms = 100, m.swap = true;
    size_t n = pm_encode(&m, bytes, sizeof bytes); /* no opening: none of the keys */
    assert_false(has(bytes, n, "own"));
    assert_false(has(bytes, n, "seen"));
    assert_false(has(bytes, n, "hidden"));
    through_wire(&m, &d);
    assert_int_equal(d.n_own + d.n_seen + d.hidden, 0);

    m.n_own = 1, m.own[0] = 360;   /* White: stone 2 */
    m.n_seen = 2, m.seen[0] = 0, m.seen[1] = 300; /* Black: stones 1 and 3 */
    through_wire(&m, &d);
    assert_int_equal(d.n_own, 1);
    assert_int_equal(d.own[0], 360);
    assert_int_equal(d.n_seen, 2);
    assert_int_equal(d.seen[1], 300);
    assert_int_equal(d.hidden, 0);
    n = pm_encode(&m, bytes, sizeof bytes);
    assert_true(has(bytes, n, "hidden")); /* all three keys once there is an opening */

    m.variant = HX_CLASSICAL_FLASH, m.color = HX_BLACK, m.swap = false;
    m.n_own = 2, m.own[0] = 5, m.own[1] = 7, m.n_seen = 0, m.hidden = 2;
    through_wire(&m, &d);
    assert_int_equal(d.n_own, 2);
    assert_int_equal(d.own[1], 7);
    assert_int_equal(d.n_seen, 0);
    assert_int_equal(d.hidden, 2);

    static const struct {
        hx_variant v;
        int color, n_own, own[3], n_seen, seen[3], hidden;
        const char *says;
    } bad[] = {
        { HX_HEX, HX_BLACK, 1, { 0 }, 1, { 0 }, 0, "key 'seen': entry 0: expected a cell" },      /* repeated */
        { HX_HEX, HX_BLACK, 1, { 361 }, 0, { 0 }, 0, "key 'own'" },                          /* off the board */
        { HX_HEX, HX_BLACK, 1, { 1 }, 0, { 0 }, 1, "key 'hidden': must be 0 in hex" },
        { HX_ABRUPT, HX_WHITE, 1, { 1 }, 1, { 2 }, 0, "key 'seen': must be empty in abrupt" },
        { HX_ABRUPT, HX_WHITE, 2, { 1, 2 }, 0, { 0 }, 1, "not an opening for White" },       /* White ahead */
        { HX_HEX, HX_BLACK, 0, { 0 }, 1, { 1 }, 0, "not an opening for Black" },             /* White first */
        { HX_CLASSICAL, HX_BLACK, 3, { 1, 2, 3 }, 0, { 0 }, 1, "not an opening for Black" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&m, 0, sizeof m);
        m.type = PM_GAME_START, m.variant = bad[i].v, m.rows = bad[i].v == HX_HEX ? 19 : 3;
        m.cols = m.rows, m.color = bad[i].color, m.n_own = bad[i].n_own, m.n_seen = bad[i].n_seen;
        m.hidden = bad[i].hidden;
        for (int j = 0; j < 3; j++)
            m.own[j] = (uint16_t)bad[i].own[j], m.seen[j] = (uint16_t)bad[i].seen[j];
        n = pm_encode(&m, bytes, sizeof bytes);
        assert_true(n > 0);
        expect_refused(bytes, n, bad[i].says);
    }
    memset(&m, 0, sizeof m); /* more stones than cells */
    m.type = PM_GAME_START, m.variant = HX_ABRUPT, m.rows = 2, m.cols = 2, m.color = HX_WHITE, m.n_own = 2;
    m.own[0] = 0, m.own[1] = 1, m.hidden = 3;
    n = pm_encode(&m, bytes, sizeof bytes);
    expect_refused(bytes, n, "5 stones on 4 cells");
}

static void hostile_bytes_are_refused(void **state)
{
    (void)state;
    const uint8_t garbage[] = { 0xc1, 0x00 };
    expect_refused(garbage, sizeof garbage, "invalid MessagePack byte");
    const uint8_t huge_array[] = { 0x81, 0xa1, 'x', 0xdd, 0xff, 0xff, 0xff, 0xff };
    expect_refused(huge_array, sizeof huge_array, "more than 1024 entries");
    const uint8_t huge_map[] = { 0xdf, 0x7f, 0xff, 0xff, 0xff };
    expect_refused(huge_map, sizeof huge_map, "more than 1024 entries");
    const uint8_t lying_array[] = { 0x81, 0xa1, 'x', 0xdc, 0x03, 0xff, 0x01 }; /* 1023 entries, 1 byte */
    expect_refused(lying_array, sizeof lying_array, "more entries than the message holds");
    const uint8_t huge_string[] = { 0x81, 0xa1, 'x', 0xdb, 0x7f, 0xff, 0xff, 0xff, 'a' };
    expect_refused(huge_string, sizeof huge_string, "longer than 255 bytes");
    const uint8_t truncated[] = { 0x82, 0xa4, 't', 'y', 'p', 'e' };
    expect_refused(truncated, sizeof truncated, "truncated");
    const uint8_t deep[] = { 0x91, 0x91, 0x91, 0x91, 0x91, 0x00 };
    expect_refused(deep, sizeof deep, "nested too deep");
    const uint8_t not_map[] = { 0x93, 0x01, 0x02, 0x03 };
    expect_refused(not_map, sizeof not_map, "expected a MessagePack map");
    const uint8_t trailing[] = { 0x80, 0x00 };
    expect_refused(trailing, sizeof trailing, "bytes after the message");
    expect_refused(buf, PM_MAX_MESSAGE + 1, "over the limit");
    expect_refused(garbage, 0, "truncated");
}

static void missing_and_mistyped_keys_are_named(void **state)
{
    (void)state;
    static pm_msg m;
    raw r;
    raw_begin(&r, 2, "type", "move");
    raw_int(&r, "game", 1);
    assert_int_equal(raw_decode(&r, &m), -1);
    assert_string_equal(why, "missing key 'cell'");

    raw_begin(&r, 3, "type", "move");
    raw_int(&r, "game", 1);
    raw_str(&r, "cell"), msgpack_pack_double(&r.pk, 1.5);
    assert_int_equal(raw_decode(&r, &m), -1);
    assert_non_null(strstr(why, "key 'cell': expected a cell index"));

    raw_begin(&r, 3, "type", "move");
    raw_int(&r, "game", -4);
    raw_int(&r, "cell", 1);
    assert_int_equal(raw_decode(&r, &m), -1);
    assert_non_null(strstr(why, "key 'game': expected an integer"));

    raw_begin(&r, 1, "type", "teleport");
    assert_int_equal(raw_decode(&r, &m), -1);
    assert_non_null(strstr(why, "key 'type': unknown value 'teleport'"));

    raw_begin(&r, 1, "kind", "move");
    assert_int_equal(raw_decode(&r, &m), -1);
    assert_string_equal(why, "missing key 'type'");
}

/* An event's cell is one pm_encode can write back: nil for opp_hit (not told, 0 in the event), a cell
 * index for every other kind; an opp_hit with a cell or a "swap" cell is refused. */
static void event_cells_round_trip(void **state)
{
    (void)state;
    enum { NIL = -1, SWAP = -2 };
    static const struct {
        const char *kind;
        int cell;
        bool accepted;
    } cases[] = {
        { "opp_hit", NIL, true },     { "opp_hit", 5, false },      { "opp_hit_at", 5, true },
        { "opp_placed", 0, true },    { "opp_placed", SWAP, false }, { "swap", SWAP, false },
        { "opp_hit_at", NIL, false }, { "opp_placed", HX_MAX_CELLS, false },
    };
    static pm_msg m, back;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        raw r;
        raw_begin(&r, 3, "type", "turn");
        raw_int(&r, "game", 1);
        raw_str(&r, "events");
        msgpack_pack_array(&r.pk, 1);
        msgpack_pack_array(&r.pk, 2);
        raw_str(&r, cases[i].kind);
        if (cases[i].cell == NIL)
            msgpack_pack_nil(&r.pk);
        else if (cases[i].cell == SWAP)
            raw_str(&r, "swap");
        else
            msgpack_pack_int(&r.pk, cases[i].cell);
        int rc = raw_decode(&r, &m);
        assert_int_equal(rc, cases[i].accepted ? 0 : -1);
        if (!cases[i].accepted) {
            assert_non_null(strstr(why, "key 'events': entry 0"));
            continue;
        }
        assert_int_equal(m.events[0].cell, cases[i].cell == NIL ? 0 : cases[i].cell);
        size_t n = pm_encode(&m, buf, sizeof buf);
        assert_true(n > 0);
        assert_int_equal(pm_decode(buf, n, &back, why, sizeof why), 0);
        assert_int_equal(back.events[0].kind, m.events[0].kind);
        assert_int_equal(back.events[0].cell, m.events[0].cell);
    }
}

/* Mutated valid messages never crash the decoder (run under ASan+UBSan by `make test SAN=1`), and
 * whatever it accepts encodes again. */
static void mutations_never_crash(void **state)
{
    (void)state;
    static pm_msg m, d;
    memset(&m, 0, sizeof m);
    m.type = PM_TURN, m.game = 3, m.n_events = 5;
    for (int i = 0; i < 5; i++)
        m.events[i] = (hx_event){ HX_EV_OPP_HIT_AT, i * 7 };
    uint8_t base[512], mutant[512];
    size_t n = pm_encode(&m, base, sizeof base);
    assert_true(n > 0);
    rng_state rng;
    rng_seed(&rng, 11);
    int accepted = 0;
    for (int trial = 0; trial < 200000; trial++) {
        memcpy(mutant, base, n);
        size_t len = n;
        int edits = 1 + (int)rng_below(&rng, 4);
        for (int e = 0; e < edits; e++) {
            size_t at = rng_below(&rng, (uint32_t)len);
            switch (rng_below(&rng, 3)) {
            case 0: mutant[at] = (uint8_t)rng_next(&rng); break;
            case 1: mutant[at] ^= (uint8_t)(1u << rng_below(&rng, 8)); break;
            default: len = at + 1; break; /* truncate */
            }
        }
        if (pm_decode(mutant, len, &d, why, sizeof why) == 0) {
            accepted++;
            assert_true(pm_encode(&d, buf, sizeof buf) > 0);
        } else {
            assert_true(why[0] != '\0');
        }
    }
    assert_true(accepted > 0); /* some mutations (a changed cell, say) stay valid */
}

/* The agent host's messages (hostlink.h) round trip; a bot's message, garbage and cut-short messages are not
 * host messages; no cut of a message crashes the decoder. */
static void host_messages_round_trip(void **state)
{
    (void)state;
    static hl_msg m, back;
    static uint8_t hbuf[HL_MAX_MESSAGE];
    memset(&m, 0, sizeof m);
    m.type = HL_HELLO;
    m.n_agents = 2;
    snprintf(m.agents[0].name, sizeof m.agents[0].name, "far1");
    snprintf(m.agents[0].command, sizeof m.agents[0].command, "/opt/bots/random --seed 5");
    snprintf(m.agents[0].sha256, sizeof m.agents[0].sha256, "%064d", 7);
    snprintf(m.agents[1].name, sizeof m.agents[1].name, "it's,\"odd\"");
    snprintf(m.agents[1].command, sizeof m.agents[1].command, "bridge");
    size_t n = hl_encode(&m, hbuf, sizeof hbuf);
    assert_true(n > 0);
    assert_int_equal(hl_decode(hbuf, n, &back), 0);
    assert_int_equal(back.type, HL_HELLO);
    assert_int_equal(back.n_agents, 2);
    assert_string_equal(back.agents[0].command, "/opt/bots/random --seed 5");
    assert_string_equal(back.agents[1].name, "it's,\"odd\"");
    for (size_t cut = 0; cut < n; cut++)
        assert_int_equal(hl_decode(hbuf, cut, &back), -1);
    static const hl_type types[] = { HL_SPAWN, HL_KILL, HL_EXITED, HL_PING };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        memset(&m, 0, sizeof m);
        m.type = types[i];
        snprintf(m.agent, sizeof m.agent, "far2");
        snprintf(m.token, sizeof m.token, "0123456789abcdef0123456789abcdef");
        snprintf(m.detail, sizeof m.detail, "exited with status 3");
        n = hl_encode(&m, hbuf, sizeof hbuf);
        assert_true(n > 0);
        assert_int_equal(hl_decode(hbuf, n, &back), 0);
        assert_int_equal(back.type, types[i]);
        if (types[i] != HL_PING)
            assert_string_equal(back.token, m.token);
        if (types[i] == HL_SPAWN)
            assert_string_equal(back.agent, "far2");
        if (types[i] == HL_EXITED)
            assert_string_equal(back.detail, "exited with status 3");
    }
    /* a bot's hello is not a host message */
    static pm_msg hello;
    memset(&hello, 0, sizeof hello);
    hello.type = PM_HELLO;
    snprintf(hello.name, sizeof hello.name, "random");
    n = pm_encode(&hello, hbuf, sizeof hbuf);
    assert_true(n > 0);
    assert_int_equal(hl_decode(hbuf, n, &back), -1);
    assert_int_equal(hl_decode((const uint8_t *)"\xff\x00garbage", 9, &back), -1);
    /* too small a buffer: nothing written */
    m.type = HL_EXITED;
    assert_int_equal(hl_encode(&m, hbuf, 4), 0);
}

/* A turn's clocks (protocol 2): round trip with both, the player's only, none (the keys then absent); clock_ms,
 * inc_ms and moves_to_go go together; a mistyped one is named. */
static void clock_keys_round_trip(void **state)
{
    (void)state;
    static pm_msg m, d;
    memset(&m, 0, sizeof m);
    m.type = PM_TURN, m.game = 4, m.n_events = 1;
    m.events[0] = (hx_event){ HX_EV_REJECTED, 2 };
    m.has_clock = true, m.clock_ms = 59500, m.inc_ms = 500, m.moves_to_go = 38;
    m.has_opp_clock = true, m.opp_clock_ms = UINT32_MAX;
    through_wire(&m, &d);
    assert_true(d.has_clock && d.has_opp_clock);
    assert_true(d.clock_ms == 59500 && d.inc_ms == 500 && d.moves_to_go == 38 && d.opp_clock_ms == UINT32_MAX);
    assert_int_equal(d.n_events, 1);
    m.has_opp_clock = false, m.moves_to_go = 0; /* time odds: the opponent has no clock; sudden death */
    size_t n = pm_encode(&m, buf, sizeof buf);
    assert_false(has(buf, n, "opp_clock_ms"));
    through_wire(&m, &d);
    assert_true(d.has_clock && !d.has_opp_clock && d.moves_to_go == 0 && d.clock_ms == 59500);
    m.has_clock = false;
    n = pm_encode(&m, buf, sizeof buf);
    assert_false(has(buf, n, "clock_ms") || has(buf, n, "inc_ms") || has(buf, n, "moves_to_go"));
    through_wire(&m, &d);
    assert_false(d.has_clock || d.has_opp_clock);

    raw r;
    raw_begin(&r, 4, "type", "turn");
    raw_int(&r, "game", 1);
    raw_str(&r, "events"), msgpack_pack_array(&r.pk, 0);
    raw_int(&r, "clock_ms", 1000);
    expect_refused((const uint8_t *)r.sb.data, r.sb.size, "missing key 'inc_ms'");
    msgpack_sbuffer_destroy(&r.sb);
    raw_begin(&r, 6, "type", "turn");
    raw_int(&r, "game", 1);
    raw_str(&r, "events"), msgpack_pack_array(&r.pk, 0);
    raw_int(&r, "clock_ms", -5);
    raw_int(&r, "inc_ms", 0);
    raw_int(&r, "moves_to_go", 0);
    expect_refused((const uint8_t *)r.sb.data, r.sb.size, "key 'clock_ms': expected an integer");
    msgpack_sbuffer_destroy(&r.sb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_type_round_trips),
        cmocka_unit_test(opening_keys_round_trip),
        cmocka_unit_test(clock_keys_round_trip),
        cmocka_unit_test(unknown_keys_are_ignored),
        cmocka_unit_test(hostile_bytes_are_refused),
        cmocka_unit_test(missing_and_mistyped_keys_are_named),
        cmocka_unit_test(event_cells_round_trip),
        cmocka_unit_test(mutations_never_crash),
        cmocka_unit_test(host_messages_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
