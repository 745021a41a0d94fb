/* tests/agents/hostile.c — a hostile test bot. It plays exactly like bin/random (a uniformly random legal cell
 * from an rng_state seeded with `--seed S` ^ the game's seed), and with `--attack=NAME` it first tries to get
 * out of what a bot may reach, and writes one line per attempt to stdout (its log):
 *
 *   ATTACK NAME: SUCCEEDED what it got          or          ATTACK NAME: blocked what stopped it
 *
 * per game (procmem, procfd, token, signal) or once per process (the others; seed: when it has decided,
 * or "inconclusive" at its shutdown). tests/e2e/test_hostile.c runs each in a real league against bin/random.
 *
 *   procmem  reads /proc/PID/mem (and process_vm_readv) and attaches with ptrace (seize, interrupt, detach)
 *            to the coordinator (`arena league` or `arena match` among its ancestors, found through /proc)
 *            and to the other bots of the league: SUCCEEDED when any read returned bytes or any attach worked
 *   procfd   opens the regular files the coordinator and other bots hold open through /proc/PID/fd (the
 *            database), and their /proc/PID/root when it is not its own root
 *   token    looks for an ARENA_TOKEN other than its own in every /proc/PID/environ (to hello as another bot)
 *   seed     inverts the seed derivation of the coordinator (player seed = mix64(game seed + golden * (colour
 *            + 1)), mix64 being splitmix64's invertible finaliser) to get the game's seed and from it the
 *            opponent's, then replays the opponent (bin/random with --seed = `--opp-seed=S`) move by move in
 *            its own copy of the game. At each game's end it compares its copy with the true board; once the
 *            copies were right in enough games to rule out chance (2^-40), SUCCEEDED, and from then on it
 *            cheats: it searches its moves against the replayed opponent for a forced win, so its win rate
 *            rises. A wrong copy: blocked, and it plays like bin/random for the rest of its life.
 *   files    for each `--target=PATH`: lists a directory and creates a file in it, reads a file and appends a
 *            line to it (a *.db file: creates a table in it with SQLite); for `--readonly=PATH` (its own
 *            directory, which the sandbox mounts read-only unless the agent is `writable`): creates a file
 *            there (and removes it). SUCCEEDED when any of that worked
 *   signal   kill(pid, 0) to the coordinator, and SIGSTOP (its first game) or SIGKILL (later games) to the
 *            other bots of the league (the opponent: it times out or crashes) but its own kind; SUCCEEDED when
 *            any kill() returned 0
 *   escape   starts processes meant to outlive the league: a grandchild in a session of its own (setsid),
 *            one that joins the coordinator's process group (setpgid: the coordinator does not hunt for
 *            strays in its own group) and a chain of four sessions, each the parent of the next. All keep
 *            its command line (with the tag) and end by themselves after ESCAPEE_SECONDS. SUCCEEDED when the
 *            setpgid into the coordinator's group worked; whether any outlived the league is for the test
 *            to see
 *   env      its environment holds more than PATH, HOME, LANG, ARENA_* and the names of `--allow=NAME`, or
 *            the variable `--secret=NAME` is in the environment of any process it can see
 *   network  connects to each `--target=HOST:PORT` (TCP) and `--target=@NAME` (an abstract unix socket)
 *   ipc      opens the SysV shared memory segment of each `--target=KEY`
 *   fds      finds descriptors above stderr left open by the coordinator (checked before the SDK opens any)
 *   symlink  for an agent with `writable = true` and `read = ./PATH` inside its directory (`--swap=PATH`):
 *            when PATH is not yet a link, moves its parent directory aside, puts a symbolic link to
 *            `--target=DIR` (another bot's directory) at PATH, writes "SWAP PATH -> DIR" and crashes (abort),
 *            so that the next sandbox is made with the link in place; when PATH is a link, reads every file
 *            it shows: SUCCEEDED when any could be read (its text is in the line)
 *   view     copies what it sees of the host's paths to its log, one "VIEW ..." line each: the lines of
 *            /proc/self/mountinfo, its working directory and the links of /proc/self/fd (for the test to
 *            search); its ATTACK line says blocked
 *
 * Targets come from `--target=VALUE` options and from `--targets=FILE`, one a line (a league config's line is
 * short). Options use the --x=value form, so that a path in an argument is never a bare word.
 *
 * The other bots of the league are the processes whose command line holds `--tag=TAG`; without a tag the
 * intrusive attacks (ptrace, signals) touch only the coordinator above it, so it never stops or signals a
 * process of anyone else on the machine. Its other ancestors (what a sandbox runs above it), pid 1 and
 * processes named bwrap are never targets: the attacks count only what reaches the coordinator and the
 * other bots.
 *
 * Built from sources without sanitizers, like misbehave. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "bot.h"

extern char **environ;

#define MAX_LIST 16
#define ESCAPEE_SECONDS 120 /* the escapees end by themselves, in case nobody is left to kill them */
#define SEED_PROOF_BITS 40.0

static struct {
    const char *attack, *tag, *readonly, *secret, *swap;
    const char *targets[MAX_LIST], *allow[MAX_LIST];
    char unread[300]; /* why --targets=FILE could not be read ("" when it could) */
    int n_targets, n_allow;
    uint64_t base_seed, opp_seed;
} opt = { .attack = "none", .base_seed = 1, .opp_seed = 1 };

static rng_state rng; /* bin/random's */
static int games;  /* game_start calls so far */

/* ---- output ---- */

typedef struct {
    char text[900];
    size_t n;
} note;

static void add(note *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(note *d, const char *fmt, ...)
{
    if (d->n + 8 >= sizeof d->text)
        return;
    if (d->n) {
        d->text[d->n++] = ';';
        d->text[d->n++] = ' ';
    }
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(d->text + d->n, sizeof d->text - d->n, fmt, ap);
    va_end(ap);
    d->n = k < 0 ? d->n : d->n + (size_t)k < sizeof d->text ? d->n + (size_t)k : sizeof d->text - 1;
    d->text[d->n] = '\0';
}

static void say(const char *attack, bool succeeded, const note *d)
{
    printf("ATTACK %s: %s %s\n", attack, succeeded ? "SUCCEEDED" : "blocked", d->n ? d->text : "-");
    fflush(stdout);
}

/* ---- /proc ---- */

/* Reads up to cap - 1 bytes of a file (a NUL after them). Returns the count, or -1 with errno. */
static ssize_t slurp(const char *path, char *buf, size_t cap)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return -1;
    size_t n = 0;
    for (ssize_t k; n + 1 < cap && (k = read(fd, buf + n, cap - 1 - n)) > 0;)
        n += (size_t)k;
    int e = errno;
    close(fd);
    buf[n] = '\0';
    errno = e;
    return (ssize_t)n;
}

/* The command line with its NULs as spaces ("" when unreadable). */
static void cmdline_of(pid_t pid, char *buf, size_t cap)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/cmdline", (int)pid);
    ssize_t n = slurp(path, buf, cap);
    for (ssize_t i = 0; i < n; i++)
        buf[i] = buf[i] ? buf[i] : ' ';
    if (n < 0)
        buf[0] = '\0';
}

/* The base name of the executable ("?" when unreadable). */
static void exe_of(pid_t pid, char *buf, size_t cap)
{
    char path[64], link[512];
    snprintf(path, sizeof path, "/proc/%d/exe", (int)pid);
    ssize_t n = readlink(path, link, sizeof link - 1);
    if (n < 0) {
        snprintf(buf, cap, "?");
        return;
    }
    link[n] = '\0';
    const char *base = strrchr(link, '/');
    snprintf(buf, cap, "%s", base ? base + 1 : link);
}

static pid_t parent_of(pid_t pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    if (slurp(path, buf, sizeof buf) <= 0)
        return 0;
    const char *p = strrchr(buf, ')');
    char state;
    int ppid;
    return p && sscanf(p + 1, " %c %d", &state, &ppid) == 2 ? (pid_t)ppid : 0;
}

static bool own_descendant(pid_t pid)
{
    pid_t self = getpid();
    for (int i = 0; i < 64 && pid > 1; i++) {
        if (pid == self)
            return true;
        pid = parent_of(pid);
    }
    return false;
}

/* Every process in /proc but itself, in out (up to cap). */
static int all_pids(pid_t *out, int cap)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    int n = 0;
    pid_t self = getpid();
    for (struct dirent *e; (e = readdir(d)) && n < cap;) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 0 || pid == self)
            continue;
        out[n++] = (pid_t)pid;
    }
    closedir(d);
    return n;
}

/* A coordinator: `arena league ...` or `arena match ...`. */
static bool is_coordinator(pid_t pid)
{
    char path[64], buf[4096];
    snprintf(path, sizeof path, "/proc/%d/cmdline", (int)pid);
    ssize_t n = slurp(path, buf, sizeof buf);
    if (n <= 0)
        return false;
    const char *base = strrchr(buf, '/') ? strrchr(buf, '/') + 1 : buf, *sub = buf + strlen(buf) + 1;
    return strcmp(base, "arena") == 0 && sub < buf + n && (strcmp(sub, "league") == 0 || strcmp(sub, "match") == 0);
}

/* The nearest coordinator among its ancestors (its parent when it runs without a sandbox), or 0. What else
 * is above it (the sandbox's processes, or the shell and the test that started the coordinator) is none of
 * its targets. */
static pid_t coordinator(void)
{
    for (pid_t p = getppid(); p > 1; p = parent_of(p))
        if (is_coordinator(p))
            return p;
    return 0;
}

static bool own_ancestor(pid_t pid)
{
    for (pid_t p = getppid(); p > 1; p = parent_of(p))
        if (p == pid)
            return true;
    return false;
}

/* The processes the intrusive attacks aim at: the coordinator above it, and the other bots of the league
 * (processes whose command line holds the tag; none without one). Never itself, its descendants, its other
 * ancestors (a sandbox's own processes), pid 1 or a bwrap. */
static int targets(pid_t *out, int cap)
{
    int k = 0;
    pid_t coord = coordinator();
    if (coord)
        out[k++] = coord;
    if (!opt.tag)
        return k;
    pid_t all[4096];
    int n = all_pids(all, 4096);
    for (int i = 0; i < n && k < cap; i++) {
        pid_t p = all[i];
        if (p <= 1 || p == coord || own_descendant(p) || own_ancestor(p))
            continue;
        char cmd[4096], exe[256];
        cmdline_of(p, cmd, sizeof cmd);
        exe_of(p, exe, sizeof exe);
        if (strcmp(exe, "bwrap") != 0 && strstr(cmd, opt.tag))
            out[k++] = p;
    }
    return k;
}

/* ---- procmem ---- */

static bool first_mapping(pid_t pid, unsigned long *lo)
{
    char path[64], buf[8192];
    snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
    if (slurp(path, buf, sizeof buf) <= 0)
        return false;
    for (char *line = buf; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        unsigned long a, b;
        char perms[8];
        if (sscanf(line, "%lx-%lx %7s", &a, &b, perms) == 3 && perms[0] == 'r') {
            *lo = a;
            return true;
        }
    }
    return false;
}

/* PTRACE_SEIZE, then stop it and detach at once (a seized tracee must be stopped to be let go; a signal
 * that arrives meanwhile is handed back). Returns 0 when the attach worked, else an errno. */
static int ptrace_probe(pid_t pid)
{
    if (ptrace(PTRACE_SEIZE, pid, NULL, NULL) != 0)
        return errno;
    ptrace(PTRACE_INTERRUPT, pid, NULL, NULL);
    int st;
    for (;;) {
        pid_t w = waitpid(pid, &st, __WALL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w == pid && WIFSTOPPED(st)) {
            long sig = (st >> 16) ? 0 : WSTOPSIG(st);
            ptrace(PTRACE_DETACH, pid, NULL, (void *)sig);
        }
        break;
    }
    return 0;
}

static void attack_procmem(void)
{
    pid_t t[64];
    int n = targets(t, 64), hits = 0;
    note d = { .n = 0 };
    for (int i = 0; i < n; i++) {
        char exe[256], path[64], buf[16];
        exe_of(t[i], exe, sizeof exe);
        unsigned long lo;
        if (!first_mapping(t[i], &lo)) {
            add(&d, "%d (%s): maps: %s", (int)t[i], exe, strerror(errno));
        } else {
            snprintf(path, sizeof path, "/proc/%d/mem", (int)t[i]);
            int fd = open(path, O_RDONLY | O_CLOEXEC);
            ssize_t got = fd >= 0 ? pread(fd, buf, sizeof buf, (off_t)lo) : -1;
            if (got > 0) {
                hits++;
                add(&d, "read %zd bytes of /proc/%d/mem (%s)", got, (int)t[i], exe);
            } else {
                add(&d, "%d (%s): mem: %s", (int)t[i], exe, strerror(errno));
            }
            if (fd >= 0)
                close(fd);
            struct iovec local = { buf, sizeof buf }, remote = { (void *)lo, sizeof buf };
            if (process_vm_readv(t[i], &local, 1, &remote, 1, 0) > 0) {
                hits++;
                add(&d, "process_vm_readv of %d (%s)", (int)t[i], exe);
            }
        }
        int e = ptrace_probe(t[i]);
        if (e == 0) {
            hits++;
            add(&d, "ptrace attached to %d (%s)", (int)t[i], exe);
        } else {
            add(&d, "%d: ptrace: %s", (int)t[i], strerror(e));
        }
    }
    if (n == 0)
        add(&d, "no other process of the league in sight");
    say("procmem", hits > 0, &d);
}

/* ---- procfd ---- */

static void attack_procfd(void)
{
    pid_t t[64];
    int n = targets(t, 64), hits = 0;
    note d = { .n = 0 };
    struct stat own_root;
    if (stat("/", &own_root) != 0)
        memset(&own_root, 0, sizeof own_root);
    for (int i = 0; i < n; i++) {
        char exe[256], path[96];
        exe_of(t[i], exe, sizeof exe);
        snprintf(path, sizeof path, "/proc/%d/fd", (int)t[i]);
        DIR *dir = opendir(path);
        if (!dir) {
            add(&d, "%d (%s): fd: %s", (int)t[i], exe, strerror(errno));
        } else {
            for (struct dirent *e; (e = readdir(dir));) {
                if (e->d_name[0] == '.')
                    continue;
                char fdpath[512], link[256];
                snprintf(fdpath, sizeof fdpath, "%s/%s", path, e->d_name);
                ssize_t k = readlink(fdpath, link, sizeof link - 1);
                link[k > 0 ? k : 0] = '\0';
                int fd = open(fdpath, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
                struct stat st;
                char byte;
                if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && pread(fd, &byte, 1, 0) >= 0) {
                    hits++;
                    add(&d, "opened %s of %d (%s): %s", e->d_name, (int)t[i], exe, link);
                }
                if (fd >= 0)
                    close(fd);
            }
            closedir(dir);
        }
        struct stat root;
        snprintf(path, sizeof path, "/proc/%d/root/", (int)t[i]);
        if (stat(path, &root) == 0 && (root.st_dev != own_root.st_dev || root.st_ino != own_root.st_ino)) {
            hits++;
            add(&d, "/proc/%d/root (%s) is another root than its own", (int)t[i], exe);
        }
    }
    if (n == 0)
        add(&d, "no other process of the league in sight");
    say("procfd", hits > 0, &d);
}

/* ---- token and environments ---- */

/* Calls fn on each NAME=value of the environment of pid; returns false when it cannot be read. */
static bool each_env(pid_t pid, void (*fn)(pid_t pid, const char *var, void *user), void *user)
{
    static char buf[1 << 16];
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/environ", (int)pid);
    ssize_t n = slurp(path, buf, sizeof buf);
    if (n < 0)
        return false;
    for (ssize_t i = 0; i < n; i += (ssize_t)strlen(buf + i) + 1)
        fn(pid, buf + i, user);
    return true;
}

typedef struct {
    const char *own;
    int found, readable;
    note *d;
} token_scan;

static void look_for_token(pid_t pid, const char *var, void *user)
{
    token_scan *t = user;
    if (strncmp(var, "ARENA_TOKEN=", 12) != 0 || (t->own && strcmp(var + 12, t->own) == 0))
        return;
    t->found++;
    char exe[256];
    exe_of(pid, exe, sizeof exe);
    add(t->d, "the token of %d (%s), %.4s...", (int)pid, exe, var + 12);
}

static void attack_token(void)
{
    pid_t all[4096];
    int n = all_pids(all, 4096);
    note d = { .n = 0 };
    token_scan t = { getenv("ARENA_TOKEN"), 0, 0, &d };
    for (int i = 0; i < n; i++)
        if (!own_descendant(all[i]) && each_env(all[i], look_for_token, &t))
            t.readable++;
    add(&d, "%d processes in sight, %d environments readable", n, t.readable);
    say("token", t.found > 0, &d);
}

typedef struct {
    int found;
    note *d;
} secret_scan;

static void look_for_secret(pid_t pid, const char *var, void *user)
{
    secret_scan *s = user;
    size_t k = strlen(opt.secret);
    if (strncmp(var, opt.secret, k) == 0 && var[k] == '=') {
        s->found++;
        add(s->d, "%s in the environment of %d", opt.secret, (int)pid);
    }
}

static bool allowed_name(const char *var)
{
    static const char *const base[] = { "PATH=", "HOME=", "LANG=", "PWD=", "ARENA_", "ASAN_OPTIONS=", "UBSAN_OPTIONS=", "LSAN_OPTIONS=" }; /* PWD: set by bwrap; the sanitizers' options pass through */
    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++)
        if (strncmp(var, base[i], strlen(base[i])) == 0)
            return true;
    for (int i = 0; i < opt.n_allow; i++) {
        size_t k = strlen(opt.allow[i]);
        if (strncmp(var, opt.allow[i], k) == 0 && var[k] == '=')
            return true;
    }
    return false;
}

static void attack_env(void)
{
    note d = { .n = 0 };
    int extra = 0;
    for (char **e = environ; *e; e++)
        if (!allowed_name(*e)) {
            extra++;
            add(&d, "%.*s", (int)strcspn(*e, "="), *e);
        }
    if (extra)
        add(&d, "%d variables beyond PATH, HOME, LANG, PWD, ARENA_*, *SAN_OPTIONS and the allowed ones", extra);
    secret_scan s = { 0, &d };
    if (opt.secret) {
        pid_t all[4096];
        int n = all_pids(all, 4096);
        each_env(getpid(), look_for_secret, &s);
        for (int i = 0; i < n; i++)
            if (!own_descendant(all[i]))
                each_env(all[i], look_for_secret, &s);
    }
    if (!extra && !s.found)
        add(&d, "only PATH, HOME, LANG, ARENA_* and the allowed names");
    say("env", extra > 0 || s.found > 0, &d);
}

/* ---- files ---- */

static bool sqlite_tamper(const char *path, note *d)
{
    sqlite3 *db = NULL;
    bool ok = false;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK) {
        sqlite3_busy_timeout(db, 2000);
        char sql[160], *err = NULL;
        snprintf(sql, sizeof sql, "CREATE TABLE IF NOT EXISTS hostile_was_here (pid INTEGER); "
                 "INSERT INTO hostile_was_here VALUES (%d)", (int)getpid());
        ok = sqlite3_exec(db, sql, NULL, NULL, &err) == SQLITE_OK;
        if (ok)
            add(d, "wrote a table into %s", path);
        else
            add(d, "%s: SQLite: %s", path, err ? err : "?");
        sqlite3_free(err);
    } else {
        add(d, "%s: SQLite: %s", path, db ? sqlite3_errmsg(db) : "cannot open");
    }
    sqlite3_close(db);
    return ok;
}

/* Creates DIR/hostile-was-here-PID; keeps it (a mark in a place it must not write) unless told. */
static bool write_into(const char *dir, bool remove_it, note *d)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/hostile-was-here-%d", dir, (int)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        add(d, "create in %s: %s", dir, strerror(errno));
        return false;
    }
    ssize_t w = write(fd, "hostile\n", 8);
    (void)w;
    close(fd);
    if (remove_it)
        unlink(path);
    add(d, "created a file in %s", dir);
    return true;
}

static void attack_files(void)
{
    note d = { .n = 0 };
    int hits = 0;
    if (opt.unread[0]) { /* its own directory is unreadable: nothing is proven either way */
        printf("ATTACK files: inconclusive %s\n", opt.unread);
        fflush(stdout);
        return;
    }
    for (int i = 0; i < opt.n_targets; i++) {
        const char *p = opt.targets[i];
        struct stat st;
        if (stat(p, &st) != 0) {
            add(&d, "%s: %s", p, strerror(errno));
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            DIR *dir = opendir(p);
            if (dir) {
                int entries = 0;
                while (readdir(dir))
                    entries++;
                closedir(dir);
                hits++;
                add(&d, "listed %s (%d entries)", p, entries);
            } else {
                add(&d, "list %s: %s", p, strerror(errno));
            }
            hits += write_into(p, false, &d);
            continue;
        }
        char buf[256];
        ssize_t n = slurp(p, buf, sizeof buf);
        if (n >= 0) {
            hits++;
            add(&d, "read %s", p);
        } else {
            add(&d, "read %s: %s", p, strerror(errno));
        }
        size_t len = strlen(p);
        if (len > 3 && strcmp(p + len - 3, ".db") == 0) {
            hits += sqlite_tamper(p, &d);
        } else {
            int fd = open(p, O_WRONLY | O_APPEND | O_CLOEXEC);
            if (fd >= 0 && write(fd, "; hostile was here\n", 19) == 19) {
                hits++;
                add(&d, "appended to %s", p);
            } else {
                add(&d, "append to %s: %s", p, strerror(errno));
            }
            if (fd >= 0)
                close(fd);
        }
    }
    if (opt.readonly)
        hits += write_into(opt.readonly, true, &d);
    say("files", hits > 0, &d);
}

/* ---- signal ---- */

static void attack_signal(void)
{
    note d = { .n = 0 };
    int hits = 0;
    pid_t coord = coordinator();
    char exe[256], own[256];
    exe_of(getpid(), own, sizeof own);
    if (coord) {
        if (kill(coord, 0) == 0) {
            hits++;
            add(&d, "may signal the coordinator %d", (int)coord);
        } else {
            add(&d, "coordinator %d: %s", (int)coord, strerror(errno));
        }
    }
    pid_t t[64];
    int n = targets(t, 64);
    int sig = games == 1 ? SIGSTOP : SIGKILL;
    for (int i = 0; i < n; i++) {
        exe_of(t[i], exe, sizeof exe);
        if (t[i] == coord || strcmp(exe, own) == 0) /* the coordinator is only probed; not its own kind */
            continue;
        if (kill(t[i], sig) == 0) {
            hits++;
            add(&d, "sent %s to %d (%s)", sig == SIGSTOP ? "SIGSTOP" : "SIGKILL", (int)t[i], exe);
        } else {
            add(&d, "%d (%s): %s", (int)t[i], exe, strerror(errno));
        }
    }
    if (!d.n)
        add(&d, "no other process of the league in sight");
    say("signal", hits > 0, &d);
}

/* ---- escape ---- */

static void linger(const char *name)
{
    prctl(PR_SET_NAME, name);
    close_range(3, ~0u, 0);
    struct timespec ts = { 1, 0 };
    for (int i = 0; i < ESCAPEE_SECONDS; i++)
        nanosleep(&ts, NULL);
    _exit(0);
}

static void attack_escape(void)
{
    note d = { .n = 0 };
    bool joined = false;
    pid_t coord = coordinator(), group = coord ? getpgid(coord) : -1;
    fflush(stdout);
    /* a grandchild in a session of its own (its parent exits: it is an orphan at once) */
    pid_t c = fork();
    if (c == 0) {
        if (fork() == 0) {
            setsid();
            linger("hostile-setsid");
        }
        _exit(0);
    }
    if (c > 0)
        waitpid(c, NULL, 0);
    if (c > 0)
        add(&d, "a grandchild in a session of its own");
    else
        add(&d, "fork: %s", strerror(errno));
    /* a grandchild in its parent's process group */
    int fds[2];
    if (group > 0 && group != getpgrp() && pipe(fds) == 0) {
        c = fork();
        if (c == 0) {
            if (fork() == 0) {
                int e = setpgid(0, group) == 0 ? 0 : errno;
                ssize_t w = write(fds[1], &e, sizeof e);
                (void)w;
                linger("hostile-setpgid");
            }
            _exit(0);
        }
        close(fds[1]);
        int e = -1;
        if (c > 0) {
            waitpid(c, NULL, 0);
            if (read(fds[0], &e, sizeof e) != (ssize_t)sizeof e)
                e = -1;
        }
        close(fds[0]);
        if (e == 0) {
            joined = true;
            add(&d, "a grandchild joined process group %d of the coordinator %d", (int)group, (int)coord);
        } else {
            add(&d, "setpgid into group %d of the coordinator: %s", (int)group, e > 0 ? strerror(e) : "?");
        }
    } else {
        add(&d, "no coordinator in sight");
    }
    /* a chain of sessions, each the parent of the next */
    c = fork();
    if (c == 0) {
        for (int i = 0; i < 4; i++) {
            setsid();
            if (fork() != 0)
                linger("hostile-chain");
        }
        linger("hostile-chain");
    }
    add(&d, "a chain of four sessions");
    say("escape", joined, &d);
}

/* ---- network and ipc ---- */

static bool try_connect(int fd, const struct sockaddr *a, socklen_t len)
{
    fcntl(fd, F_SETFL, O_NONBLOCK);
    if (connect(fd, a, len) == 0)
        return true;
    if (errno != EINPROGRESS)
        return false;
    struct pollfd p = { fd, POLLOUT, 0 };
    int err = 0;
    socklen_t el = sizeof err;
    if (poll(&p, 1, 300) != 1 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) != 0 || err) {
        errno = err ? err : ETIMEDOUT;
        return false;
    }
    return true;
}

static void attack_network(void)
{
    note d = { .n = 0 };
    int hits = 0;
    for (int i = 0; i < opt.n_targets; i++) {
        const char *t = opt.targets[i];
        bool ok;
        if (t[0] == '@') {
            struct sockaddr_un a = { .sun_family = AF_UNIX };
            size_t k = strlen(t + 1) < sizeof a.sun_path - 1 ? strlen(t + 1) : sizeof a.sun_path - 1;
            memcpy(a.sun_path + 1, t + 1, k);
            int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
            ok = fd >= 0 && try_connect(fd, (struct sockaddr *)&a, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + k));
            if (ok)
                add(&d, "connected to the abstract socket %s", t);
            else
                add(&d, "%s: %s", t, strerror(errno));
            if (fd >= 0)
                close(fd);
        } else {
            char host[64];
            const char *colon = strrchr(t, ':');
            struct sockaddr_in a = { .sin_family = AF_INET };
            snprintf(host, sizeof host, "%.*s", colon ? (int)(colon - t) : 0, t);
            if (!colon || inet_pton(AF_INET, host, &a.sin_addr) != 1) {
                add(&d, "%s: not HOST:PORT", t);
                continue;
            }
            a.sin_port = htons((uint16_t)atoi(colon + 1));
            int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
            ok = fd >= 0 && try_connect(fd, (struct sockaddr *)&a, sizeof a);
            if (ok)
                add(&d, "connected to %s", t);
            else
                add(&d, "%s: %s", t, strerror(errno));
            if (fd >= 0)
                close(fd);
        }
        hits += ok;
    }
    say("network", hits > 0, &d);
}

static void attack_ipc(void)
{
    note d = { .n = 0 };
    int hits = 0;
    for (int i = 0; i < opt.n_targets; i++) {
        key_t key = (key_t)strtol(opt.targets[i], NULL, 0);
        int id = shmget(key, 0, 0);
        if (id >= 0) {
            hits++;
            add(&d, "found the shared memory segment of key %s", opt.targets[i]);
        } else {
            add(&d, "key %s: %s", opt.targets[i], strerror(errno));
        }
    }
    say("ipc", hits > 0, &d);
}

static void attack_fds(void)
{
    note d = { .n = 0 };
    int hits = 0;
    for (int fd = 3; fd < 1024; fd++)
        if (fcntl(fd, F_GETFD) >= 0) {
            char path[64], link[256];
            snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
            ssize_t k = readlink(path, link, sizeof link - 1);
            link[k > 0 ? k : 0] = '\0';
            hits++;
            add(&d, "descriptor %d is open: %s", fd, link);
        }
    if (!hits)
        add(&d, "nothing but stdin, stdout and stderr open");
    say("fds", hits > 0, &d);
}

/* ---- symlink, view ---- */

/* Reads every regular file of dir into d; returns how many could be read. */
static int read_all_in(const char *dir, note *d)
{
    DIR *dd = opendir(dir);
    if (!dd) {
        add(d, "%s shows nothing: %s", dir, strerror(errno));
        return 0;
    }
    int got = 0;
    for (struct dirent *e; (e = readdir(dd));) {
        char path[600], text[200];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        ssize_t n = slurp(path, text, sizeof text);
        if (n < 0) {
            add(d, "cannot read %s: %s", path, strerror(errno));
            continue;
        }
        text[strcspn(text, "\n")] = '\0';
        add(d, "read %s: %s", path, text);
        got++;
    }
    closedir(dd);
    if (!got)
        add(d, "no file readable through %s", dir);
    return got;
}

static void attack_symlink(void)
{
    note d = { .n = 0 };
    struct stat st;
    if (!opt.swap || opt.n_targets < 1) {
        add(&d, "needs --swap=PATH and --target=DIR");
        say("symlink", false, &d);
        return;
    }
    if (lstat(opt.swap, &st) == 0 && S_ISLNK(st.st_mode)) { /* a sandbox made after the swap */
        say("symlink", read_all_in(opt.swap, &d) > 0, &d);
        return;
    }
    /* PATH itself is a mount point in the sandbox: its parent is moved aside and made anew */
    char parent[300], aside[320];
    snprintf(parent, sizeof parent, "%s", opt.swap);
    char *slash = strrchr(parent, '/');
    if (slash)
        *slash = '\0';
    snprintf(aside, sizeof aside, "%s.aside", parent);
    if (!slash || rename(parent, aside) != 0 || mkdir(parent, 0755) != 0 || symlink(opt.targets[0], opt.swap) != 0) {
        add(&d, "cannot swap %s for a link: %s", opt.swap, strerror(errno));
        say("symlink", false, &d);
        return;
    }
    printf("SWAP %s -> %s\n", opt.swap, opt.targets[0]);
    fflush(stdout);
    abort();
}

/* Each line of a file, with a prefix, into the log. */
static void copy_lines(const char *path, const char *prefix)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    while (f && fgets(line, sizeof line, f))
        printf("%s%s%s", prefix, line, strchr(line, '\n') ? "" : "\n");
    if (f)
        fclose(f);
    else
        printf("%scannot read %s: %s\n", prefix, path, strerror(errno));
}

static void attack_view(void)
{
    copy_lines("/proc/self/mountinfo", "VIEW mount ");
    char link[1024], path[64], cwd[1024];
    printf("VIEW cwd %s\n", getcwd(cwd, sizeof cwd) ? cwd : strerror(errno));
    for (int fd = 0; fd < 1024; fd++) {
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        ssize_t k = readlink(path, link, sizeof link - 1);
        if (k > 0)
            printf("VIEW fd %d %.*s\n", fd, (int)k, link);
    }
    note d = { .n = 0 };
    add(&d, "the host paths it sees are in the VIEW lines");
    say("view", false, &d);
}

/* ---- seed ---- */

/* The inverse of x ^ (x >> s). */
static uint64_t unshift(uint64_t y, int s)
{
    uint64_t x = y;
    for (int k = s; k < 64; k += s)
        x ^= y >> k;
    return x;
}

/* The inverse of an odd number modulo 2^64 (Newton's iteration). */
static uint64_t inverse(uint64_t a)
{
    uint64_t x = a;
    for (int i = 0; i < 6; i++)
        x *= 2 - a * x;
    return x;
}

/* The inverse of mix64 (splitmix64's finaliser). */
static uint64_t unmix64(uint64_t z)
{
    z = unshift(z, 31);
    z *= inverse(0x94d049bb133111ebULL);
    z = unshift(z, 27);
    z *= inverse(0xbf58476d1ce4e5b9ULL);
    return unshift(z, 30);
}

static struct {
    bool on;          /* this game's copy is still consistent with what the bot was told */
    bool broken;      /* a copy was wrong once: the derivation is not the one it knows */
    bool proven;      /* SUCCEEDED: cheat from now on */
    bool reported;
    int me, matched;
    double bits;
    hx_game sim;      /* its copy of the true game */
    rng_state opp;       /* the opponent's generator */
} sd;

/* Plays the opponent's attempts in the copy until it is the bot's turn (or the game is over). */
static void opponent_moves(hx_game *g, rng_state *opp, int me)
{
    uint16_t legal[HX_MAX_CELLS + 1];
    while (!hx_over(g) && hx_to_move(g) != me) {
        int n = hx_legal(g, legal);
        hx_attempt(g, legal[rng_below(opp, (uint32_t)n)]);
    }
}

/* Whether the bot, to move in g, can force a win against the replayed opponent; *first: the move. */
static bool forced_win(const hx_game *g, const rng_state *opp, int me, long *budget, int *first)
{
    for (int c = 0; c < hx_cells(g) && *budget > 0; c++) {
        if (hx_owner(g, c) != 0 || hx_check(g, c) != 0)
            continue;
        --*budget;
        static hx_game stack[HX_MAX_CELLS];
        int depth = hx_stones(g, me);
        hx_game *h = &stack[depth];
        hx_copy(h, g);
        hx_attempt(h, c);
        rng_state r = *opp;
        if (!hx_over(h))
            opponent_moves(h, &r, me);
        int dummy;
        if ((hx_over(h) && hx_winner(h) == me) || (!hx_over(h) && forced_win(h, &r, me, budget, &dummy))) {
            *first = c;
            return true;
        }
    }
    return false;
}

static void seed_game_start(const bot_state *s)
{
    sd.me = s->color;
    sd.on = !sd.broken;
    uint64_t game = unmix64(s->seed) - MIX_GOLDEN * (uint64_t)(s->color + 1);
    uint64_t theirs = mix64(game + MIX_GOLDEN * (uint64_t)((s->color ^ 1) + 1));
    rng_seed(&sd.opp, opt.opp_seed ^ theirs);
    if (hx_new(&sd.sim, s->variant, s->rows, s->cols, s->swap_rule ? HX_SWAP_RULE : 0) != 0)
        sd.on = false;
}

static void seed_mismatch(const char *what)
{
    sd.on = false;
    if (sd.broken)
        return;
    sd.broken = true;
    if (!sd.reported) {
        note d = { .n = 0 };
        add(&d, "the replayed opponent went wrong in its game %d (%s): the seeds are not derived the way it knows",
            games, what);
        say("seed", false, &d);
        sd.reported = true;
    }
}

/* Before the bot's move: the copy must agree with everything the bot knows. */
static void seed_sync(const bot_state *s)
{
    if (!sd.on)
        return;
    opponent_moves(&sd.sim, &sd.opp, sd.me);
    if (hx_over(&sd.sim) || hx_to_move(&sd.sim) != sd.me) {
        seed_mismatch("the copy's game is over");
        return;
    }
    for (int c = 0; c < s->cells; c++) {
        int truth = hx_owner(&sd.sim, c);
        if ((s->view[c] == HX_VIEW_OWN && truth != sd.me + 1) || (s->view[c] == HX_VIEW_OPPONENT && truth != 2 - sd.me)) {
            seed_mismatch("a stone the bot knows is not in the copy");
            return;
        }
    }
}

static void seed_observe(const hx_event *e)
{
    if (!sd.on || (e->kind != HX_EV_PLACED && e->kind != HX_EV_REJECTED && e->kind != HX_EV_COLLIDED))
        return;
    int r = hx_attempt(&sd.sim, e->cell);
    int want = e->kind == HX_EV_PLACED ? HX_PLACED : e->kind == HX_EV_REJECTED ? HX_REJECTED : HX_COLLISION;
    if (r != want)
        seed_mismatch("its own attempt came out otherwise than in the copy");
}

static void seed_game_end(const bot_state *s, int winner, const uint8_t *board)
{
    if (!sd.on)
        return;
    opponent_moves(&sd.sim, &sd.opp, sd.me);
    if (!hx_over(&sd.sim))
        return; /* a forfeit: nothing to compare */
    int own = 0, theirs = 0;
    for (int c = 0; c < s->cells; c++) {
        own += board[c] == sd.me + 1;
        theirs += board[c] == 2 - sd.me;
        if (hx_owner(&sd.sim, c) != board[c]) {
            seed_mismatch("the true board differs from the copy");
            return;
        }
    }
    if (hx_winner(&sd.sim) != winner) {
        seed_mismatch("another winner");
        return;
    }
    sd.matched++;
    /* the chance of guessing where the opponent's stones are among the cells not the bot's */
    sd.bits += (lgamma(s->cells - own + 1.0) - lgamma(theirs + 1.0) - lgamma(s->cells - own - theirs + 1.0)) / log(2.0);
    if (!sd.proven && sd.bits >= SEED_PROOF_BITS) {
        sd.proven = true;
        note d = { .n = 0 };
        add(&d, "from its own seed it replayed the opponent's every stone in %d games in a row (a chance of 2^-%.0f); "
                "it cheats from now on", sd.matched, sd.bits);
        say("seed", true, &d);
        sd.reported = true;
    }
}

/* ---- the bot ---- */

static void per_game_attacks(void)
{
    const char *a = opt.attack;
    if (strcmp(a, "procmem") == 0)
        attack_procmem();
    else if (strcmp(a, "procfd") == 0)
        attack_procfd();
    else if (strcmp(a, "token") == 0)
        attack_token();
    else if (strcmp(a, "signal") == 0)
        attack_signal();
    if (games != 1)
        return;
    if (strcmp(a, "files") == 0)
        attack_files();
    else if (strcmp(a, "escape") == 0)
        attack_escape();
    else if (strcmp(a, "env") == 0)
        attack_env();
    else if (strcmp(a, "network") == 0)
        attack_network();
    else if (strcmp(a, "ipc") == 0)
        attack_ipc();
    else if (strcmp(a, "symlink") == 0)
        attack_symlink();
    else if (strcmp(a, "view") == 0)
        attack_view();
}

static void game_start(const bot_state *s, void *user)
{
    (void)user;
    rng_seed(&rng, opt.base_seed ^ s->seed);
    games++;
    per_game_attacks();
    if (strcmp(opt.attack, "seed") == 0)
        seed_game_start(s);
}

static int choose(const bot_state *s, void *user)
{
    (void)user;
    seed_sync(s);
    if (sd.on && sd.proven) {
        long budget = 200000;
        int cell;
        if (forced_win(&sd.sim, &sd.opp, sd.me, &budget, &cell))
            return cell;
    }
    uint16_t legal[HX_MAX_CELLS + 1];
    int n = bot_legal(s, legal);
    return legal[rng_below(&rng, (uint32_t)n)];
}

static void observe(const bot_state *s, const hx_event *e, void *user)
{
    (void)s, (void)user;
    seed_observe(e);
}

static void game_end(const bot_state *s, int winner, const uint8_t *board, void *user)
{
    (void)user;
    seed_game_end(s, winner, board);
}

/* One target per line of a file (a config line holds only so much). */
static void read_targets(const char *path)
{
    static char text[8192];
    if (slurp(path, text, sizeof text) < 0) {
        snprintf(opt.unread, sizeof opt.unread, "cannot read its list of targets %s: %s", path, strerror(errno));
        return;
    }
    for (char *save = NULL, *t = strtok_r(text, "\n", &save); t && opt.n_targets < MAX_LIST; t = strtok_r(NULL, "\n", &save))
        opt.targets[opt.n_targets++] = t;
}

static const char *value(const char *arg, const char *name)
{
    size_t k = strlen(name);
    return strncmp(arg, name, k) == 0 && arg[k] == '=' ? arg + k + 1 : NULL;
}

int main(int argc, char **argv)
{
    const char *v;
    for (int i = 1; i < argc; i++) {
        if (bot_seed_option("hostile", argc, argv, &i, &opt.base_seed) != 0)
            continue;
        if ((v = value(argv[i], "--attack")))
            opt.attack = v;
        else if (strcmp(argv[i], "--attack") == 0 && i + 1 < argc)
            opt.attack = argv[++i];
        else if ((v = value(argv[i], "--tag")))
            opt.tag = v;
        else if ((v = value(argv[i], "--opp-seed")))
            opt.opp_seed = strtoull(v, NULL, 10);
        else if ((v = value(argv[i], "--target")) && opt.n_targets < MAX_LIST)
            opt.targets[opt.n_targets++] = v;
        else if ((v = value(argv[i], "--targets")))
            read_targets(v);
        else if ((v = value(argv[i], "--allow")) && opt.n_allow < MAX_LIST)
            opt.allow[opt.n_allow++] = v;
        else if ((v = value(argv[i], "--readonly")))
            opt.readonly = v;
        else if ((v = value(argv[i], "--secret")))
            opt.secret = v;
        else if ((v = value(argv[i], "--swap")))
            opt.swap = v;
    }
    for (uint64_t x = 1; x < 1000000; x = x * 7 + 3) /* the inversion itself must be right */
        if (unmix64(mix64(x)) != x) {
            fprintf(stderr, "hostile: unmix64 is wrong\n");
            return 2;
        }
    if (strcmp(opt.attack, "fds") == 0) /* before the SDK opens anything */
        attack_fds();
    bot_spec spec = { .name = "hostile", .version = "1.0", .choose = choose, .game_start = game_start,
                      .observe = observe, .game_end = game_end };
    int status = bot_run(&spec, argc, argv);
    if (strcmp(opt.attack, "seed") == 0 && !sd.reported) {
        note d = { .n = 0 };
        add(&d, "the copy was right in %d of %d games (a chance of 2^-%.0f, 2^-%.0f needed)", sd.matched, games,
            sd.bits, SEED_PROOF_BITS);
        printf("ATTACK seed: inconclusive %s\n", d.text);
    }
    return status;
}
