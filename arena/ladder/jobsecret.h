/* arena/ladder/jobsecret.h — the secret of a ladder job's league (seeds.h: the players' seeds derive from it): a
 * keyed BLAKE2b (libsodium's crypto_generichash) of the job's id under the ladder's secret (LADDER.ini `secret`,
 * 32 hexadecimal digits; made, mode 0600, when the file is missing). A job therefore plays the same games on this
 * machine and on Slurm, and a bot cannot predict another job's seeds. */
#ifndef ARENA_LADDER_JOBSECRET_H
#define ARENA_LADDER_JOBSECRET_H

#include <stddef.h>
#include <stdint.h>

#include "ladder_ini.h"
#include "seeds.h"

/* Job `job`'s secret into key. Returns 0, or -1 with one line in err. */
int ld_job_secret(const ld_config *c, int64_t job, uint8_t key[SEEDS_KEY_BYTES], char *err, size_t errlen);

/* The key as 32 hexadecimal digits and a newline (what --secret files hold) into out (34 bytes). */
void ld_secret_hex(const uint8_t key[SEEDS_KEY_BYTES], char out[34]);

/* Makes the ladder's secret file (0600, 32 random hexadecimal digits) when it is missing (O_EXCL: of two processes
 * racing, one makes it). Returns 0, or -1 with the reason in err. */
int ld_secret_make(const char *path, char *err, size_t errlen);

#endif
