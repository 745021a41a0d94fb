/* tests/fuzz/fuzz_config.c — libFuzzer target for the league config loader (cfg_load in arena/coordinator/config.h)
 * on arbitrary text. cfg_load reads a path, so each input is written to one file in a private temporary
 * directory made on the first call (and removed at exit). The path is long, close to what cfg_league's
 * path holds, because every error message quotes it. A refusal must give a one-line reason; an accepted
 * config must keep every promise of config.h and docs/leagues.md (checked below), or the target aborts. */
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "board.h"
#include "config.h"
#include "mode.h"
#include "variant.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], subdir[512], path[512];
static int fd = -1;
static cfg_league league;

static void remove_files(void)
{
    close(fd);
    unlink(path);
    rmdir(subdir);
    rmdir(dir);
}

/* Makes DIR/dddd.../cccc....ini, 500 bytes in all (cfg_league.path holds 511). */
static void make_path(void)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp || strlen(tmp) > 30)
        tmp = "/tmp";
    snprintf(dir, sizeof dir, "%s/fuzz_config.XXXXXX", tmp);
    if (!mkdtemp(dir)) {
        perror("fuzz_config: mkdtemp");
        abort();
    }
    int n = snprintf(subdir, sizeof subdir, "%s/", dir);
    memset(subdir + n, 'd', 240);
    subdir[n + 240] = '\0';
    if (mkdir(subdir, 0700) != 0) {
        perror("fuzz_config: mkdir");
        abort();
    }
    n = snprintf(path, sizeof path, "%s/", subdir);
    int fill = 500 - n - 4; /* at most 255 bytes in one name */
    memset(path + n, 'c', (size_t)fill);
    memcpy(path + n + fill, ".ini", 5);
    fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        perror("fuzz_config: open");
        abort();
    }
    atexit(remove_files);
}

static bool terminated(const char *s, size_t cap)
{
    return memchr(s, '\0', cap) != NULL;
}

static bool good_name(const char *s, size_t cap)
{
    return terminated(s, cap) && s[0] && !strpbrk(s, "/ \t");
}

static bool good_games(const cfg_games *g, bool any_board_ok)
{
    uint32_t all = (1u << HX_VARIANT_COUNT) - 1;
    if (g->variants & ~all)
        return false;
    if (g->n_boards < (any_board_ok ? 0 : 1) || g->n_boards > CFG_MAX_BOARDS)
        return false;
    for (int i = 0; i < g->n_boards; i++) {
        for (int k = 0; k < 2; k++)
            if (g->boards[i][k] < HX_MIN_SIDE || g->boards[i][k] > HX_MAX_SIDE)
                return false;
        for (int j = 0; j < i; j++)
            if (g->boards[j][0] == g->boards[i][0] && g->boards[j][1] == g->boards[i][1])
                return false;
    }
    return true;
}

/* A time control as timecontrol.h promises: none (all 0), or in range and written back as it reads. */
static bool good_tc(const tc_control *tc)
{
    if (tc->base_ms == 0)
        return tc->moves == 0 && tc->inc_ms == 0;
    if (tc->base_ms > TC_MAX_SECONDS * 1000u || tc->inc_ms > TC_MAX_SECONDS * 1000u || tc->moves < 0 ||
        tc->moves > TC_MAX_MOVES)
        return false;
    char text[TC_TEXT_MAX], why[160];
    tc_control again;
    return tc_parse(tc_format(tc, text, sizeof text), &again, why, sizeof why) && memcmp(&again, tc, sizeof *tc) == 0;
}

static void violated(const char *what)
{
    fprintf(stderr, "fuzz_config: %s\n", what);
    abort();
}

static void check(const cfg_league *c)
{
    if (!terminated(c->path, sizeof c->path))
        violated("path not terminated");
    if (!good_name(c->name, sizeof c->name))
        violated("league name");
    if (!c->mode || lm_parse(c->mode->name) != c->mode)
        violated("mode");
    if (!terminated(c->challenger, sizeof c->challenger))
        violated("challenger not terminated");
    if (c->games.variants == 0 || !good_games(&c->games, false))
        violated("league variants or boards");
    if (c->per_pairing < 2 || c->per_pairing > 1000000 || c->per_pairing % 2)
        violated("games per pairing: even, 2 or more");
    if (c->move_ms < 1 || c->move_ms > 86400000)
        violated("move_time_ms");
    if (!good_tc(&c->time_control))
        violated("time_control");
    if (c->handshake_ms < 1 || c->handshake_ms > 600000)
        violated("handshake_ms");
    if (c->concurrency < 1 || c->concurrency > 64)
        violated("concurrency");
    if (!terminated(c->listen, sizeof c->listen) || !terminated(c->server_key, sizeof c->server_key))
        violated("listen or server_key not terminated");
    if ((c->listen[0] && strncmp(c->listen, "tcp://", 6) != 0) || !c->listen[0] != !c->server_key[0])
        violated("listen is tcp://... and comes with server_key");
    if (c->seed > INT64_MAX)
        violated("seed");
    if (c->n_agents < 2 || c->n_agents > CFG_MAX_AGENTS)
        violated("number of agents");
    bool challenger_found = false;
    for (int i = 0; i < c->n_agents; i++) {
        const cfg_agent *a = &c->agents[i];
        if (!good_name(a->name, sizeof a->name))
            violated("agent name");
        for (int j = 0; j < i; j++)
            if (strcmp(c->agents[j].name, a->name) == 0)
                violated("two agents of one name");
        challenger_found |= strcmp(a->name, c->challenger) == 0;
        if (!terminated(a->command, sizeof a->command) || !a->command[0] || !terminated(a->args, sizeof a->args) ||
            !terminated(a->dir, sizeof a->dir) || !terminated(a->cmdline, sizeof a->cmdline))
            violated("agent command, args or dir");
        char want[sizeof a->cmdline];
        snprintf(want, sizeof want, "%s%s%s", a->command, a->args[0] ? " " : "", a->args);
        if (strcmp(want, a->cmdline) != 0)
            violated("agent cmdline is not command and args");
        if (!good_games(&a->plays, true) || (a->has_variants && a->plays.variants == 0) ||
            (!a->has_variants && a->plays.variants) || (a->has_boards != (a->plays.n_boards > 0)))
            violated("agent variants or boards");
        long limits[3] = { a->memory_mb, a->cpu_seconds, a->open_files };
        for (int k = 0; k < 3; k++)
            if (limits[k] < -1 || limits[k] > 1 << 24)
                violated("agent limit: -1 (default), 0 (none) or up to 2^24");
        if (a->open_files > 0 && a->open_files < 16)
            violated("agent open_files: 16 or more");
        if (!terminated(a->server_key, sizeof a->server_key) ||
            (a->server_key[0] && (strlen(a->server_key) != 40 || !c->listen[0])))
            violated("agent server_key: 40 characters of Z85, only with listen");
        if (a->n_read < 0 || a->n_read > CFG_MAX_READ || a->n_env < 0 || a->n_env > CFG_MAX_ENV)
            violated("agent read or env: 0 to the maximum of entries");
        for (int k = 0; k < a->n_read; k++)
            if (!terminated(a->read[k], sizeof a->read[k]) || !a->read[k][0])
                violated("agent read: a path");
        for (int k = 0; k < a->n_env; k++)
            if (!terminated(a->env[k], sizeof a->env[k]) || !a->env[k][0] || a->env[k][0] == '=')
                violated("agent env: NAME or NAME=value");
        if (!a->has_sandbox && a->sandbox != c->sandbox)
            violated("agent sandbox: the league's unless its own");
        if (a->line < 1)
            violated("agent line");
        if (!good_tc(&a->time_control) || (!a->has_time_control && a->time_control.base_ms))
            violated("agent time_control");
    }
    if (c->mode->challenger && !challenger_found)
        violated("a mode with a challenger without its challenger");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!path[0])
        make_path();
    /* Rewritten in place rather than truncated and written again: closing a file truncated to zero makes
     * some filesystems (ext4) flush it, a hundred times slower than this. */
    if (pwrite(fd, data, size, 0) != (ssize_t)size || ftruncate(fd, (off_t)size) != 0) {
        perror("fuzz_config: writing the input");
        abort();
    }
    char err[1024];
    memset(err, 0x55, sizeof err);
    if (cfg_load(path, &league, err, sizeof err) != 0) {
        if (!terminated(err, sizeof err) || !err[0] || strchr(err, '\n'))
            violated("refusal without a one-line reason");
        return 0;
    }
    check(&league);
    return 0;
}
