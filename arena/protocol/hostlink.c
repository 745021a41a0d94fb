/* arena/protocol/hostlink.c — the host messages in MessagePack (contract in hostlink.h). */
#include "hostlink.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <msgpack.h>

static const char *const names[HL_TYPE_COUNT] = { "host_hello", "spawn", "kill", "exited", "host_ping" };

static void str(msgpack_packer *pk, const char *s)
{
    size_t n = strlen(s);
    msgpack_pack_str(pk, n);
    msgpack_pack_str_body(pk, s, n);
}

size_t hl_encode(const hl_msg *m, uint8_t *buf, size_t cap)
{
    if ((unsigned)m->type >= HL_TYPE_COUNT)
        return 0;
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    static const int entries[HL_TYPE_COUNT] = { 2, 3, 2, 3, 1 };
    msgpack_pack_map(&pk, (size_t)entries[m->type]);
    str(&pk, "type");
    str(&pk, names[m->type]);
    switch (m->type) {
    case HL_HELLO:
        str(&pk, "agents");
        msgpack_pack_array(&pk, (size_t)m->n_agents);
        for (int i = 0; i < m->n_agents; i++) {
            msgpack_pack_map(&pk, 3);
            str(&pk, "name");
            str(&pk, m->agents[i].name);
            str(&pk, "command");
            str(&pk, m->agents[i].command);
            str(&pk, "sha256");
            str(&pk, m->agents[i].sha256);
        }
        break;
    case HL_SPAWN:
        str(&pk, "agent");
        str(&pk, m->agent);
        /* fall through */
    case HL_KILL:
        str(&pk, "token");
        str(&pk, m->token);
        break;
    case HL_EXITED:
        str(&pk, "token");
        str(&pk, m->token);
        str(&pk, "detail");
        str(&pk, m->detail);
        break;
    case HL_PING:
    case HL_TYPE_COUNT: break;
    }
    size_t n = sb.size <= cap ? sb.size : 0;
    if (n)
        memcpy(buf, sb.data, n);
    msgpack_sbuffer_destroy(&sb);
    return n;
}

/* The string `key` of map o into out (len bytes); false when missing, not a string or too long. */
static bool get(const msgpack_object *o, const char *key, char *out, size_t len)
{
    if (o->type != MSGPACK_OBJECT_MAP)
        return false;
    for (uint32_t i = 0; i < o->via.map.size; i++) {
        const msgpack_object *k = &o->via.map.ptr[i].key, *v = &o->via.map.ptr[i].val;
        if (k->type == MSGPACK_OBJECT_STR && k->via.str.size == strlen(key) &&
            memcmp(k->via.str.ptr, key, k->via.str.size) == 0) {
            if (v->type != MSGPACK_OBJECT_STR || v->via.str.size >= len)
                return false;
            memcpy(out, v->via.str.ptr, v->via.str.size);
            out[v->via.str.size] = '\0';
            return true;
        }
    }
    return false;
}

int hl_decode(const uint8_t *data, size_t len, hl_msg *m)
{
    memset(m, 0, sizeof *m);
    if (len > HL_MAX_MESSAGE)
        return -1;
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    size_t off = 0;
    int rc = -1;
    if (msgpack_unpack_next(&u, (const char *)data, len, &off) != MSGPACK_UNPACK_SUCCESS || off != len)
        goto done;
    const msgpack_object *o = &u.data;
    char type[16];
    if (!get(o, "type", type, sizeof type))
        goto done;
    int t = -1;
    for (int i = 0; i < HL_TYPE_COUNT; i++)
        if (strcmp(type, names[i]) == 0)
            t = i;
    if (t < 0)
        goto done;
    m->type = (hl_type)t;
    switch (m->type) {
    case HL_HELLO:
        for (uint32_t i = 0; i < o->via.map.size; i++) {
            const msgpack_object *k = &o->via.map.ptr[i].key, *v = &o->via.map.ptr[i].val;
            if (k->type != MSGPACK_OBJECT_STR || k->via.str.size != 6 || memcmp(k->via.str.ptr, "agents", 6) != 0)
                continue;
            if (v->type != MSGPACK_OBJECT_ARRAY || v->via.array.size > HL_MAX_AGENTS)
                goto done;
            for (uint32_t j = 0; j < v->via.array.size; j++) {
                hl_agent *a = &m->agents[m->n_agents++];
                const msgpack_object *x = &v->via.array.ptr[j];
                if (!get(x, "name", a->name, sizeof a->name) || !get(x, "command", a->command, sizeof a->command) ||
                    !get(x, "sha256", a->sha256, sizeof a->sha256))
                    goto done;
            }
        }
        break;
    case HL_SPAWN:
        if (!get(o, "agent", m->agent, sizeof m->agent))
            goto done;
        /* fall through */
    case HL_KILL:
        if (!get(o, "token", m->token, sizeof m->token))
            goto done;
        break;
    case HL_EXITED:
        if (!get(o, "token", m->token, sizeof m->token) || !get(o, "detail", m->detail, sizeof m->detail))
            goto done;
        break;
    case HL_PING:
    case HL_TYPE_COUNT: break;
    }
    rc = 0;
done:
    msgpack_unpacked_destroy(&u);
    return rc;
}
