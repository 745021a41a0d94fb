/* agents/policy/policy_bot.c — bin/policy-bot: plays policy files (docs/policy-format.md) of any trainer.
 * Each move looks the player's information state up (perfect-recall key from its event log, or the view
 * key) in the file for the game's variant and board and samples an action with the game's seed; a state
 * missing from the file falls back to uniform over the legal cells (in a closed file, so do all the
 * player's later states in that game: the file's rule), and the count of such moves is
 * written to stderr (the agent's log) at the end of every game. The bot announces exactly the variants
 * and boards of its files, so a league does not schedule it elsewhere. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "policy.h"
#include "variant.h"

#define MAX_POLICIES 64

static pf_policy policies[MAX_POLICIES];
static int n_policies;
static const pf_policy *current;
static uint64_t base_seed = 1;
static rng_state rng;
static long decisions, fallbacks, total_decisions, total_fallbacks;
static bool after_missing; /* a closed file: a state of this game was missing, the rest is uniform */

static void game_start(const bot_state *s, void *user)
{
    (void)user;
    rng_seed(&rng, base_seed ^ s->seed);
    current = NULL;
    for (int i = 0; i < n_policies; i++) {
        const pf_meta *m = &policies[i].meta;
        if (m->variant == s->variant && m->rows == s->rows && m->cols == s->cols &&
            ((m->flags & HX_SWAP_RULE) != 0) == s->swap_rule)
            current = &policies[i];
    }
    decisions = fallbacks = 0;
    after_missing = false;
}

static int choose(const bot_state *s, void *user)
{
    (void)user;
    uint16_t legal[HX_MAX_CELLS + 1];
    int n = bot_legal(s, legal);
    decisions++;
    int64_t e = -1;
    if (current && !after_missing) {
        uint64_t key;
        if (current->meta.keys == PF_KEYS_VIEW) {
            int reports = 0;
            for (int i = 0; i < s->n_events; i++)
                reports += s->events[i].kind == HX_EV_OPP_HIT || s->events[i].kind == HX_EV_OPP_HIT_AT;
            key = hx_view_key_of(s->view, s->cells, s->color, reports);
        } else {
            key = hx_events_hash(s->events, s->n_events);
        }
        e = pf_find(current, s->color, key);
        after_missing = e < 0 && current->meta.closed && current->meta.keys == PF_KEYS_PERFECT;
    }
    if (e >= 0) {
        /* Only a legal cell is played. */
        int cell = pf_sample(current, e, (double)(rng_next(&rng) >> 11) * 0x1.0p-53);
        for (int i = 0; i < n; i++)
            if (legal[i] == cell)
                return cell;
    }
    fallbacks++;
    return legal[rng_below(&rng, (uint32_t)n)];
}

static void game_end(const bot_state *s, int winner, const uint8_t *board, void *user)
{
    (void)winner;
    (void)board;
    (void)user;
    total_decisions += decisions;
    total_fallbacks += fallbacks;
    if (!current)
        fprintf(stderr, "policy-bot: game %llu: no policy for %dx%d %s: played uniformly (%ld moves)\n",
                (unsigned long long)s->game, s->rows, s->cols, hx_variant_name(s->variant), decisions);
    else if (fallbacks)
        fprintf(stderr, "policy-bot: game %llu: %ld of %ld moves fell back to uniform (information state not in "
                "the policy); %ld of %ld in all games\n", (unsigned long long)s->game, fallbacks, decisions,
                total_fallbacks, total_decisions);
}

static const char help[] =
    "usage: policy-bot (--policy FILE | --policy-dir DIR) ... [--seed S] [--endpoint ENDPOINT]\n\n"
    "Plays policy files (docs/policy-format.md) written by cfr-train or any other trainer: each move\n"
    "samples the policy of the player's information state, with the game's seed mixed with --seed S\n"
    "(default 1), so a game replays exactly. Several files (one per variant and board) may be given,\n"
    "or a directory whose *.pol files are all loaded (at most 64 files);\n"
    "the bot announces exactly their variants and boards. An information state missing from the file\n"
    "is played uniformly and counted (in a closed file, so are the player's later states of that game);\n"
    "the counts go to stderr (the agent's log) after each game.\n"
    "The coordinator starts it with ARENA_ENDPOINT and ARENA_TOKEN set (docs/protocol.md).\n\n"
    "Exit status: 0 after a shutdown, 1 connection failure, 2 bad arguments or a bad policy file.\n";

/* Loads one file; returns false after printing why. */
static bool load(bot_spec *spec, const char *path)
{
    if (n_policies == MAX_POLICIES) {
        fprintf(stderr, "policy-bot: at most %d policy files\n", MAX_POLICIES);
        return false;
    }
    char err[512];
    pf_policy *p = &policies[n_policies];
    if (pf_load(p, path, err, sizeof err) != 0) {
        fprintf(stderr, "policy-bot: %s\n", err);
        return false;
    }
    for (int j = 0; j < n_policies; j++)
        if (policies[j].meta.variant == p->meta.variant && policies[j].meta.rows == p->meta.rows &&
            policies[j].meta.cols == p->meta.cols && policies[j].meta.flags == p->meta.flags) {
            fprintf(stderr, "policy-bot: %s: a second policy for %dx%d %s\n", path, p->meta.rows, p->meta.cols,
                    hx_variant_name(p->meta.variant));
            pf_close(p);
            return false;
        }
    n_policies++;
    spec->variants |= 1u << p->meta.variant;
    bool known = false;
    for (int j = 0; j < spec->n_boards; j++)
        known |= spec->boards[j][0] == p->meta.rows && spec->boards[j][1] == p->meta.cols;
    if (!known && spec->n_boards < 16) {
        spec->boards[spec->n_boards][0] = (uint8_t)p->meta.rows;
        spec->boards[spec->n_boards][1] = (uint8_t)p->meta.cols;
        spec->n_boards++;
    }
    return true;
}

static int by_name(const struct dirent **a, const struct dirent **b) { return strcmp((*a)->d_name, (*b)->d_name); }

static int only_policies(const struct dirent *e)
{
    size_t n = strlen(e->d_name);
    return n > 4 && strcmp(e->d_name + n - 4, ".pol") == 0;
}

/* Loads every *.pol file of a directory, in name order. */
static bool load_dir(bot_spec *spec, const char *dir)
{
    struct dirent **list;
    int n = scandir(dir, &list, only_policies, by_name);
    if (n < 0) {
        fprintf(stderr, "policy-bot: --policy-dir %s: cannot read the directory\n", dir);
        return false;
    }
    bool ok = n > 0;
    if (!ok)
        fprintf(stderr, "policy-bot: --policy-dir %s: no .pol files\n", dir);
    for (int i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, list[i]->d_name);
        ok = ok && load(spec, path);
        free(list[i]);
    }
    free(list);
    return ok;
}

int main(int argc, char **argv)
{
    bot_spec spec = { .name = "policy-bot", .version = "1.0", .choose = choose, .game_start = game_start,
                      .game_end = game_end };
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) {
            fputs(help, stdout);
            return 0;
        }
        int seeded = bot_seed_option("policy-bot", argc, argv, &i, &base_seed);
        if (seeded < 0)
            return 2;
        if (seeded)
            continue;
        if (strcmp(argv[i], "--policy") == 0 || strcmp(argv[i], "--policy-dir") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "policy-bot: %s needs a value\n", argv[i]);
                return 2;
            }
            bool dir = strcmp(argv[i], "--policy-dir") == 0;
            i++;
            if (!(dir ? load_dir(&spec, argv[i]) : load(&spec, argv[i])))
                return 2;
        }
    }
    if (n_policies == 0) {
        fprintf(stderr, "policy-bot: give at least one --policy FILE (see 'policy-bot --help')\n");
        return 2;
    }
    int status = bot_run(&spec, argc, argv);
    for (int i = 0; i < n_policies; i++)
        pf_close(&policies[i]);
    return status;
}
