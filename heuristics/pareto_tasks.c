/* pareto_tasks.c — task adjustment: Zacheilas and Kalogeraki 2017, section
 * 4.3.1, Algorithm 4 (hill climbing on the task count, Eq. 9). Choice: the
 * count never exceeds the job's own task count (the instance's count is the
 * ceiling of the search; the paper leaves the loop unbounded). */
#include "heuristics/pareto_heuristics.h"

void so_pt_adjust_tasks(const so_pt_job *job, so_pt_alloc *a, int map)
{
    int64_t *tasks = map ? &a->mt : &a->rt;
    int64_t cap = map ? job->map_tasks : job->reduce_tasks;
    *tasks = map ? a->ms : a->rs;
    double t = so_pt_jtime(job, a);
    while (*tasks < cap) {
        (*tasks)++;
        double next = so_pt_jtime(job, a);
        if (next >= t) {
            (*tasks)--;
            break;
        }
        t = next;
    }
}
