/* arena/coordinator/timecontrol.c — time controls (MOVES/SECONDS+INC) parsed and written, and one player's game
 * clock (contract in timecontrol.h). */
#include "timecontrol.h"

#include <stdio.h>
#include <string.h>

/* Decimal seconds in [s, end) with at most three decimals, as ms, at most TC_MAX_SECONDS s. */
static bool seconds_ms(const char *s, const char *end, uint32_t *ms)
{
    uint64_t whole = 0, frac = 0;
    int digits = 0, decimals = -1;
    for (const char *p = s; p < end; p++) {
        if (*p == '.' && decimals < 0 && digits > 0) {
            decimals = 0;
        } else if (*p >= '0' && *p <= '9') {
            if (decimals < 0) {
                whole = whole * 10 + (uint64_t)(*p - '0');
                if (whole > TC_MAX_SECONDS)
                    return false;
                digits++;
            } else if (++decimals <= 3) {
                frac = frac * 10 + (uint64_t)(*p - '0');
            } else {
                return false;
            }
        } else {
            return false;
        }
    }
    if (digits == 0 || decimals == 0)
        return false;
    for (int d = decimals < 0 ? 0 : decimals; d < 3; d++)
        frac *= 10;
    uint64_t v = whole * 1000 + frac;
    if (v > (uint64_t)TC_MAX_SECONDS * 1000)
        return false;
    *ms = (uint32_t)v;
    return true;
}

bool tc_parse(const char *text, tc_control *tc, char *why, size_t whylen)
{
    memset(tc, 0, sizeof *tc);
    const char *s = text, *slash = strchr(text, '/'), *plus = strchr(text, '+');
    if (slash) {
        int moves = 0;
        const char *p = text;
        for (; p < slash && *p >= '0' && *p <= '9' && moves <= TC_MAX_MOVES; p++)
            moves = moves * 10 + (*p - '0');
        if (p != slash || p == text || moves < 1 || moves > TC_MAX_MOVES) {
            snprintf(why, whylen, "'%.60s': expected MOVES (1 to %d) before '/'", text, TC_MAX_MOVES);
            return false;
        }
        tc->moves = moves;
        s = slash + 1;
    }
    const char *end = plus ? plus : s + strlen(s);
    if ((plus && plus < s) || !seconds_ms(s, end, &tc->base_ms) || tc->base_ms == 0) {
        snprintf(why, whylen, "'%.60s': expected SECONDS (more than 0, at most %d, at most 3 decimals)%s", text,
                 TC_MAX_SECONDS, slash ? " after '/'" : "; the form is MOVES/SECONDS+INCREMENT, e.g. 40/60+0.5");
        return false;
    }
    if (plus && !seconds_ms(plus + 1, plus + strlen(plus), &tc->inc_ms)) {
        snprintf(why, whylen, "'%.60s': expected INCREMENT in seconds (0 to %d, at most 3 decimals) after '+'", text,
                 TC_MAX_SECONDS);
        return false;
    }
    return true;
}

/* ms as seconds with the decimals it needs ("60", "0.5", "1.25"). */
static int put_seconds(char *out, size_t n, uint32_t ms)
{
    if (ms % 1000 == 0)
        return snprintf(out, n, "%u", ms / 1000);
    char frac[8];
    snprintf(frac, sizeof frac, "%03u", ms % 1000);
    for (int i = 2; i > 0 && frac[i] == '0'; i--)
        frac[i] = '\0';
    return snprintf(out, n, "%u.%s", ms / 1000, frac);
}

char *tc_format(const tc_control *tc, char *out, size_t n)
{
    size_t len = 0;
    out[0] = '\0';
    if (tc->moves > 0)
        len += (size_t)snprintf(out, n, "%d/", tc->moves);
    if (len < n)
        len += (size_t)put_seconds(out + len, n - len, tc->base_ms);
    if (tc->inc_ms > 0 && len + 1 < n) {
        out[len++] = '+';
        put_seconds(out + len, n - len, tc->inc_ms);
    }
    return out;
}

void tc_clock_start(tc_clock *c, const tc_control *tc)
{
    c->tc = *tc;
    c->left_ms = tc->base_ms;
    c->moves = 0;
}

bool tc_clock_charge(tc_clock *c, double ms)
{
    bool within = ms <= (double)c->left_ms;
    double used = ms > 0 ? ms + 0.5 : 0.0; /* rounded to the ms */
    c->left_ms = used >= (double)c->left_ms ? 0 : c->left_ms - (int64_t)used;
    return within;
}

void tc_clock_complete(tc_clock *c)
{
    c->moves++;
    c->left_ms += c->tc.inc_ms;
    if (c->tc.moves > 0 && c->moves % c->tc.moves == 0)
        c->left_ms += c->tc.base_ms;
}

int tc_clock_moves_to_go(const tc_clock *c)
{
    return c->tc.moves > 0 ? c->tc.moves - c->moves % c->tc.moves : 0;
}
