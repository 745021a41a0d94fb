/* arena/cli/cmd_keygen.c — `arena keygen`: a CurveZMQ key pair for a coordinator that listens on tcp://. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "curvezmq.h"

static const char help[] =
    "usage: arena keygen FILE [--force] [--json | --format text|json]\n\n"
    "Writes a CurveZMQ key pair for `arena match --listen tcp://...` and `listen =` in league configs:\n"
    "FILE (mode 0600; its directory made, mode 0700, when missing) holds the public and the secret key and is given to the coordinator (--server-key,\n"
    "server_key = FILE); FILE.pub holds the public key only, which a bot's configuration pins (server_key =\n"
    "KEY in its [agent] section). Keys are 40 characters of Z85. Over tcp:// the coordinator admits only its\n"
    "own bot processes (each started with a fresh client key pair) and logs every refused connection.\n\n"
    "  --force          replace FILE and FILE.pub when they exist (default: refuse)\n"
    "  --json           {\"public\",\"file\",\"public_file\"}\n\n"
    "Exit status: 0 written, 1 cannot write, 2 bad input (FILE exists, options).\n";

/* The directories above FILE made (0700: they hold a secret key) where missing; 0, or -1 with errno. */
static int make_parents(const char *file)
{
    char dir[1024];
    if (snprintf(dir, sizeof dir, "%s", file) >= (int)sizeof dir)
        return errno = ENAMETOOLONG, -1;
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return 0;
    *slash = '\0';
    for (char *p = dir + 1; ; p++) {
        bool end = *p == '\0';
        if (*p == '/' || end) {
            *p = '\0';
            if (mkdir(dir, 0700) != 0 && errno != EEXIST)
                return -1;
            if (end)
                return 0;
            *p = '/';
        }
    }
}

int cmd_keygen(int argc, char **argv)
{
    enum { O_FORCE = CLI_O_OWN };
    static const struct option options[] = {
        { "format", required_argument, 0, CLI_O_FORMAT }, { "json", no_argument, 0, CLI_O_JSON },
        { "help", no_argument, 0, CLI_O_HELP },          { "force", no_argument, 0, O_FORCE },
        { 0, 0, 0, 0 },
    };
    bool force = false;
    cli_format fmt = CLI_TEXT;
    int c;
    while ((c = cli_getopt("keygen", argc, argv, options)) != -1) {
        switch (c) {
        case O_FORCE: force = true; break;
        case CLI_O_FORMAT: fmt = cli_format_parse("keygen", optarg); break;
        case CLI_O_JSON: fmt = CLI_JSON; break;
        case CLI_O_HELP: fputs(help, stdout); return CLI_OK;
        }
    }
    if (argc - optind != 1)
        cli_usage_error("keygen", "expected one FILE to write (see 'arena keygen --help')");
    const char *path = argv[optind];
    cv_keypair k;
    if (cv_keygen(&k) != 0)
        cli_fail("keygen", "this libzmq cannot make CURVE keys (built without libsodium)");
    char err[1200];
    if (make_parents(path) != 0)
        cli_fail("keygen", "%s: cannot make its directory: %s", path, strerror(errno));
    if (cv_write(path, &k, force, err, sizeof err) != 0) {
        if (strstr(err, "exists"))
            cli_usage_error("keygen", "%s", err);
        cli_fail("keygen", "%s", err);
    }
    if (fmt == CLI_JSON)
        printf("{\"public\":\"%s\",\"file\":\"%s\",\"public_file\":\"%s.pub\"}\n", k.public_z85, path, path);
    else
        printf("public key %s\nwritten to %s (secret, mode 0600) and %s.pub\n", k.public_z85, path, path);
    return CLI_OK;
}
