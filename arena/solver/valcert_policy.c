/* arena/solver/valcert_policy.c — a value certificate's strategies written as a policy file
 * (valcert_policy.h). */
#include "valcert_policy.h"

#include <stdio.h>
#include <string.h>

#include "board.h"
#include "policy.h"
#include "variant.h"

int vc_history_events(const char *history, hx_variant v, int rows, int cols, hx_event *ev, int max)
{
    if (!strcmp(history, "-"))
        return 0;
    char buf[VC_HISTORY_MAX];
    if (!*history || strlen(history) >= sizeof buf)
        return -1;
    strcpy(buf, history);
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (n >= max)
            return -1;
        if (!strcmp(tok, "!")) {
            ev[n++] = (hx_event){ .kind = HX_EV_OPP_HIT, .cell = 0 };
            continue;
        }
        const char *why;
        int cell = hx_cell_parse(tok + 1, rows, cols, &why);
        if (cell < 0)
            return -1;
        hx_event_kind k;
        switch (tok[0]) {
        case '+': k = HX_EV_PLACED; break;
        case 'x': k = hx_variant_keeps_turn(v) ? HX_EV_REJECTED : HX_EV_COLLIDED; break;
        case '!': k = HX_EV_OPP_HIT_AT; break;
        default: return -1;
        }
        ev[n++] = (hx_event){ .kind = k, .cell = cell };
    }
    return n;
}

int vc_state_keyed(const vc_cert *c, uint32_t i, vc_keyed_state *s)
{
    *s = (vc_keyed_state){ .history = "", .n = -1 };
    hx_variant v;
    int rows, cols;
    uint64_t states[2];
    vc_describe(c, &v, &rows, &cols, states);
    int n = vc_state(c, i, &s->player, &s->history, &s->cells, s->probs);
    if (n < 0)
        return -1;
    hx_event ev[HX_MAX_EVENTS];
    int ne = vc_history_events(s->history, v, rows, cols, ev, HX_MAX_EVENTS);
    if (ne < 0)
        return -1;
    s->key = hx_events_hash(ev, ne);
    return s->n = n;
}

int vc_state_keyed_why(const vc_cert *c, uint32_t i, vc_keyed_state *s, char *err, size_t errlen)
{
    int n = vc_state_keyed(c, i, s);
    if (n < 0)
        snprintf(err, errlen, "state %u (%s %s): a malformed history", i + 1, s->player ? "white" : "black",
                 s->history);
    return n;
}

int vc_policy_save(const vc_cert *c, const char *path, char *err, size_t errlen)
{
    hx_variant v;
    int rows, cols;
    uint64_t states[2];
    vc_describe(c, &v, &rows, &cols, states);
    double lower, upper;
    vc_bounds(c, &lower, &upper);
    pf_meta m = { .variant = v, .rows = rows, .cols = cols, .keys = PF_KEYS_PERFECT, .exploitability = (upper - lower) / 2 };
    snprintf(m.algo, sizeof m.algo, "certificate");
    pf_writer *w = pf_writer_new(&m);
    if (!w) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    uint32_t n_states = vc_state_count(c);
    for (uint32_t i = 0; i < n_states; i++) {
        vc_keyed_state s;
        char why[VC_HISTORY_MAX + 64];
        if (vc_state_keyed_why(c, i, &s, why, sizeof why) < 0) {
            snprintf(err, errlen, "%s: %s", path, why);
            pf_writer_free(w);
            return -1;
        }
        if (pf_writer_add(w, s.player, s.key, s.n, s.cells, s.probs) != 0) {
            snprintf(err, errlen, "%s: state %u (%s %s): not added (out of memory)", path, i + 1,
                     s.player ? "white" : "black", s.history);
            pf_writer_free(w);
            return -1;
        }
    }
    int rc = pf_writer_save(w, path, err, errlen);
    pf_writer_free(w);
    return rc;
}
