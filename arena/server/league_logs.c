/* arena/server/league_logs.c — the logs of a league's agents in --logs (contract in server_private.h): which
 * agent (stored name) is which section of the league's stored config, and the names of the league's log files
 * (league-NAME-SECTION-K.log), read once per league and kept in a memo (memo.c) until the directory changes (its
 * modification time), so that a page linking them parses no config and reads no directory per request. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "facts.h"
#include "server_private.h"

#define KEPT 32       /* leagues kept */
#define FILES_MAX 256 /* a league's log files kept */
#define READ_MAX 20000 /* directory entries read for one league */

struct ws_league_logs {
    int n_agents;
    struct {
        char stored[CFG_NAME_MAX], section[CFG_NAME_MAX];
    } agents[CFG_MAX_AGENTS];
    char prefix[320];              /* league-NAME- */
    int n_files;
    char *files[FILES_MAX];
};

static void free_logs(void *v)
{
    ws_league_logs *l = v;
    for (int i = 0; i < l->n_files; i++)
        free(l->files[i]);
    free(l);
}

ws_memo *ws_league_logs_new(void)
{
    return ws_memo_new(KEPT, free_logs);
}

typedef struct {
    ws_req *q;
    int64_t league;
} logs_arg;

static int compute(void *arg, const void *older, void **value, char *err, size_t errlen)
{
    (void)older;
    logs_arg *a = arg;
    ws_league_logs *l = calloc(1, sizeof *l);
    cfg_league *c = malloc(sizeof *c);
    store_league_facts f;
    int found = l && c ? store_league_facts_get(a->q->s, a->league, &f) : 0;
    if (!l || !c || found < 0) {
        free(l);
        free(c);
        if (found < 0)
            return ws_db_error(a->q, err, errlen);
        snprintf(err, errlen, "out of memory");
        return 500;
    }
    if (found == 1) {
        char why[600];
        ws_report_lock(); /* the config parser's static state */
        bool parsed = cfg_parse(f.config, strlen(f.config), "(stored config)", c, why, sizeof why) == 0;
        ws_report_unlock();
        for (int i = 0; parsed && i < c->n_agents && i < CFG_MAX_AGENTS; i++) {
            snprintf(l->agents[i].stored, sizeof l->agents[i].stored, "%s", c->agents[i].store_name);
            snprintf(l->agents[i].section, sizeof l->agents[i].section, "%s", c->agents[i].name);
            l->n_agents++;
        }
        snprintf(l->prefix, sizeof l->prefix, "league-%.256s-", f.name);
        store_league_facts_free(&f);
    }
    free(c);
    DIR *dir = l->n_agents ? opendir(a->q->cfg->logs) : NULL;
    struct dirent *e;
    size_t len = strlen(l->prefix);
    for (int read = 0; dir && l->n_files < FILES_MAX && read < READ_MAX && (e = readdir(dir)) != NULL; read++)
        if (strncmp(e->d_name, l->prefix, len) == 0 && strlen(e->d_name) < 400 &&
            (l->files[l->n_files] = strdup(e->d_name)) != NULL)
            l->n_files++;
    if (dir)
        closedir(dir);
    *value = l;
    return 0;
}

const ws_league_logs *ws_league_logs_get(ws_req *q, int64_t league, ws_memo_node **hold)
{
    *hold = NULL;
    struct stat st;
    if (!q->cfg->logs || stat(q->cfg->logs, &st) != 0)
        return NULL;
    logs_arg a = { q, league };
    ws_memo_key k = { league, { (int64_t)st.st_mtim.tv_sec, (int64_t)st.st_mtim.tv_nsec, (int64_t)st.st_ino, 0 } };
    int status;
    char err[300];
    return ws_memo_get(ws_cache_logs(q->cache), k, false, compute, &a, hold, &status, err, sizeof err);
}

int ws_league_logs_of(const ws_league_logs *l, const char *agent, const char **names, int max)
{
    int n = 0;
    size_t len = strlen(l->prefix);
    for (int a = 0; a < l->n_agents; a++) {
        if (strcmp(l->agents[a].stored, agent) != 0)
            continue;
        size_t sl = strlen(l->agents[a].section);
        for (int i = 0; i < l->n_files && n < max; i++) {
            const char *rest = l->files[i] + len; /* SECTION-K.log, K digits */
            if (strncmp(rest, l->agents[a].section, sl) != 0 || rest[sl] != '-')
                continue;
            const char *k = rest + sl + 1;
            size_t digits = strspn(k, "0123456789");
            if (digits > 0 && strcmp(k + digits, ".log") == 0)
                names[n++] = l->files[i];
        }
    }
    return n;
}
