/* arena/cli/cmd_serve.c — `arena serve`: its options, then the server (arena/server) until SIGINT or SIGTERM
 * (docs/serve.md). */
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <sys/prctl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "json.h"
#include "accounts.h"
#include "ladder_db.h"
#include "server.h"
#include "store.h"
#include "web.h"

static const char serve_help[] =
    "usage: arena serve [--db PATH] [--listen HOST:PORT] [--logs DIR] [--bootstrap N]\n"
    "                   [--max-connections N] [--per-ip N] [--timeout S] [--header-s S] [--reserve N]\n"
    "                   [--request-ms MS] [--idle S] [--stream-s S] [--streams-per-ip N]\n"
    "                   [--trusted-proxy ADDR[,ADDR...]] [--ladder LADDER.ini [--no-worker]]\n\n"
    "An HTTP server over the results database, opened read-only (it never writes to it, and sees a league\n"
    "another process is playing into it). Pages, each also as JSON (add .json, or send Accept:\n"
    "application/json):\n"
    "  /                  the morning summary of the newest night, and the leagues running now (live)\n"
    "  /league/ID         a league's page (its nightly page, live progress, newest games)\n"
    "  /agent/ID          an agent: ratings history, results by opponent, forfeits with its logs\n"
    "  /pairing/A/B       two agents: head-to-head, game pairs (pentanomial), LOS\n"
    "  /game/ID[?ply=N]   the Dark Hex game viewer: the true board and both players' views, attempt by attempt\n"
    "  /events            the running leagues as Server-Sent Events (JSON)\n"
    "  /logs/NAME         the end of an agent's log (from --logs)\n\n"
    "  --db PATH          results database (default results/arena.db)\n"
    "  --listen H:P       IPv4 address and port (default 127.0.0.1:8080, this machine only; 0.0.0.0:PORT\n"
    "                     listens on every address; port 0: any free port, printed)\n"
    "  --logs DIR         the agents' logs (default results/logs, as 'arena league')\n"
    "  --bootstrap N      resamples for the intervals and LOS of league pages (default 200)\n"
    "  --max-connections N  open connections at once (default 512)\n"
    "  --per-ip N         open connections from one address (default 64; a trusted proxy's are not counted)\n"
    "  --timeout S        an idle connection is closed after S seconds (default 15)\n"
    "  --header-s S       a request's headers must be in S seconds after its connection opened (or its previous\n"
    "                     reply), and its body then arrive at 8 KiB/s at least; else it is closed (default 10)\n"
    "  --reserve N        connection slots that live feeds and slow clients never hold: while fewer are free,\n"
    "                     headers are awaited one second at most (default 64)\n"
    "  --request-ms MS    the database work of one page is cut off after MS ms: 503 (default 10000)\n"
    "  --idle S           a league with games left whose coordinator is gone (its lock free) is shown as\n"
    "                     stopped while its newest game is younger than S seconds (default 600); one whose\n"
    "                     coordinator holds its lock is running, however old its newest game\n"
    "  --stream-s S       a live feed ends after S seconds, and the browser reconnects (default 300)\n"
    "  --streams-per-ip N live feeds open from one client address (default 8)\n"
    "  --trusted-proxy A  the addresses (IPv4 or IPv6, comma-separated) of reverse proxies in front of the server:\n"
    "                     a request from one of them is counted as the client its X-Forwarded-For names (per-address\n"
    "                     limits, the ladder's sign-ups); every other X-Forwarded-For is ignored (default: none)\n"
    "  --ladder FILE      also the open ladder of LADDER.ini under /ladder (docs/ladder.md): accounts, submissions,\n"
    "                     the ladder, bots, the queue; its db, listen and logs unless given here; starts its worker\n"
    "                     ('arena ladder work FILE') and stops it with the server\n"
    "  --no-worker        with --ladder: start no worker (one runs elsewhere, e.g. under systemd)\n\n"
    "  --format F         text (default) or json: how the line printed once listening is written\n"
    "  --json             --format json: {\"url\": \"http://HOST:PORT/\", \"db\": DB, \"read_only\": true,\n"
    "                     \"ladder\": URL or null}\n\n"
    "Prints 'arena serve: http://HOST:PORT/ (DB, read-only)' once listening; stops on SIGINT or SIGTERM.\n"
    "Exit status: 0 stopped, 1 failure (cannot listen), 2 bad input (options, database).\n";

static cli_format format = CLI_TEXT;

static struct {
    const char *path;              /* --ladder */
    bool no_worker, db, listen, logs, trusted; /* --no-worker; which of --db, --listen, --logs, --trusted-proxy were
                                                * given */
} ladder;

static void parse(ws_config *c, int argc, char **argv)
{
    enum { O_DB = 0x300, O_LISTEN, O_LOGS, O_BOOT, O_MAXC, O_PERIP, O_TIMEOUT, O_REQMS, O_IDLE, O_STREAM, O_HELP,
           O_LADDER, O_NOWORKER, O_FORMAT, O_JSON, O_HEADER, O_RESERVE, O_STREAMIP, O_TRUSTED };
    static const struct option options[] = {
        { "db", required_argument, 0, O_DB },           { "listen", required_argument, 0, O_LISTEN },
        { "logs", required_argument, 0, O_LOGS },       { "bootstrap", required_argument, 0, O_BOOT },
        { "max-connections", required_argument, 0, O_MAXC }, { "per-ip", required_argument, 0, O_PERIP },
        { "timeout", required_argument, 0, O_TIMEOUT }, { "request-ms", required_argument, 0, O_REQMS },
        { "idle", required_argument, 0, O_IDLE },       { "stream-s", required_argument, 0, O_STREAM },
        { "help", no_argument, 0, O_HELP },
        { "header-s", required_argument, 0, O_HEADER }, { "reserve", required_argument, 0, O_RESERVE },
        { "streams-per-ip", required_argument, 0, O_STREAMIP }, { "trusted-proxy", required_argument, 0, O_TRUSTED },
        { "ladder", required_argument, 0, O_LADDER },  { "no-worker", no_argument, 0, O_NOWORKER },
        { "format", required_argument, 0, O_FORMAT },  { "json", no_argument, 0, O_JSON },
        { 0, 0, 0, 0 },
    };
    char err[300];
    for (int o; (o = cli_getopt("serve", argc, argv, options)) != -1;) {
        switch (o) {
        case O_DB: c->db = optarg; ladder.db = true; break;
        case O_LADDER: ladder.path = optarg; break;
        case O_NOWORKER: ladder.no_worker = true; break;
        case O_FORMAT: format = cli_format_parse("serve", optarg); break;
        case O_JSON: format = CLI_JSON; break;
        case O_LISTEN:
            if (ws_parse_listen(c, optarg, err, sizeof err) != 0)
                cli_usage_error("serve", "%s", err);
            ladder.listen = true;
            break;
        case O_LOGS: c->logs = optarg; ladder.logs = true; break;
        case O_BOOT: c->bootstrap = (int)cli_count("serve", "--bootstrap", optarg, 0, 100000); break;
        case O_MAXC: c->max_connections = (int)cli_count("serve", "--max-connections", optarg, 1, 10000); break;
        case O_PERIP: c->per_ip = (int)cli_count("serve", "--per-ip", optarg, 1, 10000); break;
        case O_TIMEOUT: c->timeout_s = (int)cli_count("serve", "--timeout", optarg, 1, 3600); break;
        case O_REQMS: c->request_ms = (long)cli_count("serve", "--request-ms", optarg, 10, 600000); break;
        case O_IDLE: c->idle_s = (long)cli_count("serve", "--idle", optarg, 1, 86400 * 30); break;
        case O_STREAM: c->stream_s = (int)cli_count("serve", "--stream-s", optarg, 1, 86400); break;
        case O_HEADER: c->header_s = (int)cli_count("serve", "--header-s", optarg, 1, 3600); break;
        case O_RESERVE: c->reserve = (int)cli_count("serve", "--reserve", optarg, 0, 10000); break;
        case O_STREAMIP: c->stream_per_ip = (int)cli_count("serve", "--streams-per-ip", optarg, 0, 10000); break;
        case O_TRUSTED:
            if (ws_parse_trusted(c, optarg, err, sizeof err) != 0)
                cli_usage_error("serve", "--trusted-proxy: %s", err);
            ladder.trusted = true;
            break;
        case O_HELP: fputs(serve_help, stdout); exit(CLI_OK);
        default: cli_usage_error("serve", "option '%s' does not apply to 'arena serve' (see --help)", argv[optind - 1]);
        }
    }
    if (optind < argc)
        cli_usage_error("serve", "unexpected argument '%s' (see 'arena serve --help')", argv[optind]);
    if (c->reserve >= c->max_connections)
        cli_usage_error("serve", "--reserve %d: must be below --max-connections (%d)", c->reserve, c->max_connections);
}

/* --ladder: LADDER.ini read, its databases made when new (the results database is then empty but this arena's),
 * its settings taken where the command line gave none, and the extension set. */
static void ladder_setup(ws_config *c, ld_web *w, ws_extension *ext)
{
    char err[1024];
    if (ld_config_load(ladder.path, &w->cfg, err, sizeof err) != 0)
        cli_usage_error("serve", "%s", err);
    const ld_config *l = &w->cfg;
    for (int i = 0; i < l->n_warnings; i++)
        fprintf(stderr, "arena serve: warning: %s\n", l->warnings[i]);
    if (ld_config_start(l, err, sizeof err) != 0)
        cli_usage_error("serve", "%s", err);
    if (!ladder.db)
        c->db = l->db;
    if (!ladder.listen) {
        snprintf(c->host, sizeof c->host, "%s", l->listen_host);
        c->port = l->listen_port;
    }
    if (!ladder.logs)
        c->logs = l->logs;
    if (!ladder.trusted && l->trusted_proxies[0] && ws_parse_trusted(c, l->trusted_proxies, err, sizeof err) != 0)
        cli_usage_error("serve", "%s: [ladder] trusted_proxies: %s", ladder.path, err);
    bool bad;
    store_db *s = store_open(c->db, &bad, err, sizeof err);
    if (!s)
        cli_usage_error("serve", "%s", err);
    store_close(s);
    ldb *d = ldb_open(l->state, err, sizeof err);
    if (!d)
        cli_usage_error("serve", "%s", err);
    if (ld_admins_from_config(d, l, (int64_t)time(NULL), err, sizeof err) != 0) {
        ldb_close(d);
        cli_fail("serve", "%s", err);
    }
    ldb_close(d);
    w->secure_cookie = l->secure_cookie;
    *ext = ld_web_extension(w);
    c->ext = ext;
}

/* The ladder's worker, `arena ladder work FILE`, as a child with the default signal mask that ends with this process
 * however it ends (SIGTERM as its parent-death signal: it winds its league down, its games kept). */
static pid_t start_worker(void)
{
    pid_t parent = getpid(), pid = fork();
    if (pid == 0) {
        sigset_t none;
        sigemptyset(&none);
        pthread_sigmask(SIG_SETMASK, &none, NULL);
        if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent) /* gone already */
            _exit(1);
        execl("/proc/self/exe", "arena", "ladder", "work", ladder.path, (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* The line (or JSON object) that says the server is listening, and where. */
static void print_listening(const ws_config *c, int port)
{
    char url[300];
    snprintf(url, sizeof url, "http://%s:%d/", c->host, port);
    if (format == CLI_JSON) {
        printf("{\"url\": ");
        json_string(stdout, url);
        printf(", \"db\": ");
        json_string(stdout, c->db);
        printf(", \"read_only\": true, \"ladder\": ");
        if (ladder.path) {
            char at[320];
            snprintf(at, sizeof at, "%sladder", url);
            json_string(stdout, at);
        } else {
            printf("null");
        }
        printf("}\n");
    } else {
        printf("arena serve: %s (%s, read-only)\n", url, c->db);
        if (ladder.path)
            printf("arena serve: the ladder of %s at %sladder\n", ladder.path, url);
    }
    fflush(stdout);
}

int cmd_serve(int argc, char **argv)
{
    ws_config c;
    ws_defaults(&c);
    c.version = ARENA_VERSION;
    parse(&c, argc, argv);
    static ld_web w;
    static ws_extension ext;
    if (ladder.path)
        ladder_setup(&c, &w, &ext);
    /* every thread of the server inherits the mask: only sigwait below sees SIGINT and SIGTERM */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);
    char err[900];
    ws_server *sv = ws_start(&c, err, sizeof err);
    if (!sv) {
        if (strstr(err, "cannot listen"))
            cli_fail("serve", "%s", err);
        cli_usage_error("serve", "%s", err);
    }
    print_listening(&c, ws_port(sv));
    if (strcmp(c.host, "127.0.0.1") != 0)
        fprintf(stderr, "arena serve: warning: listening on %s, not on loopback: every page%s is open to whoever "
                "reaches this machine's port %d%s\n", c.host, ladder.path ? " and the ladder's forms" : "", ws_port(sv),
                strcmp(c.host, "0.0.0.0") == 0 ? " on any of its addresses" : "");
    pid_t worker = ladder.path && !ladder.no_worker ? start_worker() : 0;
    int sig = 0;
    sigwait(&stop, &sig);
    if (worker > 0) {
        kill(worker, SIGTERM); /* it winds a league down with its games kept */
        waitpid(worker, NULL, 0);
    }
    ws_stop(sv);
    return CLI_OK;
}
