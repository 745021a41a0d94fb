/* arena/engine/variant.c — variant names and properties. */
#include "variant.h"

#include <pthread.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

/* The values stored in policy files and checkpoints (variant.h): a change here breaks every file written. */
_Static_assert(HX_HEX == 0, "HX_HEX is stored as 0");
_Static_assert(HX_CLASSICAL == 1, "HX_CLASSICAL is stored as 1");
_Static_assert(HX_ABRUPT == 2, "HX_ABRUPT is stored as 2");
_Static_assert(HX_CLASSICAL_NOISY == 3, "HX_CLASSICAL_NOISY is stored as 3");
_Static_assert(HX_CLASSICAL_FLASH == 4, "HX_CLASSICAL_FLASH is stored as 4");
_Static_assert(HX_ABRUPT_NOISY == 5, "HX_ABRUPT_NOISY is stored as 5");
_Static_assert(HX_ABRUPT_FLASH == 6, "HX_ABRUPT_FLASH is stored as 6");
_Static_assert(HX_VARIANT_COUNT == 7, "a new variant is appended: pin its value above");

static const char *const names[HX_VARIANT_COUNT] = {
    "hex", "classical", "abrupt", "classical-noisy", "classical-flash", "abrupt-noisy", "abrupt-flash",
};

const char *hx_variant_name(hx_variant v)
{
    return (unsigned)v < HX_VARIANT_COUNT ? names[v] : NULL;
}

int hx_variant_parse(const char *name)
{
    for (int v = 0; v < HX_VARIANT_COUNT; v++)
        if (strcasecmp(name, names[v]) == 0)
            return v;
    return -1;
}

static char list[HX_VARIANT_COUNT * 24];
static pthread_once_t list_once = PTHREAD_ONCE_INIT;

static void build_list(void)
{
    for (int v = 0; v < HX_VARIANT_COUNT; v++) {
        if (v)
            strcat(list, ", ");
        strcat(list, names[v]);
    }
}

const char *hx_variant_list(void)
{
    pthread_once(&list_once, build_list);
    return list;
}

bool hx_variant_dark(hx_variant v)
{
    return v != HX_HEX;
}

bool hx_variant_keeps_turn(hx_variant v)
{
    return v == HX_CLASSICAL || v == HX_CLASSICAL_NOISY || v == HX_CLASSICAL_FLASH;
}

hx_report hx_variant_report(hx_variant v)
{
    switch (v) {
    case HX_CLASSICAL_NOISY:
    case HX_ABRUPT_NOISY:
        return HX_REPORT_NOISY;
    case HX_CLASSICAL_FLASH:
    case HX_ABRUPT_FLASH:
        return HX_REPORT_FLASH;
    default:
        return HX_REPORT_NONE;
    }
}
