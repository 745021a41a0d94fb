/* arena/cli/cmd_ladder.c — `arena ladder work LADDER.ini`: the ladder's worker on this machine (worker.h): plays the
 * queued jobs one after another, and between submissions the rating rounds (standing.h); stops on SIGINT or SIGTERM
 * (a league being played winds down with its games kept); one per ladder (a lock beside its state database).
 * `arena serve --ladder` starts one (docs/ladder.md). `arena ladder host-agents LADDER.ini`: the NAME=COMMAND
 * arguments of an `arena host` for the ladder (plan.h). `arena ladder admin|account ...`: the ladder's accounts from
 * the command line, the only way an admin is made besides LADDER.ini's [admins] (accounts.h). */
#define _GNU_SOURCE /* getline */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "accounts.h"
#include "cli.h"
#include "commands.h"
#include "plan.h"
#include "standing.h"
#include "worker.h"

static const char ladder_help[] =
    "usage: arena ladder work LADDER.ini [--once] [--json | --format text|json]\n"
    "       arena ladder host-agents LADDER.ini\n"
    "       arena ladder admin add|remove NAME LADDER.ini [--password-file FILE]\n"
    "       arena ladder account list LADDER.ini [--json | --format text|json]\n"
    "       arena ladder account approve|reject|delete|reset-password NAME LADDER.ini [--password-file FILE]\n"
    "       arena ladder hash-password [--password-file FILE]\n\n"
    "work plays the ladder's queued jobs (placements, SPRT tests, rating rounds) on this machine, each a league of\n"
    "sandboxed bots written to the results database (LADDER.ini runner: local, its bots here; host, its bots on\n"
    "'arena host' machines; slurm, a job array), and records their outcome in the ladder's database. With nothing\n"
    "queued it schedules a rating round where ratings are least certain (LADDER.ini rating_rounds), until its stop\n"
    "rule holds, else waits a second and looks again. One worker runs a ladder: a second one waits for the first to\n"
    "end (a lock beside the state database), then resumes what it left.\n"
    "  --once    play what is queued now, then exit\n"
    "  --json    at the end, {\"jobs\":N} (jobs taken) on stdout; text: \"N jobs\"\n\n"
    "host-agents prints, one a line, the NAME=COMMAND arguments an 'arena host' needs to run the ladder's bots\n"
    "with runner = host: sID=STORE/SHA-256/PROGRAM ARGS for each version on the ladder, queued or running.\n\n"
    "admin add makes NAME an admin (approved), making the account when there is none: its password is the first\n"
    "line of --password-file FILE, or of standard input; admin remove takes the admin's rights away. A sign-up never\n"
    "makes an admin. account list prints every account (name, state, admin, where it signed up from); approve,\n"
    "reject (a sign-up), delete (its sessions and tokens ended, its bots retired) and reset-password (a new random\n"
    "password printed once, or the first line of --password-file; its sessions and tokens ended) act on one.\n"
    "hash-password prints the hash of the password read (for LADDER.ini's [admins] NAME = HASH).\n\n"
    "Exit status: 0 stopped (or done with --once, or the account changed), 1 failure (the ladder's database),\n"
    "2 bad input (a missing account, a bad password).\n";

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

/* LADDER.ini read into *c (its warnings said), and the ladder's database opened; exits on failure. */
static ldb *open_ladder(const char *path, ld_config *c)
{
    char err[1024];
    if (ld_config_load(path, c, err, sizeof err) != 0)
        cli_usage_error("ladder", "%s", err);
    for (int i = 0; i < c->n_warnings; i++)
        fprintf(stderr, "arena ladder: warning: %s\n", c->warnings[i]);
    ldb *d = ldb_open(c->state, err, sizeof err);
    if (!d)
        cli_fail("ladder", "%s", err);
    return d;
}

/* The ladder's one worker: an exclusive lock on STATE-worker.lock (released by the kernel however the worker ends),
 * waited for when another worker holds it; the holder's pid written in it. */
static int worker_lock(const ld_config *c)
{
    char path[600];
    snprintf(path, sizeof path, "%s-worker.lock", c->state);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        cli_fail("ladder", "%s: %s", path, strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        char pid[32] = "";
        ssize_t n = pread(fd, pid, sizeof pid - 1, 0);
        pid[n > 0 ? n : 0] = '\0';
        pid[strcspn(pid, "\n")] = '\0';
        fprintf(stderr, "arena ladder: waiting for the ladder's other worker (pid %s) to end\n", pid[0] ? pid : "?");
        while (flock(fd, LOCK_EX) != 0)
            if (errno != EINTR || stopped)
                cli_fail("ladder", "%s: %s", path, stopped ? "stopped while waiting" : strerror(errno));
    }
    char pid[32];
    int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n)
        cli_fail("ladder", "%s: %s", path, strerror(errno));
    return fd;
}

static int work(const char *path, bool once, cli_format fmt)
{
    ld_config c;
    char err[1024];
    ldb *d = open_ladder(path, &c);
    handle_stop();
    int lock = worker_lock(&c);
    if (ld_config_start(&c, err, sizeof err) != 0)
        cli_usage_error("ladder", "%s", err);
    if (ld_admins_from_config(d, &c, (int64_t)time(NULL), err, sizeof err) != 0)
        cli_fail("ladder", "%s", err);
    int left = ldb_jobs_requeue_running(d); /* what a worker before this one left running */
    fprintf(stderr, "arena ladder: working for %s (runner %s)%s\n", path, ld_runner_name(c.runner),
            left > 0 ? ", jobs left running by a worker before requeued" : "");
    int status = CLI_OK;
    long jobs = 0;
    ld_rating_memo memo = { 0 };
    char said[sizeof memo.note] = "";
    while (!stopped) {
        handle_stop();
        int rc = ld_work_one(d, &c, (int64_t)time(NULL), err, sizeof err);
        int64_t who = 0;
        if (rc == 0 && !once && c.rating_rounds) {
            rc = ld_schedule_rating(d, &c, (int64_t)time(NULL), &memo, &who, err, sizeof err) < 0 ? -1 : 0;
            if (rc == 0 && memo.note[0] && strcmp(memo.note, said) != 0) /* once each time the ladder goes idle */
                fprintf(stderr, "arena ladder: %s\n", memo.note);
            snprintf(said, sizeof said, "%s", memo.note);
        }
        if (rc < 0) {
            fprintf(stderr, "arena ladder: %s\n", err);
            status = CLI_FAILED;
            break;
        }
        jobs += rc == 1;
        if (rc == 1) /* the next time the ladder goes idle is said again */
            said[0] = '\0';
        if ((rc == 0 && once) || rc == 2) /* 2: a signal stopped the job's league (the session's handler took it) */
            break;
        if (rc == 0 && !who)
            nanosleep(&(struct timespec){ 1, 0 }, NULL);
    }
    ldb_close(d);
    close(lock);
    if (fmt == CLI_JSON)
        printf("{\"jobs\":%ld}\n", jobs);
    else
        printf("%ld jobs\n", jobs);
    return status;
}

/* A password: the first line of `file`, or of standard input ("-" or NULL). */
static void read_password(const char *file, char *out, size_t n)
{
    FILE *f = file && strcmp(file, "-") != 0 ? fopen(file, "r") : stdin;
    if (!f)
        cli_usage_error("ladder", "--password-file %s: %s", file, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    ssize_t len = getline(&line, &cap, f);
    if (f != stdin)
        fclose(f);
    if (len <= 0) {
        free(line);
        cli_usage_error("ladder", "no password given (the first line of --password-file, or of standard input)");
    }
    line[strcspn(line, "\r\n")] = '\0';
    snprintf(out, n, "%s", line);
    free(line);
}

static int admin(const char *verb, const char *name, const char *path, const char *password_file)
{
    ld_config c;
    char err[1024];
    ldb *d = open_ladder(path, &c);
    ldb_account a;
    int found = ldb_account_by_name(d, name, &a);
    char hash[LD_PWHASH_MAX], *pwhash = NULL;
    int rc;
    if (strcmp(verb, "add") == 0) {
        if (found == 0) { /* a new account: its password */
            char password[LD_PASSWORD_MAX + 2];
            read_password(password_file, password, sizeof password);
            if (ld_password_hash(password, hash, err, sizeof err) != 0)
                cli_usage_error("ladder", "%s", err);
            pwhash = hash;
        }
        rc = ld_admin_set(d, name, pwhash, true, (int64_t)time(NULL), err, sizeof err);
    } else {
        rc = found == 1 && !a.deleted ? ld_admin_set(d, a.name, NULL, false, (int64_t)time(NULL), err, sizeof err)
                                      : (snprintf(err, sizeof err, "no account '%s'", name), -2);
    }
    ldb_close(d);
    if (rc == -2)
        cli_usage_error("ladder", "%s", err);
    if (rc != 0)
        cli_fail("ladder", "%s", err);
    printf("%s is %san admin\n", name, strcmp(verb, "add") == 0 ? "" : "no longer ");
    return CLI_OK;
}

static int account(const char *verb, const char *name, const char *path, const char *password_file, cli_format fmt)
{
    ld_config c;
    char err[1024];
    ldb *d = open_ladder(path, &c);
    int rc = 1;
    if (strcmp(verb, "list") == 0) {
        enum { MAX = 10000 };
        ldb_account *a = calloc(MAX, sizeof *a);
        int n = a ? ldb_accounts(d, a, MAX) : -1;
        if (fmt == CLI_JSON)
            printf("[");
        for (int i = 0; i < n; i++) {
            const char *state = a[i].deleted ? "deleted" : a[i].approved ? "approved" : "waiting";
            if (fmt == CLI_JSON)
                printf("%s{\"name\":\"%s\",\"state\":\"%s\",\"admin\":%s,\"created\":%lld,\"address\":\"%s\"}",
                       i ? "," : "", a[i].name, state, a[i].admin ? "true" : "false", (long long)a[i].created,
                       a[i].address);
            else
                printf("%-33s %-9s%s%s%s\n", a[i].name, state, a[i].admin ? " admin" : "",
                       a[i].address[0] ? " from " : "", a[i].address);
        }
        if (fmt == CLI_JSON)
            printf("]\n");
        free(a);
        rc = n < 0 ? -1 : 1;
        if (n < 0)
            snprintf(err, sizeof err, "%s", a ? ldb_error(d) : "out of memory");
    } else if (strcmp(verb, "approve") == 0) {
        ldb_account a;
        int found = ldb_account_by_name(d, name, &a);
        rc = found == 1 && !a.deleted ? ldb_account_set(d, a.name, true, a.admin) : found < 0 ? -1 : 0;
        snprintf(err, sizeof err, "%s", rc < 0 ? ldb_error(d) : "no such account");
    } else if (strcmp(verb, "reject") == 0 || strcmp(verb, "delete") == 0) {
        rc = ld_delete_account(d, NULL, name, err, sizeof err);
    } else {
        char password[LD_PASSWORD_MAX + 2];
        if (password_file) {
            read_password(password_file, password, sizeof password);
            rc = ld_set_password(d, name, password, err, sizeof err);
        } else if ((rc = ld_reset_password(d, name, password, err, sizeof err)) == 1) {
            printf("%s's new password (shown once): %s\n", name, password);
        }
    }
    ldb_close(d);
    if (rc < 0)
        cli_fail("ladder", "%s", err);
    if (rc == 0)
        cli_usage_error("ladder", "%s: %s", name ? name : "", err);
    if (strcmp(verb, "list") != 0 && (strcmp(verb, "reset-password") != 0 || password_file))
        printf("%s: %s\n", name, strcmp(verb, "approve") == 0 ? "approved" : strcmp(verb, "reject") == 0 ? "rejected"
                                   : strcmp(verb, "delete") == 0 ? "deleted" : "password set");
    return CLI_OK;
}

static int hash_password(const char *password_file)
{
    char password[LD_PASSWORD_MAX + 2], hash[LD_PWHASH_MAX], err[300];
    read_password(password_file, password, sizeof password);
    if (ld_password_hash(password, hash, err, sizeof err) != 0)
        cli_usage_error("ladder", "%s", err);
    printf("%s\n", hash);
    return CLI_OK;
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
    enum { O_ONCE = CLI_O_OWN, O_PASSWORD };
    static const struct option options[] = {
        { "format", required_argument, 0, CLI_O_FORMAT }, { "json", no_argument, 0, CLI_O_JSON },
        { "help", no_argument, 0, CLI_O_HELP },          { "once", no_argument, 0, O_ONCE },
        { "password-file", required_argument, 0, O_PASSWORD }, { 0, 0, 0, 0 },
    };
    bool once = false;
    const char *password_file = NULL;
    cli_format fmt = CLI_TEXT;
    for (int c; (c = cli_getopt("ladder", argc, argv, options)) != -1;) {
        switch (c) {
        case O_ONCE: once = true; break;
        case O_PASSWORD: password_file = optarg; break;
        case CLI_O_FORMAT: fmt = cli_format_parse("ladder", optarg); break;
        case CLI_O_JSON: fmt = CLI_JSON; break;
        case CLI_O_HELP: fputs(ladder_help, stdout); return CLI_OK;
        }
    }
    int n = argc - optind;
    const char *cmd = n > 0 ? argv[optind] : "";
    if (strcmp(cmd, "hash-password") == 0 && n == 1)
        return hash_password(password_file);
    if ((strcmp(cmd, "work") == 0 || strcmp(cmd, "host-agents") == 0) && n == 2)
        return cmd[0] == 'w' ? work(argv[optind + 1], once, fmt) : host_agents(argv[optind + 1]);
    if (strcmp(cmd, "admin") == 0 && n == 4 &&
        (strcmp(argv[optind + 1], "add") == 0 || strcmp(argv[optind + 1], "remove") == 0))
        return admin(argv[optind + 1], argv[optind + 2], argv[optind + 3], password_file);
    if (strcmp(cmd, "account") == 0 && n == 3 && strcmp(argv[optind + 1], "list") == 0)
        return account("list", NULL, argv[optind + 2], NULL, fmt);
    static const char *const verbs[] = { "approve", "reject", "delete", "reset-password" };
    for (size_t i = 0; strcmp(cmd, "account") == 0 && n == 4 && i < 4; i++)
        if (strcmp(argv[optind + 1], verbs[i]) == 0)
            return account(verbs[i], argv[optind + 2], argv[optind + 3], password_file, fmt);
    cli_usage_error("ladder", "expected work, host-agents, admin, account or hash-password with their arguments (see "
                    "'arena ladder --help')");
}
