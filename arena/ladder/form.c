/* arena/ladder/form.c — posted forms parsed (form.h). */
#define _GNU_SOURCE /* memmem */
#include "form.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Decodes n bytes of s into out; returns the decoded length. */
static size_t decode(const char *s, size_t n, char *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '+')
            out[k++] = ' ';
        else if (s[i] == '%' && i + 2 < n && hexval(s[i + 1]) >= 0 && hexval(s[i + 2]) >= 0) {
            out[k++] = (char)(hexval(s[i + 1]) * 16 + hexval(s[i + 2]));
            i += 2;
        } else
            out[k++] = s[i];
    }
    out[k] = '\0';
    return k;
}

static int urlencoded(const char *body, size_t len, ld_form *f, char *err, size_t errlen)
{
    if (!(f->store = malloc(2 * len + 2))) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    size_t at = 0;
    for (size_t i = 0; i < len;) {
        const char *amp = memchr(body + i, '&', len - i);
        size_t n = amp ? (size_t)(amp - (body + i)) : len - i;
        const char *eq = memchr(body + i, '=', n);
        size_t kn = eq ? (size_t)(eq - (body + i)) : n;
        if (n && f->n == LD_FORM_MAX) {
            snprintf(err, errlen, "more than %d form fields", LD_FORM_MAX);
            return -1;
        }
        if (n) {
            ld_field *x = &f->f[f->n++];
            char *name = f->store + at;
            size_t nl = decode(body + i, kn, name);
            at += nl + 1;
            if (nl == 0 || nl >= sizeof x->name) {
                snprintf(err, errlen, "a form field name that is empty or longer than 63 characters");
                return -1;
            }
            memcpy(x->name, name, nl + 1);
            x->value = f->store + at;
            x->len = eq ? decode(eq + 1, n - kn - 1, f->store + at) : (f->store[at] = '\0', 0);
            at += x->len + 1;
        }
        i += n + 1;
    }
    return 0;
}

/* The quoted value of `key="..."` in a header line of n bytes into out. */
static bool param(const char *line, size_t n, const char *key, char *out, size_t outlen)
{
    size_t k = strlen(key);
    for (size_t i = 0; i + k + 2 <= n; i++)
        if ((i == 0 || line[i - 1] == ' ' || line[i - 1] == ';') && strncasecmp(line + i, key, k) == 0 &&
            line[i + k] == '=' && line[i + k + 1] == '"') {
            const char *v = line + i + k + 2, *end = memchr(v, '"', n - (i + k + 2));
            if (!end || (size_t)(end - v) >= outlen)
                return false;
            memcpy(out, v, (size_t)(end - v));
            out[end - v] = '\0';
            return true;
        }
    return false;
}

/* One part: headers then value, between p and end (the CRLF before the next boundary). */
static int part(const char *p, const char *end, ld_form *f, char *err, size_t errlen)
{
    const char *blank = memmem(p, (size_t)(end - p), "\r\n\r\n", 4);
    if (!blank) {
        snprintf(err, errlen, "a multipart part without headers");
        return -1;
    }
    if (f->n == LD_FORM_MAX) {
        snprintf(err, errlen, "more than %d form fields", LD_FORM_MAX);
        return -1;
    }
    ld_field *x = &f->f[f->n];
    memset(x, 0, sizeof *x);
    for (const char *l = p; l < blank;) {
        const char *eol = memmem(l, (size_t)(blank + 2 - l), "\r\n", 2);
        size_t n = (size_t)(eol - l);
        if (n > 20 && strncasecmp(l, "Content-Disposition:", 20) == 0) {
            if (!param(l, n, "name", x->name, sizeof x->name)) {
                snprintf(err, errlen, "a multipart part without a name (or one over 63 characters)");
                return -1;
            }
            param(l, n, "filename", x->filename, sizeof x->filename);
        }
        l = eol + 2;
    }
    if (!x->name[0]) {
        snprintf(err, errlen, "a multipart part without Content-Disposition");
        return -1;
    }
    x->value = blank + 4;
    x->len = (size_t)(end - x->value);
    f->n++;
    return 0;
}

static int multipart(const char *ct, const char *body, size_t len, ld_form *f, char *err, size_t errlen)
{
    const char *b = strstr(ct, "boundary=");
    char delim[128];
    size_t bl = b ? strcspn(b + 9, "; \t") : 0;
    const char *bv = b ? b + 9 : NULL;
    if (bv && *bv == '"')
        bl = strcspn(++bv, "\"");
    if (!bv || bl == 0 || bl > 70) {
        snprintf(err, errlen, "multipart/form-data without a boundary");
        return -1;
    }
    int dl = snprintf(delim, sizeof delim, "\r\n--%.*s", (int)bl, bv);
    if (len < (size_t)dl - 2 || memcmp(body, delim + 2, (size_t)dl - 2) != 0) {
        snprintf(err, errlen, "a multipart body that does not start with its boundary");
        return -1;
    }
    const char *p = body + dl - 2, *end = body + len;
    for (;;) {
        if (end - p >= 2 && p[0] == '-' && p[1] == '-')
            return 0; /* the closing boundary */
        if (end - p < 2 || p[0] != '\r' || p[1] != '\n')
            break;
        p += 2;
        const char *next = memmem(p, (size_t)(end - p), delim, (size_t)dl);
        if (!next)
            break;
        if (part(p, next, f, err, errlen) != 0)
            return -1;
        p = next + dl;
    }
    snprintf(err, errlen, "a multipart body cut short (no closing boundary)");
    return -1;
}

int ld_form_parse(const char *content_type, const char *body, size_t len, ld_form *f, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    if (content_type && strncasecmp(content_type, "multipart/form-data", 19) == 0)
        return multipart(content_type, body, len, f, err, errlen);
    if (content_type && strncasecmp(content_type, "application/x-www-form-urlencoded", 33) != 0) {
        snprintf(err, errlen, "a form of type '%.60s' (expected urlencoded or multipart/form-data)", content_type);
        return -1;
    }
    return urlencoded(body, len, f, err, errlen);
}

void ld_form_free(ld_form *f)
{
    free(f->store);
    f->store = NULL;
}

const ld_field *ld_form_get(const ld_form *f, const char *name)
{
    for (int i = 0; i < f->n; i++)
        if (strcmp(f->f[i].name, name) == 0)
            return &f->f[i];
    return NULL;
}

bool ld_form_text(const ld_form *f, const char *name, char *out, size_t n)
{
    const ld_field *x = ld_form_get(f, name);
    if (!x || x->len >= n || memchr(x->value, '\0', x->len))
        return false;
    memcpy(out, x->value, x->len);
    out[x->len] = '\0';
    return true;
}
