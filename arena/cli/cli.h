/* arena/cli/cli.h — what the `arena` subcommands share: option parsing for variant, board, counts and
 * output format, and the one-line error that exits with status 2. */
#ifndef ARENA_CLI_CLI_H
#define ARENA_CLI_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>

#include "game.h"

/* The arena's version (arena --version, reports). */
#define ARENA_VERSION "0.1.0"

/* Exit statuses every subcommand uses. */
enum { CLI_OK = 0, CLI_FAILED = 1, CLI_USAGE = 2 };

typedef enum { CLI_TEXT, CLI_JSON } cli_format;

/* Prints "arena CMD: message" on stderr and exits with CLI_USAGE. */
_Noreturn void cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints "arena CMD: message" on stderr and exits with CLI_FAILED (a run-time failure, not bad input). */
_Noreturn void cli_fail(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parsers for option values: each exits through cli_usage_error() naming the option on bad input. */
hx_variant cli_variant(const char *cmd, const char *value);
void cli_board(const char *cmd, const char *value, int *rows, int *cols);
uint64_t cli_count(const char *cmd, const char *option, const char *value, uint64_t min, uint64_t max);
/* A calendar date YYYY-MM-DD (1970 or later, a day that exists): returns value. */
const char *cli_date(const char *cmd, const char *option, const char *value);
cli_format cli_format_parse(const char *cmd, const char *value);

/* Starts a game, turning an hx_new() error into a usage error. */
void cli_new_game(const char *cmd, hx_game *g, hx_variant v, int rows, int cols, unsigned flags);

/* Plays the attempts named in `text` ("a1", "swap", or several separated by commas) on g, each by the
 * player to move. *number counts attempts (for error messages); names after a win are not played but
 * counted in *ignored. Bad or illegal names exit through cli_usage_error(). */
void cli_play_cells(const char *cmd, hx_game *g, const char *text, int *number, int *ignored);

/* Options every game subcommand takes: --variant V, --board RxC, --swap, --json, --format F, --help. */
typedef struct {
    hx_variant variant;
    int rows, cols;
    unsigned flags;
    cli_format format;
    bool have_variant, have_board;
} cli_game_opts;

/* getopt_long entries for the options above; a command's table starts with them and ends with its own. */
#define CLI_GAME_OPTIONS                                                                                  \
    { "variant", required_argument, 0, 'v' }, { "board", required_argument, 0, 'b' },                    \
        { "swap", no_argument, 0, 'S' }, { "json", no_argument, 0, 'j' },                                \
        { "format", required_argument, 0, 'f' }, { "help", no_argument, 0, 'h' }

/* Handles one getopt_long result `c` of the shared options. Returns false when `c` is not one of them;
 * exits through cli_usage_error() for '?' / ':' (unknown option, missing value). `help` is the command's
 * help text, printed on --help (exit 0). */
bool cli_game_option(const char *cmd, int c, const char *arg, char **argv, const char *help, cli_game_opts *o);

/* After parsing: requires --variant and --board. */
void cli_game_require(const char *cmd, const cli_game_opts *o);

/* Row r of `player`'s view as text: '.' unknown, 'B' and 'W' for the stones it knows. out holds
 * cols + 1 bytes. */
void cli_view_row(const hx_game *g, int player, int r, char *out);

/* Writes "views":{"B":[rows],"W":[rows]} for the current position on stdout. */
void cli_json_views(const hx_game *g);

/* Option ids and getopt_long entries shared by the commands that read the database (games, show,
 * league, ratings, matrix, export); a command's own ids start at CLI_O_OWN. The filter options
 * (CLI_O_VARIANT to CLI_O_SINCE) are parsed by cli_filter_option() (cli_db.h). */
enum {
    CLI_O_DB = 0x200, CLI_O_FORMAT, CLI_O_JSON, CLI_O_HELP,
    CLI_O_VARIANT, CLI_O_BOARD, CLI_O_LEAGUE, CLI_O_RUN, CLI_O_AGENT, CLI_O_SINCE,
    CLI_O_OWN
};
#define CLI_DB_OPTIONS                                                                                    \
    { "db", required_argument, 0, CLI_O_DB }, { "format", required_argument, 0, CLI_O_FORMAT },          \
        { "json", no_argument, 0, CLI_O_JSON }, { "help", no_argument, 0, CLI_O_HELP }
#define CLI_FILTER_OPTIONS                                                                                \
    { "variant", required_argument, 0, CLI_O_VARIANT }, { "board", required_argument, 0, CLI_O_BOARD }

/* getopt_long with its own messages off: returns the next option's id, or -1 at the end; a missing value
 * or an unknown option exits through cli_usage_error() naming it. */
int cli_getopt(const char *cmd, int argc, char **argv, const struct option *options);

/* Agents that played without a sandbox (trusted bots, `sandbox = off`) are named in every report, so their
 * results are not taken for those of sandboxed bots: in text, the line CLI_UNSANDBOXED ": NAME, NAME"; in
 * JSON, the key "unsandboxed" with the names as a list. */
#define CLI_UNSANDBOXED "sandbox off (trusted bots only)"

/* Prints the text line on stdout; nothing when n is 0. */
void cli_unsandboxed_text(const char *const *names, int n);

/* Prints ,"unsandboxed":[...] on stdout (the list empty when n is 0), for a JSON object being written. */
void cli_unsandboxed_json(const char *const *names, int n);

/* "B", "W" for players. */
static inline const char *cli_player(int p) { return p == HX_BLACK ? "B" : "W"; }

#endif
