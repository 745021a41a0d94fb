/* arena/sandbox/sandbox_private.h — what the sandbox library's files share and no other library needs. */
#ifndef ARENA_SANDBOX_SANDBOX_PRIVATE_H
#define ARENA_SANDBOX_SANDBOX_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>

/* bin/arena-init, process 1 of every sandbox and the cgroup watcher: $ARENA_INIT, else next to the running program
 * (bin/arena, or PREFIX/bin after make install), into out. Whether it is there and executable. */
bool sb_find_init(char *out, size_t n);

#endif
