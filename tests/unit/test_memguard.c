/* tests/unit/test_memguard.c — a step run in a child under a memory limit (arena/base/memguard.h): its value and its
 * result block come back; a step that keeps allocating is killed past the limit (named, the parent unharmed, its
 * peak at least the limit); a step that dies of a signal or exits without its result is named; without a limit a
 * large step finishes. A streaming step's output of any length comes back whole, and one that runs past its time
 * limit is stopped there and named. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "memguard.h"
#include "test_util.h"

typedef struct {
    int n;
    char text[32];
} block;

static int fill(void *ctx, void *out, size_t outlen)
{
    assert_int_equal(outlen, sizeof(block));
    block *b = out;
    b->n = *(int *)ctx * 2;
    snprintf(b->text, sizeof b->text, "from the child %d", (int)getpid());
    return 7;
}

/* Touches mb megabytes, 4 MB at a time with a pause between, and returns how many it touched. */
static int grow(void *ctx, void *out, size_t outlen)
{
    (void)out, (void)outlen;
    int mb = *(int *)ctx, done = 0;
    for (; done < mb; done += 4) {
        char *p = malloc(4u << 20);
        if (!p)
            break;
        memset(p, 1, 4u << 20); /* resident: kept (not freed) on purpose */
        usleep(2000);
    }
    return done;
}

static int die(void *ctx, void *out, size_t outlen)
{
    (void)out, (void)outlen;
    if (*(int *)ctx)
        raise(SIGTERM);
    _exit(3);
}

/* Writes *ctx lines "line K of the child PID", then returns 5. */
static int lines(void *ctx, FILE *out)
{
    for (int k = 0; k < *(int *)ctx; k++)
        fprintf(out, "line %d of the child %d\n", k, (int)getpid());
    return 5;
}

/* Sleeps *ctx milliseconds, then writes "awake". */
static int nap(void *ctx, FILE *out)
{
    usleep((useconds_t)(*(int *)ctx * 1000));
    fputs("awake", out);
    return 0;
}

static void the_value_and_block_come_back(void **state)
{
    (void)state;
    int in = 21;
    block b = { .n = -1 };
    mg_result r;
    assert_int_equal(mg_run(fill, &in, 64, &b, sizeof b, &r), 7);
    assert_int_equal(r.status, MG_DONE);
    assert_int_equal(b.n, 42);
    assert_true(strncmp(b.text, "from the child ", 15) == 0);
    assert_int_not_equal(atoi(b.text + 15), getpid()); /* it ran in another process */
}

static void a_step_past_the_limit_is_stopped(void **state)
{
    (void)state;
    int mb = 1024;
    char out[8];
    mg_result r;
    assert_int_equal(mg_run(grow, &mb, 40, out, sizeof out, &r), -1);
    print_message("%s (peak %.0f MB)\n", r.why, r.peak_mb);
    assert_int_equal(r.status, MG_OVER);
    assert_true(r.peak_mb > 40);
    assert_non_null(strstr(r.why, "over the memory limit of 40 MB"));
    /* without a limit the same step, smaller, finishes with its value */
    mb = 64;
    assert_int_equal(mg_run(grow, &mb, 0, out, sizeof out, &r), 64);
    assert_int_equal(r.status, MG_DONE);
    print_message("64 MB without a limit: peak seen %.0f MB\n", r.peak_mb);
}

static void a_step_that_dies_is_named(void **state)
{
    (void)state;
    int sig = 1;
    char out[8];
    mg_result r;
    assert_int_equal(mg_run(die, &sig, 64, out, sizeof out, &r), -1);
    assert_int_equal(r.status, MG_FAILED);
    print_message("%s\n", r.why);
    assert_non_null(strstr(r.why, "signal 15"));
    sig = 0;
    assert_int_equal(mg_run(die, &sig, 64, out, sizeof out, &r), -1);
    assert_int_equal(r.status, MG_FAILED);
    print_message("%s\n", r.why);
    assert_non_null(strstr(r.why, "exited with status 3 without its result"));
}

static void a_stream_comes_back_whole(void **state)
{
    (void)state;
    int n = 200000; /* about 6 MB: far more than a pipe holds */
    char *out = NULL;
    size_t len = 0;
    mg_result r;
    assert_int_equal(mg_run_stream(lines, &n, 0, 60, &out, &len, &r), 5);
    assert_int_equal(r.status, MG_DONE);
    assert_non_null(out);
    assert_int_equal(strlen(out), len);
    int child = 0, count = 0;
    for (char *p = out; *p; count++) {
        int k = -1, pid = -1;
        assert_int_equal(sscanf(p, "line %d of the child %d", &k, &pid), 2);
        assert_int_equal(k, count);
        if (!count)
            child = pid;
        assert_int_equal(pid, child);
        p = strchr(p, '\n');
        assert_non_null(p);
        p++;
    }
    assert_int_equal(count, n);
    assert_int_not_equal(child, getpid());
    free(out);
    n = 0; /* nothing written: an empty result, not a failure */
    assert_int_equal(mg_run_stream(lines, &n, 0, 0, &out, &len, &r), 5);
    assert_int_equal(r.status, MG_DONE);
    assert_int_equal(len, 0);
    assert_string_equal(out, "");
    free(out);
}

static void a_step_past_its_time_is_stopped(void **state)
{
    (void)state;
    int ms = 20000;
    char *out = (char *)"unchanged";
    size_t len = 1;
    mg_result r;
    assert_int_equal(mg_run_stream(nap, &ms, 0, 0.3, &out, &len, &r), -1);
    print_message("%s\n", r.why);
    assert_int_equal(r.status, MG_LATE);
    assert_null(out);
    assert_int_equal(len, 0);
    assert_true(r.seconds >= 0.3 && r.seconds < 15);
    assert_non_null(strstr(r.why, "over the time limit of 0.3 s"));
    ms = 10; /* well within its limit: done */
    assert_int_equal(mg_run_stream(nap, &ms, 0, 30, &out, &len, &r), 0);
    assert_int_equal(r.status, MG_DONE);
    assert_string_equal(out, "awake");
    free(out);
}

static void the_available_memory_is_read(void **state)
{
    (void)state;
    double mb = mg_available_mb();
    print_message("available: %.0f MB\n", mb);
    assert_true(mb > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_value_and_block_come_back),
        cmocka_unit_test(a_step_past_the_limit_is_stopped),
        cmocka_unit_test(a_step_that_dies_is_named),
        cmocka_unit_test(a_stream_comes_back_whole),
        cmocka_unit_test(a_step_past_its_time_is_stopped),
        cmocka_unit_test(the_available_memory_is_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
