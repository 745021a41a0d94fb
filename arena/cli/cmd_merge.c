/* arena/cli/cmd_merge.c — `arena merge OUT.db SHARD.db...`: the databases of a sharded league (`arena league
 * --shard K/N`) merged into one, idempotently (arena/store/merge.h; docs/distributed.md). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "clock.h"
#include "commands.h"
#include "json.h"
#include "merge.h"
#include "store.h"

static const char merge_help[] =
    "usage: arena merge OUT.db SHARD.db... [--format text|json]\n\n"
    "Merges the databases of a league's shards ('arena league CONFIG --shard K/N --secret FILE', one\n"
    "coordinator each) into OUT.db (created when missing): the league once, with its whole schedule, and\n"
    "every game each shard played, with its attempts, players and sitting. Ratings, matrices and reports of\n"
    "OUT.db then read as if one coordinator had played the league. Idempotent: a game already in OUT.db is\n"
    "left as it is, so merging a shard twice, or again after rerunning it, adds only what is new.\n"
    "A shard whose league has the name and seed of one in OUT.db but another config or secret (shards run\n"
    "without the same --secret), or another schedule, is refused, and nothing of it is written.\n\n"
    "  --format F   text (default: a line per shard) or json ({\"out\",\"shards\":[{\"path\",\"leagues\",\n"
    "               \"games\",\"new\",\"present\",\"differ\"}],\"new\",\"seconds\"}); --json is --format json\n\n"
    "Exit status: 0 merged, 1 database error, 2 bad input (a missing or foreign file, a refused shard).\n";

int cmd_merge(int argc, char **argv)
{
    static const struct option options[] = {
        { "format", required_argument, 0, CLI_O_FORMAT },
        { "json", no_argument, 0, CLI_O_JSON },
        { "help", no_argument, 0, CLI_O_HELP },
        { 0, 0, 0, 0 },
    };
    cli_format fmt = CLI_TEXT;
    for (int c; (c = cli_getopt("merge", argc, argv, options)) != -1;) {
        switch (c) {
        case CLI_O_FORMAT: fmt = cli_format_parse("merge", optarg); break;
        case CLI_O_JSON: fmt = CLI_JSON; break;
        case CLI_O_HELP: fputs(merge_help, stdout); return CLI_OK;
        default: cli_usage_error("merge", "option '%s' does not apply to 'arena merge' (see --help)", argv[optind - 1]);
        }
    }
    if (argc - optind < 2)
        cli_usage_error("merge", "expected OUT.db and at least one SHARD.db (see 'arena merge --help')");
    const char *out_path = argv[optind];
    char err[1024];
    bool bad;
    struct stat out_st, sh_st;
    bool out_exists = stat(out_path, &out_st) == 0;
    /* each shard: an arena database (migrated to this schema when older), and not the output itself */
    for (int i = optind + 1; i < argc; i++) {
        if (stat(argv[i], &sh_st) != 0)
            cli_usage_error("merge", "%s: no such database", argv[i]);
        if (out_exists && sh_st.st_dev == out_st.st_dev && sh_st.st_ino == out_st.st_ino)
            cli_usage_error("merge", "%s: is the output database", argv[i]);
        store_db *s = store_open(argv[i], &bad, err, sizeof err);
        if (!s && bad)
            cli_usage_error("merge", "%s", err);
        if (!s)
            cli_fail("merge", "%s", err);
        store_close(s);
    }
    store_db *out = store_open(out_path, &bad, err, sizeof err);
    if (!out && bad)
        cli_usage_error("merge", "%s", err);
    if (!out)
        cli_fail("merge", "%s", err);
    double t0 = clk_now();
    long added = 0;
    if (fmt == CLI_JSON) {
        fputs("{\"out\":", stdout);
        json_string(stdout, out_path);
        fputs(",\"shards\":[", stdout);
    }
    for (int i = optind + 1; i < argc; i++) {
        store_merge_stats st;
        if (store_merge(out, argv[i], &st, &bad, err, sizeof err) != 0) {
            store_close(out);
            if (fmt == CLI_JSON)
                fputs("]}\n", stdout);
            if (bad)
                cli_usage_error("merge", "%s (nothing of it was merged)", err);
            cli_fail("merge", "%s", err);
        }
        added += st.games_new;
        if (fmt == CLI_JSON) {
            fputs(i > optind + 1 ? ",{\"path\":" : "{\"path\":", stdout);
            json_string(stdout, argv[i]);
            printf(",\"leagues\":%ld,\"games\":%ld,\"new\":%ld,\"present\":%ld,\"differ\":%ld}", st.leagues, st.games,
                   st.games_new, st.games_present, st.games_differ);
        } else {
            printf("%s: %ld league%s, %ld games: %ld new, %ld already merged", argv[i], st.leagues,
                   st.leagues == 1 ? "" : "s", st.games, st.games_new, st.games_present);
            if (st.games_differ)
                printf(" (%ld of them differ from this shard's: kept as merged)", st.games_differ);
            putchar('\n');
        }
    }
    store_close(out);
    double seconds = clk_now() - t0;
    if (fmt == CLI_JSON)
        printf("],\"new\":%ld,\"seconds\":%.3f}\n", added, seconds);
    else
        printf("%s: %ld game%s merged in %.2f s\n", out_path, added, added == 1 ? "" : "s", seconds);
    return CLI_OK;
}
