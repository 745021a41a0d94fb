/* arena/ladder/worker.h — the ladder's work: the oldest queued job claimed in the ladder's database, its league
 * planned (plan.h) and played — on this machine through the session library (ss_open_league with the config text
 * and the job's secret, jobsecret.h; ss_run; with runner = host its bots on `arena host` machines, plan.h), or with
 * runner = slurm as a job array merged back (slurm.h; an SPRT test stays here) — into the results database, then its outcome recorded: a placed version joins the ladder (the
 * owner's version before it is retired, replaced); an SPRT test's LLR after every game pair is kept (its curve, the
 * test's pairings pooled, pairs taken as the games finish, exact with concurrency = 1) and its decision — the
 * league's own, pairing by pairing: H1 everywhere, and the new version joins the ladder in place of the old one;
 * H0 anywhere, and it stays off, tested. A job a signal stops goes back in the queue (a placement or rating round
 * then resumes its league where it stopped; an SPRT starts over). The session installs its own SIGINT/SIGTERM handling (the first winds the
 * league down with its games kept), so the worker is a process of its own (`arena ladder work`), not a thread of
 * the web server; the ladder's own database is among the paths no bot may see. */
#ifndef ARENA_LADDER_WORKER_H
#define ARENA_LADDER_WORKER_H

#include <stddef.h>
#include <stdint.h>

#include "ladder_db.h"
#include "ladder_ini.h"

/* Plays the oldest queued job. Returns 1 a job was taken (done or failed: the job's row says which and why), 2 a
 * signal (SIGINT, SIGTERM) stopped it and it is queued again, 0 none was queued, -1 the ladder's database failed
 * (err). */
int ld_work_one(ldb *d, const ld_config *c, int64_t now, char *err, size_t errlen);

/* After a version is placed or passes its test: it joins the ladder and the owner's other versions there retire. */
int ld_join(ldb *d, const ldb_submission *s, char *err, size_t errlen);

#endif
