/* arena/cli/cmd_host.c — `arena host`: an agent host on another machine. It connects out to a coordinator that
 * listens on tcp:// (CurveZMQ: the host's own key pair, the coordinator's public key pinned), announces the agents
 * it runs (hostlink.h), starts one, sandboxed as the coordinator would, when the coordinator asks with a token,
 * relays each bot's connection to the coordinator as it is, kills bots when asked, and reports the ones that
 * exit (docs/distributed.md#bots-on-other-hosts). */
#define _GNU_SOURCE /* mkdtemp */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zmq.h>

#include "agent.h"
#include "cli.h"
#include "clock.h"
#include "commands.h"
#include "curvezmq.h"
#include "hostlink.h"
#include "logline.h"
#include "protocol.h"
#include "sandbox.h"

static const char host_help[] =
    "usage: arena host --connect tcp://HOST:PORT --server-key KEY --key FILE [--logs DIR] [--sandbox on|off]\n"
    "                  NAME=COMMAND...\n\n"
    "Runs bots for a coordinator on another machine. It connects to the coordinator's listen endpoint with\n"
    "CurveZMQ, as the key pair in FILE ('arena keygen FILE'; the coordinator's config names its public key:\n"
    "host = KEY under each [agent NAME] this host runs), pinning the coordinator's public key KEY (the\n"
    "server_key file's .pub). It announces the agents NAME=COMMAND it runs (NAME: the league config's agent\n"
    "section), starts one in its sandbox whenever the coordinator asks, relays the bot's connection as it is,\n"
    "and tells the coordinator when a bot exits. It runs until stopped (Ctrl-C, SIGTERM), reconnecting when\n"
    "the coordinator goes away and comes back; its bots are killed when it stops.\n\n"
    "  --connect EP      the coordinator's tcp:// endpoint (its [league] listen, with the host name of its\n"
    "                    machine in place of 0.0.0.0)\n"
    "  --server-key KEY  the coordinator's public key (40 characters of Z85)\n"
    "  --key FILE        this host's key file (public and secret key)\n"
    "  --logs DIR        the bots' output, NAME-N.log (default results/host-logs)\n"
    "  --sandbox on|off  run the bots in their sandbox (default on; off: trusted bots only)\n"
    "  --format F        text (default) or json: what it prints when it stops ({\"started\",\"exited\"});\n"
    "                    --json is --format json\n\n"
    "Exit status: 0 stopped by a signal, 1 failure, 2 bad input.\n";

#define MAX_AGENTS HL_MAX_AGENTS
#define MAX_BOTS 256

typedef struct {
    char name[HL_NAME_MAX];
    ag_command cmd;
} host_agent;

typedef struct {
    bool used;
    int agent;
    char token[33];
    pid_t pid;
    uint8_t id[256]; /* its routing id on the local socket, once it connected */
    size_t id_len;
    void *dealer;    /* its relay to the coordinator */
    char log[1024];
} bot;

static host_agent agents[MAX_AGENTS];
static int n_agents;
static bot bots[MAX_BOTS];
static void *ctx, *control, *local;
static cv_keypair self;
static char server_key[CV_KEY_LEN + 1], endpoint[512], logs[512] = "results/host-logs";
static long started, exited;

/* A DEALER to the coordinator, a CURVE client with this host's key pair. */
static void *coordinator_socket(void)
{
    void *s = zmq_socket(ctx, ZMQ_DEALER);
    int zero = 0;
    zmq_setsockopt(s, ZMQ_LINGER, &zero, sizeof zero);
    zmq_setsockopt(s, ZMQ_CURVE_SERVERKEY, server_key, CV_KEY_LEN);
    zmq_setsockopt(s, ZMQ_CURVE_PUBLICKEY, self.public_z85, CV_KEY_LEN);
    zmq_setsockopt(s, ZMQ_CURVE_SECRETKEY, self.secret_z85, CV_KEY_LEN);
    if (zmq_connect(s, endpoint) != 0)
        cli_fail("host", "cannot connect to %s: %s", endpoint, zmq_strerror(zmq_errno()));
    return s;
}

static void send_control(const hl_msg *m)
{
    static uint8_t buf[HL_MAX_MESSAGE];
    size_t n = hl_encode(m, buf, sizeof buf);
    if (n)
        zmq_send(control, buf, n, ZMQ_DONTWAIT);
}

static void hello(void)
{
    static hl_msg m;
    memset(&m, 0, sizeof m);
    m.type = HL_HELLO;
    m.n_agents = n_agents;
    for (int a = 0; a < n_agents; a++) {
        snprintf(m.agents[a].name, sizeof m.agents[a].name, "%.*s", HL_NAME_MAX - 1, agents[a].name);
        snprintf(m.agents[a].command, sizeof m.agents[a].command, "%.*s", HL_COMMAND_MAX - 1, agents[a].cmd.line);
        snprintf(m.agents[a].sha256, sizeof m.agents[a].sha256, "%.64s", agents[a].cmd.sha256);
    }
    send_control(&m);
}

static void report_exit(bot *b, const char *detail)
{
    hl_msg m = { .type = HL_EXITED };
    snprintf(m.token, sizeof m.token, "%s", b->token);
    snprintf(m.detail, sizeof m.detail, "%s", detail);
    send_control(&m);
    if (b->dealer)
        zmq_close(b->dealer);
    memset(b, 0, sizeof *b);
    exited++;
}

static void spawn(const hl_msg *m, const char *local_ep)
{
    int a = -1;
    for (int i = 0; i < n_agents && a < 0; i++)
        if (strcmp(agents[i].name, m->agent) == 0)
            a = i;
    bot *b = NULL;
    for (int i = 0; i < MAX_BOTS && !b; i++)
        if (!bots[i].used)
            b = &bots[i];
    bot tmp = { 0 };
    if (!b)
        b = &tmp;
    memset(b, 0, sizeof *b);
    snprintf(b->token, sizeof b->token, "%s", m->token);
    if (a < 0 || b == &tmp) {
        report_exit(b, a < 0 ? "this host does not run that agent" : "this host runs too many bots");
        return;
    }
    b->used = true;
    b->agent = a;
    static int serial;
    snprintf(b->log, sizeof b->log, "%s/%s-%d.log", logs, agents[a].name, ++serial);
    char why[512];
    b->pid = ag_spawn(&agents[a].cmd, local_ep, b->token, NULL, b->log, why, sizeof why);
    if (b->pid < 0) {
        report_exit(b, why);
        return;
    }
    started++;
}

/* A message from a bot on the local socket: relayed; its first (its hello, carrying its token) opens its relay. */
static void from_bot(const uint8_t *id, size_t id_len, const uint8_t *data, size_t len)
{
    bot *b = NULL;
    for (int i = 0; i < MAX_BOTS && !b; i++)
        if (bots[i].used && bots[i].id_len == id_len && memcmp(bots[i].id, id, id_len) == 0)
            b = &bots[i];
    if (!b) {
        static pm_msg m;
        char why[128];
        pm_decode(data, len, &m, why, sizeof why); /* a hello's token is read even when the rest is wrong */
        for (int i = 0; i < MAX_BOTS && !b; i++)
            if (bots[i].used && !bots[i].id_len && m.token[0] && strcmp(bots[i].token, m.token) == 0)
                b = &bots[i];
        if (!b)
            return; /* not one of ours */
        memcpy(b->id, id, id_len);
        b->id_len = id_len;
        b->dealer = coordinator_socket();
    }
    zmq_send(b->dealer, data, len, ZMQ_DONTWAIT);
}

int cmd_host(int argc, char **argv)
{
    enum { O_CONNECT = CLI_O_OWN, O_SERVER, O_KEY, O_LOGS, O_SANDBOX };
    static const struct option options[] = {
        { "connect", required_argument, 0, O_CONNECT }, { "server-key", required_argument, 0, O_SERVER },
        { "key", required_argument, 0, O_KEY },         { "logs", required_argument, 0, O_LOGS },
        { "sandbox", required_argument, 0, O_SANDBOX }, { "format", required_argument, 0, CLI_O_FORMAT },
        { "json", no_argument, 0, CLI_O_JSON },         { "help", no_argument, 0, CLI_O_HELP },
        { 0, 0, 0, 0 },
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
        cli_usage_error("host", "--connect, --server-key and --key are required (see 'arena host --help')");
    char err[1024];
    if (cv_read(key_file, &self, err, sizeof err) != 0)
        cli_usage_error("host", "--key %s", err);
    for (int i = optind; i < argc; i++) {
        const char *eq = strchr(argv[i], '=');
        if (!eq || eq == argv[i] || (size_t)(eq - argv[i]) >= HL_NAME_MAX || !eq[1])
            cli_usage_error("host", "'%s': expected NAME=COMMAND (NAME: the agent's section in the league config)",
                            argv[i]);
        if (n_agents == MAX_AGENTS)
            cli_usage_error("host", "more than %d agents", MAX_AGENTS);
        host_agent *a = &agents[n_agents++];
        snprintf(a->name, sizeof a->name, "%.*s", (int)(eq - argv[i]), argv[i]);
        if (ag_command_parse(eq + 1, NULL, &a->cmd, err, sizeof err) != 0)
            cli_usage_error("host", "agent %s: %s", a->name, err);
        a->cmd.sandbox.off = !sandbox;
    }
    if (!n_agents)
        cli_usage_error("host", "no agent to run: give NAME=COMMAND (see 'arena host --help')");
    if (sandbox && sb_available(err, sizeof err) != 0)
        cli_fail("host", "%s", err);
    if (mkdir(logs, 0755) != 0 && errno != EEXIST)
        cli_fail("host", "--logs %s: %s", logs, strerror(errno));
    sb_deny(key_file); /* no bot reads the host's secret key */
    sb_deny(logs);

    /* the bots' private endpoint, as the coordinator makes its own */
    char dir[] = "/tmp/arena-host-XXXXXX", local_ep[128];
    if (!mkdtemp(dir))
        cli_fail("host", "cannot make a private directory: %s", strerror(errno));
    if (geteuid() == 0 && chown(dir, SB_UID, SB_GID) != 0)
        cli_fail("host", "cannot hand %s to the sandbox user: %s", dir, strerror(errno));
    snprintf(local_ep, sizeof local_ep, "ipc://%s/host.sock", dir);
    ctx = zmq_ctx_new();
    local = zmq_socket(ctx, ZMQ_ROUTER);
    int zero = 0;
    zmq_setsockopt(local, ZMQ_LINGER, &zero, sizeof zero);
    if (zmq_bind(local, local_ep) != 0 || sb_share_socket(local_ep + 6) != 0)
        cli_fail("host", "cannot bind %s: %s", local_ep, zmq_strerror(zmq_errno()));
    control = coordinator_socket();
    static volatile sig_atomic_t stop;
    ag_handle_signals(&stop, NULL);
    ag_adopt_orphans();
    hello();
    fprintf(stderr, "arena host: %d agent%s for %s as %.12s...\n", n_agents, n_agents == 1 ? "" : "s", endpoint,
            self.public_z85);

    static uint8_t buf[HL_MAX_MESSAGE > PM_MAX_MESSAGE ? HL_MAX_MESSAGE : PM_MAX_MESSAGE], id[256];
    double next_ping = 0;
    bool connected = false;
    while (!stop) {
        zmq_pollitem_t items[2 + MAX_BOTS];
        int map[2 + MAX_BOTS], n = 0;
        items[n] = (zmq_pollitem_t){ control, 0, ZMQ_POLLIN, 0 }, map[n++] = -1;
        items[n] = (zmq_pollitem_t){ local, 0, ZMQ_POLLIN, 0 }, map[n++] = -2;
        for (int i = 0; i < MAX_BOTS; i++)
            if (bots[i].used && bots[i].dealer)
                items[n] = (zmq_pollitem_t){ bots[i].dealer, 0, ZMQ_POLLIN, 0 }, map[n++] = i;
        zmq_poll(items, n, 100);
        double t = clk_now();
        if (t >= next_ping) { /* alive; the first pings also stand for a hello the coordinator may have missed */
            hl_msg ping = { .type = HL_PING };
            send_control(&ping);
            if (!connected)
                hello();
            next_ping = t + 0.5;
        }
        for (int k = 0; k < n; k++) {
            if (!(items[k].revents & ZMQ_POLLIN))
                continue;
            if (map[k] == -1) { /* the coordinator's requests */
                int len = zmq_recv(control, buf, sizeof buf, ZMQ_DONTWAIT);
                static hl_msg m;
                if (len < 0 || hl_decode(buf, (size_t)len, &m) != 0)
                    continue;
                connected = true;
                if (m.type == HL_SPAWN)
                    spawn(&m, local_ep);
                else if (m.type == HL_KILL)
                    for (int i = 0; i < MAX_BOTS; i++)
                        if (bots[i].used && strcmp(bots[i].token, m.token) == 0 && bots[i].pid > 0)
                            ag_kill(bots[i].pid);
            } else if (map[k] == -2) { /* a bot */
                int il = zmq_recv(local, id, sizeof id, ZMQ_DONTWAIT), more = 0;
                size_t sz = sizeof more;
                if (il < 0)
                    continue;
                zmq_getsockopt(local, ZMQ_RCVMORE, &more, &sz);
                if (!more)
                    continue;
                int len = zmq_recv(local, buf, sizeof buf, 0);
                if (len >= 0)
                    from_bot(id, (size_t)il < sizeof id ? (size_t)il : sizeof id,
                             buf, (size_t)len < sizeof buf ? (size_t)len : sizeof buf);
            } else { /* the coordinator, to a bot */
                bot *b = &bots[map[k]];
                int len = zmq_recv(b->dealer, buf, sizeof buf, ZMQ_DONTWAIT);
                if (len < 0)
                    continue;
                zmq_send(local, b->id, b->id_len, ZMQ_SNDMORE | ZMQ_DONTWAIT);
                zmq_send(local, buf, (size_t)len < sizeof buf ? (size_t)len : sizeof buf, ZMQ_DONTWAIT);
            }
        }
        int status;
        long peak;
        pid_t pid;
        while ((pid = ag_reap(&status, &peak)) > 0)
            for (int i = 0; i < MAX_BOTS; i++)
                if (bots[i].used && bots[i].pid == pid) {
                    char why[200];
                    ag_describe_exit(status, peak, &agents[bots[i].agent].cmd.limits, why, sizeof why);
                    log_line(bots[i].log, "%s", why);
                    report_exit(&bots[i], why);
                }
    }
    ag_kill_all();
    for (int i = 0; i < MAX_BOTS; i++)
        if (bots[i].dealer)
            zmq_close(bots[i].dealer);
    zmq_close(control);
    zmq_close(local);
    zmq_ctx_term(ctx);
    char sock[200];
    snprintf(sock, sizeof sock, "%s/host.sock", dir);
    unlink(sock);
    rmdir(dir);
    if (fmt == CLI_JSON)
        printf("{\"started\":%ld,\"exited\":%ld}\n", started, exited);
    else
        printf("arena host: stopped; %ld bot%s started, %ld exited\n", started, started == 1 ? "" : "s", exited);
    return CLI_OK;
}
