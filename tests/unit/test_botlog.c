/* tests/unit/test_botlog.c — the log of one bot process (arena/sandbox/botlog.h) driven in-process, with this
 * test writing into the pipe as the bot would: the cap is exact and followed by one line, the coordinator's lines
 * start on a line of their own after what came before them, reading never waits for a writer, the pipe's ends
 * are close-on-exec, and the end of the pipe is seen. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "botlog.h"
#include "test_util.h"

static char dir[64], path[128];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/arena-botlog-unit-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(path, sizeof path, "%s/bot.log", dir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unlink(path);
    return rmdir(dir);
}

/* The log file's contents (malloc'd), its length in *len. */
static char *contents(size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return text;
}

static void put(int fd, const char *data, size_t n)
{
    assert_int_equal(write(fd, data, n), (ssize_t)n);
}

static void lines_come_in_order_on_lines_of_their_own(void **state)
{
    (void)state;
    unlink(path);
    char err[256];
    bl_log *l = bl_open(path, 16, err, sizeof err);
    assert_non_null(l);
    int w = bl_writer(l);
    assert_true(w >= 0 && bl_fd(l) >= 0);
    assert_true(fcntl(w, F_GETFD) & FD_CLOEXEC);      /* no other bot inherits either end */
    assert_true(fcntl(bl_fd(l), F_GETFD) & FD_CLOEXEC);
    assert_true(fcntl(bl_fd(l), F_GETFL) & O_NONBLOCK);
    assert_int_equal(bl_pump(l, BL_CHUNK), 0);          /* nothing written: returns, does not wait */
    put(w, "one\ntwo", 7);
    bl_line(l, "connected: %s", "x");                   /* reads "two" first, then starts a new line */
    put(w, "three\n", 6);
    assert_int_equal(bl_pump(l, BL_CHUNK), 6);
    bl_close_writer(l);
    assert_int_equal(bl_writer(l), -1);
    assert_int_equal(bl_pump(l, BL_CHUNK), 0);          /* the end of the pipe: the read end is closed */
    assert_int_equal(bl_fd(l), -1);
    bl_line(l, "exited with status %d", 0);
    assert_int_equal(bl_written(l), 13);
    assert_false(bl_capped(l));
    bl_free(l);
    size_t len;
    char *text = contents(&len);
    const char *p = text;
    assert_int_equal(strncmp(p, "one\ntwo\n[arena ", 15), 0);
    p = strchr(p + 8, '\n') + 1;
    assert_non_null(strstr(text, "] connected: x\nthree\n[arena "));
    assert_int_equal(strncmp(p, "three\n[arena ", 13), 0);
    assert_string_equal(strstr(p, "] exited"), "] exited with status 0\n"); /* the last line */
    free(text);
}

static void past_the_cap_one_line_and_nothing_more(void **state)
{
    (void)state;
    unlink(path);
    char err[256];
    bl_log *l = bl_open(path, 1, err, sizeof err);
    assert_non_null(l);
    int w = bl_writer(l);
    static char block[48 * 1024];
    memset(block, 'a', sizeof block);
    block[sizeof block - 1] = '\n';
    size_t sent = 0;
    while (sent < (3u << 20)) { /* 3 MiB through a pipe of 64 KiB: read as it comes, at most BL_CHUNK a pump */
        put(w, block, sizeof block);
        sent += sizeof block;
        assert_true(bl_pump(l, BL_CHUNK) <= BL_CHUNK);
        while (bl_pump(l, BL_CHUNK) > 0)
            ;
    }
    bl_line(l, "stopped");
    bl_free(l);
    size_t len;
    char *text = contents(&len);
    assert_true(len > (1u << 20));
    for (size_t i = 0; i < (1u << 20); i++)
        if (text[i] != ((i + 1) % sizeof block == 0 ? '\n' : 'a'))
            fail_msg("byte %zu is not the writer's", i);
    const char *rest = text + (1 << 20);
    assert_int_equal(rest[0], '\n'); /* 1 MiB is not a multiple of the writer's lines: the limit's own line */
    assert_non_null(strstr(rest, "] log limit 1 MiB reached; the rest of this process's output is dropped\n[arena "));
    assert_non_null(strstr(rest, "] stopped\n"));
    const char *stopped = strstr(rest, "] stopped\n");
    assert_string_equal(stopped, "] stopped\n"); /* the last line: nothing of the writer's after the limit */
    free(text);
}

static void a_log_that_cannot_be_made_is_named(void **state)
{
    (void)state;
    char err[256], bad[200];
    snprintf(bad, sizeof bad, "%s/no/such/dir/bot.log", dir);
    assert_null(bl_open(bad, 16, err, sizeof err));
    assert_non_null(strstr(err, "cannot open its log"));
    assert_non_null(strstr(err, "No such file or directory"));
    bl_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lines_come_in_order_on_lines_of_their_own),
        cmocka_unit_test(past_the_cap_one_line_and_nothing_more),
        cmocka_unit_test(a_log_that_cannot_be_made_is_named),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
