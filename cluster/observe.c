/* observe.c — the statistics of observe.h, updated by the engine at each
 * task and job completion, and the user index built at the start. */
#include <stdlib.h>
#include <string.h>
#include "cluster/observe.h"
#include "cluster/sim_internal.h"

void so_cl_obs_add(so_cl_obs *o, double x)
{
    o->n++;
    double d = x - o->mean;
    o->mean += d / o->n;
    o->m2 += d * (x - o->mean);
}

double so_cl_obs_variance(const so_cl_obs *o)
{
    return o->n > 1 ? o->m2 / (o->n - 1) : 0.0;
}

const so_cl_obs *so_cl_job_obs(const so_cl_sim *s, int job, int phase)
{
    return &s->jobs[job].obs[phase];
}

const so_cl_obs *so_cl_node_obs(const so_cl_sim *s, int node, int phase)
{
    return &s->nodes[node].obs[phase];
}

int so_cl_user_count(const so_cl_sim *s) { return s->n_users; }

int so_cl_job_user(const so_cl_sim *s, int job) { return s->user_of[job]; }

int so_cl_user_history(const so_cl_sim *s, int user, const int **jobs)
{
    *jobs = s->user_jobs + s->user_start[user];
    return s->user_done[user];
}

static const so_cl_workload *sort_w;

static int by_user(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    int c = strcmp(sort_w->jobs[x].user, sort_w->jobs[y].user);
    return c ? c : x - y;
}

int so_cl_users_init(so_cl_sim *s)
{
    int n = s->w->n_jobs;
    s->user_of = calloc((size_t)n + 1, sizeof(int));
    s->user_jobs = calloc((size_t)n + 1, sizeof(int));
    s->user_start = calloc((size_t)n + 1, sizeof(int));
    s->user_done = calloc((size_t)n + 1, sizeof(int));
    if (!s->user_of || !s->user_jobs || !s->user_start || !s->user_done)
        return -1;
    for (int j = 0; j < n; j++)
        s->user_jobs[j] = j;
    sort_w = s->w;
    qsort(s->user_jobs, (size_t)n, sizeof(int), by_user);
    s->n_users = 0;
    for (int k = 0; k < n; k++) {
        int j = s->user_jobs[k];
        if (k == 0 || strcmp(s->w->jobs[j].user,
                             s->w->jobs[s->user_jobs[k - 1]].user))
            s->user_start[s->n_users++] = k;
        s->user_of[j] = s->n_users - 1;
    }
    return 0;
}

void so_cl_users_free(so_cl_sim *s)
{
    free(s->user_of);
    free(s->user_jobs);
    free(s->user_start);
    free(s->user_done);
}

void so_cl_observe_task(so_cl_sim *s, const so_cl_attempt *a, double duration)
{
    so_cl_obs_add(&s->jobs[a->job].obs[a->phase], duration);
    so_cl_obs_add(&s->nodes[a->node].obs[a->phase], duration);
}

void so_cl_observe_job(so_cl_sim *s, int job)
{
    int u = s->user_of[job];
    s->user_jobs[s->user_start[u] + s->user_done[u]++] = job;
}
