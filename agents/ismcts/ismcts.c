/* agents/ismcts/ismcts.c — the information-set MCTS bot (bin/ismcts): on each attempt it plays the solver's
 * sure win when there is one (surekey.h), else builds its belief over the opponent's hidden stones from its
 * information set (belief.h) and searches one tree over boards drawn from it (search.h), off the cells it
 * proves dead (deadcell.h); ismplay.h puts these together (docs/bots.md "ismcts"). With `--policy FILE` or
 * `--policy-dir DIR` it plays the files' strategies (a certified equilibrium) where they list its state in a game
 * from the empty board (ismpolicy.h). Built on the C SDK. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "ismplay.h"
#include "ismpolicy.h"

#define ISM_DEFAULT_TIME_MS 200
/* Never more than this share of the time the SDK gives the move (bot_time_for_move), whatever the options say:
 * the rest covers building the belief, the answer's trip and a busy machine. */
#define ISM_TIME_SHARE 0.5

static uint64_t base_seed = 1;
static rng_state rng;
static long opt_iterations = 0, opt_time_ms = -1, opt_samples = 0;
static long opt_sure_unknown = ISM_SURE_UNKNOWN_DEFAULT, opt_sure_mb = (long)(ISM_SURE_BYTES_DEFAULT >> 20);
static long opt_dead_exact = ISM_DEAD_EXACT_DEFAULT;
static bool opt_surewin = true, opt_dead = true;
static double opt_uct = 0.7, opt_rave = 3000, opt_pivot = 8, opt_belief_beta = ISM_CELLS_BETA_DEFAULT;
#define ISM_BELIEF_AUTO 2 /* --belief auto: ism_cells_default() */
static int opt_belief = ISM_BELIEF_AUTO; /* an ism_cell_model, or ISM_BELIEF_AUTO */
static double opt_opp_goal = ISM_OPP_GOAL_DEFAULT, opt_opp_grow = ISM_OPP_GROW_DEFAULT;
static double opt_opp_centre = ISM_OPP_CENTRE_DEFAULT, opt_belief_near = ISM_CELLS_NEAR_DEFAULT;
static long opt_resist_boards = ISM_RESIST_BOARDS_DEFAULT;
static double opt_resist = ISM_RESIST_DEFAULT;
static double opt_mix = 0;
static ism_player *player;
static ism_policies *policies; /* --policy, --policy-dir */
static long policy_moves;      /* this game's moves from the files */
static uint64_t lost_game = UINT64_MAX; /* the game whose sure-win key was last reported lost */

static void game_start(const bot_state *s, void *user)
{
    (void)user;
    rng_seed(&rng, base_seed ^ s->seed);
    policy_moves = 0;
}

static int choose(const bot_state *s, void *user)
{
    (void)user;
    uint16_t legal[HX_MAX_CELLS + 1];
    int n_legal = bot_legal(s, legal);
    if (n_legal == 0 || legal[0] == HX_SWAP) /* cannot happen in a game that is not over */
        return n_legal > 0 ? legal[0] : 0;
    int listed = ism_policies_choose(policies, s->variant, s->rows, s->cols, s->swap_rule, s->opening, s->color,
                                     s->events, s->n_events, legal, n_legal, &rng);
    if (listed >= 0) {
        policy_moves++;
        return listed;
    }
    /* --time-ms when given, else the default unless only --iterations was given; always capped by the move's
     * share of the time (with a game clock, its share of the clock). */
    double secs = bot_think_seconds(s, ISM_TIME_SHARE, opt_time_ms > 0      ? opt_time_ms / 1000.0
                                                      : opt_iterations > 0 ? -1
                                                                           : ISM_DEFAULT_TIME_MS / 1000.0);
    ism_play_options o = {
        .search = { .iterations = opt_iterations, .seconds = secs, .samples = (int)opt_samples, .uct = opt_uct,
                    .rave = opt_rave, .pivot = opt_pivot, .opp_centre = opt_opp_centre, .opp_goal = opt_opp_goal, .opp_grow = opt_opp_grow,
                                        .resist = opt_resist, .resist_boards = (int)opt_resist_boards, .mix = opt_mix },
        .surewin = opt_surewin, .sure_unknown = (int)opt_sure_unknown, .sure_seconds = secs * ISM_SURE_SHARE_DEFAULT,
        .sure_bytes = (uint64_t)opt_sure_mb << 20, .dead = opt_dead, .dead_exact = (int)opt_dead_exact,
        .cells = opt_belief == ISM_BELIEF_AUTO ? ism_cells_default(s->variant, s->rows, s->cols)
                                               : (ism_cell_model)opt_belief,
        .cells_beta = opt_belief_beta, .cells_near = opt_belief_near,
    };
    ism_play_stats st;
    int cell = ism_play(player, &o, s->variant, s->rows, s->cols, s->color, s->view, s->events, s->n_events, &rng,
                        &st);
    if (st.sure == ISM_SURE_FAILED && lost_game != s->game) { /* once a game, in the bot's log */
        fprintf(stderr, "ismcts: game %llu: no sure-win key after %d events (or its memo is full); searching\n",
                (unsigned long long)s->game, s->n_events);
        lost_game = s->game;
    }
    return cell;
}

/* --help */
static void usage(void)
{
    printf("usage: ismcts [--time-ms N] [--iterations N] [--samples N] [--uct C] [--rave K]\n"
           "              [--pivot W] [--no-surewin] [--surewin-unknown K] [--surewin-mb M] [--no-dead]\n"
           "              [--dead-exact K] [--belief MODEL] [--belief-beta B] [--belief-near G]\n"
           "              [--opponent-centre B] [--resist R] [--resist-boards N] [--mix T]\n"
           "              [--policy FILE]... [--policy-dir DIR] [--seed S] [--endpoint ENDPOINT]\n\n"
           "An information-set Monte Carlo tree search bot (docs/bots.md): on each attempt it draws\n"
           "boards of the opponent's hidden stones that agree with everything it has seen (its stones,\n"
           "the stones it found, the opponent's stone count, collision reports) and searches one tree\n"
           "over them, with playouts that save bridges. It plays a connecting cell at once, and on\n"
           "boards of at most %d cells the solver's sure win when there is one. Plays every variant\n"
           "on any board.\n\n"
           "  --time-ms N     think at most N ms per attempt (default %d unless --iterations is given)\n"
           "  --iterations N  at most N iterations per attempt (default: no limit but the time)\n"
           "                  Both: whichever comes first. Never more than %.0f%% of the time the\n"
           "                  move has (with a game clock, of the move's share of the clock: the\n"
           "                  time left over the moves to go, or over 20, plus the increment).\n"
           "                  A budget of iterations alone, within that cap, replays exactly\n"
           "                  (when the sure-win solver finishes within its share).\n"
           "  --samples N     draw N hidden boards per attempt and search them in turn (default 0:\n"
           "                  a fresh board each iteration; at most %d)\n"
           "  --uct C         the exploration constant (default 0.7)\n"
           "  --rave K        dark variants: how long the root trusts its prior over its own means\n"
           "                  (default 3000; 0: not at all)\n"
           "  --pivot W       dark variants: the root's prior is 0.5 + W x the share of iterations\n"
           "                  whose full board had the cell pivotal (on both of the winner's Gale\n"
           "                  paths; default 8); 0: all-moves-as-first means instead\n"
           "  --no-surewin    do not ask the sure-win solver; by default, in the dark variants on\n"
           "                  boards of at most %d cells, it runs first for at most %.0f%% of the\n"
           "                  attempt's time, and a winning cell it finds is played\n"
           "  --surewin-unknown K  ask the solver only with at most K unknown cells (default %d)\n"
           "  --surewin-mb M  the solver's memo, kept across moves and games, at most M MB (default %d)\n"
           "  --no-dead       do not keep the search off dead cells\n"
           "  --dead-exact K  prove cells dead exactly with at most K unknown cells (default %d, at\n"
           "                  most %d; 0: the local pattern alone)\n"
           "  --belief MODEL  where the drawn boards put the opponent's hidden stones: uniform (every\n"
           "                  unknown cell alike), centre (favouring central cells) or auto (%s,\n"
           "                  but uniform in the classical family on boards of at most %d cells);\n"
           "                  default auto\n"
           "  --belief-beta B the model's strength (default %g; 0: uniform)\n"
           "  --belief-near G a cell next to an opponent stone it found, or to one of its stones a\n"
           "                  -flash report says the opponent attempted, weighs 1 + G times as much\n"
           "                  (default %g; 0: no such hint)\n"
           "  --opponent-centre B  dark variants: the search's simulated opponent draws its attempts\n"
           "                  that are not next to its stones by the centre model with strength B\n"
"                  (default %g; 0: uniformly)\n"
           "  --opponent-grow P  dark variants: the share of the simulated opponent's attempts grown from\n"
           "                  one of its stones, a neighbour or bridge point (default %g; 0: none)\n"
           "  --opponent-goal P  the share of those toward its own edges (default %g; 0: any direction)\n"
           "  --resist R      dark variants: the root's prior gains R x the cell's resistance value:\n"
           "                  the share of both players' currents through it, edge to edge, on\n"
           "                  drawn boards, the largest 1 (default %g; 0: none)\n"
           "  --resist-boards N  the boards drawn for it at each attempt (default %d)\n"
           "  --mix T         dark variants: draw the move among the root's cells with probability\n"
           "                  proportional to visits^(1/T), a mixed strategy (default 0: the most\n"
           "                  visited cell)\n"
           "  --policy FILE   play this policy file (perfect-recall keys, docs/policy-format.md; e.g. a\n"
           "                  certified equilibrium from 'make equilibria') where it lists the bot's\n"
           "                  information state, in games of its variant and board from the empty board;\n"
           "                  the search plays every other state (repeatable, at most %d files)\n"
           "  --policy-dir DIR  every *.pol file of DIR, as --policy\n"
           "  --seed S        mixed with each game's seed (default 1)\n",
           SW_MAX_CELLS, ISM_DEFAULT_TIME_MS, ISM_TIME_SHARE * 100, ISM_MAX_SAMPLES, SW_MAX_CELLS,
           ISM_SURE_SHARE_DEFAULT * 100, ISM_SURE_UNKNOWN_DEFAULT, (int)(ISM_SURE_BYTES_DEFAULT >> 20),
           ISM_DEAD_EXACT_DEFAULT, ISM_DEAD_EXACT_LIMIT, ism_cell_model_name(ISM_CELLS_DEFAULT), ISM_UNIFORM_MAX_CELLS,
           ISM_CELLS_BETA_DEFAULT, ISM_CELLS_NEAR_DEFAULT, ISM_OPP_CENTRE_DEFAULT, ISM_OPP_GROW_DEFAULT,
           ISM_OPP_GOAL_DEFAULT, ISM_RESIST_DEFAULT,
           ISM_RESIST_BOARDS_DEFAULT, ISM_MAX_POLICIES);
}

/* How many of the game's moves came from the policy files, in the bot's log (with --policy). */
static void game_end(const bot_state *s, int winner, const uint8_t *board, void *user)
{
    (void)winner, (void)board, (void)user;
    if (ism_policies_count(policies) > 0)
        fprintf(stderr, "ismcts: game %llu: %ld moves from the policy files\n", (unsigned long long)s->game,
                policy_moves);
}

/* --policy FILE and --policy-dir DIR, wherever they are. 0, or 2 after a message (a bad file or directory). */
static int load_policies(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        bool dir = strcmp(argv[i], "--policy-dir") == 0;
        if (!dir && strcmp(argv[i], "--policy") != 0)
            continue;
        if (i + 1 >= argc) {
            fprintf(stderr, "ismcts: %s needs a value\n", argv[i]);
            return 2;
        }
        char err[600];
        if (ism_policies_load(policies, argv[++i], dir, err, sizeof err) != 0) {
            fprintf(stderr, "ismcts: %s %s\n", dir ? "--policy-dir" : "--policy", err);
            return 2;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    static const char *const models[] = { "uniform", "centre", "auto", NULL }; /* ism_cell_model's order, then auto */
    const bot_opt opts[] = {
        { "--time-ms", BOT_OPT_WHOLE, &opt_time_ms, 1, 3600000, NULL },
        { "--iterations", BOT_OPT_WHOLE, &opt_iterations, 1, 1000000000, NULL },
        { "--samples", BOT_OPT_WHOLE, &opt_samples, 0, ISM_MAX_SAMPLES, NULL },
        { "--no-surewin", BOT_OPT_FLAG, &opt_surewin, 0, 0, NULL },
        { "--no-dead", BOT_OPT_FLAG, &opt_dead, 0, 0, NULL },
        { "--surewin-unknown", BOT_OPT_WHOLE, &opt_sure_unknown, 0, SW_MAX_CELLS, NULL },
        { "--surewin-mb", BOT_OPT_WHOLE, &opt_sure_mb, 1, 65536, NULL },
        { "--dead-exact", BOT_OPT_WHOLE, &opt_dead_exact, 0, ISM_DEAD_EXACT_LIMIT, NULL },
        { "--rave", BOT_OPT_NUMBER, &opt_rave, 0, 1e9, NULL },
        { "--pivot", BOT_OPT_NUMBER, &opt_pivot, 0, 1000, NULL },
        { "--belief", BOT_OPT_CHOICE, &opt_belief, 0, 0, models },
        { "--opponent-centre", BOT_OPT_NUMBER, &opt_opp_centre, 0, 100, NULL },
        { "--belief-beta", BOT_OPT_NUMBER, &opt_belief_beta, 0, 100, NULL },
        { "--belief-near", BOT_OPT_NUMBER, &opt_belief_near, 0, 1000, NULL },
        { "--uct", BOT_OPT_NUMBER, &opt_uct, 0, 100, NULL },
        { "--resist", BOT_OPT_NUMBER, &opt_resist, 0, 1000, NULL },
        { "--resist-boards", BOT_OPT_WHOLE, &opt_resist_boards, 1, 4096, NULL },
        { "--mix", BOT_OPT_NUMBER, &opt_mix, 0, 100, NULL },
        { "--opponent-goal", BOT_OPT_NUMBER, &opt_opp_goal, 0, 1, NULL },
        { "--opponent-grow", BOT_OPT_NUMBER, &opt_opp_grow, 0, 1, NULL },
    };
    int got = bot_options("ismcts", argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), &base_seed, usage);
    if (got != 0)
        return got > 0 ? 0 : 2; /* --help printed, or a bad option */
    player = ism_player_new();
    policies = ism_policies_new();
    if (!player || !policies) {
        fprintf(stderr, "ismcts: out of memory\n");
        ism_player_free(player);
        ism_policies_free(policies);
        return 1;
    }
    int rc = load_policies(argc, argv);
    if (rc == 0) {
        bot_spec spec = { .name = "ismcts", .version = "1.0", .choose = choose, .game_start = game_start,
                          .game_end = game_end };
        rc = bot_run(&spec, argc, argv);
    }
    ism_player_free(player);
    ism_policies_free(policies);
    return rc;
}
