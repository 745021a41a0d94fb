/* arena/ladder/ladder_ini.c — LADDER.ini read and checked (ladder_ini.h): one handler per section, each key's value
 * checked where it is read, then what the file as a whole must hold. */
#include "ladder_ini.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "curvezmq.h"
#include "ini.h"
#include "jobsecret.h"
#include "accounts.h"
#include "manifest.h"

enum { R_DB, R_STATE, R_STORE, R_VARIANTS, R_BOARDS, R_COUNT };

typedef struct {
    ld_config *c;
    bool have[R_COUNT];
    int slurm_line, host_line;     /* the first line of a key of runner = slurm, of runner = host (0: none) */
    char slurm_key[32], host_key[32];
} ladder_state;

static int bad(char *why, size_t whylen, const char *fmt, const char *value)
{
    snprintf(why, whylen, fmt, value);
    return -1;
}

static int path_value(char *dst, size_t n, const char *value, char *why, size_t whylen)
{
    if (!*value || strlen(value) >= n)
        return bad(why, whylen, "'%s': expected a path of 1 to 511 characters", value);
    snprintf(dst, n, "%s", value);
    return 0;
}

static int listen_value(ld_config *c, const char *value, char *why, size_t whylen)
{
    const char *colon = strrchr(value, ':');
    long long port;
    struct in_addr a;
    char host[64];
    size_t k = colon ? (size_t)(colon - value) : 0;
    if (!colon || k == 0 || k >= sizeof host || !cfg_parse_number(colon + 1, 0, 65535, &port))
        return bad(why, whylen, "'%s': expected HOST:PORT (an IPv4 address and a port 0..65535)", value);
    memcpy(host, value, k);
    host[k] = '\0';
    if (inet_pton(AF_INET, host, &a) != 1)
        return bad(why, whylen, "'%s': expected an IPv4 address before the port", value);
    snprintf(c->listen_host, sizeof c->listen_host, "%s", host);
    c->listen_port = (int)port;
    return 0;
}

/* Calls add on each comma-separated entry of value (a copy); -1 with why from the first it refuses. */
static int list_value(const char *value, int (*add)(ld_config *c, const char *item, char *why, size_t whylen),
                      ld_config *c, char *why, size_t whylen)
{
    char *buf = strdup(value), *save = NULL;
    int rc = buf ? 0 : bad(why, whylen, "%s", "out of memory");
    for (char *t = buf ? strtok_r(buf, ",", &save) : NULL; rc == 0 && t; t = strtok_r(NULL, ",", &save)) {
        t += strspn(t, " \t");
        char *end = t + strlen(t);
        while (end > t && (end[-1] == ' ' || end[-1] == '\t'))
            *--end = '\0';
        if (*t)
            rc = add(c, t, why, whylen);
    }
    free(buf);
    return rc;
}

/* [admins] NAME = HASH. */
static int admin_key(ld_config *c, const char *name, const char *hash, char *why, size_t whylen)
{
    if (!ld_name_ok(name))
        return bad(why, whylen, "'%s': not an account name (letters, digits, '_', '-', '.')", name);
    if (!ld_password_hash_ok(hash))
        return bad(why, whylen, "'%s': expected the hash of its password, $argon2id$... (arena ladder hash-password)",
                   hash);
    if (c->n_admins == LD_MAX_ADMINS)
        return bad(why, whylen, "%s", "more than 16 admins");
    snprintf(c->admins[c->n_admins].name, sizeof c->admins[0].name, "%s", name);
    snprintf(c->admins[c->n_admins++].pwhash, sizeof c->admins[0].pwhash, "%s", hash);
    return 0;
}

static int add_host(ld_config *c, const char *item, char *why, size_t whylen)
{
    if (strlen(item) >= sizeof c->host_keys[0] || strpbrk(item, "#;\"'\\"))
        return bad(why, whylen, "'%s': expected the path of a host's .pub key file (no '#', ';' or quotes)", item);
    if (c->n_hosts == LD_MAX_HOSTS)
        return bad(why, whylen, "%s", "more than 16 hosts");
    snprintf(c->host_keys[c->n_hosts++], sizeof c->host_keys[0], "%s", item);
    return 0;
}

static int add_allowed(ld_config *c, const char *item, char *why, size_t whylen)
{
    if (item[0] != '/' || strlen(item) >= sizeof c->allowed_dirs[0])
        return bad(why, whylen, "'%s': expected an absolute directory path", item);
    if (c->n_allowed == LD_MAX_ALLOWED)
        return bad(why, whylen, "%s", "more than 8 directories");
    snprintf(c->allowed_dirs[c->n_allowed++], sizeof c->allowed_dirs[0], "%s", item);
    return 0;
}

/* Whole numbers in a range: the keys of [ladder], [quota] and [archive] that are numbers, by their field's type. */
enum { T_INT, T_U32, T_LONG, T_U64 };
static const struct {
    const char *section, *key;
    long long min, max;
    size_t at;
    int type;
} number_keys[] = {
    { "ladder", "placement_pairs", 1, 10000, offsetof(ld_config, placement_pairs), T_INT },
    { "ladder", "sprt_pairs", 1, 50000, offsetof(ld_config, sprt_pairs), T_INT },
    { "ladder", "slurm_shards", 1, 1000, offsetof(ld_config, slurm_shards), T_INT },
    { "ladder", "move_ms", 10, 600000, offsetof(ld_config, move_ms), T_U32 },
    { "ladder", "concurrency", 1, 256, offsetof(ld_config, concurrency), T_INT },
    { "ladder", "host_wait_s", 0, 86400, offsetof(ld_config, host_wait_s), T_INT },
    { "ladder", "rating_target", 0, 10000, offsetof(ld_config, rating_target), T_INT },
    { "ladder", "rating_games_per_day", 1, 100000000, offsetof(ld_config, rating_games_per_day), T_LONG },
    { "quota", "submissions_per_day", 0, 1000000, offsetof(ld_config, submissions_per_day), T_LONG },
    { "quota", "games_per_day", 0, 100000000, offsetof(ld_config, games_per_day), T_LONG },
    { "quota", "requests_per_minute", 0, 1000000, offsetof(ld_config, requests_per_minute), T_LONG },
    { "quota", "bytes_stored", 0, 1ll << 50, offsetof(ld_config, bytes_stored), T_U64 },
    { "archive", "max_bytes", 1024, 1ll << 32, offsetof(ld_config, archive.archive_bytes), T_U64 },
    { "archive", "max_unpacked_bytes", 1024, 1ll << 40, offsetof(ld_config, archive.unpacked_bytes), T_U64 },
    { "archive", "max_files", 1, 1000000, offsetof(ld_config, archive.files), T_LONG },
};

/* Returns 0 for a number key read, -1 with why for a bad value, 1 for a key that is not one of them. */
static int number_key(ld_config *c, const char *section, const char *key, const char *value, char *why,
                      size_t whylen)
{
    for (size_t i = 0; i < sizeof number_keys / sizeof number_keys[0]; i++) {
        if (strcmp(number_keys[i].section, section) != 0 || strcmp(number_keys[i].key, key) != 0)
            continue;
        long long v;
        if (!cfg_parse_number(value, number_keys[i].min, number_keys[i].max, &v)) {
            snprintf(why, whylen, "'%s': expected a whole number from %lld to %lld", value, number_keys[i].min,
                     number_keys[i].max);
            return -1;
        }
        void *field = (char *)c + number_keys[i].at;
        switch (number_keys[i].type) {
        case T_INT: *(int *)field = (int)v; break;
        case T_U32: *(uint32_t *)field = (uint32_t)v; break;
        case T_LONG: *(long *)field = (long)v; break;
        default: *(uint64_t *)field = (uint64_t)v; break;
        }
        return 0;
    }
    return 1;
}

/* trusted_proxies: addresses, IPv4 or IPv6, separated by commas (checked here, read by the server). */
static int trusted_value(ld_config *c, const char *value, char *why, size_t whylen)
{
    char list[sizeof c->trusted_proxies];
    if (strlen(value) >= sizeof list)
        return bad(why, whylen, "%s", "too long");
    snprintf(list, sizeof list, "%s", value);
    for (char *save = NULL, *item = strtok_r(list, ", \t", &save); item; item = strtok_r(NULL, ", \t", &save)) {
        unsigned char a[16];
        if (inet_pton(strchr(item, ':') ? AF_INET6 : AF_INET, item, a) != 1)
            return bad(why, whylen, "'%s': not an IPv4 or IPv6 address", item);
    }
    snprintf(c->trusted_proxies, sizeof c->trusted_proxies, "%s", value);
    return 0;
}

static int runner_value(ld_config *c, const char *value, char *why, size_t whylen)
{
    for (int r = LD_RUN_LOCAL; r <= LD_RUN_SLURM; r++)
        if (strcmp(value, ld_runner_name((ld_runner)r)) == 0) {
            c->runner = (ld_runner)r;
            return 0;
        }
    return bad(why, whylen, "'%s': expected local, host or slurm", value);
}

/* The keys of [ladder] that are not numbers. */
static int ladder_key(ladder_state *st, const char *key, const char *value, char *why, size_t whylen)
{
    ld_config *c = st->c;
    static const char *const required[R_COUNT] = { "db", "state", "store", "variants", "boards" };
    for (int k = 0; k < R_COUNT; k++)
        if (strcmp(key, required[k]) == 0)
            st->have[k] = true;
    if (strcmp(key, "db") == 0)
        return path_value(c->db, sizeof c->db, value, why, whylen);
    if (strcmp(key, "state") == 0)
        return path_value(c->state, sizeof c->state, value, why, whylen);
    if (strcmp(key, "store") == 0)
        return path_value(c->store, sizeof c->store, value, why, whylen);
    if (strcmp(key, "logs") == 0)
        return path_value(c->logs, sizeof c->logs, value, why, whylen);
    if (strcmp(key, "secret") == 0)
        return path_value(c->secret, sizeof c->secret, value, why, whylen);
    if (strcmp(key, "slurm_script") == 0)
        return path_value(c->slurm_script, sizeof c->slurm_script, value, why, whylen);
    if (strcmp(key, "server_key") == 0)
        return path_value(c->server_key, sizeof c->server_key, value, why, whylen);
    if (strcmp(key, "listen") == 0)
        return listen_value(c, value, why, whylen);
    if (strcmp(key, "trusted_proxies") == 0)
        return trusted_value(c, value, why, whylen);
    if (strcmp(key, "approval") == 0 || strcmp(key, "rating_rounds") == 0 || strcmp(key, "secure_cookie") == 0 ||
        strcmp(key, "fair_timing") == 0) {
        if (strcmp(value, "on") != 0 && strcmp(value, "off") != 0)
            return bad(why, whylen, "'%s': expected on or off", value);
        *(key[0] == 'a' ? &c->approval : key[0] == 'r' ? &c->rating_rounds : key[0] == 'f' ? &c->fair_timing
                                                                                             : &c->secure_cookie) =
            strcmp(value, "on") == 0;
        return 0;
    }
    if (strcmp(key, "admins") == 0) /* whoever signed up first under a name listed here was its admin */
        return bad(why, whylen, "%s", "no longer makes admins (a sign-up under the name could claim it): give each "
                   "admin with its password's hash in [admins] (NAME = HASH, from 'arena ladder hash-password'), or "
                   "run 'arena ladder admin add NAME'");
    if (strcmp(key, "allowed_dirs") == 0)
        return list_value(value, add_allowed, c, why, whylen);
    if (strcmp(key, "host_keys") == 0)
        return list_value(value, add_host, c, why, whylen);
    if (strcmp(key, "variants") == 0)
        return cfg_parse_variants(value, &c->variants, why, whylen) ? 0 : -1;
    if (strcmp(key, "boards") == 0)
        return cfg_parse_boards(value, &c->boards, why, whylen) ? 0 : -1;
    if (strcmp(key, "runner") == 0)
        return runner_value(c, value, why, whylen);
    if (strcmp(key, "listen_league") == 0) {
        if (strncmp(value, "tcp://", 6) != 0 || strlen(value) >= sizeof c->listen_league)
            return bad(why, whylen, "'%s': expected tcp://HOST:PORT", value);
        snprintf(c->listen_league, sizeof c->listen_league, "%s", value);
        return 0;
    }
    if (strcmp(key, "slurm_partition") == 0) {
        if (!ld_name_ok(value))
            return bad(why, whylen, "'%s': expected a partition name", value);
        snprintf(c->slurm_partition, sizeof c->slurm_partition, "%s", value);
        return 0;
    }
    return bad(why, whylen, "%s", "unknown key (docs/ladder.md lists them)");
}

static int ladder_ini_key(void *user, const char *section, const char *key, const char *value, int line, char *why,
                          size_t whylen)
{
    ladder_state *st = user;
    if (strcmp(section, "admins") == 0)
        return admin_key(st->c, key, value, why, whylen);
    static const char *const slurm_keys[] = { "slurm_script", "slurm_shards", "slurm_partition" };
    static const char *const host_keys[] = { "listen_league", "server_key", "host_keys", "host_wait_s" };
    for (size_t i = 0; i < 3 && strcmp(section, "ladder") == 0; i++)
        if (strcmp(key, slurm_keys[i]) == 0 && !st->slurm_line) {
            st->slurm_line = line;
            snprintf(st->slurm_key, sizeof st->slurm_key, "%s", key);
        }
    for (size_t i = 0; i < 4 && strcmp(section, "ladder") == 0; i++)
        if (strcmp(key, host_keys[i]) == 0 && !st->host_line) {
            st->host_line = line;
            snprintf(st->host_key, sizeof st->host_key, "%s", key);
        }
    if (strcmp(section, "ladder") != 0 && strcmp(section, "quota") != 0 && strcmp(section, "archive") != 0)
        return bad(why, whylen, "%s", section[0] ? "unknown section (expected [ladder], [admins], [quota] or [archive])"
                                                 : "a key before any section (expected [ladder] first)");
    int rc = number_key(st->c, section, key, value, why, whylen);
    if (rc <= 0)
        return rc;
    if (strcmp(section, "ladder") == 0)
        return ladder_key(st, key, value, why, whylen);
    return bad(why, whylen, "%s", "unknown key (docs/ladder.md lists them)");
}

static void defaults(ld_config *c, const char *path)
{
    memset(c, 0, sizeof *c);
    snprintf(c->path, sizeof c->path, "%s", path);
    snprintf(c->listen_host, sizeof c->listen_host, "127.0.0.1");
    c->listen_port = 8080;
    snprintf(c->logs, sizeof c->logs, "results/logs");
    c->approval = true;
    c->rating_rounds = true;
    c->fair_timing = true;
    c->placement_pairs = 20;
    c->sprt_pairs = 200;
    c->move_ms = 1000;
    c->runner = LD_RUN_LOCAL;
    c->concurrency = 1;
    c->slurm_shards = 4;
    c->host_wait_s = 60;
    c->rating_target = 100;
    c->rating_games_per_day = 2000;
    snprintf(c->slurm_script, sizeof c->slurm_script, "scripts/slurm/league.sbatch");
    c->submissions_per_day = 10;
    c->games_per_day = 5000;
    c->requests_per_minute = 60;
    c->bytes_stored = 100u << 20;
    ld_limits_default(&c->archive);
}

int ld_config_parse(const char *text, size_t len, const char *path, ld_config *c, char *err, size_t errlen)
{
    defaults(c, path);
    ladder_state st = { .c = c };
    if (ini_parse(text, len, path, ladder_ini_key, &st, err, errlen) != 0)
        return -1;
    static const char *const required[R_COUNT] = { "db", "state", "store", "variants", "boards" };
    char msg[1024];
    for (int k = 0; k < R_COUNT; k++)
        if (!st.have[k]) {
            snprintf(msg, sizeof msg, "%s: [ladder] %s: missing (required: db, state, store, variants, boards)", path,
                     required[k]);
            cfg_printable(msg, err, errlen);
            return -1;
        }
    size_t n = strlen(c->state);
    if (!c->secret[0] && n + 8 <= sizeof c->secret) { /* STATE-secret */
        memcpy(c->secret, c->state, n);
        memcpy(c->secret + n, "-secret", 8);
    }
    /* keys of a runner it does not use: read, and said to do nothing */
    if (st.slurm_line && c->runner != LD_RUN_SLURM && c->n_warnings < 8)
        snprintf(c->warnings[c->n_warnings++], sizeof c->warnings[0], "%.300s:%d: [ladder] %s: ignored with runner = %s "
                 "(it is for runner = slurm)", path, st.slurm_line, st.slurm_key, ld_runner_name(c->runner));
    if (st.host_line && c->runner != LD_RUN_HOST && c->n_warnings < 8)
        snprintf(c->warnings[c->n_warnings++], sizeof c->warnings[0], "%.300s:%d: [ladder] %s: ignored with runner = %s "
                 "(it is for runner = host)", path, st.host_line, st.host_key, ld_runner_name(c->runner));
    if (c->runner == LD_RUN_HOST && (!c->listen_league[0] || !c->server_key[0] || !c->n_hosts)) {
        snprintf(msg, sizeof msg, "%s: [ladder] %s: missing for runner = host (%s)", path,
                 !c->listen_league[0] ? "listen_league" : !c->server_key[0] ? "server_key" : "host_keys",
                 c->n_hosts ? "the hosts connect to it" : "the public key files of the hosts that run the bots");
        cfg_printable(msg, err, errlen);
        return -1;
    }
    return 0;
}

int ld_config_load(const char *path, ld_config *c, char *err, size_t errlen)
{
    size_t n;
    char *text = cfg_read(path, &n, err, errlen);
    if (!text)
        return -1;
    int rc = ld_config_parse(text, n, path, c, err, errlen);
    free(text);
    return rc;
}

int ld_config_start(const ld_config *c, char *err, size_t errlen)
{
    struct stat st;
    char why[600];
    for (int i = 0; i < c->n_allowed; i++)
        if (stat(c->allowed_dirs[i], &st) != 0 || !S_ISDIR(st.st_mode)) {
            snprintf(err, errlen, "%s: [ladder] allowed_dirs: '%s': %s", c->path, c->allowed_dirs[i],
                     errno == ENOENT || !S_ISDIR(st.st_mode) ? "no such directory" : strerror(errno));
            return -1;
        }
    if (c->runner == LD_RUN_HOST) {
        cv_keypair k;
        char pub[CV_KEY_LEN + 1];
        if (cv_read(c->server_key, &k, why, sizeof why) != 0) {
            snprintf(err, errlen, "%s: [ladder] server_key: %s", c->path, why);
            return -1;
        }
        for (int i = 0; i < c->n_hosts; i++)
            if (cv_read_public(c->host_keys[i], pub, why, sizeof why) != 0) {
                snprintf(err, errlen, "%s: [ladder] host_keys: %s", c->path, why);
                return -1;
            }
    }
    if (c->runner == LD_RUN_SLURM &&
        (stat(c->slurm_script, &st) != 0 || !S_ISREG(st.st_mode) || access(c->slurm_script, X_OK) != 0)) {
        snprintf(err, errlen, "%s: [ladder] slurm_script: '%s': not an executable file", c->path, c->slurm_script);
        return -1;
    }
    if (ld_secret_make(c->secret, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: [ladder] secret: %s", c->path, why);
        return -1;
    }
    return 0;
}


const char *ld_runner_name(ld_runner r)
{
    return r == LD_RUN_HOST ? "host" : r == LD_RUN_SLURM ? "slurm" : "local";
}
