/* arena/ladder/slurm.h — a ladder job played on Slurm (runner = slurm): its league config and secret written into
 * LOGS/job-N/, `sbatch --wait --array=1-S SLURM_SCRIPT CONFIG S LOGS/job-N/slurm` (scripts/slurm/league.sbatch: one
 * shard per task, every task with the job's secret; ARENA_BIN from the environment, else the running program's
 * folder), then every shard merged into the results database (merge.h) as `arena merge` does. Only what shards can
 * play goes there: an SPRT test needs every game of its pairing in order and is played on this machine. */
#ifndef ARENA_LADDER_SLURM_H
#define ARENA_LADDER_SLURM_H

#include <stddef.h>
#include <stdint.h>

#include "ladder_db.h"
#include "ladder_ini.h"
#include "seeds.h"

/* Plays job j's league (config text) on Slurm and merges it; its league id in the results database into *league.
 * Returns 0, or -1 with one line in err. */
int ld_slurm_play(const ld_config *c, const ldb_job *j, const char *text, const uint8_t key[SEEDS_KEY_BYTES],
                  int64_t *league, char *err, size_t errlen);

#endif
