/* tests/bench/bench_ismcts.c — the ismcts bot's speed and memory (agents/ismcts/): on 7x7 and 11x11 positions
 * of random classical, abrupt and hex games a third and two thirds of the way in, the hidden boards drawn per
 * second (ism_sample: uniform cells, then the bot's default cell model), the share of plain draws the observations reject (the hidden count's
 * cells uniform on the unknown cells, checked by ism_consistent), the search's iterations per second (a
 * board drawn, a tree walk, a playout), the resistance prior's boards per second and its time an attempt, against mc's samples per second (mc_score_sample: a board drawn, a
 * random fill, two Gale walks) on the same position, all measured in this run; the dead-cell tests' time on
 * random views;
 * then per game: tree memory and the sure-win solver's memo and time on 3x3, 4x3 and 4x4 classical and
 * abrupt, 7x7 and 11x11 classical. Prints figures; asserts nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "ismplay.h"
#include "resist.h"
#include "scorer.h"

static volatile uint64_t sink;

/* A position `frac` of the cells of random attempts into a game of v, the player to move (not over). */
static void position(hx_game *g, hx_variant v, int side, double frac, rng_state *rng)
{
    do {
        hx_new(g, v, side, side, 0);
        for (int i = 0; i < (int)(side * side * frac) && !hx_over(g); i++)
            hx_attempt(g, hx_random_legal(g, rng));
    } while (hx_over(g));
}

/* Boards drawn per second by ism_sample(). */
static double samples_per_s(const ism_belief *b, double secs, rng_state *rng)
{
    uint8_t opp[HX_MAX_CELLS];
    uint64_t n = 0;
    double t0 = clk_now(), t;
    do {
        for (int i = 0; i < 256; i++)
            sink += (uint64_t)ism_sample(b, rng, opp);
        n += 256;
        t = clk_now() - t0;
    } while (t < secs);
    return (double)n / t;
}

/* The share of plain draws (a count by the belief's weights, its cells uniform on the unknown cells) that
 * ism_consistent() rejects. */
static double rejected(const ism_belief *b, int draws, rng_state *rng)
{
    uint8_t opp[HX_MAX_CELLS];
    uint16_t cells[HX_MAX_CELLS];
    int bad = 0;
    for (int d = 0; d < draws; d++) {
        double u = rng_double(rng), acc = 0;
        int h = b->hidden_lo;
        for (; h < b->hidden_hi; h++)
            if ((acc += b->hidden_weight[h]) > u && b->hidden_weight[h] > 0)
                break;
        while (h > b->hidden_lo && b->hidden_weight[h] <= 0)
            h--;
        for (int i = 0; i < b->cells; i++)
            opp[i] = b->view[i] == HX_VIEW_OPPONENT;
        memcpy(cells, b->unknown, sizeof cells[0] * (size_t)b->n_unknown);
        for (int i = 0; i < h; i++) {
            int j = i + (int)rng_below(rng, (uint32_t)(b->n_unknown - i));
            uint16_t c = cells[j];
            cells[j] = cells[i], cells[i] = c;
            opp[c] = 1;
        }
        bad += !ism_consistent(b, opp);
    }
    return (double)bad / draws;
}

/* Drawn boards per second evaluated for the resistance prior: a board drawn by the belief and both players'
 * flows on it (resist.h), as search.c's prior does. */
static double resist_per_s(const ism_belief *b, double secs, rng_state *rng)
{
    uint8_t opp[HX_MAX_CELLS], col[HX_MAX_CELLS];
    double mine[HX_MAX_CELLS], theirs[HX_MAX_CELLS];
    uint64_t n = 0;
    double t0 = clk_now(), t;
    do {
        for (int i = 0; i < 16; i++) {
            sink += (uint64_t)ism_sample(b, rng, opp);
            for (int c = 0; c < b->cells; c++)
                col[c] = b->view[c] == HX_VIEW_OWN ? (uint8_t)b->color
                         : opp[c]                  ? (uint8_t)(b->color ^ 1)
                                                   : ISM_RESIST_EMPTY;
            ism_resist_flow(b->rows, b->cols, col, b->color, mine);
            ism_resist_flow(b->rows, b->cols, col, b->color ^ 1, theirs);
            sink += (uint64_t)(mine[0] + theirs[0] > 0);
        }
        n += 16;
        t = clk_now() - t0;
    } while (t < secs);
    return (double)n / t;
}

/* mc's samples per second on the same position. */
static double mc_per_s(const hx_game *g, double secs, rng_state *rng)
{
    static mc_sampler s;
    static uint32_t mark[HX_MAX_CELLS], score[HX_MAX_CELLS];
    mc_sampler_of_game(&s, g, hx_to_move(g));
    uint32_t stamp = 0;
    uint64_t n = 0;
    double t0 = clk_now(), t;
    do {
        for (int i = 0; i < 256; i++)
            sink += (uint64_t)mc_score_sample(&s, MC_FILL_ALTERNATE, rng, mark, ++stamp, score);
        n += 256;
        t = clk_now() - t0;
    } while (t < secs);
    return (double)n / t;
}

static void speed(ism_search *search, rng_state *rng)
{
    static const hx_variant vs[] = { HX_CLASSICAL, HX_ABRUPT, HX_HEX };
    static const int sides[] = { 7, 11 };
    static const double fracs[] = { 1.0 / 3, 2.0 / 3 };
    static ism_belief b;
    printf("ismcts: speed on one core, positions of random games (0.5 s a figure)\n");
    printf("%-10s %-6s %-5s %12s %12s %10s %10s %9s %12s %8s %12s %9s\n", "variant", "board", "into", "samples/s",
           "weighted/s", "rejected", "resist/s", "prior ms", "iterations/s", "nodes", "mc samples/s", "it/mc");
    for (size_t v = 0; v < sizeof vs / sizeof vs[0]; v++)
        for (size_t k = 0; k < sizeof sides / sizeof sides[0]; k++)
            for (size_t f = 0; f < 2; f++) {
                hx_game g;
                do { /* a position the search has to think about: no connecting cell to play at once */
                    position(&g, vs[v], sides[k], fracs[f], rng);
                    ism_belief_of_game(&b, &g, hx_to_move(&g));
                } while (ism_connecting_cell(&b) >= 0);
                double sps = samples_per_s(&b, 0.5, rng), rej = rejected(&b, 20000, rng);
                /* the bot's defaults from here */
                ism_belief_weigh(&b, ISM_CELLS_DEFAULT, ISM_CELLS_BETA_DEFAULT, ISM_CELLS_NEAR_DEFAULT);
                double cps = samples_per_s(&b, 0.5, rng);
                double rps = hx_variant_dark(vs[v]) ? resist_per_s(&b, 0.5, rng) : 0;
                ism_options o = { .seconds = 0.5, .uct = 0.7, .rave = 3000, .pivot = 8,
                                  .opp_centre = ISM_OPP_CENTRE_DEFAULT, .opp_grow = ISM_OPP_GROW_DEFAULT,
                                  .opp_goal = ISM_OPP_GOAL_DEFAULT, .resist = ISM_RESIST_DEFAULT,
                                  .resist_boards = ISM_RESIST_BOARDS_DEFAULT };
                ism_stats st;
                ism_choose(search, &b, &o, rng, &st);
                double ips = st.seconds > 0 ? st.iterations / st.seconds : 0, mps = mc_per_s(&g, 0.5, rng);
                char board[16];
                snprintf(board, sizeof board, "%dx%d", sides[k], sides[k]);
                printf("%-10s %-6s %-5s %12.0f %12.0f %9.2f%% %10.0f %9.2f %12.0f %8d %12.0f %8.2fx\n",
                       hx_variant_name(vs[v]), board, f ? "2/3" : "1/3", sps, cps, 100 * rej, rps,
                       rps > 0 ? 1000.0 * ISM_RESIST_BOARDS_DEFAULT / rps : 0, ips, st.nodes, mps, ips / mps);
            }
}

/* The dead-cell tests' time on 7x7 and 11x11 views: every cell but `unknown` random ones a known stone of a
 * uniformly random colour, neither side joined; the pattern alone with a third of the cells unknown, the
 * exact test with 10. */
static void dead_cells(rng_state *rng)
{
    static ism_belief b;
    uint8_t dead[HX_MAX_CELLS], view[HX_MAX_CELLS], mine[HX_MAX_CELLS], theirs[HX_MAX_CELLS];
    printf("\nismcts: dead cells (random views, neither side joined; the mean over views)\n");
    printf("%-6s %-8s %8s %12s %10s\n", "board", "test", "unknown", "us a call", "dead");
    static const int sides[] = { 7, 11 };
    for (size_t k = 0; k < 2; k++)
        for (int exact = 0; exact < 2; exact++) {
            int side = sides[k], cells = side * side, n_unknown = exact ? 10 : cells / 3, positions = 0;
            double secs = 0;
            long found = 0;
            while (positions < (exact ? 20 : 200)) {
                for (int i = 0; i < cells; i++) {
                    view[i] = (uint8_t)(1 + rng_below(rng, 2));
                    mine[i] = view[i] == HX_VIEW_OWN, theirs[i] = view[i] == HX_VIEW_OPPONENT;
                }
                for (int u = 0; u < n_unknown;) {
                    int c = (int)rng_below(rng, (uint32_t)cells);
                    if (view[c] != HX_VIEW_UNKNOWN)
                        view[c] = HX_VIEW_UNKNOWN, mine[c] = theirs[c] = 0, u++;
                }
                if (ism_joins(side, side, HX_BLACK, mine) || ism_joins(side, side, HX_WHITE, theirs))
                    continue;
                ism_belief_init(&b, HX_CLASSICAL, side, side, HX_BLACK, view, NULL, 0);
                double t0 = clk_now();
                found += ism_dead_cells(&b, exact ? ISM_DEAD_EXACT_LIMIT : 0, dead);
                secs += clk_now() - t0;
                positions++;
            }
            char board[16];
            snprintf(board, sizeof board, "%dx%d", side, side);
            printf("%-6s %-8s %8d %12.1f %9.1f%%\n", board, exact ? "exact" : "pattern", n_unknown,
                   1e6 * secs / positions, 100.0 * found / ((double)n_unknown * positions));
        }
}

/* Whole games of ism_play() (iterations a move) against a random player, both colours: per game, the tree
 * memory its moves used (the largest and the sum over its moves), the share of its moves the solver made,
 * the solver's time per move and its memo at the end. */
static void per_game(rng_state *rng)
{
    static const struct { hx_variant v; int rows, cols; } shapes[] = {
        { HX_CLASSICAL, 3, 3 }, { HX_CLASSICAL, 4, 3 }, { HX_CLASSICAL, 4, 4 }, { HX_ABRUPT, 4, 3 },
        { HX_ABRUPT, 4, 4 }, { HX_CLASSICAL, 7, 7 }, { HX_CLASSICAL, 11, 11 },
    };
    const int games = 20;
    printf("\nismcts: per game (%d games against random, both colours, 2,000 iterations a move, solver limit "
           "0.1 s a move)\n", games);
    printf("%-10s %-6s %8s %14s %14s %10s %12s %12s %10s\n", "variant", "board", "moves", "tree max B", "tree sum B",
           "by solver", "solver ms", "memo B", "won");
    ism_play_options o = { .search = { .iterations = 2000, .uct = 0.7, .rave = 3000, .pivot = 8,
                                       .resist = ISM_RESIST_DEFAULT, .resist_boards = ISM_RESIST_BOARDS_DEFAULT },
                           .surewin = true,
                           .sure_unknown = SW_MAX_CELLS, .sure_seconds = 0.1, .sure_bytes = 64ull << 20,
                           .dead = true, .dead_exact = ISM_DEAD_EXACT_DEFAULT, .cells = ISM_CELLS_DEFAULT,
                           .cells_beta = ISM_CELLS_BETA_DEFAULT, .cells_near = ISM_CELLS_NEAR_DEFAULT };
    o.search.opp_centre = ISM_OPP_CENTRE_DEFAULT;
    o.search.opp_grow = ISM_OPP_GROW_DEFAULT, o.search.opp_goal = ISM_OPP_GOAL_DEFAULT;
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        ism_player *p = ism_player_new();
        long moves = 0, by_solver = 0, tree_max = 0, tree_sum = 0, won = 0;
        double solver_s = 0;
        uint64_t memo = 0;
        for (int game = 0; game < games; game++) {
            hx_game g;
            hx_new(&g, shapes[k].v, shapes[k].rows, shapes[k].cols, 0);
            int me = game % 2;
            while (!hx_over(&g)) {
                if (hx_to_move(&g) != me) {
                    hx_attempt(&g, hx_random_legal(&g, rng));
                    continue;
                }
                ism_play_stats st;
                int c = ism_play_game(p, &o, &g, rng, &st);
                by_solver += st.by == ISM_BY_SUREWIN;
                solver_s += st.sure_seconds;
                tree_sum += st.search.tree_bytes;
                tree_max = st.search.tree_bytes > tree_max ? st.search.tree_bytes : tree_max;
                moves++;
                hx_attempt(&g, c);
            }
            won += hx_winner(&g) == me;
            sw *s = ism_sure_solver(ism_player_sure(p));
            if (s) {
                sw_stats ss;
                sw_get_stats(s, &ss);
                memo = ss.bytes > memo ? ss.bytes : memo;
            }
        }
        char board[16];
        snprintf(board, sizeof board, "%dx%d", shapes[k].rows, shapes[k].cols);
        printf("%-10s %-6s %8.1f %14ld %14.0f %9.0f%% %12.3f %12llu %6ld/%d\n", hx_variant_name(shapes[k].v), board,
               (double)moves / games, tree_max, (double)tree_sum / games, 100.0 * by_solver / moves,
               1000 * solver_s / moves, (unsigned long long)memo, won, games);
        ism_player_free(p);
    }
    printf("(memory allocated once per process for the search: %zu bytes)\n", ism_search_size());
}

/* How well each cell model (belief.h) places the hidden stones: over games between two mc players (mc_choose,
 * 1,000 samples a move, from the empty board), at every attempt with hidden stones, 100 boards drawn per
 * model; the hit rate is the share of drawn hidden stones that stand on one of the true hidden stones. The
 * uniform model's rate is the hidden count over the unknown cells; a model of the opponent that puts stones
 * where it really plays scores above it. */
static void belief_accuracy(rng_state *rng)
{
    static const struct { ism_cell_model m; double beta, near; } models[] = {
        { ISM_CELLS_UNIFORM, 0, 0 }, { ISM_CELLS_CENTRE, 1, 0 }, { ISM_CELLS_CENTRE, 2.5, 0 },
        { ISM_CELLS_CENTRE, 2.5, 1 }, { ISM_CELLS_CENTRE, 2.5, 3 }, { ISM_CELLS_CENTRE, 2.5, 8 },
    };
    enum { N_MODELS = sizeof models / sizeof models[0], DRAWS = 100, GAMES = 20 };
    static const hx_variant vs[] = { HX_CLASSICAL, HX_ABRUPT, HX_CLASSICAL_FLASH, HX_ABRUPT_FLASH };
    static const int sides[] = { 5, 7, 11 };
    static ism_belief b;
    static mc_sampler ms;
    printf("\nismcts: the belief's hit rate: drawn hidden stones on a true hidden stone (games of mc, %d "
           "samples a move; %d games a row, %d draws a model per attempt)\n", 1000, GAMES, DRAWS);
    printf("%-16s %-6s %8s", "variant", "board", "attempts");
    for (int m = 0; m < N_MODELS; m++) {
        char name[32];
        if (models[m].near > 0)
            snprintf(name, sizeof name, "%s %.2g+n%.2g", ism_cell_model_name(models[m].m), models[m].beta,
                     models[m].near);
        else
            snprintf(name, sizeof name, "%s %.2g", ism_cell_model_name(models[m].m), models[m].beta);
        printf(" %12s", m == 0 ? "uniform" : name);
    }
    printf("\n");
    for (size_t v = 0; v < sizeof vs / sizeof vs[0]; v++)
        for (size_t k = 0; k < sizeof sides / sizeof sides[0]; k++) {
            double hits[N_MODELS] = { 0 }, drawn[N_MODELS] = { 0 }, brier[N_MODELS] = { 0 };
            long attempts = 0;
            for (int game = 0; game < GAMES; game++) {
                hx_game g;
                hx_new(&g, vs[v], sides[k], sides[k], 0);
                while (!hx_over(&g)) {
                    int me = hx_to_move(&g);
                    ism_belief_of_game(&b, &g, me);
                    uint8_t truth[HX_MAX_CELLS], opp[HX_MAX_CELLS];
                    int hidden = 0;
                    for (int i = 0; i < hx_cells(&g); i++) {
                        truth[i] = hx_owner(&g, i) == (me ^ 1) + 1 && b.view[i] == HX_VIEW_UNKNOWN;
                        hidden += truth[i];
                    }
                    if (hidden > 0) {
                        attempts++;
                        for (int m = 0; m < N_MODELS; m++) {
                            int freq[HX_MAX_CELLS] = { 0 }, ok = 0;
                            ism_belief_weigh(&b, models[m].m, models[m].beta, models[m].near);
                            for (int d = 0; d < DRAWS; d++) {
                                if (ism_sample(&b, rng, opp) < 0)
                                    continue;
                                ok++;
                                for (int i = 0; i < hx_cells(&g); i++)
                                    if (opp[i] && b.view[i] == HX_VIEW_UNKNOWN)
                                        drawn[m]++, hits[m] += truth[i], freq[i]++;
                            }
                            for (int u = 0; u < b.n_unknown && ok > 0; u++) {
                                double p = (double)freq[b.unknown[u]] / ok - truth[b.unknown[u]];
                                brier[m] += p * p / b.n_unknown;
                            }
                        }
                    }
                    mc_sampler_of_game(&ms, &g, me);
                    mc_options mo = { .samples = 1000, .fill = MC_FILL_ALTERNATE };
                    hx_attempt(&g, mc_choose(&ms, &mo, rng, NULL));
                }
            }
            char board[16];
            snprintf(board, sizeof board, "%dx%d", sides[k], sides[k]);
            printf("%-16s %-6s %8ld", hx_variant_name(vs[v]), board, attempts);
            for (int m = 0; m < N_MODELS; m++)
                printf(" %11.2f%%", drawn[m] > 0 ? 100 * hits[m] / drawn[m] : 0);
            printf("\n%-16s %-6s %8s", "", "", "skill");
            for (int m = 0; m < N_MODELS; m++)
                printf(" %+11.1f%%", brier[0] > 0 ? 100 * (1 - brier[m] / brier[0]) : 0);
            printf("\n");
        }
}

int main(void)
{
    rng_state rng;
    rng_seed(&rng, 5);
    if (getenv("BENCH_ISMCTS_BELIEF_ONLY")) {
        belief_accuracy(&rng);
        return 0;
    }
    ism_search *search = ism_search_new();
    if (!search)
        return 1;
    speed(search, &rng);
    ism_search_free(search);
    dead_cells(&rng);
    per_game(&rng);
    belief_accuracy(&rng);
    return 0;
}
