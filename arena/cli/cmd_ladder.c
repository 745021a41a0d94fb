/* arena/cli/cmd_ladder.c — `arena ladder work LADDER.ini`: the ladder's worker on this machine (worker.h): plays the
 * queued jobs one after another, and between submissions the rating rounds (standing.h); stops on SIGINT or SIGTERM
 * (a league being played winds down with its games kept). `arena serve --ladder` starts one (docs/ladder.md).
 * `arena ladder host-agents LADDER.ini`: the NAME=COMMAND arguments of an `arena host` for the ladder (plan.h). */
#include <getopt.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "commands.h"
#include "plan.h"
#include "standing.h"
#include "worker.h"

static const char ladder_help[] =
    "usage: arena ladder work LADDER.ini [--once] [--json | --format text|json]\n"
    "       arena ladder host-agents LADDER.ini\n\n"
    "Plays the ladder's queued jobs (placements, SPRT tests, rating rounds) on this machine, each a league of\n"
    "sandboxed bots written to the results database (LADDER.ini runner: local, its bots here; host, its bots on\n"
    "'arena host' machines; slurm, a job array), and records their outcome in the ladder's database. With nothing\n"
    "queued it schedules a rating round where ratings are least certain (LADDER.ini rating_rounds), else\n"
    "waits a second and looks again.\n"
    "  --once    play what is queued now, then exit\n"
    "  --json    at the end, {\"jobs\":N} (jobs taken) on stdout; text: \"N jobs\"\n\n"
    "host-agents prints, one a line, the NAME=COMMAND arguments an 'arena host' needs to run the ladder's bots\n"
    "with runner = host: sID=STORE/SHA-256/PROGRAM ARGS for each version on the ladder, queued or running.\n\n"
    "Exit status: 0 stopped (or done with --once), 1 failure (the ladder's database), 2 bad input.\n";

static volatile sig_atomic_t stopped;

static void on_stop(int sig)
{
    stopped = sig;
}

/* The worker's own handlers: each league installs the session's while it plays (session.h). */
static void handle_stop(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

/* LADDER.ini read into *c and the ladder's database opened; exits on failure. */
static ldb *open_ladder(const char *path, ld_config *c)
{
    char err[1024];
    if (ld_config_load(path, c, err, sizeof err) != 0)
        cli_usage_error("ladder", "%s", err);
    ldb *d = ldb_open(c->state, err, sizeof err);
    if (!d)
        cli_fail("ladder", "%s", err);
    return d;
}

static int work(const char *path, bool once, cli_format fmt)
{
    ld_config c;
    char err[1024];
    ldb *d = open_ladder(path, &c);
    int left = ldb_jobs_requeue_running(d); /* what a worker before this one left running */
    fprintf(stderr, "arena ladder: working for %s (runner %s)%s\n", path, ld_runner_name(c.runner),
            left > 0 ? ", jobs left running by a worker before requeued" : "");
    int status = CLI_OK;
    long jobs = 0;
    while (!stopped) {
        handle_stop();
        int rc = ld_work_one(d, &c, (int64_t)time(NULL), err, sizeof err);
        int64_t who = 0;
        if (rc == 0 && !once && c.rating_rounds)
            rc = ld_schedule_rating(d, &c, (int64_t)time(NULL), &who, err, sizeof err) < 0 ? -1 : 0;
        if (rc < 0) {
            fprintf(stderr, "arena ladder: %s\n", err);
            status = CLI_FAILED;
            break;
        }
        jobs += rc == 1;
        if ((rc == 0 && once) || rc == 2) /* 2: a signal stopped the job's league (the session's handler took it) */
            break;
        if (rc == 0 && !who)
            nanosleep(&(struct timespec){ 1, 0 }, NULL);
    }
    ldb_close(d);
    if (fmt == CLI_JSON)
        printf("{\"jobs\":%ld}\n", jobs);
    else
        printf("%ld jobs\n", jobs);
    return status;
}

static int host_agents(const char *path)
{
    ld_config c;
    char err[1024];
    ldb *d = open_ladder(path, &c);
    int n = ld_host_agents(d, stdout, err, sizeof err);
    ldb_close(d);
    if (n < 0)
        cli_fail("ladder", "%s", err);
    return CLI_OK;
}

int cmd_ladder(int argc, char **argv)
{
    enum { O_ONCE = CLI_O_OWN };
    static const struct option options[] = {
        { "format", required_argument, 0, CLI_O_FORMAT }, { "json", no_argument, 0, CLI_O_JSON },
        { "help", no_argument, 0, CLI_O_HELP },          { "once", no_argument, 0, O_ONCE },
        { 0, 0, 0, 0 },
    };
    bool once = false;
    cli_format fmt = CLI_TEXT;
    for (int c; (c = cli_getopt("ladder", argc, argv, options)) != -1;) {
        switch (c) {
        case O_ONCE: once = true; break;
        case CLI_O_FORMAT: fmt = cli_format_parse("ladder", optarg); break;
        case CLI_O_JSON: fmt = CLI_JSON; break;
        case CLI_O_HELP: fputs(ladder_help, stdout); return CLI_OK;
        }
    }
    if (argc - optind != 2 || (strcmp(argv[optind], "work") != 0 && strcmp(argv[optind], "host-agents") != 0))
        cli_usage_error("ladder", "expected 'arena ladder work LADDER.ini' or 'arena ladder host-agents LADDER.ini' "
                        "(see 'arena ladder --help')");
    if (strcmp(argv[optind], "host-agents") == 0)
        return host_agents(argv[optind + 1]);
    return work(argv[optind + 1], once, fmt);
}
