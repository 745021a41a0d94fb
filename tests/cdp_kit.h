/* tests/cdp_kit.h — driving headless Chromium from a test through the DevTools protocol over a pipe
 * (--remote-debugging-pipe: commands written to the browser's descriptor 3, answers and events read from its
 * descriptor 4, each a JSON text ended by a NUL), so a test can fill and post a form — a file input included, which a
 * page's own script may not set — as a person would. One page, one session; every wait is bounded (60 s). */
#ifndef TESTS_CDP_KIT_H
#define TESTS_CDP_KIT_H

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "browser.h"

typedef struct {
    pid_t pid;
    int to, from;                  /* our ends: commands to the browser, answers from it */
    int next_id;
    char session[64];              /* the page's session id */
    char profile[64];
    char *buf;                     /* what was read and not yet taken */
    size_t len, cap;
} cdp;

/* The next message (malloc'd), or NULL after 60 s or at the pipe's end. */
static inline char *cdp_read(cdp *c)
{
    for (;;) {
        char *nul = c->len ? memchr(c->buf, '\0', c->len) : NULL;
        if (nul) {
            size_t n = (size_t)(nul - c->buf);
            char *msg = strndup(c->buf, n);
            memmove(c->buf, nul + 1, c->len - n - 1);
            c->len -= n + 1;
            return msg;
        }
        struct pollfd p = { c->from, POLLIN, 0 };
        if (poll(&p, 1, 60000) != 1)
            return NULL;
        if (c->cap - c->len < 65536) {
            c->cap = c->cap * 2 + 65536;
            c->buf = realloc(c->buf, c->cap);
        }
        ssize_t k = read(c->from, c->buf + c->len, c->cap - c->len);
        if (k <= 0)
            return NULL;
        c->len += (size_t)k;
    }
}

/* Sends a command (params: a JSON object, "{}" for none; in the page's session unless browser_level) and returns
 * its answer (malloc'd), or NULL. Events read meanwhile are dropped, except that *loaded is set when one is
 * Page.loadEventFired. */
static inline char *cdp_call(cdp *c, bool browser_level, const char *method, const char *params, bool *loaded)
{
    char msg[8192], want[32];
    int id = ++c->next_id;
    int n = browser_level ? snprintf(msg, sizeof msg, "{\"id\":%d,\"method\":\"%s\",\"params\":%s}", id, method, params)
                          : snprintf(msg, sizeof msg, "{\"sessionId\":\"%s\",\"id\":%d,\"method\":\"%s\",\"params\":%s}",
                                     c->session, id, method, params);
    if (write(c->to, msg, (size_t)n + 1) != n + 1)
        return NULL;
    snprintf(want, sizeof want, "{\"id\":%d,", id);
    for (char *m; (m = cdp_read(c));) {
        if (strncmp(m, want, strlen(want)) == 0)
            return m;
        if (loaded && strstr(m, "\"Page.loadEventFired\""))
            *loaded = true;
        free(m);
    }
    return NULL;
}

/* Waits for the page's next load event (unless *loaded already says it came). */
static inline bool cdp_wait_load(cdp *c, bool *loaded)
{
    for (char *m; !*loaded && (m = cdp_read(c));) {
        *loaded = strstr(m, "\"Page.loadEventFired\"") != NULL;
        free(m);
    }
    bool ok = *loaded;
    *loaded = false;
    return ok;
}

/* The string value of "key":"..." in a message into out. */
static inline bool cdp_string(const char *msg, const char *key, char *out, size_t n)
{
    char k[64];
    snprintf(k, sizeof k, "\"%s\":\"", key);
    const char *at = msg ? strstr(msg, k) : NULL;
    if (!at)
        return false;
    at += strlen(k);
    size_t len = strcspn(at, "\"");
    if (len >= n)
        return false;
    memcpy(out, at, len);
    out[len] = '\0';
    return true;
}

/* Starts the browser with one blank page attached. Returns 0, or -1. */
static inline int cdp_start(cdp *c)
{
    memset(c, 0, sizeof *c);
    int in[2], out[2];
    snprintf(c->profile, sizeof c->profile, "/tmp/arena-cdp-XXXXXX");
    if (!browser_path() || !mkdtemp(c->profile) || pipe(in) != 0 || pipe(out) != 0)
        return -1;
    if ((c->pid = fork()) == 0) {
        dup2(in[0], 3);
        dup2(out[1], 4);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        char dir[96];
        snprintf(dir, sizeof dir, "--user-data-dir=%s", c->profile);
        execl(browser_path(), "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
              "--disable-extensions", "--remote-debugging-pipe", dir, "about:blank", (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    c->to = in[1];
    c->from = out[0];
    char target[64];
    char *r = cdp_call(c, true, "Target.createTarget", "{\"url\":\"about:blank\"}", NULL);
    bool ok = cdp_string(r, "targetId", target, sizeof target);
    free(r);
    char params[128];
    snprintf(params, sizeof params, "{\"targetId\":\"%s\",\"flatten\":true}", target);
    r = ok ? cdp_call(c, true, "Target.attachToTarget", params, NULL) : NULL;
    ok = cdp_string(r, "sessionId", c->session, sizeof c->session);
    free(r);
    if (ok)
        free(cdp_call(c, false, "Page.enable", "{}", NULL));
    return ok ? 0 : -1;
}

static inline void cdp_stop(cdp *c)
{
    if (c->pid > 0) {
        free(cdp_call(c, true, "Browser.close", "{}", NULL));
        close(c->to);
        close(c->from);
        kill(c->pid, SIGKILL);
        waitpid(c->pid, NULL, 0);
    }
    free(c->buf);
    sh_run("rm -rf '%s'", c->profile);
}

/* Navigates to url and waits for the page to load. */
static inline bool cdp_goto(cdp *c, const char *url)
{
    char params[1200];
    bool loaded = false;
    snprintf(params, sizeof params, "{\"url\":\"%s\"}", url);
    free(cdp_call(c, false, "Page.navigate", params, &loaded));
    return cdp_wait_load(c, &loaded);
}

/* Evaluates a JavaScript expression (no double quotes in it) in the page; the answer (malloc'd). With
 * wait_load, waits for the load the expression causes (a form's submit). */
static inline char *cdp_eval(cdp *c, const char *js, bool wait_load)
{
    char params[4096];
    bool loaded = false;
    snprintf(params, sizeof params, "{\"expression\":\"%s\",\"returnByValue\":true}", js);
    char *r = cdp_call(c, false, "Runtime.evaluate", params, &loaded);
    if (wait_load && r && !cdp_wait_load(c, &loaded)) {
        free(r);
        return NULL;
    }
    return r;
}

/* Sets the file input `selector` (no double quotes) of the page to the file at path. */
static inline bool cdp_set_file(cdp *c, const char *selector, const char *path)
{
    char *doc = cdp_call(c, false, "DOM.getDocument", "{}", NULL);
    const char *at = doc ? strstr(doc, "\"nodeId\":") : NULL;
    int root = at ? atoi(at + 9) : 0;
    free(doc);
    char params[1200];
    snprintf(params, sizeof params, "{\"nodeId\":%d,\"selector\":\"%s\"}", root, selector);
    char *q = cdp_call(c, false, "DOM.querySelector", params, NULL);
    at = q ? strstr(q, "\"nodeId\":") : NULL;
    int node = at ? atoi(at + 9) : 0;
    free(q);
    if (!node)
        return false;
    snprintf(params, sizeof params, "{\"nodeId\":%d,\"files\":[\"%s\"]}", node, path);
    char *r = cdp_call(c, false, "DOM.setFileInputFiles", params, NULL);
    bool ok = r && !strstr(r, "\"error\"");
    free(r);
    return ok;
}

#endif
