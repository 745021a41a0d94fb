/* arena/engine/result.c — the names of the end reasons. */
#include "result.h"

const char *const hx_end_names[HX_END_COUNT] = {
    "connected", "timeout", "crash", "illegal", "protocol_error", "disconnected",
};

const char *hx_end_name(hx_end_reason r)
{
    return (unsigned)r < HX_END_COUNT ? hx_end_names[r] : "?";
}
