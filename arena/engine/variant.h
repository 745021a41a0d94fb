/* arena/engine/variant.h — the seven game variants, their names and the rules that set them apart
 * (rules.md "Variants"). */
#ifndef ARENA_ENGINE_VARIANT_H
#define ARENA_ENGINE_VARIANT_H

#include <stdbool.h>

/* The values are part of file formats: policy files and checkpoints store a variant as its value here
 * (policy-format.md), so a value never changes meaning. Append a new variant before HX_VARIANT_COUNT; never
 * reorder, remove or insert (variant.c pins every value at compile time). The results database and the
 * protocol use the names instead. */
typedef enum {
    HX_HEX,             /* perfect information; optional swap rule */
    HX_CLASSICAL,       /* hidden stones; an attempt on one is rejected and the mover moves again */
    HX_ABRUPT,          /* hidden stones; an attempt on one is a collision and the turn is lost */
    HX_CLASSICAL_NOISY, /* classical; the opponent is told that a collision happened */
    HX_CLASSICAL_FLASH, /* classical; the opponent is told where it happened */
    HX_ABRUPT_NOISY,    /* abrupt; the opponent is told that a collision happened */
    HX_ABRUPT_FLASH,    /* abrupt; the opponent is told where it happened */
    HX_VARIANT_COUNT
} hx_variant;

/* What the owner of a stone is told when the opponent attempts it. */
typedef enum { HX_REPORT_NONE, HX_REPORT_NOISY, HX_REPORT_FLASH } hx_report;

/* Canonical lower-case name ("classical-noisy"), or NULL for an out-of-range value. */
const char *hx_variant_name(hx_variant v);

/* Parses a canonical name (case-insensitive). Returns -1 for an unknown name. */
int hx_variant_parse(const char *name);

/* "hex, classical, abrupt, ..." — every name, for help texts and error messages. */
const char *hx_variant_list(void);

/* True for every variant but hex: opponent stones are hidden. */
bool hx_variant_dark(hx_variant v);

/* True for the classical family: an attempt on a hidden stone keeps the turn. */
bool hx_variant_keeps_turn(hx_variant v);

/* What the stone's owner learns about an attempt on it. */
hx_report hx_variant_report(hx_variant v);

#endif
