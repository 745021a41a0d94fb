/* tests/unit/test_tail.c — the tail of a log file as the servers read one (arena/base/tail.h): the last bytes of a
 * regular file with the count left out before them; a symbolic link (even to a readable file), a FIFO with no writer
 * (at once, never waiting on it) and a directory refused by name. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "tail.h"
#include "test_util.h"

static char dir[64], path[128];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/arena-tail-unit-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void the_last_bytes_of_a_regular_file(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "%s/a.log", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int i = 0; i < 1000; i++)
        fprintf(f, "line %04d\n", i); /* 10 bytes each */
    fclose(f);
    char *text, err[128];
    size_t len;
    int64_t skipped;
    assert_int_equal(tail_read(path, 25, &text, &len, &skipped, err, sizeof err), 0);
    assert_int_equal(len, 25);
    assert_int_equal(skipped, 10000 - 25);
    assert_string_equal(text, "0997\nline 0998\nline 0999\n"); /* NUL-terminated after its bytes */
    free(text);
    assert_int_equal(tail_read(path, 1 << 20, &text, &len, &skipped, err, sizeof err), 0);
    assert_int_equal(len, 10000);
    assert_int_equal(skipped, 0);
    assert_memory_equal(text, "line 0000\n", 10);
    free(text);
}

static void links_fifos_and_directories_refused(void **state)
{
    (void)state;
    char *text = (char *)1, err[128];
    size_t len;
    int64_t skipped;
    snprintf(path, sizeof path, "%s/link.log", dir);
    assert_int_equal(symlink("/etc/passwd", path), 0);
    assert_int_equal(tail_read(path, 100, &text, &len, &skipped, err, sizeof err), -1);
    assert_null(text);
    assert_string_equal(err, "a symbolic link");
    snprintf(path, sizeof path, "%s/fifo.log", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    double t0 = clk_now();
    assert_int_equal(tail_read(path, 100, &text, &len, &skipped, err, sizeof err), -1);
    assert_true(clk_now() - t0 < 30); /* at once: a blocking open of a FIFO with no writer never returns */
    assert_string_equal(err, "not a regular file");
    assert_int_equal(tail_read(dir, 100, &text, &len, &skipped, err, sizeof err), -1);
    assert_string_equal(err, "not a regular file");
    snprintf(path, sizeof path, "%s/missing.log", dir);
    assert_int_equal(tail_read(path, 100, &text, &len, &skipped, err, sizeof err), -1);
    assert_string_equal(err, "No such file or directory");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(the_last_bytes_of_a_regular_file, setup, teardown),
        cmocka_unit_test_setup_teardown(links_fifos_and_directories_refused, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
