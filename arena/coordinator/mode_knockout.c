/* arena/coordinator/mode_knockout.c — `mode = knockout` (docs/leagues.md "Knockout"): one single-elimination
 * bracket per variant and board, of the agents that play it, seeded in config order (the first listed is seed 1).
 * Round 1 pairs the seeds as a standard bracket (1 against the lowest, seeds 1 and 2 meet no earlier than the
 * final); when the field is not a power of two the top seeds get byes. A match is `games` games (games / 2 game
 * pairs, colours reversed within a pair, the higher seed Black first); the agent with more wins goes through. A
 * tie is broken by up to KO_TIEBREAK_PAIRS more game pairs, one at a time, each from a new opening, until one is
 * not split; a match still tied after them goes to the higher seed. A round's next round is scheduled once every
 * match of it is decided, so the schedule grows as results come in; everything is derived from the games in the
 * store, so a killed league resumes in the middle of a round. */
#include "mode.h"

#include <stdlib.h>
#include <string.h>

#define KO_TIEBREAK_PAIRS 2
#define KO_MAX_SLOTS 32             /* CFG_MAX_AGENTS rounded up to a power of two */
#define KO_MAX_ROUNDS 6

_Static_assert(CFG_MAX_AGENTS <= KO_MAX_SLOTS, "a bracket holds every agent of a config");

typedef struct {
    int a, b;                      /* agent indices, a the higher seed; b -1: a has a bye */
    long a_points, b_points;
    int pairs;                     /* game pairs scheduled (played and pending) */
    int add;                       /* game pairs to schedule now */
    int winner;                    /* agent index, -1 undecided */
    bool by_seed;                  /* still tied after the tie-break pairs: the higher seed went through */
} ko_match;

typedef struct {
    int v, b;                      /* variant, board index */
    int rounds;                    /* rounds reached (the last one possibly undecided) */
    int n_matches[KO_MAX_ROUNDS];
    ko_match match[KO_MAX_ROUNDS][KO_MAX_SLOTS / 2];
    int champion;                  /* -1 until decided */
} ko_bracket;

static int agent_index(const cfg_league *c, const char *name)
{
    for (int i = 0; i < c->n_agents; i++)
        if (strcmp(c->agents[i].name, name) == 0)
            return i;
    return -1;
}

/* The seed positions of a bracket of `size` slots (a power of two), in bracket order: 1, 8, 4, 5, 2, 7, 3, 6 for 8. */
static void seed_order(int size, int order[KO_MAX_SLOTS])
{
    order[0] = 1;
    for (int len = 1; len < size; len *= 2)
        for (int i = len - 1; i >= 0; i--) {
            order[2 * i] = order[i];
            order[2 * i + 1] = 2 * len + 1 - order[i];
        }
}

/* Results by match: played games and their wins (played), rows still to play (pending), each keyed with the
 * higher seed (lower config index) first. */
typedef struct {
    pg_table *played, *pending;
} ko_tally;

static int tally_add(const lm_state *s, pg_table *t, hx_variant v, int rows, int cols, const char *black,
                     const char *white, int winner)
{
    int x = agent_index(s->cfg, black), y = agent_index(s->cfg, white);
    if (x < 0 || y < 0)
        return 0; /* not an agent of this config: cannot happen, the schedule was written from it */
    int a = x < y ? x : y, b = x < y ? y : x;
    pg_pairing *q = pg_get(t, v, rows, cols, s->cfg->agents[a].name, s->cfg->agents[b].name);
    return q ? pg_add(q, a == x, winner >= 0 && (winner == HX_BLACK) == (a == x), -1, 0) : -1;
}

static int tally_make(const lm_state *s, ko_tally *t)
{
    t->played = pg_new();
    t->pending = pg_new();
    if (!t->played || !t->pending)
        return -1;
    for (int i = 0; i < s->n_games; i++) {
        const store_league_game *g = &s->games[i];
        if (tally_add(s, t->played, g->variant, g->rows, g->cols, g->black, g->white, g->winner) != 0)
            return -1;
    }
    for (int i = 0; i < s->n_pending; i++) {
        const store_planned *p = &s->pending[i];
        if (tally_add(s, t->pending, p->variant, p->rows, p->cols, p->black, p->white, -1) != 0)
            return -1;
    }
    return 0;
}

static void tally_free(ko_tally *t)
{
    pg_free(t->played);
    pg_free(t->pending);
}

/* Match m between agents a (higher seed) and b as the tally has it: decided, under way, or to be scheduled. */
static void match_state(const lm_state *s, const ko_tally *t, const ko_bracket *k, ko_match *m)
{
    const cfg_league *c = s->cfg;
    m->winner = -1;
    if (m->b < 0) {
        m->winner = m->a;
        return;
    }
    int rows = c->games.boards[k->b][0], cols = c->games.boards[k->b][1], regular = c->per_pairing / 2;
    pg_pairing *p = pg_find(t->played, (hx_variant)k->v, rows, cols, c->agents[m->a].name, c->agents[m->b].name);
    pg_pairing *q = pg_find(t->pending, (hx_variant)k->v, rows, cols, c->agents[m->a].name, c->agents[m->b].name);
    long played = p ? p->games : 0, pending = q ? q->games : 0;
    m->a_points = p ? p->a_wins : 0;
    m->b_points = p ? p->b_wins : 0;
    m->pairs = (int)((played + pending) / 2);
    if (m->pairs == 0) {
        m->add = regular;
        return;
    }
    if (pending > 0)
        return;
    if (m->a_points != m->b_points)
        m->winner = m->a_points > m->b_points ? m->a : m->b;
    else if (m->pairs < regular + KO_TIEBREAK_PAIRS)
        m->add = 1;
    else
        m->winner = m->a, m->by_seed = true;
}

/* The bracket of variant v on board b as far as the games decide it. Returns false when fewer than two agents
 * play it (no bracket). */
static bool bracket(const lm_state *s, const ko_tally *t, int v, int b, ko_bracket *k)
{
    const cfg_league *c = s->cfg;
    memset(k, 0, sizeof *k);
    k->v = v, k->b = b, k->champion = -1;
    int field[KO_MAX_SLOTS], n = 0;
    for (int i = 0; i < c->n_agents; i++)
        if (lg_plays(&s->plays[i], v, c->games.boards[b][0], c->games.boards[b][1]))
            field[n++] = i;
    if (n < 2)
        return false;
    int size = 1, order[KO_MAX_SLOTS], alive[KO_MAX_SLOTS];
    while (size < n)
        size *= 2;
    seed_order(size, order);
    for (int i = 0; i < size; i++)
        alive[i] = order[i] <= n ? field[order[i] - 1] : -1;
    for (int r = 0; size > 1 && r < KO_MAX_ROUNDS; r++, size /= 2) {
        bool decided = true;
        k->rounds = r + 1;
        k->n_matches[r] = size / 2;
        for (int i = 0; i < size / 2; i++) {
            ko_match *m = &k->match[r][i];
            int x = alive[2 * i], y = alive[2 * i + 1];
            m->a = x < 0 || (y >= 0 && y < x) ? y : x; /* the higher seed: the lower config index */
            m->b = m->a == x ? y : x;
            match_state(s, t, k, m);
            decided &= m->winner >= 0;
            alive[i] = m->winner;
        }
        if (!decided)
            return true;
    }
    k->champion = alive[0];
    return true;
}

/* Calls fn on every bracket of the league; returns -1 when the tally cannot be made (out of memory), else 0. */
static int each_bracket(const lm_state *s, void (*fn)(const lm_state *s, const ko_bracket *k, void *user), void *user)
{
    ko_tally t;
    int rc = tally_make(s, &t);
    static ko_bracket k; /* large; the arena plans one league at a time */
    for (int v = 0; rc == 0 && v < HX_VARIANT_COUNT; v++)
        for (int b = 0; (s->cfg->games.variants >> v & 1) && b < s->cfg->games.n_boards; b++)
            if (bracket(s, &t, v, b, &k))
                fn(s, &k, user);
    tally_free(&t);
    return rc;
}

typedef struct {
    store_planned *rows;
    int n, cap;
    bool oom;
} ko_plan;

static void plan_bracket(const lm_state *s, const ko_bracket *k, void *user)
{
    ko_plan *p = user;
    int r = k->rounds - 1;
    for (int i = 0; r >= 0 && i < k->n_matches[r]; i++) {
        const ko_match *m = &k->match[r][i];
        for (int j = 0; j < m->add && !p->oom; j++) {
            if (p->n + 2 > p->cap) {
                int cap = p->cap ? 2 * p->cap : 64;
                store_planned *grown = realloc(p->rows, sizeof *grown * (size_t)cap);
                if (!grown) {
                    p->oom = true;
                    return;
                }
                p->rows = grown, p->cap = cap;
            }
            lg_pair(s->cfg, s->suites, k->v, k->b, m->a, m->b, m->pairs + j, s->total + p->n, &p->rows[p->n]);
            p->n += 2;
        }
    }
}

static int plan(const lm_state *s, store_planned **out)
{
    ko_plan p = { 0 };
    if (each_bracket(s, plan_bracket, &p) != 0 || p.oom) {
        free(p.rows);
        *out = NULL;
        return -1;
    }
    *out = p.rows;
    return p.n;
}

static long long count(const cfg_league *c, const cfg_games *plays)
{
    long long n = 0;
    for (int v = 0; v < HX_VARIANT_COUNT; v++) {
        if (!(c->games.variants & (1u << v)))
            continue;
        for (int b = 0; b < c->games.n_boards; b++) {
            int field = 0;
            for (int i = 0; i < c->n_agents; i++)
                field += !plays || lg_plays(&plays[i], v, c->games.boards[b][0], c->games.boards[b][1]);
            if (field > 1)
                n += (long long)(field - 1) * (c->per_pairing + 2 * KO_TIEBREAK_PAIRS);
        }
    }
    return n;
}

typedef struct {
    FILE *out;
    bool json;
    int brackets;
} ko_print;

static void name_json(FILE *out, const cfg_league *c, int agent)
{
    if (agent < 0) {
        fputs("null", out);
        return;
    }
    fputc('"', out);
    for (const char *q = c->agents[agent].name; *q; q++) /* section names: printable ASCII without spaces */
        fprintf(out, *q == '"' || *q == '\\' ? "\\%c" : "%c", *q);
    fputc('"', out);
}

static void match_json(FILE *out, const cfg_league *c, const ko_match *m)
{
    fputs("{\"a\":", out);
    name_json(out, c, m->a);
    fputs(",\"b\":", out);
    name_json(out, c, m->b);
    fprintf(out, ",\"a_wins\":%ld,\"b_wins\":%ld,\"pairs\":%d,\"winner\":", m->a_points, m->b_points, m->pairs);
    name_json(out, c, m->winner);
    fprintf(out, ",\"by_seed\":%s}", m->by_seed ? "true" : "false");
}

static void match_text(FILE *out, const cfg_league *c, const ko_match *m)
{
    if (m->b < 0) {
        fprintf(out, "%s (bye)", c->agents[m->a].name);
        return;
    }
    fprintf(out, "%s %ld-%ld %s", c->agents[m->a].name, m->a_points, m->b_points, c->agents[m->b].name);
    if (m->pairs > c->per_pairing / 2)
        fprintf(out, " (%d tie-break pair%s%s)", m->pairs - c->per_pairing / 2, m->pairs - c->per_pairing / 2 == 1 ? "" : "s",
                m->by_seed ? ", tied: the higher seed goes through" : "");
    if (m->winner < 0)
        fputs(" (under way)", out);
}

static void print_bracket(const lm_state *s, const ko_bracket *k, void *user)
{
    ko_print *p = user;
    const cfg_league *c = s->cfg;
    int rows = c->games.boards[k->b][0], cols = c->games.boards[k->b][1];
    const char *v = hx_variant_name((hx_variant)k->v);
    if (p->json) {
        fprintf(p->out, "%s{\"variant\":\"%s\",\"board\":\"%dx%d\",\"champion\":", p->brackets ? "," : "", v, rows, cols);
        name_json(p->out, c, k->champion);
        fputs(",\"rounds\":[", p->out);
        for (int r = 0; r < k->rounds; r++) {
            fputs(r ? ",[" : "[", p->out);
            for (int i = 0; i < k->n_matches[r]; i++) {
                fputs(i ? "," : "", p->out);
                match_json(p->out, c, &k->match[r][i]);
            }
            fputc(']', p->out);
        }
        fputs("]}", p->out);
    } else {
        fprintf(p->out, "knockout %s %dx%d: %s%s\n", v, rows, cols, k->champion >= 0 ? "champion " : "under way",
                k->champion >= 0 ? c->agents[k->champion].name : "");
        for (int r = 0; r < k->rounds; r++) {
            fprintf(p->out, "  round %d: ", r + 1);
            for (int i = 0; i < k->n_matches[r]; i++) {
                fputs(i ? "; " : "", p->out);
                match_text(p->out, c, &k->match[r][i]);
            }
            fputc('\n', p->out);
        }
    }
    p->brackets++;
}

static void summarise(const lm_state *s, FILE *out, bool json)
{
    ko_print p = { out, json, 0 };
    if (json)
        fputs(",\"knockout\":[", out);
    if (each_bracket(s, print_bracket, &p) != 0 && !json)
        fputs("knockout: out of memory\n", out);
    if (json)
        fputc(']', out);
}

const lm_mode lm_knockout = {
    .name = "knockout",
    .lists_pairings = true,
    .extra_pairs = KO_TIEBREAK_PAIRS,
    .plan = plan,
    .count = count,
    .summarise = summarise,
};
