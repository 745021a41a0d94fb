/* arena/coordinator/mode.c — the table of league modes (mode.h): a new mode is its own file with one lm_mode and
 * one line in MODES below. */
#include "mode.h"

#include <stdlib.h>
#include <string.h>

/* Every mode, in the order messages list them. */
#define MODES(X) X(round_robin) X(gauntlet) X(sprt) X(knockout)

#define DECLARE(id) extern const lm_mode lm_##id;
MODES(DECLARE)
#define ENTRY(id) &lm_##id,
static const lm_mode *const modes[] = { MODES(ENTRY) };
#define N_MODES (int)(sizeof modes / sizeof modes[0])

const lm_mode *lm_parse(const char *name)
{
    for (int i = 0; i < N_MODES; i++)
        if (strcmp(modes[i]->name, name) == 0)
            return modes[i];
    return NULL;
}

const lm_mode *lm_default(void)
{
    return modes[0];
}

const char *lm_list(void)
{
    static char list[256];
    if (!list[0]) {
        size_t k = 0;
        for (int i = 0; i < N_MODES; i++)
            k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", i == 0 ? "" : i == N_MODES - 1 ? " or " : ", ",
                                  modes[i]->name);
    }
    return list;
}

int lm_plan_once(const lm_state *s, store_planned **out)
{
    *out = NULL;
    if (s->total > 0)
        return 0;
    int n = lg_plan(s->cfg, s->plays, NULL, NULL);
    if (n == 0)
        return 0;
    if (!(*out = calloc((size_t)n, sizeof **out)))
        return -1;
    return lg_plan(s->cfg, s->plays, s->suites, *out);
}
