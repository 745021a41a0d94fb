/* arena/engine/variant.c — variant names and properties. */
#include "variant.h"

#include <stddef.h>
#include <strings.h>

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

const char *hx_variant_list(void)
{
    return "hex, classical, abrupt, classical-noisy, classical-flash, abrupt-noisy, abrupt-flash";
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
