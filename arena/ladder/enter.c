/* arena/ladder/enter.c — a bot version entering the ladder (enter.h): quotas, ownership, what it plays, the record
 * and its job. */
#include "enter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "local.h"
#include "plan.h"
#include "submission.h"

/* The boards of b that the ladder plays too, as text ("3x3, 4x4"); 0 when none. */
static int shared_boards(const cfg_games *ladder, const cfg_games *b, char *out, size_t n)
{
    int k = 0;
    size_t at = 0;
    out[0] = '\0';
    for (int i = 0; i < b->n_boards; i++)
        for (int j = 0; j < ladder->n_boards; j++)
            if (b->boards[i][0] == ladder->boards[j][0] && b->boards[i][1] == ladder->boards[j][1] && at < n) {
                at += (size_t)snprintf(out + at, n - at, "%s%dx%d", k++ ? ", " : "", b->boards[i][0], b->boards[i][1]);
            }
    return k;
}

/* The checks before anything is unpacked: quota of submissions. 1 fine, 0 refused, -1 failure. */
static int quota_ok(ldb *d, const ld_config *c, const ldb_account *who, int64_t now, char *err, size_t errlen)
{
    if (!who->approved) {
        snprintf(err, errlen, "the account '%s' is waiting for an admin's approval", who->name);
        return 0;
    }
    int rc = ld_rate(d, who->id, "submission", c->submissions_per_day, 86400, now);
    if (rc == 0)
        snprintf(err, errlen, "quota: %ld submissions a day (LADDER.ini [quota] submissions_per_day)",
                 c->submissions_per_day);
    else if (rc < 0)
        snprintf(err, errlen, "%s", ldb_error(d));
    return rc;
}

/* Who owns the name, whether the version is new, and for a test, the version it is tested against. */
static int name_ok(ldb *d, const ldb_account *who, const ld_manifest *m, const ld_entry_opts *o, char *err,
                   size_t errlen)
{
    enum { MAX = 256 };
    char written[64];
    int other = ldb_name_as_written(d, m->name, written, sizeof written);
    if (other != 0) { /* "Evebot" beside "evebot" would read as the same bot on every page */
        if (other > 0)
            snprintf(err, errlen, "name: '%s' is the bot '%s' written in another case: names are the same whatever "
                     "their case", m->name, written);
        else
            snprintf(err, errlen, "%s", ldb_error(d));
        return other > 0 ? 0 : -1;
    }
    ldb_submission *prev = calloc(MAX, sizeof *prev);
    int n = prev ? ldb_submissions(d, "", m->name, prev, MAX) : -1;
    if (n < 0) {
        snprintf(err, errlen, "%s", prev ? ldb_error(d) : "out of memory");
        free(prev);
        return -1;
    }
    bool on_ladder = false;
    int rc = 1;
    for (int i = 0; i < n && rc == 1; i++) {
        if (prev[i].account != who->id) {
            snprintf(err, errlen, "name: '%s' is the bot of account '%s'", m->name, prev[i].owner);
            rc = 0;
        } else if (strcmp(prev[i].version, m->version) == 0) {
            snprintf(err, errlen, "version: '%s' of '%s' was submitted before", m->version, m->name);
            rc = 0;
        }
        on_ladder |= strcmp(prev[i].state, "ladder") == 0;
    }
    free(prev);
    if (rc != 1)
        return rc;
    if (o->sprt && !on_ladder) {
        snprintf(err, errlen, "sprt: no version of '%s' is on the ladder to test against", m->name);
        return 0;
    }
    if (o->sprt && !(o->elo1 > o->elo0 && o->elo0 > -2000 && o->elo1 < 2000)) {
        snprintf(err, errlen, "sprt: elo1 (%g) must be above elo0 (%g)", o->elo1, o->elo0);
        return 0;
    }
    return 1;
}

/* Records the submission and queues its job. */
static int64_t record(ldb *d, const ld_config *c, const ldb_account *who, const ld_manifest *m, const char *sha256,
                      const char *dir, const char *program, const char *args, int64_t bytes, const ld_entry_opts *o,
                      int64_t now, char *err, size_t errlen)
{
    ldb_submission s = { .account = who->id, .variants = m->variants & c->variants, .bytes = bytes, .created = now };
    if (!s.variants || shared_boards(&c->boards, &m->boards, s.boards, sizeof s.boards) == 0) {
        snprintf(err, errlen, "it plays none of the ladder's %s", !s.variants ? "variants" : "boards");
        return 0;
    }
    snprintf(s.name, sizeof s.name, "%s", m->name);
    snprintf(s.version, sizeof s.version, "%s", m->version);
    snprintf(s.sha256, sizeof s.sha256, "%s", sha256);
    snprintf(s.dir, sizeof s.dir, "%s", dir);
    snprintf(s.program, sizeof s.program, "%s", program);
    snprintf(s.args, sizeof s.args, "%s", args);
    snprintf(s.state, sizeof s.state, "queued");
    snprintf(s.mode, sizeof s.mode, o->sprt ? "sprt" : "placement");
    s.elo0 = o->elo0;
    s.elo1 = o->elo1;
    long games = ld_plan_games(d, c, s.mode, &s, err, errlen);
    int64_t so_far = games < 0 ? -1 : ldb_account_games(d, who->id, now - 86400 + 1);
    if (games < 0 || so_far < 0) {
        if (so_far < 0 && games >= 0)
            snprintf(err, errlen, "%s", ldb_error(d));
        return -1;
    }
    if (c->games_per_day && so_far + games > c->games_per_day) {
        snprintf(err, errlen, "quota: its %s may play %ld games, and %lld were queued in the last day: over %ld "
                 "(LADDER.ini [quota] games_per_day)", s.mode, games, (long long)so_far, c->games_per_day);
        return 0;
    }
    int64_t id = ldb_submission_add(d, &s);
    if (id < 0 || ldb_job_add(d, id, s.mode, games, now) < 0) {
        snprintf(err, errlen, "%s", ldb_error(d));
        return strstr(err, "submitted before") ? 0 : -1;
    }
    return id;
}

int64_t ld_enter_archive(ldb *d, const ld_config *c, const ldb_account *who, const void *data, size_t len,
                         const char *name, const ld_entry_opts *o, int64_t now, char *err, size_t errlen)
{
    int rc = quota_ok(d, c, who, now, err, errlen);
    if (rc <= 0)
        return rc;
    ld_inspected in;
    if (ld_inspect(data, len, name, &c->archive, &in, err, errlen) != 0)
        return 0;
    int64_t kept = ldb_account_bytes(d, who->id);
    if (kept < 0 || (c->bytes_stored && (uint64_t)kept + in.bytes > c->bytes_stored)) {
        if (kept < 0)
            snprintf(err, errlen, "%s", ldb_error(d));
        else
            snprintf(err, errlen, "quota: %llu bytes kept and %llu more would pass %llu (LADDER.ini [quota] "
                     "bytes_stored; retire a version first)", (unsigned long long)kept, (unsigned long long)in.bytes,
                     (unsigned long long)c->bytes_stored);
        return kept < 0 ? -1 : 0;
    }
    if ((rc = name_ok(d, who, &in.manifest, o, err, errlen)) <= 0)
        return rc;
    char shared[256];
    if (!(in.manifest.variants & c->variants) || !shared_boards(&c->boards, &in.manifest.boards, shared, sizeof shared)) {
        snprintf(err, errlen, "it plays none of the ladder's %s", !(in.manifest.variants & c->variants) ? "variants"
                                                                                                          : "boards");
        return 0; /* refused before anything is unpacked */
    }
    ld_submission s;
    if (ld_submit_archive(data, len, name, &c->archive, c->store, &s, err, errlen) != 0)
        return -1;
    return record(d, c, who, &in.manifest, s.in.sha256, s.dir, in.manifest.program, in.manifest.args,
                  (int64_t)in.bytes, o, now, err, errlen);
}

int64_t ld_enter_local(ldb *d, const ld_config *c, const ldb_account *who, const char *cmdline,
                       const ld_manifest *m, const ld_entry_opts *o, int64_t now, char *err, size_t errlen)
{
    int rc = quota_ok(d, c, who, now, err, errlen);
    if (rc <= 0)
        return rc;
    const char *dirs[LD_MAX_ALLOWED];
    for (int i = 0; i < c->n_allowed; i++)
        dirs[i] = c->allowed_dirs[i];
    ld_local l;
    if (ld_local_command(cmdline, dirs, c->n_allowed, &l, err, errlen) != 0)
        return 0;
    if ((rc = name_ok(d, who, m, o, err, errlen)) <= 0)
        return rc;
    return record(d, c, who, m, "", l.dir, l.program, l.args, 0, o, now, err, errlen);
}

int ld_retire(ldb *d, const ldb_account *who, int64_t submission, char *err, size_t errlen)
{
    ldb_submission s;
    int rc = ldb_submission_get(d, submission, &s);
    if (rc <= 0) {
        snprintf(err, errlen, rc < 0 ? "%s" : "no such submission", ldb_error(d));
        return rc;
    }
    if (s.account != who->id && !who->admin) {
        snprintf(err, errlen, "'%s' %s is not yours to retire", s.name, s.version);
        return 0;
    }
    char note[128];
    snprintf(note, sizeof note, "retired by %s", who->name);
    if (ldb_submission_set(d, submission, "retired", note) != 0) {
        snprintf(err, errlen, "%s", ldb_error(d));
        return -1;
    }
    return 1;
}
