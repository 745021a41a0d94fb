/* arena/ladder/slurm.c — a ladder job as a Slurm job array, merged back (slurm.h). */
#define _DEFAULT_SOURCE /* readlink */
#include "slurm.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jobsecret.h"
#include "merge.h"
#include "query.h"
#include "store.h"

static int write_file(const char *path, const char *text, mode_t mode, char *err, size_t errlen)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    size_t n = strlen(text);
    int rc = fd >= 0 && write(fd, text, n) == (ssize_t)n ? 0 : -1;
    if (fd >= 0)
        close(fd);
    if (rc != 0)
        snprintf(err, errlen, "%s: cannot write it: %s", path, strerror(errno));
    return rc;
}

/* sbatch --wait of the array; 0 once every task succeeded. */
static int submit(const ld_config *c, const char *dir, const char *config, char *err, size_t errlen)
{
    char array[32], shards[16], output[1200], partition[96], bin[PATH_MAX];
    snprintf(array, sizeof array, "--array=1-%d", c->slurm_shards);
    snprintf(shards, sizeof shards, "%d", c->slurm_shards);
    snprintf(output, sizeof output, "--output=%s/task-%%a.out", dir);
    snprintf(partition, sizeof partition, "--partition=%s", c->slurm_partition);
    ssize_t k = getenv("ARENA_BIN") ? 0 : readlink("/proc/self/exe", bin, sizeof bin - 1);
    bin[k > 0 ? k : 0] = '\0';
    char *slash = strrchr(bin, '/');
    if (slash)
        *slash = '\0';
    pid_t pid = fork();
    if (pid == 0) {
        if (bin[0])
            setenv("ARENA_BIN", bin, 1);
        char out[1200];
        snprintf(out, sizeof out, "%s/sbatch.out", dir); /* the job's id, and what sbatch says */
        int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        snprintf(out, sizeof out, "%s/slurm", dir);
        if (c->slurm_partition[0])
            execlp("sbatch", "sbatch", "--parsable", "--wait", array, partition, output, c->slurm_script, config,
                   shards, out, (char *)NULL);
        else
            execlp("sbatch", "sbatch", "--parsable", "--wait", array, output, c->slurm_script, config, shards, out,
                   (char *)NULL);
        _exit(127);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        snprintf(err, errlen, "sbatch of %s: %s (its output: %s/sbatch.out and task-*.out)", c->slurm_script,
                 pid < 0 ? "cannot start it" : WIFEXITED(st) && WEXITSTATUS(st) == 127 ? "not found" : "a task failed",
                 dir);
        return -1;
    }
    return 0;
}

/* Every shard merged into the results database; the league's id into *league. */
static int merge_shards(const ld_config *c, const char *dir, const char *name, int64_t *league, char *err,
                        size_t errlen)
{
    bool bad;
    store_db *out = store_open(c->db, &bad, err, errlen);
    if (!out)
        return -1;
    int rc = 0;
    for (int k = 1; rc == 0 && k <= c->slurm_shards; k++) {
        char shard[1300];
        snprintf(shard, sizeof shard, "%s/slurm/shards/shard-%d.db", dir, k);
        store_db *s = store_open(shard, &bad, err, errlen); /* at this schema before it is merged */
        if (!s) {
            rc = -1;
            break;
        }
        store_close(s);
        store_merge_stats st;
        rc = store_merge(out, shard, &st, &bad, err, errlen);
    }
    if (rc == 0 && (*league = store_league_find(out, name)) <= 0) {
        snprintf(err, errlen, "%s: no league '%s' after the merge", c->db, name);
        rc = -1;
    }
    store_close(out);
    return rc;
}

int ld_slurm_play(const ld_config *c, const ldb_job *j, const char *text, const uint8_t key[SEEDS_KEY_BYTES],
                  int64_t *league, char *err, size_t errlen)
{
    char dir[1100], config[1200], secret[1200], name[64], hex[34];
    snprintf(dir, sizeof dir, "%s/job-%lld", c->logs, (long long)j->id);
    snprintf(config, sizeof config, "%s/league.ini", dir);
    snprintf(secret, sizeof secret, "%s/slurm", dir);
    mkdir(c->logs, 0755);
    mkdir(dir, 0755);
    mkdir(secret, 0700);
    snprintf(secret, sizeof secret, "%s/slurm/secret", dir);
    snprintf(name, sizeof name, "ladder-%s-%lld", j->kind, (long long)j->id);
    ld_secret_hex(key, hex);
    if (write_file(config, text, 0644, err, errlen) != 0 || write_file(secret, hex, 0600, err, errlen) != 0 ||
        submit(c, dir, config, err, errlen) != 0)
        return -1;
    return merge_shards(c, dir, name, league, err, errlen);
}
