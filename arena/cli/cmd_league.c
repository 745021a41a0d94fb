/* arena/cli/cmd_league.c — `arena league CONFIG`: the options of a league session (coordinator/session.h), which
 * writes the league's schedule to the database and plays the games still missing, so an interrupted league resumes
 * where it stopped (docs/leagues.md); and its summary, in text or JSON; with --plan, what it would play and an
 * estimate of how long, without playing. */
#include <math.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "forfeits.h"
#include "json.h"
#include "session.h"
#include "store.h"

static const char help[] =
    "usage: arena league CONFIG [--db PATH] [--seed N|date] [--date YYYY-MM-DD] [--shard K/N] [--secret FILE]\n"
    "                    [--resume | --new | --new-if-changed] [--logs DIR] [--progress N] [--quiet] [--debug]\n"
    "                    [--json | --format text|json]\n"
    "       arena league CONFIG --plan [--db PATH] [--seed N|date] [--date D] [--shard K/N] [--new] [--json]\n\n"
    "Plays a league described by an INI file (docs/leagues.md): every pairing of its agents (or the\n"
    "challenger against each, in a gauntlet) in every listed variant and board, the configured number of\n"
    "games each, half with each colour. The whole schedule is written to the database first; then the\n"
    "games not yet played are played. Running the same command again after an interruption (Ctrl-C,\n"
    "kill -9, power loss) plays only what is missing. Each pairing plays game pairs: two games from one\n"
    "opening with colours reversed (openings = random|none|FILE). In mode = sprt each pairing stops as soon\n"
    "as its sequential test is decided; in mode = knockout each round is scheduled once the one before it\n"
    "is decided (the summary shows the brackets).\n\n"
    "  --db PATH      results database (default results/arena.db)\n"
    "  --seed N|date  the league's seed (game seeds and random openings), instead of the config's `seed`;\n"
    "                 date: the night's date as YYYYMMDD (--date's, else today's in UTC), so a nightly league is\n"
    "                 new evidence each night and a rerun night replays its own games\n"
    "  --date D       the night this league belongs to (YYYY-MM-DD): reports and the rating history show\n"
    "                 it under that date (default: the day it was created); a resumed league keeps its first\n"
    "  --shard K/N    play only shard K of N of the schedule (the rows at positions K-1, K-1+N, ...); needs\n"
    "                 --secret: run one coordinator per shard, each into its own database, then 'arena merge' them;\n"
    "                 rerunning a shard plays only what it lacks (docs/distributed.md)\n"
    "  --secret FILE  the league's secret for the players' seeds (32 hex digits) instead of a drawn one: give\n"
    "                 every shard the same, so that together they play the games one coordinator would\n"
    "  --resume       only continue an unfinished league of this name and config (error when none)\n"
    "  --new          start a new league even when an unfinished one exists\n"
    "                 (default: continue an unfinished one, else start a new one)\n"
    "  --new-if-changed  continue an unfinished league only if its agents, asked again, still play all they\n"
    "                 were scheduled for; else start a new one and say so (default: refuse, exit 2, naming --new)\n"
    "  --logs DIR     bots' output (default results/logs)\n"
    "  --progress N   when stderr is not a terminal, a progress line every N games (default 50; 0: none)\n"
    "  --quiet        no progress at all\n"
    "  --debug        every message to and from a bot also in its log, with the time (\"debug -> ...\" sent,\n"
    "                 \"debug <- ...\" received)\n"
    "  --plan         play nothing, write nothing: print the games the command would play (a new league's, or\n"
    "                 what an unfinished one has left) and an estimate of the time: games x the mean time of a\n"
    "                 game of the newest league of this name in the database / concurrency (none without such a\n"
    "                 league); no bot is started (an agent without its own variants and boards counts as playing\n"
    "                 the league's: the count is then at most, unless a league of the same config recorded what\n"
    "                 they announced, which is used). JSON: {\"plan\":true,\"name\",\"league\" (0: new),\n"
    "                 \"games\",\"at_most\",\"plays_league\",\"concurrency\",\"per_game_s\",\"from_league\",\"from_games\",\"estimate_s\"}\n"
    "  --max-forfeit-rate R  exit with status 4 when an agent forfeited more than this share (0 to 1) of the\n"
    "                 games it played in this run (the league itself is complete; its games are kept)\n"
    "  --json         a JSON summary: {\"league\",\"name\",\"resumed\",\"seed\",\"openings\",\"scheduled\",\"played\",\n"
    "                 \"pending\",\"skipped\",\"forfeits\":{...},\"forfeits_by_agent\":[{\"name\",\"games\",\"forfeits\",\n"
    "                 \"reasons\"}],\"unsandboxed\":[the agents with sandbox = off],\n"
    "                 \"distinct\",\"repeating_pairings\",\"pairings\":[{\"variant\",\"board\",\"a\",\"b\",\"games\",\n"
    "                 \"a_wins\",\"b_wins\",\"distinct\",\"pairs\",\"pentanomial\":[5 counts],\"score\",\"elo\",\n"
    "                 \"elo_lower\",\"elo_upper\",\"los\",\"sprt\":{...}|null}],(knockout: \"knockout\":[brackets],)\n"
    "                 \"seconds\",\"db\"}; in text,\n"
    "                 agents without a sandbox are named on a line 'sandbox off (trusted bots only): NAME, NAME'\n"
    "                 and pairings that repeat games get a warning\n\n"
    "One league coordinator at a time per database: a second `arena league` on a database in use exits\n"
    "with status 3 without touching it (other commands, `arena match` included, may use it meanwhile).\n\n"
    "Exit status: 0 the league is complete, 1 it could not run (database error), 2 bad input (the config:\n"
    "file, line and key are named; an agent that speaks protocol 1 in a league from openings without\n"
    "openings_compat = replay, refused before the first game: docs/protocol.md#changes), 3 the database is in use by another league, 4 complete, but an agent\n"
    "forfeited more than --max-forfeit-rate of its games, 128+signal when interrupted (games already\n"
    "played are kept).\n";

typedef struct {
    const char *seed;
    long every;
    bool quiet;
    bool plan;                     /* --plan */
    double max_forfeits;           /* --max-forfeit-rate; -1: none */
    cli_format fmt;
    uint8_t key[SEEDS_KEY_BYTES];
} league_cli;

/* The options into o (and the rest into l); the config's path is the one argument. */
static void parse_options(int argc, char **argv, ss_league_opts *o, league_cli *l)
{
    enum { O_RESUME = CLI_O_OWN, O_NEW, O_RENEW, O_LOGS, O_PROGRESS, O_QUIET, O_SEED, O_DATE, O_SHARD, O_SECRET,
           O_FORFEITS, O_DEBUG, O_PLAN };
    static const struct option options[] = {
        CLI_DB_OPTIONS,
        { "resume", no_argument, 0, O_RESUME },           { "new", no_argument, 0, O_NEW },
        { "logs", required_argument, 0, O_LOGS },         { "progress", required_argument, 0, O_PROGRESS },
        { "quiet", no_argument, 0, O_QUIET },             { "seed", required_argument, 0, O_SEED },
        { "date", required_argument, 0, O_DATE },         { "shard", required_argument, 0, O_SHARD },
        { "secret", required_argument, 0, O_SECRET },     { "max-forfeit-rate", required_argument, 0, O_FORFEITS },
        { "debug", no_argument, 0, O_DEBUG },             { "new-if-changed", no_argument, 0, O_RENEW },
        { "plan", no_argument, 0, O_PLAN },
        { 0, 0, 0, 0 },
    };
    int c;
    while ((c = cli_getopt("league", argc, argv, options)) != -1) {
        switch (c) {
        case CLI_O_DB: o->db = optarg; break;
        case O_RESUME: o->resume = true; break;
        case O_NEW: o->fresh = true; break;
        case O_RENEW: o->renew = true; break;
        case O_LOGS: o->logs = optarg; break;
        case O_PROGRESS: l->every = (long)cli_count("league", "--progress", optarg, 0, 100000000); break;
        case O_QUIET: l->quiet = true; break;
        case O_SEED:
            if (strcmp(optarg, "date") != 0)
                cli_count("league", "--seed", optarg, 0, INT64_MAX);
            o->seed = optarg;
            break;
        case O_DATE: o->night = cli_date("league", "--date", optarg); break;
        case O_SHARD: {
            char tail;
            if (sscanf(optarg, "%d/%d%c", &o->shard, &o->shards, &tail) != 2 || o->shards < 1 || o->shards > 100000 ||
                o->shard < 1 || o->shard > o->shards)
                cli_usage_error("league", "--shard '%s': expected K/N with 1 <= K <= N (e.g. 3/8)", optarg);
            break;
        }
        case O_SECRET: o->secret_name = optarg; break;
        case O_FORFEITS: l->max_forfeits = cli_forfeit_rate("league", optarg); break;
        case O_DEBUG: o->debug = true; break;
        case O_PLAN: l->plan = true; break;
        case CLI_O_JSON: l->fmt = CLI_JSON; break;
        case CLI_O_FORMAT: l->fmt = cli_format_parse("league", optarg); break;
        case CLI_O_HELP: fputs(help, stdout); exit(CLI_OK);
        }
    }
    if (argc - optind != 1)
        cli_usage_error("league", "expected one config file (see 'arena league --help')");
    if (o->resume + o->fresh + o->renew > 1)
        cli_usage_error("league", "--resume, --new and --new-if-changed exclude each other");
    if (o->shards > 0 && !o->secret_name)
        cli_usage_error("league", "--shard %d/%d needs --secret FILE: every shard must play with the league's one "
                        "secret (make one: od -An -N16 -tx1 /dev/urandom | tr -d ' \\n' > FILE)", o->shard, o->shards);
    o->config = argv[optind];
}

/* A duration as text: "40 s", "14 min", "2.5 h". */
static void duration(double s, char *out, size_t n)
{
    if (s < 90)
        snprintf(out, n, "%.0f s", s);
    else if (s < 5400)
        snprintf(out, n, "%.0f min", s / 60);
    else
        snprintf(out, n, "%.1f h", s / 3600);
}

/* --plan: what the league would play and the estimate, in text or JSON. */
static int print_plan(const ss_league_opts *o, const league_cli *l)
{
    ss_plan p;
    char err[2048];
    int rc = ss_plan_league(o, &p, err, sizeof err);
    if (rc == SS_USAGE)
        cli_usage_error("league", "%s", err);
    if (rc != SS_OK) {
        fprintf(stderr, "arena league: %s\n", err);
        return rc;
    }
    bool known = isfinite(p.estimate_s);
    if (l->fmt == CLI_JSON) {
        printf("{\"plan\":true,\"name\":");
        json_string(stdout, p.name);
        printf(",\"league\":%lld,\"games\":%ld,\"at_most\":%s,\"plays_league\":%lld,\"concurrency\":%d,\"per_game_s\":",
               (long long)p.league, p.games, p.at_most ? "true" : "false", (long long)p.plays_league, p.concurrency);
        known ? printf("%.6g", p.pace_s) : printf("null");
        printf(",\"from_league\":%lld,\"from_games\":%ld,\"estimate_s\":", (long long)p.pace_league, p.pace_games);
        known ? printf("%.6g", p.estimate_s) : printf("null");
        printf("}\n");
        return CLI_OK;
    }
    char took[32];
    printf("league '%s': %s%ld games to play (%s), %d at a time\n", p.name, p.at_most ? "at most " : "", p.games,
           p.league > 0 ? "resuming an unfinished league" : "a new league", p.concurrency);
    if (p.league > 0)
        printf("  resumes league %lld: %ld of its %d games left\n", (long long)p.league, p.games, p.scheduled);
    else if (p.plays_league > 0)
        printf("  counted with the variants and boards the agents announced to league %lld (the same config)\n",
               (long long)p.plays_league);
    if (known) {
        duration(p.estimate_s, took, sizeof took);
        printf("estimated duration: %s%s (an estimate: %ld games x %.3f s, the mean time of a game of league %lld of "
               "the same name (%ld games), / %d at a time; other bots or a busier machine change it)\n",
               p.at_most ? "up to " : "", took, p.games, p.pace_s, (long long)p.pace_league, p.pace_games,
               p.concurrency);
    } else
        printf("estimated duration: unknown (no league named '%s' in %s has games to measure a game's time by)\n",
               p.name, o->db);
    return CLI_OK;
}

static void print_json(ss_session *s, const ss_summary *m)
{
    printf("{\"league\":%lld,\"name\":", (long long)m->id);
    json_string(stdout, m->name);
    printf(",\"resumed\":%s,\"seed\":%llu,\"openings\":", m->resumed ? "true" : "false", (unsigned long long)m->seed);
    json_string(stdout, m->openings);
    printf(",\"scheduled\":%d,\"played\":%ld,\"pending\":%d,\"skipped\":%ld,\"forfeits\":{", m->scheduled, m->played,
           m->pending, m->skipped);
    for (int r = 1; r < HX_END_COUNT; r++)
        printf("%s\"%s\":%ld", r > 1 ? "," : "", hx_end_name((hx_end_reason)r), m->forfeits[r]);
    putchar('}');
    cli_forfeits_json(m->agents, m->n_agents);
    cli_unsandboxed_json(m->unsandboxed, m->n_unsandboxed);
    char err[1024];
    if (ss_write_pairings(s, stdout, true, err, sizeof err) != 0)
        fprintf(stderr, "arena league: %s\n", err);
    printf(",\"seconds\":%.3f,\"db\":", m->seconds);
    json_string(stdout, m->db);
    printf("}\n");
}

static void print_text(ss_session *s, const ss_summary *m)
{
    printf("league %lld '%s': %ld of %d games played now in %.1f s, %d pending, %ld forfeit%s\n", (long long)m->id,
           m->name, m->played, m->scheduled, m->seconds, m->pending, m->forfeit_total, m->forfeit_total == 1 ? "" : "s");
    for (int r = 1; r < HX_END_COUNT; r++)
        if (m->forfeits[r])
            printf("  %s: %ld\n", hx_end_name((hx_end_reason)r), m->forfeits[r]);
    cli_forfeits_text(m->agents, m->n_agents);
    cli_unsandboxed_text(m->unsandboxed, m->n_unsandboxed);
    printf("seed %llu, openings %s\n", (unsigned long long)m->seed, m->openings);
    if (m->skipped > 0)
        printf("%ld games not played: their pairing's SPRT was decided\n", m->skipped);
    fflush(stdout);
    char err[1024];
    if (ss_write_pairings(s, stdout, false, err, sizeof err) != 0)
        fprintf(stderr, "arena league: %s\n", err);
}

int cmd_league(int argc, char **argv)
{
    ss_league_opts o = { .db = STORE_DEFAULT_PATH, .logs = "results/logs" };
    static league_cli l;
    l = (league_cli){ .every = 50, .fmt = CLI_TEXT, .max_forfeits = -1 };
    parse_options(argc, argv, &o, &l);
    char err[2048];
    if (o.secret_name) {
        if (ss_read_secret(o.secret_name, l.key, err, sizeof err) != 0)
            cli_usage_error("league", "--secret %s: %s", o.secret_name, err);
        o.secret = l.key;
    }
    if (l.plan)
        return print_plan(&o, &l);
    ss_session *s;
    int rc = ss_open_league(&o, &s, err, sizeof err);
    if (rc != SS_OK) {
        ss_close(s);
        if (rc == SS_USAGE)
            cli_usage_error("league", "%s", err);
        if (rc > SS_BUSY) /* stopped by a signal while agents were asked what they play */
            return rc;
        fprintf(stderr, "arena league: %s\n", err);
        return rc;
    }
    const ss_summary *m = ss_summary_of(s);
    if (l.fmt == CLI_TEXT && !l.quiet)
        fprintf(stderr, "league %lld '%s': %d games scheduled, %d to play%s%s\n", (long long)m->id, m->name,
                m->scheduled, m->to_play, m->shards ? " in this shard" : "", m->resumed ? " (resuming)" : "");
    ss_callbacks cb = { .every = l.every, .quiet = l.quiet };
    rn_status st = ss_run(s, &cb, err, sizeof err);
    if (st == RN_REFUSED) { /* an agent refused at its hello (protocol 1 for openings): bad input */
        ss_close(s);
        cli_usage_error("league", "%s", err);
    }
    m = ss_summary_of(s);
    if (l.fmt == CLI_JSON)
        print_json(s, m);
    else
        print_text(s, m);
    int pending = m->pending, sig = m->stop_signal;
    bool over = cli_forfeits_over("league", m->agents, m->n_agents, l.max_forfeits);
    ss_close(s);
    if (st == RN_FAILED) {
        fprintf(stderr, "arena league: %s\n", err);
        return CLI_FAILED;
    }
    if (st == RN_STOPPED) {
        fprintf(stderr, "arena league: interrupted with %d games to play; run the same command to play them\n",
                pending);
        return 128 + sig;
    }
    return over ? CLI_FORFEITS : CLI_OK;
}
