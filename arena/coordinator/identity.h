/* arena/coordinator/identity.h — what an agent is beyond its program: the files and directories its command line
 * names (a policy file, a directory of weights: every argument that is an existing path, from its working
 * directory) and its `read =` paths, each hashed with SHA-256 once per run. An agent's identity hash is then the
 * SHA-256 of its program's hash and of each of those paths with its hash, so a retrained policy under the same
 * command line is a new agent, with a rating history of its own; the store keeps each file's hash
 * (agent_files), so a report can say which file changed. */
#ifndef ARENA_COORDINATOR_IDENTITY_H
#define ARENA_COORDINATOR_IDENTITY_H

#include <stddef.h>

#include "agent.h"

#define ID_MAX_FILES 24          /* paths an agent's identity takes in (more: refused, naming the limit) */
#define ID_MAX_DIR_FILES 100000  /* regular files under one named directory */

typedef struct {
    char path[512];              /* as the command line or `read =` names it */
    char sha256[65];             /* a file's contents; a directory's: of each regular file's relative path and hash */
} id_file;

typedef struct {
    id_file files[ID_MAX_FILES];
    int n;
} id_files;

/* Hashes what c's command line (c->argv[1..]) and c->sandbox.read name into out and, when it names anything,
 * replaces c->sha256 (its program's hash) by the identity hash above. Symbolic links inside a named directory
 * are not followed. Returns 0, or -1 with the path and the reason in err. */
int id_hash(ag_command *c, id_files *out, char *err, size_t errlen);

#endif
