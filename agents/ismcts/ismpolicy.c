/* agents/ismcts/ismpolicy.c — policy files the bot plays where they list its state (ismpolicy.h). */
#include "ismpolicy.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "variant.h"

struct ism_policies {
    pf_policy files[ISM_MAX_POLICIES];
    int n;
};

ism_policies *ism_policies_new(void)
{
    return calloc(1, sizeof(ism_policies));
}

void ism_policies_free(ism_policies *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->n; i++)
        pf_close(&p->files[i]);
    free(p);
}

int ism_policies_count(const ism_policies *p)
{
    return p->n;
}

static int load_file(ism_policies *p, const char *path, char *err, size_t errlen)
{
    if (p->n == ISM_MAX_POLICIES) {
        snprintf(err, errlen, "%s: more than %d policy files", path, ISM_MAX_POLICIES);
        return -1;
    }
    pf_policy *f = &p->files[p->n];
    if (pf_load(f, path, err, errlen) != 0)
        return -1;
    const pf_meta *m = &f->meta;
    if (m->keys != PF_KEYS_PERFECT) {
        snprintf(err, errlen, "%s: its keys are view keys (an abstraction); only perfect-recall files are played", path);
        pf_close(f);
        return -1;
    }
    for (int j = 0; j < p->n; j++) {
        const pf_meta *o = &p->files[j].meta;
        if (o->variant == m->variant && o->rows == m->rows && o->cols == m->cols && o->flags == m->flags) {
            snprintf(err, errlen, "%s: a second policy for %dx%d %s", path, m->rows, m->cols, hx_variant_name(m->variant));
            pf_close(f);
            return -1;
        }
    }
    p->n++;
    return 0;
}

static int only_policies(const struct dirent *e)
{
    size_t n = strlen(e->d_name);
    return n > 4 && strcmp(e->d_name + n - 4, ".pol") == 0;
}

int ism_policies_load(ism_policies *p, const char *path, bool dir, char *err, size_t errlen)
{
    if (!dir)
        return load_file(p, path, err, errlen);
    struct dirent **list;
    int n = scandir(path, &list, only_policies, alphasort);
    if (n < 0) {
        snprintf(err, errlen, "%s: cannot read the directory", path);
        return -1;
    }
    int rc = 0;
    if (n == 0) {
        snprintf(err, errlen, "%s: no .pol files", path);
        rc = -1;
    }
    for (int i = 0; i < n; i++) {
        char file[4096];
        snprintf(file, sizeof file, "%s/%s", path, list[i]->d_name);
        if (rc == 0)
            rc = load_file(p, file, err, errlen);
        free(list[i]);
    }
    free(list);
    return rc;
}

int ism_policies_choose(const ism_policies *p, hx_variant v, int rows, int cols, bool swap_rule, int opening, int player,
                        const hx_event *ev, int n, const uint16_t *legal, int n_legal, rng_state *rng)
{
    if (!p || opening > 0)
        return -1;
    const pf_policy *f = NULL;
    for (int i = 0; i < p->n && !f; i++) {
        const pf_meta *m = &p->files[i].meta;
        if (m->variant == v && m->rows == rows && m->cols == cols && ((m->flags & HX_SWAP_RULE) != 0) == swap_rule)
            f = &p->files[i];
    }
    if (!f)
        return -1;
    int64_t e = pf_find(f, player, hx_events_hash(ev, n));
    if (e < 0)
        return -1;
    int cell = pf_sample(f, e, (double)(rng_next(rng) >> 11) * 0x1.0p-53);
    for (int i = 0; i < n_legal; i++)
        if (legal[i] == cell)
            return cell;
    return -1;
}
