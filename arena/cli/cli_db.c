/* arena/cli/cli_db.c — opening the results database for the reporting commands, league lookup by id or
 * name, and the filter options they share. */
#include "cli_db.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "json.h"

store_db *cli_open_db(const char *cmd, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        cli_usage_error(cmd, "--db %s: no such database", path);
    fclose(f);
    char err[512];
    bool bad;
    store_db *s = store_open(path, &bad, err, sizeof err);
    if (!s && bad)
        cli_usage_error(cmd, "%s", err);
    if (!s)
        cli_fail(cmd, "%s", err);
    return s;
}

int64_t cli_league_id(const char *cmd, store_db *s, const char *path, const char *text)
{
    int64_t league = store_league_find(s, text);
    if (league < 0)
        cli_fail(cmd, "%s: %s", path, store_error(s));
    if (league == 0)
        cli_usage_error(cmd, "--league %s: no such league in %s", text, path);
    return league;
}

bool cli_filter_option(const char *cmd, int c, const char *arg, cli_filter *f)
{
    switch (c) {
    case CLI_O_VARIANT:
        f->f.variant = cli_variant(cmd, arg);
        f->f.by_variant = true;
        return true;
    case CLI_O_BOARD: cli_board(cmd, arg, &f->f.rows, &f->f.cols); return true;
    case CLI_O_LEAGUE: f->league = arg; return true;
    case CLI_O_RUN: f->f.run = (int64_t)cli_count(cmd, "--run", arg, 1, INT64_MAX); return true;
    case CLI_O_AGENT: f->f.agent = arg; return true;
    case CLI_O_SINCE: f->f.since = arg; return true;
    default: return false;
    }
}

store_db *cli_filter_open(const char *cmd, const char *path, cli_filter *f)
{
    store_db *s = cli_open_db(cmd, path);
    if (f->league)
        f->f.league = cli_league_id(cmd, s, path, f->league);
    return s;
}

void cli_clocks_json(FILE *o, const char *const tc[2], const int64_t ms[2])
{
    if (!tc[0][0] && !tc[1][0])
        return;
    for (int k = 0; k < 2; k++) {
        fputs(k ? ",\"clock_ms\":{" : ",\"time_control\":{", o);
        for (int c = 0; c < 2; c++) {
            fprintf(o, "%s\"%c\":", c ? "," : "", c == HX_BLACK ? 'B' : 'W');
            if (!tc[c][0])
                fputs("null", o);
            else if (k)
                fprintf(o, "%lld", (long long)ms[c]);
            else
                json_string(o, tc[c]);
        }
        fputc('}', o);
    }
}
