/* arena/coordinator/league.h — the schedule of a league: which games a config plans, in which order, from which
 * openings, with which seeds. The schedule is a pure function of the config, its seed and what each agent plays,
 * so the same config and seed always give the same games (docs/leagues.md). */
#ifndef ARENA_COORDINATOR_LEAGUE_H
#define ARENA_COORDINATOR_LEAGUE_H

#include "config.h"
#include "openings.h"
#include "store.h"

/* A random suite has at most this many openings per variant and board (pairs beyond it repeat openings). */
#define LG_SUITE_MAX 5000

/* Whether `plays` (variants; boards, none = any) includes variant v on rows x cols. */
bool lg_plays(const cfg_games *plays, int v, int rows, int cols);

/* The openings of each variant and board of the league (suite[v][b], b indexing c->games.boards). */
typedef struct {
    op_opening *openings;
    int n;
} lg_suite;

typedef struct {
    lg_suite suite[HX_VARIANT_COUNT][CFG_MAX_BOARDS];
} lg_suites;

/* Makes the suites of c: none (`openings = none`), built in (`random`: op_random_suite with the league's seed,
 * opening_stones stones, as many openings as a pairing has game pairs, up to LG_SUITE_MAX), or from `book` (a
 * suite file). Returns how many variant-and-board suites hold fewer openings than a pairing has game pairs (so
 * a pairing replays openings), with the first of them described in `note`; -1 out of memory. */
int lg_suites_make(const cfg_league *c, const op_book *book, lg_suites *s, char *note, size_t notelen);
void lg_suites_free(lg_suites *s);

/* The pairing's first agent of two agent indices: the challenger in a mode that has one (gauntlet, SPRT), else
 * the one listed first. */
int lg_first(const cfg_league *c, int i, int j);

/* The rule flags a league's game on variant v, rows x cols is played with: HX_SWAP_RULE for hex on a square board
 * when the config says `swap = yes`, else none. */
unsigned lg_game_flags(const cfg_league *c, hx_variant v, int rows, int cols);

/* The index of the league's challenger, -1 when its mode has none. */
int lg_challenger(const cfg_league *c);

/* Writes one game pair at out[0] and out[1], positions pos and pos + 1: agents `first` and `second` (indices of
 * c) on variant v and board b (an index of c->games.boards), pair number `pair` of their pairing, from opening
 * `pair` modulo the suite's size (none when s is NULL or the suite is empty), `first` Black in the first game;
 * each game's seed derives from the league seed and its position. */
void lg_pair(const cfg_league *c, const lg_suites *s, int v, int b, int first, int second, int pair, int pos,
             store_planned out[2]);

/* The whole schedule of a mode that knows it at the start (round-robin, gauntlet, sprt): fills out[0..] (when
 * out is not NULL) with the league's games and returns their number. plays[i] is what agent
 * i may play. Order: variant, then board (as listed), then pairing (config order; with a challenger,
 * the challenger against each other agent), then game pair m of games / 2: its two games start from opening
 * m (modulo the suite's size; none when the suite is empty), the pairing's first agent Black in the first and
 * White in the second. So each pairing's games are consecutive and a worker keeps its two processes. Pairs
 * where either agent does not play the variant and board are left out. Game n's seed derives from the
 * league seed and n. */
int lg_plan(const cfg_league *c, const cfg_games *plays, const lg_suites *s, store_planned *out);

/* The most games one league may schedule: lg_plan builds the whole schedule in memory (about 170 bytes a game)
 * and the store writes it in one transaction before the first game. */
#define LG_MAX_GAMES 1000000

/* The number of games lg_plan would schedule, computed in 64 bits without building the schedule, so a config
 * can be checked against LG_MAX_GAMES before anything is allocated. plays NULL: every agent plays every
 * variant and board (the most the config can schedule). */
long long lg_count(const cfg_league *c, const cfg_games *plays);

#endif
