/* arena/cli/cmd_host.c — `arena host`: an agent host on another machine (the loop is the coordinator's host.h).
 * Parses the options and the agents NAME=COMMAND, reads the host's key pair, and prints the start line and,
 * when stopped, how many bots it started and saw exit (docs/distributed.md#bots-on-other-hosts). */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "agent.h"
#include "cli.h"
#include "isotime.h"
#include "commands.h"
#include "curvezmq.h"
#include "host.h"

static const char host_help[] =
    "usage: arena host --connect tcp://HOST:PORT --server-key KEY --key FILE [--logs DIR] [--sandbox on|off]\n"
    "                  NAME=COMMAND...\n\n"
    "Runs bots for a coordinator on another machine. It connects to the coordinator's listen endpoint with\n"
    "CurveZMQ, as the key pair in FILE ('arena keygen FILE'; the coordinator's config names its public key:\n"
    "host = KEY under each [agent NAME] this host runs), pinning the coordinator's public key KEY (the\n"
    "server_key file's .pub). It announces the agents NAME=COMMAND it runs (NAME: the league config's agent\n"
    "section), starts one in its sandbox whenever the coordinator asks, relays the bot's connection as it is,\n"
    "and tells the coordinator when a bot exits. It runs until stopped (Ctrl-C, SIGTERM), reconnecting when\n"
    "the coordinator goes away and comes back; its bots are killed when it stops. On stderr it says, one\n"
    "line each with the time, when the coordinator answers or falls silent, each bot it starts (pid, log)\n"
    "and each that exits (why), and every minute how many bots run and have run.\n\n"
    "  --connect EP      the coordinator's tcp:// endpoint (its [league] listen, with the host name of its\n"
    "                    machine in place of 0.0.0.0)\n"
    "  --server-key KEY  the coordinator's public key (40 characters of Z85)\n"
    "  --server-key-file FILE  the same read from a file: the .pub of the coordinator's key file\n"
    "  --key FILE        this host's key file (public and secret key)\n"
    "  --logs DIR        the bots' output, NAME-N.log (default results/host-logs)\n"
    "  --sandbox on|off  run the bots in their sandbox (default on; off: trusted bots only)\n"
    "  --format F        text (default) or json: what it prints when it stops ({\"started\",\"exited\"});\n"
    "                    --json is --format json\n\n"
    "Exit status: 0 stopped by a signal, 1 failure, 2 bad input.\n";

static hs_agent agents[HS_MAX_AGENTS];
static int n_agents;
static cv_keypair self;
static char server_key[CV_KEY_LEN + 1], endpoint[512], logs[512] = "results/host-logs";

/* What the host does, one line each on stderr with the time (UTC). */
static void event(void *user, const char *line)
{
    (void)user;
    char now[ISO_LEN];
    iso_now(now);
    fprintf(stderr, "[%s] %s\n", now, line);
    fflush(stderr);
}

static void ready(void *user)
{
    (void)user;
    fprintf(stderr, "arena host: %d agent%s for %s as %.12s...\n", n_agents, n_agents == 1 ? "" : "s", endpoint,
            self.public_z85);
}

int cmd_host(int argc, char **argv)
{
    enum { O_CONNECT = CLI_O_OWN, O_SERVER, O_SERVER_FILE, O_KEY, O_LOGS, O_SANDBOX };
    static const struct option options[] = {
        { "connect", required_argument, 0, O_CONNECT }, { "server-key", required_argument, 0, O_SERVER },
        { "key", required_argument, 0, O_KEY },         { "logs", required_argument, 0, O_LOGS },
        { "sandbox", required_argument, 0, O_SANDBOX }, { "format", required_argument, 0, CLI_O_FORMAT },
        { "json", no_argument, 0, CLI_O_JSON },         { "help", no_argument, 0, CLI_O_HELP },
        { "server-key-file", required_argument, 0, O_SERVER_FILE }, { 0, 0, 0, 0 },
    };
    const char *key_file = NULL;
    bool sandbox = true;
    cli_format fmt = CLI_TEXT;
    for (int c; (c = cli_getopt("host", argc, argv, options)) != -1;) {
        switch (c) {
        case O_CONNECT:
            if (strncmp(optarg, "tcp://", 6) != 0 || strlen(optarg) >= sizeof endpoint)
                cli_usage_error("host", "--connect '%s': expected tcp://HOST:PORT", optarg);
            snprintf(endpoint, sizeof endpoint, "%s", optarg);
            break;
        case O_SERVER:
            if (!cv_valid_key(optarg))
                cli_usage_error("host", "--server-key '%s': expected the coordinator's public key (40 characters of "
                                "Z85, from its key file's .pub)", optarg);
            snprintf(server_key, sizeof server_key, "%s", optarg);
            break;
        case O_SERVER_FILE: {
            char why[1024];
            if (cv_read_public(optarg, server_key, why, sizeof why) != 0)
                cli_usage_error("host", "--server-key-file %s", why);
            break;
        }
        case O_KEY: key_file = optarg; break;
        case O_LOGS: snprintf(logs, sizeof logs, "%s", optarg); break;
        case O_SANDBOX:
            if (strcmp(optarg, "on") != 0 && strcmp(optarg, "off") != 0)
                cli_usage_error("host", "--sandbox '%s': expected on or off", optarg);
            sandbox = strcmp(optarg, "on") == 0;
            break;
        case CLI_O_FORMAT: fmt = cli_format_parse("host", optarg); break;
        case CLI_O_JSON: fmt = CLI_JSON; break;
        case CLI_O_HELP: fputs(host_help, stdout); return CLI_OK;
        default: cli_usage_error("host", "option '%s' does not apply to 'arena host' (see --help)", argv[optind - 1]);
        }
    }
    if (!endpoint[0] || !server_key[0] || !key_file)
        cli_usage_error("host", "--connect, --server-key (or --server-key-file) and --key are required (see 'arena host "
                        "--help')");
    char err[1024];
    if (cv_read(key_file, &self, err, sizeof err) != 0)
        cli_usage_error("host", "--key %s", err);
    for (int i = optind; i < argc; i++) {
        const char *eq = strchr(argv[i], '=');
        if (!eq || eq == argv[i] || (size_t)(eq - argv[i]) >= HL_NAME_MAX || !eq[1])
            cli_usage_error("host", "'%s': expected NAME=COMMAND (NAME: the agent's section in the league config)",
                            argv[i]);
        if (n_agents == HS_MAX_AGENTS)
            cli_usage_error("host", "more than %d agents", HS_MAX_AGENTS);
        hs_agent *a = &agents[n_agents++];
        snprintf(a->name, sizeof a->name, "%.*s", (int)(eq - argv[i]), argv[i]);
        if (ag_command_parse(eq + 1, NULL, &a->command, err, sizeof err) != 0)
            cli_usage_error("host", "agent %s: %s", a->name, err);
        a->command.sandbox.off = !sandbox;
    }
    if (!n_agents)
        cli_usage_error("host", "no agent to run: give NAME=COMMAND (see 'arena host --help')");
    static volatile sig_atomic_t stop;
    ag_handle_signals(&stop, NULL);
    hs_config cfg = {
        .endpoint = endpoint, .server_key = server_key, .self = &self, .key_file = key_file, .logs = logs,
        .agents = agents, .n_agents = n_agents, .stop = &stop, .ready = ready, .event = event,
    };
    hs_totals t;
    if (hs_serve(&cfg, &t, err, sizeof err) != HS_STOPPED)
        cli_fail("host", "%s", err);
    if (fmt == CLI_JSON)
        printf("{\"started\":%ld,\"exited\":%ld}\n", t.started, t.exited);
    else
        printf("arena host: stopped; %ld bot%s started, %ld exited\n", t.started, t.started == 1 ? "" : "s",
               t.exited);
    return CLI_OK;
}
