/* progress.c — progress score and progress rate of a running attempt, as
 * Hadoop 1.x reports them and as LATE (Zaharia et al., OSDI 2008, sec. 4)
 * and Hadoop's speculation read them: a map's score is the fraction of its
 * input read; a reduce's score is (copy + sort + reduce fractions) / 3, and
 * its copy fraction cannot exceed the fraction of the job's maps finished
 * (map outputs not yet produced cannot be fetched). Rate = score / seconds
 * run. Work done is integrated over the attempt's rates (rates.c). */
#include <math.h>
#include "cluster/sim_internal.h"

/* fmin(1, fmax(0, done / work)) (1 without work), by comparisons: the same
 * value for every input, NaN (0) and -0 (+0) included, without two libm
 * calls on the speculation rules' hottest path. */
static double frac(double done, double work)
{
    if (!(work > 0))
        return 1.0;
    double q = done / work;
    return q > 0 ? (q < 1.0 ? q : 1.0) : 0.0;
}

/* Work done of the attempt's current segment, now. */
static double done_now(const so_cl_sim *sim, const so_cl_attempt *a)
{
    return a->waiting ? a->done : a->done + (sim->now - a->updated) * a->rate;
}

/* The fraction of a job's maps done, which bounds its reduces' copy
 * fraction (+infinity: no maps, no bound). */
static double map_cap(const so_cl_jobrt *job)
{
    return job->n[SO_CL_MAP] > 0
               ? (double)job->done[SO_CL_MAP] / job->n[SO_CL_MAP]
               : INFINITY;
}

#define PREFETCH_AHEAD 8

/* so_cl_progress, given for a reduce its job's map_cap and map_cap / 3
 * (unused for a map), so that a batch of one job's attempts divides once. */
static inline double progress_of(const so_cl_sim *sim, const so_cl_attempt *a,
                                 double cap, double cap_third)
{
    if (a->state == SO_CL_DONE)
        return 1.0;
    if (a->phase == SO_CL_MAP)
        return frac(done_now(sim, a), a->work);
    const so_cl_jobrt *job = &sim->jobs[a->job];
    const so_cl_reduce_work *rw =
        &job->spec->reduce_work[a->task - job->first_task[a->phase]];
    double after;
    if (a->seg == 1) {
        after = done_now(sim, a);
    } else if (a->chained && sim->now >= a->copy_end) {
        after = (sim->now - a->copy_end) * a->rate;
    } else {
        /* fmin(copy, cap) / 3: copy in [0, 1] and cap never NaN */
        double copy = frac(done_now(sim, a), a->work);
        return cap < copy ? cap_third : copy / 3.0;
    }
    return (1.0 + frac(after, rw->sort) + frac(after - rw->sort, rw->reduce)) /
           3.0;
}

double so_cl_progress(const so_cl_sim *sim, const so_cl_attempt *a)
{
    if (a->phase == SO_CL_MAP)
        return progress_of(sim, a, 0, 0);
    double cap = map_cap(&sim->jobs[a->job]);
    return progress_of(sim, a, cap, cap / 3.0);
}

double so_cl_progress_rate(const so_cl_sim *sim, const so_cl_attempt *a)
{
    double ran = sim->now - a->start;
    return ran > 0 ? so_cl_progress(sim, a) / ran : 0.0;
}

void so_cl_progress_rates(const so_cl_sim *sim, int job, const int *ids, int n,
                          double *rate)
{
    double cap = map_cap(&sim->jobs[job]), cap_third = cap / 3.0;
    for (int k = 0; k < n; k++) {
        /* the attempts lie apart in memory: fetch a few ahead */
        if (k + PREFETCH_AHEAD < n)
            __builtin_prefetch(&sim->attempts[ids[k + PREFETCH_AHEAD]]);
        const so_cl_attempt *a = &sim->attempts[ids[k]];
        double ran = sim->now - a->start;
        rate[k] = ran > 0 ? progress_of(sim, a, cap, cap_third) / ran : 0.0;
    }
}
