/* arena/sandbox/arena_init.c — bin/arena-init, process 1 of a bot's sandbox (sandbox.h): starts the bot
 * as its only child, reaps whatever dies in the sandbox, and exits when the bot does, with the bot's exit
 * status, or 128 + N when a signal N killed it (as a shell reports it; the coordinator reads it back as
 * the signal). Being the one that reaps the bot, it carries the bot's peak memory up to the coordinator,
 * which waits for the sandbox (wait4 reports a process's resources with those of the children it
 * reaped). When it exits the kernel kills everything left in the sandbox's pid namespace.
 *
 * It dies with its parent (bwrap, which dies with the coordinator). With --lifeline FD, the read end of a
 * pipe whose write end only the coordinator holds, it also watches the coordinator itself for as long as
 * it runs and exits the moment that end closes: a coordinator killed while a sandbox was being set up, or
 * just after it killed a bwrap whose process 1 was still starting, leaves nothing running. Built without
 * sanitizers: it runs under the bot's address-space limit.
 *
 * A bot whose program cannot be started gets one line in its log saying why (for a script whose interpreter
 * is missing or not executable in the sandbox, the interpreter of its #! line), and exit status 127.
 *
 * arena-init --cgroup-watch FD DIR... is the coordinator's cgroup watcher (cgroup.h), started once by the
 * coordinator in a session of its own: it waits for the end of the pipe FD (the coordinator's end closes when
 * it exits or is killed), then kills every process in the groups DIR... and in the groups below them, and
 * removes them. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void on_child(int sig) { (void)sig; }

/* Says why the bot's program could not be started (errno e): when it is a script whose interpreter (its #!
 * line) is missing or not executable in the sandbox, names the interpreter, not the script. */
static void exec_failed(const char *program, int e)
{
    char line[512] = "";
    FILE *f = e == ENOENT || e == EACCES ? fopen(program, "r") : NULL;
    if (f) {
        if (!fgets(line, sizeof line, f))
            line[0] = '\0';
        fclose(f);
    }
    if (strncmp(line, "#!", 2) == 0) {
        char *interp = line + 2 + strspn(line + 2, " \t");
        interp[strcspn(interp, " \t\r\n")] = '\0';
        if (interp[0] && access(interp, X_OK) != 0) {
            fprintf(stderr, "arena-init: cannot start %s: its interpreter %s (#! line): %s\n", program, interp,
                    strerror(errno));
            return;
        }
    }
    fprintf(stderr, "arena-init: cannot start %s: %s\n", program, strerror(e));
}

/* The bot ended with status 127, what a shell reports for a command it could not find or run: when its own
 * exec succeeded (nothing came through `execd`), what it ran is the likely cause, and the log says where a
 * sandbox finds programs. */
static void wrapper_failed(const char *program, int execd)
{
    char c;
    if (read(execd, &c, 1) != 0)
        return; /* its own exec failed: exec_failed() said why */
    fprintf(stderr, "arena-init: %s exited with status 127: a program it runs was not found or could not be run "
            "(its error is above); a sandbox shows only /usr, /etc and the agent's own paths: a program elsewhere "
            "needs read = its directory\n", program);
}

/* Kills every process of the group at dir until none is left, then removes it (retried while processes
 * killed a moment ago are still being reaped by their new parent). */
static void remove_group(const char *dir)
{
    char path[8192];
    struct timespec tick = { 0, 2 * 1000 * 1000 };
    snprintf(path, sizeof path, "%s/cgroup.kill", dir);
    FILE *k = fopen(path, "w");
    if (k) { /* cgroup v2 */
        fputs("1", k);
        fclose(k);
    }
    snprintf(path, sizeof path, "%s/cgroup.procs", dir);
    for (int round = 0; round < 5000; round++) {
        FILE *f = fopen(path, "r");
        int n = 0;
        for (long pid; f && fscanf(f, "%ld", &pid) == 1; n++)
            kill((pid_t)pid, SIGKILL);
        if (f)
            fclose(f);
        if ((n == 0 && rmdir(dir) == 0) || !f)
            return;
        nanosleep(&tick, NULL);
    }
}

/* --cgroup-watch FD DIR...: waits for the coordinator's end, then empties and removes its groups. */
static int watch(int fd, int n, char **dirs)
{
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    for (char c;;) {
        ssize_t got = read(fd, &c, 1);
        if (got == 0 || (got < 0 && errno != EINTR))
            break;
    }
    for (int i = 0; i < n; i++) {
        DIR *d = opendir(dirs[i]);
        for (struct dirent *e; d && (e = readdir(d));) {
            char sub[8192];
            if (e->d_type == DT_DIR && e->d_name[0] != '.' &&
                snprintf(sub, sizeof sub, "%s/%s", dirs[i], e->d_name) < (int)sizeof sub)
                remove_group(sub);
        }
        if (d)
            closedir(d);
        remove_group(dirs[i]);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "--cgroup-watch") == 0)
        return watch(atoi(argv[2]), argc - 3, argv + 3);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    struct pollfd life = { .fd = -1, .events = POLLIN };
    if (argc > 2 && strcmp(argv[1], "--lifeline") == 0) {
        life.fd = atoi(argv[2]);
        if (fcntl(life.fd, F_SETFD, FD_CLOEXEC) != 0 || poll(&life, 1, 0) < 0 || life.revents)
            return 125; /* the coordinator is gone */
        argc -= 2;
        argv += 2;
    }
    /* SIGCHLD only wakes the wait below (ppoll), so a bot's end is seen at once */
    struct sigaction sa = { .sa_handler = on_child };
    sigaction(SIGCHLD, &sa, NULL);
    sigset_t chld, during;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, &during);
    sigdelset(&during, SIGCHLD);
    if (argc < 2 || strcmp(argv[1], "--help") == 0) {
        fprintf(argc < 2 ? stderr : stdout, "usage: arena-init [--lifeline FD] PROGRAM [ARG...]\n\n"
                                            "Process 1 of a bot's sandbox: runs the bot, exits with its status "
                                            "(128 + N after signal N).\nStarted by arena inside bwrap; not for "
                                            "use on its own.\n");
        return argc < 2 ? 2 : 0;
    }
    int execd[2]; /* close-on-exec: the child writes to it only when its exec failed */
    if (pipe2(execd, O_CLOEXEC) != 0) {
        perror("arena-init: pipe");
        return 127;
    }
    pid_t bot = fork();
    if (bot < 0) {
        perror("arena-init: fork");
        return 127;
    }
    if (bot == 0) {
        signal(SIGCHLD, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        execv(argv[1], argv + 1);
        exec_failed(argv[1], errno);
        ssize_t w = write(execd[1], "x", 1);
        (void)w;
        _exit(127);
    }
    close(execd[1]);
    for (;;) {
        int status;
        pid_t pid;
        while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
            if (pid == bot) {
                if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
                    wrapper_failed(argv[1], execd[0]);
                return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
            }
        if (pid < 0 && errno == ECHILD)
            return 127;
        /* until a child ends (EINTR) or the coordinator does (the lifeline closes) */
        if (ppoll(&life, life.fd >= 0 ? 1 : 0, NULL, &during) > 0 && life.revents)
            return 125;
    }
}
