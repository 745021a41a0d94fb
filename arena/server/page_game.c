/* arena/server/page_game.c — `/game/ID`: the Dark Hex game viewer of the report library (viewer.h: the true
 * board beside Black's and White's views, attempt by attempt, `?ply=N` the attempt shown first, else the end
 * of the game or its forfeit) or its JSON;
 * and `/logs/NAME`: the end of an agent's log from the logs directory, as text. */
#define _GNU_SOURCE /* open_memstream */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server_private.h"
#include "tail.h"
#include "viewer.h"

/* The most of a log sent: its end. */
#define LOG_TAIL (256 * 1024)

int ws_page_game(ws_req *q, int64_t id, bool json, ws_reply *r, char *err, size_t errlen)
{
    gv_game g;
    int rc = gv_build(q->s, id, &g, err, errlen);
    if (rc != GV_OK) {
        gv_free(&g);
        if (rc == GV_NO_GAME) {
            snprintf(err, errlen, "no game %lld", (long long)id);
            return 404;
        }
        return rc == GV_DB_ERROR ? ws_db_error(q, err, errlen) : 500;
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f) {
        if (json)
            gv_write_json(&g, f);
        else {
            g.link_pages = true; /* its players and league linked to their pages */
            gv_write_html(&g, q->ply, f); /* no ?ply: the end of the game, or its forfeit */
        }
        fclose(f);
    }
    gv_free(&g);
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        return 500;
    }
    r->status = 200;
    r->type = json ? "application/json" : "text/html; charset=utf-8";
    r->body = buf;
    r->len = len;
    return 0;
}

/* What a message may quote of a log's name: its first 100 bytes, each one that is not a letter, digit, '.', '_' or
 * '-' shown as '?'. */
static const char *shown(const char *name, char out[104])
{
    size_t k = 0;
    for (; name[k] && k < 100; k++)
        out[k] = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", name[k]) ? name[k] : '?';
    out[k] = '\0';
    return out;
}

int ws_page_log(ws_req *q, const char *name, ws_reply *r, char *err, size_t errlen)
{
    size_t n = strlen(name);
    char quoted[104];
    /* the router allowed any bytes but '/' and control bytes, without ".."; a log is league-....log */
    if (!q->cfg->logs || strncmp(name, "league-", 7) != 0 || n < 12 || strcmp(name + n - 4, ".log") != 0) {
        snprintf(err, errlen, "no such log: %s", shown(name, quoted));
        return 404;
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", q->cfg->logs, name);
    char *text, why[128];
    size_t n_text;
    int64_t from;
    if (tail_read(path, LOG_TAIL, &text, &n_text, &from, why, sizeof why) != 0) { /* links, FIFOs: not served */
        snprintf(err, errlen, "no such log: %s (%s)", shown(name, quoted), why);
        return 404;
    }
    char *buf = malloc(n_text + 128);
    size_t len = 0;
    if (buf) {
        if (from > 0)
            len = (size_t)snprintf(buf, 128, "[... the first %lld bytes left out ...]\n", (long long)from);
        memcpy(buf + len, text, n_text);
        len += n_text;
    }
    free(text);
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        return 500;
    }
    r->status = 200;
    r->type = "text/plain; charset=utf-8";
    r->body = buf;
    r->len = len;
    return 0;
}
