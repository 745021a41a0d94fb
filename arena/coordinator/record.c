/* arena/coordinator/record.c — a run's games from the runner into the store (see record.h): the runner's hello and
 * finished callbacks, which register agents and store games, and the run around them. */
#include "record.h"
#include "clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Records with the run that the agent (stored, id > 0) plays without a sandbox, when it does. */
static int note_unsandboxed(rec_run *r, const rec_agent *a)
{
    if (!a->command->sandbox.off || r->run <= 0)
        return 0;
    return store_run_unsandboxed(r->store, r->run, a->id);
}

/* The agent's id in the store, storing it first when it has none yet (or storing it failed before). */
static int64_t agent_id(rec_run *r, int i)
{
    rec_agent *a = &r->agents[i];
    if (a->id <= 0) {
        a->id = store_agent(r->store, a->name, a->command->line, a->version, a->command->sha256);
        for (int f = 0; a->id > 0 && a->files && f < a->files->n; f++)
            if (store_agent_file(r->store, a->id, a->files->files[f].path, a->files->files[f].sha256) != 0)
                a->id = -1;
        if (a->id > 0 && note_unsandboxed(r, a) != 0)
            a->id = -1; /* stored again next time, and recorded then */
    }
    return a->id;
}

/* Why game g could not be stored (agent: one of its agents could not be): a game of a schedule is named by
 * its position in the league, any other by its id in the run. Returns false, for the runner. */
static bool not_stored(const rec_run *r, const rn_game *g, bool agent, char *why, size_t whylen)
{
    const store_planned *p = g->tag;
    if (p)
        snprintf(why, whylen, "cannot store game %d of the schedule: %s", p->n, store_error(r->store));
    else if (agent)
        snprintf(why, whylen, "cannot record the agent: %s", store_error(r->store));
    else
        snprintf(why, whylen, "cannot store game %llu: %s", (unsigned long long)g->id, store_error(r->store));
    return false;
}

static bool on_next_game(void *user, rn_game *g)
{
    rec_run *r = user;
    return r->next_game(r->user, g);
}

static bool on_hello(void *user, int agent, const pm_msg *hello, char *why, size_t whylen)
{
    rec_run *r = user;
    rec_agent *a = &r->agents[agent];
    snprintf(a->version, sizeof a->version, "%s", hello->version);
    if (!r->hello_names)
        a->id = 0; /* stored again, now with its version */
    else if (hello->name[0] && !a->named)
        snprintf(a->name, sizeof a->name, "%s", hello->name);
    if (agent_id(r, agent) < 0) {
        snprintf(why, whylen, "cannot record the agent: %s", store_error(r->store));
        return false;
    }
    return true;
}

static bool on_finished(void *user, const rn_result *res, char *why, size_t whylen)
{
    rec_run *r = user;
    const rn_game *g = res->game;
    const store_planned *p = g->tag;
    int64_t black = agent_id(r, g->black), white = agent_id(r, g->white);
    if (black < 0 || white < 0)
        return not_stored(r, g, true, why, whylen);
    store_game_rec rec = { .run = r->run, .black = black, .white = white, .seed = g->seed, .winner = res->winner,
                           .reason = res->reason, .detail = res->detail, .seconds = res->seconds,
                           .started = res->started, .finished = res->finished, .game = res->play,
                           .schedule = p ? p->id : 0, .opening = g->opening_len, .think_ms = res->think_ms };
    char tc[2][TC_TEXT_MAX];
    for (int c = 0; c < 2; c++)
        if (res->clock[c]) {
            rec.time_control[c] = tc_format(&res->clock[c]->tc, tc[c], sizeof tc[c]);
            rec.clock_ms[c] = res->clock[c]->left_ms;
        }
    if (store_game(r->store, &rec) < 0)
        return not_stored(r, g, false, why, whylen);
    rec_agent *w = &r->agents[res->winner == HX_BLACK ? g->black : g->white];
    rec_agent *l = &r->agents[res->winner == HX_BLACK ? g->white : g->black];
    w->wins++;
    w->wins_as[res->winner]++;
    w->games++;
    if (l != w)
        l->games++;
    if (res->reason != HX_END_CONNECTED) {
        r->forfeits[res->reason]++;
        l->forfeits[res->reason]++;
    }
    r->played++;
    progress_game(&r->prog, res->reason != HX_END_CONNECTED);
    return r->stored ? r->stored(r->user, res, why, whylen) : true;
}

int rec_begin(rec_run *r, const char *kind, const char *description, const uint8_t seed_key[SEEDS_KEY_BYTES],
              char *err, size_t errlen)
{
    memcpy(r->seed_key, seed_key, SEEDS_KEY_BYTES);
    r->run = store_run_begin(r->store, kind, description);
    if (r->run >= 0 && store_run_secret(r->store, r->run, r->seed_key, SEEDS_KEY_BYTES) != 0)
        r->run = -1;
    for (int i = 0; r->run > 0 && i < r->n_agents; i++) /* agents stored before the run began */
        if (r->agents[i].id > 0 && note_unsandboxed(r, &r->agents[i]) != 0)
            r->run = -1;
    if (r->run < 0) {
        snprintf(err, errlen, "cannot record the run: %s", store_error(r->store));
        return -1;
    }
    return 0;
}

/* An agent host announced `agent`: its command line and executable are the host's. */
static void on_host_agent(void *user, int agent, const char *command, const char *sha256)
{
    rec_run *r = user;
    ag_command *c = r->agents[agent].command;
    snprintf(c->line, sizeof c->line, "%s", command);
    snprintf(c->sha256, sizeof c->sha256, "%s", sha256);
}

void rec_attach(rec_run *r, rn_config *cfg)
{
    r->next_game = cfg->next_game;
    r->user = cfg->user;
    cfg->next_game = on_next_game;
    cfg->hello = on_hello;
    cfg->finished = on_finished;
    cfg->host_agent = on_host_agent;
    cfg->user = r;
    r->n_agents = cfg->n_agents;
}

rn_status rec_play(rec_run *r, const rn_config *cfg, long total, long every, bool quiet, double *seconds, char *err,
                   size_t errlen)
{
    if (r->run <= 0) {
        snprintf(err, errlen, "the run was not begun in the store (rec_begin)");
        return RN_FAILED;
    }
    rn_config run = *cfg;
    run.seed_key = r->seed_key; /* the secret rec_begin stored with the run */
    progress_start(&r->prog, total, every, quiet);
    double t0 = clk_now();
    rn_status st = total > 0 ? rn_run(&run, err, errlen) : RN_DONE;
    *seconds = clk_now() - t0;
    progress_end(&r->prog);
    if (st == RN_DONE)
        store_run_end(r->store, r->run);
    return st;
}

long rec_agent_forfeits(const rec_agent *a)
{
    long n = 0;
    for (int i = 1; i < HX_END_COUNT; i++)
        n += a->forfeits[i];
    return n;
}

long rec_forfeits(const rec_run *r)
{
    long n = 0;
    for (int i = 1; i < HX_END_COUNT; i++)
        n += r->forfeits[i];
    return n;
}

/* Whether two agents of the run are one agent of the store: the same name, command line and executable. */
static bool same_agent(const rec_agent *a, const rec_agent *b)
{
    return strcmp(a->name, b->name) == 0 && strcmp(a->command->line, b->command->line) == 0 &&
           strcmp(a->command->sha256, b->command->sha256) == 0;
}

int rec_unsandboxed(const rec_run *r, const char **names, int max)
{
    int n = 0;
    for (int i = 0; i < r->n_agents; i++) {
        if (!r->agents[i].command->sandbox.off)
            continue;
        bool seen = false; /* a match of a bot against itself names it once */
        for (int j = 0; j < i && !seen; j++)
            seen = r->agents[j].command->sandbox.off && same_agent(&r->agents[j], &r->agents[i]);
        if (seen)
            continue;
        if (n < max)
            names[n] = r->agents[i].name;
        n++;
    }
    return n;
}

void rec_label(rec_run *r)
{
    bool *shared = calloc((size_t)(r->n_agents > 0 ? r->n_agents : 1), sizeof *shared);
    if (!shared)
        return; /* the names as stored */
    for (int i = 0; i < r->n_agents; i++)
        for (int j = 0; j < r->n_agents && !shared[i]; j++)
            shared[i] = strcmp(r->agents[i].name, r->agents[j].name) == 0 && !same_agent(&r->agents[i], &r->agents[j]);
    for (int i = 0; i < r->n_agents; i++) {
        rec_agent *a = &r->agents[i];
        size_t len = strlen(a->name);
        if (shared[i] && a->id > 0)
            snprintf(a->name + len, sizeof a->name - len, "#%lld", (long long)a->id);
    }
    free(shared);
}
