/* arena/ladder/form.h — a posted form's fields: application/x-www-form-urlencoded (decoded: '+' and %XX) or
 * multipart/form-data (each part's name and filename from its Content-Disposition, its value the bytes up to the
 * next boundary, binary-safe). At most LD_FORM_MAX fields; names of up to 63 characters; anything malformed is
 * refused with one line. Values of a multipart form point into the body, which must outlive the form. */
#ifndef ARENA_LADDER_FORM_H
#define ARENA_LADDER_FORM_H

#include <stdbool.h>
#include <stddef.h>

#define LD_FORM_MAX 16

typedef struct {
    char name[64];
    char filename[256];            /* a file part's, "" otherwise */
    const char *value;
    size_t len;
} ld_field;

typedef struct {
    ld_field f[LD_FORM_MAX];
    int n;
    char *store;                   /* decoded urlencoded values (malloc'd) */
} ld_form;

/* Parses body (len bytes) by its Content-Type (NULL: urlencoded). Returns 0, or -1 with a reason in err. */
int ld_form_parse(const char *content_type, const char *body, size_t len, ld_form *f, char *err, size_t errlen);
void ld_form_free(ld_form *f);

/* The field called name, or NULL. */
const ld_field *ld_form_get(const ld_form *f, const char *name);

/* A text field copied into out (n bytes): false when it is missing, holds a NUL or does not fit. */
bool ld_form_text(const ld_form *f, const char *name, char *out, size_t n);

#endif
