/* arena/ladder/local.c — a lab's own program checked against the allowed directories (local.h). */
#define _DEFAULT_SOURCE /* realpath */
#include "local.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Whether the resolved path lies strictly inside the allowed directory (resolved too). */
static int inside(const char *real, const char *allowed)
{
    char top[PATH_MAX];
    if (!realpath(allowed, top))
        return 0;
    size_t n = strlen(top);
    if (n == 1) /* "/" itself */
        return 1;
    return strncmp(real, top, n) == 0 && real[n] == '/';
}

int ld_local_command(const char *cmdline, const char *const *allowed, int n_allowed, ld_local *out, char *err,
                     size_t errlen)
{
    memset(out, 0, sizeof *out);
    cmdline += strspn(cmdline, " \t");
    size_t k = strcspn(cmdline, " \t");
    char prog[PATH_MAX], real[PATH_MAX];
    if (k == 0 || k >= sizeof prog || cmdline[0] != '/') {
        snprintf(err, errlen, "command: expected the absolute path of a program in an allowed directory");
        return -1;
    }
    memcpy(prog, cmdline, k);
    prog[k] = '\0';
    const char *args = cmdline + k + strspn(cmdline + k, " \t");
    struct stat st;
    if (!realpath(prog, real) || stat(real, &st) != 0 || !S_ISREG(st.st_mode) || access(real, X_OK) != 0) {
        snprintf(err, errlen, "command: '%.300s': not an executable file", prog);
        return -1;
    }
    int ok = 0;
    for (int i = 0; i < n_allowed && !ok; i++)
        ok = inside(real, allowed[i]);
    if (!ok) {
        snprintf(err, errlen, "command: '%.300s' (%.300s) is in none of the allowed directories", prog, real);
        return -1;
    }
    char *slash = strrchr(real, '/');
    if (strlen(slash + 1) > LD_PATH_MAX || strlen(args) > CFG_COMMAND_MAX) {
        snprintf(err, errlen, "command: too long");
        return -1;
    }
    *slash = '\0';
    snprintf(out->dir, sizeof out->dir, "%s", real[0] ? real : "/");
    snprintf(out->program, sizeof out->program, "%s", slash + 1);
    snprintf(out->args, sizeof out->args, "%s", args);
    return 0;
}
