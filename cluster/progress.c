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

double so_cl_progress(const so_cl_sim *sim, const so_cl_attempt *a)
{
    if (a->state == SO_CL_DONE)
        return 1.0;
    const so_cl_jobrt *job = &sim->jobs[a->job];
    if (a->phase == SO_CL_MAP)
        return frac(done_now(sim, a), a->work);
    const so_cl_reduce_work *rw =
        &job->spec->reduce_work[a->task - job->first_task[a->phase]];
    double after;
    if (a->seg == 1) {
        after = done_now(sim, a);
    } else if (a->chained && sim->now >= a->copy_end) {
        after = (sim->now - a->copy_end) * a->rate;
    } else {
        double copy = frac(done_now(sim, a), a->work);
        if (job->n[SO_CL_MAP] > 0) {
            double cap = (double)job->done[SO_CL_MAP] / job->n[SO_CL_MAP];
            copy = cap < copy ? cap : copy; /* fmin: both in [0, 1], not NaN */
        }
        return copy / 3.0;
    }
    return (1.0 + frac(after, rw->sort) + frac(after - rw->sort, rw->reduce)) /
           3.0;
}

double so_cl_progress_rate(const so_cl_sim *sim, const so_cl_attempt *a)
{
    double ran = sim->now - a->start;
    return ran > 0 ? so_cl_progress(sim, a) / ran : 0.0;
}
