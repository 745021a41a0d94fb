/* arena/ladder/ini.c — the INI reader of the ladder's files (ini.h): splits lines, keeps the sections and the keys
 * seen (for repeats) and formats every error as one line naming the file, the line and the key. */
#include "ini.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

typedef struct {
    char section[INI_MAX_NAME + 1];
    char key[INI_MAX_NAME + 1];
    int line;
} seen_key;

typedef struct {
    const char *path;
    char section[INI_MAX_NAME + 1];
    seen_key seen[INI_MAX_KEYS];
    int n_seen;
    ini_fn fn;
    void *user;
    char *err;
    size_t errlen;
} ini_state;

/* s without the blanks around it (cut off at the end in place). */
static char *strip(char *s)
{
    s += strspn(s, " \t");
    char *end = s + strlen(s);
    while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
        *--end = '\0';
    return s;
}

/* "FILE:LINE: [section] key: why" (the key part left out when key is NULL), made printable. */
static int refuse(ini_state *st, int line, const char *key, const char *why)
{
    char msg[2048];
    snprintf(msg, sizeof msg, "%s:%d: %s%s%s%s%s%s", st->path, line, st->section[0] ? "[" : "", st->section,
             st->section[0] ? "] " : "", key ? key : "", key ? ": " : "", why);
    cfg_printable(msg, st->err, st->errlen);
    return -1;
}

static int header(ini_state *st, char *s, int line)
{
    char *end = strchr(s, ']');
    const char *rest = end ? end + 1 + strspn(end + 1, " \t") : NULL;
    if (!end || (*rest && *rest != '#' && *rest != ';')) /* a comment may follow */
        return refuse(st, line, NULL, "not a section header (expected [NAME])");
    *end = '\0';
    s = strip(s + 1);
    if (!*s || strlen(s) > INI_MAX_NAME) {
        st->section[0] = '\0';
        return refuse(st, line, NULL, *s ? "a section name longer than 64 characters" : "an empty section name");
    }
    snprintf(st->section, sizeof st->section, "%s", s);
    return 0;
}

static int key_value(ini_state *st, char *s, int line)
{
    char *eq = strchr(s, '=');
    if (!eq)
        return refuse(st, line, NULL, "not INI syntax (expected [section] or key = value)");
    *eq = '\0';
    cfg_cut_comment(eq + 1);
    char *value = strip(eq + 1);
    s = strip(s);
    if (!*s)
        return refuse(st, line, NULL, "a value without a key");
    if (strlen(s) > INI_MAX_NAME)
        return refuse(st, line, NULL, "a key longer than 64 characters");
    for (int i = 0; i < st->n_seen; i++)
        if (strcmp(st->seen[i].key, s) == 0 && strcmp(st->seen[i].section, st->section) == 0) {
            char why[64];
            snprintf(why, sizeof why, "repeated (the first is at line %d)", st->seen[i].line);
            return refuse(st, line, s, why);
        }
    if (st->n_seen == INI_MAX_KEYS)
        return refuse(st, line, s, "more than 256 keys in one file");
    seen_key *k = &st->seen[st->n_seen++];
    snprintf(k->section, sizeof k->section, "%s", st->section);
    snprintf(k->key, sizeof k->key, "%s", s);
    k->line = line;
    char why[1024] = "";
    if (st->fn(st->user, st->section, s, value, line, why, sizeof why) != 0)
        return refuse(st, line, s, why[0] ? why : "refused");
    return 0;
}

/* One line of n bytes (its newline included). */
static int parse_line(ini_state *st, char *s, size_t n, int line)
{
    if (memchr(s, '\0', n))
        return refuse(st, line, NULL, "a NUL byte (expected a text file)");
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
    if (line == 1 && strncmp(s, "\xEF\xBB\xBF", 3) == 0)
        s += 3;
    s += strspn(s, " \t");
    if (!*s || *s == '#' || *s == ';')
        return 0;
    return *s == '[' ? header(st, s, line) : key_value(st, s, line);
}

int ini_parse(const char *text, size_t len, const char *path, ini_fn fn, void *user, char *err, size_t errlen)
{
    ini_state *st = calloc(1, sizeof *st);
    char *buf = malloc(len + 1);
    if (!st || !buf) {
        snprintf(err, errlen, "%s: out of memory", path);
        free(st);
        free(buf);
        return -1;
    }
    *st = (ini_state){ .path = path, .fn = fn, .user = user, .err = err, .errlen = errlen };
    int rc = 0, line = 0;
    for (size_t at = 0; rc == 0 && at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (text + at)) + 1 : len - at;
        memcpy(buf, text + at, n);
        buf[n] = '\0';
        rc = parse_line(st, buf, n, ++line);
        at += n;
    }
    free(buf);
    free(st);
    return rc;
}
