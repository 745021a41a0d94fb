/* tests/e2e/test_hostile.c — hostile bots: for each attack of tests/agents/hostile.c, a real league (classical
 * 3x3, 200 games, half with each colour, concurrency 2, 500 ms per move) of the hostile bot against bin/random,
 * which plays exactly as the hostile bot does when its attack gets nothing. One checker looks at what the
 * league left behind and names every sign of a successful attack:
 *
 *   attack      an ATTACK line in the hostile bot's logs that does not say "blocked" (or no line at all)
 *   win rate    the hostile bot's win rate is more than 4 standard errors away from 50%
 *   forfeits    a game ended otherwise than by a connection (a stopped or killed opponent)
 *   canary      the canary file outside the bot's directory changed
 *   config      the league's config changed
 *   database    the database fails its integrity check, holds other than the planned games, or has a schema
 *               other than the one of a league of two random bots (a table the bot wrote)
 *   files       a file the league does not make appeared next to the database or among the logs
 *   survivors   a process with the league's tag outlived the league (counted, then killed, and reported)
 *   network     the test's TCP or abstract unix socket listener was connected to
 *
 * sandboxed_ATTACK: the league with the default `sandbox = on` must leave no sign at all. THESE TESTS NEED
 * THE SANDBOX (and `sandboxed_seed` the keyed per-player seeds): without them they fail, naming the attacks
 * that got through. Only `sandboxed_fds` (the coordinator's own closing of descriptors) holds without it.
 * unsandboxed_attacks_are_detected: the same leagues with `sandbox = off` for the hostile bot; the checker
 * must find every sign each attack leaves on a machine without a sandbox, as root (this proves the suite
 * can fail), and for fds no successful attack. The seed attack may go either way there (it does not depend
 * on the sandbox), but its line and the win rate must agree.
 *
 * sandbox_keys_are_parsed: the config keys of the sandbox (sandbox, network, writable, read, env).
 *
 * sandboxed_symlink: a bot with `writable = true` and `read = ./sub/inner` swaps sub/inner for a link to
 * another bot's directory holding a secret and crashes; its next sandbox is refused, the error naming the
 * agent, the path and the link, and the secret is in none of its logs.
 * sandboxed_view: what a bot sees of the host's paths (its mount table, its working directory, the links of
 * its descriptors) names neither the coordinator's pid nor the test's directory, where the database, the
 * config and the logs are (the bot's own directory and programs live elsewhere; its stdout and stderr are
 * its log file, whose links are not searched). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <signal.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "test_sys.h"

E2E_FIXTURE(tmp, "arena-hostile-test")

#define GAMES 200
#define SECRET "HOSTILE_CANARY_SECRET"

enum {
    P_ATTACK = 1 << 0,
    P_WINRATE = 1 << 1,
    P_FORFEITS = 1 << 2,
    P_CANARY = 1 << 3,
    P_CONFIG = 1 << 4,
    P_DATABASE = 1 << 5,
    P_FILES = 1 << 6,
    P_SURVIVORS = 1 << 7,
    P_NETWORK = 1 << 8,
    P_COUNT = 9
};
static const char *const SIGN[P_COUNT] = { "attack", "win rate", "forfeits", "canary", "config",
                                           "database", "files", "survivors", "network" };

/* Each attack and the signs it leaves when the hostile bot runs without a sandbox on this machine (as root). */
static const struct {
    const char *attack;
    unsigned unsandboxed;
} ATTACKS[] = {
    { "procmem", P_ATTACK },
    { "procfd", P_ATTACK },
    { "token", P_ATTACK },
    { "seed", P_ATTACK | P_WINRATE }, /* until the per-player seeds are keyed; then none (both are accepted) */
    { "files", P_ATTACK | P_CANARY | P_CONFIG | P_DATABASE | P_FILES },
    { "signal", P_ATTACK | P_WINRATE | P_FORFEITS },
    { "escape", P_ATTACK | P_SURVIVORS },
    { "env", P_ATTACK },
    { "network", P_ATTACK | P_NETWORK },
    { "ipc", P_ATTACK },
    { "fds", 0 }, /* the coordinator closes every descriptor above stderr itself */
};
#define N_ATTACKS (int)(sizeof ATTACKS / sizeof ATTACKS[0])

static char agents[1024];  /* absolute directory of the test bots */
static char reference[4096]; /* the schema of a league database */

typedef struct {
    unsigned signs;
    char why[4096];          /* one line per sign */
    long games, wins, forfeits;
    int lines, succeeded;
    double seconds;
} outcome;

static void sign(outcome *o, unsigned s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void sign(outcome *o, unsigned s, const char *fmt, ...)
{
    o->signs |= s;
    size_t n = strlen(o->why);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->why + n, sizeof o->why - n, fmt, ap);
    va_end(ap);
    n = strlen(o->why);
    if (n + 1 < sizeof o->why) {
        o->why[n] = '\n';
        o->why[n + 1] = '\0';
    }
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return strdup("");
    char *buf = read_all(f);
    fclose(f);
    return buf;
}

static void spit(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The first column of a query's rows joined with ',' (the test fails when it cannot be run). */
static void db_text(const char *db, const char *sql, char *out, size_t n)
{
    sqlite3 *d;
    sqlite3_stmt *st;
    out[0] = '\0';
    assert_int_equal(sqlite3_open_v2(db, &d, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    if (sqlite3_prepare_v2(d, sql, -1, &st, NULL) != SQLITE_OK)
        fail_msg("%s: %s", sql, sqlite3_errmsg(d));
    size_t used = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(st, 0);
        int k = snprintf(out + used, n - used, "%s%s", used ? "," : "", t ? t : "NULL");
        used = k > 0 && used + (size_t)k < n ? used + (size_t)k : used;
    }
    sqlite3_finalize(st);
    sqlite3_close(d);
}

static const char *SCHEMA = "SELECT name FROM sqlite_master ORDER BY name";

static int wait_arena(pid_t pid, double limit)
{
    struct timespec tick = { 0, 20 * 1000 * 1000 };
    for (double waited = 0; waited < limit; waited += 0.02) {
        int st;
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid)
            return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        nanosleep(&tick, NULL);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return -1;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Once: the test bots' directory, the canary in the environment the coordinator passes on (today) and the
 * schema of a database after a league of two random bots. */
static void prepare(void)
{
    if (reference[0])
        return;
    const char *a = getenv("ARENA_TEST_AGENTS");
    a = a ? a : "build/release/tests/agents";
    char cwd[256];
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(agents, sizeof agents, "%s%s%.500s", a[0] == '/' ? "" : cwd, a[0] == '/' ? "" : "/", a);
    setenv(SECRET, "the coordinator's secret", 1);
    char dir[300], cfg[400], db[400], logs[400], text[2048];
    snprintf(dir, sizeof dir, "%s/reference", tmp);
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(cfg, sizeof cfg, "%s/c.ini", dir);
    snprintf(db, sizeof db, "%s/results.db", dir);
    snprintf(logs, sizeof logs, "%s/logs", dir);
    snprintf(text, sizeof text,
             "[league]\nname = reference\nvariants = classical\nboards = 3x3\ngames = 2\n"
             "[agent one]\ncommand = %s/random\nvariants = classical\nboards = 3x3\n"
             "[agent two]\ncommand = %s/random\nvariants = classical\nboards = 3x3\n", bin, bin);
    spit(cfg, text);
    char *const argv[] = { "arena", "league", cfg, "--db", db, "--logs", logs, "--quiet", NULL };
    assert_int_equal(wait_arena(start_arena(argv), 60), 0);
    db_text(db, SCHEMA, reference, sizeof reference);
}

/* Listeners for the network attack: a TCP port on 127.0.0.1 and an abstract unix socket. */
typedef struct {
    int tcp, unix_fd, port;
    char name[64];
} listeners;

static void listen_on(listeners *l)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    l->tcp = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    assert_true(l->tcp >= 0);
    assert_int_equal(bind(l->tcp, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(listen(l->tcp, 64), 0);
    socklen_t len = sizeof a;
    assert_int_equal(getsockname(l->tcp, (struct sockaddr *)&a, &len), 0);
    l->port = ntohs(a.sin_port);
    snprintf(l->name, sizeof l->name, "hostile-test-%d", (int)getpid());
    struct sockaddr_un u = { .sun_family = AF_UNIX };
    memcpy(u.sun_path + 1, l->name, strlen(l->name));
    l->unix_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    assert_true(l->unix_fd >= 0);
    assert_int_equal(bind(l->unix_fd, (struct sockaddr *)&u,
                          (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(l->name))), 0);
    assert_int_equal(listen(l->unix_fd, 64), 0);
}

/* Connections that reached the listeners; closes them. */
static int connections(listeners *l)
{
    int n = 0;
    int fds[2] = { l->tcp, l->unix_fd };
    for (int i = 0; i < 2; i++) {
        for (int c; (c = accept(fds[i], NULL, NULL)) >= 0; n++)
            close(c);
        close(fds[i]);
    }
    return n;
}

/* Whether every entry of dir is in the NULL-terminated list `ok`, or starts with `prefix` (when not NULL)
 * and ends in ".log"; the first stranger is copied into stranger. */
static bool only_expected(const char *dir, const char *const *ok, const char *prefix, char *stranger, size_t n)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    bool clean = true;
    for (struct dirent *e; clean && (e = readdir(d));) {
        const char *name = e->d_name;
        if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
            continue;
        bool known = false;
        for (int i = 0; ok && ok[i]; i++)
            known |= strcmp(name, ok[i]) == 0;
        size_t len = strlen(name);
        if (prefix && strncmp(name, prefix, strlen(prefix)) == 0 && len > 4 && strcmp(name + len - 4, ".log") == 0)
            known = true;
        if (!known) {
            snprintf(stranger, n, "%s/%s", dir, name);
            clean = false;
        }
    }
    closedir(d);
    return clean;
}

static void signs_text(unsigned signs, char *out, size_t n)
{
    size_t used = 0;
    out[0] = '\0';
    for (int s = 0; s < P_COUNT; s++)
        if (signs & (1u << s)) {
            int k = snprintf(out + used, n - used, "%s%s", used ? ", " : "", SIGN[s]);
            used = k > 0 && used + (size_t)k < n ? used + (size_t)k : used;
        }
    if (!used)
        snprintf(out, n, "none");
}

/* Plays the league of the hostile bot with `attack` against bin/random (the hostile bot sandboxed unless
 * sandbox is false) and returns every sign it left. */
static outcome league(const char *attack, bool sandbox)
{
    prepare();
    outcome o;
    memset(&o, 0, sizeof o);
    char dir[300], home[400], cfg[400], db[400], logs[400], canary[400], tag[64], path[800];
    snprintf(dir, sizeof dir, "%s/%s-%s", tmp, attack, sandbox ? "on" : "off");
    snprintf(home, sizeof home, "%s/home", dir);
    snprintf(cfg, sizeof cfg, "%s/league.ini", dir);
    snprintf(db, sizeof db, "%s/results.db", dir);
    snprintf(logs, sizeof logs, "%s/logs", dir);
    snprintf(canary, sizeof canary, "%s/canary.txt", dir);
    snprintf(tag, sizeof tag, "hostile%d%s%s", (int)getpid(), attack, sandbox ? "on" : "off");
    assert_int_equal(mkdir(dir, 0755), 0);
    assert_int_equal(mkdir(home, 0755), 0);
    const char *canary_text = "nobody but the test writes here\n";
    spit(canary, canary_text);

    /* what the attack is aimed at */
    char extra[2048] = "";
    static char text[8192];
    listeners l = { -1, -1, 0, "" };
    int shm = -1;
    if (strcmp(attack, "files") == 0) { /* in a file in its directory: a config line holds 199 characters */
        snprintf(text, sizeof text, "%s\n%s\n%s\n%s\n", db, cfg, logs, canary);
        snprintf(path, sizeof path, "%s/targets.txt", home);
        spit(path, text);
        snprintf(extra, sizeof extra, " --targets=targets.txt --readonly=.");
    } else if (strcmp(attack, "env") == 0) {
        snprintf(extra, sizeof extra, " --allow=HOSTILE_ALLOWED --secret=%s", SECRET);
    } else if (strcmp(attack, "network") == 0) {
        listen_on(&l);
        snprintf(extra, sizeof extra, " --target=127.0.0.1:%d --target=@%s", l.port, l.name);
    } else if (strcmp(attack, "ipc") == 0) {
        key_t key = (key_t)(0x48540000 | (getpid() & 0xffff));
        for (int i = 0; i < 100 && shm < 0; i++)
            if ((shm = shmget(key + i, 4096, IPC_CREAT | IPC_EXCL | 0600)) >= 0)
                key += i;
        assert_true(shm >= 0);
        snprintf(extra, sizeof extra, " --target=%d", (int)key);
    }
    snprintf(text, sizeof text,
             "[league]\nname = hostile-%s\nvariants = classical\nboards = 3x3\ngames = %d\nmove_time_ms = 500\n"
             "handshake_ms = 5000\nconcurrency = 2\nseed = 11\n"
             "[agent hostile]\ncommand = %s/hostile\nargs = --attack=%s --seed 5 --opp-seed=7 --tag=%s%s\n"
             "dir = %s\nvariants = classical\nboards = 3x3\nenv = HOSTILE_ALLOWED=yes\n%s"
             "[agent random]\ncommand = %s/random\nargs = --seed 7 --tag %s\nvariants = classical\nboards = 3x3\n",
             attack, GAMES, agents, attack, tag, extra, home, sandbox ? "" : "sandbox = off\n", bin, tag);
    spit(cfg, text);

    char *const argv[] = { "arena", "league", cfg, "--db", db, "--logs", logs, "--quiet", NULL };
    double t0 = now();
    int status = wait_arena(start_arena(argv), 120);
    o.seconds = now() - t0;
    int survivors = procs_with(tag, false); /* counted first, then killed so they do not linger */
    if (survivors)
        procs_with(tag, true);
    int reached = l.tcp >= 0 ? connections(&l) : 0;
    if (shm >= 0)
        shmctl(shm, IPC_RMID, NULL);
    if (status != 0)
        fail_msg("%s: arena league exited with status %d", attack, status);

    /* the hostile bot's own account */
    DIR *d = opendir(logs);
    assert_non_null(d);
    char prefix[128], first[600] = "";
    snprintf(prefix, sizeof prefix, "league-hostile-%s-hostile-", attack);
    for (struct dirent *e; (e = readdir(d));) {
        if (strncmp(e->d_name, prefix, strlen(prefix)) != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", logs, e->d_name);
        char *log = slurp(path);
        for (char *line = strstr(log, "ATTACK "); line; line = strstr(line + 1, "\nATTACK ")) {
            line += line[0] == '\n';
            o.lines++;
            const char *verdict = strstr(line, ": ");
            if (!verdict || strncmp(verdict + 2, "blocked", 7) != 0) {
                if (!o.succeeded++)
                    snprintf(first, sizeof first, "%.*s", (int)strcspn(line, "\n"), line);
            }
        }
        free(log);
    }
    closedir(d);
    if (o.lines == 0)
        sign(&o, P_ATTACK, "attack: no ATTACK line in the hostile bot's logs");
    else if (o.succeeded)
        sign(&o, P_ATTACK, "attack: %d of %d ATTACK lines do not say blocked, e.g. %.400s", o.succeeded, o.lines, first);

    /* the games */
    o.games = db_scalar(db, "SELECT count(*) FROM games");
    o.wins = db_scalar(db, "SELECT count(*) FROM games g JOIN agents a ON a.id = CASE g.winner WHEN 'B' THEN g.black "
                           "ELSE g.white END WHERE a.name = 'hostile'");
    o.forfeits = db_scalar(db, "SELECT count(*) FROM games WHERE reason <> 'connected'");
    double rate = o.games ? (double)o.wins / (double)o.games : 0, tolerance = 4 * 0.5 / sqrt((double)GAMES);
    if (fabs(rate - 0.5) > tolerance)
        sign(&o, P_WINRATE, "win rate: the hostile bot won %ld of %ld games (%.1f%%; 50%% +- %.1f%% is noise)", o.wins,
             o.games, 100 * rate, 100 * tolerance);
    if (o.forfeits) {
        char reasons[512];
        db_text(db, "SELECT reason || ' x' || count(*) FROM games WHERE reason <> 'connected' GROUP BY reason", reasons,
                sizeof reasons);
        sign(&o, P_FORFEITS, "forfeits: %ld games did not end by a connection (%s)", o.forfeits, reasons);
    }

    /* nothing outside the bot's own directory changed */
    char *now_text = slurp(canary);
    if (strcmp(now_text, canary_text) != 0)
        sign(&o, P_CANARY, "canary: %s changed", canary);
    free(now_text);
    now_text = slurp(cfg);
    if (strcmp(now_text, text) != 0)
        sign(&o, P_CONFIG, "config: %s changed", cfg);
    free(now_text);
    char schema[4096], check[256];
    db_text(db, SCHEMA, schema, sizeof schema);
    db_text(db, "PRAGMA integrity_check", check, sizeof check);
    long consistent =
        db_scalar(db, "SELECT count(*) FROM games g JOIN schedule s ON s.game_id = g.id AND s.id = g.schedule_id "
                      "WHERE g.attempts = (SELECT count(*) FROM attempts a WHERE a.game_id = g.id)");
    if (strcmp(schema, reference) != 0) {
        char extra_names[1024] = "";
        for (char *save = NULL, *t = strtok_r(schema, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            char quoted[300];
            snprintf(quoted, sizeof quoted, ",%s,", t);
            char ref[sizeof reference + 2];
            snprintf(ref, sizeof ref, ",%s,", reference);
            if (!strstr(ref, quoted) && strlen(extra_names) + strlen(t) + 3 < sizeof extra_names)
                strcat(strcat(extra_names, extra_names[0] ? ", " : ""), t);
        }
        sign(&o, P_DATABASE, "database: its schema is not a league's (%s: %s)",
             extra_names[0] ? "not in a league's" : "tables missing", extra_names[0] ? extra_names : reference);
    }
    if (strcmp(check, "ok") != 0)
        sign(&o, P_DATABASE, "database: integrity check: %s", check);
    if (o.games != GAMES || consistent != GAMES || db_scalar(db, "SELECT count(*) FROM schedule") != GAMES ||
        db_scalar(db, "SELECT count(*) FROM leagues") != 1 || db_scalar(db, "SELECT count(*) FROM runs") != 1)
        sign(&o, P_DATABASE, "database: %ld games, %ld of them consistent with the schedule and their attempts; "
             "%d planned", o.games, consistent, GAMES);
    static const char *const beside[] = { "home", "logs", "league.ini", "canary.txt", "results.db", "results.db-wal",
                                          "results.db-shm", NULL };
    char stranger[700];
    snprintf(prefix, sizeof prefix, "league-hostile-%s-", attack);
    if (!only_expected(dir, beside, NULL, stranger, sizeof stranger) ||
        !only_expected(logs, NULL, prefix, stranger, sizeof stranger))
        sign(&o, P_FILES, "files: %s is not the league's", stranger);

    /* nothing it started outlived the league; nothing got out to the network */
    if (survivors)
        sign(&o, P_SURVIVORS, "survivors: %d processes with the tag %s outlived the league", survivors, tag);
    if (reached)
        sign(&o, P_NETWORK, "network: %d connections reached the test's listeners", reached);
    char signs[256];
    signs_text(o.signs, signs, sizeof signs);
    printf("# %s, %s: %.1f s, %ld of %ld games won by the hostile bot, %d ATTACK lines, signs: %s\n", attack,
           sandbox ? "sandbox on" : "sandbox off", o.seconds, o.wins, o.games, o.lines, signs);
    fflush(stdout);
    return o;
}

/* NEEDS THE SANDBOX: the hostile bot, sandboxed by default, must leave no sign at all. */
static void sandboxed(const char *attack)
{
    outcome o = league(attack, true);
    if (o.signs) {
        char signs[256];
        signs_text(o.signs, signs, sizeof signs);
        for (const char *line = o.why; *line; line += strcspn(line, "\n") + 1)
            printf("#   %.*s\n", (int)strcspn(line, "\n"), line);
        fflush(stdout);
        fail_msg("the %s attack got through the sandbox (%s)", attack, signs);
    }
}

static void unsandboxed_attacks_are_detected(void **state)
{
    (void)state;
    int wrong = 0;
    for (int i = 0; i < N_ATTACKS; i++) {
        outcome o = league(ATTACKS[i].attack, false);
        unsigned want = ATTACKS[i].unsandboxed;
        /* every sign expected must be there (a loaded machine may add one, e.g. a timeout: more evidence) */
        bool ok = (o.signs & want) == want;
        if (!want) /* an attack that fails without a sandbox too */
            ok = !(o.signs & P_ATTACK);
        if (strcmp(ATTACKS[i].attack, "seed") == 0 && !(o.signs & (P_ATTACK | P_WINRATE))) {
            ok = true; /* the per-player seeds are keyed: the prediction fails with or without a sandbox */
            printf("# seed: the seed attack fails without a sandbox too (keyed per-player seeds)\n");
        }
        if (!ok) {
            char got[256], expected[256];
            signs_text(o.signs, got, sizeof got);
            signs_text(want, expected, sizeof expected);
            printf("# %s without a sandbox: signs %s, expected %s\n", ATTACKS[i].attack, got, expected);
            for (const char *line = o.why; *line; line += strcspn(line, "\n") + 1)
                printf("#   %.*s\n", (int)strcspn(line, "\n"), line);
            wrong++;
        }
    }
    fflush(stdout);
    if (wrong)
        fail_msg("%d attacks without a sandbox did not leave the signs expected of them (see above)", wrong);
}

static void sandbox_keys_are_parsed(void **state)
{
    (void)state;
    prepare();
    static cfg_league c;
    char err[1024], path[300];
    snprintf(path, sizeof path, "%s/keys.ini", tmp);
    spit(path, "[league]\nname = k\nvariants = classical\nboards = 3x3\ngames = 2\n"
               "[agent a]\ncommand = x\nnetwork = true\nwritable = true\nread = /data/a, /data/b\n"
               "env = OMP_NUM_THREADS=2, CUDA_VISIBLE_DEVICES\n"
               "[agent b]\ncommand = y\nsandbox = off\n");
    assert_int_equal(cfg_load(path, &c, err, sizeof err), 0);
    assert_true(c.sandbox);
    assert_true(c.agents[0].sandbox && c.agents[0].network && c.agents[0].writable);
    assert_int_equal(c.agents[0].n_read, 2);
    assert_string_equal(c.agents[0].read[1], "/data/b");
    assert_int_equal(c.agents[0].n_env, 2);
    assert_string_equal(c.agents[0].env[0], "OMP_NUM_THREADS=2");
    assert_string_equal(c.agents[0].env[1], "CUDA_VISIBLE_DEVICES");
    assert_false(c.agents[1].sandbox);
    assert_false(c.agents[1].network || c.agents[1].writable || c.agents[1].n_read || c.agents[1].n_env);

    spit(path, "[agent a]\ncommand = x\n[agent b]\ncommand = y\n[league]\nname = k\nvariants = classical\n"
               "boards = 3x3\ngames = 2\nsandbox = off\n");
    assert_int_equal(cfg_load(path, &c, err, sizeof err), 0); /* the league's default, whatever the order */
    assert_false(c.sandbox || c.agents[0].sandbox || c.agents[1].sandbox);

    static const struct { const char *key, *expect; } bad[] = {
        { "sandbox = maybe", "keys.ini:9: [agent b] sandbox: 'maybe': expected on or off" },
        { "network = yes", "keys.ini:9: [agent b] network: 'yes': expected true or false" },
        { "writable = 1", "keys.ini:9: [agent b] writable: '1': expected true or false" },
        { "env = 2FAST=1", "keys.ini:9: [agent b] env: '2FAST=1': expected NAME or NAME=value" },
        { "env = A-B", "keys.ini:9: [agent b] env: 'A-B': expected NAME or NAME=value" },
        { "read = /a,/b,/c,/d,/e,/f,/g,/h,/i", "keys.ini:9: [agent b] read: more than 8 paths" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[512]; /* the key on line 9, in [agent b] */
        snprintf(text, sizeof text, "[league]\nname = k\nvariants = classical\nboards = 3x3\ngames = 2\n"
                                    "[agent a]\ncommand = x\n[agent b]\n%s\ncommand = y\n", bad[i].key);
        spit(path, text);
        assert_int_equal(cfg_load(path, &c, err, sizeof err), -1);
        if (!strstr(err, bad[i].expect))
            fail_msg("case %zu: got \"%s\", expected \"%s\"", i, err, bad[i].expect);
    }
    snprintf(path, sizeof path, "%s/keys.ini", tmp);
    spit(path, "[league]\nname = k\nvariants = classical\nboards = 3x3\ngames = 2\nsandbox = yes\n"
               "[agent a]\ncommand = x\n[agent b]\ncommand = y\n");
    assert_int_equal(cfg_load(path, &c, err, sizeof err), -1);
    assert_non_null(strstr(err, "keys.ini:6: [league] sandbox: 'yes': expected on or off"));
}

/* Runs `arena league cfg` with its database and logs in dir; returns its exit status, its stderr in err. */
static int league_err(const char *dir, const char *cfg, char *err, size_t n)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s/arena league %s --db %s/results.db --logs %s/logs --quiet 2>&1 >/dev/null", bin, cfg,
             dir, dir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t got = fread(err, 1, n - 1, p);
    err[got] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* All the logs of dir/logs, concatenated (malloc'd). */
static char *all_logs(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "cat %s/logs/*.log", dir);
    return sh_output(cmd);
}

static void sandboxed_symlink(void **state)
{
    (void)state;
    prepare();
    char dir[300], home[400], victim[400], path[600], cfg[400], err[4096];
    snprintf(dir, sizeof dir, "%s/symlink", tmp);
    snprintf(home, sizeof home, "%s/home", dir);
    snprintf(victim, sizeof victim, "%s/victim", dir);
    assert_int_equal(mkdir(dir, 0755), 0);
    assert_int_equal(sh_run("mkdir -p %s/sub/inner %s && chmod -R 0777 %s && chmod 0755 %s", home, victim, home,
                            victim), 0);
    snprintf(path, sizeof path, "%s/secret.txt", victim); /* readable by anyone who may walk there */
    spit(path, "SYMLINK_VICTIM_SECRET\n");
    snprintf(path, sizeof path, "%s/sub/inner/note.txt", home);
    spit(path, "the bot's own file\n");
    static char text[4096];
    snprintf(text, sizeof text,
             "[league]\nname = symlink\nvariants = classical\nboards = 3x3\ngames = 6\nhandshake_ms = 5000\n"
             "[agent hostile]\ncommand = %s/hostile\nargs = --attack=symlink --swap=sub/inner --target=%s\n"
             "dir = %s\nwritable = true\nread = ./sub/inner\nvariants = classical\nboards = 3x3\n"
             "[agent random]\ncommand = %s/random\nvariants = classical\nboards = 3x3\n", agents, victim, home, bin);
    snprintf(cfg, sizeof cfg, "%s/league.ini", dir);
    spit(cfg, text);
    int status = league_err(dir, cfg, err, sizeof err);
    char *logs = all_logs(dir);
    printf("# arena league: status %d: %.*s\n", status, (int)strcspn(err, "\n"), err);
    if (!strstr(logs, "SWAP sub/inner -> "))
        fail_msg("the bot did not swap sub/inner for a link (the test proves nothing):\n%s", logs);
    if (strstr(logs, "SYMLINK_VICTIM_SECRET") || strstr(logs, ": SUCCEEDED"))
        fail_msg("the bot read the other bot's secret through its link:\n%s", logs);
    free(logs);
    /* the league goes on: every game is played, and those of the bot whose sandbox is refused are forfeited with
     * the refusal (naming the path and the link) as their detail */
    assert_int_equal(status, 0);
    char db[400], sql[900];
    snprintf(db, sizeof db, "%s/results.db", dir);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), 6);
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM games g JOIN agents a ON a.id = CASE g.winner WHEN 'B' THEN g.white ELSE g.black END"
             " WHERE a.name = 'hostile' AND g.reason = 'crash' AND g.detail LIKE '%%cannot start it again%%'"
             " AND g.detail LIKE '%%''./sub/inner''%%' AND g.detail LIKE '%%/sub/inner is a symbolic link%%'"
             " AND g.detail LIKE '%%%s%%'", victim);
    if (db_scalar(db, sql) < 1)
        fail_msg("no game forfeited with the refusal naming the path and the link: %s", err);
}

/* Fails when text holds `what` (named `why`), quoting the line. */
static void shows_none(const char *text, const char *what, const char *why)
{
    const char *at = strstr(text, what);
    if (!at)
        return;
    const char *line = at;
    while (line > text && line[-1] != '\n')
        line--;
    fail_msg("a bot sees %s (%s): %.*s", why, what, (int)strcspn(line, "\n"), line);
}

static void sandboxed_view(void **state)
{
    (void)state;
    prepare();
    char dir[300], home[64] = "/tmp/hx-view-XXXXXX", cfg[400], pid_dir[64];
    snprintf(dir, sizeof dir, "%s/view", tmp);
    assert_int_equal(mkdir(dir, 0755), 0);
    assert_non_null(mkdtemp(home)); /* the bot's own directory, away from the test's */
    assert_int_equal(chmod(home, 0755), 0);
    static char text[4096];
    snprintf(text, sizeof text,
             "[league]\nname = view\nvariants = classical\nboards = 3x3\ngames = 2\nhandshake_ms = 5000\n"
             "[agent hostile]\ncommand = %s/hostile\nargs = --attack=view\ndir = %s\nvariants = classical\n"
             "boards = 3x3\n[agent random]\ncommand = %s/random\nvariants = classical\nboards = 3x3\n", agents, home, bin);
    snprintf(cfg, sizeof cfg, "%s/league.ini", dir);
    spit(cfg, text);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s/arena league %s --db %s/results.db --logs %s/logs --quiet 2>&1 >/dev/null & "
             "echo $!; wait $! || echo failed", bin, cfg, dir, dir);
    char *out = sh_output(cmd); /* the coordinator's pid, and "failed" after it when the league failed */
    if (strstr(out, "failed"))
        fail_msg("arena league failed: %s", out);
    snprintf(pid_dir, sizeof pid_dir, "arena-%ld-", strtol(out, NULL, 10));
    free(out);
    char *logs = all_logs(dir), *views = calloc(1, strlen(logs) + 1);
    assert_non_null(views);
    int lines = 0;
    for (const char *l = logs; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != '\0')) {
        size_t len = strcspn(l, "\n");
        if (strncmp(l, "VIEW ", 5) == 0) { /* its stdout and stderr too: a pipe, not its log file */
            strncat(views, l, len);
            strcat(views, "\n");
            lines++;
        }
    }
    printf("# %d VIEW lines, e.g. the socket: %.200s\n", lines, strstr(views, "/run/arena.sock") ? "shown" : "absent");
    assert_true(lines > 5 && strstr(views, "VIEW mount ") && strstr(views, "VIEW fd 0 ") && strstr(views, "VIEW fd 1 "));
    shows_none(views, pid_dir, "the coordinator's pid-named directory");
    shows_none(views, tmp, "the test's directory (the database, the config, the logs)");
    shows_none(views, strrchr(tmp, '/') + 1, "the name of the test's directory");
    free(views);
    free(logs);
    assert_int_equal(sh_run("rm -rf %s", home), 0);
}

#define SANDBOXED(NAME)                                                                                           \
    static void sandboxed_##NAME(void **state)                                                                    \
    {                                                                                                             \
        (void)state;                                                                                              \
        sandboxed(#NAME);                                                                                         \
    }
SANDBOXED(procmem)
SANDBOXED(procfd)
SANDBOXED(token)
SANDBOXED(seed)
SANDBOXED(files)
SANDBOXED(signal)
SANDBOXED(escape)
SANDBOXED(env)
SANDBOXED(network)
SANDBOXED(ipc)
SANDBOXED(fds)

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sandbox_keys_are_parsed),
        cmocka_unit_test(unsandboxed_attacks_are_detected),
        /* these need the sandbox (and sandboxed_seed the keyed per-player seeds) */
        cmocka_unit_test(sandboxed_procmem),
        cmocka_unit_test(sandboxed_procfd),
        cmocka_unit_test(sandboxed_token),
        cmocka_unit_test(sandboxed_seed),
        cmocka_unit_test(sandboxed_files),
        cmocka_unit_test(sandboxed_signal),
        cmocka_unit_test(sandboxed_escape),
        cmocka_unit_test(sandboxed_env),
        cmocka_unit_test(sandboxed_network),
        cmocka_unit_test(sandboxed_ipc),
        cmocka_unit_test(sandboxed_fds),
        cmocka_unit_test(sandboxed_symlink),
        cmocka_unit_test(sandboxed_view),
    };
    return cmocka_run_group_tests(tests, e2e_setup, e2e_teardown);
}
