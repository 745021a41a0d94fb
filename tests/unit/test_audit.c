/* tests/unit/test_audit.c — the information audit of the referee. 100,000 random games over every variant (hex
 * with and without the swap rule, classical, abrupt and their -noisy and -flash versions) and rectangular
 * boards from 2x2 to 6x6, played in-process through arena/protocol/referee as the coordinator plays them. Every
 * message goes through the wire format, and the decoded copy is checked against a model of what its
 * receiver may know, written here from rules.md and fed only the true attempts and their true outcomes:
 * each field must follow from that knowledge (a turn goes to the player to move; the protocol sends no
 * move number), each message must tell all of it that is due (no less), no message before game_end may
 * name a hidden opponent stone, and game_end must show the true board and winner. Attempts the mover
 * already knows to be illegal must be refused without a message. A second case plants leaks and wrong
 * messages and checks that the audit reports each one. */
#include <stdarg.h>

#include "referee.h"
#include "test_util.h"

#define AUDIT_GAMES 100000
#define AUDIT_SEED 0x5eed2a0d17ULL
#define MOVE_MS 250u

/* ---- the rules, from rules.md ------------------------------------------------------------------ */

enum { REPORT_NONE, REPORT_NOISY, REPORT_FLASH };

/* Per variant: are opponent stones hidden, does a hit on one keep the turn, what its owner is told. */
static const struct {
    bool dark, keeps_turn;
    int report;
} rules[HX_VARIANT_COUNT] = {
    [HX_HEX] = { false, false, REPORT_NONE },
    [HX_CLASSICAL] = { true, true, REPORT_NONE },
    [HX_ABRUPT] = { true, false, REPORT_NONE },
    [HX_CLASSICAL_NOISY] = { true, true, REPORT_NOISY },
    [HX_CLASSICAL_FLASH] = { true, true, REPORT_FLASH },
    [HX_ABRUPT_NOISY] = { true, false, REPORT_NOISY },
    [HX_ABRUPT_FLASH] = { true, false, REPORT_FLASH },
};

/* The audited configurations: the seven variants, and hex with the swap rule (square boards only). */
#define CONFIG_SWAP HX_VARIANT_COUNT
#define CONFIG_COUNT (HX_VARIANT_COUNT + 1)

static const int boards[][2] = { { 2, 2 }, { 2, 3 }, { 3, 2 }, { 3, 3 }, { 2, 5 }, { 4, 3 }, { 3, 4 },
                                 { 4, 4 }, { 5, 3 }, { 4, 5 }, { 5, 4 }, { 5, 5 }, { 5, 6 }, { 6, 6 } };
static const int square_boards[] = { 2, 3, 4, 5, 6 };
#define N_BOARDS (int)(sizeof boards / sizeof boards[0])
#define N_SQUARE (int)(sizeof square_boards / sizeof square_boards[0])

/* One thing a player is told, in order: its own attempt (told in `result`) or news of the opponent
 * (told in a `turn` event). */
typedef struct {
    bool own;
    hx_event_kind kind; /* news: HX_EV_OPP_PLACED, HX_EV_SWAP, HX_EV_OPP_HIT or HX_EV_OPP_HIT_AT */
    hx_outcome outcome; /* own: what the attempt did */
    int cell;           /* own: the attempted cell or HX_SWAP; news: the cell told (0 for HX_EV_OPP_HIT) */
    bool won;           /* own: the attempt won the game */
} fact;

/* The truth of one game and what each player may know of it. */
typedef struct {
    /* the setup, all of which both players are told in game_start */
    uint64_t id;
    hx_variant variant;
    int rows, cols, cells;
    bool swap_rule;
    uint64_t seed[2];
    /* the truth */
    uint8_t owner[HX_MAX_CELLS]; /* 0 empty, 1 Black, 2 White */
    int to_move, winner;         /* HX_NOBODY: nobody (over / not yet) */
    int attempts;                /* legal attempts played */
    int first;                   /* Black's first stone (the swap mirrors it) */
    /* per player: its view (0 unknown, 1 its stone, 2 an opponent stone it knows), its facts, how many
     * of them it has been sent, and whether its game_end came */
    uint8_t view[2][HX_MAX_CELLS];
    fact facts[2][HX_MAX_EVENTS];
    int n_facts[2], told[2];
    bool closed[2];
    /* the end, once decided */
    bool ending;
    int end_winner;
    hx_end_reason end_reason;
    char end_detail[PM_MAX_STRING + 1];
} model;

static void model_start(model *m, uint64_t id, hx_variant v, int rows, int cols, bool swap_rule, uint64_t s0,
                        uint64_t s1)
{
    m->id = id;
    m->variant = v;
    m->rows = rows;
    m->cols = cols;
    m->cells = rows * cols;
    m->swap_rule = swap_rule;
    m->seed[0] = s0;
    m->seed[1] = s1;
    memset(m->owner, 0, (size_t)m->cells);
    memset(m->view[0], 0, (size_t)m->cells);
    memset(m->view[1], 0, (size_t)m->cells);
    m->to_move = HX_BLACK;
    m->winner = HX_NOBODY;
    m->attempts = 0;
    m->first = -1;
    m->n_facts[0] = m->n_facts[1] = m->told[0] = m->told[1] = 0;
    m->closed[0] = m->closed[1] = false;
    m->ending = false;
}

/* Do `player`'s stones join its two sides? (Black: row 0 to row R-1; White: column 0 to column C-1.) */
static bool joins(const model *m, int player)
{
    static const int dr[6] = { -1, -1, 0, 0, 1, 1 }, dc[6] = { 0, 1, -1, 1, -1, 0 };
    uint8_t seen[HX_MAX_CELLS];
    int stack[HX_MAX_CELLS], n = 0;
    memset(seen, 0, (size_t)m->cells);
    int starts = player == HX_BLACK ? m->cols : m->rows;
    for (int i = 0; i < starts; i++) {
        int cell = player == HX_BLACK ? i : i * m->cols;
        if (m->owner[cell] == player + 1) {
            seen[cell] = 1;
            stack[n++] = cell;
        }
    }
    while (n > 0) {
        int cell = stack[--n], r = cell / m->cols, c = cell % m->cols;
        if (player == HX_BLACK ? r == m->rows - 1 : c == m->cols - 1)
            return true;
        for (int d = 0; d < 6; d++) {
            int nr = r + dr[d], nc = c + dc[d];
            if (nr < 0 || nr >= m->rows || nc < 0 || nc >= m->cols)
                continue;
            int nb = nr * m->cols + nc;
            if (!seen[nb] && m->owner[nb] == player + 1) {
                seen[nb] = 1;
                stack[n++] = nb;
            }
        }
    }
    return false;
}

static bool swap_allowed(const model *m)
{
    return m->swap_rule && m->attempts == 1 && m->winner == HX_NOBODY;
}

/* The error an attempt must be refused with, or 0 when it is legal (rules.md: legal when the cell is
 * unknown in the mover's view; the swap only as White's first move). */
static int model_refusal(const model *m, int cell)
{
    if (cell == HX_SWAP)
        return swap_allowed(m) ? 0 : HX_ERR_SWAP;
    if (cell < 0 || cell >= m->cells)
        return HX_ERR_RANGE;
    int v = m->view[m->to_move][cell];
    return v == 1 ? HX_ERR_OWN : v == 2 ? HX_ERR_KNOWN : 0;
}

static void tell(model *m, int player, fact f)
{
    m->facts[player][m->n_facts[player]++] = f;
}

/* Plays a legal attempt on the true board; appends what each player learns. Returns the outcome. */
static hx_outcome model_attempt(model *m, int cell)
{
    const int p = m->to_move, o = p ^ 1;
    const hx_variant v = m->variant;
    m->attempts++;
    if (cell == HX_SWAP) { /* Black's stone at (r,c) becomes a White stone at (c,r); Black moves next */
        int b = m->first, w = (b % m->cols) * m->cols + b / m->cols;
        m->owner[b] = 0;
        m->view[HX_BLACK][b] = m->view[HX_WHITE][b] = 0;
        m->owner[w] = 2;
        m->view[HX_WHITE][w] = 1;
        m->view[HX_BLACK][w] = 2;
        bool won = joins(m, HX_WHITE);
        tell(m, HX_WHITE, (fact){ .own = true, .outcome = HX_SWAPPED, .cell = HX_SWAP, .won = won });
        tell(m, HX_BLACK, (fact){ .kind = HX_EV_SWAP, .cell = w });
        m->winner = won ? HX_WHITE : HX_NOBODY;
        m->to_move = won ? HX_NOBODY : HX_BLACK;
        return HX_SWAPPED;
    }
    if (m->owner[cell] == 0) {
        if (m->first < 0)
            m->first = cell;
        m->owner[cell] = (uint8_t)(p + 1);
        m->view[p][cell] = 1;
        if (!rules[v].dark) {
            m->view[o][cell] = 2;
            tell(m, o, (fact){ .kind = HX_EV_OPP_PLACED, .cell = cell });
        }
        bool won = joins(m, p);
        tell(m, p, (fact){ .own = true, .outcome = HX_PLACED, .cell = cell, .won = won });
        m->winner = won ? p : HX_NOBODY;
        m->to_move = won ? HX_NOBODY : o;
        return HX_PLACED;
    }
    /* a hidden opponent stone (a visible one is a refusal): the mover learns it */
    assert_true(rules[v].dark && m->owner[cell] == o + 1);
    m->view[p][cell] = 2;
    hx_outcome out = rules[v].keeps_turn ? HX_REJECTED : HX_COLLISION;
    tell(m, p, (fact){ .own = true, .outcome = out, .cell = cell });
    if (rules[v].report == REPORT_NOISY)
        tell(m, o, (fact){ .kind = HX_EV_OPP_HIT, .cell = 0 });
    else if (rules[v].report == REPORT_FLASH)
        tell(m, o, (fact){ .kind = HX_EV_OPP_HIT_AT, .cell = cell });
    if (!rules[v].keeps_turn)
        m->to_move = o;
    return out;
}

/* The game ends with this winner, reason and detail (game_end then shows the true board). */
static void model_end(model *m, int winner, hx_end_reason reason, const char *detail)
{
    m->ending = true;
    m->end_winner = winner;
    m->end_reason = reason;
    snprintf(m->end_detail, sizeof m->end_detail, "%s", detail);
}

/* ---- the checker ------------------------------------------------------------------------------- */

static char verdict[512];

static const char *violation(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *violation(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(verdict, sizeof verdict, fmt, ap);
    va_end(ap);
    return verdict;
}

static const char *colour(int p)
{
    return p == HX_BLACK ? "Black" : p == HX_WHITE ? "White" : "nobody";
}

static const char *cell_text(int cell, int cols)
{
    static char name[2][32];
    static int k;
    k ^= 1;
    if (cell == HX_SWAP)
        return "swap";
    char n[HX_CELL_NAME_MAX] = "?";
    if (cell >= 0 && cell < HX_MAX_CELLS)
        hx_cell_name(cell, cols, n);
    snprintf(name[k], sizeof name[k], "%s (%d)", n, cell);
    return name[k];
}

/* Does a cell named to player p give away a hidden opponent stone? */
static const char *check_cell(const model *m, int p, int cell, const char *field)
{
    if (cell < 0 || cell >= m->cells)
        return violation("%s: cell %d is not on the %dx%d board", field, cell, m->rows, m->cols);
    if (m->owner[cell] == (p ^ 1) + 1 && m->view[p][cell] != 2)
        return violation("leak: %s names %s, a hidden %s stone that %s has not learned", field,
                         cell_text(cell, m->cols), colour(p ^ 1), colour(p));
    return NULL;
}

static const char *check_start(const model *m, int p, const pm_msg *g)
{
    if (m->n_facts[p] != 0 || m->told[p] != 0)
        return violation("game_start after the game began");
    if (g->variant != m->variant)
        return violation("game_start: variant %s, the game is %s", hx_variant_name(g->variant),
                         hx_variant_name(m->variant));
    if (g->rows != m->rows || g->cols != m->cols)
        return violation("game_start: board %dx%d, the game is %dx%d", g->rows, g->cols, m->rows, m->cols);
    if (g->color != p)
        return violation("game_start: colour %s sent to %s", colour(g->color), colour(p));
    if (g->move_ms != MOVE_MS)
        return violation("game_start: move_ms %u, expected %u", g->move_ms, MOVE_MS);
    if (g->seed != m->seed[p])
        return violation("game_start: seed %llu is not %s's seed %llu", (unsigned long long)g->seed, colour(p),
                         (unsigned long long)m->seed[p]);
    if (g->swap != m->swap_rule)
        return violation("game_start: swap %d, the swap rule is %s", g->swap, m->swap_rule ? "on" : "off");
    return NULL;
}

static const char *check_turn(const model *m, int p, const pm_msg *g)
{
    const hx_variant v = m->variant;
    /* first the cells the events name, then whether the variant may say such a thing at all */
    for (int i = 0; i < g->n_events; i++) {
        hx_event e = g->events[i];
        char field[64];
        snprintf(field, sizeof field, "turn event %d (%s)", i, pm_event_name(e.kind));
        const char *bad = e.kind == HX_EV_OPP_HIT ? NULL : check_cell(m, p, e.cell, field);
        if (bad)
            return bad;
        switch (e.kind) {
        case HX_EV_OPP_PLACED:
            if (rules[v].dark)
                return violation("%s: an opponent placement reported in %s", field, hx_variant_name(v));
            break;
        case HX_EV_SWAP:
            if (!m->swap_rule)
                return violation("%s: a swap reported without the swap rule", field);
            break;
        case HX_EV_OPP_HIT:
            if (rules[v].report != REPORT_NOISY)
                return violation("%s: a collision report without a cell in %s", field, hx_variant_name(v));
            if (e.cell != 0)
                return violation("%s: carries cell %d; -noisy reports no cell", field, e.cell);
            break;
        case HX_EV_OPP_HIT_AT:
            if (rules[v].report != REPORT_FLASH)
                return violation("%s: a collision report with a cell in %s", field, hx_variant_name(v));
            if (m->owner[e.cell] != p + 1)
                return violation("%s: %s is not a stone of %s", field, cell_text(e.cell, m->cols), colour(p));
            break;
        default:
            return violation("%s: the player's own results come in `result`, never in a turn", field);
        }
    }
    if (m->winner != HX_NOBODY || m->ending)
        return violation("turn sent to %s after the game was over", colour(p));
    if (m->to_move != p)
        return violation("turn sent to %s, but %s is to move", colour(p), colour(m->to_move));
    /* then exactly the news due since the last message: no less, no more, in order */
    int due = m->n_facts[p] - m->told[p];
    for (int i = 0; i < due; i++)
        if (m->facts[p][m->told[p] + i].own)
            return violation("turn to %s while the result of its attempt was never sent", colour(p));
    for (int i = 0; i < due && i < g->n_events; i++) {
        const fact *f = &m->facts[p][m->told[p] + i];
        if (g->events[i].kind != f->kind || g->events[i].cell != f->cell)
            return violation("turn event %d is %s %s; %s may know %s %s there", i, pm_event_name(g->events[i].kind),
                             cell_text(g->events[i].cell, m->cols), colour(p), pm_event_name(f->kind),
                             cell_text(f->cell, m->cols));
    }
    if (g->n_events > due)
        return violation("turn tells %d events, more than the %d %s may learn", g->n_events, due, colour(p));
    if (g->n_events < due)
        return violation("turn tells %d events, less than the %d %s must learn (first left out: %s %s)",
                         g->n_events, due, colour(p), pm_event_name(m->facts[p][m->told[p] + g->n_events].kind),
                         cell_text(m->facts[p][m->told[p] + g->n_events].cell, m->cols));
    return NULL;
}

static const char *check_result(const model *m, int p, const pm_msg *g)
{
    if (g->cell != HX_SWAP) {
        const char *bad = check_cell(m, p, g->cell, "result cell");
        if (bad)
            return bad;
    }
    int due = m->n_facts[p] - m->told[p];
    const fact *f = due > 0 ? &m->facts[p][m->n_facts[p] - 1] : NULL;
    if (!f || !f->own)
        return violation("result sent to %s, which made no attempt since its last message", colour(p));
    if (due > 1)
        return violation("result sent to %s with news it was never told", colour(p));
    if (g->cell != f->cell)
        return violation("result cell %s; %s attempted %s", cell_text(g->cell, m->cols), colour(p),
                         cell_text(f->cell, m->cols));
    if (g->outcome != f->outcome)
        return violation("result outcome %s; the attempt at %s was %s", hx_outcome_name(g->outcome),
                         cell_text(f->cell, m->cols), hx_outcome_name(f->outcome));
    if (g->won != f->won)
        return violation("result won=%d; %s's stones %s its sides", g->won, colour(p), f->won ? "join" : "do not join");
    return NULL;
}

static const char *check_end(const model *m, const pm_msg *g)
{
    if (!m->ending)
        return violation("game_end before the game was over");
    int winner = m->end_reason == HX_END_CONNECTED ? m->winner : m->end_winner;
    if (m->end_reason == HX_END_CONNECTED && m->winner == HX_NOBODY)
        return violation("game_end (connected) while nobody has joined its sides");
    if (g->winner != winner)
        return violation("game_end: winner %s, the winner is %s", colour(g->winner), colour(winner));
    if (g->reason != m->end_reason)
        return violation("game_end: reason %s, expected %s", hx_end_name(g->reason), hx_end_name(m->end_reason));
    if (strcmp(g->detail, m->end_detail) != 0)
        return violation("game_end: detail '%s', expected '%s'", g->detail, m->end_detail);
    if (g->n_cells != m->cells)
        return violation("game_end: board of %d cells, the board has %d", g->n_cells, m->cells);
    for (int i = 0; i < m->cells; i++)
        if (g->board[i] != m->owner[i])
            return violation("game_end: board %s is %d, the true board holds %d", cell_text(i, m->cols), g->board[i],
                             m->owner[i]);
    if (m->end_reason == HX_END_CONNECTED && m->told[winner] != m->n_facts[winner])
        return violation("game_end: the winner was not told all it may know first");
    return NULL;
}

/* The first way the decoded message `g`, sent to player p now, breaks what p may know, or NULL. */
static const char *audit_message(const model *m, int p, const pm_msg *g)
{
    if (m->closed[p])
        return violation("%s sent to %s after its game_end", pm_type_name(g->type), colour(p));
    if (g->game != m->id)
        return violation("%s: game id %llu, the game is %llu", pm_type_name(g->type), (unsigned long long)g->game,
                         (unsigned long long)m->id);
    switch (g->type) {
    case PM_GAME_START:
        return check_start(m, p, g);
    case PM_TURN:
        return check_turn(m, p, g);
    case PM_RESULT:
        return check_result(m, p, g);
    case PM_GAME_END:
        return check_end(m, g);
    default:
        return violation("a %s message in a game", pm_type_name(g->type));
    }
}

/* Player p received the (audited) message g. */
static void audit_consume(model *m, int p, const pm_msg *g)
{
    if (g->type == PM_TURN)
        m->told[p] += g->n_events;
    else if (g->type == PM_RESULT)
        m->told[p]++;
    else if (g->type == PM_GAME_END)
        m->closed[p] = true;
}

/* Sends `in` through the wire format into `out`, as the receiver reads it. NULL, or what went wrong. */
static const char *wire(const pm_msg *in, pm_msg *out)
{
    static uint8_t bytes[PM_MAX_MESSAGE], again[PM_MAX_MESSAGE];
    char why[256];
    size_t n = pm_encode(in, bytes, sizeof bytes);
    if (n == 0)
        return violation("%s: does not encode", pm_type_name(in->type));
    if (pm_decode(bytes, n, out, why, sizeof why) != 0)
        return violation("%s: does not decode: %s", pm_type_name(in->type), why);
    if (out->type != in->type)
        return violation("%s decodes as %s", pm_type_name(in->type), pm_type_name(out->type));
    /* nothing travels beyond what the decoded message holds */
    if (pm_encode(out, again, sizeof again) != n || memcmp(again, bytes, n) != 0)
        return violation("%s: the bytes sent hold more than the decoded message", pm_type_name(in->type));
    return NULL;
}

/* ---- the random games -------------------------------------------------------------------------- */

typedef struct {
    long games, messages, attempts, refused, forfeits, swaps;
} tally;

static const char *config_name(int config)
{
    return config == CONFIG_SWAP ? "hex+swap" : hx_variant_name((hx_variant)config);
}

/* Where the audit is, for failure messages. */
static struct {
    int config;
    long game;
} at;

static void deliver(model *m, int p, const pm_msg *msg, tally *t)
{
    static pm_msg got;
    const char *bad = wire(msg, &got);
    if (!bad)
        bad = audit_message(m, p, &got);
    if (bad)
        fail_msg("%s %dx%d, game %ld (id %llu), after %d attempts: %s to %s: %s", config_name(at.config), m->rows,
                 m->cols, at.game, (unsigned long long)m->id, m->attempts, pm_type_name(msg->type), colour(p), bad);
    audit_consume(m, p, &got);
    t->messages++;
}

/* An attempt for the player to move: mostly a cell it does not know to be occupied; rarely one it knows
 * (its own stone, a learned opponent stone), a cell off the board or a swap out of place, all of which
 * must be refused; the swap a third of the times it is allowed. */
static int choose(const model *m, rng_state *rng)
{
    int unknown[HX_MAX_CELLS], known[HX_MAX_CELLS], nu = 0, nk = 0;
    const uint8_t *view = m->view[m->to_move];
    for (int c = 0; c < m->cells; c++) {
        if (view[c])
            known[nk++] = c;
        else
            unknown[nu++] = c;
    }
    uint32_t x = rng_below(rng, 1000);
    if (x < 15 && nk > 0)
        return known[rng_below(rng, (uint32_t)nk)];
    if (x >= 15 && x < 18)
        return m->cells + (int)rng_below(rng, (uint32_t)(HX_MAX_CELLS - m->cells));
    if (x >= 18 && x < 21)
        return HX_SWAP;
    if (swap_allowed(m) && rng_below(rng, 3) == 0)
        return HX_SWAP;
    assert_true(nu > 0); /* a full board has a winner */
    return unknown[rng_below(rng, (uint32_t)nu)];
}

/* The detail the coordinator stores and sends for an illegal attempt. */
static void illegal_detail(const model *m, int cell, int err, char *out, size_t len)
{
    if (cell == HX_SWAP) {
        snprintf(out, len, "swap: %s", hx_strerror(err));
    } else if (cell < 0 || cell >= m->cells) {
        snprintf(out, len, "cell %d: off the %dx%d board", cell, m->rows, m->cols);
    } else {
        char name[HX_CELL_NAME_MAX];
        hx_cell_name(cell, m->cols, name);
        snprintf(out, len, "%s: %s", name, hx_strerror(err));
    }
}

/* One game through the referee, as arena/coordinator/runner.c plays it: game_start to both, then turn / move / result
 * until the game is over (or an illegal attempt is forfeited), then game_end to both. */
static void audit_game(model *m, rng_state *rng, int config, int rows, int cols, uint64_t id, tally *t)
{
    static hx_referee r;
    static pm_msg msg, untouched;
    const hx_variant v = config == CONFIG_SWAP ? HX_HEX : (hx_variant)config;
    const bool swap_rule = config == CONFIG_SWAP;
    uint64_t s0 = rng_next(rng), s1 = rng_next(rng);
    if (ref_init(&r, id, v, rows, cols, swap_rule ? HX_SWAP_RULE : 0) != 0)
        fail_msg("ref_init %s %dx%d refused", config_name(config), rows, cols);
    for (int c = 0; c < 2; c++) /* the model reads outcomes from `result`s: protocol 1 (test_referee: both) */
        ref_speaks(&r, c, 1);
    model_start(m, id, v, rows, cols, swap_rule, s0, s1);
    for (int c = 0; c < 2; c++) {
        ref_game_start(&r, c, MOVE_MS, m->seed[c], &msg);
        deliver(m, c, &msg, t);
    }
    static bool marked;
    if (!marked) /* what a refused attempt must leave as it was */
        memset(&untouched, 0xa5, sizeof untouched), marked = true;
    bool forfeited = false;
    while (!hx_over(&r.game) && !forfeited) {
        int p = hx_to_move(&r.game);
        ref_turn(&r, &msg);
        deliver(m, p, &msg, t);
        for (;;) {
            int cell = choose(m, rng);
            int refusal = model_refusal(m, cell);
            if (refusal < 0) {
                msg = untouched;
                int before = hx_num_attempts(&r.game);
                int rc = ref_move(&r, cell, &msg);
                if (rc != refusal || memcmp(&msg, &untouched, sizeof msg) != 0 ||
                    hx_num_attempts(&r.game) != before || hx_to_move(&r.game) != p)
                    fail_msg("%s %dx%d game %ld: %s's attempt at %s returned %d (expected %d), %s, game %s",
                             config_name(config), rows, cols, at.game, colour(p), cell_text(cell, cols), rc, refusal,
                             memcmp(&msg, &untouched, sizeof msg) ? "a message was written" : "no message",
                             hx_num_attempts(&r.game) != before || hx_to_move(&r.game) != p ? "changed" : "unchanged");
                t->refused++;
                if (rng_below(rng, 8) == 0) { /* the coordinator's answer: the game is forfeited */
                    char detail[PM_MAX_STRING + 1];
                    illegal_detail(m, cell, rc, detail, sizeof detail);
                    model_end(m, p ^ 1, HX_END_ILLEGAL, detail);
                    ref_end(&r, p ^ 1, HX_END_ILLEGAL, detail, &msg);
                    for (int c = 0; c < 2; c++)
                        deliver(m, c, &msg, t);
                    t->forfeits++;
                    forfeited = true;
                    break;
                }
                continue;
            }
            hx_outcome want = model_attempt(m, cell);
            int rc = ref_move(&r, cell, &msg);
            if (rc != (int)want)
                fail_msg("%s %dx%d game %ld: %s's attempt at %s: referee outcome %d, the rules give %s",
                         config_name(config), rows, cols, at.game, colour(p), cell_text(cell, cols), rc,
                         hx_outcome_name(want));
            deliver(m, p, &msg, t);
            t->attempts++;
            t->swaps += want == HX_SWAPPED;
            if (hx_over(&r.game) != (m->winner != HX_NOBODY))
                fail_msg("%s %dx%d game %ld: the referee says the game is %s, the rules say %s", config_name(config),
                         rows, cols, at.game, hx_over(&r.game) ? "over" : "on", m->winner != HX_NOBODY ? "over" : "on");
            break;
        }
    }
    if (!forfeited) {
        model_end(m, m->winner, HX_END_CONNECTED, "");
        ref_end(&r, hx_winner(&r.game), HX_END_CONNECTED, "", &msg);
        for (int c = 0; c < 2; c++)
            deliver(m, c, &msg, t);
    }
    t->games++;
}

static void random_games_tell_each_player_exactly_what_it_may_know(void **state)
{
    (void)state;
    static model m;
    tally t[CONFIG_COUNT];
    memset(t, 0, sizeof t);
    rng_state rng;
    rng_seed(&rng, AUDIT_SEED);
    for (long g = 0; g < AUDIT_GAMES; g++) {
        int config = (int)(g % CONFIG_COUNT);
        long k = g / CONFIG_COUNT;
        int rows, cols;
        if (config == CONFIG_SWAP) {
            rows = cols = square_boards[k % N_SQUARE];
        } else {
            rows = boards[k % N_BOARDS][0];
            cols = boards[k % N_BOARDS][1];
        }
        at.config = config;
        at.game = g;
        audit_game(&m, &rng, config, rows, cols, (uint64_t)g + 1, &t[config]);
    }
    tally all = { 0, 0, 0, 0, 0, 0 };
    for (int c = 0; c < CONFIG_COUNT; c++) {
        printf("audit: %-15s %6ld games %9ld messages %8ld attempts (%ld refused, %ld forfeits, %ld swaps)\n",
               config_name(c), t[c].games, t[c].messages, t[c].attempts, t[c].refused, t[c].forfeits, t[c].swaps);
        all.games += t[c].games;
        all.messages += t[c].messages;
        all.attempts += t[c].attempts;
        all.refused += t[c].refused;
        all.forfeits += t[c].forfeits;
        all.swaps += t[c].swaps;
    }
    printf("audit: %-15s %6ld games %9ld messages %8ld attempts (%ld refused, %ld forfeits, %ld swaps)\n", "all",
           all.games, all.messages, all.attempts, all.refused, all.forfeits, all.swaps);
    assert_int_equal(all.games, AUDIT_GAMES);
}

/* ---- planted leaks ----------------------------------------------------------------------------- */

/* A game played step by step through the referee and the model together. */
typedef struct {
    hx_referee r;
    model m;
    pm_msg got;
} duo;

/* The audit of `msg` (sent to p) once it has crossed the wire. */
static const char *audit_sent(duo *d, int p, const pm_msg *msg)
{
    static pm_msg decoded;
    const char *bad = wire(msg, &decoded);
    return bad ? bad : audit_message(&d->m, p, &decoded);
}

/* Expects a clean message, then takes it as received. */
static void accept(duo *d, int p, const pm_msg *msg)
{
    const char *bad = audit_sent(d, p, msg);
    if (bad)
        fail_msg("a correct %s was reported: %s", pm_type_name(msg->type), bad);
    wire(msg, &d->got);
    audit_consume(&d->m, p, &d->got);
}

/* Expects the audit to report the mutated message, with `words` in its report. */
static void reported(duo *d, int p, const pm_msg *msg, const char *words)
{
    const char *bad = audit_sent(d, p, msg);
    if (!bad)
        fail_msg("a planted fault in a %s to %s went unreported", pm_type_name(msg->type), colour(p));
    if (!strstr(bad, words))
        fail_msg("a planted fault was reported as '%s', expected '%s'", bad, words);
}

static void duo_start(duo *d, hx_variant v, int rows, int cols, unsigned flags)
{
    static pm_msg msg;
    assert_int_equal(ref_init(&d->r, 7, v, rows, cols, flags), 0);
    ref_speaks(&d->r, HX_BLACK, 1);
    ref_speaks(&d->r, HX_WHITE, 1);
    model_start(&d->m, 7, v, rows, cols, (flags & HX_SWAP_RULE) != 0, 11, 12);
    for (int c = 0; c < 2; c++) {
        ref_game_start(&d->r, c, MOVE_MS, d->m.seed[c], &msg);
        accept(d, c, &msg);
    }
}

/* The next turn, audited clean; it stays in *turn for mutations. */
static void duo_turn(duo *d, pm_msg *turn)
{
    int p = hx_to_move(&d->r.game);
    ref_turn(&d->r, turn);
    accept(d, p, turn);
}

/* One attempt (named, e.g. "b2", or "swap") by the player to move; its result, not yet received, in
 * *result. */
static void duo_attempt(duo *d, const char *name, pm_msg *result)
{
    int cell = cell_of(&d->r.game, name);
    assert_int_equal(model_refusal(&d->m, cell), 0);
    hx_outcome want = model_attempt(&d->m, cell);
    assert_int_equal(ref_move(&d->r, cell, result), (int)want);
}

/* The same, its result audited clean and received. */
static void duo_move(duo *d, const char *name, pm_msg *result)
{
    int p = hx_to_move(&d->r.game);
    duo_attempt(d, name, result);
    accept(d, p, result);
}

/* Moves: a turn then an attempt, for each name. */
static void duo_play(duo *d, const char *names)
{
    static pm_msg msg;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", names);
    for (char *save = NULL, *n = strtok_r(buf, " ", &save); n; n = strtok_r(NULL, " ", &save)) {
        duo_turn(d, &msg);
        duo_move(d, n, &msg);
    }
}

static void planted_leaks_are_reported(void **state)
{
    (void)state;
    static duo d;
    static pm_msg turn, bad, result;

    /* classical 3x3: Black a1 is hidden from White */
    duo_start(&d, HX_CLASSICAL, 3, 3, 0);
    duo_play(&d, "a1");
    int p = hx_to_move(&d.r.game);
    ref_turn(&d.r, &turn);
    bad = turn;
    bad.events[bad.n_events++] = (hx_event){ HX_EV_OPP_PLACED, 0 }; /* White told where Black's stone is */
    reported(&d, p, &bad, "leak");
    bad = turn;
    bad.events[bad.n_events++] = (hx_event){ HX_EV_OPP_HIT, 0 }; /* a collision report in plain classical */
    reported(&d, p, &bad, "collision report");
    reported(&d, HX_BLACK, &turn, "but White is to move"); /* the turn sent to the wrong player */
    accept(&d, p, &turn);
    duo_attempt(&d, "a1", &result); /* rejected: White learns a1 */
    bad = result;
    bad.won = true;
    reported(&d, p, &bad, "won=1");
    bad = result;
    bad.outcome = HX_PLACED;
    reported(&d, p, &bad, "outcome placed");
    accept(&d, p, &result);
    duo_play(&d, "b1");
    ref_turn(&d.r, &turn); /* Black: White's b1 is hidden, White's attempt at a1 is not reported */
    bad = turn;
    bad.events[bad.n_events++] = (hx_event){ HX_EV_OPP_HIT_AT, 0 }; /* a flash report in plain classical */
    reported(&d, HX_BLACK, &bad, "collision report with a cell");
    bad.events[0].cell = 1; /* the same, at White's hidden stone: a leak first of all */
    reported(&d, HX_BLACK, &bad, "leak");
    accept(&d, HX_BLACK, &turn);
    duo_attempt(&d, "b1", &result); /* rejected: now Black knows b1 */
    bad = result;
    bad.cell = 2; /* a result naming another cell than the attempt */
    reported(&d, HX_BLACK, &bad, "attempted");
    accept(&d, HX_BLACK, &result);
    /* game_end: the true board, and only that */
    static pm_msg end;
    model_end(&d.m, HX_WHITE, HX_END_TIMEOUT, "no move");
    ref_end(&d.r, HX_WHITE, HX_END_TIMEOUT, "no move", &end);
    bad = end;
    bad.board[4] = 2; /* a stone that is not there */
    reported(&d, HX_BLACK, &bad, "true board");
    bad = end;
    bad.winner = HX_BLACK;
    reported(&d, HX_BLACK, &bad, "winner");
    accept(&d, HX_BLACK, &end);
    reported(&d, HX_BLACK, &turn, "after its game_end");

    /* classical-noisy: Black must be told that White hit one of its stones, and nothing more */
    duo_start(&d, HX_CLASSICAL_NOISY, 3, 3, 0);
    duo_play(&d, "a1 a1 b1");
    ref_turn(&d.r, &turn);
    assert_int_equal(turn.n_events, 1);
    bad = turn;
    bad.n_events = 0; /* the report left out */
    reported(&d, HX_BLACK, &bad, "less than");
    bad = turn;
    bad.events[0] = (hx_event){ HX_EV_OPP_HIT_AT, 0 }; /* the cell given in -noisy */
    reported(&d, HX_BLACK, &bad, "with a cell");
    bad = turn;
    bad.events[bad.n_events++] = (hx_event){ HX_EV_OPP_HIT, 0 }; /* one report too many */
    reported(&d, HX_BLACK, &bad, "more than");
    accept(&d, HX_BLACK, &turn);

    /* abrupt-flash: the cell of White's hidden stone in place of the stone White hit */
    duo_start(&d, HX_ABRUPT_FLASH, 3, 4, 0);
    duo_play(&d, "a1 c2 b1 a1");
    ref_turn(&d.r, &turn);
    assert_int_equal(turn.n_events, 1);
    bad = turn;
    bad.events[0].cell = 6; /* c2: White's stone */
    reported(&d, HX_BLACK, &bad, "leak");
    bad = turn;
    bad.events[0].cell = 1; /* b1: Black's own stone, but not the one hit */
    reported(&d, HX_BLACK, &bad, "may know");
    accept(&d, HX_BLACK, &turn);

    /* hex with the swap rule: every stone is told, and the swap with White's new stone */
    duo_start(&d, HX_HEX, 3, 3, HX_SWAP_RULE);
    duo_play(&d, "b1");
    ref_turn(&d.r, &turn);
    bad = turn;
    bad.n_events = 0;
    reported(&d, HX_WHITE, &bad, "less than");
    accept(&d, HX_WHITE, &turn);
    duo_attempt(&d, "swap", &result);
    assert_int_equal(result.outcome, HX_SWAPPED);
    bad = result;
    bad.won = true;
    reported(&d, HX_WHITE, &bad, "won=1");
    accept(&d, HX_WHITE, &result);
    ref_turn(&d.r, &turn);
    assert_int_equal(turn.n_events, 1);
    bad = turn;
    bad.events[0].cell = 1; /* the swap named at Black's old cell b1 instead of a2 */
    reported(&d, HX_BLACK, &bad, "may know");
    accept(&d, HX_BLACK, &turn);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(planted_leaks_are_reported),
        cmocka_unit_test(random_games_tell_each_player_exactly_what_it_may_know),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
