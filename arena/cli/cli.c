/* arena/cli/cli.c — shared option parsing and error reporting for the arena subcommands. */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "die.h"
#include "json.h"

void cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    die_vexit(CLI_USAGE, cmd, fmt, ap);
}

void cli_fail(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    die_vexit(CLI_FAILED, cmd, fmt, ap);
}

hx_variant cli_variant(const char *cmd, const char *value)
{
    int v = hx_variant_parse(value);
    if (v < 0)
        cli_usage_error(cmd, "--variant '%s': unknown variant (expected one of: %s)", value, hx_variant_list());
    return (hx_variant)v;
}

void cli_board(const char *cmd, const char *value, int *rows, int *cols)
{
    const char *why;
    if (!hx_board_parse(value, rows, cols, &why))
        cli_usage_error(cmd, "--board '%s': %s", value, why);
}

uint64_t cli_count(const char *cmd, const char *option, const char *value, uint64_t min, uint64_t max)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(value, &end, 10);
    if (value[0] == '-' || value[0] == '\0' || *end != '\0' || errno == ERANGE)
        cli_usage_error(cmd, "%s '%s': expected a whole number", option, value);
    if (v < min || v > max)
        cli_usage_error(cmd, "%s '%s': must be between %llu and %llu", option, value,
                        (unsigned long long)min, (unsigned long long)max);
    return v;
}

cli_format cli_format_parse(const char *cmd, const char *value)
{
    if (strcmp(value, "text") == 0)
        return CLI_TEXT;
    if (strcmp(value, "json") == 0)
        return CLI_JSON;
    cli_usage_error(cmd, "--format '%s': expected text or json", value);
}

void cli_new_game(const char *cmd, hx_game *g, hx_variant v, int rows, int cols, unsigned flags)
{
    int err = hx_new(g, v, rows, cols, flags);
    if (err == HX_ERR_SWAP_RULE)
        cli_usage_error(cmd, "--swap: %s", hx_strerror(err));
    if (err < 0)
        cli_usage_error(cmd, "%s", hx_strerror(err));
}

void cli_play_cells(const char *cmd, hx_game *g, const char *text, int *number, int *ignored)
{
    char buf[256];
    const char *s = text;
    while (*s) {
        size_t n = strcspn(s, ",");
        if (n == 0 || n >= sizeof buf)
            cli_usage_error(cmd, "attempt %d '%.*s': a cell is a column letter and a row number, e.g. a1",
                            *number, (int)(n < 40 ? n : 40), s);
        memcpy(buf, s, n);
        buf[n] = '\0';
        s += n;
        if (*s == ',')
            s++;
        if (hx_over(g)) {
            (*ignored)++;
            continue;
        }
        int cell;
        if (strcmp(buf, "swap") == 0) {
            cell = HX_SWAP;
        } else {
            const char *why;
            cell = hx_cell_parse(buf, hx_rows(g), hx_cols(g), &why);
            if (cell < 0)
                cli_usage_error(cmd, "attempt %d '%s': %s", *number, buf, why);
        }
        int err = hx_check(g, cell);
        if (err < 0)
            cli_usage_error(cmd, "attempt %d '%s' by %s is illegal: %s", *number, buf,
                            cli_player(hx_to_move(g)), hx_strerror(err));
        hx_attempt(g, cell);
        (*number)++;
    }
}

bool cli_game_option(const char *cmd, int c, const char *arg, char **argv, const char *help, cli_game_opts *o)
{
    switch (c) {
    case 'v':
        o->variant = cli_variant(cmd, arg);
        o->have_variant = true;
        return true;
    case 'b':
        cli_board(cmd, arg, &o->rows, &o->cols);
        o->have_board = true;
        return true;
    case 'S':
        o->flags |= HX_SWAP_RULE;
        return true;
    case 'j':
        o->format = CLI_JSON;
        return true;
    case 'f':
        o->format = cli_format_parse(cmd, arg);
        return true;
    case 'h':
        fputs(help, stdout);
        exit(CLI_OK);
    case ':':
        cli_usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
    case '?':
        cli_usage_error(cmd, "unknown option '%s' (see 'arena %s --help')", argv[optind - 1], cmd);
    default:
        return false;
    }
}

void cli_game_require(const char *cmd, const cli_game_opts *o)
{
    if (!o->have_variant)
        cli_usage_error(cmd, "missing --variant (one of: %s)", hx_variant_list());
    if (!o->have_board)
        cli_usage_error(cmd, "missing --board ROWSxCOLS");
}

void cli_view_row(const hx_game *g, int player, int r, char *out)
{
    static const char mark[2][3] = { { '.', 'B', 'W' }, { '.', 'W', 'B' } };
    for (int c = 0; c < hx_cols(g); c++)
        out[c] = mark[player][hx_view(g, player, r * hx_cols(g) + c)];
    out[hx_cols(g)] = '\0';
}

void cli_json_views(const hx_game *g)
{
    char row[HX_MAX_SIDE + 1];
    printf("\"views\":{");
    for (int p = 0; p < 2; p++) {
        printf("%s\"%s\":[", p ? "," : "", cli_player(p));
        for (int r = 0; r < hx_rows(g); r++) {
            cli_view_row(g, p, r, row);
            printf("%s\"%s\"", r ? "," : "", row);
        }
        printf("]");
    }
    printf("}");
}

int cli_getopt(const char *cmd, int argc, char **argv, const struct option *options)
{
    opterr = 0;
    int c = getopt_long(argc, argv, ":", options, NULL);
    if (c == ':')
        cli_usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
    if (c == '?')
        cli_usage_error(cmd, "unknown option '%s' (see 'arena %s --help')", argv[optind - 1], cmd);
    return c;
}

void cli_unsandboxed_text(const char *const *names, int n)
{
    if (n == 0)
        return;
    printf("%s: ", CLI_UNSANDBOXED);
    for (int i = 0; i < n; i++)
        printf("%s%s", i ? ", " : "", names[i]);
    putchar('\n');
}

void cli_unsandboxed_json(const char *const *names, int n)
{
    printf(",\"unsandboxed\":[");
    for (int i = 0; i < n; i++) {
        if (i)
            putchar(',');
        json_string(stdout, names[i]);
    }
    putchar(']');
}

const char *cli_date(const char *cmd, const char *option, const char *value)
{
    int y, m, d;
    char tail;
    bool ok = strlen(value) == 10 && value[4] == '-' && value[7] == '-' &&
              strspn(value, "0123456789-") == 10 && sscanf(value, "%4d-%2d-%2d%c", &y, &m, &d, &tail) == 3;
    if (ok) {
        static const int days[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
        bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        ok = y >= 1970 && m >= 1 && m <= 12 && d >= 1 && d <= days[m - 1] && !(m == 2 && d == 29 && !leap);
    }
    if (!ok)
        cli_usage_error(cmd, "%s '%s': expected a calendar date YYYY-MM-DD", option, value);
    return value;
}
