/* arena/ladder/worker.c — one ladder job played from this machine (worker.h). */
#define _DEFAULT_SOURCE /* open_memstream */
#include "worker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

#include "game.h"
#include "jobsecret.h"
#include "pentanomial.h"
#include "plan.h"
#include "sandbox.h"
#include "session.h"
#include "slurm.h"

typedef struct {
    ldb *d;
    int64_t job;
    pn_sprt sprt;
    pn_counts counts;
    int half;                      /* the challenger's points in the unpaired game of a pairing, -1: none */
    long pairs;
} curve_state;

/* Each stored game: the challenger (agent 0) scores; every two games of the pair give a point of the curve. */
static void on_game(void *user, const rn_result *r)
{
    curve_state *cs = user;
    bool challenger_black = r->game->black == 0;
    if (r->game->black != 0 && r->game->white != 0)
        return;
    int won = (r->winner == HX_BLACK) == challenger_black;
    if (cs->half < 0) {
        cs->half = won;
        return;
    }
    pn_add(&cs->counts, cs->half + won);
    cs->half = -1;
    cs->pairs++;
    ldb_llr_add(cs->d, cs->job, cs->pairs, pn_llr(&cs->counts, &cs->sprt));
}

int ld_join(ldb *d, const ldb_submission *s, char *err, size_t errlen)
{
    enum { MAX = 256 };
    ldb_submission *same = calloc(MAX, sizeof *same);
    int n = same ? ldb_submissions(d, "ladder", s->name, same, MAX) : -1;
    char note[128];
    snprintf(note, sizeof note, "replaced by version %s", s->version);
    int rc = n < 0 ? -1 : 0;
    for (int i = 0; rc == 0 && i < n; i++)
        if (same[i].id != s->id)
            rc = ldb_submission_set(d, same[i].id, "retired", note);
    free(same);
    if (rc == 0)
        rc = ldb_submission_set(d, s->id, "ladder", "");
    if (rc != 0)
        snprintf(err, errlen, "%s", same ? ldb_error(d) : "out of memory");
    return rc;
}

/* The SPRT's outcome as the league decided it, from its pairings in JSON: +1 H1 in every pairing, -1 H0 in one,
 * 0 undecided; the smallest LLR into *llr. */
static int sprt_outcome(ss_session *s, double *llr, char *err, size_t errlen)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f || ss_write_pairings(s, f, true, err, errlen) != 0) {
        if (f)
            fclose(f);
        free(buf);
        return -2;
    }
    fclose(f);
    int h1 = 0, h0 = 0, n = 0;
    *llr = 0;
    for (const char *p = buf; (p = strstr(p, "\"llr\":")); n++) {
        double v = strtod(p + 6, NULL);
        *llr = n == 0 || v < *llr ? v : *llr;
        const char *dec = strstr(p, "\"decision\":\"");
        h1 += dec && strncmp(dec + 12, "H1", 2) == 0;
        h0 += dec && strncmp(dec + 12, "H0", 2) == 0;
        p += 6;
    }
    free(buf);
    return h0 ? -1 : n && h1 == n ? 1 : 0;
}

/* Plays the league of text; its id into *league. Returns 0, 1 when a signal stopped it, or -1 with the reason in
 * err. */
static int play(const ld_config *c, const char *text, const ldb_job *j, curve_state *cs, int64_t *league,
                int *outcome, double *llr, char *err, size_t errlen)
{
    char name[64], logs[1024];
    snprintf(name, sizeof name, "ladder job %lld", (long long)j->id);
    snprintf(logs, sizeof logs, "%s/job-%lld", c->logs, (long long)j->id); /* a bot's logs: -sID- in their names */
    mkdir(c->logs, 0755);
    mkdir(logs, 0755);
    uint8_t key[SEEDS_KEY_BYTES];
    if (ld_job_secret(c, j->id, key, err, errlen) != 0)
        return -1;
    if (c->runner == LD_RUN_SLURM && strcmp(j->kind, "sprt") != 0) /* an SPRT is not shardable: played here */
        return ld_slurm_play(c, j, text, key, league, err, errlen);
    /* a placement or rating round a stopped worker left resumes where it stopped; an SPRT starts over (its curve
     * is drawn from the games as they finish) */
    ss_league_opts o = { .text = text, .config = name, .db = c->db, .logs = logs,
                         .fresh = strcmp(j->kind, "sprt") == 0, .secret = key, .secret_name = c->secret };
    ss_session *s = NULL;
    int rc = ss_open_league(&o, &s, err, errlen) == SS_OK ? 0 : -1;
    ss_callbacks cb = { .quiet = true, .game = on_game, .user = cs };
    rn_status st = rc == 0 ? ss_run(s, &cb, err, errlen) : RN_FAILED;
    if (rc == 0 && st != RN_DONE)
        rc = st == RN_STOPPED ? 1 : -1;
    if (rc == 0) {
        *league = ss_summary_of(s)->id;
        *outcome = strcmp(j->kind, "sprt") == 0 ? sprt_outcome(s, llr, err, errlen) : 1;
        rc = *outcome == -2 ? -1 : 0;
    }
    if (s)
        ss_close(s);
    return rc;
}

/* What a played job does to its submission, and the job's note. */
static int settle(ldb *d, const ldb_job *j, const ldb_submission *s, int outcome, double llr, long pairs, char *note,
                  size_t n, char *err, size_t errlen)
{
    bool sprt = strcmp(j->kind, "sprt") == 0;
    if (strcmp(j->kind, "rating") == 0) {
        snprintf(note, n, "rating round");
        return 0;
    }
    if (!sprt) {
        snprintf(note, n, "placed");
        return ld_join(d, s, err, errlen);
    }
    snprintf(note, n, "%s after %ld game pairs (LLR %.2f)",
             outcome > 0 ? "H1 accepted" : outcome < 0 ? "H0 accepted" : "undecided", pairs, llr);
    int rc = outcome > 0 ? ld_join(d, s, err, errlen) : 0;
    if (rc == 0 && ldb_submission_set(d, s->id, outcome > 0 ? "ladder" : "tested", note) != 0) {
        snprintf(err, errlen, "%s", ldb_error(d));
        rc = -1;
    }
    return rc;
}

/* Runs a claimed job; returns 0, 2 when a signal stopped it (it is queued again), or -1 when the ladder's database
 * failed. */
static int run_job(ldb *d, const ld_config *c, const ldb_job *j, ldb_submission *s, char *err, size_t errlen)
{
    if (c->runner == LD_RUN_SLURM && strcmp(j->kind, "sprt") != 0)
        ldb_job_runner(d, j->id, "slurm");
    else if (c->runner == LD_RUN_HOST) /* the coordinator here, the bots on the hosts (plan.h) */
        ldb_job_runner(d, j->id, "host");
    char why[1024] = "", note[600];
    int agents = 0;
    bool rating = strcmp(j->kind, "rating") == 0; /* a version on the ladder stays there while it plays */
    if (!rating)
        ldb_submission_set(d, s->id, "running", "");
    char *text = ld_plan(d, c, j, s, &agents, why, sizeof why);
    curve_state cs = { .d = d, .job = j->id, .half = -1 };
    cs.sprt = (pn_sprt){ s->elo0, s->elo1, 0.05, 0.05 };
    int64_t league = 0;
    int outcome = 1; /* a placement or rating round played is done; an SPRT's outcome comes from its league */
    double llr = 0;
    int rc = text ? 0 : -1;
    if (rc == 0 && agents > 1)
        rc = play(c, text, j, &cs, &league, &outcome, &llr, why, sizeof why);
    free(text);
    if (rc == 1) { /* stopped by a signal: back in the queue for the next worker */
        if (!rating)
            ldb_submission_set(d, s->id, "queued", "");
        return ldb_job_requeue(d, j->id) == 0 ? 2 : -1;
    }
    if (rc != 0) {
        snprintf(note, sizeof note, "%.500s", why);
        if (!rating)
            ldb_submission_set(d, s->id, "failed", note);
        return ldb_job_finish(d, j->id, "failed", league, note, (int64_t)time(NULL)) == 0 ? 0 : -1;
    }
    if (settle(d, j, s, outcome, llr, cs.pairs, note, sizeof note, err, errlen) != 0)
        return -1;
    if (agents == 1)
        snprintf(note, sizeof note, "no opponent on the ladder yet: joined without games");
    if (ldb_job_finish(d, j->id, "done", league, note, (int64_t)time(NULL)) != 0) { /* when it finished */
        snprintf(err, errlen, "%s", ldb_error(d));
        return -1;
    }
    return 0;
}

int ld_work_one(ldb *d, const ld_config *c, int64_t now, char *err, size_t errlen)
{
    static int denied;
    err[0] = '\0';
    if (!denied++)
        sb_deny(c->state);
    ldb_job j;
    int rc = ldb_job_claim(d, "local", now, &j);
    if (rc <= 0) {
        if (rc < 0)
            snprintf(err, errlen, "%s", ldb_error(d));
        return rc;
    }
    ldb_submission *s = calloc(1, sizeof *s);
    rc = s ? ldb_submission_get(d, j.submission, s) : -1;
    if (rc == 1 && (strcmp(s->state, "retired") == 0 || (strcmp(j.kind, "rating") == 0 && strcmp(s->state, "ladder"))))
        rc = ldb_job_finish(d, j.id, "failed", 0, "retired (or off the ladder) before it ran", now) == 0 ? 1 : -1;
    else if (rc == 1) {
        int r = run_job(d, c, &j, s, err, errlen);
        rc = r == 0 ? 1 : r == 2 ? 2 : -1;
    }
    else if (rc == 0)
        rc = ldb_job_finish(d, j.id, "failed", 0, "no such submission", now) == 0 ? 1 : -1;
    if (rc < 0 && !err[0])
        snprintf(err, errlen, "%s", s ? ldb_error(d) : "out of memory");
    free(s);
    return rc;
}
