/* arena/protocol/protocol.c — MessagePack encoding and checked decoding of the coordinator/agent messages. */
#include "protocol.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <msgpack.h>

static const char *const type_names[PM_TYPE_COUNT] = {
    "hello", "game_start", "turn", "move", "result", "game_end", "ping", "pong", "shutdown", "error",
};
static const char *const event_names[] = {
    "placed", "rejected", "collided", "opp_placed", "opp_hit", "opp_hit_at", "swap",
};
#define N_EVENT_KINDS (int)(sizeof event_names / sizeof event_names[0])

const char *pm_type_name(pm_type t)
{
    return (unsigned)t < PM_TYPE_COUNT ? type_names[t] : "?";
}

const char *pm_event_name(hx_event_kind k)
{
    return (int)k >= 0 && (int)k < N_EVENT_KINDS ? event_names[k] : "?";
}

/* ---- encoding ---------------------------------------------------------------------------------- */

typedef struct {
    uint8_t *buf;
    size_t cap, len;
    bool overflow;
} fixed_buf;

static int fixed_write(void *data, const char *bytes, size_t n)
{
    fixed_buf *f = data;
    if (f->len + n > f->cap) {
        f->overflow = true;
        return -1;
    }
    memcpy(f->buf + f->len, bytes, n);
    f->len += n;
    return 0;
}

static void put_str(msgpack_packer *pk, const char *s)
{
    size_t n = strlen(s);
    msgpack_pack_str(pk, n);
    msgpack_pack_str_body(pk, s, n);
}

static void put_key_str(msgpack_packer *pk, const char *key, const char *value)
{
    put_str(pk, key);
    put_str(pk, value);
}

static void put_key_uint(msgpack_packer *pk, const char *key, uint64_t value)
{
    put_str(pk, key);
    msgpack_pack_uint64(pk, value);
}

static void put_cell(msgpack_packer *pk, int cell)
{
    if (cell == HX_SWAP)
        put_str(pk, "swap");
    else
        msgpack_pack_int(pk, cell);
}

static void put_cells(msgpack_packer *pk, const char *key, const uint16_t *cells, int n)
{
    put_str(pk, key);
    msgpack_pack_array(pk, (size_t)n);
    for (int i = 0; i < n; i++)
        msgpack_pack_uint16(pk, cells[i]);
}

/* Number of map entries each type writes (the opening keys of game_start aside) (the type key included). */
static const int entries[PM_TYPE_COUNT] = { 7, 9, 3, 3, 5, 6, 2, 2, 1, 2 };

static void put_hello(msgpack_packer *pk, const pm_msg *m)
{
    put_key_uint(pk, "protocol", (uint64_t)m->protocol);
    put_key_str(pk, "token", m->token);
    put_key_str(pk, "name", m->name);
    put_key_str(pk, "version", m->version);
    put_str(pk, "variants");
    int nv = 0;
    for (int v = 0; v < HX_VARIANT_COUNT; v++)
        nv += (m->variants >> v) & 1;
    msgpack_pack_array(pk, (size_t)nv);
    for (int v = 0; v < HX_VARIANT_COUNT; v++)
        if ((m->variants >> v) & 1)
            put_str(pk, hx_variant_name((hx_variant)v));
    put_str(pk, "boards");
    msgpack_pack_array(pk, (size_t)m->n_boards);
    for (int i = 0; i < m->n_boards; i++) {
        char b[16];
        snprintf(b, sizeof b, "%dx%d", m->boards[i][0], m->boards[i][1]);
        put_str(pk, b);
    }
}

static void put_game_start(msgpack_packer *pk, const pm_msg *m, bool opening)
{
    put_key_uint(pk, "game", m->game);
    put_key_str(pk, "variant", hx_variant_name(m->variant));
    put_key_uint(pk, "rows", (uint64_t)m->rows);
    put_key_uint(pk, "cols", (uint64_t)m->cols);
    put_key_str(pk, "color", m->color == HX_BLACK ? "B" : "W");
    put_key_uint(pk, "move_ms", m->move_ms);
    put_key_uint(pk, "seed", m->seed);
    put_str(pk, "swap");
    if (m->swap)
        msgpack_pack_true(pk);
    else
        msgpack_pack_false(pk);
    if (opening) {
        put_cells(pk, "own", m->own, m->n_own);
        put_cells(pk, "seen", m->seen, m->n_seen);
        put_key_uint(pk, "hidden", (uint64_t)m->hidden);
    }
}

static void put_events(msgpack_packer *pk, const pm_msg *m)
{
    put_str(pk, "events");
    msgpack_pack_array(pk, (size_t)m->n_events);
    for (int i = 0; i < m->n_events; i++) {
        msgpack_pack_array(pk, 2);
        put_str(pk, pm_event_name(m->events[i].kind));
        if (m->events[i].kind == HX_EV_OPP_HIT)
            msgpack_pack_nil(pk);
        else
            msgpack_pack_int(pk, m->events[i].cell);
    }
}

/* Map entries beyond entries[] (the type's fixed keys): a game_start's opening, a turn's clocks, a protocol-2
 * game_end's events. */
static size_t optional_entries(const pm_msg *m)
{
    if (m->type == PM_GAME_START)
        return m->n_own + m->n_seen + m->hidden > 0 ? 3 : 0;
    if (m->type == PM_TURN)
        return (m->has_clock ? 3 : 0) + (m->has_opp_clock ? 1 : 0);
    if (m->type == PM_GAME_END)
        return m->protocol >= 2 ? 1 : 0;
    return 0;
}

static void put_turn(msgpack_packer *pk, const pm_msg *m)
{
    put_key_uint(pk, "game", m->game);
    put_events(pk, m);
    if (m->has_clock) {
        put_key_uint(pk, "clock_ms", m->clock_ms);
        put_key_uint(pk, "inc_ms", m->inc_ms);
        put_key_uint(pk, "moves_to_go", (uint64_t)m->moves_to_go);
    }
    if (m->has_opp_clock)
        put_key_uint(pk, "opp_clock_ms", m->opp_clock_ms);
}

static void put_game_end(msgpack_packer *pk, const pm_msg *m)
{
    put_key_uint(pk, "game", m->game);
    put_key_str(pk, "winner", m->winner == HX_BLACK ? "B" : "W");
    put_key_str(pk, "reason", hx_end_names[m->reason]);
    put_key_str(pk, "detail", m->detail);
    put_str(pk, "board");
    msgpack_pack_array(pk, (size_t)m->n_cells);
    for (int i = 0; i < m->n_cells; i++)
        msgpack_pack_uint8(pk, m->board[i]);
    if (m->protocol >= 2) /* the events not yet told: the last attempt's outcome among them */
        put_events(pk, m);
}

size_t pm_encode(const pm_msg *m, uint8_t *buf, size_t cap)
{
    if ((unsigned)m->type >= PM_TYPE_COUNT)
        return 0;
    fixed_buf f = { .buf = buf, .cap = cap };
    msgpack_packer pk;
    msgpack_packer_init(&pk, &f, fixed_write);
    bool opening = m->type == PM_GAME_START && m->n_own + m->n_seen + m->hidden > 0;
    msgpack_pack_map(&pk, (size_t)entries[m->type] + optional_entries(m));
    put_key_str(&pk, "type", type_names[m->type]);
    switch (m->type) {
    case PM_HELLO: put_hello(&pk, m); break;
    case PM_GAME_START: put_game_start(&pk, m, opening); break;
    case PM_TURN: put_turn(&pk, m); break;
    case PM_MOVE:
        put_key_uint(&pk, "game", m->game);
        put_str(&pk, "cell");
        put_cell(&pk, m->cell);
        break;
    case PM_RESULT:
        put_key_uint(&pk, "game", m->game);
        put_str(&pk, "cell");
        put_cell(&pk, m->cell);
        put_key_str(&pk, "outcome", hx_outcome_name(m->outcome));
        put_str(&pk, "won");
        if (m->won)
            msgpack_pack_true(&pk);
        else
            msgpack_pack_false(&pk);
        break;
    case PM_GAME_END: put_game_end(&pk, m); break;
    case PM_PING:
    case PM_PONG:
        put_key_uint(&pk, "nonce", m->nonce);
        break;
    case PM_ERROR:
        put_key_str(&pk, "message", m->message);
        break;
    case PM_SHUTDOWN:
    case PM_TYPE_COUNT:
        break;
    }
    return f.overflow ? 0 : f.len;
}

/* ---- checking raw bytes before msgpack-c sees them --------------------------------------------- */

typedef struct {
    const uint8_t *p, *end;
    const char *why;
} scan;

static uint64_t be(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

/* Skips one object, checking every declared size against the limits and the bytes left. */
static bool skip_object(scan *s, int depth)
{
    if (s->p >= s->end)
        return s->why = "truncated message", false;
    uint8_t b = *s->p++;
    uint64_t fixed = 0; /* bytes that follow the header regardless of a declared length */
    int width = 0;      /* bytes of a declared length or count */
    enum { SCALAR, BYTES, ARRAY, MAP } kind = SCALAR;
    uint64_t n = 0;
    if (b <= 0x7f || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3)
        return true;
    if (b >= 0x80 && b <= 0x8f)
        kind = MAP, n = b & 0x0f;
    else if (b >= 0x90 && b <= 0x9f)
        kind = ARRAY, n = b & 0x0f;
    else if (b >= 0xa0 && b <= 0xbf)
        kind = BYTES, n = b & 0x1f;
    else {
        switch (b) {
        case 0xc4: case 0xd9: kind = BYTES; width = 1; break;
        case 0xc5: case 0xda: kind = BYTES; width = 2; break;
        case 0xc6: case 0xdb: kind = BYTES; width = 4; break;
        case 0xc7: kind = BYTES; width = 1; fixed = 1; break; /* ext: a type byte, then the data */
        case 0xc8: kind = BYTES; width = 2; fixed = 1; break;
        case 0xc9: kind = BYTES; width = 4; fixed = 1; break;
        case 0xca: fixed = 4; break;
        case 0xcb: fixed = 8; break;
        case 0xcc: case 0xd0: fixed = 1; break;
        case 0xcd: case 0xd1: fixed = 2; break;
        case 0xce: case 0xd2: fixed = 4; break;
        case 0xcf: case 0xd3: fixed = 8; break;
        case 0xd4: fixed = 2; break;
        case 0xd5: fixed = 3; break;
        case 0xd6: fixed = 5; break;
        case 0xd7: fixed = 9; break;
        case 0xd8: fixed = 17; break;
        case 0xdc: kind = ARRAY; width = 2; break;
        case 0xdd: kind = ARRAY; width = 4; break;
        case 0xde: kind = MAP; width = 2; break;
        case 0xdf: kind = MAP; width = 4; break;
        default: return s->why = "invalid MessagePack byte", false;
        }
    }
    if (width) {
        if (s->end - s->p < width)
            return s->why = "truncated message", false;
        n = be(s->p, width);
        s->p += width;
    }
    if (kind == ARRAY || kind == MAP) {
        if (depth >= PM_MAX_DEPTH)
            return s->why = "arrays or maps nested too deep", false;
        if (n > PM_MAX_ITEMS)
            return s->why = "array or map declares more than 1024 entries", false;
        uint64_t objects = kind == MAP ? 2 * n : n;
        if (objects > (uint64_t)(s->end - s->p))
            return s->why = "array or map declares more entries than the message holds", false;
        for (uint64_t i = 0; i < objects; i++)
            if (!skip_object(s, depth + 1))
                return false;
        return true;
    }
    if (kind == BYTES && n > PM_MAX_STRING)
        return s->why = "string or binary longer than 255 bytes", false;
    if (n + fixed > (uint64_t)(s->end - s->p))
        return s->why = "truncated message", false;
    s->p += n + fixed;
    return true;
}

/* ---- decoding ------------------------------------------------------------------------------------ */

typedef struct {
    const msgpack_object_map *map;
    char *why;
    size_t whylen;
    bool failed;
} reader;

static bool fail(reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(reader *r, const char *fmt, ...)
{
    if (!r->failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->why, r->whylen, fmt, ap);
        va_end(ap);
        r->failed = true;
    }
    return false;
}

static const msgpack_object *lookup(reader *r, const char *key)
{
    size_t n = strlen(key);
    for (uint32_t i = 0; i < r->map->size; i++) {
        const msgpack_object *k = &r->map->ptr[i].key;
        if (k->type == MSGPACK_OBJECT_STR && k->via.str.size == n && memcmp(k->via.str.ptr, key, n) == 0)
            return &r->map->ptr[i].val;
    }
    return NULL;
}

static const msgpack_object *need(reader *r, const char *key)
{
    const msgpack_object *o = lookup(r, key);
    if (!o)
        fail(r, "missing key '%s'", key);
    return o;
}

static uint64_t get_uint(reader *r, const char *key, uint64_t max)
{
    const msgpack_object *o = need(r, key);
    if (!o)
        return 0;
    if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER || o->via.u64 > max)
        return fail(r, "key '%s': expected an integer from 0 to %llu", key, (unsigned long long)max), 0;
    return o->via.u64;
}

static void get_str(reader *r, const char *key, char out[PM_MAX_STRING + 1])
{
    out[0] = '\0';
    const msgpack_object *o = need(r, key);
    if (!o)
        return;
    if (o->type != MSGPACK_OBJECT_STR || o->via.str.size > PM_MAX_STRING) {
        fail(r, "key '%s': expected a string of at most %d bytes", key, PM_MAX_STRING);
        return;
    }
    if (memchr(o->via.str.ptr, '\0', o->via.str.size)) {
        fail(r, "key '%s': string holds a NUL byte", key);
        return;
    }
    memcpy(out, o->via.str.ptr, o->via.str.size);
    out[o->via.str.size] = '\0';
}

static bool get_bool(reader *r, const char *key)
{
    const msgpack_object *o = need(r, key);
    if (o && o->type != MSGPACK_OBJECT_BOOLEAN)
        return fail(r, "key '%s': expected true or false", key);
    return o && o->via.boolean;
}

static int get_choice(reader *r, const char *key, const char *const *names, int n)
{
    char s[PM_MAX_STRING + 1];
    get_str(r, key, s);
    if (r->failed)
        return 0;
    for (int i = 0; i < n; i++)
        if (names[i] && strcmp(s, names[i]) == 0)
            return i;
    fail(r, "key '%s': unknown value '%.40s'", key, s);
    return 0;
}

static const msgpack_object_array *get_array(reader *r, const char *key)
{
    const msgpack_object *o = need(r, key);
    if (o && o->type != MSGPACK_OBJECT_ARRAY)
        return fail(r, "key '%s': expected an array", key), NULL;
    return o ? &o->via.array : NULL;
}

static int cell_value(reader *r, const msgpack_object *o, const char *key)
{
    if (o->type == MSGPACK_OBJECT_STR && o->via.str.size == 4 && memcmp(o->via.str.ptr, "swap", 4) == 0)
        return HX_SWAP;
    if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER || o->via.u64 >= HX_MAX_CELLS)
        return fail(r, "key '%s': expected a cell index from 0 to %d or \"swap\"", key, HX_MAX_CELLS - 1), 0;
    return (int)o->via.u64;
}

static int get_color(reader *r, const char *key)
{
    static const char *const colors[] = { "B", "W" };
    return get_choice(r, key, colors, 2);
}

static void read_hello(reader *r, pm_msg *m)
{
    m->protocol = (int)get_uint(r, "protocol", 1000000);
    get_str(r, "token", m->token);
    get_str(r, "name", m->name);
    get_str(r, "version", m->version);
    const msgpack_object_array *a = get_array(r, "variants");
    for (uint32_t i = 0; a && i < a->size && !r->failed; i++) {
        const msgpack_object *o = &a->ptr[i];
        char name[32] = "";
        if (o->type == MSGPACK_OBJECT_STR && o->via.str.size < sizeof name)
            memcpy(name, o->via.str.ptr, o->via.str.size);
        int v = hx_variant_parse(name);
        if (v < 0)
            fail(r, "key 'variants': entry %u is not a variant name", i);
        else
            m->variants |= 1u << v;
    }
    if (m->variants == 0)
        m->variants = (1u << HX_VARIANT_COUNT) - 1;
    a = get_array(r, "boards");
    if (a && a->size > PM_MAX_BOARDS)
        fail(r, "key 'boards': at most %d entries", PM_MAX_BOARDS);
    for (uint32_t i = 0; a && i < a->size && !r->failed; i++) {
        const msgpack_object *o = &a->ptr[i];
        char text[16] = "";
        const char *why = "expected a string such as \"5x5\"";
        int rows, cols;
        if (o->type == MSGPACK_OBJECT_STR && o->via.str.size < sizeof text)
            memcpy(text, o->via.str.ptr, o->via.str.size);
        if (!hx_board_parse(text, &rows, &cols, &why)) {
            fail(r, "key 'boards': entry %u: %s", i, why);
        } else {
            m->boards[m->n_boards][0] = (uint8_t)rows;
            m->boards[m->n_boards][1] = (uint8_t)cols;
            m->n_boards++;
        }
    }
}

/* The optional opening keys of game_start (absent: no opening). */
static void read_opening(reader *r, pm_msg *m)
{
    bool taken[HX_MAX_CELLS] = { false };
    int cells = m->rows * m->cols;
    static const char *const keys[2] = { "own", "seen" };
    for (int k = 0; k < 2; k++) {
        if (!lookup(r, keys[k]))
            continue;
        const msgpack_object_array *a = get_array(r, keys[k]);
        if (!a)
            return;
        for (uint32_t i = 0; i < a->size; i++) {
            const msgpack_object *o = &a->ptr[i];
            if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER || o->via.u64 >= (uint64_t)cells || taken[o->via.u64]) {
                fail(r, "key '%s': entry %u: expected a cell from 0 to %d not listed before", keys[k], i, cells - 1);
                return;
            }
            taken[o->via.u64] = true;
            (k ? m->seen : m->own)[i] = (uint16_t)o->via.u64;
        }
        *(k ? &m->n_seen : &m->n_own) = (int)a->size;
    }
    if (lookup(r, "hidden"))
        m->hidden = (int)get_uint(r, "hidden", (uint64_t)cells);
    if (r->failed)
        return;
    int stones = m->n_own + m->n_seen + m->hidden, opp = m->n_seen + m->hidden;
    if (stones > cells)
        fail(r, "keys 'own', 'seen', 'hidden': %d stones on %d cells", stones, cells);
    else if (m->variant == HX_HEX ? m->hidden != 0 : m->n_seen != 0)
        fail(r, "key '%s': must be %s in %s", m->variant == HX_HEX ? "hidden" : "seen",
             m->variant == HX_HEX ? "0" : "empty", hx_variant_name(m->variant));
    else if (m->color == HX_BLACK ? m->n_own != opp && m->n_own != opp + 1 : opp != m->n_own && opp != m->n_own + 1)
        fail(r, "keys 'own', 'seen', 'hidden': %d own and %d opponent stones are not an opening for %s", m->n_own,
             opp, m->color == HX_BLACK ? "Black" : "White");
}

static void read_game_start(reader *r, pm_msg *m)
{
    m->game = get_uint(r, "game", UINT64_MAX);
    char name[PM_MAX_STRING + 1];
    get_str(r, "variant", name);
    int v = hx_variant_parse(name);
    if (!r->failed && v < 0)
        fail(r, "key 'variant': unknown variant '%.40s'", name);
    m->variant = v < 0 ? HX_HEX : (hx_variant)v;
    m->rows = (int)get_uint(r, "rows", HX_MAX_SIDE);
    m->cols = (int)get_uint(r, "cols", HX_MAX_SIDE);
    if (!r->failed && (m->rows < HX_MIN_SIDE || m->cols < HX_MIN_SIDE))
        fail(r, "keys 'rows', 'cols': each side must be from %d to %d", HX_MIN_SIDE, HX_MAX_SIDE);
    m->color = get_color(r, "color");
    m->move_ms = (uint32_t)get_uint(r, "move_ms", UINT32_MAX);
    m->seed = get_uint(r, "seed", UINT64_MAX);
    m->swap = get_bool(r, "swap");
    if (!r->failed)
        read_opening(r, m);
}

/* A turn's clocks (protocol 2): clock_ms, inc_ms and moves_to_go together or none; opp_clock_ms on its own. */
static void read_clocks(reader *r, pm_msg *m)
{
    if (lookup(r, "clock_ms") || lookup(r, "inc_ms") || lookup(r, "moves_to_go")) {
        m->has_clock = true;
        m->clock_ms = (uint32_t)get_uint(r, "clock_ms", UINT32_MAX);
        m->inc_ms = (uint32_t)get_uint(r, "inc_ms", UINT32_MAX);
        m->moves_to_go = (int)get_uint(r, "moves_to_go", INT32_MAX);
    }
    if (lookup(r, "opp_clock_ms")) {
        m->has_opp_clock = true;
        m->opp_clock_ms = (uint32_t)get_uint(r, "opp_clock_ms", UINT32_MAX);
    }
}

static void read_events(reader *r, pm_msg *m)
{
    const msgpack_object_array *a = get_array(r, "events");
    if (a && a->size > HX_MAX_EVENTS)
        fail(r, "key 'events': at most %d entries", HX_MAX_EVENTS);
    for (uint32_t i = 0; a && i < a->size && !r->failed; i++) {
        const msgpack_object *o = &a->ptr[i];
        if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != 2 || o->via.array.ptr[0].type != MSGPACK_OBJECT_STR) {
            fail(r, "key 'events': entry %u: expected [kind, cell]", i);
            break;
        }
        const msgpack_object_str *k = &o->via.array.ptr[0].via.str;
        int kind = -1;
        for (int j = 0; j < N_EVENT_KINDS; j++)
            if (strlen(event_names[j]) == k->size && memcmp(event_names[j], k->ptr, k->size) == 0)
                kind = j;
        if (kind < 0) {
            fail(r, "key 'events': entry %u: unknown kind", i);
            break;
        }
        /* opp_hit tells no cell: nil on the wire, 0 in the event (as the engine records it). Every other kind
         * names a cell of the board, never "swap". */
        const msgpack_object *c = &o->via.array.ptr[1];
        int cell = 0;
        if (kind == HX_EV_OPP_HIT) {
            if (c->type != MSGPACK_OBJECT_NIL) {
                fail(r, "key 'events': entry %u: expected nil as the cell of opp_hit", i);
                break;
            }
        } else if (c->type == MSGPACK_OBJECT_POSITIVE_INTEGER && c->via.u64 < HX_MAX_CELLS) {
            cell = (int)c->via.u64;
        } else {
            fail(r, "key 'events': entry %u: expected a cell index from 0 to %d", i, HX_MAX_CELLS - 1);
            break;
        }
        m->events[m->n_events].kind = (hx_event_kind)kind;
        m->events[m->n_events].cell = cell;
        m->n_events++;
    }
}

static void read_turn(reader *r, pm_msg *m)
{
    m->game = get_uint(r, "game", UINT64_MAX);
    read_events(r, m);
    if (!r->failed)
        read_clocks(r, m);
}

int pm_decode(const uint8_t *data, size_t len, pm_msg *m, char *why, size_t whylen)
{
    memset(m, 0, sizeof *m);
    if (len > PM_MAX_MESSAGE) {
        snprintf(why, whylen, "message of %zu bytes is over the limit of %d", len, PM_MAX_MESSAGE);
        return -1;
    }
    scan s = { .p = data, .end = data + len };
    if (!skip_object(&s, 0)) {
        snprintf(why, whylen, "%s", s.why);
        return -1;
    }
    if (s.p != s.end) {
        snprintf(why, whylen, "bytes after the message");
        return -1;
    }
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    size_t off = 0;
    if (msgpack_unpack_next(&u, (const char *)data, len, &off) != MSGPACK_UNPACK_SUCCESS ||
        u.data.type != MSGPACK_OBJECT_MAP) {
        msgpack_unpacked_destroy(&u);
        snprintf(why, whylen, "expected a MessagePack map");
        return -1;
    }
    reader r = { .map = &u.data.via.map, .why = why, .whylen = whylen };
    m->type = (pm_type)get_choice(&r, "type", type_names, PM_TYPE_COUNT);
    if (!r.failed) {
        switch (m->type) {
        case PM_HELLO:
            read_hello(&r, m);
            break;
        case PM_GAME_START:
            read_game_start(&r, m);
            break;
        case PM_TURN:
            read_turn(&r, m);
            break;
        case PM_MOVE:
            m->game = get_uint(&r, "game", UINT64_MAX);
            if (need(&r, "cell"))
                m->cell = cell_value(&r, lookup(&r, "cell"), "cell");
            break;
        case PM_RESULT: {
            static const char *const outcomes[] = { "placed", "rejected", "collision", "swap" };
            m->game = get_uint(&r, "game", UINT64_MAX);
            if (need(&r, "cell"))
                m->cell = cell_value(&r, lookup(&r, "cell"), "cell");
            m->outcome = (hx_outcome)get_choice(&r, "outcome", outcomes, 4);
            m->won = get_bool(&r, "won");
            break;
        }
        case PM_GAME_END: {
            m->game = get_uint(&r, "game", UINT64_MAX);
            m->winner = get_color(&r, "winner");
            m->reason = (hx_end_reason)get_choice(&r, "reason", hx_end_names, HX_END_COUNT);
            get_str(&r, "detail", m->detail);
            const msgpack_object_array *a = get_array(&r, "board");
            if (a && a->size > HX_MAX_CELLS)
                fail(&r, "key 'board': at most %d cells", HX_MAX_CELLS);
            for (uint32_t i = 0; a && i < a->size && !r.failed; i++) {
                if (a->ptr[i].type != MSGPACK_OBJECT_POSITIVE_INTEGER || a->ptr[i].via.u64 > 2)
                    fail(&r, "key 'board': entry %u: expected 0, 1 or 2", i);
                else
                    m->board[m->n_cells++] = (uint8_t)a->ptr[i].via.u64;
            }
            if (!r.failed && lookup(&r, "events")) /* protocol 2: what the player was told since its last turn */
                m->protocol = 2, read_events(&r, m);
            break;
        }
        case PM_PING:
        case PM_PONG:
            m->nonce = get_uint(&r, "nonce", UINT64_MAX);
            break;
        case PM_ERROR:
            get_str(&r, "message", m->message);
            break;
        case PM_SHUTDOWN:
        case PM_TYPE_COUNT:
            break;
        }
    }
    msgpack_unpacked_destroy(&u);
    return r.failed ? -1 : 0;
}

char *pm_dump(const uint8_t *data, size_t len, char *out, size_t cap)
{
    if (cap == 0)
        return out;
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    size_t off = 0;
    if (msgpack_unpack_next(&u, (const char *)data, len, &off) != MSGPACK_UNPACK_SUCCESS) {
        snprintf(out, cap, "<%zu bytes, not MessagePack>", len);
    } else {
        int n = msgpack_object_print_buffer(out, cap, u.data);
        if (n < 0 || (size_t)n >= cap - 1) /* filled: say so */
            snprintf(out + (cap > 4 ? cap - 4 : 0), cap > 4 ? 4 : cap, "...");
    }
    msgpack_unpacked_destroy(&u);
    return out;
}
