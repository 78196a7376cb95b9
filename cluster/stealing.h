/*
 * stealing.h — resource stealing, a node policy (stealing.c): on a node
 * with idle slots the running tasks of that phase take the idle slots as
 * extra threads and hand them back when new tasks land there. The residue
 * (idle slots) is split among them by one of the paper's Table I policies.
 */
#ifndef SO_CL_STEALING_H
#define SO_CL_STEALING_H

#include "cluster/cluster.h"

enum {
    SO_CL_STEAL_NONE = 0,
    SO_CL_STEAL_EVEN, /* Even */
    SO_CL_STEAL_FCM,  /* First-Come-Most */
    SO_CL_STEAL_STLM, /* Shortest-Time-Left-Most */
    SO_CL_STEAL_LTLM, /* Longest-Time-Left-Most */
    SO_CL_STEAL_STM,  /* Speculative-Tasks-Most */
    SO_CL_STEAL_LTM,  /* Laggard-Tasks-Most */
    SO_CL_STEAL_POLICIES
};

/* LTM: a task whose fastness N_l / N_r is below this is a laggard. */
#define SO_CL_STEAL_SLOW_TASK_THRESHOLD 0.25

/* The policy's CLI name ("none", "even", "fcm", "stlm", "ltlm", "stm",
 * "ltm"), NULL out of range; the policy of a name, -1 if unknown. */
const char *so_cl_steal_name(int policy);
int so_cl_steal_find(const char *name);

/* What a node knows of one of its running tasks when it splits the
 * residue. */
typedef struct so_cl_steal_task {
    int id;          /* attempt's launch serial (last tie-break) */
    double start;    /* launch time */
    double left;     /* estimated time left, seconds (INFINITY: no estimate) */
    int speculative; /* a speculative copy */
    double fastness; /* N_l / N_r within its job and phase (LTM) */
} so_cl_steal_task;

/* Splits `residue` extra threads among the n tasks by `policy`
 * (extra[i] out; they sum to residue when n > 0). Even shares: each
 * recipient floor(residue / m), the first residue mod m recipients in
 * launch order (earliest first, then lower id) one more. */
void so_cl_steal_distribute(int policy, const so_cl_steal_task *t, int n,
                            int residue, int *extra);

/* Speed-up of a task running k >= 1 threads with Amdahl parallel fraction f:
 * 1 / ((1 - f) + f / k). */
double so_cl_steal_speedup(double f, int k);

/* The node policy: state for so_cl_config.hooks_state, with
 * so_cl_config.hooks = &so_cl_stealing_hooks. */
typedef struct so_cl_stealing so_cl_stealing;
int so_cl_stealing_new(int policy, so_cl_stealing **out);
void so_cl_stealing_free(so_cl_stealing *st);
extern const so_cl_hooks so_cl_stealing_hooks;

#endif
