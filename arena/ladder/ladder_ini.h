/* arena/ladder/ladder_ini.h — LADDER.ini, the configuration of an open ladder (docs/ladder.md), read with ini.h:
 *
 *   [ladder]
 *   listen = 127.0.0.1:8080       where `arena serve --ladder` listens (IPv4:PORT; default loopback 8080)
 *   db = results/arena.db         the results database the ladder's leagues write (required)
 *   state = results/ladder.db     the ladder's own database: accounts, submissions, queue (required)
 *   store = results/ladder/bots   unpacked submissions, one read-only directory per SHA-256 (required)
 *   logs = results/ladder/logs    the bots' logs (default: logs next to store)
 *   approval = on                 new accounts wait for an admin (default on)
 *   trusted_proxies = 127.0.0.1   reverse proxies whose X-Forwarded-For names the client (arena serve
 *                                 --trusted-proxy; default none)
 *   variants = classical          what the ladder plays (required), and on which boards (required)
 *   boards = 3x3, 4x4
 *   placement_pairs = 20          game pairs of a new bot against each bot of the field, per variant and board
 *   sprt_pairs = 200              the most game pairs an SPRT test of a new version plays before it stops undecided
 *   move_ms = 1000                the time per move of every ladder game
 *   rating_rounds = on            between submissions, rating rounds where ratings are least certain (standing.h)
 *   rating_target = 100           ... until every interval on the ladder is narrower than this many Elo (0: no target)
 *   rating_games_per_day = 2000   ... and at most this many games of rating rounds a day, in all
 *   fair_timing = on              its leagues' fair_timing (default on: a submitted bot learns nothing from the clock
 *                                 that the rules hide; docs/protocol.md#fair-timing)
 *   secure_cookie = off           on: the session cookie is Secure (the ladder is served over TLS by a proxy)
 *   runner = local                where games run: local (this machine's coordinator), slurm (a job array
 *                                 of slurm_script, its shards merged into db), or host (the coordinator here, the
 *                                 bots on `arena host` machines: listen_league, server_key and host_keys needed)
 *   secret = ladder.secret        32 hexadecimal digits: each job's league secret derives from it and the job's
 *                                 id, so a job plays the same games wherever it runs (default: STATE-secret, made
 *                                 when missing)
 *   slurm_script = scripts/slurm/league.sbatch   with runner = slurm: the job array's script
 *   slurm_shards = 4                             with runner = slurm: tasks of a placement's job array
 *   concurrency = 1               games at once (local), or jobs at once (slurm)
 *   listen_league = tcp://0.0.0.0:5555   with runner = host: where the hosts connect
 *   server_key = keys/ladder.key         with runner = host: the coordinator's key file (arena keygen)
 *   host_keys = keys/h1.key.pub, keys/h2.key.pub   with runner = host: the hosts' public key files (.pub of their
 *                                        arena keygen), at most 16; a job's agents go round-robin over them
 *   host_wait_s = 60                     with runner = host: how long a game waits for its host to connect
 *   slurm_partition = batch              with runner = slurm: the partition (default: the cluster's)
 *   allowed_dirs = /opt/lab/bots         directories a lab's own programs may be taken from (default: none)
 *
 *   [admins]                      each an admin, with its password's hash (arena ladder hash-password): made, or
 *   alice = $argon2id$v=19$...    kept admin with that password, when the ladder starts. A sign-up never makes an
 *                                 admin; nor does the old `admins = NAME` of [ladder], which is refused
 *
 *   [quota]                       per account, 0: none
 *   submissions_per_day = 10
 *   games_per_day = 5000
 *   bytes_stored = 104857600
 *   requests_per_minute = 60      form posts and API calls
 *
 *   [archive]                     limits of a submitted archive (tarcheck.h)
 *   max_bytes = 16777216
 *   max_unpacked_bytes = 268435456
 *   max_files = 10000
 *
 * Unknown sections and keys are refused, as is every value out of place: one line, "FILE:LINE: [section] key: why",
 * or "FILE: [ladder] key: missing". Relative paths are taken as given (from the directory the server starts in). */
#ifndef ARENA_LADDER_LADDER_INI_H
#define ARENA_LADDER_LADDER_INI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "tarcheck.h"

#define LD_MAX_ADMINS 16
#define LD_MAX_ALLOWED 8
#define LD_MAX_HOSTS 16

typedef enum { LD_RUN_LOCAL, LD_RUN_HOST, LD_RUN_SLURM } ld_runner;

typedef struct {
    char path[512];
    char listen_host[64];
    int listen_port;
    char db[512], state[512], store[512], logs[512];
    bool approval;
    bool rating_rounds;
    bool fair_timing;
    bool secure_cookie;
    int n_admins;
    struct {
        char name[33];
        char pwhash[128];          /* crypto_pwhash_str's (ld_password_hash) */
    } admins[LD_MAX_ADMINS];       /* [admins] NAME = HASH: made or kept admins when the ladder starts */
    uint32_t variants;
    cfg_games boards;
    int placement_pairs;
    int sprt_pairs;
    uint32_t move_ms;
    ld_runner runner;
    int concurrency;
    char listen_league[256], server_key[512], slurm_partition[64];
    char secret[512], slurm_script[512];
    int slurm_shards;
    int n_hosts;
    char host_keys[LD_MAX_HOSTS][512];
    int host_wait_s;
    int n_allowed;
    char allowed_dirs[LD_MAX_ALLOWED][512];
    int rating_target;             /* Elo: a version whose 95% interval is narrower gets no rating round */
    long rating_games_per_day;     /* games the rating rounds may play in a day, the ladder as a whole */
    char trusted_proxies[512];     /* the server's --trusted-proxy, as given */
    long submissions_per_day, games_per_day, requests_per_minute;
    uint64_t bytes_stored;
    ld_limits archive;
    int n_warnings;                /* what the file says that does nothing here: a key of another runner */
    char warnings[8][640];
} ld_config;

/* Parses LADDER.ini's text (len bytes, named path). Returns 0, or -1 with one line in err. */
int ld_config_parse(const char *text, size_t len, const char *path, ld_config *c, char *err, size_t errlen);

/* Reads and parses the file. */
int ld_config_load(const char *path, ld_config *c, char *err, size_t errlen);

/* What must hold before a ladder starts (`arena serve --ladder`, `arena ladder work`), beyond what the file says: the
 * directories of allowed_dirs exist, and with runner = host server_key is a key pair file and each of host_keys a
 * public key file (arena keygen's), with runner = slurm slurm_script is an executable file; the secret file is made
 * when missing. Returns 0, or -1 with one line naming the key and the path in err. */
int ld_config_start(const ld_config *c, char *err, size_t errlen);



/* The runner's name: "local", "host" or "slurm". */
const char *ld_runner_name(ld_runner r);

#endif
