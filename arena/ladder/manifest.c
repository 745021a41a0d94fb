/* arena/ladder/manifest.c — a submission's manifest (manifest.h): its five keys read through ini.h and checked, the
 * command split into the program inside the archive and its arguments. */
#include "manifest.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ini.h"

enum { M_NAME, M_VERSION, M_COMMAND, M_VARIANTS, M_BOARDS, M_COUNT };
static const char *const keys[M_COUNT] = { "name", "version", "command", "variants", "boards" };

typedef struct {
    ld_manifest *m;
    bool have[M_COUNT];
} manifest_state;

int ld_name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > LD_NAME_MAX || s[0] == '.')
        return 0;
    return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") == n;
}

/* "PROGRAM ARGS": the program a clean relative path, the arguments as given. */
static int split_command(ld_manifest *m, const char *v, char *why, size_t whylen)
{
    size_t k = strcspn(v, " \t");
    while (k >= 2 && v[0] == '.' && v[1] == '/') {
        v += 2;
        k -= 2;
    }
    const char *ok = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-/";
    if (k == 0 || k > LD_PATH_MAX || strspn(v, ok) < k || v[0] == '/') {
        snprintf(why, whylen, "expected a program inside the archive (a relative path of letters, digits and "
                 "\"._+-/\") and its arguments");
        return -1;
    }
    memcpy(m->program, v, k);
    m->program[k] = '\0';
    for (const char *c = m->program; c;) {
        const char *slash = strchr(c, '/');
        size_t n = slash ? (size_t)(slash - c) : strlen(c);
        if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.')) {
            snprintf(why, whylen, "'%s': a program path with an empty, '.' or '..' component", m->program);
            return -1;
        }
        c = slash ? slash + 1 : NULL;
    }
    const char *args = v + k + strspn(v + k, " \t");
    if (strlen(args) > CFG_COMMAND_MAX) {
        snprintf(why, whylen, "arguments longer than %d characters", CFG_COMMAND_MAX);
        return -1;
    }
    snprintf(m->args, sizeof m->args, "%s", args);
    return 0;
}

static int manifest_key(void *user, const char *section, const char *key, const char *value, int line, char *why,
                        size_t whylen)
{
    (void)line;
    manifest_state *st = user;
    ld_manifest *m = st->m;
    if (section[0]) {
        snprintf(why, whylen, "a manifest has no sections");
        return -1;
    }
    int k = 0;
    while (k < M_COUNT && strcmp(keys[k], key) != 0)
        k++;
    if (k == M_COUNT) {
        snprintf(why, whylen, "unknown key (expected name, version, command, variants, boards)");
        return -1;
    }
    st->have[k] = true;
    switch (k) {
    case M_NAME:
    case M_VERSION:
        if (!ld_name_ok(value)) {
            snprintf(why, whylen, "'%s': expected 1 to %d letters, digits, '_', '-' or '.' (not first)", value,
                     LD_NAME_MAX);
            return -1;
        }
        snprintf(k == M_NAME ? m->name : m->version, LD_NAME_MAX + 1, "%s", value);
        return 0;
    case M_COMMAND:
        return split_command(m, value, why, whylen);
    case M_VARIANTS:
        return cfg_parse_variants(value, &m->variants, why, whylen) ? 0 : -1;
    default:
        return cfg_parse_boards(value, &m->boards, why, whylen) ? 0 : -1;
    }
}

int ld_manifest_parse(const char *text, size_t len, const char *path, ld_manifest *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    if (len > LD_MANIFEST_MAX) {
        snprintf(err, errlen, "%s: %zu bytes, over the limit of %d for a manifest", path, len, LD_MANIFEST_MAX);
        return -1;
    }
    manifest_state st = { .m = m };
    if (ini_parse(text, len, path, manifest_key, &st, err, errlen) != 0)
        return -1;
    for (int k = 0; k < M_COUNT; k++)
        if (!st.have[k]) {
            char msg[600];
            snprintf(msg, sizeof msg, "%s: %s: missing (required: name, version, command, variants, boards)", path,
                     keys[k]);
            cfg_printable(msg, err, errlen);
            return -1;
        }
    return 0;
}
