/* arena/cli/forfeits.c — forfeits by agent in run summaries, and --max-forfeit-rate (forfeits.h). */
#include "forfeits.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "json.h"

/* An agent listed twice (a match of one bot against itself) is one agent of the store: both rows are shown. */
void cli_forfeits_text(const rec_agent *agents, int n)
{
    int shown = 0;
    for (int i = 0; i < n; i++) {
        const rec_agent *a = &agents[i];
        long f = rec_agent_forfeits(a);
        if (f == 0)
            continue;
        printf("%s%s %ld of %ld game%s (", shown++ ? "; " : "forfeits by agent: ", a->name, f, a->games,
               a->games == 1 ? "" : "s");
        for (int r = 1, first = 1; r < HX_END_COUNT; r++)
            if (a->forfeits[r]) {
                printf("%s%s %ld", first ? "" : ", ", hx_end_name((hx_end_reason)r), a->forfeits[r]);
                first = 0;
            }
        putchar(')');
    }
    if (shown)
        putchar('\n');
}

void cli_forfeits_json(const rec_agent *agents, int n)
{
    printf(",\"forfeits_by_agent\":[");
    for (int i = 0, shown = 0; i < n; i++) {
        const rec_agent *a = &agents[i];
        if (a->games == 0)
            continue;
        printf("%s{\"name\":", shown++ ? "," : "");
        json_string(stdout, a->name);
        printf(",\"games\":%ld,\"forfeits\":%ld,\"reasons\":{", a->games, rec_agent_forfeits(a));
        for (int r = 1; r < HX_END_COUNT; r++)
            printf("%s\"%s\":%ld", r > 1 ? "," : "", hx_end_name((hx_end_reason)r), a->forfeits[r]);
        printf("}}");
    }
    putchar(']');
}

double cli_forfeit_rate(const char *cmd, const char *value)
{
    char *end;
    double r = strtod(value, &end);
    if (!*value || *end || !(r >= 0.0 && r <= 1.0))
        cli_usage_error(cmd, "--max-forfeit-rate %s: expected a share of an agent's games from 0 to 1, e.g. 0.5", value);
    return r;
}

bool cli_forfeits_over(const char *cmd, const rec_agent *agents, int n, double rate)
{
    bool over = false;
    for (int i = 0; rate >= 0 && i < n; i++) {
        const rec_agent *a = &agents[i];
        long f = rec_agent_forfeits(a);
        if (a->games == 0 || (double)f <= rate * (double)a->games)
            continue;
        fprintf(stderr, "arena %s: %s forfeited %ld of %ld games (%.0f%%), over --max-forfeit-rate %g\n", cmd, a->name,
                f, a->games, 100.0 * (double)f / (double)a->games, rate);
        over = true;
    }
    return over;
}
