/* tests/browser.h — what the browser tests share: headless Chromium (Debian's `chromium`) rendering a page or
 * an image to a PNG screenshot or dumping its DOM, under a time limit so that a hung browser fails the test
 * that ran it; and reading the screenshot back (libpng's simplified API) to look at its pixels. */
#ifndef TESTS_BROWSER_H
#define TESTS_BROWSER_H

#define _GNU_SOURCE
#include <png.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_sys.h"

/* The browser: $ARENA_CHROMIUM, else /usr/bin/chromium; NULL when there is none (the test setup, `make test`,
 * installs Debian's chromium; a test without it is skipped, saying so). */
static inline const char *browser_path(void)
{
    const char *env = getenv("ARENA_CHROMIUM");
    if (env && *env)
        return access(env, X_OK) == 0 ? env : NULL;
    return access("/usr/bin/chromium", X_OK) == 0 ? "/usr/bin/chromium" : NULL;
}

/* Skips the calling cmocka test, with the reason on stdout, when there is no browser. */
#define BROWSER_OR_SKIP()                                                                                             \
    do {                                                                                                              \
        if (!browser_path()) {                                                                                        \
            printf("SKIPPED: chromium not found (install Debian's chromium, or set ARENA_CHROMIUM)\n");              \
            skip();                                                                                                   \
        }                                                                                                             \
    } while (0)

/* Runs the browser headless on `target` (a path or a URL) with `what` (--screenshot=FILE or --dump-dom) at
 * width x height CSS pixels, one device pixel each, in a private profile; its stdout goes to `out` (may be
 * NULL). 120 s at most. Returns the exit status. A file page may read the file pages next to it: headless
 * Chromium lays a page out at least 500 CSS pixels wide whatever the window, so a phone's width is measured
 * by a page of the test's that holds the page under test in an <iframe> of that width (browser_phone_page). */
static inline int browser_run(const char *target, const char *what, int width, int height, const char *out)
{
    char profile[] = "/tmp/arena-browser-XXXXXX";
    if (!mkdtemp(profile))
        return -1;
    char url[1200];
    if (target[0] == '/')
        snprintf(url, sizeof url, "file://%s", target);
    else
        snprintf(url, sizeof url, "%s", target);
    int rc = sh_run("timeout -k 10 120 '%s' --headless --no-sandbox --disable-gpu --hide-scrollbars "
                    "--force-device-scale-factor=1 --no-first-run --disable-extensions --allow-file-access-from-files "
                    "--user-data-dir='%s' "
                    "--window-size=%d,%d --virtual-time-budget=3000 %s '%s' >'%s' 2>/dev/null",
                    browser_path(), profile, width, height, what, url, out ? out : "/dev/null");
    sh_run("rm -rf '%s'", profile);
    return rc;
}

static inline int browser_screenshot(const char *target, const char *png, int width, int height)
{
    char what[600];
    snprintf(what, sizeof what, "--screenshot='%s'", png);
    unlink(png);
    int rc = browser_run(target, what, width, height, NULL);
    return rc == 0 && access(png, R_OK) == 0 ? 0 : -1;
}

/* The DOM after the page's scripts ran, malloc'd; NULL when the browser failed. */
static inline char *browser_dump_dom(const char *target, int width, int height)
{
    char out[] = "/tmp/arena-dom-XXXXXX";
    int fd = mkstemp(out);
    if (fd < 0)
        return NULL;
    close(fd);
    char *text = NULL;
    if (browser_run(target, "--dump-dom", width, height, out) == 0) {
        char cmd[64];
        snprintf(cmd, sizeof cmd, "cat '%s'", out);
        text = sh_output(cmd);
    }
    unlink(out);
    return text;
}

/* Writes `harness` (a path): a page that shows `page` (a path relative to it) in an <iframe> of width x height CSS
 * pixels (a phone), and once it has loaded runs `script` (JavaScript, may be NULL) with `w` and `d` the frame's
 * window and document. Returns 0, or -1. */
static inline int browser_phone_page(const char *harness, const char *page, int width, int height, const char *script)
{
    FILE *f = fopen(harness, "w");
    if (!f)
        return -1;
    fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head><body style=\"margin:0\">"
               "<iframe id=\"phone\" src=\"%s\" width=\"%d\" height=\"%d\" style=\"border:0;display:block\"></iframe>\n"
               "<script>\ndocument.getElementById('phone').addEventListener('load', function () {\n"
               "var w = this.contentWindow, d = this.contentDocument;\n%s\n});\n</script></body></html>\n",
            page, width, height, script ? script : "");
    return fclose(f) == 0 ? 0 : -1;
}

typedef struct {
    int w, h;
    uint8_t *rgba; /* w * h * 4 */
} browser_image;

static inline int browser_image_read(const char *path, browser_image *out)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path))
        return -1;
    img.format = PNG_FORMAT_RGBA;
    out->w = (int)img.width;
    out->h = (int)img.height;
    out->rgba = malloc(PNG_IMAGE_SIZE(img));
    if (!out->rgba || !png_image_finish_read(&img, NULL, out->rgba, 0, NULL)) {
        png_image_free(&img);
        free(out->rgba);
        out->rgba = NULL;
        return -1;
    }
    return 0;
}

static inline void browser_image_free(browser_image *im)
{
    free(im->rgba);
    im->rgba = NULL;
}

static inline const uint8_t *browser_pixel(const browser_image *im, int x, int y)
{
    return im->rgba + ((size_t)y * (size_t)im->w + (size_t)x) * 4;
}

/* Whether the pixel is `rgb` (0xRRGGBB) within `tol` per channel. */
static inline bool browser_is(const uint8_t *px, unsigned rgb, int tol)
{
    int want[3] = { (int)(rgb >> 16) & 255, (int)(rgb >> 8) & 255, (int)rgb & 255 };
    for (int c = 0; c < 3; c++)
        if (abs((int)px[c] - want[c]) > tol)
            return false;
    return true;
}

/* The share of pixels that differ from the top-left pixel (the page's background): 0 for a blank page. */
static inline double browser_ink(const browser_image *im)
{
    const uint8_t *bg = browser_pixel(im, 0, 0);
    long differ = 0;
    for (int y = 0; y < im->h; y++)
        for (int x = 0; x < im->w; x++) {
            const uint8_t *p = browser_pixel(im, x, y);
            differ += p[0] != bg[0] || p[1] != bg[1] || p[2] != bg[2];
        }
    return (double)differ / ((double)im->w * im->h);
}

/* Distinct colours among the pixels (up to `cap`; more count as cap). */
static inline int browser_colours(const browser_image *im, int cap)
{
    uint32_t *seen = calloc((size_t)cap, sizeof *seen);
    int n = 0;
    for (int y = 0; y < im->h && n < cap; y++)
        for (int x = 0; x < im->w && n < cap; x++) {
            const uint8_t *p = browser_pixel(im, x, y);
            uint32_t c = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
            int k = 0;
            while (k < n && seen[k] != c)
                k++;
            if (k == n)
                seen[n++] = c;
        }
    free(seen);
    return n;
}

#endif
